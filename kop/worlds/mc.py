"""MC: Monte Carlo sampling (perfect-information Monte Carlo, PIMC).

MAX solves the game as if each world he considers possible were the actual
one, by minimax with perfect information, and at each of his nodes picks the
move whose per-world minimax values have the largest (weighted) sum over his
belief.  Here every world of the belief is "sampled" (the exhaustive version
the source papers compare); pass a subset to sample.

It is :func:`~kop.worlds.gvm.gvm` with Ω_MIN(w) = Ω_MAX(w) = {w}
(Jamroga 2001, §3.1).

References: Corlett & Todd (1985); Ginsberg, *GIB*, IJCAI-99; Frank, Basin &
Matsubara, *Finding Optimal Strategies for Imperfect Information Games*,
AAAI-98 (as the baseline "Monte-carlo sampling").

>>> from kop.worlds.game import WorldsGame
>>> g = WorldsGame.build(("MAX", [("MIN", [[1, 0], [1, 1]]), ("MIN", [[0, 1], [1, 1]])]))
>>> minimax_values(g)[0].tolist()
[1.0, 1.0]
>>> mc(g, belief={1}).move(g, 0)
2
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kop.worlds.game import LEAF, MAX, WorldsGame
from kop.worlds.plan import Plan, as_max, belief_matrix, name, pick, scores_with_legality
from kop.worlds.checks import game_argument

__all__ = ["mc", "minimax_values", "mc_choices"]


def minimax_values(game: WorldsGame) -> np.ndarray:
    """(nodes, worlds): each node's minimax value in each world, with perfect information.

    Undefined payoffs are ignored by max and min (max(a, undef) = a).
    """
    val = game.payoffs.copy()
    off, own = game.offsets, game.owner
    for s in range(game.size - 1, -1, -1):
        if own[s] != LEAF:
            kids = val[off[s]:off[s + 1]]
            val[s] = np.fmax.reduce(kids, axis=0) if own[s] == MAX else np.fmin.reduce(kids, axis=0)
    return val


def mc_choices(game: WorldsGame, beliefs: np.ndarray) -> np.ndarray:
    """(K, nodes) MAX's MC choices for each of K beliefs (rows of weights); -1 at MIN nodes and leaves."""
    val = minimax_values(game)
    out = np.full((len(beliefs), game.size), -1, dtype=np.int64)
    off = game.offsets
    for s in np.flatnonzero(game.owner == MAX):
        out[:, s] = pick(scores_with_legality(game, beliefs, val[off[s]:off[s + 1]]), True)
    return out


def mc(game: WorldsGame, belief: Any = None, player: str = "MAX") -> Plan:
    """The MC plan of *player* who considers *belief* possible (default: all worlds).

    Parameters
    ----------
    game : WorldsGame
    belief : set of world indices, boolean mask or probability vector, optional
        The player's actual belief Ω⁰ (MAX's, or MIN's when ``player="MIN"``).
    player : "MAX" or "MIN"

    Returns
    -------
    Plan
        Its moves at every node of *player*; ``value`` is the per-world minimax vector of the root.

    Examples
    --------
    >>> import kop
    >>> g = kop.WorldsGame.build(("MIN", [("MAX", [[1, 1, 1, 0], [0, 0, 1, 1]]),
    ...                                   ("MAX", [[0, 0, 0, 1], [0, 0, 0, 1]])]))
    >>> p = kop.mc(g)
    >>> p, p.move(g, 1), p.value.tolist()
    (Plan(mc, MAX, opponent first), 3, [0.0, 0.0, 0.0, 1.0])

    References
    ----------
    I. Frank, D. Basin, H. Matsubara, *Finding Optimal Strategies for Imperfect Information Games*,
    AAAI-98; W. Jamroga, *A Defense Model for Games with Incomplete Information*, KI 2001, LNAI
    2174, §3.1.
    """
    game_argument(game)
    g = as_max(game, player)
    w = belief_matrix(g, belief)
    choices = mc_choices(g, w)[0]
    value = minimax_values(game)[0]
    return Plan("mc", name(player), choices, value)
