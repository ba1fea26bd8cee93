"""Any game tree as an implicit game (:class:`TreeGame`): search a :class:`~kop.games.trees.tree.GameTree`
move by move, as agents and matches do.

Examples
--------
>>> import kop
>>> g = TreeGame(kop.figure2())
>>> g.move_name(0, 2), g.to_move(g.apply(0, 2))
('T', 1)
"""

from __future__ import annotations

from kop.games.errors import GameError
from kop.games.search.implicit import ImplicitGame
from kop.games.trees.checks import tree_argument
from kop.games.trees.tree import LEAF, GameTree

__all__ = ["TreeGame"]


class TreeGame(ImplicitGame):
    """Any :class:`~kop.games.trees.tree.GameTree` as an implicit game; states are node indices.

    Moves are child ranks (0, 1, ...), named by the move label, else the node
    label, else the rank.  Payoffs are the leaves' payoff vectors.

    Parameters
    ----------
    tree : GameTree
        The game tree.

    Examples
    --------
    >>> from kop.games.trees.tree import GameTree
    >>> g = TreeGame(GameTree.build(["A", "B"], ("A", [(1, 2), ("B", [(3, 4), (5, 6)], "X")])))
    >>> s = g.apply(g.initial_state(), 1)
    >>> g.to_move(s), g.legal_moves(s), g.payoffs(g.apply(s, 1))
    (1, [0, 1], (5, 6))
    """

    def __init__(self, tree: GameTree):
        tree = tree_argument(tree)
        tree.require_sequential("a game played move by move (kop match, kop.Match, agents)")
        self.tree = tree
        self.players = tree.players
        self._rows = tree.leaf_rows()

    def initial_state(self) -> int:
        return 0

    def to_move(self, state: int) -> int:
        return int(self.tree.kind[state])

    def legal_moves(self, state: int) -> list[int]:
        return list(range(int(self.tree.offsets[state + 1]) - int(self.tree.offsets[state])))

    def chance_outcomes(self, state: int) -> list[tuple[int, float]]:
        lo = int(self.tree.offsets[state])
        assert self.tree.probs is not None
        return [(r, float(self.tree.probs[lo + r])) for r in self.legal_moves(state)]

    def apply(self, state: int, move: int) -> int:
        n = int(self.tree.offsets[state + 1]) - int(self.tree.offsets[state])
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < n:
            raise GameError(f"move {move!r} is not legal at node {self.tree.path_name(state)} "
                            f"(it has {n} children)")
        return int(self.tree.offsets[state]) + move

    def is_terminal(self, state: int) -> bool:
        return int(self.tree.kind[state]) == LEAF

    def payoffs(self, state: int) -> tuple[float, ...]:
        return self.tree.value_of(self.tree.payoffs[self._rows[state]])

    def move_name(self, state: int, move: int) -> str:
        child = self.tree.node(int(self.tree.offsets[state]) + move)
        return str(child.step)

    def key(self, state: int) -> int:
        return state

    def __repr__(self) -> str:
        return f"TreeGame({self.tree!r})"
