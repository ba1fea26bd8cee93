"""The worked example of SPEC §3.4 end to end, through the API and the CLI (``kop demo``)."""

import json
import subprocess
import sys

import pytest

import kop
from kop.io.trees import save_tree
from kop.selection.examples import SCENARIOS, figure2
from kop.selection.decide import decide
from kop.selection.selector import select
from kop.selection.worked_example import worked_example


def test_every_number_of_the_worked_example():
    result = worked_example()
    bad = [(c.what, c.computed, c.expected) for c in result.checks if not c.ok]
    assert not bad
    assert len(result.checks) >= 30


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda s: s.name)
def test_selector_per_scenario(sc):
    s = select(figure2(), sc.knowledge, "A")
    assert (s.level, s.opponent_level) == (sc.level_a, sc.level_b)
    if sc.level_a == 0:
        assert s.recommended.strategy == "minimax"
        assert s.recommended.guaranteed == (4, 7)
        assert s.best_with_communication is None
    else:
        assert s.recommended.strategy == f"HM0M{sc.level_a}"
        assert s.recommended.guaranteed == (9, 4)
        assert s.recommended.verified is True
        assert s.best_with_communication.outcome == (10, 3)
    schemes = {c.scheme: c.applicable for c in s.communication}
    assert schemes == {"I": sc.level_a >= 1, "II": sc.level_a >= 2}


def test_decided_nodes_of_figure2():
    t = figure2()
    assert decide(t, SCENARIOS[0].knowledge).decided_nodes() == []
    names = sorted(n.label for n in decide(t, SCENARIOS[3].knowledge).decided_nodes())
    assert names == ["R", "T", "W", "X", "Y", "Z"]
    # common knowledge of both evaluations decides every node (Corollary 3 / Theorem 1.2)
    ck = ["C{A,B}(E_A & E_B)", "K_A S_A", "K_B S_B"]
    assert len(decide(t, ck).decided_nodes()) == sum(1 for n in t.nodes() if not n.is_leaf)
    s = select(t, ck, "A")
    assert s.recommended.strategy == "Mh" and s.recommended.guaranteed == (10, 3)
    assert s.recommended.verified is True


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "kop", *args], capture_output=True, text=True, timeout=300)


def test_kop_demo_exits_zero_and_reports_all_figures():
    r = _cli("demo")
    assert r.returncode == 0, r.stderr
    assert "32 of 32 figures match the paper" in r.stdout
    j = json.loads(_cli("demo", "--json").stdout)
    assert j["ok"] is True
    assert [s["with_communication"] for s in j["scenarios"]] == [None, [10, 3], [10, 3], [10, 3]]


def test_kop_select_json(tmp_path):
    path = tmp_path / "fig2.json"
    save_tree(figure2(), path)
    r = _cli("select", str(path), "-c", "A=2", "-c", "B=1", "--json")
    assert r.returncode == 0, r.stderr
    j = json.loads(r.stdout)
    assert j["recommended"] == "HM0M2" and j["outcome"] == [9, 4]
    assert j["outcome_with_communication"] == [10, 3]
    assert j["level"] == 2 and j["opponent_level"] == 1
    r = _cli("select", str(path), "-k", "C{A,B}(E_A & E_B)", "-k", "K_A S_A", "--json")
    assert json.loads(r.stdout)["recommended"] == "Mh"


def test_kop_select_bad_input(tmp_path):
    path = tmp_path / "fig2.json"
    save_tree(figure2(), path)
    for args in (["-c", "C=2"], ["-c", "A=x"], ["-k", "K_A ("]):
        r = _cli("select", str(path), *args)
        assert r.returncode == 2 and "Traceback" not in r.stderr and "error" in r.stderr
    r = _cli("select", str(tmp_path / "missing.json"))
    assert r.returncode == 2 and "Traceback" not in r.stderr
