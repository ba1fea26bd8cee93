"""N-player search (Bodkin Ch. 4): every pruning search returns exactly the max^n value.

The trees are drawn structurally (hypothesis shrinks a failure to a small tree): any
branching, any mover order (the same player may move twice), payoffs on a coarse grid
so that ties, zeros and sums exactly at the bounds are common.  Bounds are inferred,
declared looser, declared per subset, or constant-sum.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

import kop
from kop.games.errors import StrategyError
from kop.games.strategies.minimax import minimax
from kop.games.nplayer.best_case import best_case_branching, best_case_leaves, best_case_tree
from kop.games.nplayer.bimodal import bimodal
from kop.games.nplayer.bnb import bnb
from kop.games.nplayer.bounds import BoundsError, PayoffBounds
from kop.games.nplayer.lower_eval import lower_eval
from kop.games.nplayer.maxn import maxn
from kop.games.nplayer.paranoid import paranoid
from kop.games.nplayer.random_trees import bodkin_tree
from kop.games.trees.tree import GameTree, Player

MANY = settings(max_examples=examples(2000), deadline=None)  # "thousands of random trees" (issue 11)
SOME = settings(max_examples=examples(250), deadline=None)
PRUNING = (bnb, lower_eval, bimodal)


@st.composite
def nplayer_trees(draw, n_players=None, simplex=False):
    """(tree, bounds) with the structure drawn node by node."""
    n = n_players or draw(st.integers(2, 4))
    names = [str(i + 1) for i in range(n)]
    grid = draw(st.sampled_from([4, 3, 10]))
    budget = [draw(st.integers(1, 60))]

    def payoff():
        if simplex:  # a point of the grid simplex: the sum is exactly 1 (up to rounding)
            cuts = sorted(draw(st.lists(st.integers(0, grid), min_size=n - 1, max_size=n - 1)))
            parts = [b - a for a, b in zip([0, *cuts], [*cuts, grid])]
            return tuple(x / grid for x in parts)
        return tuple(draw(st.integers(0, grid)) / grid for _ in range(n))

    def node(depth):
        if depth == 0 or budget[0] <= 0 or draw(st.integers(0, 4)) == 0:
            return payoff()
        k = draw(st.integers(1, 3))
        budget[0] -= k
        return (names[draw(st.integers(0, n - 1))], [node(depth - 1) for _ in range(k)])

    tree = GameTree.build([Player(x, "max") for x in names], node(draw(st.integers(0, 6))))
    how = draw(st.sampled_from(["infer", "loose", "unit", "subsets"]))
    if simplex:
        bounds = PayoffBounds.uniform(n, low=0, high=1, m=1, M=1)
    elif how == "infer":
        bounds = None
    elif how == "unit":
        bounds = PayoffBounds.uniform(n, low=0, high=1)
    else:
        inferred = PayoffBounds.infer(tree)
        slack = draw(st.sampled_from([0.0, 0.25]))
        subsets = {}
        if how == "subsets":
            import numpy as np
            for _ in range(draw(st.integers(1, 3))):
                k = draw(st.integers(2, n))
                players = tuple(sorted(draw(st.permutations(range(n)))[:k]))
                s = tree.payoffs[:, list(players)].sum(axis=1)
                subsets[players] = (float(np.min(s)) - slack, float(np.max(s)) + slack)
        bounds = PayoffBounds(tuple(x - slack for x in inferred.low), tuple(x + slack for x in inferred.high),
                              inferred.m - slack, inferred.M + slack, subsets)
    return tree, bounds


@MANY
@given(nplayer_trees())
def test_pruning_equals_maxn(case):
    tree, bounds = case
    ref = maxn(tree)
    for search in PRUNING:
        got = search(tree, bounds)
        assert got.value == ref.value, search.__name__
        assert got.move == ref.move, search.__name__
    assert bnb(tree, bounds).leaves <= ref.leaves


@SOME
@given(nplayer_trees(simplex=True))
def test_pruning_equals_maxn_constant_sum(case):
    tree, bounds = case
    ref = maxn(tree)
    for search in PRUNING:
        assert search(tree, bounds).value == ref.value, search.__name__


@SOME
@given(nplayer_trees(n_players=2))
def test_two_players_and_maxn_is_mh(case):
    tree, bounds = case
    ref = maxn(tree)
    assert ref.value == kop.mh(tree).value
    for search in PRUNING:
        assert search(tree, bounds).value == ref.value


@SOME
@given(nplayer_trees(), st.integers(0, 3))
def test_paranoid_is_the_players_minimax(case, who):
    tree, _ = case
    p = tree.player_names[who % len(tree.players)]
    got = paranoid(tree, p)
    ref = minimax(tree, p)
    assert got.value[tree.player_index(p)] == ref.value[tree.player_index(p)]
    assert got.leaves <= tree.n_leaves


@pytest.mark.parametrize("m, eta", [(1, 1), (1, 2), (0, float("inf")), (0.5, 4)])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_thesis_random_trees(n, m, eta):
    for seed in range(5):
        t = bodkin_tree(n, 3, 4, m=m, eta=eta, seed=seed)
        s = t.payoffs.sum(axis=1)
        assert s.min() >= m - 1e-12 and s.max() <= 1 + 1e-12 and t.payoffs.min() >= 0
        ref = maxn(t)
        b = PayoffBounds.uniform(n, m=m, M=1)
        for search in PRUNING:
            assert search(t, b).value == ref.value


def test_sorted_trees_are_sorted():
    t = bodkin_tree(3, 2, 5, m=1, eta=1, seed=3)
    for node in t.nodes():
        if not node.is_leaf:
            p = t.player_index(node.player)
            vals = [kop.mh(t).value_at(c)[p] for c in node.children]
            assert vals == sorted(vals, reverse=True)


def test_thesis_small_check():
    """Digest §4.2: B's second leaf is pruned (.6 >= 1 - .7); 3 of 4 leaves examined."""
    t = GameTree.build(["1", "2", "3"], ("1", [("2", [(.7, .2, .1), (.5, .1, .4)]),
                                              ("2", [(.1, .6, .3), (.9, .05, .05)])]), goals="max")
    r = bnb(t, PayoffBounds.uniform(3, m=1, M=1))
    assert r.value == (.7, .2, .1) and r.leaves == 3 and r.move == 0
    assert maxn(t).leaves == 4


@pytest.mark.parametrize("b, counts", [(2, [1, 2, 3, 5, 8, 13, 21]), (3, [1, 3, 5, 11, 21, 43, 85]),
                                       (6, [1, 6, 11, 41, 96, 301])])
def test_best_case_recurrence(b, counts):
    assert [best_case_leaves(b, n) for n in range(len(counts))] == counts
    for n, f in enumerate(counts[:6]):
        for players in (2, 3, 4):
            t = best_case_tree(players, b, n)
            unit = PayoffBounds.uniform(players, m=0, M=1)
            assert bnb(t, unit).leaves == f
            ref = maxn(t).value
            for search in (lower_eval, bimodal):   # type 1 and 2 nodes are a superset of their search
                r = search(t, unit)
                assert r.value == ref and r.leaves <= f


def test_best_case_branching_factor():
    for b in (2, 3, 6):
        rate = best_case_leaves(b, 200) / best_case_leaves(b, 199)
        assert rate == pytest.approx(best_case_branching(b), rel=1e-9)
    assert best_case_branching(2) == pytest.approx(0.5 + (1.25) ** 0.5)


# -- bad input -------------------------------------------------------------------

def test_payoff_outside_declared_bounds_is_located():
    t = GameTree.build(["1", "2", "3"], ("1", [(.5, .3, .2), ("2", [(.2, .2, .2), (.6, .5, .1)])]), goals="max")
    with pytest.raises(BoundsError, match=r"root/1/1: payoff \(0.6, 0.5, 0.1\) breaks the declared bound "
                                          r"1\+2\+3 <= 1 \(sum upper bound M\)"):
        bnb(t, PayoffBounds.uniform(3, m=0, M=1))
    with pytest.raises(BoundsError, match=r"root/1/0: .* 1\+2\+3 >= 1 \(sum lower bound m\)"):
        bimodal(t, PayoffBounds.uniform(3, m=1, M=2))
    with pytest.raises(BoundsError, match=r"root/1/1: .* 2 <= 0.4"):
        lower_eval(t, PayoffBounds((0, 0, 0), (1, 0.4, 1), 0, 2))


def test_nan_and_min_goals_and_chance_are_refused():
    t = GameTree.build(["A", "B"], ("B", [(1, 2), (3, 0)]))   # B minimizes (paper convention)
    with pytest.raises(StrategyError, match="player B minimizes"):
        bnb(t)
    assert maxn(t).value == (3, 0)      # max^n honours a minimizer's goal
    c = GameTree.from_dict({"format": "kop-tree/1", "players": ["a", "b"], "root": {
        "player": "a", "children": [{"chance": [0.5, 0.5], "children": [{"payoff": [1, 0]}, {"payoff": [0, 1]}]},
                                    {"payoff": [0, 0]}]}})
    with pytest.raises(StrategyError, match="root/0: .* chance node"):
        lower_eval(c)
    with pytest.raises(BoundsError, match="NaN"):
        PayoffBounds((0.0,), (float("nan"),), 0, 1)


def test_deep_tree_does_not_overflow_the_stack():
    depth = 1000
    node = (1.0, 0.0)
    for d in range(depth):
        node = (["a", "b"][d % 2], [node, (0.0, 1.0) if d % 2 else (1.0, 0.0)])
    t = GameTree.build([Player("a"), Player("b")], node)
    ref = maxn(t)
    for search in PRUNING:
        assert search(t).value == ref.value


def test_exact_fractions_are_not_needed_for_ties():
    # sums that are exactly M only up to float rounding (0.1 + 0.2 != 0.3)
    t = GameTree.build(["1", "2", "3"], ("1", [("2", [(.1, .2, .7), (.3, .6, .1)]), ("2", [(.7, .2, .1), (.1, .8, .1)])]),
                       goals="max")
    ref = maxn(t)
    for search in PRUNING:
        assert search(t, PayoffBounds.uniform(3, m=1, M=1)).value == ref.value


# -- Branch-and-Bound cuts at equality, as the thesis does (issue 15, part 5) ------------

def thesis_bnb(node, psi, level, n, M, count):
    """The thesis's BnB (digest §4.2, with its fix), verbatim, on nested lists with integer
    payoffs (exact arithmetic); the mover at *level* is ``level mod n``; *count* collects leaves."""
    if isinstance(node, tuple):
        count[0] += 1
        return node
    p = level % n
    v, vp = None, 0          # the thesis starts from z_p (p gets 0); the first child replaces it
    for child in node:       # (z_p itself is no leaf's payoff: returning it would lose the value)
        w = thesis_bnb(child, M - vp, level + 1, n, M, count)
        if v is None or w[p] > vp:
            v, vp = w, w[p]
            if vp >= psi:
                return v
    return v


def to_build(node, level, n):
    return node if isinstance(node, tuple) else (str(level % n + 1), [to_build(c, level + 1, n) for c in node])


@st.composite
def integer_trees(draw):
    """(nested lists, N, H): movers by level (level mod N, as the thesis's trees), integer
    payoffs in [0, H] summing to at most H, so that sums exactly at the bound are common."""
    n = draw(st.integers(2, 4))
    high = draw(st.integers(1, 4))
    budget = [draw(st.integers(1, 40))]

    def payoff():
        cuts = sorted(draw(st.lists(st.integers(0, high), min_size=n, max_size=n)))
        return tuple(b - a for a, b in zip([0, *cuts[:-1]], cuts))   # n parts summing to cuts[-1] <= H

    def node(depth):
        if depth == 0 or budget[0] <= 0 or draw(st.integers(0, 4)) == 0:
            return payoff()
        k = draw(st.integers(1, 3))
        budget[0] -= k
        return [node(depth - 1) for _ in range(k)]

    root = node(draw(st.integers(1, 6)))
    if isinstance(root, tuple):
        root = [root]
    return root, n, high


@SOME
@given(integer_trees())
def test_bnb_examines_the_leaves_of_the_thesis_procedure_on_integers(case):
    root, n, high = case
    count = [0]
    want = thesis_bnb(root, high, 0, n, high, count)
    tree = GameTree.build([Player(str(i + 1), "max") for i in range(n)], to_build(root, 0, n))
    got = bnb(tree, PayoffBounds.uniform(n, low=0, high=high, m=0, M=high))
    assert got.value == maxn(tree).value == want
    assert got.leaves == count[0]


def test_bnb_cuts_at_equality_on_an_integer_four_player_tree():
    """Player 1 has 6 from its first child, so player 2 at B is cut off once it is sure of
    10 - 6 = 4: B's first leaf gives exactly 4 and B's other two leaves are not examined.
    The old 1e-9 slack on the sum bound cut only above equality: 4 leaves of 4."""
    root = [(6, 4, 0, 0), [(6, 4, 0, 0), (0, 3, 7, 0), (0, 2, 0, 8)]]
    count = [0]
    assert thesis_bnb(root, 10, 0, 4, 10, count) == (6, 4, 0, 0) and count[0] == 2
    tree = GameTree.build(["1", "2", "3", "4"], to_build(root, 0, 4), goals="max")
    r = bnb(tree, PayoffBounds.uniform(4, low=0, high=10, m=0, M=10))
    assert r.value == (6, 4, 0, 0) and r.leaves == 2 and r.move == 0
    assert maxn(tree).leaves == 4
    # tenths are floats whose sums round, so the cutoff keeps its slack and B is searched in full
    tenths = [(.6, .4, 0, 0), [(.6, .4, 0, 0), (0, .3, .7, 0), (0, .2, 0, .8)]]
    ftree = GameTree.build(["1", "2", "3", "4"], to_build(tenths, 0, 4), goals="max")
    r = bnb(ftree, PayoffBounds.uniform(4, low=0, high=1, m=0, M=1))
    assert r.value == (.6, .4, 0, 0) and r.leaves == 4
