"""The prover's BDDs on CUDD (``dd.cudd``), with the interface of :class:`kop.reasoning.bdd.BDD`.

Type elimination (:mod:`kop.reasoning.bddengine`) runs on whichever manager
:func:`new_manager` gives it: this one when ``dd.cudd`` can be imported (the
``dd`` wheels for Linux on PyPI include it), else the pure-Python package of
:mod:`kop.reasoning.bdd`.  Variables are small integers, declared up front in
order (CUDD then reorders them dynamically by sifting).  A CUDD operation
cannot be interrupted, so the engine checks its time limit between
operations, and CUDD itself is capped at :data:`MAX_MEMORY` bytes: an
operation that would need more raises :class:`~kop.errors.LimitError`
instead of swapping the machine to a halt.

    >>> b = new_manager(2, backend="cudd")
    >>> x, y = b.var(0), b.var(1)
    >>> f = b.OR(b.AND(x, y), b.NOT(x))
    >>> b.evaluate(f, {0: True, 1: False}), b.evaluate(f, {0: False, 1: False})
    (False, True)
    >>> b.exists_and(x, f, b.quantifier([0])) == b.var(1)
    True
    >>> b.pick(f, prefer={0: True, 1: True})
    {0: True, 1: True}

Reference: F. Somenzi, *CUDD: CU Decision Diagram package*, release 3.0;
the ``dd`` package by I. Filippidis; R. Rudell, *Dynamic variable ordering for
ordered binary decision diagrams*, ICCAD 1993 (sifting).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from kop.reasoning.bdd import BDD
from kop.errors import LimitError

__all__ = ["CuddBDD", "new_manager", "cudd_available", "BACKENDS", "MAX_MEMORY"]

#: The BDD packages of the prover, fastest first.
BACKENDS = ("cudd", "python")
#: The most memory CUDD may take for one question (bytes).
MAX_MEMORY = 1 << 30


def cudd_available() -> bool:
    """True when ``dd.cudd`` can be imported here."""
    from kop.semantics.ddimport import import_dd

    try:
        import_dd("cudd")
    except ImportError:
        return False
    return True


def new_manager(nvars: int, backend: str | None = None,
                check: Callable[[], None] | None = None) -> CuddBDD | BDD:
    """A BDD manager over variables ``0 .. nvars-1``.

    Parameters
    ----------
    nvars : int
    backend : {"cudd", "python"}, optional
        None: the environment variable ``KOP_PROVER_BDD`` if set, else CUDD when
        it is available, else the pure-Python package.
    check : callable, optional
        Called between operations; raises to stop (time limits).
    """
    backend = backend or os.environ.get("KOP_PROVER_BDD") or ("cudd" if cudd_available() else "python")
    if backend == "cudd":
        return CuddBDD(nvars, check)
    if backend == "python":
        return BDD(check, nvars)
    from kop.errors import KopError

    raise KopError(f"unknown BDD package {backend!r}: use one of {', '.join(BACKENDS)}")


def _out_of_memory() -> LimitError:
    return LimitError(f"the prover's BDDs need more than {MAX_MEMORY >> 20} MB (kop's limit for CUDD)")


class CuddBDD:
    """A ``dd.cudd`` manager with the operations type elimination uses.

    Functions are ``dd.cudd.Function`` objects (``==`` is equivalence);
    variables are the integers ``0 .. nvars-1``.
    """

    name = "cudd"

    def __init__(self, nvars: int, check: Callable[[], None] | None = None) -> None:
        from kop.semantics.ddimport import import_dd

        cudd = import_dd("cudd")
        self._cudd = cudd
        self.bdd = cudd.BDD(memory_estimate=MAX_MEMORY)
        self.bdd.configure(reordering=True, max_memory=MAX_MEMORY)
        self.names = [f"v{i}" for i in range(nvars)]
        self._index = {n: i for i, n in enumerate(self.names)}
        if self.names:
            self.bdd.declare(*self.names)
        self.true: Any = self.bdd.true
        self.false: Any = self.bdd.false
        self._check = check

    def __len__(self) -> int:
        return self.size()

    def size(self) -> int:
        """The number of live nodes in the manager."""
        return len(self.bdd)

    def reorder(self, on: bool) -> None:
        """Turn CUDD's dynamic reordering (sifting) on or off."""
        self.bdd.configure(reordering=on)

    def _tick(self) -> None:
        if self._check is not None:
            self._check()

    def var(self, v: int) -> Any:
        """The function of variable *v*."""
        return self.bdd.var(self.names[v])

    def NOT(self, u: Any) -> Any:
        return ~u

    def AND(self, u: Any, w: Any) -> Any:
        try:
            return u & w
        except ValueError:      # CUDD returned NULL: the memory cap
            raise _out_of_memory() from None

    def OR(self, u: Any, w: Any) -> Any:
        try:
            return u | w
        except ValueError:
            raise _out_of_memory() from None

    def IMPLIES(self, u: Any, w: Any) -> Any:
        return self.OR(~u, w)

    def IFF(self, u: Any, w: Any) -> Any:
        try:
            return self.bdd.apply("equiv", u, w)
        except ValueError:
            raise _out_of_memory() from None

    def quantifier(self, qvars: Iterable[int]) -> list[str]:
        """The form :meth:`exists_and` takes its variables in."""
        return [self.names[v] for v in qvars]

    def exists_and(self, u: Any, w: Any, qvars: list[str]) -> Any:
        """``exists qvars . (u & w)`` (one CUDD ``AndAbstract``)."""
        self._tick()
        try:
            return self._cudd.and_exists(u, w, qvars)
        except ValueError:
            raise _out_of_memory() from None

    def conj(self, us: Iterable[Any]) -> Any:
        """The conjunction of *us*, combined pairwise."""
        layer = list(us)
        if not layer:
            return self.true
        while len(layer) > 1:
            self._tick()
            nxt = [self.AND(layer[i], layer[i + 1]) for i in range(0, len(layer) - 1, 2)]
            if len(layer) % 2:
                nxt.append(layer[-1])
            if any(x == self.false for x in nxt):
                return self.false
            layer = nxt
        return layer[0]

    def disj(self, us: Iterable[Any]) -> Any:
        r = self.false
        for u in us:
            self._tick()
            r = self.OR(r, u)
            if r == self.true:
                break
        return r

    def cube(self, assignment: Mapping[int, bool]) -> Any:
        """The conjunction of the literals of *assignment*."""
        return self.bdd.cube({self.names[v]: bool(b) for v, b in assignment.items()})

    def _step(self, u: Any) -> tuple[int, Any, Any]:
        """The variable and the two cofactors of a non-constant *u*."""
        if u.negated:
            r = ~u
            return self._index[r.var], ~r.low, ~r.high
        return self._index[u.var], u.low, u.high

    def evaluate(self, u: Any, assignment: Mapping[int, bool]) -> bool:
        """The value of *u* under *assignment* (missing variables are false)."""
        t, f = self.true, self.false
        while u != t and u != f:
            v, lo, hi = self._step(u)
            u = hi if assignment.get(v, False) else lo
        return bool(u == t)

    def pick(self, u: Any, prefer: Mapping[int, bool] | None = None) -> dict[int, bool] | None:
        """One satisfying partial assignment, each variable on its *prefer* value (default
        false) whenever that branch is satisfiable; None when *u* is false."""
        if u == self.false:
            return None
        prefer = prefer or {}
        out: dict[int, bool] = {}
        t, f = self.true, self.false
        while u != t:
            v, lo, hi = self._step(u)
            want = prefer.get(v, False)
            nxt = hi if want else lo
            if nxt == f:
                want = not want
                nxt = hi if want else lo
            out[v] = want
            u = nxt
        return out
