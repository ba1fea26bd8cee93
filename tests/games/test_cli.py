"""``kop solve`` and ``kop play`` through the real entry point (subprocess)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIG2 = str(ROOT / "theories" / "figure2.json")


def kop(*args):
    return subprocess.run([sys.executable, "-m", "kop", *args], capture_output=True, text=True, cwd=ROOT)


@pytest.mark.parametrize("strategy, value, path", [
    ("Mh", [10, 3], ["S", "U", "X", 0]),
    ("minimax", [4, 7], ["R", 0]),
    ("alphabeta", [4, 7], ["R", 0]),
    ("M0", [4, 7], ["R", 0]),
    ("M2", [9, 4], ["T", 0]),
    ("HM0M1", [9, 4], ["T", 0]),
])
def test_solve_json(strategy, value, path):
    r = kop("solve", FIG2, "--strategy", strategy, "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["value"] == value and out["path"] == path


def test_solve_player_and_efg():
    out = json.loads(kop("solve", str(ROOT / "theories" / "figure2.efg"), "-s", "M1", "--player", "B", "--json").stdout)
    assert out["player"] == "B" and out["path"] == ["R", 0]   # B models A as its minimax
    r = kop("solve", FIG2, "-s", "HM0M3")
    assert r.returncode == 0 and "value: (10, 3)" in r.stdout and "root -> S -> U -> X -> (10, 3)" in r.stdout


def test_play_json_and_text():
    r = kop("play", FIG2, "--strategy", "A=M2", "--strategy", "B=M1", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["outcome"] == [9, 4] and json.loads(r.stdout)["path"] == ["T", 0]
    r = kop("play", str(ROOT / "theories" / "sharing.json"), "-s", "Andy=Mh", "-s", "Barb=Mh", "--tie", "last")
    assert "outcome: (1, 1)" in r.stdout and "share -> yes" in r.stdout


@pytest.mark.parametrize("args, message", [
    (["solve", FIG2, "-s", "M2x"], "unknown strategy 'M2x'"),
    (["solve", FIG2, "-s", "Mh", "-p", "C"], "unknown player 'C'"),
    (["play", FIG2, "-s", "A=M2"], "no strategy for player B"),
    (["play", FIG2, "-s", "A:M2", "-s", "B=M1"], "expected PLAYER=NAME"),
    (["solve", "no/such/tree.json"], "no such file"),
])
def test_bad_input_exits_2_without_traceback(args, message):
    r = kop(*args)
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr


def test_bad_tree_file_is_located(tmp_path):
    bad = tmp_path / "t.json"
    bad.write_text('{"format": "kop-tree/1", "players": ["A", "B"], "root": '
                   '{"player": "A", "children": [{"payoff": [1]}]}}')
    r = kop("solve", str(bad))
    assert r.returncode == 2 and "root/0: payoff has 1 number, expected 2 (players A, B)" in r.stderr
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    r = kop("solve", str(deep))
    assert r.returncode == 2 and "not a list" in r.stderr and "Traceback" not in r.stderr
    efg = tmp_path / "t.efg"
    efg.write_text('EFG 2 R "x" { "A" }\np "" 1 1 "" { "a" "b" } 0\n')
    r = kop("play", str(efg), "-s", "A=Mh")
    assert r.returncode == 2 and "t.efg: line 3" in r.stderr and "Traceback" not in r.stderr
