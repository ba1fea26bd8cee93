"""M^h, Algorithm 4 of Sang & Chen: every player optimizes its own component (backward induction).

At each decision node the mover picks the child best for its own payoff
component by its own goal.  With every player maximizing this is Poole &
Mackworth's n-agent GameTreeSearch; it is the subgame-perfect equilibrium of the
perfect-information game (ties: first child, or ``tie="last"``).

Example
-------
>>> import kop
>>> t = kop.figure2()
>>> kop.mh(t).value
(10, 3)
"""

from __future__ import annotations

import numpy as np

from kop.games.strategies.engine import Solution, remembered, sweep
from kop.games.strategies.strategy import Strategy
from kop.games.trees.tree import GameTree
from kop.games.trees.checks import tree_argument

__all__ = ["mh", "mh_rule"]


def mh_rule(tree: GameTree) -> tuple[np.ndarray, np.ndarray]:
    """(component, sign) per mover: its own component, its own goal."""
    comp = np.arange(len(tree.players))
    sign = np.array([p.sign for p in tree.players])
    return comp, sign


def mh(tree: GameTree, *, tie: str = "first") -> Strategy:
    """The M^h strategy on *tree*.

    Parameters
    ----------
    tree : GameTree
    tie : {"first", "last"}
        Tie-breaking, as for every strategy (:mod:`kop.games.strategies.engine`).

    Returns
    -------
    Strategy
        The M^h strategy at every node.
        Every player uses its own evaluation (backward induction).

    Examples
    --------
    >>> import kop
    >>> s = kop.mh(kop.figure2())
    >>> s, s.next().label
    (Strategy('Mh', value=(10, 3)), 'S')

    References
    ----------
    T. Sang, J.-H. Chen, *Beyond Minimax: Nonzero-Sum Game Tree Search with Knowledge Oriented
    Players*, Algorithm 4 and Theorems 4-6.
    """
    tree_argument(tree)

    def compute() -> Solution:
        comp, sign = mh_rule(tree)
        return sweep(tree, comp, sign, tie=tie)

    return Strategy(tree, "Mh", None, remembered(tree, ("Mh", tie), compute))
