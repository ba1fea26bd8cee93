"""EPDDL domains and problems: read them, ground them, and check plans by product update.

EPDDL (Burigana & Fabiano, *The Epistemic Planning Domain Definition Language: Official
Guideline*, 2026) is the input language of the IPC 2026 epistemic planning track.  kop reads
the practical subset that the guideline's benchmarks use (``docs/epddl.md`` lists it):

* a domain: ``:types``, ``:constants``, ``:predicates`` (``:fact`` ones too), ``:event`` s
  with parameters, a precondition and (conditional, quantified) effects, and ``:action`` s
  that instantiate one of the standard *action types* (public / private / semi-private /
  quasi-private ontic, sensing and announcement actions) with observability conditions that
  make each agent a ``Fully``, ``Partially`` or ``Oblivious`` observer;
* a problem: ``:agents``, ``:objects``, ``:facts-init``, an initial state as a finitary S5
  theory or as explicit worlds, relations and labels, and a ``:goal`` formula;
* a plan: one ground action per line, ``(tell A B)`` or ``tell_A_B``.

The syntax is EPDDL's grammar, ``grammar/epddl.lark`` (:mod:`~kop.io.epddl.syntax`); the
modules of this package check what the grammar cannot and build the models:
:mod:`~kop.io.epddl.actiontypes` (standard action types, libraries),
:mod:`~kop.io.epddl.domain`, :mod:`~kop.io.epddl.problem`, :mod:`~kop.io.epddl.grounding`
(formulas, effects, observability, ground actions), :mod:`~kop.io.epddl.initial` (the initial
state), :mod:`~kop.io.epddl.task` (:func:`load_task`) and :mod:`~kop.io.epddl.validation`
(plans, :func:`validate_plan`).

Grounding gives a :class:`~kop.semantics.relational.RelationalModel` (the initial state) and,
for each plan step, an :class:`~kop.semantics.relational.EventModel` (the action with the
agents' observability resolved on the current state).

>>> task = load_task(DOMAIN_EXAMPLE, PROBLEM_EXAMPLE)
>>> len(task.initial), task.goal
(2, kop.parse('K_a heads'))
>>> result = validate_plan(task, parse_plan("(peek a)"))
>>> result.valid, [s.applicable for s in result.steps]
(True, [True])
"""

from __future__ import annotations

from kop.io.epddl.actiontypes import ACTION_TYPES, ActionType, parse_library
from kop.io.epddl.domain import DOMAIN_EXAMPLE, ActionSchema, EpddlDomain, EventSchema, Predicate, parse_domain
from kop.io.epddl.grounding import GroundAction
from kop.io.epddl.initial import MAX_WORLDS, _models
from kop.io.epddl.problem import PROBLEM_EXAMPLE, EpddlProblem, parse_problem
from kop.io.epddl.syntax import EpddlError, Node, read_nodes
from kop.io.epddl.task import EpddlTask, load_task
from kop.io.epddl.validation import PlanStep, StepResult, Validation, parse_plan, validate_plan

__all__ = ["EpddlDomain", "EpddlProblem", "EpddlTask", "GroundAction", "PlanStep", "StepResult", "Validation",
           "ActionType", "ACTION_TYPES", "parse_domain", "parse_library", "parse_problem", "parse_plan", "load_task",
           "validate_plan", "EpddlError", "DOMAIN_EXAMPLE", "PROBLEM_EXAMPLE"]

# also importable from here, as before the package: the parts of files, the theory's valuations
_ = (ActionSchema, EventSchema, Predicate, MAX_WORLDS, Node, read_nodes, _models)
