"""The matrix-tree layout the simultaneous-move searches share, random trees, and results.

A node is a leaf (the row player's payoff), a chance node (probabilities), or a *stage*
with ``rows x cols`` children in row-major order (the row player maximizes, the column
player minimizes).  A decision node of one player is a stage with one row or one column.
:func:`sim_tree` builds the layout (the stage view of
:class:`~kop.games.trees.lists.TreeLists`) from nested Python data;
:meth:`TreeLists.stages <kop.games.trees.lists.TreeLists.stages>` from a
:class:`~kop.games.trees.tree.GameTree` (simultaneous nodes, decision nodes, chance nodes).

Example
-------
>>> from kop.games.simultaneous.core import sim_tree
>>> t = sim_tree({"matrix": [[4, 0], [0, 4], [1, 1]]})
>>> t.shape[0], t.off[:2], t.kind[:2]
((3, 2), [1, 7], [-3, -1])
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kop.syntax import arguments
from kop.games.errors import TreeError
from kop.games.result import RootMoveResult
from kop.games.trees.lists import TreeLists
from kop.games.trees.tree import CHANCE, LEAF, SIMULTANEOUS
from kop.games.simultaneous.matrix import MatrixSolution

__all__ = ["SimResult", "SimStats", "sim_tree", "random_sim_tree", "RootStage", "root_strategies"]

PROB_TOL = 1e-9


@dataclass
class SimStats:
    """Counters of one search: leaves examined, LPs solved, stages solved by a saddle point."""

    leaves: int = 0
    lps: int = 0
    saddles: int = 0
    tests: int = 0


@dataclass(frozen=True)
class SimResult(RootMoveResult):
    """The game value (row player's payoff), counters, and the root stage's strategies if solved.

    ``move`` is the row the row player plays for sure at the root stage (None when it mixes,
    has one row only, or the root is not a stage), ``path`` is ``(move,)`` (or ``()``),
    ``nodes`` the leaves examined (:class:`~kop.games.result.RootMoveResult`).

    Parameters
    ----------
    algorithm : str
        The search.
    value : float
        The row player's payoff.
    leaves, lps : int
        Leaves examined and LPs solved.
    row, col : tuple or None
        The root stage's strategies, when solved.
    extra : dict
        Counters of the search.

    Examples
    --------
    >>> import kop
    >>> r = kop.naive(kop.sim_tree({"matrix": [[4, 0], [0, 4], [1, 1]]}))
    >>> r.value, r.leaves, r.lps, r.move, r.nodes
    (2.0, 6, 1, None, 6)
    >>> kop.naive(kop.sim_tree({"matrix": [[3], [5]]})).path
    (1,)
    """

    algorithm: str
    value: float
    leaves: int
    lps: int
    row: tuple[float, ...] | None = None
    col: tuple[float, ...] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"SimResult({self.algorithm!r}, value={self.value:.6g}, leaves={self.leaves}, lps={self.lps})"

    @property
    def move(self) -> int | None:
        """The row the row player plays with certainty at the root stage, if it has a choice."""
        row = self.row
        if row is None or len(row) < 2:
            return None
        support = [i for i, x in enumerate(row) if x > 0]
        return support[0] if len(support) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        return {"algorithm": self.algorithm, "value": self.value, "leaves": self.leaves, "lps": self.lps,
                "row": None if self.row is None else list(self.row),
                "col": None if self.col is None else list(self.col), **self.extra,
                "path": list(self.path), "nodes": self.nodes}


#: what a search keeps of the root stage: its solution, the rows and columns it was solved on, the
#: stage's full shape
RootStage = tuple[MatrixSolution, list[int], list[int], int, int]


def root_strategies(root: list[RootStage]) -> tuple[tuple[float, ...] | None, tuple[float, ...] | None]:
    """The root stage's strategies over all its rows and columns (0 off the solved ones), or
    ``(None, None)`` when the root is not a stage.

    Parameters
    ----------
    root : list
        Empty, or one ``(solution, rows, columns, r, c)``: the solution on those rows and
        columns of the ``r x c`` root stage.

    Returns
    -------
    tuple
        (row strategy, column strategy).

    Examples
    --------
    >>> from kop.games.simultaneous.matrix import solve_matrix
    >>> root_strategies([(solve_matrix([[4, 0], [0, 4]]), [0, 1], [0, 1], 3, 2)])
    ((0.5, 0.5, 0.0), (0.5, 0.5))
    """
    row = col = None
    if root:
        sol, R, C, r, c = root[0]
        xr, yc = [0.0] * r, [0.0] * c
        for i, w in zip(R, sol.row):
            xr[i] = float(w)
        for j, w in zip(C, sol.col):
            yc[j] = float(w)
        row, col = tuple(xr), tuple(yc)
    return row, col


def _num(x: Any, where: str) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TreeError(f"{where}: a payoff must be a number, found {x!r}")
    if not math.isfinite(x):
        raise TreeError(f"{where}: payoff {x!r} is not finite")
    return float(x)


def sim_tree(spec: Any) -> TreeLists:
    """The layout of nested data: a number (leaf), ``{"matrix": [[...]]}`` (a stage),
    ``{"chance": [p...], "children": [...]}``; errors name the path (``root/1/0``).

    Parameters
    ----------
    spec : number, dict or list
        The nested data described above.

    Returns
    -------
    TreeLists
        The matrix-tree layout the simultaneous-move searches take (the stage view).

    Examples
    --------
    >>> import kop
    >>> t = kop.sim_tree({"chance": [0.5, 0.5], "children": [1, {"matrix": [[0, 4]]}]})
    >>> t.height, kop.naive(t).value
    (2, 0.5)

    References
    ----------
    R. J. Bodkin, *Extending Computational Game Theory: Simultaneity, Multiple Agents, Chance
    and Metareasoning*, MIT (1992), Ch. 3.
    """
    off: list[int] = []
    kind: list[int] = []
    val: list[float] = []
    prob: list[float] = []
    shape: dict[int, tuple[int, int]] = {}
    paths: list[str] = []
    queue: deque[tuple[Any, str, float]] = deque([(spec, "root", 0.0)])
    nxt = 1
    height = 0
    while queue:
        s, where, p = queue.popleft()
        i = len(kind)
        paths.append(where)
        prob.append(p)
        height = max(height, where.count("/"))
        off.append(nxt)
        if isinstance(s, Mapping) and "matrix" in s:
            A = s["matrix"]
            shape[i] = _matrix_shape(A, where)
            kind.append(SIMULTANEOUS)
            val.append(0.0)
            for a, row in enumerate(A):
                for b, x in enumerate(row):
                    queue.append((x, f"{where}/{a},{b}", 0.0))
            nxt += shape[i][0] * shape[i][1]
        elif isinstance(s, Mapping) and "chance" in s:
            kids = _chance_children(s, where)
            kind.append(CHANCE)
            val.append(0.0)
            queue.extend(kids)
            nxt += len(kids)
        else:
            kind.append(LEAF)
            val.append(_num(s, where))
    off.append(nxt)
    return TreeLists(off, kind, height, val=val, prob=prob, shape=shape, paths=paths)


def _matrix_shape(A: Any, where: str) -> tuple[int, int]:
    """The (rows, columns) of a simultaneous node's matrix, checked non-empty and rectangular."""
    if not isinstance(A, Sequence) or not A or not all(isinstance(r, Sequence) and r for r in A):
        raise TreeError(f"{where}: \"matrix\" must be a non-empty list of non-empty rows")
    lens = [len(r) for r in A]
    if len(set(lens)) != 1:
        bad = next(k for k, n in enumerate(lens) if n != lens[0])
        raise TreeError(f"{where}: ragged matrix: row 0 has {lens[0]} entries, row {bad} has {lens[bad]}")
    return len(A), lens[0]


def _chance_children(s: Mapping[str, Any], where: str) -> list[tuple[Any, str, float]]:
    """A chance node's children, each with its path and probability (checked: >= 0, summing to 1)."""
    ps, kids = s["chance"], s.get("children")
    if not isinstance(ps, Sequence) or not isinstance(kids, Sequence) or len(ps) != len(kids) or not kids:
        raise TreeError(f"{where}: a chance node needs one probability per child")
    vals = [_num(x, f"{where}: probability {k}") for k, x in enumerate(ps)]
    if any(x < 0 for x in vals) or abs(math.fsum(vals) - 1) > PROB_TOL * len(vals):
        raise TreeError(f"{where}: chance probabilities must be >= 0 and sum to 1, got sum {math.fsum(vals):g}")
    return [(x, f"{where}/{k}", q) for k, (q, x) in enumerate(zip(vals, kids))]


def random_sim_tree(depth: int, rows: int, cols: int, *, seed: int | np.random.Generator | None = None,
                    chance: int = 0, correlated: bool = True) -> TreeLists:
    """A uniform random matrix-tree: stages of ``rows x cols`` to *depth*, optional chance
    level of *chance* equally likely outcomes after each stage, leaves uniform on [0, 1] (or,
    with *correlated*, sums of N(0, 1) increments along the path, as in incremental
    random trees; every node then carries its sum so far as a static estimate, which the
    searches use for move ordering as the thesis uses a shallower search).

    Parameters
    ----------
    depth, rows, cols : int
        The shape: stages of ``rows x cols``.
    seed : int or numpy.random.Generator, optional
        The tree is a function of it.
    chance : int
        Equally likely chance outcomes after each stage (0: none).
    correlated : bool
        Leaves as sums of N(0, 1) increments along the path.

    Returns
    -------
    TreeLists
        The matrix-tree (the stage view).

    Examples
    --------
    >>> import kop
    >>> t = kop.random_sim_tree(3, 3, 3, seed=0)
    >>> abs(kop.substructure(t).value - kop.naive(t).value) < 1e-7
    True

    References
    ----------
    R. J. Bodkin, *Extending Computational Game Theory: Simultaneity, Multiple Agents, Chance
    and Metareasoning*, MIT (1992), §3.4.
    """
    depth, rows, cols = (arguments.integer(depth, "depth"), arguments.integer(rows, "rows"),
                         arguments.integer(cols, "cols"))
    chance = arguments.integer(chance, "chance")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    if rows < 1 or cols < 1 or depth < 0 or chance < 0 or (rows * cols * max(chance, 1)) ** depth > 2_000_000:
        raise TreeError("random_sim_tree: rows, cols >= 1, depth >= 0, at most 2,000,000 leaves")
    off: list[int] = []
    kind: list[int] = []
    val: list[float] = []
    prob: list[float] = []
    shape: dict[int, tuple[int, int]] = {}
    level = [(0.0, 0.0)]     # (accumulated value, probability of the edge in)
    nxt = 1
    levels: list[tuple[int, int]] = []
    est: list[float] = []
    for d in range(depth):
        new: list[tuple[float, float]] = []
        for acc, p in level:
            i = len(kind)
            kind.append(SIMULTANEOUS)
            est.append(acc)
            val.append(0.0)
            prob.append(p)
            shape[i] = (rows, cols)
            off.append(nxt)
            inc = rng.normal(0, 1, size=rows * cols) if correlated else np.zeros(rows * cols)
            nxt += rows * cols
            new += [(acc + float(x), 0.0) for x in inc]
        level = new
        levels.append((rows, cols))
        if chance:
            new = []
            for acc, p in level:
                kind.append(CHANCE)
                est.append(acc)
                val.append(0.0)
                prob.append(p)
                off.append(nxt)
                nxt += chance
                inc = rng.normal(0, 1, size=chance) if correlated else np.zeros(chance)
                new += [(acc + float(x), 1.0 / chance) for x in inc]
            level = new
    for acc, p in level:
        kind.append(LEAF)
        val.append(acc if correlated else float(rng.random()))
        est.append(val[-1])
        prob.append(p)
        off.append(nxt)
    off.append(nxt)
    return TreeLists(off, kind, depth * (2 if chance else 1), val=val, prob=prob, shape=shape,
                     est=est if correlated else None)
