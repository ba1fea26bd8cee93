"""What the chance searches share: a list layout in the searching player's sign, the result.

Examples
--------
>>> from kop.games.trees.tree import GameTree
>>> from kop.games.chance.core import ChanceFlat
>>> t = GameTree.from_dict({"format": "kop-tree/1", "players": ["a", "b"], "root": {"chance": [0.25, 0.75],
...     "children": [{"payoff": [4, 0]}, {"payoff": [0, 4]}]}})
>>> f = ChanceFlat.of(t, None, "expectimax")
>>> f.val[1:], f.prob[1:], f.kind[0]
([4.0, 0.0], [0.25, 0.75], 0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from kop.games.errors import StrategyError, TreeError
from kop.games.trees.tree import CHANCE, LEAF, GameTree
from kop.games.trees.checks import tree_argument
from kop.games.nplayer.bounds import BoundsError

__all__ = ["ChanceFlat", "ChanceResult", "MAX", "MIN", "CH", "LF", "REL_TOL", "check_range", "chance_result"]

#: node kinds of the list layout
MAX, MIN, CH, LF = 1, -1, 0, 2
#: the chance searches equal expectimax up to this relative tolerance (float sums in another order)
REL_TOL = 1e-9


@dataclass(frozen=True)
class ChanceFlat:
    """``kind[i]`` is MAX (P moves), MIN (an opponent), CH (chance) or LF; ``val[i]`` is P's
    payoff at a leaf times P's sign (so P always maximizes); ``prob[i]`` the edge probability."""

    off: list[int]
    kind: list[int]
    val: list[float]
    prob: list[float]
    sign: int
    player: int
    height: int

    @classmethod
    def of(cls, tree: GameTree, player: str | None, what: str) -> ChanceFlat:
        tree_argument(tree)
        tree.require_sequential(what)
        P = tree.player_index(player)
        sign = tree.players[P].sign
        k = tree.kind
        kind = np.where(k == LEAF, LF, np.where(k == CHANCE, CH, np.where(k == P, MAX, MIN)))
        val = np.zeros(len(k))
        val[k == LEAF] = sign * tree.payoffs[:, P]
        if not np.all(np.isfinite(val)):
            raise TreeError("payoffs must be finite")
        prob = np.zeros(len(k)) if tree.probs is None else np.nan_to_num(tree.probs)
        return cls(tree.offsets.tolist(), kind.tolist(), val.tolist(), prob.tolist(), sign, P, tree.height)


@dataclass(frozen=True)
class ChanceResult:
    """P's expected payoff under ``*``-minimax, the leaves examined, P's root move (None elsewhere).

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
    >>> r.value, r.move, r.to_dict()["leaves"]
    (4.0, 0, 12)
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
                "leaves": self.leaves, "move": self.move}


def chance_result(tree: GameTree, flat: ChanceFlat, algorithm: str, value: float, leaves: int,
                  root_child: int) -> ChanceResult:
    """The result of a search on *flat* (the layout of *tree*): *value* back in the player's payoff units,
    the move only when the searching player moves at the root.

    >>> import kop
    >>> t = kop.figure2()
    >>> chance_result(t, ChanceFlat.of(t, "A", "expectimax"), "expectimax", 4.0, 12, 1)
    ChanceResult('expectimax', player='A', value=4, leaves=12, move=0)
    """
    move = root_child - flat.off[0] if root_child >= 0 and flat.kind[0] == MAX else None
    return ChanceResult(algorithm, tree.players[flat.player].name, float(flat.sign * value), leaves, move)


def check_range(tree: GameTree, flat: ChanceFlat, bounds: tuple[float, float] | None) -> tuple[float, float]:
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
