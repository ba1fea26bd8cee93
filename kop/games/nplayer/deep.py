"""Deep cutoffs (Bodkin §4.2): Unimodal-Eval and Bimodal-Eval, and Lower-Eval as Unimodal-Eval alone.

One implementation serves :func:`~kop.games.nplayer.bimodal.bimodal` and
:func:`~kop.games.nplayer.lower_eval.lower_eval`.  Lower-Eval is Unimodal-Eval with no
ceiling (``beta = inf``) that never hands a ceiling down: where Unimodal-Eval calls
Bimodal-Eval on a child with its ceiling, Lower-Eval calls itself with the floors only, and
its re-searches are Lower-Eval too.  With ``beta = inf`` Unimodal-Eval's ceiling and
floor adjustments do nothing, so the rest is the same procedure.

Unimodal-Eval and Bimodal-Eval are one procedure with a flag (:func:`deep_search`).  A
node's moves are searched in order.  A move whose value beats the mover's floor becomes
the best; a later move that cut off while the search was in *ancestral* mode (some floor
above is unmet, so the full floor vector went down) is *late*: it may still beat the best
and is settled by :func:`settle`.  For speed, leaves are read in the loop over the moves
and the global ceiling is computed there, not by calls.

Examples
--------
>>> import kop
>>> from kop.games.nplayer.bounds import PayoffBounds
>>> from kop.games.trees.lists import TreeLists
>>> t = kop.bodkin_tree(3, 2, 5, m=1, eta=1, seed=3)
>>> f, b = TreeLists.payoffs(t), PayoffBounds.infer(t)
>>> [deep_search(f, b, lower)[0] == kop.maxn(t).value for lower in (False, True)]
[True, True]
"""

from __future__ import annotations

import math
from collections.abc import Callable
from operator import lt

from kop.games.nplayer.bounds import DeepBounds, PayoffBounds
from kop.games.trees.lists import TreeLists

__all__ = ["deep_search", "settle", "window"]

_OPEN, _LOW, _HIGH = 0, 1, 2
_INF = math.inf
_nxt = math.nextafter

Vector = tuple[float, ...]
#: a search's answer at a node: (value vector, whether it is a cutoff)
Answer = tuple[Vector, bool]


def window(i: int, bi: int, f: float) -> tuple[float, float]:
    """(floor, ceiling) asking whether move *i* beats the best move *bi* (value *f* for the mover):
    ties go to the first move, so a move after *bi* must exceed *f*, one before it reach *f*.

    >>> window(3, 1, 0.5) == (0.5, math.nextafter(0.5, math.inf)), window(0, 1, 0.5)[1]
    (True, 0.5)
    """
    return (f, _nxt(f, _INF)) if i > bi else (_nxt(f, -_INF), f)


def settle(p: int, f: float, best: Vector, bi: int, late: list[int], anc: bool, cut: Vector,
           research: Callable[[int, int, float, float], Vector]) -> Answer:
    """What a node of player *p* returns once its moves are searched.

    Its best move *bi* (value *f* for p) is the value unless a late move may beat it: outside
    ancestral mode each late move is re-searched by ``research(move, p, floor, ceiling)`` with
    the :func:`window`, and one that reaches the ceiling gives the cutoff vector *cut*; in
    ancestral mode any late move gives *cut*.  A node where no move beat the floor (``bi < 0``)
    cuts off with *best*.

    >>> settle(0, 0.5, (0.5, 0.5), 0, [], False, (-1.0, -1.0), lambda *a: (0.0, 0.0))
    ((0.5, 0.5), False)
    >>> settle(0, 0.5, (0.5, 0.5), 0, [1], False, (-1.0, -1.0), lambda *a: (0.7, 0.3))
    ((-1.0, -1.0), True)
    """
    if not anc:
        if bi < 0:
            return best, True
        for i in late:
            fl, ce = window(i, bi, f)
            if research(i, p, fl, ce)[p] >= ce:
                return cut, True
        return best, False
    return (best, False) if not late else (cut, True)


def _high(n: int, beta: float, j: int) -> Vector:
    """The high cutoff vector: *beta* for player *j*, ``-inf`` for the others."""
    out = [-_INF] * n
    out[j] = beta
    return tuple(out)


def _mode_after(mode: int, anc: bool, late: list[int], w: Vector, f: float, p: int, j: int, alpha: list[float],
                beta: float, mup_jp: float) -> tuple[int, bool, list[int]]:
    """Bimodal-Eval's (mode, ancestral flag, late moves) once move *w* (value *f* for p) is the best:
    an open node turns low when w leaves j's floor unmet, high when it reaches j's ceiling; a high
    node turns low (dropping its late moves) once p's value leaves j less than ``M_{j,p} - f``."""
    if mode == _OPEN:
        if w[j] <= alpha[j]:
            return _LOW, True, late
        if w[j] >= beta:
            return _HIGH, True, late
        return mode, anc, late
    if mode == _LOW:
        return mode, not all(map(lt, alpha, w)), late
    if j != p and f > mup_jp - beta:
        return _LOW, not all(map(lt, alpha, w)), []
    return mode, w[j] >= beta, late


def deep_search(flat: TreeLists, bounds: PayoffBounds, lower: bool) -> tuple[Vector, int, int]:
    """(value, leaves examined, chosen root child index) of Bimodal-Eval, or of Lower-Eval if *lower*,
    on the payoff view *flat* (bounds unchecked; the root is searched with no floors, no ceiling).

    One procedure, ``node(v, alpha, beta, j, uni)``, is Unimodal-Eval (*uni*) or Bimodal-Eval:
    they differ in their cutoff vectors (Bimodal-Eval's high cutoff gives ``beta`` to j), in how
    a new best move changes the mode (:func:`_mode_after` for Bimodal-Eval), and in which
    evaluation the next moves get, ``(floors, ceiling, its player, uni)``: outside ancestral mode
    Bimodal-Eval with p's own floor and ceiling (Lower-Eval: Unimodal-Eval with p's floor); in
    ancestral mode Unimodal-Eval with the full floors, or, in Bimodal-Eval's low mode,
    Bimodal-Eval with them.

    Parameters
    ----------
    flat : TreeLists
        The payoff view (:meth:`~kop.games.trees.lists.TreeLists.payoffs`).
    bounds : PayoffBounds
        Bounds that every leaf meets (not checked here).
    lower : bool
        Lower-Eval rather than Bimodal-Eval.

    Returns
    -------
    tuple
        (the max^n value, the leaves examined, re-searches counting again; the root child chosen, -1 at a leaf).

    Examples
    --------
    >>> import kop
    >>> t = kop.GameTree.build(["1", "2", "3"], ("1", [
    ...     ("2", [(.7, .2, .1), (.5, .1, .4)]), ("2", [(.1, .6, .3), (.3, .3, .4)])]), goals="max")
    >>> deep_search(TreeLists.payoffs(t), PayoffBounds.uniform(3, m=1, M=1), lower=False)
    ((0.7, 0.2, 0.1), 3, 1)

    References
    ----------
    R. J. Bodkin, *Extending Computational Game Theory: Simultaneity, Multiple Agents, Chance
    and Metareasoning*, MIT (1992), §4.2.
    """
    off, kind, pay = flat.off, flat.kind, flat.pay
    n = flat.n
    db = DeepBounds(bounds)
    mlow, mup, none = db.mlow, db.mup, list(db.none)
    ceiling, Mt, glob = db.ceiling, db.Mt, db.global_only
    low = (-_INF,) * n
    count = 0
    root_child = -1

    def research(i: int, p: int, fl: float, ce: float) -> Vector:
        return node(i, db.own_floor(p, fl), *((_INF, p, True) if lower else (ce, p, False)))[0]

    def node(v: int, alpha: list[float], beta: float, j: int, uni: bool) -> Answer:
        nonlocal count, root_child
        p = kind[v]
        f = alpha[p]
        c = Mt - (sum(alpha) - f) if glob else ceiling(p, alpha)    # ceiling, without the call
        best = psi = low
        mode = _OPEN
        if j == p:
            if beta < c:
                c = beta
                psi = low if uni else _high(n, beta, j)
            mode = _LOW
        elif f <= mlow[j][p] - beta:
            f = mlow[j][p] - beta
            best = low if uni else _high(n, beta, j)
        aa = alpha[:]
        ai = none[:]
        ai[p] = aa[p] = f
        late: list[int] = []
        anc = False
        bi = -1
        plain = (ai, beta, j, True) if lower else (ai, c, p, False)
        fl, b2, j2, u2 = plain
        for i in range(off[v], off[v + 1]):
            w = pay[i]
            if w is None:
                w, x = node(i, fl, b2, j2, u2)
            else:
                count += 1
                x = False
            if w[p] > f:
                if w[p] >= c:
                    return psi, True
                best, bi, f = w, i, w[p]
                ai[p] = aa[p] = f
                if uni:
                    anc = not (beta > w[j] and all(map(lt, alpha, w)))
                else:
                    mode, anc, late = _mode_after(mode, anc, late, w, f, p, j, alpha, beta, mup[j][p])
                if not anc:
                    fl, b2, j2, u2 = plain
                elif uni or mode != _LOW:
                    fl, b2, j2, u2 = (aa if uni else ai), beta, j, True
                else:
                    fl, b2, j2, u2 = aa, c, p, False
            elif anc and x:
                late.append(i)
        if v == 0:
            root_child = bi
        if bi >= 0 and not late:    # what settle gives, without the call
            return best, False
        return settle(p, f, best, bi, late, anc, _high(n, beta, j) if mode == _HIGH else low, research)

    if pay[0] is not None:
        return pay[0], 1, -1
    value, cut = node(0, none[:], _INF, kind[0], lower)
    assert not cut, "the deep-cutoff search cut off at the root"
    return value, count, root_child
