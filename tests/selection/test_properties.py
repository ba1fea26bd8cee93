"""The paper's theorems about knowledge and strategies, on random trees (Theorems 1.2, 6, Corollary 4),
and the counterexamples kop found to Theorem 8 as stated."""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

import kop
from kop.games.trees.random_trees import random_tree
from kop.selection.decide import decide
from kop.selection.selector import select
from kop.syntax.levels import f_level
from tree_strategies import game_trees

THEORIES = Path(__file__).resolve().parents[2] / "theories"
SETTINGS = settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def trees(movers="alternate"):
    """Two-player trees without chance, distinct payoffs, A first; drawn node by node (they shrink)."""
    return game_trees(2, chance=False, distinct=True, goals="paper", movers=movers, max_depth=4,
                      inner_root=True)


def _players(t):
    first = t.root.player
    return first, next(p for p in t.player_names if p != first)


@SETTINGS
@given(st.sampled_from(["alternate", "random"]).flatmap(trees), st.integers(1, 4))
def test_theorem_1_2_levels_decide_low_nodes(t, d):
    """f(A,d) and f(B,d) known => every node of height <= d is decided."""
    a, b = _players(t)
    dec = decide(t, f_level(a, b, d) + f_level(b, a, d))
    for n in t.nodes():
        if n.height <= d:
            assert dec.is_decided(n), n.name


@SETTINGS
@given(trees(), st.integers(0, 3), st.integers(0, 3))
def test_more_knowledge_decides_more(t, da, db):
    a, b = _players(t)
    small = decide(t, f_level(a, b, da) + f_level(b, a, db))
    big = decide(t, f_level(a, b, da + 1) + f_level(b, a, db + 1))
    assert set(small.decided_nodes()) <= set(big.decided_nodes())


@SETTINGS
@given(st.sampled_from(["alternate", "random"]).flatmap(trees))
def test_theorem_6_mh_dominates_when_applicable(t):
    """With f(P, height-1) known, M^h K-dominates every candidate on every allowed behaviour."""
    a, b = _players(t)
    h = t.height
    s = select(t, f_level(a, b, h - 1) + f_level(b, a, h - 2 if h >= 2 else 0), a)
    mh = s.candidates[0]
    assert mh.strategy == "Mh" and mh.applicable
    assert mh.verified is True, mh.counterexample
    assert s.recommended.guaranteed == mh.guaranteed == kop.play(t, {a: "Mh", b: "Mh"}).value


@SETTINGS
@given(st.sampled_from(["alternate", "random"]).flatmap(trees), st.integers(0, 4), st.integers(0, 4),
       st.booleans())
def test_candidate_requirements_are_the_preconditions_in_the_logic(t, da, db, knows_strategy):
    """Each candidate's ``requires`` is the knowledge its theorem asks for: asked of the prover
    directly, it follows from the knowledge exactly when the candidate applies (M^h, HM0M^d), or
    is the K_P S_Q half of M^d's precondition; None only where no knowledge is needed."""
    a, b = _players(t)
    ks = f_level(a, b, da) + f_level(b, a, db) + ((kop.parse(f"K_{a} S_{b}"),) if knows_strategy else ())
    s = select(t, ks, a, verify=False)

    def follows(f):
        return kop.entails(ks, f).holds

    by = {c.strategy.rstrip("0123456789"): c for c in s.candidates}
    mh, hm = by["Mh"], by["HM0M"]
    assert (mh.requires is None) == (t.height <= 1)
    assert mh.applicable == (mh.requires is None or follows(mh.requires))
    assert hm.requires is not None and hm.applicable == follows(hm.requires)
    if "M" in by:
        m = by["M"]
        assert m.requires is not None and follows(m.requires) == knows_strategy
        assert m.applicable == (knows_strategy and s.level > s.opponent_level)
    assert by["minimax"].requires is None and by["minimax"].applicable


def _worst(t, strategy, player, fixed):
    """P's worst outcome (by P's goal) playing *strategy* against every opponent behaviour that
    makes the move *fixed* at the decided opponent nodes and any move elsewhere, selfish or not;
    by recursion over the tree, independent of the selector (kop.selection.behaviours)."""
    pi = t.player_index(player)
    sign = t.players[pi].sign

    def go(n):
        if n.is_leaf:
            return n.payoff
        if n.player == player:
            return go(strategy.next(n))
        if n.index in fixed:
            return go(fixed[n.index])
        return min((go(c) for c in n.children), key=lambda v: sign * v[pi])

    return go(t.root)


@SETTINGS
@given(st.sampled_from(["alternate", "random"]).flatmap(trees), st.integers(0, 3), st.integers(0, 3))
def test_recommendation_guarantee_recomputed_by_brute_force(t, da, db):
    """The selector's guarantees are at least what the candidate guarantees against every behaviour
    fixed only at the decided nodes (the allowed behaviours, selfish where the knowledge says so, are
    among them: tests/selection/test_claims_reference.py checks them exactly), and the recommendation
    guarantees at least as much as minimax and as every other applicable candidate."""
    a, b = _players(t)
    s = select(t, f_level(a, b, da) + f_level(b, a, min(db, da)), a)
    pi = t.player_index(a)
    sign = t.players[pi].sign
    agreed = kop.mh(t)
    fixed = {n.index: agreed.next(n) for n in s.decision.decided_nodes() if n.player == b}
    claimed = {}
    for c in s.candidates:
        if c.guaranteed is None:
            continue
        loose = _worst(t, kop.strategy(t, c.strategy, a), a, fixed)
        assert sign * c.guaranteed[pi] >= sign * loose[pi], c.strategy
        claimed[c.strategy] = sign * c.guaranteed[pi]
    assert s.recommended.applicable
    mine = claimed[s.recommended.strategy]
    for c in s.candidates:
        if c.applicable and c.strategy in claimed:
            assert mine >= claimed[c.strategy], c.strategy


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
    an A node whose outcomes give B 53 or 18: any selfish B moves there (A knows E_B), and then
    minimax and M^h reach (86,53) while HM0M^1 reaches (60,41).  The leaf (24,54) is no allowed
    behaviour's outcome (issue 29): minimax guarantees (86, 53) and is recommended.
    """
    t = kop.load_tree(THEORIES / "theorem8_counterexample.json")
    s = select(t, f_level("A", "B", 1) + f_level("B", "A", 0), "A")
    hm = s.candidates[1]
    assert hm.strategy == "HM0M1" and hm.verified is False
    assert "(86, 53)" in hm.counterexample
    assert hm.guaranteed == (60, 41) and s.candidates[-1].guaranteed == (86, 53)
    assert s.candidates[0].guaranteed == (86, 53)
    assert s.recommended.strategy == "minimax" and hm.outdone_by == ("minimax",)
    assert "guarantees (24, 54)" not in s.explain()


def test_cli_theorem8_counterexample_no_unreachable_guarantee(capsys):
    """``kop select theories/theorem8_counterexample.json -c A=1 -c B=0`` (issue 29)."""
    from kop.cli.app import main

    with pytest.raises(SystemExit) as exc:
        main(["select", str(THEORIES / "theorem8_counterexample.json"), "-c", "A=1", "-c", "B=0"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "guarantees (24, 54)" not in out and "Recommendation: minimax, outcome (86, 53)" in out


ISSUE_29_TREE = ('A', [
    ('B', [('A', [('B', [(-2, 0), (-9, -3)], 'n0'), ('B', [(9, -3), (-6, -6)], 'n1')], 'n2')], 'n3'),
    ('B', [('A', [(1, -8)], 'n4'), ('A', [('B', [(5, -3), (-6, -1)], 'n5')], 'n6')], 'n7'),
    ('B', [('A', [(7, 6), ('B', [(5, 0), (6, 5)], 'n8')], 'n9'),
           ('A', [('B', [(-4, -6), (1, -4), (-5, 5)], 'n10')], 'n11')], 'n12'),
], 'n13')


def test_issue_29_theorem_8_holds_against_every_selfish_opponent():
    """A selfish B never takes n9 at n12 (n11 gives it -6, n9 0 or 6 whatever it predicts at n9),
    so HM0M1's 1 beats minimax's -4 and the claim is verified (it was reported to FAIL)."""
    t = kop.GameTree.build(["A", "B"], ISSUE_29_TREE, goals="paper")
    ks = ["K_A E_A", "K_B E_B", "K_A S_A", "K_B S_B", "K_A K_B K_A K_B E_B", "C{A,B} K_A E_B"]
    s = select(t, ks, "A")
    hm = s.candidates[1]
    assert hm.strategy == "HM0M1" and hm.verified is True and hm.claims == (("minimax", True),)
    assert "claim verified on every allowed behaviour" in s.explain() and "FAILS" not in s.explain()
    assert hm.guaranteed == (1, -8) and s.candidates[-1].guaranteed == (-4, -6)


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
