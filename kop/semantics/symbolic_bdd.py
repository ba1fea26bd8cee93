"""The BDD back end of the symbolic engine: a thin layer over the ``dd`` library.

:class:`BDDManager` wraps one ``dd`` BDD manager (CUDD through ``dd.cudd``
when it is importable, else the pure-Python ``dd.autoref``) and adds what the
symbolic model checker needs on top of ``dd``'s operations: variables declared
on first use, the knowledge quantifiers fused with the state law (one CUDD
``AndAbstract`` call each), exact model counts as Python integers (CUDD counts
in floating point, which overflows past 2^1023 states), evaluation at one
state, and the disjoint cubes of a BDD.

Structures over the same vocabulary share a manager (:func:`manager`), whose
variable order is the vocabulary's, so their BDDs compare with ``==`` and the
order, hence the BDD sizes, never depend on what was built before.  ``dd`` is
imported only when a manager is first asked for, which keeps ``import kop``
fast.

Example
-------
>>> m = manager(vocabulary=["p", "q"])
>>> p, q = m.var("p"), m.var("q")
>>> m.count(p | q, ["p", "q"])
3
>>> m.evaluate(p & ~q, {"p"})
True
>>> sorted(sorted(c.items()) for c in m.cubes(p | q))  # doctest: +SKIP
[[('p', False), ('q', True)], [('p', True)]]

Reference: R. E. Bryant, *Graph-based algorithms for boolean function
manipulation* (1986); F. Somenzi, *CUDD: CU Decision Diagram package*;
the ``dd`` package by I. Filippidis.
"""

from __future__ import annotations

import os
import weakref
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from typing import Any

from kop.semantics.errors import ModelError

__all__ = ["BDDManager", "manager", "available_backends", "BACKENDS"]

#: The back ends, fastest first.
BACKENDS = ("cudd", "autoref")
#: CUDD's memory estimate for a manager, in bytes: a soft bound, never a limit.
MEMORY_ESTIMATE = 1 << 28
#: Managers kept alive after their last structure is gone, for reuse.
KEEP_MANAGERS = 8
_LIVE: weakref.WeakValueDictionary[tuple[str, tuple[str, ...]], BDDManager] = weakref.WeakValueDictionary()
_RECENT: OrderedDict[tuple[str, tuple[str, ...]], BDDManager] = OrderedDict()
_BEST: list[str] = []


def available_backends() -> tuple[str, ...]:
    """The back ends that can be imported here, fastest first."""
    out = []
    for name in BACKENDS:
        try:
            _import(name)
        except ImportError:
            continue
        out.append(name)
    return tuple(out)


def _import(name: str) -> Any:
    from kop.semantics.ddimport import import_dd

    if name not in ("cudd", "autoref"):
        raise ModelError(f"unknown BDD back end {name!r}: use one of {', '.join(BACKENDS)}")
    return import_dd(name)


def manager(backend: str | None = None, vocabulary: Iterable[str] = ()) -> BDDManager:
    """The manager for *vocabulary* on *backend*.

    Parameters
    ----------
    backend : {"cudd", "autoref"}, optional
        None: the environment variable ``KOP_BDD`` if set, else the fastest available.
    vocabulary : iterable of str
        Its variables, declared in this order (the BDD variable order).

    All structures over the same vocabulary (in the same order) share one
    manager, so their BDDs compare with ``==``; a manager lives as long as a
    structure uses it, and the last few are kept for reuse.
    """
    backend = backend or os.environ.get("KOP_BDD") or _best()
    key = (backend, tuple(vocabulary))
    m = _LIVE.get(key)
    if m is None:
        m = _LIVE[key] = BDDManager(backend, key[1])
    _RECENT[key] = m
    _RECENT.move_to_end(key)
    while len(_RECENT) > KEEP_MANAGERS:
        _RECENT.popitem(last=False)
    return m


def _best() -> str:
    if not _BEST:
        _BEST.extend(available_backends()[:1])
        if not _BEST:  # pragma: no cover - dd is a dependency
            raise ModelError("the symbolic engine needs the 'dd' package: pip install dd")
    return _BEST[0]


class BDDManager:
    """One ``dd`` BDD manager and the operations of the symbolic checker.

    Parameters
    ----------
    backend : {"cudd", "autoref"}
        ``dd.cudd`` (C, with dynamic variable reordering) or ``dd.autoref``
        (pure Python).

    Functions are ``dd`` BDD nodes; ``&``, ``|``, ``~``, ``==`` work on them
    directly.
    """

    def __init__(self, backend: str, vocabulary: Iterable[str] = ()):
        try:
            self._mod = _import(backend)
        except ImportError as e:
            raise ModelError(f"the BDD back end {backend!r} is not available here: {e}") from None
        self.backend = backend
        self._fused = backend == "cudd"
        if self._fused:
            # a small first cache (CUDD grows it as it pays), and the given variable order kept;
            # CUDD's start-up work grows with the memory estimate (~8 ms at dd's default 1 GiB),
            # which only sets when the node table starts preferring garbage collection to growth
            self.bdd = self._mod.BDD(memory_estimate=MEMORY_ESTIMATE, initial_cache_size=1 << 12)
            self.bdd.configure(reordering=False)
        else:
            self.bdd = self._mod.BDD()
        self.true = self.bdd.true
        self.false = self.bdd.false
        self._declared: set[str] = set()
        self._cubes: dict[frozenset[str], Any] = {}
        self._points: dict[tuple[frozenset[str], int], Any] = {}
        self._seen_points: set[tuple[frozenset[str], int]] = set()
        self.declare(vocabulary)

    def __repr__(self) -> str:
        return f"BDDManager({self.backend!r}, vars={len(self._declared)})"

    # -- variables ------------------------------------------------------------
    def declare(self, names: Iterable[str]) -> None:
        """Declare the variables not declared yet, in order (new ones go below the old)."""
        new = list(dict.fromkeys(n for n in names if n not in self._declared))
        if new:
            if self._fused and len(new) > 1:
                # CUDD grows its tables once for the last index, not once per variable
                base = len(self._declared)
                self.bdd.add_var(new[-1], index=base + len(new) - 1)
                for j, n in enumerate(new[:-1]):
                    self.bdd.add_var(n, index=base + j)
            else:
                self.bdd.declare(*new)
            self._declared.update(new)

    def fresh(self, name: str, near: Any) -> Any:
        """Variable *name*, declared if new just below the deepest variable *near*
        depends on (CUDD), or below all variables (``dd.autoref``)."""
        if name not in self._declared:
            sup = self.support(near) if self._fused else ()
            if sup:
                level = max(self.bdd.level_of_var(v) for v in sup)
                self.bdd.insert_var(name, level + 1)
                self._declared.add(name)
            else:
                self.declare([name])
        return self.bdd.var(name)

    def deepest(self, u: Any) -> str | None:
        """The variable of *u*'s support that is lowest in the order (None for a constant)."""
        sup = self.support(u)
        if not sup:
            return None
        return max(sup, key=self.bdd.level_of_var)

    def var(self, name: str) -> Any:
        if name not in self._declared:
            self.declare([name])
        return self.bdd.var(name)

    # -- operations -------------------------------------------------------------
    def ite(self, c: Any, t: Any, e: Any) -> Any:
        return self.bdd.ite(c, t, e)

    def equiv(self, u: Any, v: Any) -> Any:
        """``u ↔ v`` (CUDD's XNOR; ``dd.cudd``'s ``Function.equiv`` goes through a slower ITE)."""
        if self._fused:
            return self.bdd.apply("equiv", u, v)
        return u.equiv(v)

    def xor(self, u: Any, v: Any) -> Any:
        return self.bdd.apply("xor", u, v)

    def forall(self, names: Iterable[str], u: Any) -> Any:
        if self._fused:
            return self.bdd.apply("forall", self.cube(names), u)
        return self.bdd.forall(names, u)

    def exist(self, names: Iterable[str], u: Any) -> Any:
        if self._fused:
            return self.bdd.apply("exists", self.cube(names), u)
        return self.bdd.exist(names, u)

    def cube(self, names: Iterable[str]) -> Any:
        """The conjunction of the variables *names*, kept per set of names (CUDD only).

        ``dd.cudd`` builds a cube by a Python loop over every declared
        variable, so with a thousand variables one costs more than most
        quantifications; agents' hidden atoms are asked for again and again.
        """
        key = names if isinstance(names, frozenset) else frozenset(names)
        c = self._cubes.get(key)
        if c is None:
            if len(self._cubes) > 1024:
                self._cubes.clear()
            self.declare(sorted(key - self._declared))
            c = self._cubes[key] = self.bdd.var(next(iter(key))) if len(key) == 1 else self.bdd.cube(key)
        return c

    def know(self, law: Any, u: Any, hidden: Iterable[str]) -> Any:
        """``∀ hidden (law → u)``."""
        if self._fused:
            return self.bdd.apply("forall", self.cube(hidden), ~law | u)
        return self.bdd.forall(hidden, ~law | u)

    def possible(self, law: Any, u: Any, hidden: Iterable[str]) -> Any:
        """``∃ hidden (law ∧ u)``."""
        if self._fused:
            return self.bdd.apply("exists", self.cube(hidden), law & u)
        return self.bdd.exist(hidden, law & u)

    def cofactor(self, u: Any, name: str, value: bool) -> Any:
        """*u* with variable *name* set to *value*."""
        return self.bdd.let({name: self.true if value else self.false}, u)

    def support(self, u: Any) -> set[str]:
        return set(self.bdd.support(u))

    def size(self, u: Any) -> int:
        """The number of nodes of *u*."""
        return len(u)

    # -- reading a BDD ----------------------------------------------------------
    def evaluate(self, u: Any, true: set[str] | frozenset[str]) -> bool:
        """*u* at the assignment making exactly the variables in *true* true.

        An assignment asked about again (a structure's actual state) is kept
        as the BDD of that one point, and *u* is evaluated by one conjunction
        with it (CUDD); the first time, by walking *u* from its root.
        """
        if self._fused:
            key = (true if isinstance(true, frozenset) else frozenset(true), len(self._declared))
            point = self._points.get(key)
            if point is None and key in self._seen_points:
                if len(self._points) > 64:
                    self._points.clear()
                point = self._points[key] = self.bdd.cube({v: v in key[0] for v in self._declared})
            if point is not None:
                return (u & point) != self.false
            if len(self._seen_points) > 1024:
                self._seen_points.clear()
            self._seen_points.add(key)
        t, f = self.true, self.false
        neg = False
        while True:
            if u == t:
                return not neg
            if u == f:
                return neg
            if u.negated:
                neg = not neg
                u = ~u
            u = u.high if u.var in true else u.low

    def count(self, u: Any, names: Iterable[str]) -> int:
        """The exact number of assignments to *names* that satisfy *u*.

        Raises
        ------
        ModelError
            If *u* depends on a variable outside *names*.
        """
        names = set(names)
        outside = self.support(u) - names
        if outside:
            raise ModelError(f"cannot count over {len(names)} variables: the BDD also depends on "
                             f"{', '.join(sorted(outside))}")
        total = len(self._declared)
        full = 1 << total
        t, f = self.true, self.false
        memo: dict[int, int] = {}
        # iterative post-order over the regular nodes
        stack = [u]
        while stack:
            v = stack[-1]
            if v == t or v == f:
                stack.pop()
                continue
            if v.negated:
                v = ~v
            key = int(v)
            if key in memo:
                stack.pop()
                continue
            lo, hi = v.low, v.high
            pending = [c for c in (lo, hi) if c != t and c != f and int(~c if c.negated else c) not in memo]
            if pending:
                stack.extend(pending)
                continue
            memo[key] = (self._full_count(lo, memo, full) + self._full_count(hi, memo, full)) // 2
            stack.pop()
        return self._full_count(u, memo, full) >> (total - len(names))

    def _full_count(self, v: Any, memo: dict[int, int], full: int) -> int:
        if v == self.true:
            return full
        if v == self.false:
            return 0
        if v.negated:
            return full - memo[int(~v)]
        return memo[int(v)]

    def cubes(self, u: Any) -> Iterator[dict[str, bool]]:
        """The paths of *u* to true, as partial assignments; they are disjoint and cover *u*."""
        t, f = self.true, self.false
        stack: list[tuple[Any, bool, dict[str, bool]]] = [(u, False, {})]
        while stack:
            v, neg, path = stack.pop()
            if v == t or v == f:
                if (v == t) != neg:
                    yield path
                continue
            if v.negated:
                neg = not neg
                v = ~v
            name = v.var
            stack.append((v.high, neg, {**path, name: True}))
            stack.append((v.low, neg, {**path, name: False}))
