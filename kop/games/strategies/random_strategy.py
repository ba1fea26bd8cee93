"""A strategy choosing a uniformly random child at every decision node: an arbitrary strategy to test with.

Examples
--------
>>> import kop
>>> t = kop.figure2()
>>> s = kop.random_strategy(t, seed=1)
>>> s.name, s.move in t.root.children
('random', True)
"""

from __future__ import annotations

import numpy as np

from kop.games.strategies.engine import sweep
from kop.games.strategies.strategy import Strategy
from kop.games.trees.checks import tree_argument
from kop.games.trees.random_trees import random_strategy_choices
from kop.games.trees.tree import GameTree

__all__ = ["random_strategy"]


def random_strategy(tree: GameTree, seed: int | None = None, player: str | None = None) -> Strategy:
    """A :class:`~kop.games.strategies.strategy.Strategy` choosing a uniformly random child at every decision node.

    Parameters
    ----------
    tree : GameTree
    seed : int, optional
        Seed of the random choices (None: fresh entropy).
    player : str, optional
        The name the strategy reports as its player.

    Returns
    -------
    Strategy

    Examples
    --------
    >>> import kop
    >>> t = kop.figure2()
    >>> random_strategy(t, seed=3).path == random_strategy(t, seed=3).path
    True
    """
    tree_argument(tree)
    k = len(tree.players)
    sol = sweep(tree, np.zeros(k), np.ones(k), fixed=random_strategy_choices(tree, seed),
                fixed_movers=np.ones(k, dtype=bool))
    return Strategy(tree, "random", player, sol)
