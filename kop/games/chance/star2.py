"""Star2: Star1 with Ballard's probing phase (payoff bounds L <= u <= U).

Before searching a chance node's children fully, Star2 *probes* each decision child by
searching only its first move: for a child where P moves, that is a lower bound on its
value; where an opponent moves, an upper bound.  If the probed bounds already push the
chance node's value to beta or below alpha, it is cut off; otherwise the Star1 phase runs
with the probed bounds in place of L and U for the children not yet searched.  (Ballard
1983; Hauk, Buro & Schaeffer 2004, with unequal probabilities.)

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
    tree, player, bounds
        As in :func:`~kop.games.chance.star1.star1`.

    Returns
    -------
    ChanceResult
        The expectimax value (relative tolerance 1e-9); the probes count their leaves.

    Examples
    --------
    >>> import kop
    >>> kop.star2(kop.figure2(), "A", bounds=(0, 12))     # expectimax examines all 12 leaves
    ChanceResult('star2', player='A', value=4, leaves=10, move=0)

    References
    ----------
    B. W. Ballard, *The ``*``-minimax search procedure for trees containing chance nodes*, Artificial
    Intelligence 21 (1983).
    """
    return star_search(tree, player, bounds, probing=True, name="star2")
