"""Substructure-Eval (Bodkin §3.3.4): solve a small substructure, prove the rest cannot matter.

At a stage, start from a 1x1 substructure (the most promising move of each player by
the tree's static estimates when it has them, as the thesis uses a shallower search;
else the first moves), evaluate its cells, and solve it (value v, strategies x, y).
Every row outside must give the row player at most v against y: its cells in y's support
are tested with Test-<= against v (``sum_j y_j b_ij = v`` with ``b_ij = v``); a failed test
is replaced by an evaluation, and a row that still beats v joins the substructure, which is
re-solved.  Columns likewise, with Test->= against x.  By Thm 3.3.2 the substructure's
solution then solves the stage.  With ``pure=True`` every check is an evaluation ("Pure
Substructure", §3.9.2).  On perfect-information trees (1xk and kx1 stages) it is SCOUT.

Example
-------
>>> from kop.games.simultaneous.core import random_sim_tree
>>> from kop.games.simultaneous.naive import naive
>>> from kop.games.simultaneous.substructure import substructure
>>> trees = [random_sim_tree(3, 3, 3, seed=s) for s in range(4)]
>>> a, b = [substructure(t) for t in trees], [naive(t) for t in trees]
>>> all(abs(x.value - y.value) < 1e-7 for x, y in zip(a, b))
True
>>> sum(x.leaves for x in a) < sum(y.leaves for y in b), sum(x.lps for x in a) < sum(y.lps for y in b)
(True, True)
"""

from __future__ import annotations

from typing import Any

from kop.games.nplayer.core import run_deep
from kop.games.simultaneous.bound_tests import prover_for
from kop.games.simultaneous.core import RootStage, SimResult, root_strategies
from kop.games.simultaneous.naive import solve_stage

__all__ = ["substructure"]


def substructure(tree: Any, player: str | None = None, *, pure: bool = False, tol: float | None = None) -> SimResult:
    """The value of *tree* by Substructure-Eval (see the module docstring).

    Parameters
    ----------
    tree, player
        As for :func:`~kop.games.simultaneous.naive.naive`.
    pure : bool
        Start from a pure-strategy substructure.
    tol : float, optional
        The slack of the comparisons with the stage value (default 1e-9 times the payoff scale);
        the value equals Naive-Solution's within about this much plus the LP tolerance.

    Returns
    -------
    SimResult
        As for :func:`~kop.games.simultaneous.naive.naive`; ``extra["tests"]`` counts the bound tests.

    Examples
    --------
    >>> import kop
    >>> kop.substructure(kop.sim_tree({"matrix": [[4, 0], [0, 4], [1, 1]]}))     # row 3 is never needed
    SimResult('substructure', value=2, leaves=6, lps=1)

    References
    ----------
    Bodkin (1992), §3.3.4, as for :func:`~kop.games.simultaneous.naive.naive`.
    """
    root: list[RootStage] = []
    flat, stats, prover, eps = prover_for(tree, player, tol)
    off, shape = flat.off, flat.shape

    def upper(cell: int, y: float) -> float:
        return evaluate(cell) if pure else prover.test_le(cell, y)

    def lower(cell: int, y: float) -> float:
        return evaluate(cell) if pure else prover.test_ge(cell, y)

    def stage(v: int) -> float:
        r, c = shape[v]
        base = off[v]
        rows, cols = prover.order(v)

        def outside(m: int, weights: dict[int, float], val_: float, as_row: bool) -> float:
            """The payoff of row (column) *m* against the column (row) strategy *weights*: each cell
            tested against *val_* first (Test-<= for a row, Test->= for a column) and evaluated
            when the test fails."""
            total = 0.0
            for k, w in weights.items():
                if w <= 0:
                    continue
                if as_row:
                    cell = base + m * c + k
                    b = upper(cell, val_)
                    if b > val_ + eps:
                        b = evaluate(cell)
                else:
                    cell = base + k * c + m
                    b = lower(cell, val_)
                    if b < val_ - eps:
                        b = evaluate(cell)
                total += w * b
            return total

        R, C = [rows[0]], [cols[0]]
        while True:
            sol = solve_stage([[evaluate(base + i * c + j) for j in C] for i in R], stats)
            val_ = float(sol.value)
            x = dict(zip(R, map(float, sol.row)))
            y = dict(zip(C, map(float, sol.col)))
            added = False
            for i in rows:
                if i not in x and outside(i, y, val_, True) > val_ + eps:
                    R.append(i)
                    added = True
                    break
            if added:
                continue
            for j in cols:
                if j not in y and outside(j, x, val_, False) < val_ - eps:
                    C.append(j)
                    added = True
                    break
            if not added:
                if v == 0:
                    root.append((sol, R, C, r, c))
                return val_

    evaluate = prover.evaluator(stage)
    value = run_deep(lambda: evaluate(0), 2 * flat.height + 10)
    row, col = root_strategies(root)
    name = "pure_substructure" if pure else "substructure"
    return SimResult(name, value * flat.sign, stats.leaves, stats.lps, row, col, {"saddles": stats.saddles, "tests": stats.tests})
