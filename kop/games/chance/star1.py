"""Star1: Ballard's *-minimax alpha-beta for trees with chance nodes, using payoff bounds.

Decision nodes are searched by alpha-beta (fail-soft).  At a chance node with window
(alpha, beta) whose children have probabilities p_i, after the children before i are
known (their weighted sum S), child i is searched with the window

    A_i = (alpha - S - U * R_i) / p_i,    B_i = (beta - S - L * R_i) / p_i

(R_i the probability of the children after i, clamped to [L, U]).  If its value is at most
A_i the chance node cannot reach alpha whatever the rest gives (a fail low, returning
``S + p_i v_i + U R_i``); at least B_i, it reaches beta (a fail high).  Ballard, "The
*-minimax search procedure for trees containing chance nodes", AI 21 (1983); Hauk, Buro &
Schaeffer, "Rediscovering *-Minimax Search" (2004) give the equal-probability form.

Example
-------
>>> from kop.games.trees.tree import GameTree
>>> from kop.games.chance.star1 import star1
>>> t = GameTree.from_dict({"format": "kop-tree/1", "players": ["a", "b"], "root": {"player": "a",
...     "children": [{"chance": [0.5, 0.5], "children": [{"payoff": [4, -4]}, {"payoff": [2, -2]}]},
...                  {"chance": [0.5, 0.5], "children": [{"payoff": [0, 0]}, {"payoff": [4, -4]}]}]}})
>>> star1(t, "a", bounds=(0, 4))      # the second chance node fails low after one leaf
ChanceResult('star1', player='a', value=3, leaves=3, move=0)
"""

from __future__ import annotations

import math

from kop.games.chance.core import ChanceResult, chance_result, check_range
from kop.games.trees.lists import TreeLists
from kop.games.nplayer.core import run_deep
from kop.games.trees.tree import CHANCE, LEAF, GameTree

__all__ = ["star1", "star_search"]

_INF = math.inf


def star1(tree: GameTree, player: str | None = None, *, bounds: tuple[float, float] | None = None) -> ChanceResult:
    """P's ``*``-minimax value by Star1 (see the module docstring).

    Parameters
    ----------
    tree, player
        As in :func:`~kop.games.chance.expectimax.expectimax`.
    bounds : (L, U), optional
        Bounds on P's payoff, checked on every leaf; default: the least and greatest in the tree.

    Returns
    -------
    ChanceResult
        The expectimax value (relative tolerance 1e-9), the ``leaves`` examined and P's root ``move``.

    Examples
    --------
    >>> import kop
    >>> t = kop.figure2()
    >>> r = kop.star1(t, "A")
    >>> r.value == kop.expectimax(t, "A").value, r.leaves <= kop.expectimax(t, "A").leaves
    (True, True)

    References
    ----------
    B. W. Ballard, *The ``*``-minimax search procedure for trees containing chance nodes*, Artificial
    Intelligence 21 (1983).
    """
    return star_search(tree, player, bounds, probing=False, name="star1")


def star_search(tree: GameTree, player: str | None, bounds: tuple[float, float] | None, *, probing: bool,
                name: str) -> ChanceResult:
    """Star1 (``probing=False``) or Star2 (``probing=True``: Ballard's probing phase first)."""
    f = TreeLists.signed(tree, player, name)
    L, U = check_range(tree, f, bounds)
    off, kind, val, prob, P = f.off, f.kind, f.val, f.prob, f.player
    count = 0
    root_child = -1

    def search(v: int, alpha: float, beta: float) -> float:
        nonlocal count, root_child
        k = kind[v]
        if k == LEAF:
            count += 1
            return val[v]
        if k == CHANCE:
            return chance(v, alpha, beta)
        mx = k == P
        best = -_INF if mx else _INF
        bi = -1
        for c in range(off[v], off[v + 1]):
            u = search(c, alpha, beta)
            if (u > best) if mx else (u < best):
                best, bi = u, c
                if mx:
                    if u > alpha:
                        alpha = u
                elif u < beta:
                    beta = u
                if alpha >= beta:
                    break
        if v == 0:
            root_child = bi
        return best

    def chance(v: int, alpha: float, beta: float) -> float:
        lo_c, hi_c = off[v], off[v + 1]
        kids = [c for c in range(lo_c, hi_c) if prob[c] > 0]
        lows = {c: L for c in kids}
        highs = {c: U for c in kids}
        rest_lo = sum(prob[c] * L for c in kids)
        rest_hi = sum(prob[c] * U for c in kids)
        if probing:
            # probe: the first child of each decision child bounds it (below for P's nodes, above otherwise)
            known_lo = known_hi = 0.0
            for n, c in enumerate(kids):
                p = prob[c]
                after = sum(prob[d] for d in kids[n + 1:])
                if kind[c] == P:
                    b_i = (beta - known_lo - L * after) / p
                    r = search(off[c], L, min(b_i, U)) if b_i > L else search(off[c], L, U)
                    lows[c] = max(L, r)
                    if known_lo + p * lows[c] + L * after >= beta:
                        return known_lo + p * lows[c] + L * after
                elif kind[c] >= 0:
                    a_i = (alpha - known_hi - U * after) / p
                    r = search(off[c], max(a_i, L), U) if a_i < U else search(off[c], L, U)
                    highs[c] = min(U, r)
                    if known_hi + p * highs[c] + U * after <= alpha:
                        return known_hi + p * highs[c] + U * after
                known_lo += p * lows[c]
                known_hi += p * highs[c]
            rest_lo = known_lo
            rest_hi = known_hi
        s = 0.0
        for c in kids:
            p = prob[c]
            rest_lo -= p * lows[c]
            rest_hi -= p * highs[c]
            a_i = (alpha - s - rest_hi) / p
            b_i = (beta - s - rest_lo) / p
            u = search(c, max(a_i, L), min(b_i, U))
            if u <= a_i:
                return s + p * u + rest_hi
            if u >= b_i:
                return s + p * u + rest_lo
            s += p * u
        return s

    value = run_deep(lambda: search(0, -_INF, _INF), f.height)
    return chance_result(tree, f, name, value, count, root_child)
