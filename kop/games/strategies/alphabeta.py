"""Minimax with alpha-beta pruning (Poole & Mackworth, Figure 14.13), as a strategy.

Gives the same choices and values as :func:`~kop.games.strategies.minimax.minimax`
(first best child by strict comparison; with ``tie="last"`` the children are
searched in reverse order) while visiting fewer nodes.  Chance nodes are
searched with a full window and take the expectation.  The search is
iterative (an explicit stack), so deep trees do not hit Python's recursion
limit.  ``next(n)`` and ``value(n)`` search the subtree of *n* on demand and
cache the answer.

Example
-------
>>> import kop
>>> t = kop.figure2()
>>> s = kop.alphabeta(t, "A")
>>> s.value, s.next().label, s.visited < len(t)
((4, 7), 'R', True)
"""

from __future__ import annotations

import math
from typing import Any

from kop.games.strategies.engine import check_tie
from kop.games.strategies.strategy import TreeStrategy
from kop.games.trees.tree import CHANCE, LEAF, GameTree, Node, NodeRef
from kop.games.trees.checks import tree_argument

__all__ = ["alphabeta", "AlphaBeta"]

_INF = math.inf


class AlphaBeta(TreeStrategy):
    """P's minimax by alpha-beta search; same interface as :class:`~kop.games.strategies.strategy.Strategy`."""

    def __init__(self, tree: GameTree, player: str | None = None, tie: str = "first"):
        tree.require_sequential("alphabeta")
        self.tree = tree
        self.tie = check_tie(tie)
        self._p = tree.player_index(player)
        self.player = tree.players[self._p].name
        self.name = "alphabeta"
        self._sign = tree.players[self._p].sign
        self._cache: dict[int, tuple[int, tuple[float, ...]]] = {}
        #: nodes visited by the search from the root
        self.visited = 0
        self._rows = tree.leaf_rows()
        self._cache[0] = self._search(0)

    def next(self, node: NodeRef | None = None) -> Node | None:
        n = self.tree.node(0 if node is None else node)
        c = self._solve(n.index)[0]
        return None if c < 0 else Node(self.tree, c)

    def value_at(self, node: NodeRef) -> tuple[int | float, ...]:
        """The value of *node*: one number per player (its subtree is searched on demand)."""
        n = self.tree.node(node)
        return self.tree.value_of(self._solve(n.index)[1])

    @property
    def nodes(self) -> int:
        """Nodes the search from the root visited."""
        return self.visited

    def _solve(self, i: int) -> tuple[int, tuple[float, ...]]:
        hit = self._cache.get(i)
        if hit is None:
            hit = self._cache[i] = self._search(i)
        return hit

    def _search(self, start: int) -> tuple[int, tuple[float, ...]]:
        """(best child or -1, value vector) of *start* by a full-window search."""
        tree, p, sign, rows = self.tree, self._p, self._sign, self._rows
        kind, offsets, pay, probs = tree.kind, tree.offsets, tree.payoffs, tree.probs
        reverse = self.tie == "last"
        visited = 1
        if kind[start] == LEAF:
            return -1, tuple(pay[rows[start]])
        # frame: [node, alpha, beta, children, pos, best_u, best_vec, best_child, mode]
        # mode: 1 max, -1 min, 0 chance (best_u/best_vec accumulate the expectation)
        def frame(n: int, alpha: float, beta: float) -> list[Any]:
            lo, hi = int(offsets[n]), int(offsets[n + 1])
            ch = range(hi - 1, lo - 1, -1) if reverse else range(lo, hi)
            k = int(kind[n])
            if k == CHANCE:
                return [n, -_INF, _INF, ch, 0, 0.0, [0.0] * len(tree.players), -1, 0]
            mode = 1 if k == p else -1
            return [n, alpha, beta, ch, 0, -_INF * mode, None, -1, mode]

        stack = [frame(start, -_INF, _INF)]
        result = None  # (u, vec) of the child just finished
        while True:
            f = stack[-1]
            if result is not None:
                u, vec = result
                result = None
                c = f[3][f[4] - 1]
                mode = f[8]
                if mode == 0:
                    assert probs is not None
                    w = float(probs[c])
                    f[5] += w * u
                    f[6] = [a + w * b for a, b in zip(f[6], vec)]
                elif (u > f[5]) if mode == 1 else (u < f[5]):
                    f[5], f[6], f[7] = u, vec, c
                    if mode == 1:
                        f[1] = max(f[1], u)
                    else:
                        f[2] = min(f[2], u)
                if mode != 0 and f[1] >= f[2]:
                    f[4] = len(f[3])  # cut off the remaining children
            if f[4] < len(f[3]):
                c = f[3][f[4]]
                f[4] += 1
                visited += 1
                if kind[c] == LEAF:
                    vec = tuple(pay[rows[c]])
                    result = (sign * vec[p], vec)
                else:
                    stack.append(frame(c, f[1], f[2]))
                continue
            stack.pop()
            vec = tuple(f[6])
            if not stack:
                if start == 0:
                    self.visited = visited
                return f[7], vec
            result = (f[5], vec)


def alphabeta(tree: GameTree, player: str | None = None, *, tie: str = "first") -> AlphaBeta:
    """P's minimax strategy computed by alpha-beta search.

    Parameters
    ----------
    tree : GameTree
    player : str, optional
        Whose minimax, searched with pruning (default: the player at the root).
    tie : {"first", "last"}
        Tie-breaking, as for every strategy (:mod:`kop.games.strategies.engine`).

    Returns
    -------
    AlphaBeta
        The same moves and values as :func:`kop.minimax`, searched with pruning.

    Examples
    --------
    >>> import kop
    >>> t = kop.figure2()
    >>> kop.alphabeta(t, "A").next().label == kop.minimax(t, "A").next().label == "R"
    True

    References
    ----------
    D. Poole, A. Mackworth, *Artificial Intelligence: Foundations of Computational Agents*, §14.3,
    Figure 14.13; D. E. Knuth, R. W. Moore, *An analysis of alpha-beta pruning*, Artificial
    Intelligence 6 (1975).
    """
    tree_argument(tree)
    return AlphaBeta(tree, player, tie)
