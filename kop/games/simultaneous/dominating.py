"""Dominating-Eval (Bodkin §3.3.3): eliminate moves proven dominated, solve what remains.

At a stage the moves are taken in order of promise (static estimates if the tree has them),
alternating the players.  A row is first checked for weak domination by the evaluated rows:
against the optimal mixture x of those rows (or the one row, if only one is evaluated) it
must be at most ``b_j = sum_r x_r v_rj`` in every live column; its cells are tested with
Test-<= against b_j (known cells compared directly).  If every cell meets its bound the
row is eliminated (Thm 3.3.1: removing a weakly dominated strategy, iteratively, keeps
the value); otherwise its remaining cells are evaluated.  Columns are handled dually.
Finally the LP of the live rows and columns gives the value.

Example
-------
The digest's check: row 3 of [[4, 0], [0, 4], [1, 1]] is dominated by half of each of the
other rows and is never needed.

>>> from kop.games.simultaneous.core import sim_tree
>>> from kop.games.simultaneous.dominating import dominating
>>> r = dominating(sim_tree({"matrix": [[4, 0], [0, 4], [1, 1]]}))
>>> round(r.value, 9), [round(x, 9) for x in r.row], [round(y, 9) for y in r.col], r.extra["eliminated"]
(2.0, [0.5, 0.5, 0.0], [0.5, 0.5], 1)
"""

from __future__ import annotations

from typing import Any

from kop.games.nplayer.core import run_deep
from kop.games.simultaneous.bound_tests import prover_for
from kop.games.simultaneous.core import RootStage, SimResult, root_strategies
from kop.games.simultaneous.naive import solve_stage

__all__ = ["dominating"]


def dominating(tree: Any, player: str | None = None, *, tol: float | None = None) -> SimResult:
    """The value of *tree* by Dominating-Eval (see the module docstring).

    Parameters
    ----------
    tree, player
        As for :func:`~kop.games.simultaneous.naive.naive`.
    tol : float, optional
        The tolerance of the dominance tests.

    Returns
    -------
    SimResult
        As for :func:`~kop.games.simultaneous.naive.naive`; ``extra["eliminated"]`` counts the moves
        proven dominated, ``extra["tests"]`` the bound tests.

    Examples
    --------
    >>> import kop
    >>> t = kop.sim_tree({"matrix": [[4, 0], [0, 4], [1, 1]]})       # row 3 is never needed
    >>> r = kop.dominating(t)
    >>> r.value, r.extra["eliminated"]
    (2.0, 1)

    References
    ----------
    Bodkin (1992), §3.3.3, as for :func:`~kop.games.simultaneous.naive.naive`.
    """
    flat, stats, prover, eps = prover_for(tree, player, tol)
    off, shape = flat.off, flat.shape
    eliminated = [0]
    root: list[RootStage] = []

    def stage(v: int) -> float:
        r, c = shape[v]
        base = off[v]
        rows, cols = prover.order(v)
        live_r, live_c = set(range(r)), set(range(c))
        done_r: list[int] = []
        done_c: list[int] = []

        def cell(i: int, j: int) -> int:
            return base + i * c + j

        def mixture(done: list[int], as_rows: bool) -> dict[int, float]:
            if len(done) == 1:
                return {done[0]: 1.0}
            lc = sorted(live_c)
            lr = sorted(live_r)
            if as_rows:
                sol = solve_stage([[evaluate(cell(i, j)) for j in lc] for i in done], stats)
                return dict(zip(done, map(float, sol.row)))
            sol = solve_stage([[evaluate(cell(i, j)) for j in done] for i in lr], stats)
            return dict(zip(done, map(float, sol.col)))

        merged: list[tuple[str, int]] = []
        for k in range(max(r, c)):
            if k < r:
                merged.append(("r", rows[k]))
            if k < c:
                merged.append(("c", cols[k]))
        def dominated(m: int, as_row: bool) -> bool:
            """Whether row (column) *m* is proven weakly dominated by the mixture of the evaluated rows
            (columns) in every live column (row): Test-<= (Test->=) of its cells against the bounds."""
            done, live = (done_r, live_r) if as_row else (done_c, live_c)
            if not done or len(live) <= 1:
                return False
            mix = mixture(done, as_row)
            for k in sorted(live_c if as_row else live_r):
                if as_row:
                    b = sum(w * evaluate(cell(i, k)) for i, w in mix.items())
                    if prover.test_le(cell(m, k), b) > b + eps:
                        return False
                else:
                    b = sum(w * evaluate(cell(k, j)) for j, w in mix.items())
                    if prover.test_ge(cell(k, m), b) < b - eps:
                        return False
            return True

        for who, m in merged:
            as_row = who == "r"
            if dominated(m, as_row):
                (live_r if as_row else live_c).discard(m)
                eliminated[0] += 1
                continue
            for k in sorted(live_c if as_row else live_r):
                evaluate(cell(m, k) if as_row else cell(k, m))
            (done_r if as_row else done_c).append(m)
        R, C = sorted(live_r), sorted(live_c)
        sol = solve_stage([[evaluate(cell(i, j)) for j in C] for i in R], stats)
        if v == 0:
            root.append((sol, R, C, r, c))
        return float(sol.value)

    evaluate = prover.evaluator(stage)
    value = run_deep(lambda: evaluate(0), 2 * flat.height + 10)
    row, col = root_strategies(root)
    return SimResult("dominating", value * flat.sign, stats.leaves, stats.lps, row, col,
                     {"saddles": stats.saddles, "tests": stats.tests, "eliminated": eliminated[0]})
