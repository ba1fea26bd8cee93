"""Output files that cannot be written: a located error, exit 2, never an internal error.

Regression test of a crash the CLI fuzz test found (tests/fuzz/test_cli.py): ``kop draw -o``
into a missing folder, or onto a folder named like a picture, ended in "internal error
(FileNotFoundError)" / "(IsADirectoryError)".  ``announce`` and ``minimize`` already said so.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_runner import run_cli
from extras import needs_draw

ROOT = Path(__file__).resolve().parents[2]
MODEL = str(ROOT / "theories" / "muddy3.model.json")
TREE = str(ROOT / "theories" / "figure2.json")


@needs_draw
@pytest.mark.parametrize("where", ["missing", "folder"])
@pytest.mark.parametrize("source", [MODEL, TREE])
def test_draw_to_an_unwritable_path(tmp_path, where, source):
    out = tmp_path / "nope" / "x.svg" if where == "missing" else tmp_path / "x.svg"
    if where == "folder":
        out.mkdir()
    r = run_cli(["draw", source, "-o", str(out)])
    assert r.code == 2, r
    assert r.err.startswith(f"error: {out}: cannot save the picture ("), r.err


@pytest.mark.parametrize("command", [["announce", MODEL, "m1"], ["minimize", MODEL]])
def test_model_output_to_an_unwritable_path(tmp_path, command):
    r = run_cli([*command, "--output", str(tmp_path / "nope" / "out.json")])
    assert r.code == 2 and "cannot write the model" in r.err, r
