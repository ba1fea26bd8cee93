"""opt-bd: the optimal pure strategy against best defense, by enumeration.

Frank & Basin's best-defense model: MIN knows the actual world and MAX's
strategy, MAX knows only his belief set and must commit to a pure strategy.
The value of a MAX strategy is then, in each world, the minimum over the
leaves MIN can steer to; opt-bd checks every MAX strategy and keeps the first
with the largest weighted sum over MAX's belief.  Finding it is NP-complete
(Frank & Basin); this enumeration costs O(N · b^(b^(D/2))), so it is for small
trees (D = 4 in the papers): :data:`MAX_ROWS` bounds the work.

Strategies are enumerated in a fixed order (children in order, the first
child's strategies first), the same order :func:`strategies` lists and
:func:`~kop.worlds.findoptimal.findoptimal` uses.

References: I. Frank & D. Basin, *Optimal play against best defence:
complexity and heuristics*, Computers and Games 1998, LNCS 1558; Jamroga 2001, §2.1.

>>> from kop.worlds.game import WorldsGame
>>> g = WorldsGame.build(("MIN", [("MAX", [[1, 1, 1, 0], [0, 0, 1, 1]]),
...                               ("MAX", [[0, 0, 0, 1], [0, 0, 0, 1]])]))
>>> p = optbd(g)
>>> p.move(g, 1), p.value.tolist()
(4, [0.0, 0.0, 0.0, 1.0])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kop.worlds.errors import LimitError
from kop.worlds.game import LEAF, MAX, WorldsGame
from kop.worlds.plan import Plan, as_max, belief_matrix, name, nan0, pick
from kop.worlds.checks import game_argument

__all__ = ["optbd", "optbd_choices", "strategies", "MAX_ROWS"]

#: the largest number of (strategy x world) entries opt-bd will hold
MAX_ROWS = 50_000_000


def _sets(game: WorldsGame, limit: int = MAX_ROWS) -> tuple[np.ndarray, np.ndarray]:
    """Every MAX strategy's choices (S, nodes) and best-defense vectors (S, worlds)."""
    n, m = game.n_worlds, game.size
    off, own = game.offsets, game.owner
    vals: list[Any] = [None] * m
    chs: list[Any] = [None] * m
    for s in range(m - 1, -1, -1):
        if own[s] == LEAF:
            vals[s] = game.payoffs[s][None, :]
            chs[s] = np.full((1, m), -1, dtype=np.int64)
            continue
        kids = list(range(off[s], off[s + 1]))
        if own[s] == MAX:
            parts_v, parts_c = [], []
            for j, c in enumerate(kids):
                cc = chs[c].copy()
                cc[:, s] = j
                parts_v.append(vals[c])
                parts_c.append(cc)
            v, ch = np.concatenate(parts_v), np.concatenate(parts_c)
        else:
            v, ch = vals[kids[0]], chs[kids[0]]
            for c in kids[1:]:
                rows = len(v) * len(vals[c])
                if rows * n > limit:
                    raise LimitError(f"opt-bd would enumerate {rows} strategies over {n} worlds at node {s}; "
                                     f"the limit is {limit} entries (use a smaller tree)")
                v = np.fmin(v[:, None, :], vals[c][None, :, :]).reshape(rows, n)
                ch = np.maximum(ch[:, None, :], chs[c][None, :, :]).reshape(rows, m)
        vals[s], chs[s] = v, ch
        for c in kids:
            vals[c] = chs[c] = None
    return chs[0], vals[0]


def strategies(game: WorldsGame, player: str = "MAX") -> np.ndarray:
    """(S, nodes) every pure strategy of *player* (moves at the nodes it can reach), in opt-bd's order.

    >>> from kop.worlds.game import WorldsGame
    >>> g = WorldsGame.build(("MAX", [("MIN", [[1], [0]]), [1]]))
    >>> strategies(g).tolist()
    [[0, -1, -1, -1, -1], [1, -1, -1, -1, -1]]
    """
    return _sets(as_max(game, player))[0]


def optbd_choices(game: WorldsGame, beliefs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """MAX's opt-bd choices (K, nodes) and best-defense vectors (K, worlds) for K beliefs."""
    ch, vals = _sets(game)
    best = pick(beliefs @ nan0(vals).T, True)
    return ch[best], vals[best]


def optbd(game: WorldsGame, belief: Any = None, player: str = "MAX") -> Plan:
    """The optimal plan of *player* against best defense, with actual belief *belief*.

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
        ``value`` is the plan's best-defense vector (MAX's payoff per world).

    Examples
    --------
    >>> import kop
    >>> g = kop.WorldsGame.build(("MIN", [("MAX", [[1, 1, 1, 0], [0, 0, 1, 1]]),
    ...                                   ("MAX", [[0, 0, 0, 1], [0, 0, 0, 1]])]))
    >>> p = kop.optbd(g)
    >>> p.move(g, 1), p.value.tolist()
    (4, [0.0, 0.0, 0.0, 1.0])

    References
    ----------
    I. Frank, D. Basin, *Optimal play against best defence: complexity and heuristics*, Computers
    and Games 1998, LNCS 1558; W. Jamroga, *A Defense Model for Games with Incomplete Information*,
    KI 2001, LNAI 2174, §2.1.
    """
    game_argument(game)
    g = as_max(game, player)
    ch, vals = optbd_choices(g, belief_matrix(g, belief))
    return Plan("opt-bd", name(player), ch[0], vals[0] if g is game else -vals[0])
