"""findoptimal: the optimal plan against reasonably good defense (Jamroga 2001, Fig. 7).

For MAX (MIN is symmetric, by the mirror game):

1. for every MAX strategy ``str``: in each world w of MAX's belief, MIN (who
   knows ``str`` but only believes Ω_MIN(w)) answers with the strategy best
   over Ω_MIN(w); ``eval[str]`` sums MAX's payoffs; ``str_1`` maximizes it
   (the minmax: MIN knows MAX's strategy beforehand, the upper bound of MIN's
   knowledge);
2. for every MIN strategy vector (one MIN strategy per world, equal on worlds
   MIN cannot tell apart): MAX answers in each world v with the strategy best
   over Ω_MAX(v); ``strvect_2`` minimizes the resulting sum (the maxmin);
3. if ``eval[str_1]`` equals what the best reply to ``strvect_2`` gets
   against it, minmax and maxmin meet: **OPTIMUM**; otherwise ``str_1`` is
   only a **BOUND** (a lower bound of what MAX can expect).

With Ω_MIN(w) = {w} and Ω_MAX(w) = Ω⁰_MAX the plan is Frank & Basin's optimal
strategy against best defense (:func:`~kop.worlds.optbd.optbd`; tested).
Cost: O(N² (b^(bD/2))^(N+1)) in the paper's estimate; :data:`LIMIT` bounds the
enumeration and beliefs must not depend on the node.

Reference: W. Jamroga, *A Defense Model for Games with Incomplete
Information*, KI 2001, LNAI 2174, Fig. 7.

>>> from kop.worlds.game import WorldsGame, Beliefs
>>> g = WorldsGame.build(("MIN", [("MAX", [[1, 1, 1, 0], [0, 0, 1, 1]]),
...                               ("MAX", [[0, 0, 0, 1], [0, 0, 0, 1]])]),
...     min_beliefs=Beliefs.omniscient(4))
>>> p = findoptimal(g)
>>> p.move(g, 1), p.status
(4, 'OPTIMUM')
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from kop.worlds.errors import LimitError, WorldsError
from kop.worlds.game import LEAF, MAX, WorldsGame
from kop.worlds.optbd import strategies
from kop.worlds.plan import Plan, as_max, belief_matrix, name, nan0
from kop.worlds.checks import game_argument

__all__ = ["findoptimal", "LIMIT", "OPTIMUM", "BOUND"]

#: the largest number of (strategy vector x strategy x world) entries findoptimal will hold
LIMIT = 20_000_000
OPTIMUM = "OPTIMUM"
BOUND = "BOUND"


def _leaves(game: WorldsGame, smax: np.ndarray, smin: np.ndarray) -> np.ndarray:
    """(S1, S2) the leaf reached by each strategy pair."""
    cur = np.zeros((len(smax), len(smin)), dtype=np.int64)
    i = np.arange(len(smax))[:, None]
    j = np.arange(len(smin))[None, :]
    while True:
        own = game.owner[cur]
        if (own == LEAF).all():
            return cur
        pick = np.where(own == MAX, smax[i, cur], smin[j, cur])
        cur = np.where(own == LEAF, cur, game.offsets[cur] + pick)


def _classes(wmin: np.ndarray) -> np.ndarray:
    """Class per world of the equivalence closure of "v is in Ω_MIN(w)"."""
    n = len(wmin)
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for w in range(n):
        for v in np.flatnonzero(wmin[w] > 0):
            a, b = find(w), find(int(v))
            if a != b:
                parent[max(a, b)] = min(a, b)
    roots = [find(w) for w in range(n)]
    _, cls = np.unique(roots, return_inverse=True)
    return cls.reshape(-1)


def findoptimal(game: WorldsGame, belief: Any = None, player: str = "MAX", limit: int = LIMIT) -> Plan:
    """*player*'s plan against reasonably good defense, marked OPTIMUM or BOUND.

    Parameters
    ----------
    game : WorldsGame
        Its (static) belief functions are Ω_MAX and Ω_MIN.
    belief : set, mask or probability vector, optional
        The player's actual belief (``Worlds``; default all worlds).
    player : "MAX" or "MIN"
    limit : int
        The largest enumeration allowed (a :class:`~kop.LimitError` beyond).

    Returns
    -------
    Plan
        ``status`` is ``"OPTIMUM"`` or ``"BOUND"``; ``value`` is MAX's payoff per
        world of the plan against MIN's answers of step 1.

    Examples
    --------
    >>> import kop
    >>> g = kop.WorldsGame.build(("MIN", [("MAX", [[1, 1, 1, 0], [0, 0, 1, 1]]),
    ...                                   ("MAX", [[0, 0, 0, 1], [0, 0, 0, 1]])]))
    >>> p = kop.findoptimal(g)
    >>> p, p.move(g, 1)
    (Plan(findoptimal, MAX, opponent first, OPTIMUM), 3)

    References
    ----------
    W. Jamroga, *A Defense Model for Games with Incomplete Information*, KI 2001, LNAI 2174, Fig. 7.
    """
    game_argument(game)
    if not (game.max_beliefs.static and game.min_beliefs.static):
        raise WorldsError("findoptimal needs beliefs that do not depend on the node")
    if game.max_beliefs.model is not None or game.min_beliefs.model is not None:
        raise WorldsError("findoptimal takes belief sets or partitions; probabilistic beliefs over belief "
                          "states (Fig. 10) are for gvm")
    g = as_max(game, player)
    b = belief_matrix(g, belief)[0]
    n = g.n_worlds
    smax, smin = strategies(g, "MAX"), strategies(g, "MIN")
    if len(smax) * len(smin) * n > limit:
        raise LimitError(f"findoptimal would compare {len(smax)} x {len(smin)} strategy pairs over {n} worlds; "
                         f"the limit is {limit} entries")
    out = g.payoffs[_leaves(g, smax, smin)]  # (S1, S2, N) MAX's payoff
    outc = nan0(out)
    wmin = np.stack([g.min_beliefs.weights(0, w) for w in range(n)])  # (N, N)
    wmax = np.stack([g.max_beliefs.weights(0, w) for w in range(n)])
    # step 1: MIN's best answer over Ω_MIN(w) to each MAX strategy
    resp = np.argmin(np.einsum("wv,ijv->iwj", wmin, outc), axis=2)  # (S1, N), first minimum
    got = outc[np.arange(len(smax))[:, None], resp, np.arange(n)[None, :]]  # (S1, N)
    eval1 = got @ b
    best1 = int(np.argmax(eval1))
    # step 2: MIN strategy vectors constant on MIN's classes
    cls = _classes(wmin)
    k = int(cls.max()) + 1
    total = len(smin) ** k
    if total * len(smax) * n > limit:
        raise LimitError(f"findoptimal would enumerate {len(smin)}^{k} MIN strategy vectors; "
                         f"the limit is {limit} entries")
    reach = b @ wmin  # weight of v: sum over w in Worlds of [v in Ω_MIN(w)]
    best2, best2_val = None, np.inf
    cols = np.arange(n)
    for assign in itertools.product(range(len(smin)), repeat=k):
        jv = np.asarray(assign, dtype=np.int64)[cls]  # MIN strategy per world
        gv = outc[:, jv, cols]  # (S1, N): each MAX strategy's payoff against strvect, per world
        maxv = np.argmax(wmax @ gv.T, axis=1)  # (N,) MAX's best answer over Ω_MAX(v)
        val = float(reach @ gv[maxv, cols])
        if val < best2_val:
            best2, best2_val = jv, val
    assert best2 is not None
    against2 = outc[:, best2, cols] @ b  # each MAX strategy's sum against strvect_2
    status = OPTIMUM if np.isclose(eval1[best1], against2.max(), rtol=0, atol=1e-9) else BOUND
    value = got[best1] if g is game else -got[best1]
    return Plan("findoptimal", name(player), smax[best1], value, status)

