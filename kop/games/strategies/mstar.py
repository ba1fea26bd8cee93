"""M^d (M*), Carmel & Markovitch's recursive opponent modelling; Algorithm 2 of Sang & Chen.

P's M^d: at P's nodes P optimizes its own component over the children's M^d
values; at an opponent Q's node it follows Q's M^(d-1) choice.  M^0 is P's
minimax.  For two players the chain is A's M^d, B's M^(d-1), A's M^(d-2), ...,
ending in the minimax of A (d even) or B (d odd) -- the base case of the
paper's Algorithm 2 with its XOR corrected to XNOR (SPEC 3.2).  With more
players, every other player's M^(d-1) is computed.  Cost: O(d * size(t)) for
two players.

Example
-------
>>> import kop
>>> t = kop.figure2()
>>> [kop.mstar(t, d).value for d in range(3)]
[(4, 7), (10, 3), (9, 4)]
"""

from __future__ import annotations

import numpy as np

from kop.games.names import StrategyName
from kop.games.strategies.engine import Solution, known, remembered, sweep
from kop.games.errors import StrategyError
from kop.games.strategies.minimax import minimax_solution
from kop.games.strategies.strategy import Strategy
from kop.games.trees.tree import GameTree
from kop.games.trees.checks import tree_argument

__all__ = ["mstar"]


def mstar(tree: GameTree, d: int, player: str | None = None, *, tie: str = "first") -> Strategy:
    """P's M^d strategy on *tree*.

    Parameters
    ----------
    tree : GameTree
    d : int
        The modelling depth: P's M^d assumes the opponent plays M^(d-1), down to M^0 (minimax).
    player : str, optional
        Whose M^d (default: the player at the root).
    tie : {"first", "last"}
        Tie-breaking, as for every strategy (:mod:`kop.games.strategies.engine`).

    Returns
    -------
    Strategy
        P's M^d strategy, with ``next(n)`` and ``value(n)`` at every node.

    Examples
    --------
    >>> import kop
    >>> t = kop.figure2()
    >>> [kop.mstar(t, d, "A") for d in (0, 1)]
    [Strategy('M0', player='A', value=(4, 7)), Strategy('M1', player='A', value=(10, 3))]

    References
    ----------
    T. Sang, J.-H. Chen, *Beyond Minimax: Nonzero-Sum Game Tree Search with Knowledge Oriented
    Players*, Algorithm 2 (SPEC §3.2 has the erratum); D. Carmel, S. Markovitch,
    *Incorporating opponent models into adversary search*, AAAI-96.
    """
    tree_argument(tree)
    if isinstance(d, bool) or not isinstance(d, int) or d < 0:
        raise StrategyError(f"M^d needs an integer d >= 0, not {d!r}")
    p = tree.player_index(player)
    return Strategy(tree, str(StrategyName.mstar(d)), tree.players[p].name, _solution(tree, d, p, tie))


def _solution(tree: GameTree, d: int, p: int, tie: str) -> Solution:
    """P's M^d solution; every level's, each player's, remembered on the tree (M^0 is minimax's)."""
    if d == 0:
        return minimax_solution(tree, p, tie)
    top = known(tree, ("M", d, p, tie))
    if top is not None:
        return top
    n_players = len(tree.players)
    everyone = set(range(n_players))
    needed: list[set[int]] = [set() for _ in range(d + 1)]
    needed[d] = {p}
    for k in range(d, 0, -1):
        for q in needed[k]:
            needed[k - 1] |= everyone - {q}
    sols = {q: minimax_solution(tree, q, tie) for q in sorted(needed[0])}
    for k in range(1, d + 1):
        # at Q's nodes Q optimizes; at another player R's node R follows R's M^(k-1)
        combined = np.full(len(tree), -1, dtype=tree.offsets.dtype)
        for q, sol in sols.items():
            mask = tree.kind == q
            combined[mask] = sol.next[mask]

        others = np.ones(n_players, dtype=bool)
        level = {}
        for q in sorted(needed[k]):
            def compute(q: int = q, combined: np.ndarray = combined) -> Solution:
                comp = np.full(n_players, q)
                sign = np.full(n_players, tree.players[q].sign)
                mine = others.copy()
                mine[q] = False
                return sweep(tree, comp, sign, fixed=combined, fixed_movers=mine, tie=tie)

            level[q] = remembered(tree, ("M", k, q, tie), compute)
        sols = level
    return sols[p]
