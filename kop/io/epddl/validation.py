"""Plans for EPDDL tasks: read them, and check them by product update.

:func:`validate_plan` applies a plan to the task's initial state and says at each step whether
the action is applicable (at every designated world some designated event's precondition
holds) and at the end whether the goal holds.

>>> from kop.io.epddl import load_task, DOMAIN_EXAMPLE, PROBLEM_EXAMPLE
>>> task = load_task(DOMAIN_EXAMPLE, PROBLEM_EXAMPLE)
>>> result = validate_plan(task, parse_plan("(peek a)"))
>>> result.valid, [s.applicable for s in result.steps]
(True, [True])
>>> validate_plan(task, parse_plan("")).reason
'the goal is false at the end of the plan'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kop.io.epddl.syntax import EpddlError, Node, _File
from kop.io.epddl.task import EpddlTask
from kop.semantics.relational import RelationalModel, relational_product

__all__ = ["PlanStep", "StepResult", "Validation", "parse_plan", "validate_plan"]


@dataclass(frozen=True)
class PlanStep:
    """One line of a plan: the action's name and arguments and where it was written."""

    name: str
    args: tuple[str, ...]
    line: int
    column: int = 1

    @property
    def label(self) -> str:
        """``(name arg ...)``."""
        return "(" + " ".join((self.name, *self.args)) + ")"


def parse_plan(text: str, source: str = "") -> list[PlanStep]:
    """Read a plan: one action per line, ``(tell a b)`` or ``tell_a_b``, optionally numbered ``0.``/``1:``.

    ``;`` starts a comment; blank lines are skipped.

    >>> [s.label for s in parse_plan("0. (open A)\\n; peek next\\n1: peek_A")]
    ['(open A)', '(peek_A)']
    """
    steps = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split(";", 1)[0]
        m = re.match(r"\s*(?:\d+\s*[.:]\s*)?", line)
        start = m.end() if m else 0
        body = line[start:].strip()
        if not body:
            continue
        col = line.index(body) + 1
        if body.startswith("("):
            if not body.endswith(")") or "(" in body[1:-1] or ")" in body[1:-1]:
                raise EpddlError(text, n, col, body, "an action (NAME ARG ...) on one line", source)
            words = body[1:-1].split()
            if not words:
                raise EpddlError(text, n, col, body, "an action name inside the parentheses", source)
        else:
            words = body.split()
            if len(words) != 1:
                raise EpddlError(text, n, col, body, "one action per line: (NAME ARG ...) or NAME_ARG_...", source)
        steps.append(PlanStep(words[0], tuple(words[1:]), n, col))
    return steps



@dataclass(frozen=True)
class StepResult:
    """One step of a plan: the action, whether it was applicable, the model's size after it."""

    index: int
    action: str
    line: int
    applicable: bool
    worlds: int
    observability: dict[str, str]
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        """``{"step", "action", "line", "applicable", "worlds", "observability", "reason"}``."""
        return {"step": self.index, "action": self.action, "line": self.line, "applicable": self.applicable,
                "worlds": self.worlds, "observability": dict(self.observability), "reason": self.reason or None}


@dataclass(frozen=True)
class Validation:
    """The result of :func:`validate_plan`.

    ``model`` is the state at the failing step (before the inapplicable action,
    or at the end when the goal fails), else the final state.
    """

    steps: tuple[StepResult, ...]
    goal: bool | None
    valid: bool
    failed_step: int | None
    reason: str
    model: RelationalModel
    initial_worlds: int

    def explain(self) -> str:
        """Lines of text: the initial state, each step, the goal and the verdict."""
        lines = [f"initial state: {self.initial_worlds} world(s)"]
        for s in self.steps:
            obs = ", ".join(f"{a} {t}" for a, t in s.observability.items())
            if s.applicable:
                lines.append(f"step {s.index}: {s.action}: applicable; {s.worlds} world(s) after it"
                             + (f" [{obs}]" if obs else ""))
            else:
                lines.append(f"step {s.index}: {s.action}: NOT applicable: {s.reason}")
        if self.goal is not None:
            lines.append(f"goal: {'holds' if self.goal else 'does not hold'} at the end")
        lines.append("plan valid" if self.valid else f"plan NOT valid: {self.reason}")
        return "\n".join(lines)


def validate_plan(task: EpddlTask, plan: Sequence[PlanStep], plan_text: str = "",
                  plan_source: str = "") -> Validation:
    """Apply *plan* to the task's initial state by product update and check the goal.

    A step is applicable when every designated world satisfies the precondition of some
    designated event; the states kept are the parts reachable from the designated worlds.

    Raises
    ------
    EpddlError
        A plan step that is not a ground action of the domain (located in the plan).

    Example
    -------
    >>> from kop.io.epddl import load_task, DOMAIN_EXAMPLE, PROBLEM_EXAMPLE
    >>> task = load_task(DOMAIN_EXAMPLE, PROBLEM_EXAMPLE)
    >>> v = validate_plan(task, parse_plan("(peek b)"))
    >>> v.valid, v.goal, v.steps[0].observability
    (False, False, {'a': 'Partially', 'b': 'Fully'})
    """
    pf = _File(plan_text, plan_source)
    names = None
    model = task.initial
    results: list[StepResult] = []
    for k, step in enumerate(plan, 1):
        name, args = step.name, step.args
        node = Node("sym", step.label, (), step.line, step.column)
        if name not in task.domain.actions and not args:
            names = names or task.ground_names()
            if name in names:
                name, args = names[name]
        action = task.action(name, args, (pf, node))
        em, obs = action.event_model(model)
        label = action.label
        if not em.applicable(model):
            bad = [model.worlds[w] for w in sorted(model.designated)
                   if not any(w in model.truth(em.pre[e]) for e in em.designated)]
            reason = (f"no designated event's precondition holds at designated world {bad[0]} "
                      f"(preconditions: {'; '.join(str(em.pre[e]) for e in sorted(em.designated))})")
            results.append(StepResult(k, label, step.line, False, len(model), obs, reason))
            return Validation(tuple(results), None, False, k, f"step {k} {label} is not applicable", model,
                              len(task.initial))
        model = relational_product(model, em).generated()
        results.append(StepResult(k, label, step.line, True, len(model), obs))
    goal = model.holds(task.goal)
    return Validation(tuple(results), goal, goal, None if goal else len(results) + 1,
                      "" if goal else "the goal is false at the end of the plan", model, len(task.initial))
