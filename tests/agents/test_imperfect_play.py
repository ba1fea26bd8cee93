"""Matches on imperfect-information OpenSpiel games (issue 27 item 4): kop.play_openspiel and kop match."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import kop

pyspiel = pytest.importorskip("pyspiel")
ROOT = Path(__file__).resolve().parents[2]


def kop_cli(*args):
    return subprocess.run([sys.executable, "-m", "kop", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


def replay_checked(name, result):
    """Replay the match in OpenSpiel: every agent's move is what decide_openspiel picks at that state, and the
    move's reasons name exactly the mover's cell size."""
    game = pyspiel.load_game(name)
    s = game.new_initial_state()
    for e in result.log:
        if e.kind == "move":
            d = kop.decide_openspiel(game, s, e.strategy)
            assert d.action == e.move and d.player == int(e.player[1:])
            assert f"holds {len(d.cell.histories)} histor" in e.reasons[0]
        s.apply_action(e.move)
    assert s.is_terminal() and tuple(s.returns()) == result.outcome


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker", "liars_dice(dice_sides=3)",
                                  "turn_based_simultaneous_game(game=goofspiel(num_cards=3,imp_info=True,"
                                  "points_order=descending))", "coordinated_mp"])
@pytest.mark.parametrize("algorithms", [("gvm", "vm"), ("mc", "gvm")])
def test_matches_are_played_from_the_cells(name, algorithms):
    for seed in range(3):
        r = kop.play_openspiel(name, algorithms, seed=seed)
        assert r.players == ("P0", "P1") and r.agents == algorithms and sum(r.outcome) == 0
        replay_checked(name, r)


def test_sampled_cells_are_said_in_the_log():
    r = kop.play_openspiel("kuhn_poker", ("gvm", "gvm"), cells="sampled", samples=50)
    moves = [e for e in r.log if e.kind == "move"]
    assert moves and all("sampled" in e.text and "resample_from_infostate" in e.reasons[0] for e in moves)


def test_bad_algorithms():
    with pytest.raises(kop.KopError, match="one algorithm per player"):
        kop.play_openspiel("kuhn_poker", ("gvm",))
    with pytest.raises(kop.KopError, match="one algorithm per player"):
        kop.play_openspiel("kuhn_poker", ("gvm", "minimax"))


def test_cli_match_kuhn_poker():
    r = kop_cli("match", "openspiel:kuhn_poker", "-a", "A=strategy:gvm", "-a", "B=strategy:vm", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["agents"] == ["A", "B"] and out["players"] == ["P0", "P1"] and out["cells"] == "exact"
    assert sum(out["outcome"]) == 0 and out["log"][0]["kind"] == "chance"
    moves = [e for e in out["log"] if e["kind"] == "move"]
    assert moves and all("knowledge cell" in e["reasons"][0] for e in moves)
    r = kop_cli("match", "openspiel:kuhn_poker", "-a", "A", "-a", "B", "--seed", "1")
    assert r.returncode == 0, r.stderr
    assert "exact knowledge cell" in r.stdout and "outcome: (" in r.stdout


def test_cli_match_sampled_cells_say_so():
    r = kop_cli("match", "openspiel:leduc_poker", "-a", "A", "-a", "B", "--cells", "sampled")
    assert r.returncode == 0, r.stderr
    assert "sampled knowledge cell" in r.stdout.splitlines()[0] and "sampled knowledge cell of" in r.stdout


@pytest.mark.parametrize("agents, message", [
    (["-a", "A=level:2", "-a", "B"], "level, knowledge, depth and eval apply to perfect-information games"),
    (["-a", "A=strategy:minimax", "-a", "B"], "not a possible-worlds algorithm"),
    (["-a", "A"], "1 --agent for the 2 players"),
])
def test_cli_match_bad_agents(agents, message):
    r = kop_cli("match", "openspiel:kuhn_poker", *agents)
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_cli_match_perfect_information_games_unchanged():
    r = kop_cli("match", "openspiel:tic_tac_toe", "-a", "X=strategy:alphabeta", "-a", "O=strategy:alphabeta",
                "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["outcome"] == [0, 0]


def test_the_docs_transcript_is_what_kop_match_prints():
    import re
    import shlex

    page = (ROOT / "docs" / "imperfect-information-play.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```\n(\$ kop match.*?)^```", page, flags=re.S | re.M)
    assert blocks
    for block in blocks:
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, expected = chunk.partition("\n")
            r = kop_cli(*shlex.split(command)[1:])
            assert r.returncode == 0, r.stderr
            assert r.stdout == expected, command
