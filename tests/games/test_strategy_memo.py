"""Strategies remembered on their tree (kop.games.strategies.engine.remembered).

A remembered answer must be the answer computed afresh (the memo turned off),
for any sequence of requests; it must be read-only; and a different tree -- an
equal copy, or a view whose arrays were replaced -- never gets another tree's.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples
from tree_strategies import game_trees

import kop
from kop.games.strategies import engine
from kop.games.trees.tree import GameTree

SOME = settings(max_examples=examples(200), deadline=None)


def requests(tree):
    """A random list of (name, player, tie) requests on *tree*, repeats likely."""
    names = st.sampled_from(["minimax", "Mh", "M0", "M1", "M2", "M3", "HM0M0", "HM0M1", "HM0M2", "HM0M4"])
    one = st.tuples(names, st.sampled_from(tree.player_names), st.sampled_from(["first", "last"]))
    return st.lists(one, min_size=1, max_size=12)


def fresh(tree, name, player, tie):
    with pytest.MonkeyPatch.context() as m:
        m.setattr(engine, "MEMO_NODES", -1)          # nothing remembered, nothing read
        return kop.strategy(tree, name, player, tie=tie)


def same(a, b):
    assert a.tree is b.tree and a.name == b.name and a.player == b.player
    assert np.array_equal(a.next_array, b.next_array)
    assert np.array_equal(a.value_array(), b.value_array())


@SOME
@given(game_trees((2, 3), chance=True, max_depth=4, max_branching=3), st.data())
def test_remembered_answers_are_the_fresh_ones(t, data):
    for name, player, tie in data.draw(requests(t)):
        got = kop.strategy(t, name, player, tie=tie)
        same(got, fresh(t, name, player, tie))
        again = kop.strategy(t, name, player, tie=tie)
        assert again._sol is got._sol                   # asked twice: computed once
        with pytest.raises(ValueError):
            got.next_array[0] = 0                        # nobody can alter a remembered answer


@SOME
@given(game_trees(2, chance=False, max_depth=4, max_branching=3), st.data())
def test_another_tree_never_gets_a_stale_answer(t, data):
    reqs = data.draw(requests(t))
    for name, player, tie in reqs:
        kop.strategy(t, name, player, tie=tie)
    # equal, sharing t's arrays, but another object: its own memo
    copy = GameTree(t.players, t.offsets, t.kind, t.payoffs, t.probs, t.labels, t.moves, t.integral,
                    t.simultaneous)
    # a view of t with other payoffs, sharing the other arrays (as PrOM's types are searched)
    view = object.__new__(GameTree)
    for slot in GameTree.__slots__:
        object.__setattr__(view, slot, getattr(t, slot))
    pay = np.array(t.payoffs)[:, ::-1].copy()
    pay.flags.writeable = False
    view.payoffs = pay
    for other in (copy, view):
        for name, player, tie in reqs:
            got = kop.strategy(other, name, player, tie=tie)
            assert got.tree is other
            same(got, fresh(other, name, player, tie))


def test_large_trees_remember_nothing_and_the_table_is_bounded(monkeypatch):
    t = kop.figure2()
    monkeypatch.setattr(engine, "MEMO_NODES", len(t) - 1)
    assert kop.mh(t)._sol is not kop.mh(t)._sol and engine.known(t, ("Mh", "first")) is None
    monkeypatch.setattr(engine, "MEMO_NODES", len(t))
    monkeypatch.setattr(engine, "MEMO_ENTRIES", 3)
    for d in range(6):
        kop.hm0m(t, d, "A")
    assert engine.known(t, ("HM0M", 5, 0, "first")) is not None
    assert engine.known(t, ("HM0M", 0, 0, "first")) is None   # the oldest went first
    assert len(t._solutions[1]) == 3


def test_errors_are_not_remembered():
    t = kop.figure2()
    for _ in range(2):
        with pytest.raises(kop.KopError):
            kop.mstar(t, 2, "A", tie="middle")
    assert kop.mstar(t, 2, "A").value == (9, 4)
