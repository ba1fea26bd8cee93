"""Expectimax (*-minimax): the full search of a two-player zero-sum tree with chance nodes.

P maximizes its payoff component, the other players minimize it, chance nodes take the
probability-weighted mean (Bodkin §3.10, "evaluating a chance vertex by solving each
successor and taking the expected value").  Every leaf is examined; ties go to the first
child.  This is the reference for Star1, Star2 and CSCOUT.
"""

from __future__ import annotations

from kop.games.chance.core import ChanceResult, chance_result
from kop.games.trees.lists import TreeLists
from kop.games.nplayer.core import run_deep
from kop.games.trees.tree import CHANCE, LEAF, GameTree

__all__ = ["expectimax"]


def expectimax(tree: GameTree, player: str | None = None) -> ChanceResult:
    """P's ``*``-minimax value of *tree* by full search (see the module docstring).

    Parameters
    ----------
    tree : GameTree
        The game tree.
    player : str, optional
        The searching player (default: the first).

    Returns
    -------
    ChanceResult
        P's expected payoff under ``*``-minimax (``value``), the ``leaves`` examined and P's root
        ``move``.

    Examples
    --------
    >>> import kop
    >>> t = kop.GameTree.from_dict({"format": "kop-tree/1", "players": ["a", "b"], "root": {"player": "a",
    ...     "children": [{"chance": [0.5, 0.5], "children": [{"payoff": [4, -4]}, {"payoff": [0, 0]}]},
    ...                  {"payoff": [1, -1]}]}})
    >>> kop.expectimax(t, "a")
    ChanceResult('expectimax', player='a', value=2, leaves=3, move=0)

    References
    ----------
    R. J. Bodkin, *Extending Computational Game Theory: Simultaneity, Multiple Agents, Chance
    and Metareasoning*, MIT (1992), §3.10; B. W. Ballard, *The ``*``-minimax search procedure for trees
    containing chance nodes*, Artificial Intelligence 21 (1983).
    """
    f = TreeLists.signed(tree, player, "expectimax")
    off, kind, val, prob, P = f.off, f.kind, f.val, f.prob, f.player
    root_child = -1

    def rec(v: int) -> float:
        nonlocal root_child
        k = kind[v]
        if k == LEAF:
            return val[v]
        if k == CHANCE:
            return sum(prob[c] * rec(c) for c in range(off[v], off[v + 1]))
        best = 0.0
        bi = -1
        for c in range(off[v], off[v + 1]):
            u = rec(c)
            if bi < 0 or (u > best if k == P else u < best):
                best, bi = u, c
        if v == 0:
            root_child = bi
        return best

    value = run_deep(lambda: rec(0), f.height)
    return chance_result(tree, f, "expectimax", value, kind.count(LEAF), root_child)   # every leaf is examined
