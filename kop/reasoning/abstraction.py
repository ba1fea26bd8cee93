"""The propositional abstraction of a closure, in CNF, and a SAT solver that honours a deadline.

Both SAT-driven procedures (:mod:`kop.reasoning.satengine` and
:mod:`kop.reasoning.typesearch`) read a *type* off a satisfying assignment
of this abstraction: one variable per atom, ``K_a`` node and ``RC_G`` node
(and one per ``&``/``|`` node, defined by Tseitin's equivalences), with the
S5_n-valid local constraints ``K_a x -> x`` and the fixed point
``RC_G(c, x) <-> AND_{a in G} K_a(~c | (x & RC_G(c, x)))``.

    >>> from kop import parse
    >>> from kop.reasoning.core import Core, Closure
    >>> core = Core(); root = core.compile(parse("K_a p & ~p"))
    >>> ab = Abstraction(core, Closure(core, [root]))
    >>> with TimedSolver(ab.clauses) as s:
    ...     s.solve([ab.lit(root)])
    False

Reference: G. S. Tseitin, *On the complexity of derivation in propositional
calculus* (1968).
"""

from __future__ import annotations

import threading
from typing import Any

from pysat.solvers import Solver

from kop.reasoning.core import AND, ATOM, FALSE, KNOW, NOT, OR, RC, TRUE, Closure, Core
from kop.reasoning.limits import Deadline

__all__ = ["Abstraction", "TimedSolver", "SOLVER"]

#: the SAT solver used (python-sat name)
SOLVER = "minisat22"


class Abstraction:
    """The CNF of a closure: ``var[node]`` for atoms, ``K``, ``RC``, ``&`` and ``|`` nodes.

    Variable 1 is "true"; ``lit(n)`` is the literal of any node (negations fold in).
    Distributed knowledge is not encoded (its callers refuse it).

    *polarity*, the nodes that occur positively and negatively in the input
    (:func:`~kop.reasoning.bddengine.polarities`), keeps only the directions of
    ``K_a x -> x`` and of the fixed point that the input relies on: the
    "true" direction for a node that occurs positively, the "false" one for a
    node that occurs negatively (the pure-literal rule; every clause left is
    still valid, so a clause learned from them is too).
    """

    def __init__(self, core: Core, closure: Closure,
                 polarity: tuple[set[int], set[int]] | None = None) -> None:
        self.core, self.cl = core, closure
        self.var: dict[int, int] = {}
        self.clauses: list[list[int]] = [[1]]
        nv = 1
        for n in closure.nodes:
            if core.op[n] in (ATOM, KNOW, RC, AND, OR):
                nv += 1
                self.var[n] = nv
        self.nvars = nv
        for n in closure.nodes:
            o = core.op[n]
            if o in (AND, OR):
                v = self.var[n]
                ks = [self.lit(k) for k in core.kids[n]]
                if o == AND:
                    self.clauses.extend([-v, k] for k in ks)
                    self.clauses.append([v] + [-k for k in ks])
                else:
                    self.clauses.extend([v, -k] for k in ks)
                    self.clauses.append([-v] + ks)
            elif o == KNOW:
                if polarity is None or n in polarity[0]:
                    self.clauses.append([-self.var[n], self.lit(core.kids[n][0])])   # T: K x -> x
            elif o == RC:
                v = self.var[n]
                us = [self.var[k] for _, k in closure.unfold[n]]
                if polarity is None or n in polarity[0]:
                    self.clauses.extend([-v, u] for u in us)                    # the fixed point
                if polarity is None or n in polarity[1]:
                    self.clauses.append([v] + [-u for u in us])

    def lit(self, n: int) -> int:
        """The literal of node *n* (1 is true, -1 false)."""
        o = self.core.op[n]
        if o == NOT:
            return -self.lit(self.core.kids[n][0])
        if o == TRUE:
            return 1
        if o == FALSE:
            return -1
        return self.var[n]


class TimedSolver:
    """An incremental MiniSat over *clauses* whose calls stop at the *deadline*.

    Use it as a context manager (the solver is freed on exit); ``solve``
    raises the deadline's :class:`~kop.errors.ProverTimeout` when
    interrupted, and counts its calls in ``stats["sat_calls"]``.
    """

    def __init__(self, clauses: list[list[int]], deadline: Deadline | None = None,
                 stats: dict[str, Any] | None = None) -> None:
        self.deadline = deadline or Deadline(None)
        self.stats = stats if stats is not None else {}
        self.solver = Solver(name=SOLVER, bootstrap_with=clauses)
        self._interrupted = False
        self._done = threading.Event()
        self._timer: threading.Thread | None = None
        if self.deadline.end is not None:
            def _watch() -> None:  # the limit is CPU time: look at it until it passes or the solver is freed
                while True:
                    rem = self.deadline.remaining()
                    if rem is not None and rem <= 0:
                        self._interrupted = True
                        self.solver.interrupt()
                        return
                    if self._done.wait(min(max(rem or 0.0, 0.005), 0.1)):
                        return
            self._timer = threading.Thread(target=_watch, daemon=True)
            self._timer.start()

    def __enter__(self) -> TimedSolver:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._timer is not None:
            self._done.set()
            self._timer.join()
        self.solver.delete()

    def solve(self, assumptions: list[int]) -> bool:
        """Satisfiable under *assumptions*?"""
        self.stats["sat_calls"] = self.stats.get("sat_calls", 0) + 1
        if self.deadline.end is None:
            return bool(self.solver.solve(assumptions=assumptions))
        res = self.solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        if res is None or self._interrupted:
            raise self.deadline.timeout()
        return bool(res)

    def set_phases(self, literals: list[int]) -> None:
        """The polarity the solver tries first for these variables (a preference, never a constraint)."""
        self.solver.set_phases(literals)

    def model(self, nvars: int) -> list[int]:
        """The last model's literals of variables 1..nvars."""
        return list(self.solver.get_model()[:nvars])

    def core(self) -> list[int]:
        """The failed assumptions of the last unsatisfiable call."""
        return list(self.solver.get_core() or [])

    def add_clause(self, clause: list[int]) -> None:
        self.solver.add_clause(clause)
