"""What the selection commands say (issue 29 §1): the guarantee explained, Decide named for what it
computes, the strict reading of Definition 6 from the command line and theory files."""

from __future__ import annotations

from pathlib import Path

import pytest

from kop.cli.app import main

THEORIES = Path(__file__).resolve().parents[2] / "theories"


def _run(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_missing_guarantee_is_explained(capsys):
    code, out, _ = _run(capsys, "dominates", str(THEORIES / "figure2.kop"))
    assert code == 0 and "40 of 40 expected figures match" in out
    assert "guaranteed -" not in out
    assert "HM0M1    does not apply" in out and "guaranteed: none computed (it does not apply" in out
