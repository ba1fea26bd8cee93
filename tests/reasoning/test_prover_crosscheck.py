"""Hypothesis cross-checks of the prover against a naive search of all small models.

* where the naive reference (:mod:`kop.reasoning.reference`: every S5_n model
  with at most 3 worlds) finds a model of ~phi, kop must not call phi valid;
* every countermodel kop returns refutes phi (the prover checks it, and the
  test checks it again);
* the two complete decision procedures (SAT tableau and BDD type
  elimination) agree wherever both apply;
* eliminating announcements preserves the truth set on every small model.

The default run draws 2000 formulas for the main check; ``-m slow`` runs 20000.
"""

from __future__ import annotations

import numpy as np
import pytest
from formula_strategies import formulas
from hypothesis import HealthCheck, given, settings
from profiles import examples

import kop
from kop.reasoning.announcements import reduce_announcements
from kop.reasoning.prover import decide_formula
from kop.reasoning.reference import naive_model, small_models
from kop.syntax.formula import Distributed, Not, RelCommon, Common

AB = ["a", "b"]
U2 = small_models(AB, ["p", "q"], 3)
U3 = small_models(["a", "b", "c"], ["p"], 3)

_CFG = dict(deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


def _check(phi, universe, agents):
    v = kop.valid(phi, agents=agents)
    ref = naive_model(Not(phi), universe)
    if ref is not None:
        assert not v.holds, f"kop calls {phi} valid, but this model refutes it: {ref.to_json()}"
    if not v.holds:
        m = v.countermodel
        assert m is not None and not m.satisfies(phi)
        assert set(agents) <= set(m.agents)
    return v


def _engines_agree(phi):
    if any(isinstance(f, (Common, RelCommon, Distributed)) for f in reduce_announcements(phi).subformulas()):
        return
    a, _ = decide_formula(phi, method="sat")
    b, _ = decide_formula(phi, method="bdd")
    assert (a is None) == (b is None), f"the SAT and BDD procedures disagree on {phi}"


@settings(max_examples=examples(2000), **_CFG)
@given(formulas(agents=AB, atoms=["p", "q"], max_leaves=12))
def test_validity_against_all_small_models(phi):
    _check(phi, U2, AB)


@pytest.mark.slow
@settings(max_examples=examples(20000), **_CFG)
@given(formulas(agents=AB, atoms=["p", "q"], max_leaves=16))
def test_validity_against_all_small_models_slow(phi):
    _check(phi, U2, AB)
    _engines_agree(phi)


@settings(max_examples=examples(500), **_CFG)
@given(formulas(agents=["a", "b", "c"], atoms=["p"], max_leaves=10))
def test_three_agents_and_distributed_knowledge(phi):
    _check(phi, U3, ["a", "b", "c"])


@settings(max_examples=examples(600), **_CFG)
@given(formulas(agents=AB, atoms=["p", "q"], max_leaves=12, groups=False))
def test_sat_and_bdd_procedures_agree(phi):
    _engines_agree(phi)
    _check(phi, U2, AB)


@settings(max_examples=examples(1000), **_CFG)
@given(formulas(agents=AB, atoms=["p", "q"], max_leaves=12))
def test_announcement_reduction_preserves_truth(phi):
    model, _ = U2
    assert np.array_equal(model.truth_mask(phi), model.truth_mask(reduce_announcements(phi)))


@settings(max_examples=examples(300), **_CFG)
@given(formulas(agents=AB, atoms=["p", "q"], max_leaves=12))
def test_satisfiable_models_check(phi):
    v = kop.satisfiable(phi)
    ref = naive_model(phi, U2)
    if ref is not None:
        assert v.holds
    if v.holds:
        assert v.model.satisfies(phi)


def _relativized(agents, atoms, leaves):
    """Formulas built around relativized common knowledge: C_G(phi, psi), its negation and
    conjunctions of them with small formulas (the type search and its eventualities)."""
    from hypothesis import strategies as st

    from kop.syntax.formula import And, Not as Neg

    small = formulas(agents=agents, atoms=atoms, max_leaves=leaves)
    group = st.sampled_from([tuple(agents[:2]), tuple(agents)])
    rc = st.builds(RelCommon, group, small, small)
    part = st.one_of(rc, rc.map(Neg), small)
    return st.lists(part, min_size=1, max_size=3).map(lambda fs: fs[0] if len(fs) == 1 else And(*fs))


@settings(max_examples=examples(300), **_CFG)
@given(_relativized(AB, ["p", "q"], 5))
def test_relativized_common_knowledge_against_all_small_models(phi):
    _check(phi, U2, AB)
    v = kop.satisfiable(phi)
    if naive_model(phi, U2) is not None:
        assert v.holds
    if v.holds:
        assert v.model.satisfies(phi)


@pytest.mark.parametrize("method", ["bdd", "bdd-python"])
def test_eventuality_steps_only_through_an_unmet_unfolding(method):
    # found by the test above: with polarities, an unfolding K_a(~c | (x & RC)) of a ~RC may be
    # true in a type although agent a's class has the path; type elimination counted that step
    # and the model read off W then looped (ProverBug).  Now a step by a needs a's unfolding false.
    phi = kop.parse("C{a,b}(~~E{a} p, C{a,b}(~p, M_b p)) & C{a,b}(p, p)")
    v = kop.valid(phi, method=method)
    assert not v.holds and not v.countermodel.satisfies(phi)
