"""The type search (kop.reasoning.typesearch), the first try of ``method="auto"`` on C.

On random small formulas with C, relativized C and announcements (drawn
structurally, so failures shrink):

* when the search says unsatisfiable (refuted by valid learned clauses only),
  type elimination agrees, and the naive reference (every S5_n model with at
  most 3 worlds) has no model;
* when it returns a candidate, the candidate's Kripke model either satisfies
  the formula at its designated world (then type elimination says
  satisfiable) or the prover leaves the question to type elimination;
* every try of :data:`~kop.reasoning.prover.SEARCH_TRIES` (phase preferences,
  settling into existing classes, random phases) is held to the same;
* ``decide_formula`` with ``method="auto"`` (search first) agrees with ``method="bdd"``;
* without ``C`` there is no eventuality, so every candidate must be a model: the
  search's pure-literal rule (no demand for a ``K`` that occurs only positively, the
  abstraction's one-way constraints) is held to that.
"""

from __future__ import annotations

import pytest
from formula_strategies import formulas
from hypothesis import HealthCheck, given, settings
from profiles import examples

from kop import parse
from kop.reasoning.announcements import reduce_announcements
from kop.reasoning.bddengine import BddEngine
from kop.reasoning.core import Closure, Core
from kop.reasoning.countermodel import build_model
from kop.reasoning.prover import SEARCH_TRIES, decide_formula
from kop.reasoning.reference import naive_model, small_models
from kop.reasoning.typesearch import UNKNOWN, TypeSearch
from kop.syntax import formula as F

AB = ["a", "b"]
U2 = small_models(AB, ["p", "q"], 3)
_CFG = dict(deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


def _no_d(phi: F.Formula) -> bool:
    return not any(isinstance(f, F.Distributed) for f in phi.subformulas())


def _check(phi: F.Formula, universe: object = None) -> None:
    core = Core()
    root = core.compile(reduce_announcements(phi))
    closure = Closure(core, [root])
    if closure.dgroups:
        return
    bdd = BddEngine(core, closure, root).run() is not None
    # the tries the prover makes: both phase preferences, with and without settling, two seeds
    for know_first, settle, seed, _ in SEARCH_TRIES[:6]:
        found = TypeSearch(core, closure, root, know_first=know_first, settle=settle, phase_seed=seed).run()
        if found is None:
            assert not bdd, f"the type search calls {phi} unsatisfiable, type elimination does not"
            if universe is not None:
                assert naive_model(phi, universe) is None, f"the type search calls {phi} unsatisfiable"
        elif found is not UNKNOWN:
            if build_model(found, phi.agents()).satisfies(phi, "w0"):
                assert bdd, f"the type search found a model of {phi}, type elimination does not"
    auto, _ = decide_formula(phi, method="auto")
    assert (auto is not None) == bdd, f"method='auto' and type elimination disagree on {phi}"


@settings(max_examples=examples(700), **_CFG)
@given(formulas(agents=AB, atoms=["p", "q"], max_leaves=14).filter(_no_d))
def test_type_search_agrees_with_type_elimination(phi):
    _check(phi)


@settings(max_examples=examples(250), **_CFG)
@given(formulas(agents=AB, atoms=["p", "q"], max_leaves=10).filter(_no_d))
def test_type_search_against_the_small_models(phi):
    _check(phi, U2)


@settings(max_examples=examples(200), **_CFG)
@given(formulas(agents=["a", "b", "c"], atoms=["p", "q"], max_leaves=12).filter(_no_d))
def test_type_search_three_agents(phi):
    # with three agents a witness may leave two classes at once: what settling is for
    _check(phi)


@pytest.mark.slow
@settings(max_examples=examples(10000), **_CFG)
@given(formulas(agents=["a", "b", "c"], atoms=["p", "q"], max_leaves=18).filter(_no_d))
def test_type_search_agrees_slow(phi):
    _check(phi)


@pytest.mark.parametrize("text, sat", [
    ("~C{a,b} p & C{a,b}(p -> E{a,b} p) & p", False),      # induction: beyond the search, elimination decides
    ("C{a,b} p & M_b ~p", False),
    ("~C{a,b} p & p & M_a q", True),
    ("C{a,b}(p, q) & M_a (p & ~q)", False),
    ("~C{a,b}(p, q) & K_a p & K_b p", True),
    ("<!p> ~C{a,b} q & C{a,b}(q -> K_a q)", True),
])
def test_auto_decides_with_a_checked_model(text, sat):
    phi = parse(text)
    model, stats = decide_formula(phi)
    assert (model is not None) == sat
    assert stats["search"] in ("model", "unsatisfiable", "gave up")
    if model is not None:
        assert model.satisfies(phi)


def test_the_search_leaves_an_unfulfilled_eventuality_to_type_elimination():
    # ~C{a,b} p that only loops: the search cannot refute it with clauses, elimination does
    phi = parse("~C{a,b} p & p & C{a,b}(p -> E{a,b} p)")
    core = Core()
    root = core.compile(phi)
    closure = Closure(core, [root])
    found = TypeSearch(core, closure, root).run()
    assert found is not None
    if found is not UNKNOWN:
        assert not build_model(found, phi.agents()).satisfies(phi, "w0")
    model, stats = decide_formula(phi)
    assert model is None and stats["search"] == "gave up"


def _check_without_c(phi: F.Formula, universe: object = None) -> None:
    core = Core()
    root = core.compile(reduce_announcements(phi))
    closure = Closure(core, [root])
    for know_first, settle, seed, _ in SEARCH_TRIES[:6]:
        found = TypeSearch(core, closure, root, know_first=know_first, settle=settle, phase_seed=seed).run()
        if found is None:
            if universe is not None:
                assert naive_model(phi, universe) is None, f"the type search calls {phi} unsatisfiable"
        else:
            assert found is not UNKNOWN, f"the type search gave up on {phi}"
            assert build_model(found, phi.agents()).satisfies(phi, "w0"), \
                f"without C, the type search's candidate for {phi} is no model"


@settings(max_examples=examples(300), **_CFG)
@given(formulas(agents=AB, atoms=["p", "q"], max_leaves=10, groups=False))
def test_type_search_without_c_builds_models(phi):
    _check_without_c(phi, U2)


@settings(max_examples=examples(200), **_CFG)
@given(formulas(agents=["a", "b", "c"], atoms=["p", "q"], max_leaves=14, groups=False))
def test_type_search_without_c_three_agents(phi):
    _check_without_c(phi)
