"""The paper's theorems about knowledge and strategies, on random trees (Theorems 1.2, 6, Corollary 4),
and the counterexamples kop found to Theorem 8 as stated."""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kop
from kop.games.random_trees import random_tree
from kop.selection.decide import decide
from kop.selection.selector import select
from kop.syntax.levels import f_level

THEORIES = Path(__file__).resolve().parents[2] / "theories"
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _tree(seed, movers="alternate"):
    t = random_tree(depth=4, branching=(1, 3), leaf_prob=0.15, distinct=True, movers=movers, seed=seed)
    return None if t.root.is_leaf else t


def _players(t):
    first = t.root.player
    return first, next(p for p in t.player_names if p != first)


@SETTINGS
@given(st.integers(0, 10**6), st.integers(1, 4), st.sampled_from(["alternate", "random"]))
def test_theorem_1_2_levels_decide_low_nodes(seed, d, movers):
    """f(A,d) and f(B,d) known => every node of height <= d is decided."""
    t = _tree(seed, movers)
    if t is None:
        return
    a, b = _players(t)
    dec = decide(t, f_level(a, b, d) + f_level(b, a, d))
    for n in t.nodes():
        if n.height <= d:
            assert dec.is_decided(n), n.name


@SETTINGS
@given(st.integers(0, 10**6), st.integers(0, 3), st.integers(0, 3))
def test_more_knowledge_decides_more(seed, da, db):
    t = _tree(seed)
    if t is None:
        return
    a, b = _players(t)
    small = decide(t, f_level(a, b, da) + f_level(b, a, db))
    big = decide(t, f_level(a, b, da + 1) + f_level(b, a, db + 1))
    assert set(small.decided_nodes()) <= set(big.decided_nodes())


@SETTINGS
@given(st.integers(0, 10**6), st.sampled_from(["alternate", "random"]))
def test_theorem_6_mh_dominates_when_applicable(seed, movers):
    """With f(P, height-1) known, M^h K-dominates every candidate on every allowed behaviour."""
    t = _tree(seed, movers)
    if t is None:
        return
    a, b = _players(t)
    h = t.height
    s = select(t, f_level(a, b, h - 1) + f_level(b, a, h - 2 if h >= 2 else 0), a)
    mh = s.candidates[0]
    assert mh.strategy == "Mh" and mh.applicable
    assert mh.verified is True, mh.counterexample
    assert s.recommended.guaranteed == mh.guaranteed == kop.play(t, {a: "Mh", b: "Mh"}).value


@SETTINGS
@given(st.integers(0, 10**6), st.integers(0, 3), st.integers(0, 3), st.sampled_from(["alternate", "random"]))
def test_recommendation_guarantees_at_least_minimax(seed, da, db, movers):
    """The recommended strategy never guarantees less than minimax's worst case."""
    t = _tree(seed, movers)
    if t is None:
        return
    a, b = _players(t)
    s = select(t, f_level(a, b, da) + f_level(b, a, min(db, da)), a)
    pi = t.player_index(a)
    sign = t.players[pi].sign
    base = next(c for c in s.candidates if c.strategy == "minimax").guaranteed
    assert sign * s.recommended.guaranteed[pi] >= sign * base[pi]
    assert s.recommended.applicable


def test_alternating_tree_where_hm0m_guarantees_less_than_minimax():
    """Even with alternating moves, HM0M^1 can guarantee less than minimax (72 vs 90)."""
    t = random_tree(depth=4, branching=(1, 3), leaf_prob=0.15, distinct=True, movers="alternate", seed=338999)
    s = select(t, f_level("A", "B", 1) + f_level("B", "A", 0), "A")
    hm = s.candidates[1]
    assert hm.strategy == "HM0M1" and hm.guaranteed == (72, 23) and hm.verified is False
    assert s.recommended.strategy == "minimax" and s.recommended.guaranteed == (90, 17)


def test_theorem_8_pointwise_counterexample():
    """Theorem 8 says HM0M^d K-dominates minimax (Definition 8: against every behaviour of B).

    On this alternating tree with A's level 1, B at root/1 chooses between the leaf (24,54) and
    an A node whose outcomes give B 53 or 18: any selfish B moves there, and then minimax reaches
    (86,53) while HM0M^1 reaches (60,41).  HM0M^1 still has the better guarantee (60 vs 24).
    """
    t = kop.load_tree(THEORIES / "theorem8_counterexample.json")
    s = select(t, f_level("A", "B", 1) + f_level("B", "A", 0), "A")
    hm = s.candidates[1]
    assert hm.strategy == "HM0M1" and hm.verified is False
    assert "(86, 53)" in hm.counterexample
    assert hm.guaranteed == (60, 41) and s.candidates[-1].guaranteed == (24, 54)
    assert s.recommended is hm


def test_non_alternating_tree_where_minimax_guarantees_more():
    """When B moves twice in a row, HM0M^d can guarantee less than minimax; the selector says so."""
    t = kop.load_tree(THEORIES / "nonalternating_counterexample.json")
    s = select(t, f_level("A", "B", 2) + f_level("B", "A", 1), "A")
    hm = s.candidates[1]
    assert hm.verified is False and hm.guaranteed == (96, 10)
    assert s.recommended.strategy == "minimax" and s.recommended.guaranteed == (98, 16)


def test_selector_rejects_trees_it_cannot_handle():
    t = random_tree(depth=2, branching=2, players=["A", "B", "C"], goals="max", seed=1)
    with pytest.raises(kop.KopError):
        select(t, [], "A")
