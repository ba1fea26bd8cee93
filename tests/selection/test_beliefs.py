"""Beliefs over candidate evaluations and the selector under uncertainty, against brute force."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tree_strategies import game_trees

import kop


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_trees(players=2, chance=False, max_depth=4, goals="paper", inner_root=True), st.data())
def test_outcomes_under_belief(tree, data):
    order = [int(i) for i in kop.leaf_order(tree)]
    k = data.draw(st.integers(1, 3))
    cands = [data.draw(st.lists(st.integers(-3, 3), min_size=len(order), max_size=len(order))) for _ in range(k)]
    units = data.draw(st.lists(st.integers(0, 4), min_size=k, max_size=k).filter(lambda u: sum(u) > 0))
    prior = [Fraction(u, sum(units)) for u in units]
    b = kop.believes_candidates("A", "B", cands, [str(q) for q in prior])
    r = b.resolve(tree)
    actual = [tree.node(i).payoff[1] for i in order]
    assert r.true == any(c == actual and q > 0 for c, q in zip(cands, prior))
    rows = kop.outcomes_under_belief(tree, b)
    sign = tree.players[0].sign
    names = [row.strategy for row in rows]
    assert names[0] == "minimax" and names[-2:] == ["PrOM", "PrOM-Bayes"]
    for row in rows:
        assert row.holds == ("in fact" if r.true else "in belief")
        # the guarantee is the worst over the possible types, by A's goal, and never beats the expectation
        assert sign * row.guaranteed[0] <= sign * row.expected[0] + 1e-9
    best = max(sign * row.expected[0] for row in rows)
    bayes = next(row for row in rows if row.strategy == "PrOM-Bayes")
    assert abs(sign * bayes.expected[0] - best) < 1e-9     # PrOM-Bayes is the best in expectation
    # against the actual evaluation, M^1 believing it for sure plays as M^1 with knowledge
    for i, c in enumerate(cands):
        if c == actual:
            m1 = next(row for row in rows if row.strategy == f"M1[{i + 1}]")
            assert m1.actual == kop.mstar(tree, 1, "A").value


@pytest.mark.parametrize("call, message", [
    (lambda: kop.believes_candidates("A", "B", []), "no candidates"),
    (lambda: kop.believes_candidates("A", "B", [[1]], [-1]), "negative"),
    (lambda: kop.believes_candidates("A", "B", [[1]], ["1/0"]), "cannot read"),
    (lambda: kop.believes_candidates("A", "B", [[1], [2]], [1]), "1 probabilities for 2"),
    (lambda: kop.believes_candidates("A", "B", [[1, 2]]).resolve(kop.figure2()), "has 2 values; the tree has 12"),
    (lambda: kop.believes_candidates("A", "Q", [[1]]).resolve(kop.figure2()), "unknown player 'Q'"),
])
def test_bad_input_is_located(call, message):
    with pytest.raises(kop.KopError, match=message):
        call()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_trees(players=2, chance=True, max_depth=5, inner_root=True))
def test_a_sure_true_belief_gives_the_knowledge_results(tree):
    """Belief with probability 1 on the actual evaluation: every column is M^1's outcome under knowledge."""
    actual = [tree.node(int(i)).payoff[1] for i in kop.leaf_order(tree)]
    b = kop.believes_candidates("A", "B", [actual], [1])
    assert b.resolve(tree).true and b.resolve(tree).p_actual == 1
    m1 = kop.mstar(tree, 1, "A").value
    rows = {r.strategy: r for r in kop.outcomes_under_belief(tree, b)}
    for name in ("M1[1]", "PrOM", "PrOM-Bayes"):
        r = rows[name]
        assert r.expected == r.believed == r.guaranteed == r.actual
        assert r.actual == pytest.approx(m1)
        assert r.holds == "in fact" and r.guarantee_holds
