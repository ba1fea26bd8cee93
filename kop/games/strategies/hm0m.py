"""HM0M^d (Hybrid-minimax-M^h), Algorithm 5 of Sang & Chen.

M^h at the nodes of height <= d, and the player's own minimax above.  For
d = 0 it is the player's minimax; for d >= height(t) it is M^h.

Example
-------
>>> import kop
>>> t = kop.figure2()
>>> [kop.hm0m(t, d).value for d in range(5)]
[(4, 7), (9, 4), (9, 4), (10, 3), (10, 3)]
"""

from __future__ import annotations

from kop.games.names import StrategyName
from kop.games.strategies.engine import Solution, remembered, sweep
from kop.games.errors import StrategyError
from kop.games.strategies.mh import mh_rule
from kop.games.strategies.minimax import minimax_rule
from kop.games.strategies.strategy import Strategy
from kop.games.trees.tree import GameTree
from kop.games.trees.checks import tree_argument

__all__ = ["hm0m"]


def hm0m(tree: GameTree, d: int, player: str | None = None, *, tie: str = "first") -> Strategy:
    """P's HM0M^d strategy on *tree*.

    Parameters
    ----------
    tree : GameTree
    d : int >= 0
        M^h at nodes of height <= d, P's minimax above.
    player : str or None, optional
        Whose HM0M^d (default: the player at the root).
    tie : {"first", "last"}, default "first"
        Tie-breaking, as for every strategy (:mod:`kop.games.strategies.engine`).

    Returns
    -------
    Strategy
        P's HM0M^d strategy: M^h at the nodes of height <= d,
        P's own minimax above them.

    Examples
    --------
    >>> import kop
    >>> [kop.hm0m(kop.figure2(), d, "A") for d in (0, 2)]
    [Strategy('HM0M0', player='A', value=(4, 7)), Strategy('HM0M2', player='A', value=(9, 4))]

    References
    ----------
    T. Sang, J.-H. Chen, *Beyond Minimax: Nonzero-Sum Game Tree Search with Knowledge Oriented
    Players*, Algorithm 5 and Theorem 8.
    """
    tree_argument(tree)
    if isinstance(d, bool) or not isinstance(d, int) or d < 0:
        raise StrategyError(f"HM0M^d needs an integer d >= 0, not {d!r}")
    p = tree.player_index(player)

    def compute() -> Solution:
        comp, sign = mh_rule(tree)
        comp_hi, sign_hi = minimax_rule(tree, p)
        return sweep(tree, comp, sign, split=d, comp_hi=comp_hi, sign_hi=sign_hi, tie=tie)

    sol = remembered(tree, ("HM0M", d, p, tie), compute)
    return Strategy(tree, str(StrategyName.hm0m(d)), tree.players[p].name, sol)
