"""``kop experiment bodkin-nplayer``: the JSON contract, the thesis lookup, bad input."""

import json
import math
import subprocess
import sys
from pathlib import Path

from kop.experiments.bodkin import THESIS, Cell, run_cell, thesis_figure

ROOT = Path(__file__).resolve().parents[2]


def kop(*args):
    return subprocess.run([sys.executable, "-m", "kop", *args], capture_output=True, text=True, cwd=ROOT)


def test_json_contract(tmp_path):
    r = kop("experiment", "bodkin-nplayer", "--N", "3", "--b", "2", "--depth", "6", "--m", "1", "--eta", "inf",
            "--trees", "12", "--seed", "5", "--workers", "1", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    for name in ("bnb", "lower_eval", "bimodal_unimodal", "naive"):
        assert set(out[name]) >= {"log_b_leaves", "thesis"}
        assert out[name]["thesis"] is None          # the thesis reports depth 14 for b = 2
    assert out["naive"]["log_b_leaves"] == 6.0
    assert out["bimodal_unimodal"]["log_b_leaves"] <= out["naive"]["log_b_leaves"]
    assert out["config"]["eta"] == "inf" and out["time"]["cpu_seconds"] > 0


def test_same_seed_same_numbers_and_resume(tmp_path):
    cell = Cell(3, 2, 5, 0.0, 2.0, trees=30, seed=9)
    res = str(tmp_path / "rows.csv")
    a = run_cell(cell, workers=1, progress=False, results=res)
    b = run_cell(cell, workers=1, progress=False, results=res)   # resumed from the file
    c = run_cell(cell, workers=1, progress=False)
    for name in ("bnb", "lower_eval", "bimodal_unimodal"):
        assert a["algorithms"][name]["mean_leaves"] == b["algorithms"][name]["mean_leaves"]
        assert a["algorithms"][name]["mean_leaves"] == c["algorithms"][name]["mean_leaves"]


def test_thesis_lookup():
    assert thesis_figure(Cell(3, 2, 14, 1, 1)) == ("4-3", (13.83, 12.67, 12.65))
    assert thesis_figure(Cell(4, 6, 5, 0, math.inf)) == ("4-8", (5.00, 5.01, 4.94))
    assert thesis_figure(Cell(2, 3, 7, 0.98, math.inf)) == ("4-24", (6.22, 6.22, 5.93))
    assert thesis_figure(Cell(2, 6, 4, 0.8, 1)) == ("4-25", (3.04, 3.03, 2.95))
    assert thesis_figure(Cell(3, 2, 13, 1, 1)) == (None, None)
    assert len(THESIS) == 7 * 6 + 3 * 6


def test_bad_input_exits_2():
    for args in (["--m", "1.5"], ["--eta", "0.5"], ["--eta", "abc"], ["--b", "1"], ["--figure", "4-7"],
                 ["--b", "6", "--depth", "12"]):
        r = kop("experiment", "bodkin-nplayer", "--workers", "1", *args)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert "error" in r.stderr and "Traceback" not in r.stderr
    r = kop("experiment")
    assert r.returncode == 2 and "bodkin-nplayer" in r.stderr


def test_the_thesis_preset_is_normalized_for_three_players_and_uniform_for_two():
    for n, same in ((3, "normalized"), (4, "normalized"), (2, "uniform")):
        got = run_cell(Cell(n, 2, 5, 0.0, 1.0, trees=10, seed=3, leaves="thesis"), workers=1, progress=False)
        want = run_cell(Cell(n, 2, 5, 0.0, 1.0, trees=10, seed=3, leaves=same), workers=1, progress=False)
        other = run_cell(Cell(n, 2, 5, 0.0, 1.0, trees=10, seed=3,
                              leaves={"normalized": "uniform", "uniform": "normalized"}[same]),
                         workers=1, progress=False)
        means = [{k: o["algorithms"][k]["mean_leaves"] for k in ("bnb", "lower_eval", "bimodal_unimodal")}
                 for o in (got, want, other)]
        assert means[0] == means[1] != means[2]
        assert got["config"]["leaves"] == "thesis"


def test_figure_uses_the_thesis_preset_unless_told_otherwise():
    r = kop("experiment", "bodkin-nplayer", "--figure", "4-24", "--trees", "1", "--workers", "1", "--json")
    assert r.returncode == 0, r.stderr
    assert {c["config"]["leaves"] for c in json.loads(r.stdout)["cells"]} == {"thesis"}
    r = kop("experiment", "bodkin-nplayer", "--N", "3", "--b", "2", "--depth", "4", "--trees", "2",
            "--workers", "1", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["config"]["leaves"] == "uniform"
