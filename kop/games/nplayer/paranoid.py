"""The paranoid reduction: every opponent minimizes the searching player's payoff (alpha-beta).

Sturtevant & Korf's paranoid assumption turns an N-player game into a two-player
zero-sum one: player P maximizes its own payoff component and treats all the others as
one adversary minimizing it.  The value is P's maximin (security) payoff, computed by
alpha-beta with the first child winning ties.  Bodkin (§4.5) rejects pure maximin as a
model of rational opponents ("abysmal play"); it is offered here as an opponents' model to
compare with max^n, not as an equal of it.  Minimizing players' goals are respected:
a minimizer P minimizes its component and the adversary maximizes it.

Parameters
----------
tree : GameTree
    decision nodes and leaves
player : str, optional
    the searching player (default: the mover at the root)

Returns
-------
NPlayerResult
    ``value``: the payoff vector of the leaf the paranoid line reaches; ``leaves``
    examined; ``move``: P's root move (when P moves at the root)

Example
-------
>>> from kop.games.trees.tree import GameTree
>>> from kop.games.nplayer.paranoid import paranoid
>>> t = GameTree.build(["1", "2", "3"], ("1", [
...     ("2", [(.7, .2, .1), (.5, .1, .4)]), ("2", [(.1, .6, .3), (.3, .3, .4)])]), goals="max")
>>> paranoid(t)
NPlayerResult('paranoid', value=(0.5, 0.1, 0.4), leaves=3, move=0)
"""

from __future__ import annotations

import math

from kop.games.nplayer.core import NPlayerResult, run_deep
from kop.games.trees.lists import TreeLists
from kop.games.trees.tree import GameTree
from kop.games.trees.checks import tree_argument

__all__ = ["paranoid"]


def paranoid(tree: GameTree, player: str | None = None) -> NPlayerResult:
    """P's paranoid (maximin) line on *tree* (see the module docstring).

    Parameters
    ----------
    tree : GameTree
        The game tree.
    player : str, optional
        The searching player (default: the mover at the root).

    Returns
    -------
    NPlayerResult
        The payoff vector the paranoid line reaches, the ``leaves`` examined, P's root ``move``.

    Examples
    --------
    >>> import kop
    >>> t = kop.GameTree.build(["1", "2", "3"], ("1", [
    ...     ("2", [(.7, .2, .1), (.5, .1, .4)]), ("2", [(.1, .6, .3), (.3, .3, .4)])]), goals="max")
    >>> kop.paranoid(t)          # players 2 and 3 are assumed to minimize player 1
    NPlayerResult('paranoid', value=(0.5, 0.1, 0.4), leaves=3, move=0)

    References
    ----------
    N. R. Sturtevant, R. E. Korf, *On pruning techniques for multi-player games*, AAAI 2000;
    R. J. Bodkin, *Extending Computational Game Theory: Simultaneity, Multiple Agents, Chance
    and Metareasoning*, MIT (1992), §4.5.
    """
    tree_argument(tree)
    flat = TreeLists.payoffs(tree, "paranoid")
    P = tree.player_index(player) if player is not None else max(flat.kind[0], 0)
    sign = tree.players[P].sign
    off, kind, pay = flat.off, flat.kind, flat.pay
    count = 0
    root_child = -1

    def rec(v: int, alpha: float, beta: float) -> tuple[float, tuple[float, ...]]:
        nonlocal count, root_child
        w = pay[v]
        if w is not None:
            count += 1
            return sign * w[P], w
        mine = kind[v] == P
        best = -math.inf if mine else math.inf
        vec: tuple[float, ...] = ()
        bi = -1
        for c in range(off[v], off[v + 1]):
            u, x = rec(c, alpha, beta)
            if (u > best) if mine else (u < best):
                best, vec, bi = u, x, c
                if mine:
                    alpha = max(alpha, u)
                else:
                    beta = min(beta, u)
                if alpha >= beta:
                    break
        if v == 0:
            root_child = bi
        return best, vec

    _, value = run_deep(lambda: rec(0, -math.inf, math.inf), flat.height)
    return NPlayerResult.of(tree, flat, "paranoid", value, count, root_child)
