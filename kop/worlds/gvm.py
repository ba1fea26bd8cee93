"""gvm: generalized vector minimaxing (Jamroga 2001, Figs. 6 and 10).

The "reasonably good defense" model: the opponent plays his best *given what
he actually knows*.  The player looks, for every world w, at the belief the
opponent would hold in w (Ω_MIN(w), or a probability over belief states,
Bel_MIN) and simulates the opponent's own vector minimaxing under it; the
opponent in turn models the player through Ω_MAX.  The player then picks the
move with the highest expected value over his actual belief Ω⁰_MAX.

In one sweep from the leaves, every node s gets the value vector
``val[s][w]``: the value of s when the player moving at s, in world w, holds
his belief there (Ω_P(s, w), or a mixture over belief states).  The mover's
choice at s under a belief b is the child maximizing (MAX) or minimizing (MIN)
``b · val[child]``; a player's plan uses his actual belief.

Special cases (tested): Ω_MAX(w) = Ω⁰_MAX gives vector minimaxing
(:func:`~kop.worlds.vm.vm` with MIN's beliefs), and with Ω_MIN(w) = {w} the
vm of Frank & Basin; Ω_MIN(w) = Ω_MAX(w) = {w} gives Monte Carlo
(:func:`~kop.worlds.mc.mc`).  Being a forward-looking (compositional)
algorithm it suffers from non-locality (§3.1, Fig. 3).

Where a player moves twice in a row, his future self is modelled like any
mover: by his belief function at that node.

Reference: W. Jamroga, *A Defense Model for Games with Incomplete
Information*, KI 2001, LNAI 2174, Figs. 6 and 10.

>>> from kop.worlds.game import WorldsGame, Beliefs
>>> g = WorldsGame.build(("MAX", [("MIN", [[1, 0, 1, 0], [0, 1, 1, 1]]),
...                               ("MIN", [[1, 1, 0, 0], [0, 0, 1, 1]])]),
...     min_beliefs=Beliefs.partition([0, 0, 1, 1]))
>>> p = gvm(g)
>>> p.move(g, 0), p.value.tolist()
(1, [1.0, 0.0, 1.0, 0.0])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kop.worlds.game import LEAF, MAX, Beliefs, WorldsGame, player_code
from kop.worlds.plan import Plan, belief_matrix, name, nan0, pick, scores_with_legality
from kop.worlds.checks import game_argument

__all__ = ["gvm", "gvm_values", "gvm_choices", "GvmSweep"]


class GvmSweep:
    """The result of one gvm sweep: per node, the value vector and each belief state's choice.

    Attributes
    ----------
    values : (nodes, worlds) array
        ``val[s]`` as in the module docstring (the leaves' payoffs at leaves).
    state_choices : list of arrays
        At an internal node, the chosen child position for each belief state of its mover.
    """

    __slots__ = ("game", "values", "state_choices")

    def __init__(self, game: WorldsGame, values: np.ndarray, state_choices: list[np.ndarray | None]):
        self.game = game
        self.values = values
        self.state_choices = state_choices

    def choose(self, node: int, belief: np.ndarray) -> np.ndarray:
        """The mover's chosen child position at *node* for K beliefs (K x N weights)."""
        g = self.game
        kids = self.values[g.offsets[node]:g.offsets[node + 1]]
        return pick(scores_with_legality(g, belief, kids), g.owner[node] == MAX)

    def plan_choices(self, player: int, beliefs: np.ndarray) -> np.ndarray:
        """(K, nodes) the choices at *player*'s nodes for K fixed actual beliefs."""
        g = self.game
        out = np.full((len(beliefs), g.size), -1, dtype=np.int64)
        for s in np.flatnonzero(g.owner == player):
            out[:, s] = self.choose(int(s), beliefs)
        return out


def _state_scores(bel: Beliefs, s: int, kids: np.ndarray, partial: bool) -> np.ndarray:
    """(K, C) each belief state's weighted sum of each child's value."""
    clean = nan0(kids)
    if bel.states is None and not partial:  # a partition: sums per block
        ids = bel.state_ids(s)
        k = int(ids.max()) + 1
        w = clean if bel.prior is None else clean * bel.prior
        return np.stack([np.bincount(ids, weights=row, minlength=k) for row in w], axis=1)
    wts = bel.state_weights(s)
    sc: np.ndarray = wts @ clean.T
    if partial:
        legal = (wts > 0).astype(np.float64) @ (~np.isnan(kids)).astype(np.float64).T
        sc = np.where(legal > 0, sc, np.nan)
    return sc


def gvm_values(game: WorldsGame) -> GvmSweep:
    """One gvm sweep over the whole game (both players' belief functions)."""
    n = game.n_worlds
    off, own = game.offsets, game.owner
    val = game.payoffs.copy()
    partial = bool(np.isnan(game.payoffs[own == LEAF]).any())
    state_choices: list[np.ndarray | None] = [None] * game.size
    cols = np.arange(n)
    for s in range(game.size - 1, -1, -1):
        if own[s] == LEAF:
            continue
        kids = val[off[s]:off[s + 1]]  # (C, N)
        bel = game.max_beliefs if own[s] == MAX else game.min_beliefs
        ch = pick(_state_scores(bel, s, kids, partial), own[s] == MAX)  # (K,)
        state_choices[s] = ch
        if bel.model is None:
            val[s] = kids[ch[bel.state_ids(s)], cols]
        else:
            picked = kids[ch]  # (K, N): each state's chosen child's vector
            val[s] = np.einsum("nk,kn->n", bel.model, nan0(picked))
            undefined = np.isnan(picked).all(axis=0)
            val[s][undefined] = np.nan
    return GvmSweep(game, val, state_choices)


def gvm_choices(game: WorldsGame, beliefs: np.ndarray, player: str | int = "MAX") -> np.ndarray:
    """(K, nodes) *player*'s gvm choices for K actual beliefs (rows of weights)."""
    return gvm_values(game).plan_choices(player_code(player), beliefs)


def gvm(game: WorldsGame, belief: Any = None, player: str = "MAX") -> Plan:
    """The gvm plan of *player* with actual belief *belief* (Ω⁰; default all worlds).

    The opponent's beliefs (and his beliefs about the player's) are the game's
    belief functions ``game.min_beliefs`` and ``game.max_beliefs``.

    Parameters
    ----------
    game : WorldsGame
    belief : set, mask or probability vector, optional
        The player's actual belief (Fig. 10's ``belief``).
    player : "MAX" or "MIN"

    Returns
    -------
    Plan
        ``value`` is the root's evaluation vector as the player computes it
        (the chosen child's vector when the player moves first).

    Examples
    --------
    >>> import kop
    >>> g = kop.WorldsGame.build(("MAX", [("MIN", [[1, 0, 1, 0], [0, 1, 1, 1]]),
    ...                                   ("MIN", [[1, 1, 0, 0], [0, 0, 1, 1]])]),
    ...                          min_beliefs=kop.Beliefs.partition([0, 0, 1, 1]))
    >>> p = kop.gvm(g)
    >>> p.move(g, 0), p.value.tolist()
    (1, [1.0, 0.0, 1.0, 0.0])

    References
    ----------
    W. Jamroga, *A Defense Model for Games with Incomplete Information*, KI 2001, LNAI 2174, Figs. 6 and 10.
    """
    game_argument(game)
    code = player_code(player)
    sweep = gvm_values(game)
    w = belief_matrix(game, belief)
    choices = sweep.plan_choices(code, w)[0]
    root = sweep.values[0]
    if game.owner[0] == code:
        root = sweep.values[game.offsets[0] + choices[0]]
    return Plan("gvm", name(player), choices, root)
