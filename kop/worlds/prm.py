"""prm: payoff-reduction minimaxing (Frank, Basin & Matsubara 1998).

Vector minimaxing after a payoff reduction: in each world w, a leaf's payoff
is lowered to the perfect-information minimax value (in w) of every MIN node
above it.  A MIN node cannot be forced above its minimax value in w, so MAX
stops counting on leaves it could never reach against best defense; this
reduces the non-locality that misleads plain vector minimaxing.

References: I. Frank, D. Basin & H. Matsubara, *Finding Optimal Strategies
for Imperfect Information Games*, AAAI-98; I. Frank & D. Basin, *Optimal play
against best defence: complexity and heuristics*, Computers and Games 1998,
LNCS 1558.

>>> from kop.worlds.game import WorldsGame
>>> g = WorldsGame.build(("MAX", [("MIN", [[1, 1], [0, 1]]), ("MIN", [[1, 0], [1, 1]])]))
>>> reduced_payoffs(g)[g.leaves()].tolist()
[[0.0, 1.0], [0.0, 1.0], [1.0, 0.0], [1.0, 0.0]]
>>> prm(g).move(g, 0)
1
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kop.worlds.game import LEAF, MIN, WorldsGame
from kop.worlds.mc import minimax_values
from kop.worlds.plan import Plan, as_max, belief_matrix, name
from kop.worlds.vm import vm_choices
from kop.worlds.checks import game_argument

__all__ = ["prm", "prm_choices", "reduced_payoffs"]


def reduced_payoffs(game: WorldsGame) -> np.ndarray:
    """(nodes, worlds) payoffs after the reduction (leaf rows; NaN elsewhere)."""
    mm = minimax_values(game)
    own = game.owner
    # cap[s]: the least minimax value of the MIN nodes on the path to s (inclusive); one level at a time
    own_cap = np.where((own == MIN)[:, None], mm, np.inf)
    cap = own_cap.copy()
    depths = game.node_depths()
    parent = game.parents()
    for d in range(1, game.depth + 1):
        level = np.flatnonzero(depths == d)
        cap[level] = np.fmin(cap[parent[level]], own_cap[level])
    out = np.where(own[:, None] == LEAF, np.fmin(game.payoffs, cap), np.nan)
    out[np.isnan(game.payoffs)] = np.nan
    return out


def prm_choices(game: WorldsGame, beliefs: np.ndarray) -> np.ndarray:
    """(K, nodes) MAX's prm choices for K beliefs."""
    reduced = WorldsGame(game.offsets, game.owner, reduced_payoffs(game), game.worlds, adequate=False)
    return vm_choices(reduced, beliefs)[0]


def prm(game: WorldsGame, belief: Any = None, player: str = "MAX") -> Plan:
    """The payoff-reduction-minimaxing plan of *player* with actual belief *belief*.

    Parameters
    ----------
    game : WorldsGame
        The game.
    belief : set, mask or probability vector, optional
        The player's belief Ω⁰ (default: all worlds).
    player : "MAX" or "MIN"
        Whose plan.

    Returns
    -------
    Plan
        Its moves at every node of *player* (the opponent is omniscient); no ``value``.

    Examples
    --------
    >>> import kop
    >>> g = kop.WorldsGame.build(("MIN", [("MAX", [[1, 1, 1, 0], [0, 0, 1, 1]]),
    ...                                   ("MAX", [[0, 0, 0, 1], [0, 0, 0, 1]])]))
    >>> p = kop.prm(g)
    >>> p.move(g, 1), p.move(g, 2)
    (4, 5)

    References
    ----------
    I. Frank, D. Basin, H. Matsubara, *Finding Optimal Strategies for Imperfect Information Games*,
    AAAI-98; I. Frank, D. Basin, *Optimal play against best defence: complexity and heuristics*,
    Computers and Games 1998, LNCS 1558.
    """
    game_argument(game)
    g = as_max(game, player)
    return Plan("prm", name(player), prm_choices(g, belief_matrix(g, belief))[0])
