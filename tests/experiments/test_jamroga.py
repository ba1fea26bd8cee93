"""Jamroga's competitions: the --small presets reproduce the paper's directions; the JSON contract;
resuming; Dask gives the local rows."""

import json
import math
import subprocess
import sys

import pytest

from kop.experiments.jamroga import PAPER, figure_tasks, play_game, run_figure, summarize
from kop.experiments.runner import run_tasks


def _check_directions(doc, games):
    for r in doc["rows"]:
        paper = r["paper"]["triumph"]
        name = f"Fig. {doc['figure']}: {r['a']} vs {r['b']}"
        if paper >= 10:  # a clear effect in the paper: kop must agree on who wins
            assert r["triumph"] > 0 and r["payoff"] > 0, f"{name}: {r} against the paper's {paper}%"
        else:  # a near-tie in the paper (MC vs vm): kop must not find a clear effect either way
            bound = 3 * 100 / math.sqrt(games)  # 3 standard errors at most, for differences in [-1, 1]
            assert abs(r["triumph"]) <= bound, f"{name}: {r} is no near-tie"


@pytest.mark.slow     # 10-40 s each: whole competitions (the CLI tests below play a few games of Fig. 8)
@pytest.mark.parametrize("fig", [4, 5, 8])
def test_small_presets_match_the_papers_directions(fig):
    doc = run_figure(fig, small=True, workers=1, progress=False)
    assert [(r["a"], r["b"]) for r in doc["rows"]] == list(PAPER[fig])
    games = doc["settings"]["tables"][0]["games"]
    _check_directions(doc, games)


def _kop(*args):
    return subprocess.run([sys.executable, "-m", "kop", *args], capture_output=True, text=True, timeout=300)


def test_cli_json_contract_and_resume(tmp_path):
    results = tmp_path / "fig8.csv"
    args = ["experiment", "jamroga", "--fig", "8", "--games", "6", "--seed", "3", "--json", "--workers", "1",
            "--results", str(results)]
    first = _kop(*args)
    assert first.returncode == 0, first.stderr
    doc = json.loads(first.stdout)
    assert set(doc) == {"figure", "settings", "rows"} and doc["figure"] == 8
    assert doc["settings"]["seed"] == 3 and doc["settings"]["tables"][0]["games"] == 6
    for row in doc["rows"]:
        assert set(row) == {"a", "b", "triumph", "payoff", "paper"}
        assert set(row["paper"]) == {"triumph", "payoff"}
    assert len(results.read_text().splitlines()) == 7  # header + one row per game
    again = _kop(*args)  # resumes: every game is stored, nothing is played again
    assert json.loads(again.stdout) == doc


def test_cli_text_and_errors():
    out = _kop("experiment", "jamroga", "--fig", "8", "--games", "2", "--workers", "1")
    assert out.returncode == 0, out.stderr
    assert "gvm vs MC" in out.stdout and "paper" in out.stdout
    bad = _kop("experiment", "jamroga", "--fig", "8", "--games", "0")
    assert bad.returncode == 2 and "error: --games must be a positive integer" in bad.stderr
    assert _kop("experiment", "jamroga", "--fig", "6").returncode == 2
    assert _kop("experiment", "jamroga", "--fig", "8", "--workers", "0").returncode == 2


def test_dask_gives_the_local_rows():
    distributed = pytest.importorskip("distributed")
    tasks = figure_tasks(8, games=4, seed=5)
    local = run_tasks(play_game, tasks, workers=1, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp",
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        remote = run_tasks(play_game, tasks, dask=cluster.scheduler_address, progress=False)
    assert remote == local
    assert summarize(8, remote) == summarize(8, local)


def test_seeds_make_games_reproducible_and_distinct():
    a, b = figure_tasks(4, games=3, seed=1), figure_tasks(4, games=3, seed=1)
    assert a == b and len({t["seed"] for t in a}) == len(a)
    assert figure_tasks(4, games=3, seed=2)[0]["seed"] != a[0]["seed"]
    assert play_game(a[0]) == play_game(b[0])
