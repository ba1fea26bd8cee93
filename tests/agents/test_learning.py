"""Learning during play: kop.LearningAgent updates its beliefs from the opponent's moves and does better."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tree_strategies import game_trees

import kop
from kop.agents.learning import learning_example


def test_the_learner_beats_the_agent_that_does_not_learn():
    game, types, prior, fixed = learning_example()
    names = ["careful", "greedy"]
    learner = kop.LearningAgent("A", types, prior, names=names)
    stubborn = kop.LearningAgent("A", types, prior, names=names, learn=False)
    a, b = kop.Match(game, [learner, fixed]).play(), kop.Match(game, [stubborn, fixed]).play()
    assert (a.outcome[0], b.outcome[0]) == (10, 6)
    assert a.moves == ("l", "risky", "good") and b.moves == ("l", "safe")
    # the beliefs are logged after every move: B's "l" rules out the greedy type
    assert a.log[0].beliefs == (("A", (("careful", 1.0), ("greedy", 0.0))),)
    assert b.log[0].beliefs == (("A", (("careful", 0.5), ("greedy", 0.5))),)
    assert a.to_json()["log"][0]["beliefs"] == {"A": {"careful": 1.0, "greedy": 0.0}}
    assert "beliefs" not in kop.Match(game, [kop.Agent("A"), fixed]).play().to_json()["log"][0]


def test_a_move_no_type_makes_resets_to_the_prior():
    game, types, prior, _ = learning_example()
    learner = kop.LearningAgent("A", types, [1, 3])
    assert learner.update(learner.prior, game, 0, 0) == (1.0, 0.0)          # "l": only careful
    assert learner.update((0.0, 1.0), game, 0, 0) == (0.25, 0.75)           # greedy refuted: the prior


def test_bad_input():
    with pytest.raises(kop.KopError, match="non-empty list"):
        kop.LearningAgent("A", [])
    with pytest.raises(kop.KopError, match="negative"):
        kop.LearningAgent("A", [None], [-1])
    with pytest.raises(kop.KopError, match="2 names for 1 types"):
        kop.LearningAgent("A", [None], names=["x", "y"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_trees(players=2, chance=False, max_depth=4, goals="paper", inner_root=True), st.data())
def test_learning_is_never_worse_in_expectation_over_the_types(tree, data):
    """Against an opponent whose type is drawn once from the prior, the learner's expected utility is
    at least the non-learner's: it plays the Bayesian PrOM strategy, the best against such an opponent."""
    game = kop.TreeGame(tree)
    order = [int(i) for i in kop.leaf_order(tree)]
    k = data.draw(st.integers(2, 3))
    values = [dict(zip(order, data.draw(st.lists(st.integers(-3, 3), min_size=len(order), max_size=len(order)))))
              for _ in range(k)]
    types = [lambda s, v=v: v.get(s, 0) for v in values]
    units = data.draw(st.lists(st.integers(1, 4), min_size=k, max_size=k))
    prior = [Fraction(u, sum(units)) for u in units]
    sign = tree.players[0].sign

    def expected(agent):
        total = Fraction(0)
        for q, f in zip(prior, types):
            b = kop.Agent("B", evaluation=f, strategy="minimax")
            total += q * sign * Fraction(kop.Match(game, [agent, b]).play().outcome[0])
        return total

    learner = kop.LearningAgent("A", types, [str(q) for q in prior])
    stubborn = kop.LearningAgent("A", types, [str(q) for q in prior], learn=False)
    assert expected(learner) >= expected(stubborn)
