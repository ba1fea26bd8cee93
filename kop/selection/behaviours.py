"""The opponent behaviours a player's knowledge allows, and K-dominance checked by playing them.

From P's point of view, the opponent Q is selfish and informed (Definitions 5
and 7): at every node the knowledge *decides*, Q makes the agreed (M^h) move;
at every other Q node P cannot predict Q, so any move is possible.  A strategy
S *K-dominates* S' for P (Definition 8) when, for every allowed behaviour of
Q, ``play(S, Q).P >= play(S', Q).P`` by P's goal.

The enumeration branches only at undecided Q nodes that one of the plays
actually reaches, so it is exact and small on the paper's trees; it stops
with :class:`~kop.syntax.errors.LimitError` past ``limit`` behaviours.

Reference: Sang & Chen, *Beyond Minimax*, Definitions 5-8.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kop.games.tree import GameTree
from kop.syntax.errors import LimitError

__all__ = ["Behaviours", "outcomes_against_allowed", "DEFAULT_LIMIT"]

#: the most opponent behaviours enumerated before giving up
DEFAULT_LIMIT = 100_000


@dataclass(frozen=True)
class Behaviours:
    """What P's knowledge allows the opponent to do: fixed moves at decided nodes, free elsewhere."""

    tree: GameTree
    opponent: str
    fixed: dict  # node index -> child index the opponent is known to take

    def is_free(self, i: int) -> bool:
        t = self.tree
        return t.node(i).player == self.opponent and i not in self.fixed


def outcomes_against_allowed(behaviours: Behaviours, strategies: Sequence, player: str,
                             limit: int = DEFAULT_LIMIT) -> np.ndarray:
    """Play every strategy of *player* against every allowed opponent behaviour.

    Returns an array of shape ``(behaviours, len(strategies), players)``: row k
    holds the outcomes of all the strategies against the same k-th behaviour.
    """
    tree = behaviours.tree
    nexts = [s.next_array for s in strategies]
    rows: list[list[tuple[int | float, ...] | None]] = []
    choice: dict[int, int] = {}

    def walk() -> None:
        # follow every strategy from the root, under the current partial choice
        ends = []
        for nx in nexts:
            i = 0
            while True:
                n = tree.node(i)
                if n.is_leaf:
                    ends.append(n.payoff)
                    break
                if n.player == player:
                    i = int(nx[i])
                elif i in behaviours.fixed:
                    i = behaviours.fixed[i]
                elif i in choice:
                    i = choice[i]
                else:  # an undecided opponent node not chosen yet: branch on it
                    for c in n.children:
                        choice[i] = c.index
                        walk()
                    del choice[i]
                    return
        rows.append(ends)
        if len(rows) > limit:
            raise LimitError(f"more than {limit} opponent behaviours to check")

    walk()
    return np.array(rows, dtype=float)
