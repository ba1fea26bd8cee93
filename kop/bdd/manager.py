"""Binary decision diagrams for kop: one facade over CUDD and kop's own ROBDD package.

Both users of BDDs in kop go through this module: the symbolic model checker
(:mod:`kop.semantics.symbolic_checker`, knowledge structures) and the
prover's type elimination (:mod:`kop.reasoning.bddengine`).  A
:class:`Manager` holds the BDDs of one computation; its functions support
``&``, ``|``, ``~`` and ``==`` directly, and the manager adds what kop needs
on top: variables declared on first use (names or integers) and inserted
next to others, quantifiers fused with a conjunction, exact model counts as
Python integers, evaluation at one assignment, satisfying assignments and
the disjoint cubes of a BDD.

There are two back ends, chosen by one switch (see ``docs/models.md``):

``"cudd"``
    CUDD through ``dd.cudd`` (C, complemented edges), the default when it can
    be imported.
``"python"``
    kop's own pure-Python ROBDD package (:mod:`kop.bdd.robdd`), the
    fallback; ``"autoref"``, the name of the former fallback, means it too.

:func:`backend_name` picks one: the ``backend`` argument if given, else the
environment variable ``KOP_BDD``, else ``"cudd"`` when ``dd.cudd`` can be
imported, else ``"python"``.  ``dd`` is imported only when a CUDD manager is
first built, which keeps ``import kop`` fast.

Structures over the same vocabulary share a manager (:func:`manager`), whose
variable order is the vocabulary's, so their BDDs compare with ``==`` and
the BDD sizes never depend on what was built before; the prover takes a
fresh one (:func:`new_manager`).

Example
-------
>>> for backend in available_backends():
...     m = manager(backend, vocabulary=["p", "q"])
...     p, q = m.var("p"), m.var("q")
...     print(m.backend, m.count(p | q, ["p", "q"]), m.evaluate(p & ~q, {"p"}),
...           sorted(sorted(c.items()) for c in m.cubes(p | q)))
cudd 3 True [[('p', False), ('q', True)], [('p', True)]]
python 3 True [[('p', False), ('q', True)], [('p', True)]]

References
----------
R. E. Bryant, *Graph-based algorithms for boolean function manipulation*,
IEEE Trans. Computers C-35 (1986); F. Somenzi, *CUDD: CU Decision Diagram
package*, release 3.0; the ``dd`` package by I. Filippidis; R. Rudell,
*Dynamic variable ordering for ordered binary decision diagrams*, ICCAD 1993.
"""

from __future__ import annotations

import os
import threading
import weakref
from abc import ABC, abstractmethod
from collections import OrderedDict
from functools import partial
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Mapping
from typing import Any, Generic, Protocol, TypeVar, cast

from kop.errors import LimitError
from kop.errors import ModelError
from kop.bdd.robdd import BDD as _ROBDD
from kop.bdd.ddimport import import_dd

__all__ = ["Function", "Manager", "manager", "new_manager", "backend_name", "available_backends",
           "cudd_available", "BACKENDS", "ENV", "MAX_MEMORY"]

#: The back ends, fastest first.
BACKENDS = ("cudd", "python")
#: The environment variable that chooses the back end when no argument does.
ENV = "KOP_BDD"
#: Old names still accepted.
_ALIASES = {"autoref": "python"}
#: CUDD's memory estimate for a shared manager, in bytes: a soft bound, never a limit
#: (below it CUDD grows its node table rather than collect garbage).  It grows with the
#: vocabulary, :data:`ESTIMATE_PER_VARIABLE` bytes a variable, between these two bounds,
#: because CUDD's start-up time grows with it: ~2 ms at 256 MiB, ~0.2 ms at 4 MiB.
MEMORY_ESTIMATE = 1 << 28
MIN_MEMORY_ESTIMATE = 1 << 22
ESTIMATE_PER_VARIABLE = 1 << 16
#: The most memory CUDD may take in a manager of :func:`new_manager` (bytes).
MAX_MEMORY = 1 << 30
#: Managers kept alive after their last structure is gone, for reuse.
KEEP_MANAGERS = 8

#: A variable: a name (knowledge structures), or a small integer (the prover's).
V = TypeVar("V", bound=Hashable)


class Function(Protocol):
    """A BDD node of a :class:`Manager`: ``&``, ``|``, ``~``, ``==`` and ``len`` (its node count)."""

    def __and__(self, other: Function, /) -> Function: ...

    def __or__(self, other: Function, /) -> Function: ...

    def __invert__(self) -> Function: ...

    def __eq__(self, other: object, /) -> bool: ...

    def __hash__(self) -> int: ...

    def __len__(self) -> int: ...


# (back end, vocabulary, thread) -> its shared manager; see manager()
_LIVE: weakref.WeakValueDictionary[tuple[str, tuple[str, ...], int], Manager[str]] = weakref.WeakValueDictionary()
_RECENT: OrderedDict[tuple[str, tuple[str, ...], int], Manager[str]] = OrderedDict()
_SHARING = threading.Lock()
_CUDD: list[bool] = []


def cudd_available() -> bool:
    """True when ``dd.cudd`` can be imported here.

    >>> isinstance(cudd_available(), bool)
    True
    """
    if not _CUDD:
        try:
            import_dd("cudd")
        except ImportError:
            _CUDD.append(False)
        else:
            _CUDD.append(True)
    return _CUDD[0]


def available_backends() -> tuple[str, ...]:
    """The back ends that work here, fastest first.

    >>> available_backends()[-1]
    'python'
    """
    return BACKENDS if cudd_available() else ("python",)


def backend_name(backend: str | None = None) -> str:
    """The back end to use: *backend* if given, else ``$KOP_BDD`` if set, else the fastest available.

    Raises
    ------
    ModelError
        An unknown name, or ``"cudd"`` where ``dd.cudd`` cannot be imported.

    Examples
    --------
    >>> backend_name("python"), backend_name("autoref")
    ('python', 'python')
    """
    name = backend or os.environ.get(ENV) or available_backends()[0]
    name = _ALIASES.get(name, name)
    if name not in BACKENDS:
        where = "" if backend else f" (from the environment variable {ENV})"
        raise ModelError(f"unknown BDD back end {name!r}{where}: use one of {', '.join(BACKENDS)}")
    if name == "cudd" and not cudd_available():
        raise ModelError("the BDD back end 'cudd' is not available here: dd.cudd cannot be imported "
                         "(pip install dd; or use 'python')")
    return name


def manager(backend: str | None = None, vocabulary: Iterable[str] = ()) -> Manager[str]:
    """The shared manager for *vocabulary* on *backend*.

    Parameters
    ----------
    backend : {"cudd", "python"}, optional
        See :func:`backend_name`.
    vocabulary : iterable of str
        Its variables, declared in this order (the BDD variable order).

    Returns
    -------
    Manager
        All structures over the same vocabulary (in the same order) built in
        one thread share one manager, so their BDDs compare with ``==``; a
        manager lives as long as a structure uses it, and the last few are kept
        for reuse.  Each thread gets its own: a BDD manager may not be used by
        two threads at once.

    Examples
    --------
    >>> manager("python", ["p"]) is manager("python", ["p"])
    True
    """
    name = backend_name(backend)
    key = (name, tuple(vocabulary), threading.get_ident())
    with _SHARING:
        m = _LIVE.get(key)
        if m is None:
            m = _LIVE[key] = _new(name, key[1], None, shared=True)
        _RECENT[key] = m
        _RECENT.move_to_end(key)
        while len(_RECENT) > KEEP_MANAGERS:
            _RECENT.popitem(last=False)
    return m


def new_manager(nvars: int, backend: str | None = None, check: Callable[[], None] | None = None) -> Manager[int]:
    """A fresh manager over the variables ``0 .. nvars-1`` (the prover's).

    Parameters
    ----------
    nvars : int
    backend : {"cudd", "python"}, optional
        See :func:`backend_name`.
    check : callable, optional
        Called between operations; raises to stop (time limits).  CUDD then
        reorders its variables dynamically (sifting) and may take at most
        :data:`MAX_MEMORY` bytes; kop's package at most
        :data:`kop.bdd.robdd.MAX_NODES` nodes.

    Examples
    --------
    >>> b = new_manager(2, "python")
    >>> x, y = b.var(0), b.var(1)
    >>> f = b.OR(b.AND(x, y), b.NOT(x))
    >>> b.evaluate(f, {0: True, 1: False}), b.evaluate(f, {0: False, 1: False})
    (False, True)
    >>> b.exists_and(x, f, b.quantifier([0])) == b.var(1), b.pick(f, prefer={0: True, 1: True})
    (True, {0: True, 1: True})
    """
    return _new(backend_name(backend), range(nvars), check, shared=False)


def _new(name: str, variables: Iterable[V], check: Callable[[], None] | None, shared: bool) -> Manager[V]:
    if name == "cudd":
        return _Cudd(variables, check, shared)
    return _Python(variables, check)


class Manager(ABC, Generic[V]):
    """The BDDs of one computation, on one back end.

    Variables are names or integers (one kind per manager), declared in
    order: a new one goes below all others unless :meth:`fresh` places it.
    """

    #: "cudd" or "python"
    backend: str
    true: Function
    false: Function

    def __init__(self) -> None:
        self._declared: dict[V, None] = {}      # in declaration order
        self._quants: dict[frozenset[V], Any] = {}

    def __repr__(self) -> str:
        return f"<BDD manager {self.backend!r}, {len(self._declared)} variables>"

    @property
    def name(self) -> str:
        """The back end (the prover's statistics call it so)."""
        return self.backend

    # -- variables ------------------------------------------------------------------
    def declare(self, names: Iterable[V]) -> None:
        """Declare the variables not declared yet, in order (new ones go below the old)."""
        new = [n for n in dict.fromkeys(names) if n not in self._declared]
        if new:
            self._add(new)
            self._declared.update(dict.fromkeys(new))

    @abstractmethod
    def _add(self, new: list[V]) -> None: ...

    def var(self, name: V) -> Function:
        """The function of variable *name* (declared if new)."""
        if name not in self._declared:
            self.declare([name])
        return self._var(name)

    @abstractmethod
    def _var(self, name: V) -> Function: ...

    @abstractmethod
    def level(self, u: Function) -> int:
        """The position of *u*'s root variable in the order (constants: past every variable)."""

    @abstractmethod
    def _insert(self, name: V, level: int) -> None: ...

    def fresh(self, name: V, near: Function) -> Function:
        """Variable *name*, declared if new just below the deepest variable *near* depends on."""
        if name not in self._declared:
            sup = self.support(near)
            if sup:
                self._insert(name, max(self.level(self._var(v)) for v in sup) + 1)
                self._declared[name] = None
                self._quants.clear()
            else:
                self.declare([name])
        return self._var(name)

    def deepest(self, u: Function) -> V | None:
        """The variable of *u*'s support that is lowest in the order (None for a constant)."""
        sup = self.support(u)
        if not sup:
            return None
        return max(sup, key=lambda v: self.level(self._var(v)))

    # -- operations -------------------------------------------------------------------
    def NOT(self, u: Function) -> Function:
        return ~u

    def AND(self, u: Function, w: Function) -> Function:
        return u & w

    def OR(self, u: Function, w: Function) -> Function:
        return u | w

    def IMPLIES(self, u: Function, w: Function) -> Function:
        return self.OR(self.NOT(u), w)

    def IFF(self, u: Function, w: Function) -> Function:
        return self.equiv(u, w)

    @abstractmethod
    def equiv(self, u: Function, w: Function) -> Function:
        """``u ↔ w``."""

    @abstractmethod
    def xor(self, u: Function, w: Function) -> Function:
        """``u ⊕ w``."""

    @abstractmethod
    def ite(self, c: Function, t: Function, e: Function) -> Function:
        """``(c ∧ t) ∨ (¬c ∧ e)``."""

    def conj(self, us: Iterable[Function]) -> Function:
        """The conjunction of *us*, combined pairwise (a balanced tree keeps intermediate BDDs small)."""
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

    def disj(self, us: Iterable[Function]) -> Function:
        """The disjunction of *us*."""
        r = self.false
        for u in us:
            self._tick()
            r = self.OR(r, u)
            if r == self.true:
                break
        return r

    def _tick(self) -> None:
        """Check the time limit (between operations)."""

    def quantifier(self, names: Iterable[V]) -> Any:
        """The form :meth:`exists_and` takes its variables in (kept per set of names)."""
        key = names if isinstance(names, frozenset) else frozenset(names)
        q = self._quants.get(key)
        if q is None:
            if len(self._quants) > 1024:
                self._quants.clear()
            self.declare(sorted(key - self._declared.keys(), key=str))
            q = self._quants[key] = self._quantifier(key)
        return q

    @abstractmethod
    def _quantifier(self, names: frozenset[V]) -> Any: ...

    @abstractmethod
    def exists_and(self, u: Function, w: Function, q: Any) -> Function:
        """``∃ q (u ∧ w)``, *q* from :meth:`quantifier`."""

    @abstractmethod
    def exist(self, names: Iterable[V], u: Function) -> Function:
        """``∃ names u``."""

    def forall(self, names: Iterable[V], u: Function) -> Function:
        """``∀ names u``."""
        return ~self.exist(names, ~u)

    def quantify_by(self, names: Iterable[V], forall: bool = False) -> Callable[[Function], Function]:
        """The function ``u ↦ ∃ names u`` (``∀ names u`` if *forall*), for quantifying
        the same variables again and again.

        >>> b = manager("python", ["p", "q"])
        >>> some_p, every_p = b.quantify_by(["p"]), b.quantify_by(["p"], forall=True)
        >>> pq = b.var("p") & b.var("q")
        >>> some_p(pq) == b.var("q"), every_p(pq) == b.false, every_p(b.var("p") | b.var("q")) == b.var("q")
        (True, True, True)
        """
        group = frozenset(names)
        if forall:
            return lambda u: self.forall(group, u)
        return lambda u: self.exist(group, u)

    def know(self, law: Function, u: Function, hidden: Iterable[V]) -> Function:
        """``∀ hidden (law → u)``."""
        return ~self.exists_and(law, ~u, self.quantifier(hidden))

    def possible(self, law: Function, u: Function, hidden: Iterable[V]) -> Function:
        """``∃ hidden (law ∧ u)``."""
        return self.exists_and(law, u, self.quantifier(hidden))

    @abstractmethod
    def cofactor(self, u: Function, name: V, value: bool) -> Function:
        """*u* with variable *name* set to *value*."""

    @abstractmethod
    def cube(self, assignment: Mapping[V, bool]) -> Function:
        """The conjunction of the literals of *assignment*."""

    def reorder(self, on: bool) -> None:
        """Turn dynamic variable reordering on or off (CUDD; kop's package keeps its order)."""

    # -- reading a BDD ------------------------------------------------------------------
    @abstractmethod
    def support(self, u: Function) -> set[V]:
        """The variables *u* depends on."""

    def size(self, u: Function | None = None) -> int:
        """The number of nodes of *u*, or of the whole manager when *u* is None."""
        return len(u) if u is not None else self._nodes()

    @abstractmethod
    def _nodes(self) -> int: ...

    def __len__(self) -> int:
        return self._nodes()

    @abstractmethod
    def evaluate(self, u: Function, true: Mapping[V, bool] | Collection[V]) -> bool:
        """*u* at one assignment: a mapping (missing variables are false) or the set of true variables."""

    @abstractmethod
    def pick(self, u: Function, prefer: Mapping[V, bool] | None = None) -> dict[V, bool] | None:
        """One satisfying partial assignment (variables not mentioned are free), or None.

        Along the way each variable takes its value in *prefer* (default
        false) whenever that branch is satisfiable.
        """

    @abstractmethod
    def count(self, u: Function, names: Iterable[V]) -> int:
        """The exact number of assignments to *names* that satisfy *u*.

        Raises
        ------
        ModelError
            If *u* depends on a variable outside *names*.
        """

    @abstractmethod
    def cubes(self, u: Function) -> Iterator[dict[V, bool]]:
        """The paths of *u* to true, as partial assignments; they are disjoint and cover *u*."""

    def _outside(self, u: Function, names: set[V]) -> None:
        outside = self.support(u) - names
        if outside:
            raise ModelError(f"cannot count over {len(names)} variables: the BDD also depends on "
                             f"{', '.join(sorted(map(str, outside)))}")


def _as_test(true: Mapping[V, bool] | Collection[V]) -> Callable[[V], bool]:
    if isinstance(true, Mapping):
        get = true.get
        return lambda v: bool(get(v, False))
    return true.__contains__


# -- kop's own package -----------------------------------------------------------------------

class _Node:
    """A node of kop's ROBDD package with the operators of a :class:`Function`."""

    __slots__ = ("b", "n")

    def __init__(self, b: _ROBDD, n: int) -> None:
        self.b, self.n = b, n

    def __and__(self, other: Function) -> Function:
        return _Node(self.b, self.b.AND(self.n, cast(_Node, other).n))

    def __or__(self, other: Function) -> Function:
        return _Node(self.b, self.b.OR(self.n, cast(_Node, other).n))

    def __invert__(self) -> Function:
        return _Node(self.b, self.b.NOT(self.n))

    def __eq__(self, other: object) -> bool:
        return type(other) is _Node and other.n == self.n and other.b is self.b

    def __hash__(self) -> int:
        return self.n

    def __len__(self) -> int:
        return self.b.dag_size(self.n)

    def __repr__(self) -> str:
        return f"<BDD node {self.n}>"


def _n(u: Function) -> int:
    return cast(_Node, u).n


class _Python(Manager[V]):
    """A manager on kop's own ROBDD package (:mod:`kop.bdd.robdd`)."""

    backend = "python"

    def __init__(self, variables: Iterable[V], check: Callable[[], None] | None) -> None:
        super().__init__()
        self.b = _ROBDD(check)
        self._level: dict[V, int] = {}
        self._at: list[V] = []            # the variable at each level
        self.true = _Node(self.b, 1)
        self.false = _Node(self.b, 0)
        self.declare(variables)

    def _add(self, new: list[V]) -> None:
        for v in new:
            self._level[v] = len(self._at)
            self._at.append(v)
        self.b.reserve_depth(len(self._at))

    def _insert(self, name: V, level: int) -> None:
        self.b.insert_level(level)
        self._at.insert(level, name)
        self._level = {v: i for i, v in enumerate(self._at)}

    def _var(self, name: V) -> Function:
        return _Node(self.b, self.b.var(self._level[name]))

    def level(self, u: Function) -> int:
        return min(self.b.level(_n(u)), len(self._at))

    def NOT(self, u: Function) -> Function:
        return _Node(self.b, self.b.NOT(_n(u)))

    def AND(self, u: Function, w: Function) -> Function:
        return _Node(self.b, self.b.AND(_n(u), _n(w)))

    def OR(self, u: Function, w: Function) -> Function:
        return _Node(self.b, self.b.OR(_n(u), _n(w)))

    def equiv(self, u: Function, w: Function) -> Function:
        return _Node(self.b, self.b.IFF(_n(u), _n(w)))

    def xor(self, u: Function, w: Function) -> Function:
        return _Node(self.b, self.b.NOT(self.b.IFF(_n(u), _n(w))))

    def ite(self, c: Function, t: Function, e: Function) -> Function:
        b, cn = self.b, _n(c)
        return _Node(b, b.OR(b.AND(cn, _n(t)), b.AND(b.NOT(cn), _n(e))))

    def conj(self, us: Iterable[Function]) -> Function:
        return _Node(self.b, self.b.conj(_n(u) for u in us))

    def disj(self, us: Iterable[Function]) -> Function:
        return _Node(self.b, self.b.disj(_n(u) for u in us))

    def _quantifier(self, names: frozenset[V]) -> frozenset[int]:
        return frozenset(self._level[v] for v in names)

    def exists_and(self, u: Function, w: Function, q: Any) -> Function:
        return _Node(self.b, self.b.exists_and(_n(u), _n(w), q))

    def exist(self, names: Iterable[V], u: Function) -> Function:
        return _Node(self.b, self.b.exists_and(_n(u), 1, self.quantifier(names)))

    def cofactor(self, u: Function, name: V, value: bool) -> Function:
        return _Node(self.b, self.b.restrict(_n(u), self._level[name], value))

    def cube(self, assignment: Mapping[V, bool]) -> Function:
        self.declare(v for v in assignment if v not in self._level)
        return _Node(self.b, self.b.cube({self._level[v]: bool(x) for v, x in assignment.items()}))

    def support(self, u: Function) -> set[V]:
        return {self._at[i] for i in self.b.support(_n(u))}

    def _nodes(self) -> int:
        return self.b.size()

    def evaluate(self, u: Function, true: Mapping[V, bool] | Collection[V]) -> bool:
        test, at = _as_test(true), self._at
        b, n = self.b, _n(u)
        lo, hi, lv = b._lo, b._hi, b._v
        while n > 1:
            n = hi[n] if test(at[lv[n]]) else lo[n]
        return n == 1

    def pick(self, u: Function, prefer: Mapping[V, bool] | None = None) -> dict[V, bool] | None:
        pref = {self._level[v]: x for v, x in (prefer or {}).items() if v in self._level}
        out = self.b.pick(_n(u), pref)
        return None if out is None else {self._at[i]: x for i, x in out.items()}

    def count(self, u: Function, names: Iterable[V]) -> int:
        names = set(names)
        self._outside(u, names)
        return self.b.count(_n(u), len(self._at)) >> (len(self._at) - len(names & self._level.keys()))

    def cubes(self, u: Function) -> Iterator[dict[V, bool]]:
        at = self._at
        for path in self.b.paths(_n(u)):
            yield {at[i]: x for i, x in path.items()}


# -- CUDD ------------------------------------------------------------------------------------

def _cudd_name(v: Hashable) -> str:
    return v if isinstance(v, str) else f"v{v}"


class _Cudd(Manager[V]):
    """A manager on CUDD through ``dd.cudd``.

    A shared manager (:func:`manager`) keeps its variable order and starts
    small; the prover's (:func:`new_manager`) reorders by sifting and is
    capped at :data:`MAX_MEMORY` bytes (an operation that would need more
    raises :class:`~kop.errors.LimitError`).  A CUDD operation cannot be
    interrupted, so the time limit is checked between operations.
    """

    backend = "cudd"

    def __init__(self, variables: Iterable[V], check: Callable[[], None] | None, shared: bool) -> None:
        super().__init__()

        self._mod = cudd = import_dd("cudd")
        self._check = check
        self._capped = not shared
        variables = list(variables)
        if shared:
            # a small first cache (CUDD grows it as it pays), and the given variable order kept;
            # CUDD's start-up work grows with the memory estimate (~8 ms at dd's default 1 GiB),
            # which only sets when the node table starts preferring garbage collection to growth
            estimate = min(MEMORY_ESTIMATE, max(MIN_MEMORY_ESTIMATE, ESTIMATE_PER_VARIABLE * len(variables)))
            self.bdd: Any = cudd.BDD(memory_estimate=estimate, initial_cache_size=1 << 12)
            self.bdd.configure(reordering=False)
        else:
            self.bdd = cudd.BDD(memory_estimate=MAX_MEMORY)
            self.bdd.configure(reordering=True, max_memory=MAX_MEMORY)
        self._key: dict[str, V] = {}
        self.true = cast(Function, self.bdd.true)
        self.false = cast(Function, self.bdd.false)
        self._points: dict[tuple[frozenset[V], int], Function] = {}
        self._seen_points: set[tuple[frozenset[V], int]] = set()
        self.declare(variables)

    def _add(self, new: list[V]) -> None:
        names = [v if isinstance(v, str) else f"v{v}" for v in new]
        self._key.update(zip(names, new))
        if len(names) > 1:
            # CUDD grows its tables once for the last index, not once per variable
            base = len(self._declared)
            self.bdd.add_var(names[-1], index=base + len(names) - 1)
            for j, n in enumerate(names[:-1]):
                self.bdd.add_var(n, index=base + j)
        else:
            self.bdd.declare(*names)

    def _insert(self, name: V, level: int) -> None:
        n = _cudd_name(name)
        self._key[n] = name
        self.bdd.insert_var(n, level)

    def _var(self, name: V) -> Function:
        return cast(Function, self.bdd.var(_cudd_name(name)))

    def level(self, u: Function) -> int:
        return cast(int, cast(Any, u).level)

    def _tick(self) -> None:
        if self._check is not None:
            self._check()

    def _out_of_memory(self) -> LimitError:
        return LimitError(f"the BDDs need more than {MAX_MEMORY >> 20} MB (kop's limit for CUDD)")

    def AND(self, u: Function, w: Function) -> Function:
        try:
            return u & w
        except ValueError:      # CUDD returned NULL: the memory cap
            raise self._out_of_memory() from None

    def OR(self, u: Function, w: Function) -> Function:
        try:
            return u | w
        except ValueError:
            raise self._out_of_memory() from None

    def _apply(self, op: str, u: Function, w: Function) -> Function:
        try:
            r: Function = self.bdd.apply(op, u, w)
        except (ValueError, RuntimeError):
            raise self._out_of_memory() from None
        return r

    def equiv(self, u: Function, w: Function) -> Function:
        # CUDD's XNOR; dd.cudd's Function.equiv goes through a slower ITE
        return self._apply("equiv", u, w)

    def xor(self, u: Function, w: Function) -> Function:
        return self._apply("xor", u, w)

    def ite(self, c: Function, t: Function, e: Function) -> Function:
        return cast(Function, self.bdd.ite(c, t, e))

    def _quantifier(self, names: frozenset[V]) -> tuple[Function, list[str]]:
        """The cube of *names*, and their CUDD names.

        ``dd.cudd`` builds a cube by a Python loop over every declared
        variable, so with a thousand variables one costs more than most
        quantifications; the same ones are asked for again and again.
        """
        cnames = [_cudd_name(v) for v in names]
        if len(names) == 1:
            return self._var(next(iter(names))), cnames
        return cast(Function, self.bdd.cube(dict.fromkeys(cnames, True))), cnames

    def _cube_of(self, names: Iterable[V]) -> Function:
        q = self._quants.get(names) if isinstance(names, frozenset) else None   # the common case first
        if q is None:
            q = self.quantifier(names)
        c: Function = q[0]
        return c

    def exists_and(self, u: Function, w: Function, q: Any) -> Function:
        """``∃ q (u ∧ w)``, one CUDD ``AndAbstract`` (``u ∧ w`` is never built)."""
        self._tick()
        try:
            r: Function = self._mod.and_exists(u, w, q[1])
        except (ValueError, RuntimeError):
            raise self._out_of_memory() from None
        return r

    # (dd's apply tests the operator's name against a chain of names: "exists" comes
    # before "forall", and ∀ is ¬∃¬ in CUDD anyway)
    def exist(self, names: Iterable[V], u: Function) -> Function:
        q = self._quants.get(names) if type(names) is frozenset else None     # (a hot path)
        if q is None:
            q = self.quantifier(names)
        try:
            r: Function = self.bdd.apply("exists", q[0], u)
        except (ValueError, RuntimeError):
            raise self._out_of_memory() from None
        return r

    def forall(self, names: Iterable[V], u: Function) -> Function:
        return ~self.exist(names, ~u)

    def quantify_by(self, names: Iterable[V], forall: bool = False) -> Callable[[Function], Function]:
        # dd's own apply with the cube bound: no Python frame per call (a shared manager has
        # no memory cap, so CUDD returns NULL only when the machine is out of memory)
        if self._capped:       # (the prover's: a NULL from CUDD is its memory cap, a LimitError)
            return super().quantify_by(names, forall)
        op = "forall" if forall else "exists"
        return cast("Callable[[Function], Function]", partial(self.bdd.apply, op, self._cube_of(names)))

    def know(self, law: Function, u: Function, hidden: Iterable[V]) -> Function:
        return ~self._apply("exists", self._cube_of(hidden), law & ~u)

    def possible(self, law: Function, u: Function, hidden: Iterable[V]) -> Function:
        return self._apply("exists", self._cube_of(hidden), law & u)

    def cofactor(self, u: Function, name: V, value: bool) -> Function:
        return cast(Function, self.bdd.let({_cudd_name(name): self.true if value else self.false}, u))

    def cube(self, assignment: Mapping[V, bool]) -> Function:
        self.declare(v for v in assignment if v not in self._declared)
        return cast(Function, self.bdd.cube({_cudd_name(v): bool(x) for v, x in assignment.items()}))

    def reorder(self, on: bool) -> None:
        self.bdd.configure(reordering=on)

    def support(self, u: Function) -> set[V]:
        key = self._key
        return {key[n] for n in self.bdd.support(u)}

    def _nodes(self) -> int:
        return len(self.bdd)

    def evaluate(self, u: Function, true: Mapping[V, bool] | Collection[V]) -> bool:
        """An assignment asked about again (a structure's actual state) is kept as
        the BDD of that one point, and *u* is evaluated by one conjunction with it;
        the first time, by walking *u* from its root."""
        if type(true) is frozenset or not isinstance(true, Mapping):     # (the common case first)
            key = (true if isinstance(true, frozenset) else frozenset(true), len(self._declared))
            point = self._points.get(key)
            if point is None and key in self._seen_points:
                if len(self._points) > 64:
                    self._points.clear()
                point = self._points[key] = self.cube({v: v in key[0] for v in self._declared})
            if point is not None:
                return (u & point) != self.false
            if len(self._seen_points) > 1024:
                self._seen_points.clear()
            self._seen_points.add(key)
        test, keys = _as_test(true), self._key
        t, f = self.true, self.false
        neg = False
        n: Any = u
        while True:
            if n == t:
                return not neg
            if n == f:
                return neg
            if n.negated:
                neg = not neg
                n = ~n
            n = n.high if test(keys[n.var]) else n.low

    def _step(self, u: Any) -> tuple[V, Any, Any]:
        """The variable and the two cofactors of a non-constant *u*."""
        if u.negated:
            r = ~u
            return self._key[r.var], ~r.low, ~r.high
        return self._key[u.var], u.low, u.high

    def pick(self, u: Function, prefer: Mapping[V, bool] | None = None) -> dict[V, bool] | None:
        if u == self.false:
            return None
        prefer = prefer or {}
        out: dict[V, bool] = {}
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

    def count(self, u: Function, names: Iterable[V]) -> int:
        # CUDD counts in floating point, which overflows past 2^1023 states
        names = set(names)
        self._outside(u, names)
        total = len(self._declared)
        full = 1 << total
        t, f = self.true, self.false
        memo: dict[int, int] = {}

        def of(v: Any) -> int:
            if v == t:
                return full
            if v == f:
                return 0
            if v.negated:
                return full - memo[int(~v)]
            return memo[int(v)]

        # iterative post-order over the regular nodes
        stack: list[Any] = [u]
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
            memo[key] = (of(lo) + of(hi)) // 2
            stack.pop()
        return of(u) >> (total - len(names & self._declared.keys()))

    def cubes(self, u: Function) -> Iterator[dict[V, bool]]:
        t, f, keys = self.true, self.false, self._key
        stack: list[tuple[Any, bool, dict[V, bool]]] = [(u, False, {})]
        while stack:
            v, neg, path = stack.pop()
            if v == t or v == f:
                if (v == t) != neg:
                    yield path
                continue
            if v.negated:
                neg = not neg
                v = ~v
            name = keys[v.var]
            stack.append((v.high, neg, {**path, name: True}))
            stack.append((v.low, neg, {**path, name: False}))
