"""Gambit both ways (pygambit, optional): round trips of every kind of tree kop can hand to Gambit, and
game values checked against Gambit's own linear-programming solver on zero-sum games."""

from __future__ import annotations

import sys
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings

import kop
from profiles import examples
from tree_strategies import game_trees

pygambit = pytest.importorskip("pygambit")


def test_figure2_round_trip_keeps_goals_names_and_payoffs():
    t = kop.figure2()
    g = kop.to_gambit(t, title="Figure 2")
    assert [getattr(p, "label", p) for p in g.players] == ["A", "B"]
    back = kop.from_gambit(g)
    assert back == t and back.players == t.players
    assert kop.mh(back).value == (10, 3)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_trees(players=(2, 3), chance=True))
def test_round_trip_of_any_tree(t):
    assert kop.from_gambit(kop.to_gambit(t)) == t


def _lp_value(game) -> Fraction:
    """Player 1's value of a two-player zero-sum game by Gambit's linear program (sequence form)."""
    result = pygambit.nash.lp_solve(game, rational=True)
    eq = result.equilibrium if hasattr(result, "equilibrium") else result.equilibria[0]   # pygambit 17 / 16
    first = next(iter(game.players))
    if hasattr(eq, "payoff"):                                   # pygambit 16
        return Fraction(str(eq.payoff(first)))
    return Fraction(str(eq.payoffs[getattr(first, "label", first)]))   # pygambit 17


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_trees(players=2, chance=True, goals="max", inner_root=True))
def test_minimax_value_equals_gambits_lp_on_zero_sum_games(t):
    # make the game zero-sum: B's payoff is minus A's (both maximize their own, as in Gambit)
    zs = kop.GameTree.build(["A", "B"], _zero_sum(t, t.root), goals="max")
    value = kop.minimax(zs, "A").value[0]
    # chance probabilities are multiples of 1/1024: kop's float value is exact, Gambit's LP value rational
    assert abs(Fraction(value) - _lp_value(kop.to_gambit(zs))) <= Fraction(1, 10**12)


def _zero_sum(t, node):
    if node.is_leaf:
        a = node.payoff[0]
        return (a, -a)
    kids = [_zero_sum(t, c) for c in node.children]
    if node.is_chance:
        return {"chance": [float(p) for p in node.probabilities], "children": kids}
    return {"player": node.player, "children": kids}


def test_imperfect_information_is_refused_naming_the_set():
    text = ('EFG 2 R "matching pennies, sequential but unseen" { "A" "B" }\n'
            'p "" 1 1 "A moves" { "H" "T" } 0\n'
            'p "" 2 1 "B cannot see" { "h" "t" } 0\n'
            't "" 1 "" { 1, -1 }\nt "" 2 "" { -1, 1 }\n'
            'p "" 2 1 "B cannot see" { "h" "t" } 0\n'
            't "" 3 "" { -1, 1 }\nt "" 4 "" { 1, -1 }\n')
    g = pygambit.read_efg(__import__("io").StringIO(text)) if hasattr(pygambit, "read_efg") \
        else pygambit.Game.parse_game(text)
    with pytest.raises(kop.KopError, match=r"information set 1 of player 2 \(B\)"):
        kop.from_gambit(g)


def test_wrong_arguments():
    with pytest.raises(kop.KopError, match="GameTree"):
        kop.to_gambit("figure2")
    with pytest.raises(kop.KopError, match="pygambit Game"):
        kop.from_gambit(kop.figure2())


def test_without_pygambit_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pygambit", None)
    with pytest.raises(kop.KopError, match="pip install pygambit"):
        kop.to_gambit(kop.figure2())
