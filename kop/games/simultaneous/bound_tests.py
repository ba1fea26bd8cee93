"""Test-<= and Test->= (Bodkin §3.3.2): cheap proofs of bounds on a subgame's value.

``test_le(V, y)`` returns an upper bound on u(V); when the bound is <= y it is proven (the
test may fail, returning more than y, even when u(V) <= y).  At a stage it picks a column
of the minimizer (the policy: the most promising columns by the static estimates, else in order, at most
``rounds`` of them) and asks,
for every row, whether that cell is at most y; if every cell is, the stage is worth at most
the largest of the returned bounds (the column player can hold the row player to it).  At
a chance node every outcome is tested against the same y (the per-outcome bounds z_i = y
satisfy sum d_i z_i = y; the thesis's normal model gives the same when the outcomes look
alike) and the bound is the expectation of the children's bounds.  ``test_ge`` is the dual.
Values already known exactly are used as they are.

Examples
--------
>>> from kop.games.simultaneous.core import sim_tree, SimStats
>>> from kop.games.simultaneous.bound_tests import Prover
>>> p = Prover(sim_tree({"matrix": [[1, 5], [2, 6]]}), SimStats())
>>> p.test_le(0, 2), p.test_le(0, 1.5), p.test_ge(0, 1)
(2.0, inf, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from kop.games.simultaneous.core import SimStats
from kop.games.simultaneous.naive import as_flat
from kop.games.trees.lists import TreeLists
from kop.games.trees.tree import CHANCE, LEAF

__all__ = ["Prover", "prover_for"]

_INF = math.inf


class Prover:
    """Test-<= / Test->= on a :class:`TreeLists`, sharing an exact-value cache with the evaluator."""

    def __init__(self, flat: TreeLists, stats: SimStats, rounds: int = 1):
        self.flat = flat
        self.stats = stats
        self.rounds = rounds
        self.exact: dict[int, float] = {}
        self._orders: dict[int, tuple[list[int], list[int]]] = {}

    def tolerance(self, tol: float | None) -> float:
        """*tol*, or by default 1e-9 times the largest leaf value (at least 1e-9).

        >>> from kop.games.simultaneous.core import sim_tree, SimStats
        >>> round(Prover(sim_tree({"matrix": [[1, -500], [2, 6]]}), SimStats()).tolerance(None), 15)
        5e-07
        """
        if tol is not None:
            return tol
        f = self.flat
        return 1e-9 * max(1.0, max((abs(x) for x, k in zip(f.val, f.kind) if k == LEAF), default=1.0))

    def evaluator(self, stage: Callable[[int], float]) -> Callable[[int], float]:
        """The exact value of any node, cached in :attr:`exact` (shared with the tests): leaves counted,
        chance nodes by expectation, stages by *stage*.

        >>> from kop.games.simultaneous.core import sim_tree, SimStats
        >>> p = Prover(sim_tree({"chance": [0.5, 0.5], "children": [1, 3]}), SimStats())
        >>> p.evaluator(lambda v: 0.0)(0), p.stats.leaves, p.exact[0]
        (2.0, 2, 2.0)
        """
        exact, stats = self.exact, self.stats
        off, kind, val, prob = self.flat.off, self.flat.kind, self.flat.val, self.flat.prob

        def evaluate(v: int) -> float:
            hit = exact.get(v)
            if hit is not None:
                return hit
            k = kind[v]
            if k == LEAF:
                stats.leaves += 1
                out = val[v]
            elif k == CHANCE:
                out = sum(prob[c] * evaluate(c) for c in range(off[v], off[v + 1]) if prob[c] > 0)
            else:
                out = stage(v)
            exact[v] = out
            return out
        return evaluate

    def order(self, v: int) -> tuple[list[int], list[int]]:
        """(rows, columns) of stage *v*, most promising first by the static estimates, if any:
        rows by their worst estimate (descending), columns by their best (ascending)."""
        hit = self._orders.get(v)
        if hit is not None:
            return hit
        f = self.flat
        r, c = f.shape[v]
        if f.est is None:
            out = (list(range(r)), list(range(c)))
        else:
            base, est = f.off[v], f.est
            E = [[est[base + i * c + j] for j in range(c)] for i in range(r)]
            out = (sorted(range(r), key=lambda i: -min(E[i])),
                   sorted(range(c), key=lambda j: max(E[i][j] for i in range(r))))
        self._orders[v] = out
        return out

    def test_le(self, v: int, y: float) -> float:
        """An upper bound on u(v); proven <= y when it is <= y."""
        return self._test(v, y, True)

    def test_ge(self, v: int, y: float) -> float:
        """A lower bound on u(v); proven >= y when it is >= y."""
        return self._test(v, y, False)

    def _test(self, v: int, y: float, upper: bool) -> float:
        """Test-<= (*upper*) or its dual Test->=: a bound on u(v), +inf (-inf) when the test fails.

        Test-<= looks for a column whose every cell is proven <= y and returns the largest of
        their bounds; Test->= for a row whose every cell is proven >= y, the smallest."""
        f = self.flat
        hit = self.exact.get(v)
        if hit is not None:
            return hit
        k = f.kind[v]
        if k == LEAF:
            self.stats.leaves += 1
            self.exact[v] = f.val[v]
            return f.val[v]
        self.stats.tests += 1
        fail = _INF if upper else -_INF
        if k == CHANCE:
            total = 0.0
            for c in range(f.off[v], f.off[v + 1]):
                p = f.prob[c]
                if p > 0:
                    a = self._test(c, y, upper)
                    if a == fail:
                        return fail
                    total += p * a
            return total
        r, c = f.shape[v]
        base = f.off[v]
        rows, cols = self.order(v)
        # Test-<= goes over columns (outer) and rows (inner), Test->= the other way round
        outer, inner, step_out, step_in = (cols, rows, 1, c) if upper else (rows, cols, c, 1)
        for o in outer[:self.rounds]:
            bound = -fail
            for n in inner:
                a = self._test(base + o * step_out + n * step_in, y, upper)
                if (a > y) if upper else (a < y):
                    break
                bound = max(bound, a) if upper else min(bound, a)
            else:
                return bound
        return fail


def prover_for(tree: Any, player: str | None, tol: float | None) -> tuple[TreeLists, SimStats, Prover, float]:
    """A fresh :class:`Prover` on *tree*, as the bounded searches start.

    Parameters
    ----------
    tree, player
        As for :func:`~kop.games.simultaneous.naive.as_flat`.
    tol : float or None
        As for :meth:`Prover.tolerance`.

    Returns
    -------
    tuple
        (the matrix-tree, the counters, the prover, the tolerance).

    Examples
    --------
    >>> from kop.games.simultaneous.core import sim_tree
    >>> flat, stats, prover, eps = prover_for(sim_tree({"matrix": [[1, 2]]}), None, 0.5)
    >>> prover.flat is flat, prover.stats is stats, eps
    (True, True, 0.5)
    """
    flat = as_flat(tree, player)
    stats = SimStats()
    prover = Prover(flat, stats)
    return flat, stats, prover, prover.tolerance(tol)
