"""The selector's claims against the brute-force reference of the definitions (issue 29).

:mod:`kop.selection.reference_claims` enumerates every (evaluation, prediction,
behaviour) profile of the opponent on small trees, keeps the selfish and
informed ones (Definitions 5 and 7) and computes each claim from its definition
(Definition 8 for K-dominance, the worst allowed outcome for a guarantee);
:func:`kop.select` computes the same claims without enumerating
(:mod:`kop.selection.behaviours`).  Compared here on random trees and random
knowledge (f-levels, K-chains, disjunctions, common knowledge, random formulas),
partial knowledge of every kind, and beliefs:

* where the reference's evaluations of the opponent are exactly the possible ones
  (propositional knowledge; exact, candidate and order statements on trees without
  chance nodes), every guarantee and every dominance verdict is equal;
* elsewhere the reference's witnesses are a subset of the possible evaluations, so
  the selector's guarantee is never better than the reference's, and a claim the
  selector verifies holds in the reference;
* the recommendation is never outdone, over the allowed behaviours, by another
  candidate that applies;
* the belief report's expected, believed, guaranteed and actual outcomes and
  its "in fact / in belief" verdicts equal the reference's;
* the issue's Theorem 8 tree, and ``theories/theorem8_counterexample.json``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import kop
from kop.selection.reference_claims import belief_claims, claim_setting, predicted_value, reference_claims
from tests.selection.test_decide_reference import knowledge, small_trees, statements
from tests.selection.remembered import remembered_prover_answers

THEORIES = Path(__file__).resolve().parents[2] / "theories"
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                       HealthCheck.filter_too_much])
SLOW = settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                        HealthCheck.filter_too_much])
COUNTS: dict[str, int] = {}


@pytest.fixture(scope="module", autouse=True)
def _remember_prover_answers():
    """Random trees ask the prover the same questions over and over: remember the answers."""
    with remembered_prover_answers():
        yield
    print("\nclaim cases compared:", COUNTS)
    print("\nclaim cases compared:", COUNTS)


def _count(key: str) -> None:
    COUNTS[key] = COUNTS.get(key, 0) + 1


def _compare(t, ks, evs, kind):
    """Selector against reference; *kind* 'exact' (equal claims) or 'subset' (reference allows fewer)."""
    s = kop.select(t, ks, evaluations=evs or None)
    setting = claim_setting(t, ks if not evs else (), evs or ())
    # the reference's small models must decide as Decide does (checked in both directions by
    # test_decide_reference); where they are too small to refute a node, the comparison is void
    assume(tuple(s.decision.decided) == setting.decided)
    named = {c.strategy: kop.strategy(t, c.strategy, s.player) for c in s.candidates}
    ref = reference_claims(t, strategies=named, setting=setting)
    me = t.player_index(s.player)
    sign = t.players[me].sign
    for c in s.candidates:
        if c.guaranteed is None:
            continue
        want = ref.guaranteed(c.strategy)[me]
        if kind == "exact":
            assert abs(c.guaranteed[me] - want) < 1e-9, (c.strategy, c.guaranteed, want)
        else:
            assert sign * (c.guaranteed[me] - want) <= 1e-9, (c.strategy, c.guaranteed, want)
        for other, holds in c.claims:
            if holds is None:
                continue
            truth = ref.dominates(c.strategy, other)
            if kind == "exact":
                assert holds == truth, (c.strategy, other, c.counterexample)
            elif holds:
                assert truth, (c.strategy, other)
            _count("dominance verdicts")
        _count("guarantees")
    # the recommendation is never outdone by another applicable candidate over the allowed behaviours
    rec = s.recommended
    if rec.guaranteed is not None and kind == "exact":
        mine = np.array([o[me] for o in ref.outcomes[rec.strategy]]) * sign
        for c in s.candidates:
            if c.applicable and c is not rec:
                theirs = np.array([o[me] for o in ref.outcomes[c.strategy]]) * sign
                assert not (np.all(theirs >= mine - 1e-9) and np.any(theirs > mine + 1e-9)), (rec.strategy, c.strategy)
        _count("recommendations")
    # predicted: the value each algorithm computes at the root, from its definition
    for c in s.candidates:
        if c.strategy == "Mh" or c.strategy.startswith("HM0M") or c.strategy == "minimax":
            assert np.allclose(c.estimate, predicted_value(t, c.strategy, s.player)), c.strategy
            _count("predictions")
    # with communication: both play M^h after the announcement
    comm = s.best_with_communication
    if comm is not None:
        assert np.allclose(comm.outcome, predicted_value(t, "Mh", s.player))
        _count("with communication")
    _count(kind)


def _chance(t) -> bool:
    return t.probs is not None and bool(np.any(t.kind == kop.games.trees.tree.CHANCE))


@FAST
@given(small_trees().filter(lambda t: t.n_leaves <= 6), knowledge)
def test_claims_equal_the_reference_with_formulas(t, ks):
    """Propositional knowledge: every evaluation of Q that P does not know is possible; the reference
    takes every strict order of the leaves, which realizes every behaviour on trees without chance."""
    _compare(t, ks, None, "subset" if _chance(t) else "exact")


@pytest.mark.slow
@SLOW
@given(small_trees().filter(lambda t: t.n_leaves <= 6), knowledge)
def test_claims_equal_the_reference_with_formulas_slow(t, ks):
    _compare(t, ks, None, "subset" if _chance(t) else "exact")


def _partial_kind(t, evs):
    """'exact' when the reference's witnesses of Q's evaluation are all of P's candidates."""
    from kop.selection.decide import two_players

    p = two_players(t)[0]
    mine = [e for e in evs if e.knower == p]
    kind = mine[0].kind if mine else "nothing"
    if kind in ("exact", "candidates") or (kind in ("order", "nothing") and not _chance(t)):
        return "exact"
    return "subset"


@FAST
@given(small_trees().filter(lambda t: t.n_leaves <= 5), st.data())
def test_claims_equal_the_reference_with_partial_knowledge(t, data):
    evs = data.draw(statements(t))
    _compare(t, (), evs, _partial_kind(t, evs))


@pytest.mark.slow
@SLOW
@given(small_trees().filter(lambda t: t.n_leaves <= 5), st.data())
def test_claims_equal_the_reference_with_partial_knowledge_slow(t, data):
    evs = data.draw(statements(t))
    _compare(t, (), evs, _partial_kind(t, evs))


# -- beliefs: expected, believed, guaranteed, actual; in fact or in belief ---------------------

@st.composite
def beliefs(draw, t):
    from fractions import Fraction

    order = [int(i) for i in kop.leaf_order(t)]
    actual = [t.node(i).payoff[1] for i in order]
    k = draw(st.integers(1, 3))
    cands = [draw(st.one_of(st.just(actual), st.lists(st.integers(-3, 3), min_size=len(order), max_size=len(order))))
             for _ in range(k)]
    units = draw(st.lists(st.integers(0, 4), min_size=k, max_size=k).filter(lambda u: sum(u) > 0))
    return kop.believes_candidates("A", "B", cands, [str(Fraction(u, sum(units))) for u in units])


def _belief_strategies(t, b):
    from kop.games.strategies.prom import prom, prom_bayes
    from kop.selection.beliefs import _ltr

    r = b.resolve(t)
    cands = _ltr(t, r.rows)
    probs = [float(x) for x in r.probabilities]
    out = {"minimax": kop.minimax(t, "A").next_array}
    for i in range(len(cands)):
        one = [0.0] * len(cands)
        one[i] = 1.0
        out[f"M1[{i + 1}]"] = prom(t, "A", cands, one, opponent="B").next_array
    out["PrOM"] = prom(t, "A", cands, probs, opponent="B").next_array
    out["PrOM-Bayes"] = prom_bayes(t, "A", cands, probs, opponent="B").next_array
    return out


@FAST
@given(st.data())
def test_belief_claims_equal_the_reference(data):
    from tree_strategies import game_trees

    t = data.draw(game_trees(players=2, chance=False, max_depth=4, goals="paper", inner_root=True))
    assume(t.node(0).player == "A")
    b = data.draw(beliefs(t))
    ref = belief_claims(t, b, _belief_strategies(t, b))
    for row in kop.outcomes_under_belief(t, b):
        want = ref[row.strategy]
        got = {"expected": row.expected, "believed": row.believed, "guaranteed": row.guaranteed,
               "actual": row.actual, "guarantee_holds": row.guarantee_holds, "holds": row.holds}
        for key in ("expected", "believed", "actual"):
            assert np.allclose(got[key], want[key]), (row.strategy, key, got[key], want[key])
        assert abs(got["guaranteed"][0] - want["guaranteed"][0]) < 1e-9
        assert got["guarantee_holds"] == want["guarantee_holds"] and got["holds"] == want["holds"]
        _count("belief rows")
