"""The opponent behaviours a player's knowledge allows, and K-dominance checked by playing them.

From P's point of view, the opponent Q is selfish and informed (Definitions 5
and 7): at every node the knowledge *decides*, Q makes the agreed (M^h) move;
at every other Q node P cannot predict Q, so any move is possible.  A strategy
S *K-dominates* S' for P (Definition 8) when, for every allowed behaviour of
Q, ``play(S, Q).P >= play(S', Q).P`` by P's goal.

The enumeration branches only at undecided Q nodes that one of the plays
actually reaches, so it is exact and small on the paper's trees; it stops
with :class:`~kop.errors.LimitError` past ``limit`` behaviours.

Reference: Sang & Chen, *Beyond Minimax*, Definitions 5-8.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING
from dataclasses import dataclass

import numpy as np

from kop.games.trees.tree import CHANCE, LEAF, GameTree
from kop.errors import LimitError

if TYPE_CHECKING:  # pragma: no cover
    from kop.games.strategies.strategy import Strategy

__all__ = ["Behaviours", "outcomes_against_allowed", "DEFAULT_LIMIT"]

#: the most opponent behaviours enumerated before giving up
DEFAULT_LIMIT = 100_000


@dataclass(frozen=True)
class Behaviours:
    """What P's knowledge allows the opponent to do: fixed moves at decided nodes, free elsewhere."""

    tree: GameTree
    opponent: str
    fixed: dict[int, int]  # node index -> child index the opponent is known to take

    def is_free(self, i: int) -> bool:
        t = self.tree
        return t.node(i).player == self.opponent and i not in self.fixed


def outcomes_against_allowed(behaviours: Behaviours, strategies: Sequence[Strategy], player: str,
                             limit: int = DEFAULT_LIMIT) -> np.ndarray:
    """Play every strategy of *player* against every allowed opponent behaviour.

    Returns an array of shape ``(behaviours, len(strategies), players)``: row k
    holds the outcomes of all the strategies against the same k-th behaviour.
    At a chance node the outcome is the expectation over its children (the
    probabilities are part of the game).

    >>> import kop
    >>> t = kop.GameTree.build(["A", "B"], ("A", [("B", [(1, 0), (5, 0)]), (0, 0)]))
    >>> outcomes_against_allowed(Behaviours(t, "B", {}), [kop.mh(t)], "A")[:, 0, 0].tolist()
    [1.0, 5.0]
    """
    tree = behaviours.tree
    nexts = [s.next_array for s in strategies]
    kind, offsets = tree.kind, tree.offsets
    probs = tree.probs
    payoffs = np.asarray(tree.payoffs, dtype=float)
    rows_of = tree.leaf_rows()
    me = tree.player_index(player)
    rows: list[np.ndarray] = []
    choice: dict[int, int] = {}

    class _Branch(Exception):
        def __init__(self, node: int):
            self.node = node

    def value(nx: np.ndarray, i: int) -> np.ndarray:
        k = int(kind[i])
        if k == LEAF:
            row: np.ndarray = payoffs[rows_of[i]]
            return row
        if k == CHANCE:
            assert probs is not None
            return sum((float(probs[c]) * value(nx, c) for c in range(int(offsets[i]), int(offsets[i + 1]))),
                       np.zeros(payoffs.shape[1]))
        if k == me:
            return value(nx, int(nx[i]))
        if i in behaviours.fixed:
            return value(nx, behaviours.fixed[i])
        if i in choice:
            return value(nx, choice[i])
        if int(offsets[i + 1]) - int(offsets[i]) == 1:
            return value(nx, int(offsets[i]))
        raise _Branch(i)

    def walk() -> None:
        # follow every strategy from the root, under the current partial choice; branch on the first
        # undecided opponent node not chosen yet
        try:
            ends = [value(nx, 0) for nx in nexts]
        except _Branch as b:
            for c in range(int(offsets[b.node]), int(offsets[b.node + 1])):
                choice[b.node] = c
                walk()
            del choice[b.node]
            return
        rows.append(np.array(ends))
        if len(rows) > limit:
            raise LimitError(f"more than {limit} opponent behaviours to check")

    walk()
    return np.array(rows, dtype=float)
