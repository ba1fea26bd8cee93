"""Branch-and-Bound: shallow pruning with payoff-sum bounds (Bodkin §4.1.3, Thm 4.1.1).

At a node of player p whose best child so far gives p ``v_p``, a child of player q can
stop as soon as q is sure of ``w_q >= M_{p,q} - v_p``: then p gets at most ``v_p`` there
and (first child on ties) keeps its earlier choice.  ``M_{p,q}`` is the tightest upper
bound on ``u_p + u_q`` the declared bounds imply (the global ``M`` less the other players'
lower bounds, or a pair bound).  A node also stops once its mover reaches its own
maximum payoff.  The printed pseudocode tests the cutoff before storing the new best
child; here the child is stored first (the digest's fix).

The cutoff is taken at equality, ``w_q >= M_{p,q} - v_p``, as in the thesis, whenever
float arithmetic is exact on the tree (integer payoffs and bounds, or dyadic fractions:
:func:`~kop.games.nplayer.bounds.exact_slack`).  Where payoffs are floats whose sums
round (0.1 + 0.2), the bound keeps a slack of ``bounds.tol`` (about 1e-9 of the payoff
scale) so that rounding never cuts a child that could still be chosen.

Example
-------
On integers the cutoff is at equality: B's first leaf gives 2 exactly ``10 - 6``,
so B's other two leaves are not examined (2 leaves of 4).

>>> from kop.games.trees.tree import GameTree
>>> from kop.games.nplayer.bnb import bnb
>>> from kop.games.nplayer.bounds import PayoffBounds
>>> u = GameTree.build(["1", "2", "3", "4"], ("1", [
...     (6, 4, 0, 0), ("2", [(6, 4, 0, 0), (0, 3, 7, 0), (0, 2, 0, 8)])]), goals="max")
>>> bnb(u, PayoffBounds.uniform(4, low=0, high=10, m=0, M=10))
NPlayerResult('bnb', value=(6, 4, 0, 0), leaves=2, move=0)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kop.games.nplayer.bounds import PayoffBounds, exact_slack
from kop.games.nplayer.core import NPlayerResult, bounded_search
from kop.games.trees.lists import TreeLists
from kop.games.trees.tree import GameTree

__all__ = ["bnb", "bnb_flat"]


def bnb(tree: GameTree, bounds: PayoffBounds | Mapping[str, Any] | None = None) -> NPlayerResult:
    """Branch-and-Bound on *tree* (see the module docstring).

    Parameters
    ----------
    tree : GameTree
        Decision nodes and leaves; every player maximizes.
    bounds : PayoffBounds, dict or None
        Declared payoff bounds (checked on every leaf first); None infers the tightest from
        the tree's own payoffs.

    Returns
    -------
    NPlayerResult
        ``value`` (one payoff per player), ``leaves`` examined, ``move`` (the root player's
        child rank).

    Examples
    --------
    The thesis's small check (digest §4.2): B's second leaf is pruned because
    .6 >= 1 - .7, so 3 of the 4 leaves are examined.

    >>> import kop
    >>> t = kop.GameTree.build(["1", "2", "3"], ("1", [
    ...     ("2", [(.7, .2, .1), (.5, .1, .4)]), ("2", [(.1, .6, .3), (.3, .3, .4)])]), goals="max")
    >>> kop.bnb(t, kop.PayoffBounds.uniform(3, m=1, M=1))
    NPlayerResult('bnb', value=(0.7, 0.2, 0.1), leaves=3, move=0)

    References
    ----------
    R. J. Bodkin, *Extending Computational Game Theory: Simultaneity, Multiple Agents, Chance
    and Metareasoning*, MIT (1992), §4.1.3; R. E. Korf, *Multi-player alpha-beta pruning*, Artificial
    Intelligence 48 (1991).
    """
    return bounded_search(tree, bounds, "bnb", lambda flat, b: bnb_flat(flat, b, exact_slack(tree, b)))


def bnb_flat(flat: TreeLists, bounds: PayoffBounds, slack: float | None = None) -> tuple[tuple[float, ...], int, int]:
    """(value, leaves examined, chosen root child index) on the list layout (bounds unchecked).

    *slack* is added to the sum bounds (default ``bounds.tol``, for float payoffs; 0 cuts at
    equality, sound only where the arithmetic is exact: see ``exact_slack``).
    """
    off, kind, pay = flat.off, flat.kind, flat.pay
    tol = bounds.tol if slack is None else slack
    hi = list(bounds.high)
    mpq = [[x + tol for x in row] for row in bounds.pair_upper()]
    count = 0
    root_child = -1

    def rec(v: int, psi: float) -> tuple[float, ...]:
        nonlocal count, root_child
        p = kind[v]
        best: tuple[float, ...] | None = None
        bi = -1
        vp = 0.0
        cut = mpq[p]
        for c in range(off[v], off[v + 1]):
            w = pay[c]
            if w is None:
                q = kind[c]
                w = rec(c, hi[q] if best is None or q == p else min(hi[q], cut[q] - vp))
            else:
                count += 1
            if best is None or w[p] > vp:
                best, bi, vp = w, c, w[p]
                if vp >= psi:
                    break
        if v == 0:
            root_child = bi
        assert best is not None
        return best

    if pay[0] is not None:
        return pay[0], 1, -1
    value = rec(0, hi[kind[0]])
    return value, count, root_child
