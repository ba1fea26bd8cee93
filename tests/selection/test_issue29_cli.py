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


def test_select_names_what_decide_computes(capsys):
    code, out, _ = _run(capsys, "select", str(THEORIES / "figure2.json"), "-c", "A=2", "-c", "B=1")
    assert code == 0 and "Algorithm 3" not in out
    assert "Decided nodes (Definition 6, by the corrected Decide): R, T, W, X, Y, Z." in out


def test_decided_help_describes_the_corrected_rule(capsys):
    code, out, _ = _run(capsys, "decided", "--help")
    assert code == 0
    assert "K_B E_A at a height-1 node of A" not in out
    assert "K_Y E_X" in out and "--strict" in out


def test_strict_reading_from_the_command_line_and_theory_files(capsys, tmp_path):
    f = THEORIES / "strict_reading.kop"
    code, out, _ = _run(capsys, "decided", str(f))
    assert code == 0 and out.startswith("decided nodes: root, n, m1, m2")
    code, out, _ = _run(capsys, "decided", "--strict", str(f))
    assert code == 0 and out.startswith("decided nodes: n, m1, m2") and "K_A K_B E_A does not follow" in out
    code, out, _ = _run(capsys, "dominates", "--strict", str(f))
    assert code == 0 and "decided nodes: n, m1, m2." in out
    strict = tmp_path / "strict.kop"
    strict.write_text(f.read_text().replace("ask decided", "decide strict\nask decided\nask select"))
    code, out, _ = _run(capsys, "run", str(strict))
    assert code == 0 and "decided nodes: n, m1, m2\n" in out
    assert "Decided nodes (Definition 6, strict reading, by the corrected Decide): n, m1, m2." in out
    code, out, _ = _run(capsys, "select", str(THEORIES / "figure2.json"), "-c", "A=2", "-c", "B=2", "--strict")
    assert code == 0 and "strict reading" in out


def test_bad_reading_is_a_located_error(capsys, tmp_path):
    bad = tmp_path / "bad.kop"
    bad.write_text("players A max, B min\ngame A { (1,2) (3,0) }\ndecide loosely\nask decided\n")
    code, out, err = _run(capsys, "run", str(bad))
    assert code == 2 and "line 3" in err and "'strict' or 'agreement'" in err and "Traceback" not in err


def test_select_json_says_the_reading(capsys):
    import json

    code, out, _ = _run(capsys, "select", str(THEORIES / "figure2.json"), "-c", "A=2", "-c", "B=1", "--json", "--strict")
    doc = json.loads(out)
    assert code == 0 and doc["strict"] is True
    assert all("outdone_by" in c for c in doc["candidates"])
