"""What the chance searches share: the result, the payoff range the pruning relies on.

The searches run on the signed view of :class:`~kop.games.trees.lists.TreeLists`
(:meth:`~kop.games.trees.lists.TreeLists.signed`): the searching player's payoff times its
sign, so that it maximizes; the nodes where ``kind`` is its index are its own.

Examples
--------
>>> import kop
>>> from kop.games.trees.lists import TreeLists
>>> t = kop.figure2()
>>> check_range(t, TreeLists.signed(t, "B", "star1"), None)
(-12.0, -2.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from kop.games.errors import StrategyError
from kop.games.result import RootMoveResult
from kop.games.trees.lists import TreeLists
from kop.games.trees.tree import LEAF, GameTree
from kop.games.nplayer.bounds import BoundsError

__all__ = ["ChanceResult", "REL_TOL", "check_range", "chance_result"]

#: the chance searches equal expectimax up to this relative tolerance (float sums in another order)
REL_TOL = 1e-9


@dataclass(frozen=True)
class ChanceResult(RootMoveResult):
    """P's expected payoff under ``*``-minimax, the leaves examined, P's root move (None elsewhere).

    ``path`` is ``(move,)`` (or ``()``), ``nodes`` the leaves examined
    (:class:`~kop.games.result.RootMoveResult`).

    Parameters
    ----------
    algorithm, player : str
        The search and the searching player.
    value : float
        P's expected payoff.
    leaves : int
        Leaves examined.
    move : int or None
        P's root move.

    Examples
    --------
    >>> import kop
    >>> r = kop.expectimax(kop.figure2(), "A")
    >>> r.value, r.move, r.to_dict()["leaves"], r.path, r.nodes
    (4.0, 0, 12, (0,), 12)
    """

    algorithm: str
    player: str
    value: float
    leaves: int
    move: int | None

    def __repr__(self) -> str:
        return (f"ChanceResult({self.algorithm!r}, player={self.player!r}, value={self.value:g}, "
                f"leaves={self.leaves}, move={self.move})")

    def to_dict(self) -> dict[str, Any]:
        return {"algorithm": self.algorithm, "player": self.player, "value": self.value,
                "leaves": self.leaves, "move": self.move, "path": list(self.path), "nodes": self.nodes}


def chance_result(tree: GameTree, flat: TreeLists, algorithm: str, value: float, leaves: int,
                  root_child: int) -> ChanceResult:
    """The result of a search on *flat* (the layout of *tree*): *value* back in the player's payoff units,
    the move only when the searching player moves at the root.

    >>> import kop
    >>> t = kop.figure2()
    >>> chance_result(t, TreeLists.signed(t, "A", "expectimax"), "expectimax", 4.0, 12, 1)
    ChanceResult('expectimax', player='A', value=4, leaves=12, move=0)
    """
    move = root_child - flat.off[0] if root_child >= 0 and flat.kind[0] == flat.player else None
    return ChanceResult(algorithm, tree.players[flat.player].name, float(flat.sign * value), leaves, move)


def check_range(tree: GameTree, flat: TreeLists, bounds: tuple[float, float] | None) -> tuple[float, float]:
    """(L, U) in the searching player's sign: declared (checked on every leaf) or inferred."""
    leaves = np.flatnonzero(tree.kind == LEAF)
    vals = np.asarray(flat.val)[leaves]
    name = tree.players[flat.player].name
    if bounds is None:
        return float(vals.min()), float(vals.max())
    lo, hi = (float(bounds[0]), float(bounds[1]))
    if math.isnan(lo) or math.isnan(hi) or lo > hi:
        raise StrategyError(f"payoff bounds must be numbers with L <= U, got ({lo}, {hi})")
    raw = vals * flat.sign
    for test, what in ((raw < lo, f"{name} >= {lo:g} (L)"), (raw > hi, f"{name} <= {hi:g} (U)")):
        if test.any():
            i = int(leaves[int(np.flatnonzero(test)[0])])
            raise BoundsError(f"{tree.path_name(i)}: payoff of {name} {float(raw[int(np.flatnonzero(test)[0])]):g} "
                              f"breaks the declared bound {what}, which the pruning relies on")
    return (lo, hi) if flat.sign > 0 else (-hi, -lo)
