"""Bimodal-Eval and Unimodal-Eval: deep cutoffs with floors and one ceiling (Bodkin §4.2).

Both take a floor vector ``alpha`` (the payoff each player is already sure of higher up),
a ceiling ``beta`` on one player j's payoff, and return ``(vector, cutoff)``:

* Unimodal-Eval returns a cutoff only if some floor is not met or ``u_j >= beta``;
* Bimodal-Eval tells a *high* cutoff (``u_j >= beta``: it returns ``beta`` for j) from a
  *low* one (a floor not met: it returns a vector no player prefers);
* otherwise both return the exact max^n value.

The root call ``Bimodal-Eval(root, no floors, no ceiling, mover)`` returns the exact value.
The code follows the thesis's pseudocode with the digest's fixes (the ceiling of the
mover is the *least* subset bound; ``beta < c`` sets a high ceiling), and three choices that
make it exact for any payoffs, ties and float rounding included: "no floor" is just below
the player's lowest payoff, cutoff vectors carry ``-inf`` where the thesis has 0, and the
re-search window ``(f - eps, f)`` is the next float below ``f`` (or ``(f, next float above)``
for a move after the best one, so that ties go to the first child as in max^n).
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

__all__ = ["bimodal", "bimodal_flat"]

_OPEN, _LOW, _HIGH = 0, 1, 2
_INF = math.inf


def bimodal(tree: GameTree, bounds: PayoffBounds | Mapping[str, Any] | None = None) -> NPlayerResult:
    """Bimodal-Unimodal evaluation of *tree* (see the module docstring).

    Parameters
    ----------
    tree, bounds
        As in :func:`~kop.games.nplayer.lower_eval.lower_eval`.

    Returns
    -------
    NPlayerResult
        Exactly the max^n value; the leaves of a re-search count again.

    Examples
    --------
    On the thesis's small check Bimodal-Eval examines 3 of the 4 leaves, as Branch-and-Bound does:

    >>> import kop
    >>> t = kop.GameTree.build(["1", "2", "3"], ("1", [
    ...     ("2", [(.7, .2, .1), (.5, .1, .4)]), ("2", [(.1, .6, .3), (.3, .3, .4)])]), goals="max")
    >>> kop.bimodal(t, kop.PayoffBounds.uniform(3, m=1, M=1))
    NPlayerResult('bimodal', value=(0.7, 0.2, 0.1), leaves=3, move=0)

    References
    ----------
    R. J. Bodkin, *Extending Computational Game Theory: Simultaneity, Multiple Agents, Chance
    and Metareasoning*, MIT (1992), §4.2.
    """
    return bounded_search(tree, bounds, "bimodal", bimodal_flat)


def bimodal_flat(flat: TreeLists, bounds: PayoffBounds) -> tuple[tuple[float, ...], int, int]:
    """(value, leaves examined, chosen root child index) on the list layout (bounds unchecked)."""
    off, kind, pay = flat.off, flat.kind, flat.pay
    n = flat.n
    db = DeepBounds(bounds)
    none = list(db.none)
    mlow, mup = db.mlow, db.mup
    ceiling, own_floor = db.ceiling, db.own_floor
    low = (-_INF,) * n
    nxt = math.nextafter
    count = 0
    root_child = -1

    def high(beta: float, j: int) -> tuple[float, ...]:
        out = [-_INF] * n
        out[j] = beta
        return tuple(out)

    def window(i: int, bi: int, f: float) -> tuple[float, float]:
        """(floor, ceiling) asking whether move i beats the best move bi (value f for p)."""
        return (f, nxt(f, _INF)) if i > bi else (nxt(f, -_INF), f)

    def settle(p: int, f: float, best: tuple[float, ...], bi: int, late: list[int], anc: bool, info: bool,
               cut: tuple[float, ...]) -> tuple[tuple[float, ...], bool]:
        """What a node of player p returns once its moves are searched: its best move bi (value f for p) is
        the value unless a *late* move (one that cut off, searched in ancestral mode) may beat it: a move
        re-searched with the window of :func:`window` that reaches the ceiling, or any late move left
        in ancestral mode, gives the cutoff vector *cut*; a node where no move beat the floor
        (not *info*) cuts off with *best*."""
        if not anc:
            if not info:
                return best, True
            for i in late:
                fl, ce = window(i, bi, f)
                w, _ = bimodal_(i, own_floor(p, fl), ce, p)
                if w[p] >= ce:
                    return cut, True
            return best, False
        return (best, False) if not late else (cut, True)

    def unimodal(v: int, alpha: list[float], beta: float, j: int) -> tuple[tuple[float, ...], bool]:
        nonlocal count
        w = pay[v]
        if w is not None:
            count += 1
            return w, False
        p = kind[v]
        f = alpha[p]
        c = ceiling(p, alpha)
        if j == p:
            if beta < c:
                c = beta
        elif mlow[j][p] - beta > f:
            f = mlow[j][p] - beta
        aa = alpha[:]
        aa[p] = f
        ai = own_floor(p, f)
        late: list[int] = []
        anc = info = False
        best = low
        bi = -1
        for i in range(off[v], off[v + 1]):
            if anc:
                w, x = unimodal(i, aa, beta, j)
            else:
                w, x = bimodal_(i, ai, c, p)
            if w[p] > f:
                if w[p] >= c:
                    return low, True
                info = True
                best, bi, f = w, i, w[p]
                anc = not (beta > w[j] and all(map(lt, alpha, w)))
                (aa if anc else ai)[p] = f
            elif anc and x:
                late.append(i)
        return settle(p, f, best, bi, late, anc, info, low)

    def bimodal_(v: int, alpha: list[float], beta: float, j: int) -> tuple[tuple[float, ...], bool]:
        nonlocal count, root_child
        w = pay[v]
        if w is not None:
            count += 1
            return w, False
        p = kind[v]
        f = alpha[p]
        c = ceiling(p, alpha)
        best = psi = low
        kind_ = _OPEN
        if j == p:
            if beta < c:
                c = beta
                psi = high(beta, j)
            kind_ = _LOW
        elif f <= mlow[j][p] - beta:
            f = mlow[j][p] - beta
            best = high(beta, j)
        aa = alpha[:]
        aa[p] = f
        ai = own_floor(p, f)
        late: list[int] = []
        anc = info = False
        bi = -1
        for i in range(off[v], off[v + 1]):
            if anc:
                if kind_ == _LOW:
                    w, x = bimodal_(i, aa, c, p)
                else:
                    w, x = unimodal(i, ai, beta, j)
            else:
                w, x = bimodal_(i, ai, c, p)
            if w[p] > f:
                if w[p] >= c:
                    return psi, True
                info = True
                best, bi, f = w, i, w[p]
                ai[p] = f
                aa[p] = f
                if kind_ == _OPEN:
                    if w[j] <= alpha[j]:
                        kind_, anc = _LOW, True
                    elif w[j] >= beta:
                        kind_, anc = _HIGH, True
                elif kind_ == _LOW:
                    anc = not all(map(lt, alpha, w))
                elif j != p and f > mup[j][p] - beta:
                    late = []
                    kind_ = _LOW
                    anc = not all(map(lt, alpha, w))
                else:
                    anc = w[j] >= beta
            elif anc and x:
                late.append(i)
        if v == 0:
            root_child = bi
        return settle(p, f, best, bi, late, anc, info, high(beta, j) if kind_ == _HIGH else low)

    if pay[0] is not None:
        return pay[0], 1, -1
    value, cut = bimodal_(0, none[:], _INF, kind[0])
    assert not cut, "Bimodal-Eval cut off at the root"
    return value, count, root_child
