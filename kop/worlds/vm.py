"""vm: vector minimaxing (Frank, Basin & Matsubara 1998).

Each node gets a vector of MAX's payoffs over the worlds.  At a MIN node the
vector is the componentwise minimum of the children's (MIN knows the actual
world and answers in each world separately: the "best defense" of Frank &
Basin); at a MAX node MAX picks the child whose vector has the largest
weighted sum over his belief Ω⁰_MAX and passes that vector up.

With ``min_beliefs`` MIN is not omniscient: in world w MIN picks the child
with the smallest sum over Ω_MIN(w), and the MIN node's value at w is that
child's value at w.  This is :func:`~kop.worlds.gvm.gvm` with Ω_MAX(w) = Ω⁰_MAX
(the opponent knows MAX's belief; Jamroga 2001, §3.1).

References: I. Frank, D. Basin & H. Matsubara, *Finding Optimal Strategies
for Imperfect Information Games*, AAAI-98; I. Frank & D. Basin, *Search in
games with incomplete information: a case study using Bridge card play*,
Artificial Intelligence 100 (1998).

>>> from kop.worlds.game import WorldsGame
>>> g = WorldsGame.build(("MAX", [("MIN", [[1, 0], [1, 1]]), ("MIN", [[0, 1], [1, 1]])]))
>>> p = vm(g)
>>> p.value.tolist(), p.move(g, 0)
([1.0, 0.0], 1)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kop.worlds.game import LEAF, MAX, Beliefs, WorldsGame
from kop.worlds.plan import Plan, as_max, belief_matrix, name, nan0, pick
from kop.worlds.checks import game_argument

__all__ = ["vm", "vm_choices"]


def vm_choices(game: WorldsGame, beliefs: np.ndarray, min_beliefs: Beliefs | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
    """MAX's vm choices for K beliefs at once: ((K, nodes) choices, (K, worlds) root vectors)."""
    k, n = beliefs.shape
    off, own = game.offsets, game.owner
    vec: list[np.ndarray | None] = [None] * game.size
    out = np.full((k, game.size), -1, dtype=np.int64)
    partial = bool(np.isnan(game.payoffs[own == LEAF]).any())
    support = (beliefs > 0).astype(np.float64)
    for s in range(game.size - 1, -1, -1):
        if own[s] == LEAF:
            vec[s] = np.broadcast_to(game.payoffs[s], (k, n))
            continue
        kids = np.stack([vec[c] for c in range(off[s], off[s + 1])])  # type: ignore[misc]  # (C, K, N)
        for c in range(off[s], off[s + 1]):
            vec[c] = None
        if own[s] == MAX:
            sc = np.einsum("kn,ckn->kc", beliefs, nan0(kids))
            if partial:
                legal = np.einsum("kn,ckn->kc", support, (~np.isnan(kids)).astype(np.float64))
                sc = np.where(legal > 0, sc, np.nan)
            ch = pick(sc, True)
            out[:, s] = ch
            vec[s] = kids[ch, np.arange(k)]
        elif min_beliefs is None:
            vec[s] = np.fmin.reduce(kids, axis=0)
        else:
            wm = min_beliefs.state_weights(s)  # (J, N)
            sc = np.einsum("jn,ckn->kjc", wm, nan0(kids))
            ch = pick(sc, False)  # (K, J)
            per_world = ch[:, min_beliefs.state_ids(s)]  # (K, N)
            vec[s] = np.take_along_axis(kids, per_world[None], axis=0)[0]
    root = vec[0]
    assert root is not None
    return out, np.array(root, dtype=np.float64)


def vm(game: WorldsGame, belief: Any = None, player: str = "MAX", min_beliefs: Beliefs | None = None) -> Plan:
    """The vector-minimaxing plan of *player* with actual belief *belief* (default: all worlds).

    Parameters
    ----------
    game : WorldsGame
    belief : set, mask or probability vector, optional
        The player's belief Ω⁰ (the set ``Worlds`` of Frank & Basin).
    player : "MAX" or "MIN"
    min_beliefs : Beliefs, optional
        The opponent's belief function; default: the opponent is omniscient (best defense).

    Returns
    -------
    Plan
        ``value`` is the root's vector (MAX's payoffs per world; for MIN, still MAX's payoffs).

    Examples
    --------
    >>> import kop
    >>> g = kop.WorldsGame.build(("MIN", [("MAX", [[1, 1, 1, 0], [0, 0, 1, 1]]),
    ...                                   ("MAX", [[0, 0, 0, 1], [0, 0, 0, 1]])]))
    >>> p = kop.vm(g)
    >>> p.move(g, 1), p.value.tolist()
    (3, [0.0, 0.0, 0.0, 0.0])

    References
    ----------
    I. Frank, D. Basin, H. Matsubara, *Finding Optimal Strategies for Imperfect Information Games*,
    AAAI-98; I. Frank, D. Basin, *Search in games with incomplete information: a case study using
    Bridge card play*, Artificial Intelligence 100 (1998).
    """
    game_argument(game)
    g = as_max(game, player)
    choices, root = vm_choices(g, belief_matrix(g, belief), min_beliefs)
    return Plan("vm", name(player), choices[0], root[0] if g is game else -root[0])
