"""Best-case trees of Bodkin §4.3: where Branch-and-Bound examines f(n) = f(n-1) + (b-1) f(n-2) leaves.

A uniform tree with branching b and depth n, players moving in turn (never twice in a
row), payoffs in [0, 1] summing to at most M = 1, best-ordered.  Nodes are of three types:
the root and the first child of a type-1 or type-2 node are type 1 (all children searched);
the other children of a type-1 node are type 2 (only the first child searched: the mover
takes nearly everything, a shallow cutoff); the other children of a type-2 node are type 3
(never searched).  The leaf count solves ``f(0) = 1, f(1) = b,
f(n) = f(n-1) + (b-1) f(n-2)``, so the branching factor tends to ``1/2 + sqrt(b - 3/4)``
(against sqrt(b) for alpha-beta).

Example
-------
>>> from kop.games.nplayer.best_case import best_case_tree, best_case_leaves
>>> from kop.games.nplayer.bnb import bnb
>>> [best_case_leaves(2, n) for n in range(7)]
[1, 2, 3, 5, 8, 13, 21]
>>> t = best_case_tree(3, 2, 6)
>>> bnb(t, {"low": 0, "high": 1, "m": 0, "M": 1}).leaves
21
"""

from __future__ import annotations

import math
from typing import Any

from kop.syntax import arguments
from kop.games.errors import TreeError
from kop.games.trees.tree import GameTree, Player

__all__ = ["best_case_tree", "best_case_leaves", "best_case_branching"]


def best_case_leaves(branching: int, depth: int) -> int:
    """f(depth) for branching b: ``f(0) = 1, f(1) = b, f(n) = f(n-1) + (b-1) f(n-2)``."""
    f0, f1 = 1, branching
    if depth == 0:
        return 1
    for _ in range(depth - 1):
        f0, f1 = f1, f1 + (branching - 1) * f0
    return f1


def best_case_branching(branching: int) -> float:
    """The limit of f(n)^(1/n): ``1/2 + sqrt(b - 3/4)``."""
    return 0.5 + math.sqrt(branching - 0.75)


def best_case_tree(n_players: int, branching: int, depth: int) -> GameTree:
    """A best-ordered tree on which Branch-and-Bound examines exactly f(depth) leaves.

    Parameters
    ----------
    n_players, branching, depth : int
        The tree's shape.

    Returns
    -------
    GameTree
        The best-ordered tree.

    Examples
    --------
    >>> import kop
    >>> t = kop.best_case_tree(3, 2, 6)
    >>> kop.bnb(t, {"low": 0, "high": 1, "m": 0, "M": 1}).leaves       # f(6) = 21 of 64
    21

    References
    ----------
    R. J. Bodkin, *Extending Computational Game Theory: Simultaneity, Multiple Agents, Chance
    and Metareasoning*, MIT (1992), §4.3.
    """
    n_players = arguments.integer(n_players, "n_players")
    branching = arguments.integer(branching, "branching")
    depth = arguments.integer(depth, "depth")
    if n_players < 2 or branching < 1 or depth < 0:
        raise TreeError("need n_players >= 2, branching >= 1, depth >= 0")
    if depth > 12 or branching ** depth > 2_000_000:
        raise TreeError("best_case_tree: depth <= 12 and at most 2,000,000 leaves")
    N = n_players
    names = [str(i + 1) for i in range(N)]
    zero = tuple([0.0] * N)

    def grab(k: int, level: int) -> tuple[float, ...]:
        # the mover k takes nearly everything; the others share a little, less at each level
        d = float(N) ** -(level + 2)
        return tuple(1.0 - (N - 1) * d if i == k else d for i in range(N))

    def build(level: int, kind: int, value: tuple[float, ...]) -> Any:
        if level == depth:
            return value if kind != 3 else zero
        mover = level % N
        if kind == 3:
            return (names[mover], [build(level + 1, 3, zero) for _ in range(branching)])
        children = [build(level + 1, 1, value)]
        for _ in range(branching - 1):
            if kind == 1:
                nxt = (level + 1) % N
                children.append(build(level + 1, 2, grab(nxt, level + 1)))
            else:
                children.append(build(level + 1, 3, zero))
        return (names[mover], children)

    root = build(0, 1, tuple([1.0 / N] * N))
    return GameTree.build([Player(n, "max") for n in names], root)
