"""Naive-Solution: back-induction on a matrix-tree (Bodkin §3.2).

For every stage compute each joint move's value (chance outcomes averaged), then solve the
matrix game of those values (saddle point, else LP).  Every leaf is examined.

Example
-------
>>> from kop.games.simultaneous.core import sim_tree
>>> from kop.games.simultaneous.naive import naive
>>> r = naive(sim_tree({"matrix": [[4, 0], [0, 4], [1, 1]]}))
>>> round(r.value, 9), [round(x, 9) for x in r.row], [round(y, 9) for y in r.col], r.lps
(2.0, [0.5, 0.5, 0.0], [0.5, 0.5], 1)
"""

from __future__ import annotations

from typing import Any

from kop.games.errors import TreeError
from kop.games.nplayer.core import run_deep
from kop.games.simultaneous.core import SimResult, SimStats
from kop.games.trees.lists import TreeLists
from kop.games.trees.tree import CHANCE, LEAF
from kop.games.simultaneous.matrix import MatrixSolution, solve_matrix

__all__ = ["naive", "as_flat", "solve_stage"]


def as_flat(tree: Any, player: str | None = None) -> TreeLists:
    """*tree* as the stage view of :class:`~kop.games.trees.lists.TreeLists` (a GameTree is
    converted in *player*'s zero-sum view); a located error for another view of TreeLists.

    >>> import kop
    >>> as_flat(kop.figure2(), "B").shape[0]
    (1, 3)
    >>> as_flat(TreeLists.payoffs(kop.figure2()))
    Traceback (most recent call last):
    ...
    kop.errors.TreeError: node 0: a stage without its shape: the simultaneous searches take the stage view (TreeLists.stages, kop.sim_tree)
    """
    if not isinstance(tree, TreeLists):
        return TreeLists.stages(tree, player)
    for i, k in enumerate(tree.kind):
        if k != LEAF and k != CHANCE and i not in tree.shape:
            raise TreeError(f"{tree.where(i)}: a stage without its shape: the simultaneous searches take the "
                            "stage view (TreeLists.stages, kop.sim_tree)")
    return tree


def solve_stage(values: list[list[float]], stats: SimStats) -> MatrixSolution:
    """Solve one stage, counting the LP (or the saddle point, or a one-player stage)."""
    if len(values) == 1 or len(values[0]) == 1:
        flat = [x for row in values for x in row]
        r, c = len(values), len(values[0])
        if r == 1:
            j = min(range(c), key=lambda k: (values[0][k], k))
            return MatrixSolution(values[0][j], (1.0,), tuple(float(k == j) for k in range(c)), (0, j), False)
        i = max(range(r), key=lambda k: (flat[k], -k))
        return MatrixSolution(flat[i], tuple(float(k == i) for k in range(r)), (1.0,), (i, 0), False)
    sol = solve_matrix(values)
    if sol.lp:
        stats.lps += 1
    else:
        stats.saddles += 1
    return sol


def naive(tree: Any, player: str | None = None) -> SimResult:
    """The value of *tree* by full back-induction (see the module docstring).

    Parameters
    ----------
    tree : GameTree or TreeLists
        A matrix-tree (:func:`kop.sim_tree`, :func:`kop.random_sim_tree`) or a tree with
        simultaneous nodes.
    player : str, optional
        The row player of the zero-sum view (default: the first player of a GameTree).

    Returns
    -------
    SimResult
        The game value (the row player's payoff), ``leaves`` examined, ``lps`` solved, and the
        root stage's strategies.

    Examples
    --------
    >>> import kop
    >>> t = kop.sim_tree({"matrix": [[4, 0], [0, 4], [1, 1]]})       # row 3 is never needed
    >>> kop.naive(t)
    SimResult('naive', value=2, leaves=6, lps=1)

    References
    ----------
    R. J. Bodkin, *Extending Computational Game Theory: Simultaneity, Multiple Agents, Chance
    and Metareasoning*, MIT (1992), §3.2.
    """
    flat = as_flat(tree, player)
    off, kind, val, prob, shape = flat.off, flat.kind, flat.val, flat.prob, flat.shape
    stats = SimStats()
    root: list[MatrixSolution] = []

    def rec(v: int) -> float:
        k = kind[v]
        if k == LEAF:
            stats.leaves += 1
            return val[v]
        if k == CHANCE:
            return sum(prob[c] * rec(c) for c in range(off[v], off[v + 1]))
        r, c = shape[v]
        vals = [rec(x) for x in range(off[v], off[v + 1])]
        sol = solve_stage([vals[a * c:(a + 1) * c] for a in range(r)], stats)
        if v == 0:
            root.append(sol)
        return float(sol.value)

    value = run_deep(lambda: rec(0), flat.height)
    row = root[0].row if root else None
    col = root[0].col if root else None
    return SimResult("naive", value * flat.sign, stats.leaves, stats.lps, row, col, {"saddles": stats.saddles})
