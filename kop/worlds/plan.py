"""Plans (pure strategies in a possible-worlds game) and the sweeps the algorithms share.

A :class:`Plan` is what an algorithm returns: the move it makes at each of its
player's nodes (``choices[s]``, the position of the chosen child; -1 at the
other nodes and at nodes the plan never reaches), its evaluation vector of the
root over Ω where it has one, and, for :func:`~kop.worlds.findoptimal.findoptimal`,
whether the plan is an OPTIMUM or a BOUND.

:func:`outcome` plays a MAX plan against a MIN plan; :func:`expected` averages
MAX's payoff over a set of worlds.

>>> from kop.worlds.game import WorldsGame
>>> from kop.worlds.mc import mc
>>> g = WorldsGame.build(("MAX", [("MIN", [[1, 0], [1, 1]]), ("MIN", [[0, 1], [1, 1]])]))
>>> p = mc(g)
>>> p
Plan(mc, MAX, root -> 0)
>>> q = mc(g, player="MIN")
>>> outcome(g, p, q), expected(g, p, q)
(3, 0.5)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kop.worlds.errors import WorldsError
from kop.worlds.game import LEAF, MAX, WorldsGame, player_code, weights

__all__ = ["Plan", "outcome", "expected", "pick", "nan0", "belief_matrix"]


@dataclass(frozen=True, eq=False)
class Plan:
    """A player's pure strategy in a possible-worlds game, as an algorithm chose it.

    Attributes
    ----------
    algorithm : str
        The algorithm that chose it (``"mc"``, ``"vm"``, ``"gvm"``, ...).
    player : str
        ``"MAX"`` or ``"MIN"``.
    choices : numpy.ndarray
        Per node, the position of the chosen child at the player's nodes (-1 at the other nodes
    and at nodes the plan never reaches); :meth:`move` gives the child node.
    value : numpy.ndarray or None
        The root's evaluation vector over the worlds, when the algorithm computes one.
    status : str or None
        ``"OPTIMUM"`` or ``"BOUND"`` for :func:`kop.findoptimal`.

    Examples
    --------
    >>> import kop
    >>> g = kop.WorldsGame.build(("MAX", [("MIN", [[1, 0], [1, 1]]), ("MIN", [[0, 1], [1, 1]])]))
    >>> p = kop.mc(g)
    >>> p, p.move(g, 0), p.player
    (Plan(mc, MAX, root -> 0), 1, 'MAX')
    """

    algorithm: str
    player: str
    choices: np.ndarray
    value: np.ndarray | None = field(default=None, repr=False)
    status: str | None = None

    def move(self, game: WorldsGame, node: int) -> int:
        """The child node the plan moves to at *node*."""
        c = int(self.choices[node])
        if c < 0 or game.owner[node] != player_code(self.player):
            raise WorldsError(f"the {self.algorithm} plan of {self.player} has no move at node {node}")
        return int(game.offsets[node]) + c

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Plan):
            return NotImplemented
        return self.player == other.player and np.array_equal(self.choices, other.choices)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        extra = f", {self.status}" if self.status else ""
        root = int(self.choices[0]) if len(self.choices) else -1
        first = f"root -> {root}" if root >= 0 else "opponent first"
        return f"Plan({self.algorithm}, {self.player}, {first}{extra})"


def nan0(a: np.ndarray) -> np.ndarray:
    """NaN (undefined payoff) counts as nothing in a sum (Jamroga §3.4: a + undef = a)."""
    return np.where(np.isnan(a), 0.0, a)


def pick(scores: np.ndarray, maximize: bool) -> np.ndarray:
    """The first best column per row (ties: the first child wins); NaN scores never win."""
    s = scores if maximize else -scores
    s = np.where(np.isnan(s), -np.inf, s)
    best: np.ndarray = np.argmax(s, axis=-1)
    return best


def belief_matrix(game: WorldsGame, beliefs: Any) -> np.ndarray:
    """One belief (set, mask or probabilities) or a K x N array of weights, as a K x N array."""
    n = game.n_worlds
    if isinstance(beliefs, np.ndarray) and beliefs.ndim == 2:
        if beliefs.shape[1] != n:
            raise WorldsError(f"belief rows need one weight per world ({n}), got shape {beliefs.shape}")
        return beliefs.astype(np.float64)
    return weights(beliefs, n).reshape(1, n)


def scores_with_legality(game: WorldsGame, w: np.ndarray, ec: np.ndarray) -> np.ndarray:
    """K x C weighted sums; a child undefined in every world of a belief gets NaN (illegal)."""
    sc: np.ndarray = w @ nan0(ec).T
    if game_has_undefined(game):
        legal = (w > 0).astype(np.float64) @ (~np.isnan(ec)).astype(np.float64).T
        sc = np.where(legal > 0, sc, np.nan)
    return sc


def game_has_undefined(game: WorldsGame) -> bool:
    """True when some leaf's payoff is undefined in some world."""
    return game.partial


def outcome(game: WorldsGame, max_plan: Plan | np.ndarray, min_plan: Plan | np.ndarray) -> int:
    """The leaf reached when MAX follows *max_plan* and MIN *min_plan*."""
    cmax = max_plan.choices if isinstance(max_plan, Plan) else max_plan
    cmin = min_plan.choices if isinstance(min_plan, Plan) else min_plan
    s = 0
    while game.owner[s] != LEAF:
        c = int((cmax if game.owner[s] == MAX else cmin)[s])
        if c < 0:
            who = "MAX" if game.owner[s] == MAX else "MIN"
            raise WorldsError(f"the {who} plan has no move at node {s}")
        s = int(game.offsets[s]) + c
    return s


def expected(game: WorldsGame, max_plan: Plan | np.ndarray, min_plan: Plan | np.ndarray,
             worlds: Any = None) -> float:
    """MAX's expected payoff over *worlds* (a set, mask or probabilities; default all of Ω).

    A set counts its worlds equally; undefined payoffs are left out.
    """
    w = weights(worlds, game.n_worlds)
    pay = game.payoffs[outcome(game, max_plan, min_plan)]
    ok = ~np.isnan(pay) & (w > 0)
    if not ok.any():
        raise WorldsError("the outcome's payoff is undefined in every world of the set")
    return float((w[ok] * pay[ok]).sum() / w[ok].sum())


def as_max(game: WorldsGame, player: str | int) -> WorldsGame:
    """The game in which *player* is MAX (the mirror for MIN)."""
    return game if player_code(player) == MAX else game.mirrored()


def name(player: str | int) -> str:
    return "MAX" if player_code(player) == MAX else "MIN"
