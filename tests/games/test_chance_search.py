"""Chance nodes: Star1, Star2 and CSCOUT equal expectimax; CSCOUT's best case (Bodkin §3.10)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from kop.games.chance.cscout import cscout, cscout_best_case, cscout_best_case_tree
from kop.games.chance.expectimax import expectimax
from kop.games.chance.star1 import star1
from kop.games.chance.star2 import star2
from kop.games.errors import StrategyError
from kop.games.strategies.minimax import minimax
from kop.games.nplayer.bounds import BoundsError
from kop.games.trees.tree import GameTree, Player

MANY = settings(max_examples=examples(1500), deadline=None)


@st.composite
def chance_trees(draw):
    """Structure drawn node by node; probabilities multiples of 1/8, integer payoffs (exact sums)."""
    n = draw(st.integers(2, 3))
    names = ["A", "B", "C"][:n]
    budget = [draw(st.integers(1, 50))]

    def node(depth):
        if depth == 0 or budget[0] <= 0 or draw(st.integers(0, 4)) == 0:
            return {"payoff": [draw(st.integers(-3, 3)) for _ in range(n)]}
        k = draw(st.integers(1, 3))
        budget[0] -= k
        kids = [node(depth - 1) for _ in range(k)]
        if draw(st.integers(0, 2)) == 0:
            cuts = sorted(draw(st.lists(st.integers(0, 8), min_size=k - 1, max_size=k - 1)))
            probs = [(b - a) / 8 for a, b in zip([0, *cuts], [*cuts, 8])]
            return {"chance": probs, "children": kids}
        return {"player": draw(st.sampled_from(names)), "children": kids}

    goals = draw(st.sampled_from(["max", "paper"]))
    players = [{"name": x, "goal": "min" if goals == "paper" and i == 1 else "max"} for i, x in enumerate(names)]
    tree = GameTree.from_dict({"format": "kop-tree/1", "players": players, "root": node(draw(st.integers(0, 6)))})
    return tree, draw(st.sampled_from(names[:2]))


@MANY
@given(chance_trees())
def test_star_and_cscout_equal_expectimax(case):
    tree, p = case
    ref = expectimax(tree, p)
    assert ref.value == pytest.approx(minimax(tree, p).value[tree.player_index(p)], abs=1e-9)
    for search in (star1, star2, cscout):
        got = search(tree, p)
        assert got.value == pytest.approx(ref.value, rel=1e-9, abs=1e-9), search.__name__
        assert got.move == ref.move, search.__name__
    assert star1(tree, p).leaves <= ref.leaves


@settings(max_examples=examples(300), deadline=None)
@given(chance_trees(), st.integers(0, 2))
def test_declared_looser_bounds(case, slack):
    tree, p = case
    j = tree.player_index(p)
    lo, hi = float(tree.payoffs[:, j].min()) - slack, float(tree.payoffs[:, j].max()) + slack
    ref = expectimax(tree, p).value
    for search in (star1, star2):
        assert search(tree, p, bounds=(lo, hi)).value == pytest.approx(ref, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("b, c", [(2, 2), (3, 2), (2, 3), (4, 3)])
def test_cscout_best_case_formula(b, c):
    for k in (1, 2):
        t = cscout_best_case_tree(b, c, k)
        r = cscout(t, "P")
        assert r.leaves == cscout_best_case(b, c, k) == c ** (2 * k) * (1 + 2 * (b ** k - 1))
        assert expectimax(t, "P").leaves == (b * c) ** (2 * k)
    assert [cscout_best_case(2, 2, k) for k in (1, 2)] == [12, 112]     # digest §3
    assert [cscout_best_case(3, 2, k) for k in (1, 2)] == [20, 272]


def test_bad_bounds_are_located():
    t = GameTree.build([Player("A"), Player("B", "min")], ("A", [(1, 0), ("B", [(5, 0), (2, 0)])]))
    with pytest.raises(BoundsError, match=r"root/1/0: payoff of A 5 breaks the declared bound A <= 4 \(U\)"):
        star1(t, "A", bounds=(0, 4))
    with pytest.raises(StrategyError, match="L <= U"):
        star2(t, "A", bounds=(3, 1))
