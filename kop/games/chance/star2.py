"""Star2: Star1 with Ballard's probing phase (payoff bounds L <= u <= U).

Before searching a chance node's children fully, Star2 *probes* each decision child by
searching only its first move: for a child where P moves, that is a lower bound on its
value; where an opponent moves, an upper bound.  If the probed bounds already push the
chance node's value to beta or below alpha, it is cut off; otherwise the Star1 phase runs
with the probed bounds in place of L and U for the children not yet searched.  (Ballard
1983; Hauk, Buro & Schaeffer 2004, with unequal probabilities.)

Parameters
----------
tree : GameTree
player : str, optional
    the searching player (default: the first)
bounds : (L, U), optional
    bounds on P's payoff, checked on every leaf; default: inferred from the tree

Returns
-------
ChanceResult
    the expectimax value (relative tolerance 1e-9), leaves examined (probes count), P's root move

Example
-------
>>> import kop
>>> from kop.games.chance.star2 import star2
>>> from kop.games.chance.expectimax import expectimax
>>> t = kop.random_tree(depth=6, branching=3, chance_prob=0.3, seed=4)
>>> abs(star2(t, "A").value - expectimax(t, "A").value) < 1e-9
True
"""

from __future__ import annotations

from kop.games.chance.core import ChanceResult
from kop.games.chance.star1 import star_search
from kop.games.trees.tree import GameTree

__all__ = ["star2"]


def star2(tree: GameTree, player: str | None = None, *, bounds: tuple[float, float] | None = None) -> ChanceResult:
    """P's ``*``-minimax value by Star2 (see the module docstring).

    Parameters
    ----------
    tree : GameTree
        The game tree.
    player : str, optional
        The searching player (default: the first).
    bounds : (L, U), optional
        Bounds on P's payoff, checked on every leaf; default: inferred from the tree.

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
    >>> kop.star2(t, "a")
    ChanceResult('star2', player='a', value=2, leaves=3, move=0)

    References
    ----------
    B. W. Ballard, *The ``*``-minimax search procedure for trees containing chance nodes*, Artificial
    Intelligence 21 (1983).
    """
    return star_search(tree, player, bounds, probing=True, name="star2")
