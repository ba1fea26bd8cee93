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

Example
-------
>>> from kop.games.simultaneous.core import sim_tree, SimStats
>>> from kop.games.simultaneous.bound_tests import Prover
>>> p = Prover(sim_tree({"matrix": [[1, 5], [2, 6]]}), SimStats())
>>> p.test_le(0, 2), p.test_le(0, 1.5), p.test_ge(0, 1)
(2.0, inf, 1.0)
"""

from __future__ import annotations

import math

from kop.games.simultaneous.core import CH, LF, SimFlat, SimStats

__all__ = ["Prover"]

_INF = math.inf


class Prover:
    """Test-<= / Test->= on a :class:`SimFlat`, sharing an exact-value cache with the evaluator."""

    def __init__(self, flat: SimFlat, stats: SimStats, rounds: int = 1):
        self.flat = flat
        self.stats = stats
        self.rounds = rounds
        self.exact: dict[int, float] = {}
        self._orders: dict[int, tuple[list[int], list[int]]] = {}

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
        f = self.flat
        hit = self.exact.get(v)
        if hit is not None:
            return hit
        k = f.kind[v]
        if k == LF:
            self.stats.leaves += 1
            self.exact[v] = f.val[v]
            return f.val[v]
        self.stats.tests += 1
        if k == CH:
            total = 0.0
            for c in range(f.off[v], f.off[v + 1]):
                p = f.prob[c]
                if p > 0:
                    a = self.test_le(c, y)
                    if a == _INF:
                        return _INF
                    total += p * a
            return total
        r, c = f.shape[v]
        base = f.off[v]
        rows, cols = self.order(v)
        for j in cols[:self.rounds]:
            worst = -_INF
            for i in rows:
                a = self.test_le(base + i * c + j, y)
                if a > y:
                    break
                worst = max(worst, a)
            else:
                return worst
        return _INF

    def test_ge(self, v: int, y: float) -> float:
        """A lower bound on u(v); proven >= y when it is >= y."""
        f = self.flat
        hit = self.exact.get(v)
        if hit is not None:
            return hit
        k = f.kind[v]
        if k == LF:
            self.stats.leaves += 1
            self.exact[v] = f.val[v]
            return f.val[v]
        self.stats.tests += 1
        if k == CH:
            total = 0.0
            for c in range(f.off[v], f.off[v + 1]):
                p = f.prob[c]
                if p > 0:
                    a = self.test_ge(c, y)
                    if a == -_INF:
                        return -_INF
                    total += p * a
            return total
        r, c = f.shape[v]
        base = f.off[v]
        rows, cols = self.order(v)
        for i in rows[:self.rounds]:
            best = _INF
            for j in cols:
                a = self.test_ge(base + i * c + j, y)
                if a < y:
                    break
                best = min(best, a)
            else:
                return best
        return -_INF
