"""Type elimination on CUDD against the pure-Python engine and the small-model reference.

On thousands of small random formulas with C, relativized C, D and
announcements (drawn structurally, so failures shrink):

* the CUDD engine with polarity-reduced constraints, the pure-Python engine
  with the full constraints (the engine before the move to CUDD) and the
  pure-Python engine with polarity agree on satisfiability;
* every pseudo-model each of them builds becomes a Kripke model that the model
  checker confirms at its designated world;
* where the naive reference (every S5_n model with at most 3 worlds) finds a
  model, all of them say satisfiable (three agents; and two agents under ``-m slow``).

The default run draws 1,500 formulas; ``-m slow`` 15,000 more.
"""

from __future__ import annotations

import pytest
from formula_strategies import formulas
from hypothesis import HealthCheck, given, settings
from profiles import examples

from kop.reasoning.announcements import reduce_announcements
from kop.bdd.manager import cudd_available
from kop.reasoning.bddengine import BddEngine, polarities
from kop.reasoning.core import Closure, Core
from kop.reasoning.countermodel import build_model
from kop.reasoning.reference import naive_model, small_models
from kop.syntax.formula import Formula

pytestmark = pytest.mark.skipif(not cudd_available(), reason="dd.cudd is not installed")

AB = ["a", "b"]
U2 = small_models(AB, ["p", "q"], 3)
U3 = small_models(["a", "b", "c"], ["p"], 3)
_CFG = dict(deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
ENGINES = (("cudd", True), ("python", False), ("python", True))


def _decide(phi: Formula, backend: str, polarity: bool) -> bool:
    core = Core()
    root = core.compile(reduce_announcements(phi))
    closure = Closure(core, [root])
    pm = BddEngine(core, closure, root, backend=backend, polarity=polarity).run()
    if pm is None:
        return False
    model = build_model(pm, phi.agents())
    assert model.satisfies(phi, "w0"), f"the {backend} engine's model does not satisfy {phi}"
    return True


def _agree(phi: Formula, universe: object = None) -> None:
    answers = {(b, p): _decide(phi, b, p) for b, p in ENGINES}
    assert len(set(answers.values())) == 1, f"the engines disagree on {phi}: {answers}"
    if universe is not None and naive_model(phi, universe) is not None:
        assert answers[ENGINES[0]], f"{phi} has a small model, but the engines call it unsatisfiable"


@settings(max_examples=examples(1200), **_CFG)
@given(formulas(agents=AB, atoms=["p", "q"], max_leaves=12))
def test_cudd_and_python_engines_agree(phi):
    _agree(phi)             # the reference check of kop itself is in test_prover_crosscheck


@settings(max_examples=examples(300), **_CFG)
@given(formulas(agents=["a", "b", "c"], atoms=["p"], max_leaves=10))
def test_engines_agree_with_three_agents_and_distributed_knowledge(phi):
    _agree(phi, U3)


@pytest.mark.slow
@settings(max_examples=examples(15000), **_CFG)
@given(formulas(agents=AB, atoms=["p", "q"], max_leaves=16))
def test_cudd_and_python_engines_agree_slow(phi):
    _agree(phi, U2)


def test_polarities():
    from kop import parse

    core = Core()
    root = core.compile(parse("~C{a,b} p & K_a q"))
    closure = Closure(core, [root])
    pos, neg = polarities(core, closure, root)
    rc = next(n for n in closure.modal if core.op[n] == 8)
    ka = core.find(6, "a", (core.atom("q"),))
    assert rc in neg and rc not in pos and ka in pos and ka not in neg
