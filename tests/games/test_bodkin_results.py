"""Bodkin's result types follow the one result protocol (kop/games/result.py): value, move, path, nodes.

Every N-player, chance and simultaneous search on random trees: the result is a
:class:`~kop.games.result.Result`; ``nodes`` is the leaves examined; ``path`` is the root move
alone (or empty); ``move`` is a root child rank (N-player, chance) whose subtree has the
root's value, or the row the row player plays for sure at the root stage (simultaneous);
``to_dict`` carries ``path`` and ``nodes`` next to its old keys.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

import kop
from kop.games.result import Result

SOME = settings(max_examples=examples(200), deadline=None)
NPLAYER = (kop.maxn, kop.bnb, kop.lower_eval, kop.bimodal, kop.paranoid)
CHANCE = (kop.expectimax, kop.star1, kop.star2, kop.cscout)
SIM = (kop.naive, kop.substructure, kop.dominating)


def _protocol(r, old_keys):
    assert isinstance(r, Result)
    assert r.nodes == r.leaves
    assert r.path == (() if r.move is None else (r.move,))
    d = r.to_dict()
    assert set(old_keys) <= set(d)
    assert d["path"] == list(r.path) and d["nodes"] == r.nodes


@SOME
@given(st.integers(0, 10**6), st.integers(2, 4), st.integers(0, 4))
def test_nplayer_results(seed, n, depth):
    t = kop.random_tree(depth=depth, branching=(1, 3), players=[str(i + 1) for i in range(n)], goals="max",
                        movers="random", high=5, seed=seed)
    for search in NPLAYER:
        r = search(t)
        _protocol(r, ("algorithm", "value", "leaves", "move"))
        assert isinstance(r.value, tuple) and len(r.value) == n
        if t.root.is_leaf:
            assert r.move is None
        else:
            assert 0 <= r.move < len(t.root.children)
            if search is not kop.paranoid:   # the chosen child's max^n value is the root's
                assert kop.maxn(t.subtree(t.root.children[r.move])).value == r.value


@SOME
@given(st.integers(0, 10**6), st.integers(0, 4), st.sampled_from(["A", "B"]))
def test_chance_results(seed, depth, player):
    t = kop.random_tree(depth=depth, branching=(1, 3), chance_prob=0.3, movers="random", seed=seed)
    for search in CHANCE:
        r = search(t, player)
        _protocol(r, ("algorithm", "player", "value", "leaves", "move"))
        assert isinstance(r.value, float)
        if r.move is not None:   # only where the searching player moves at the root
            assert t.root.player == player
            sub = kop.expectimax(t.subtree(t.root.children[r.move]), player)
            assert sub.value == pytest.approx(r.value, rel=1e-9, abs=1e-9)


@SOME
@given(st.integers(0, 10**6), st.integers(1, 3), st.integers(1, 3), st.integers(1, 2))
def test_simultaneous_results(seed, rows, cols, depth):
    t = kop.random_sim_tree(depth, rows, cols, seed=seed, chance=seed % 2 * 2)
    for search in SIM:
        r = search(t)
        _protocol(r, ("algorithm", "value", "leaves", "lps", "row", "col"))
        assert isinstance(r.value, float)
        if r.move is not None:   # a pure strategy with a choice
            assert rows > 1 and r.row[r.move] > 0 and sum(x > 0 for x in r.row) == 1
        else:
            assert rows == 1 or sum(x > 0 for x in r.row) > 1


def test_simultaneous_pure_root_move():
    r = kop.naive(kop.sim_tree({"matrix": [[3, 1], [5, 2]]}))     # a saddle point at row 1
    assert (r.move, r.path, r.nodes) == (1, (1,), 4)
    assert kop.naive(kop.sim_tree(2.5)).path == ()
