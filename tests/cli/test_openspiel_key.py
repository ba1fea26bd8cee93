"""``kop solve openspiel:... --key``: the key used is said (text and JSON), and an inexact key warns (issue 29)."""

from __future__ import annotations

import json

import pytest

from kop.cli.app import main

PIG = "openspiel:pig(winscore=3,horizon=4,diceoutcomes=2)"


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as stop:
        main(list(args))
    out = capsys.readouterr()
    return int(stop.value.code or 0), out.out, out.err


def test_the_key_is_said_and_the_inexact_one_warns(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel")
    code, out, err = _run(capsys, "solve", PIG, "-s", "Mh", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["key"] == "history" and doc["key_exact"] is True and doc["value"] == [0.125, -0.125]
    assert "warning" not in err
    code, out, err = _run(capsys, "solve", PIG, "-s", "Mh", "--key", "string", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["key"] == "string" and doc["key_exact"] is False
    assert doc["value"] == [-0.125, 0.125]       # the wrong value the printed position gives on pig ...
    assert "warning: --key string" in err and "wrong values" in err   # ... and the warning that says so
    code, out, err = _run(capsys, "solve", PIG, "-s", "Mh", "--key", "string")
    assert code == 0 and "key:   string (INEXACT: the printed position)" in out and "warning" in err
    code, out, _ = _run(capsys, "solve", PIG, "-s", "Mh")
    assert "key:   history (exact: the action history)" in out
