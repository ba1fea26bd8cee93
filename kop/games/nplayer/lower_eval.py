"""Lower-Eval: deep cutoffs from lower bounds only (Bodkin §4.2.2, "Alternatives in the algorithm").

Unimodal-Eval without a ceiling: each node receives a floor ``alpha_i`` for every player
(the best payoff i is already sure of higher up).  A line whose value leaves some floor
unmet will not be played, so the node may return a *cutoff* instead of its value.  In
"ancestral" mode the full floor vector goes down; otherwise only the mover's own floor,
with the ceiling ``M - sum of the other floors``.  Moves that returned a cutoff but might
be best are kept and re-searched with the window just below the best value (here the
window is exact: the next float below the best value, or the value itself when the move
comes after the best one, so ties go to the first child as in max^n).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from operator import lt
from typing import Any

from kop.games.nplayer.bounds import DeepBounds, PayoffBounds
from kop.games.nplayer.core import NPlayerResult, bounded_search
from kop.games.trees.lists import TreeLists
from kop.games.trees.tree import GameTree

__all__ = ["lower_eval", "lower_eval_flat"]


def lower_eval(tree: GameTree, bounds: PayoffBounds | Mapping[str, Any] | None = None) -> NPlayerResult:
    """Lower-Eval on *tree* (see the module docstring).

    Parameters
    ----------
    tree, bounds
        As in :func:`~kop.games.nplayer.bnb.bnb`.

    Returns
    -------
    NPlayerResult
        Exactly the max^n value (the move too); the leaves of a re-search count again.

    Examples
    --------
    >>> import kop
    >>> t = kop.bodkin_tree(3, 2, 4, m=1, eta=1, seed=2)
    >>> r = kop.lower_eval(t)
    >>> (r.value, r.move) == (kop.maxn(t).value, kop.maxn(t).move), r.leaves <= kop.maxn(t).leaves
    (True, True)

    References
    ----------
    R. J. Bodkin, *Extending Computational Game Theory: Simultaneity, Multiple Agents, Chance
    and Metareasoning*, MIT (1992), §4.2.2.
    """
    return bounded_search(tree, bounds, "lower_eval", lower_eval_flat)


def lower_eval_flat(flat: TreeLists, bounds: PayoffBounds) -> tuple[tuple[float, ...], int, int]:
    """(value, leaves examined, chosen root child index) on the list layout (bounds unchecked)."""
    off, kind, pay = flat.off, flat.kind, flat.pay
    db = DeepBounds(bounds)
    none = list(db.none)
    low = (-math.inf,) * flat.n
    ceiling, own_floor = db.ceiling, db.own_floor
    below = math.nextafter
    count = 0
    root_child = -1

    def rec(v: int, alpha: list[float]) -> tuple[tuple[float, ...], bool]:
        nonlocal count, root_child
        w = pay[v]
        if w is not None:
            count += 1
            return w, False
        p = kind[v]
        f = alpha[p]
        c = ceiling(p, alpha)
        aa = alpha[:]
        ai = own_floor(p, f)
        late: list[int] = []
        anc = info = False
        best = low
        bi = -1
        for i in range(off[v], off[v + 1]):
            w, x = rec(i, aa if anc else ai)
            if w[p] > f:
                if w[p] >= c:
                    return low, True
                info = True
                best, bi, f = w, i, w[p]
                anc = not all(map(lt, alpha, w))     # ancestral mode once a floor above is unmet
                (aa if anc else ai)[p] = f
            elif anc and x:
                late.append(i)
        if v == 0:
            root_child = bi
        if not anc:
            if not info:
                return low, True
            for i in late:
                floor = f if i > bi else below(f, -math.inf)
                w, _ = rec(i, own_floor(p, floor))
                if w[p] > floor:
                    return low, True
            return best, False
        return (best, False) if not late else (low, True)

    if pay[0] is not None:
        return pay[0], 1, -1
    value, cut = rec(0, none[:])
    assert not cut, "Lower-Eval cut off at the root"
    return value, count, root_child
