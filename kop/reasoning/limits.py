"""Explicit limits of the prover: time, nesting depth, declared agents.

    >>> from kop import parse
    >>> d = Deadline(None)          # no limit
    >>> d.check()
    >>> check_depth(parse("K_a K_b p"))
    >>> check_agents(parse("K_c p"), ["a", "b"])
    Traceback (most recent call last):
    ...
    kop.errors.AgentError: the formula names agent 'c', which is not among the declared agents a, b
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from kop.reasoning.errors import AgentError, ProverTimeout
from kop.syntax.budget import check_timeout, deadline_end, deadline_seconds
from kop.errors import LimitError
from kop.syntax.formula import Formula

if TYPE_CHECKING:  # pragma: no cover
    from kop.reasoning.core import Closure

__all__ = ["Deadline", "check_depth", "check_agents", "check_type_space", "MAX_NESTING",
           "MAX_AGENT_VARIABLES", "deep_input_guard"]

P = ParamSpec("P")
R = TypeVar("R")

#: The deepest formula tree the prover accepts (the parser's own limit is the same).
MAX_NESTING = 1000
#: The largest (agents x type variables) type elimination accepts: each agent's
#: profile is a set of variables, and the work of one round grows with the product.
MAX_AGENT_VARIABLES = 10_000_000


class Deadline:
    """A limit in CPU time (:func:`time.process_time`): ``check()`` raises :class:`ProverTimeout` once it has passed.

    CPU time, not wall-clock time: on a busy machine a question gets the same work done
    within its limit ("undecided" does not depend on the load).

    >>> d = Deadline(60)
    >>> d.expired(), 0 <= d.used() < 60
    (False, True)
    """

    __slots__ = ("seconds", "end", "what", "start")

    def __init__(self, seconds: float | None, what: str = "the question"):
        seconds = check_timeout(seconds)
        self.start = time.process_time()
        end = None if seconds is None else self.start + seconds
        process = deadline_end()
        if process is not None and (end is None or process < end):  # the command's deadline comes first
            seconds, end = deadline_seconds(), process
        self.seconds = seconds
        self.end = end
        self.what = what

    def used(self) -> float:
        """The CPU seconds used since the deadline was set."""
        return time.process_time() - self.start

    def remaining(self) -> float | None:
        """The CPU seconds left (None: no limit)."""
        return None if self.end is None else self.end - time.process_time()

    def expired(self) -> bool:
        return self.end is not None and time.process_time() >= self.end

    def check(self) -> None:
        if self.end is not None and time.process_time() >= self.end:
            raise ProverTimeout(self.seconds or 0.0, self.what)

    def timeout(self) -> ProverTimeout:
        return ProverTimeout(self.seconds or 0.0, self.what)


def check_depth(phi: Formula, limit: int = MAX_NESTING) -> None:
    """Raise :class:`LimitError` when *phi*'s tree is deeper than *limit*.

    Computed without recursion, and by object identity, so that it never
    compares (possibly very deep) subformulas for equality.
    """
    depth: dict[int, int] = {}
    stack: list[tuple[Formula, bool]] = [(phi, False)]
    while stack:
        f, expanded = stack.pop()
        if id(f) in depth:
            continue
        if expanded:
            d = 1 + max((depth[id(c)] for c in f.children), default=0)
            if d > limit:
                raise LimitError(f"the formula is nested more than {limit} levels deep (kop's limit for the prover)")
            depth[id(f)] = d
        else:
            stack.append((f, True))
            stack.extend((c, False) for c in f.children if id(c) not in depth)


def check_agents(phi: Formula, agents: Iterable[str] | None) -> None:
    """Raise :class:`AgentError` naming the first agent of *phi* outside *agents* (None: anything goes)."""
    if agents is None:
        return
    declared = set(agents)
    extra = sorted(phi.agents() - declared)
    if extra:
        raise AgentError(f"the formula names agent {extra[0]!r}, which is not among the declared agents "
                         f"{', '.join(sorted(declared)) or '(none)'}")


def check_type_space(closure: Closure) -> None:
    """Raise :class:`LimitError` when type elimination over *closure* would need
    more than :data:`MAX_AGENT_VARIABLES` (agents x type variables).

    A group of 20,000 agents in ``C`` has 20,001 type variables (the group's
    unfolding has one ``K_a`` per member): 4 * 10^8, refused at once.
    """
    nagents = len(closure.agents) + len(closure.dgroups)
    nvars = len(closure.atoms) + len(closure.modal)
    if nagents * nvars > MAX_AGENT_VARIABLES:
        raise LimitError(f"the question has {nagents} agents and groups and {nvars} subformulas to track; "
                         f"type elimination (used for C and D) handles at most {MAX_AGENT_VARIABLES:,} "
                         "for their product (kop's limit)")


def deep_input_guard(fn: Callable[P, R]) -> Callable[P, R]:
    """Decorator: a ``RecursionError`` (very deep formulas) becomes a :class:`LimitError` saying so."""
    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except RecursionError:
            raise LimitError("the formula is too deeply nested for kop (comparing or traversing its "
                             "subformulas exceeded Python's recursion limit)") from None
    return wrapper
