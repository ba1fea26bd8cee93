"""Minimax (M^0), Algorithm 1 of Sang & Chen: one player's evaluation for everybody.

``minimax(t, P)``: P optimizes its own payoff component by its goal, and every
other player is assumed to do the opposite to that same component (the
paranoid assumption; for two players it is the paper's ``minimax(t, E_P)``).
Ties go to the first child unless ``tie="last"``.

Example
-------
>>> import kop
>>> t = kop.figure2()
>>> kop.minimax(t, "A").value, kop.minimax(t, "B").value_at("S")
((4, 7), (7, 4))
"""

from __future__ import annotations

import numpy as np

from kop.games.strategies.engine import remembered, sweep
from kop.games.strategies.engine import Solution
from kop.games.strategies.strategy import Strategy
from kop.games.trees.tree import GameTree
from kop.games.trees.checks import tree_argument

__all__ = ["minimax", "minimax_rule"]


def minimax_rule(tree: GameTree, p: int) -> tuple[np.ndarray, np.ndarray]:
    """(component, sign) per mover: P's goal at P's nodes, the opposite elsewhere."""
    s = tree.players[p].sign
    comp = np.full(len(tree.players), p)
    sign = np.full(len(tree.players), -s)
    sign[p] = s
    return comp, sign


def minimax(tree: GameTree, player: str | None = None, *, tie: str = "first") -> Strategy:
    """P's minimax strategy (M^0) on *tree*.

    Parameters
    ----------
    tree : GameTree
    player : str, optional
        P, whose evaluation E_P every player is assumed to play on (default: the player at the root).
    tie : {"first", "last"}
        Tie-breaking, as for every strategy (:mod:`kop.games.strategies.engine`).

    Returns
    -------
    Strategy
        P's minimax strategy (M^0) at every node.

    Examples
    --------
    >>> import kop
    >>> t = kop.figure2()
    >>> kop.minimax(t, "A"), kop.minimax(t, "A").next().label
    (Strategy('minimax', player='A', value=(4, 7)), 'R')

    References
    ----------
    T. Sang, J.-H. Chen, *Beyond Minimax: Nonzero-Sum Game Tree Search with Knowledge Oriented
    Players*, Algorithm 1.
    """
    tree_argument(tree)
    p = tree.player_index(player)
    return Strategy(tree, "minimax", tree.players[p].name, minimax_solution(tree, p, tie))


def minimax_solution(tree: GameTree, p: int, tie: str) -> Solution:
    """The engine's solution of player index *p*'s minimax, remembered on the tree."""
    def compute() -> Solution:
        comp, sign = minimax_rule(tree, p)
        return sweep(tree, comp, sign, tie=tie)

    return remembered(tree, ("minimax", p, tie), compute)
