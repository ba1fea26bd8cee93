"""The prover on knowledge and belief, checked against every small plausibility model.

The reference (:func:`kop.reasoning.reference.small_models` with ``ranked``) is
the definition itself: every partition per agent, every total preorder inside
each cell, every valuation, up to 3 worlds (4 for one agent).  The checks:

* a formula the prover calls valid has no countermodel among them;
* a formula the prover calls unsatisfiable has no model among them;
* every countermodel and model the prover returns is a plausibility model
  that the model checker confirms;
* the reduction axioms of announcements over belief preserve truth on every
  small plausibility model;
* the known principles and non-principles of knowledge and belief.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from formula_strategies import formulas
from hypothesis import HealthCheck, given, settings
from profiles import examples

import kop
from kop.reasoning.announcements import reduce_announcements
from kop.reasoning.plausibility import to_knowledge
from kop.reasoning.reference import naive_model, small_models
from kop.syntax.formula import Belief, CondBelief, Not

ROOT = Path(__file__).resolve().parents[2]   # the repository: `kop run theories/...` runs from there

AB = ["a", "b"]
U2 = small_models(AB, ["p", "q"], 3, ranked=AB)
U1 = small_models(["a"], ["p", "q"], 4, ranked=["a"])

_CFG = dict(deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


def _ranked(model, phi):
    for f in phi.subformulas():
        if isinstance(f, (Belief, CondBelief)):
            assert model.has_uncertainty


def _check_valid(phi, universe, agents):
    v = kop.valid(phi, agents=agents)
    ref = naive_model(Not(phi), universe)
    if ref is not None:
        assert not v.holds, f"kop calls {phi} valid, but this plausibility model refutes it: {ref.to_json()}"
    if not v.holds:
        m = v.countermodel
        assert m is not None and not m.satisfies(phi) and m.satisfies(Not(phi))
        assert set(agents) <= set(m.agents)
        _ranked(m, phi)
    return v


@settings(max_examples=examples(1500), **_CFG)
@given(formulas(agents=AB, atoms=["p", "q"], max_leaves=10, belief=True))
def test_validity_against_all_small_plausibility_models(phi):
    _check_valid(phi, U2, AB)


@settings(max_examples=examples(500), **_CFG)
@given(formulas(agents=["a"], atoms=["p", "q"], max_leaves=10, belief=True, groups=False))
def test_one_agent_against_four_worlds(phi):
    _check_valid(phi, U1, ["a"])


@settings(max_examples=examples(500), **_CFG)
@given(formulas(agents=AB, atoms=["p", "q"], max_leaves=10, belief=True))
def test_satisfiable_agrees_with_the_search(phi):
    v = kop.satisfiable(phi)
    ref = naive_model(phi, U2)
    if ref is not None:
        assert v.holds, f"kop calls {phi} unsatisfiable, but this plausibility model satisfies it: {ref.to_json()}"
    if v.holds:
        assert v.model.satisfies(phi)
        _ranked(v.model, phi)
        if len(v.model) <= 3 and v.model.atoms <= {"p", "q"}:
            # a model that small is (up to renaming) one of the reference's: the search finds one too
            assert ref is not None, f"the search misses the model kop found for {phi}: {v.model.to_json()}"


@settings(max_examples=examples(800), **_CFG)
@given(formulas(agents=AB, atoms=["p", "q"], max_leaves=10, belief=True))
def test_announcements_over_belief_reduce_on_every_small_model(phi):
    model, _ = U2
    np.testing.assert_array_equal(model.truth_mask(phi), model.truth_mask(reduce_announcements(phi)))


@pytest.mark.parametrize("phi", [
    "B_a (p -> q) -> (B_a p -> B_a q)",            # K for belief
    "B_a p -> ~B_a ~p",                            # D
    "~B_a false",
    "B_a p -> B_a B_a p",                          # 4
    "~B_a p -> B_a ~B_a p",                        # 5
    "K_a p -> B_a p",
    "B_a p -> K_a B_a p",                          # strong positive introspection
    "~B_a p -> K_a ~B_a p",                        # strong negative introspection
    "B_a K_a p -> K_a p",                          # what one believes one knows, one knows
    "B_a K_b p -> B_a p",
    "B_a(p, p)",                                   # success of conditional belief
    "B_a(true, p) <-> B_a p",
    "K_a p -> (B_a(p, q) <-> B_a q)",
    "B_a(p, q) & B_a(p, r) -> B_a(p, q & r)",
    "B_a(p, q) & B_a(p, r) -> B_a(p & q, r)",      # cautious monotony
    "B_a(p, r) & B_a(q, r) -> B_a(p | q, r)",      # disjunction in the condition
    "[!p] B_a q <-> (p -> B_a(p, q))",
    "C{a,b} p -> B_a p & B_b B_a p",
    "[!p] B_a p",
])
def test_principles(phi):
    assert _check_valid(kop.parse(phi), U2, AB).holds, phi


@pytest.mark.parametrize("phi", [
    "B_a p -> p",                                  # belief is not factive
    "B_a p -> B_a K_a p",
    "B_a p -> K_a p",
    "K_a B_b p -> B_b K_a p",
    "B_a B_b p -> B_a p",
    "B_a(p, q) -> B_a q",                          # a condition is not knowledge
    "B_a q -> B_a(p, q)",                          # belief revision is not monotonic
    "B_a(p, r) & B_a(q, ~r) -> B_a(p & q, r)",
    "C{a,b} B_a p -> p",
    "[!q] B_a p",
])
def test_non_principles(phi):
    v = _check_valid(kop.parse(phi), U2, AB)
    assert not v.holds, phi
    assert v.countermodel.satisfies(kop.Not(kop.parse(phi)))


def test_done_when():
    v = kop.entails(["B_a K_b rain"], "B_a rain")
    assert v.holds
    v = kop.entails(["K_a B_b rain"], "B_b K_a rain")
    assert not v.holds
    m = v.countermodel
    assert m.satisfies("K_a B_b rain & ~B_b K_a rain") and m.has_uncertainty


def test_translation_is_exact_on_the_ranks():
    # the translation is the definition of B on ranks = levels: its model, read back, satisfies phi
    phi = kop.parse("B_a(q, p) & B_a(~q, ~p) & ~B_a p & ~B_a ~p & M_a q")
    t = to_knowledge(phi)
    assert len(t.levels["a"]) == 3
    v = kop.satisfiable(phi)
    assert v.holds and v.model.satisfies(phi)


def test_level_atoms_never_clash():
    phi = kop.parse("B_a lv_a_1 & ~lv_a_1")
    t = to_knowledge(phi)
    assert not set(t.levels["a"]) & phi.atoms()
    v = kop.satisfiable(phi)
    assert v.holds and v.model.atoms == {"lv_a_1"}


def test_mixed_with_common_and_distributed_knowledge():
    assert kop.valid("C{a,b} B_a p -> K_b B_a p").holds
    v = kop.valid("D{a,b} p -> B_a p")
    assert not v.holds and v.countermodel.satisfies("D{a,b} p & ~B_a p")
    v = kop.satisfiable("C{a,b} (B_a p & B_b ~p) & M_a ~p & M_b p & C{a,b}(p | q)")
    assert v.holds and v.model.satisfies("C{a,b} (B_a p & B_b ~p) & M_a ~p & M_b p & C{a,b}(p | q)")


def test_probability_is_refused_by_name():
    with pytest.raises(kop.LanguageError, match="not probability") as info:
        kop.valid("B_a p -> P_a(p) > 0")
    assert info.value.found == "P_a" and info.value.column == 10


def test_unknown_agent():
    with pytest.raises(kop.KopError, match="agent 'c'"):
        kop.valid("B_c p -> K_a p", agents=["a", "b"])


def test_theory_and_selector_with_belief():
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "kop", "run", "theories/figure2_belief.kop"], capture_output=True,
                       text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "[line 10] entails B_A E_B: yes" in lines
    assert "[line 11] entails K_A B_A K_B E_A: yes" in lines
    assert any(line.startswith("[line 12] entails K_A K_B E_A: no") for line in lines)
    assert "it holds only in belief" in r.stdout and "Recommendation: HM0M1" in r.stdout


def test_as_belief_precondition_status():
    from kop.theory.dominance import Precondition, as_belief

    f = kop.parse("K_A E_A & K_A K_B E_A")
    assert as_belief(f) == kop.parse("B_A E_A & B_A B_B E_A")
    assert Precondition(f, False, believed=True).status == "holds only in belief"
    assert Precondition(f, False).status == "refuted"


@pytest.mark.parametrize("args, where", [
    (["valid", "B_c p -> K_a p", "--agents", "a,b"], "agent 'c'"),
    (["valid", "B_a(, p)"], "line 1, column 5"),
    (["valid", "B_a(p, ) -> p"], "line 1, column 8"),
    (["entails", "-p", "B_a p", "P_a(p) >= x"], "line 1, column 11"),
    (["satisfiable", "B_a p & P_a(p) < 1/2"], "not probability"),
])
def test_bad_input_exit_2(args, where):
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "kop", *args], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 2 and where in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_three_ranks_needed():
    # two ranks per cell cannot satisfy it (the quick try fails); every level can
    phi = kop.parse("B_a ~q & B_a(q, ~p) & M_a (q & p)")
    v = kop.satisfiable(phi)
    assert v.holds and v.model.satisfies(phi)
    ranks = {v.model.rank("a", w) for w in v.model.worlds}
    assert len(ranks) >= 3
    assert naive_model(phi, U1) is not None
    assert kop.valid("B_a ~q & B_a(q, ~r) -> B_a(q, ~r)").holds
