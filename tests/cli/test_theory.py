"""Theory files (.kop): parsing with located errors, running, and the ``kop run`` command."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kop import KopError, ParseError, parse
from kop.theory import load_theory, parse_theory, run_theory

THEORIES = Path(__file__).resolve().parents[2] / "theories"


def test_parse_statements():
    th = parse_theory('tree "t.json"  # a comment\n\nagents A, B\nknow K_A E_B\ncore A = 2\n'
                      'ask entails K_A K_B E_A   # trailing comment\nask level A\nask select\nask decided\n')
    kinds = [type(s).__name__ for s in th.statements]
    assert kinds == ["TreeFile", "Agents", "Know", "Core", "AskFormula", "AskLevel", "AskSelect", "AskDecided"]
    assert th.statements[2].formula == parse("K_A E_B")
    assert (th.statements[4].verb, th.statements[4].formula) == ("entails", parse("K_A K_B E_A"))
    assert [s.line for s in th.statements] == [1, 3, 4, 5, 6, 7, 8, 9]


def test_figure2_theory_answers():
    answers = run_theory(load_theory(THEORIES / "figure2_scenario4.kop"))
    by_q = {a.question: a.result for a in answers}
    assert by_q["level A"] == {"level": 2} and by_q["level B"] == {"level": 1}
    assert by_q["entails K_A K_B E_A"]["holds"] is True
    no = by_q["entails K_B K_A E_B"]
    assert no["holds"] is False and no["model"] is not None
    assert by_q["decided"]["decided"] == ["R", "T", "W", "X", "Y", "Z"]
    assert by_q["select A"]["recommended"] == "HM0M2"
    assert by_q["select A"]["outcome_with_communication"] == [10, 3]


def test_muddy_theory_answers():
    answers = run_theory(load_theory(THEORIES / "muddy3.kop"))
    checks = [a.result["holds"] for a in answers if a.question.startswith("check")]
    assert checks == [True, True]
    assert answers[-1].result["holds"] is True


@pytest.mark.parametrize("text,line,column,part", [
    ('tree "a.json"\nask entails K_A (p &\n', 2, 21, "in a formula: expected a formula after '&'"),
    ("know K_A\n", 1, 9, "expected a formula after 'K_A'"),
    ("asks level A\n", 1, 1, "unknown statement 'asks'"),
    ("core A 2\n", 1, 8, "expected '='"),
    ("\n\n  know p q\n", 3, 10, "after 'p'"),
    ('tree figure2.json\n', 1, 6, 'expected a quoted file name'),
])
def test_located_errors(text, line, column, part):
    with pytest.raises(ParseError) as info:
        parse_theory(text)
    assert (info.value.line, info.value.column) == (line, column), str(info.value)
    assert part in str(info.value)


def test_run_errors_name_the_line(tmp_path):
    with pytest.raises(KopError, match="line 1, column 1: 'ask select' needs a game"):
        run_theory(parse_theory("ask select A\n"))
    with pytest.raises(KopError, match="needs a model"):
        run_theory(parse_theory("ask check p\n"))
    with pytest.raises(KopError, match="opponent"):
        run_theory(parse_theory("core A = 1\n"))
    with pytest.raises(KopError, match="cannot read theory"):
        load_theory(tmp_path / "missing.kop")


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "kop", *args], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("path", sorted(THEORIES.glob("*.kop")), ids=lambda p: p.name)
def test_every_shipped_theory_runs(path):
    r = _cli("run", str(path), "--json")
    assert r.returncode == 0, r.stderr
    assert isinstance(json.loads(r.stdout), list)


def test_cli_bad_theory_exit_2(tmp_path):
    bad = tmp_path / "bad.kop"
    bad.write_text("know K_A (p\n")
    r = _cli("run", str(bad))
    assert r.returncode == 2 and "Traceback" not in r.stderr and "line 1, column" in r.stderr
