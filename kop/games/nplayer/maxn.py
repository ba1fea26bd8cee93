"""max^n: Bodkin's Naive-Solution for N-player perfect-information games (Ch. 4, opening).

Back-induction: at a node of player p, keep the child whose value is best for p's own
component (greatest for a maximizer, least for a minimizer); the first such child wins
ties (strict comparison).  Every leaf is examined.  This is the reference that
:func:`~kop.games.nplayer.bnb.bnb`, :func:`~kop.games.nplayer.lower_eval.lower_eval` and
:func:`~kop.games.nplayer.bimodal.bimodal` must equal.
"""

from __future__ import annotations

from kop.games.nplayer.core import NPlayerResult, run_deep
from kop.games.trees.lists import TreeLists
from kop.games.trees.tree import GameTree
from kop.games.trees.checks import tree_argument

__all__ = ["maxn"]


def maxn(tree: GameTree) -> NPlayerResult:
    """The max^n value of *tree* (see the module docstring).

    Parameters
    ----------
    tree : GameTree
        Decision nodes and leaves; a player may maximize or minimize its payoff.

    Returns
    -------
    NPlayerResult
        ``value`` (one payoff per player), ``leaves`` (every leaf), ``move`` (the root
        player's child rank).

    Examples
    --------
    >>> import kop
    >>> t = kop.GameTree.build(["1", "2", "3"], ("1", [
    ...     ("2", [(.7, .2, .1), (.5, .1, .4)]), ("2", [(.1, .6, .3), (.3, .3, .4)])]), goals="max")
    >>> kop.maxn(t)
    NPlayerResult('maxn', value=(0.7, 0.2, 0.1), leaves=4, move=0)

    References
    ----------
    R. J. Bodkin, *Extending Computational Game Theory: Simultaneity, Multiple Agents, Chance
    and Metareasoning*, MIT (1992), Ch. 4; C. A. Luckhardt, K. B. Irani, *An algorithmic solution of
    N-person games*, AAAI-86.
    """
    tree_argument(tree)
    flat = TreeLists.payoffs(tree, "maxn")
    sign = [p.sign for p in tree.players]
    off, kind, pay = flat.off, flat.kind, flat.pay
    count = [0]

    def rec(v: int) -> tuple[tuple[float, ...], int]:
        w = pay[v]
        if w is not None:
            count[0] += 1
            return w, -1
        p = kind[v]
        s = sign[p]
        best: tuple[float, ...] | None = None
        bi = -1
        key = 0.0
        for c in range(off[v], off[v + 1]):
            u, _ = rec(c)
            k = s * u[p]
            if best is None or k > key:
                best, bi, key = u, c, k
        assert best is not None
        return best, bi

    value, child = run_deep(lambda: rec(0), flat.height)
    return NPlayerResult.of(tree, flat, "maxn", value, count[0], child)
