"""``A believes E_B among { p: [..] ... }`` in theories, and the selector under uncertainty in kop dominates."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import kop

ROOT = Path(__file__).resolve().parents[2]
THEORY = ROOT / "theories" / "figure2_uncertain.kop"
GAME = """players A max, B min
game root: A {
  R: B { (4,7) (8,9) }
  S: B { U: A { W: B { (7,4) (5,6) }  X: B { (10,3) (6,10) } }  V: A { Y: B { (3,8) (1,9) }  Z: B { (2,2) (11,12) } } }
  T: B { (9,4) (1,5) }
}
"""
EB = "[7, 9, 4, 6, 3, 10, 8, 9, 2, 12, 4, 5]"
ADV = "[4, 8, 7, 5, 10, 6, 3, 1, 2, 11, 9, 1]"


def _cli(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "kop", *args], capture_output=True, text=True, timeout=300,
                          env=env)


def _dominates(belief: str):
    answers = kop.run_theory(kop.parse_theory(GAME + belief + "\nask dominates A\n", "."))
    return answers[-1]


def test_the_table_is_the_library_s():
    a = _dominates(f"A believes E_B among {{ 0.3: {EB}  0.7: {ADV} }}")
    table = a.result["uncertainty"][0]
    assert table["belief_true"] and table["probabilities"] == [0.3, 0.7]
    b = kop.believes_candidates("A", "B", [json.loads(EB), json.loads(ADV)], ["0.3", "0.7"])
    assert table["strategies"] == [r.to_json() for r in kop.outcomes_under_belief(kop.figure2(), b)]
    assert "Under uncertainty" in a.text and "in fact" in a.text
    # the paper's report is unchanged: the fields of a theory without beliefs are all there
    plain = kop.run_theory(kop.parse_theory(GAME + "ask dominates A\n", "."))[-1]
    assert set(plain.result) | {"uncertainty"} == set(a.result)


def test_probabilities_may_be_omitted_and_labels_used():
    a = _dominates(f"A believes E_B among {{ {ADV} {EB} }}")
    assert a.result["uncertainty"][0]["probabilities"] == [0.5, 0.5]


def test_false_belief_says_in_belief():
    wrong = "[7, 9, 4, 6, 3, 10, 8, 9, 2, 12, 6, 4]"
    a = _dominates(f"A believes E_B among {{ 1/2: {ADV}  1/2: {wrong} }}")
    t = a.result["uncertainty"][0]
    assert not t["belief_true"] and t["p_actual"] == 0
    assert {r["holds"] for r in t["strategies"]} == {"in belief"}
    assert "FALSE" in a.text


@pytest.mark.parametrize("belief, message, column", [
    ("A believes E_B among { 0.5: [1,2] [3,4] }", "give every candidate a probability", 35),
    (f"A believes E_B among {{ -1: {EB} }}", "negative", 24),
    ("A believes E_B among { [1, 2] }", "needs 12 values", 24),
    ("A believes E_B among { }", "expected", 24),
    ("A believes E_Q among { [1] }", "unknown player 'Q'", 12),
    (f"A believes E_B among {{ 0: {EB} }}", "sum to 0", 1),
    ("A believes E_B among { (nope = 1) }", "no leaf labelled 'nope'", 24),
    (f"B believes E_B among {{ {EB} }}", "its own evaluation", 1),
])
def test_bad_beliefs_are_located(belief, message, column):
    with pytest.raises(kop.KopError, match=message) as exc:
        _dominates(belief)
    assert f"line 7, column {column}" in str(exc.value)


def test_kop_dominates_shows_the_tables_and_exits_2_on_bad_input(tmp_path):
    r = _cli("dominates", str(THEORY))
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("Under uncertainty") == 2 and "the belief is FALSE" in r.stdout
    j = json.loads(_cli("dominates", str(THEORY), "--json").stdout)
    rows = j["scenarios"][1]["uncertainty"][0]["strategies"]
    assert {"strategy", "move", "expected", "believed", "guaranteed", "actual", "guarantee_holds",
            "holds"} == set(rows[0])
    bad = tmp_path / "bad.kop"
    bad.write_text(GAME + f"A believes E_B among {{ -1: {EB} }}\nask dominates A\n")
    r = _cli("dominates", str(bad))
    assert r.returncode == 2 and "negative" in r.stderr and "Traceback" not in r.stderr
