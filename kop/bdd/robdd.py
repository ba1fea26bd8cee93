"""A small reduced ordered binary decision diagram (ROBDD) package.

Nodes are integers: 0 is false, 1 is true, and every other node is a
hash-consed triple (level, low, high) with low != high, so two nodes are
equal iff their functions are.  Variables are named by their levels, small
integers; smaller ones are nearer the root, and :meth:`BDD.insert_level`
makes room for a new variable between two others.  Operations are memoized.
It is what kop's BDD facade (:mod:`kop.bdd.manager`) needs when CUDD
(``dd.cudd``) cannot be imported, nothing more: and, or, not, existential
quantification fused with conjunction, restriction, cubes, counting,
evaluation and picking a satisfying assignment; it is also the baseline of
``benchmarks/prover.py``.  It checks the time limit every 16,384 operations
and refuses to grow past :data:`MAX_NODES` nodes.

    >>> b = BDD()
    >>> x, y = b.var(0), b.var(1)
    >>> f = b.OR(b.AND(x, y), b.NOT(x))
    >>> b.evaluate(f, {0: True, 1: False}), b.evaluate(f, {0: False, 1: False})
    (False, True)
    >>> b.exists_and(x, f, frozenset({0})) == b.var(1)
    True

Reference: R. E. Bryant, *Graph-based algorithms for boolean function
manipulation*, IEEE Trans. Computers C-35 (1986).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

from kop.errors import LimitError

__all__ = ["BDD", "MAX_NODES"]

_LEAF = 1 << 30
#: The most nodes one manager may hold (about 1 GB of Python objects).
MAX_NODES = 5_000_000


class BDD:
    """A BDD manager; all nodes of one computation live in one manager.

    Parameters
    ----------
    check : callable, optional
        Called every 16,384 operations; raises to stop (time limits).
    nvars : int
        The number of levels to make room for on Python's stack (more may be used).

    Examples
    --------
    >>> b = BDD()
    >>> b.count(b.OR(b.var(0), b.var(2)), 3)
    6
    """

    #: the constant functions
    false = 0
    true = 1
    name = "python"

    def __init__(self, check: Callable[[], None] | None = None, nvars: int = 0) -> None:
        self._v = [_LEAF, _LEAF]
        self._lo = [0, 1]
        self._hi = [0, 1]
        self._unique: dict[tuple[int, int, int], int] = {}
        self._and: dict[tuple[int, int], int] = {}
        self._not: dict[int, int] = {}
        self._ex: dict[tuple[int, int, frozenset[int]], int] = {}
        self._check = check         # called every so often (time limits)
        self._ops = 0
        self.reserve_depth(nvars)

    def __len__(self) -> int:
        return len(self._v)

    @staticmethod
    def reserve_depth(nvars: int) -> None:
        """Make sure Python's recursion limit allows operations on *nvars* variables."""
        need = 3 * nvars + 1000
        if sys.getrecursionlimit() < need:
            sys.setrecursionlimit(need)

    def _tick(self) -> None:
        self._ops += 1
        if not (self._ops & 0x3FFF):
            if self._check is not None:
                self._check()
            if len(self._v) > MAX_NODES:
                raise LimitError(f"the BDDs grew past {MAX_NODES} nodes (kop's limit for its "
                                 "pure-Python BDD package)")

    def size(self) -> int:
        """The number of nodes in the manager."""
        return len(self._v)

    def level(self, u: int) -> int:
        """The level of *u*'s root variable (a large number for the constants)."""
        return self._v[u]

    def insert_level(self, level: int) -> None:
        """Make *level* a fresh variable: every variable at *level* or below moves one down.

        Nodes keep their numbers and their functions (with the variables renamed).

        >>> b = BDD()
        >>> f = b.AND(b.var(0), b.var(1))
        >>> b.insert_level(1)
        >>> sorted(b.support(f))
        [0, 2]
        """
        v = self._v
        for n in range(2, len(v)):
            if v[n] >= level:
                v[n] += 1
        self._unique = {(v[n], self._lo[n], self._hi[n]): n for n in range(2, len(v))}
        self._ex.clear()            # its keys hold levels
        self.reserve_depth(max((x for x in v if x != _LEAF), default=0) + 2)

    def mk(self, v: int, lo: int, hi: int) -> int:
        if lo == hi:
            return lo
        key = (v, lo, hi)
        n = self._unique.get(key)
        if n is None:
            n = len(self._v)
            self._v.append(v)
            self._lo.append(lo)
            self._hi.append(hi)
            self._unique[key] = n
        return n

    def var(self, v: int) -> int:
        """The function of variable *v*."""
        return self.mk(v, 0, 1)

    def NOT(self, u: int) -> int:
        if u < 2:
            return 1 - u
        r = self._not.get(u)
        if r is None:
            self._tick()
            r = self.mk(self._v[u], self.NOT(self._lo[u]), self.NOT(self._hi[u]))
            self._not[u] = r
        return r

    def AND(self, u: int, w: int) -> int:
        if u == 0 or w == 0:
            return 0
        if u == 1:
            return w
        if w == 1 or u == w:
            return u
        if u > w:
            u, w = w, u
        key = (u, w)
        r = self._and.get(key)
        if r is not None:
            return r
        self._tick()
        vu, vw = self._v[u], self._v[w]
        if vu == vw:
            r = self.mk(vu, self.AND(self._lo[u], self._lo[w]), self.AND(self._hi[u], self._hi[w]))
        elif vu < vw:
            r = self.mk(vu, self.AND(self._lo[u], w), self.AND(self._hi[u], w))
        else:
            r = self.mk(vw, self.AND(u, self._lo[w]), self.AND(u, self._hi[w]))
        self._and[key] = r
        return r

    def OR(self, u: int, w: int) -> int:
        return self.NOT(self.AND(self.NOT(u), self.NOT(w)))

    def IMPLIES(self, u: int, w: int) -> int:
        return self.NOT(self.AND(u, self.NOT(w)))

    def IFF(self, u: int, w: int) -> int:
        return self.AND(self.IMPLIES(u, w), self.IMPLIES(w, u))

    def quantifier(self, qvars: Iterable[int]) -> frozenset[int]:
        """The form :meth:`exists_and` takes its variables in."""
        return frozenset(qvars)

    def conj(self, us: Iterable[int]) -> int:
        """The conjunction of *us*, combined pairwise (a balanced tree keeps intermediate BDDs small)."""
        layer = list(us)
        if not layer:
            return 1
        while len(layer) > 1:
            nxt = [self.AND(layer[i], layer[i + 1]) for i in range(0, len(layer) - 1, 2)]
            if len(layer) % 2:
                nxt.append(layer[-1])
            if 0 in nxt:
                return 0
            layer = nxt
        return layer[0]

    def disj(self, us: Iterable[int]) -> int:
        r = 0
        for u in us:
            r = self.OR(r, u)
            if r == 1:
                break
        return r

    def exists_and(self, u: int, w: int, qvars: frozenset[int]) -> int:
        """``exists qvars . (u & w)``, computed without building ``u & w``."""
        if u == 0 or w == 0:
            return 0
        if u == 1 and w == 1:
            return 1
        if u > w:
            u, w = w, u
        key = (u, w, qvars)
        r = self._ex.get(key)
        if r is not None:
            return r
        self._tick()
        vu, vw = self._v[u], self._v[w]
        v = min(vu, vw)
        ul, uh = (self._lo[u], self._hi[u]) if vu == v else (u, u)
        wl, wh = (self._lo[w], self._hi[w]) if vw == v else (w, w)
        if v in qvars:
            lo = self.exists_and(ul, wl, qvars)
            r = 1 if lo == 1 else self.OR(lo, self.exists_and(uh, wh, qvars))
        else:
            r = self.mk(v, self.exists_and(ul, wl, qvars), self.exists_and(uh, wh, qvars))
        self._ex[key] = r
        return r

    def restrict(self, u: int, level: int, value: bool) -> int:
        """*u* with the variable at *level* set to *value*.

        >>> b = BDD()
        >>> b.restrict(b.AND(b.var(0), b.var(1)), 0, True) == b.var(1)
        True
        """
        memo: dict[int, int] = {}
        v, lo, hi = self._v, self._lo, self._hi

        def go(n: int) -> int:
            if v[n] > level:
                return n
            r = memo.get(n)
            if r is None:
                if v[n] == level:
                    r = hi[n] if value else lo[n]
                else:
                    self._tick()
                    r = self.mk(v[n], go(lo[n]), go(hi[n]))
                memo[n] = r
            return r

        return go(u)

    def count(self, u: int, nlevels: int) -> int:
        """The number of assignments to the levels ``0 .. nlevels-1`` that satisfy *u*
        (which may depend on no other level)."""
        v, lo, hi = self._v, self._lo, self._hi
        memo: dict[int, int] = {0: 0, 1: 1}

        def lv(n: int) -> int:
            return nlevels if n < 2 else v[n]

        stack = [u]
        while stack:
            n = stack[-1]
            if n in memo:
                stack.pop()
                continue
            a, b = lo[n], hi[n]
            if a not in memo or b not in memo:
                stack.extend(c for c in (a, b) if c not in memo)
                continue
            stack.pop()
            memo[n] = (memo[a] << (lv(a) - v[n] - 1)) + (memo[b] << (lv(b) - v[n] - 1))
        return memo[u] << lv(u)

    def dag_size(self, u: int) -> int:
        """The number of nodes of *u*, the constants included."""
        seen: set[int] = set()
        stack = [u]
        while stack:
            n = stack.pop()
            if n not in seen:
                seen.add(n)
                if n > 1:
                    stack.extend((self._lo[n], self._hi[n]))
        return len(seen)

    def paths(self, u: int) -> Iterator[dict[int, bool]]:
        """The paths of *u* to true, as partial assignments (disjoint, covering *u*)."""
        stack: list[tuple[int, dict[int, bool]]] = [(u, {})]
        while stack:
            n, path = stack.pop()
            if n < 2:
                if n == 1:
                    yield path
                continue
            stack.append((self._hi[n], {**path, self._v[n]: True}))
            stack.append((self._lo[n], {**path, self._v[n]: False}))

    def cube(self, assignment: Mapping[int, bool]) -> int:
        """The conjunction of the literals of *assignment*."""
        r = 1
        for v in sorted(assignment, reverse=True):
            r = self.mk(v, 0, r) if assignment[v] else self.mk(v, r, 0)
        return r

    def evaluate(self, u: int, assignment: Mapping[int, bool] | Sequence[bool]) -> bool:
        """The value of *u* under *assignment* (a mapping or sequence; missing variables are false)."""
        if isinstance(assignment, Mapping):
            while u > 1:
                u = self._hi[u] if assignment.get(self._v[u], False) else self._lo[u]
        else:
            while u > 1:
                u = self._hi[u] if assignment[self._v[u]] else self._lo[u]
        return u == 1

    def pick(self, u: int, prefer: Mapping[int, bool] | None = None) -> dict[int, bool] | None:
        """One satisfying partial assignment (variables not mentioned are free), or None.

        Along the way each variable takes its value in *prefer* (default false)
        whenever that branch is satisfiable.
        """
        if u == 0:
            return None
        prefer = prefer or {}
        out: dict[int, bool] = {}
        while u > 1:
            v = self._v[u]
            want = prefer.get(v, False)
            nxt = self._hi[u] if want else self._lo[u]
            if nxt == 0:
                want = not want
                nxt = self._hi[u] if want else self._lo[u]
            out[v] = want
            u = nxt
        return out

    def support(self, u: int) -> set[int]:
        """The variables *u* depends on."""
        seen: set[int] = set()
        out: set[int] = set()
        stack = [u]
        while stack:
            n = stack.pop()
            if n < 2 or n in seen:
                continue
            seen.add(n)
            out.add(self._v[n])
            stack.extend((self._lo[n], self._hi[n]))
        return out
