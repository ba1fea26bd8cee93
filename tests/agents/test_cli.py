"""``kop match`` and ``kop solve openspiel:NAME`` through the real entry point (subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIG2 = str(ROOT / "theories" / "figure2.json")


def kop(*args):
    return subprocess.run([sys.executable, "-m", "kop", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


@pytest.mark.parametrize("flags, outcome, moves", [
    (["-a", "A=level:2", "-a", "B=level:1"], [9, 4], ["T", "0"]),
    (["-a", "A=level:2", "-a", "B=level:1", "--communication"], [10, 3], ["S", "U", "X", "0"]),
    (["-a", "A=level:1;strategy:M1", "-a", "B=level:1;strategy:M1"], [3, 8], ["S", "V", "Y", "0"]),
    (["-a", "B=knowledge:K_B E_A", "-a", "A=level:inf"], [10, 3], ["S", "U", "X", "0"]),
])
def test_match_figure2(flags, outcome, moves):
    r = kop("match", FIG2, *flags, "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["outcome"] == outcome and out["moves"] == moves
    assert all(e["reasons"] for e in out["log"] if e["kind"] == "move")


def test_match_text_and_theory_scenario():
    r = kop("match", "theories/figure2.kop", "--scenario", "s4", "-a", "A", "-a", "B")
    assert r.returncode == 0, r.stderr
    assert "A (A) plays T by HM0M2, predicting (9, 4)" in r.stdout
    assert r.stdout.strip().endswith("outcome: (9, 4)")


@pytest.mark.parametrize("flags, message", [
    (["-a", "A=lvl:2", "-a", "B"], "unknown item 'lvl'"),
    (["-a", "A=level:two", "-a", "B"], "level:two must be a number"),
    (["-a", "A"], "1 --agent for the 2 players"),
    (["-a", "A=strategy:best", "-a", "B"], "unknown strategy 'best'"),
    (["-a", "A=knowledge:K_A (", "-a", "B"], "line 1"),
    (["-a", "A", "-a", "B", "--scenario", "s1"], "--scenario applies to theory files"),
    (["-a", "A", "-a", "B", "--key", "string"], "--key applies to openspiel"),
])
def test_match_bad_input(flags, message):
    r = kop("match", FIG2, *flags)
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr


def test_match_unknown_scenario():
    r = kop("match", "theories/figure2.kop", "--scenario", "s9", "-a", "A", "-a", "B")
    assert r.returncode == 2 and "no scenario 's9'" in r.stderr


pytest.importorskip("pyspiel")


def test_solve_openspiel():
    r = kop("solve", "openspiel:tic_tac_toe", "-s", "alphabeta", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["value"] == [0, 0] and len(out["pv"]) == 9 and out["players"] == ["P0", "P1"]
    r = kop("solve", "openspiel:connect_four", "-s", "M2", "--depth", "3", "--eval", "zero", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["depth"] == 3


def test_solve_openspiel_is_exact_by_default_and_the_string_key_is_opt_in():
    pig = "openspiel:pig(winscore=3,horizon=4,diceoutcomes=2)"
    r = kop("solve", pig, "-s", "Mh", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["value"] == [0.125, -0.125]
    r = kop("solve", pig, "-s", "Mh", "--key", "string", "--json")   # the printout omits the turn counter
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["value"] == [-0.125, 0.125]


@pytest.mark.parametrize("args, message", [
    ([FIG2, "--key", "string"], "--key applies to openspiel"),
    (["openspiel:tic_tac_toe", "--key", "printout"], "invalid choice"),
    (["openspiel:kuhn_poker"], "imperfect information"),
    (["openspiel:no_such"], "has no game 'no_such'"),
    (["openspiel:connect_four", "--depth", "2"], "has no evaluation function"),
    (["openspiel:tic_tac_toe", "--depth", "-1"], "depth must be >= 0"),
    ([FIG2, "--depth", "2"], "--depth applies to openspiel"),
])
def test_solve_openspiel_bad_input(args, message):
    r = kop("solve", *args)
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr


def test_match_openspiel_tic_tac_toe():
    r = kop("match", "openspiel:tic_tac_toe", "-a", "X=level:inf", "-a", "O=level:inf", "--key", "string", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["outcome"] == [0, 0]


def test_a_match_too_big_to_search_stops_at_the_node_budget():
    r = kop("match", "openspiel:connect_four", "-a", "X", "-a", "O", "--max-nodes", "1000")
    assert r.returncode == 2 and "visited more than 1000 states" in r.stderr
