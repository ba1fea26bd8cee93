"""Search on implicit games: minimax, alpha-beta, M^d (M*), M^h and HM0M^d, depth-limited.

:func:`search` is the one entry point; each algorithm has its own module.
Every search returns a :class:`SearchResult` (value, move, principal variation,
node count) and makes exactly the choices the array engine makes on the
expanded tree (:meth:`kop.GameTree.from_game`), ties to the first move.

Example
-------
>>> import kop
>>> kop.search(kop.nim(), "alphabeta").value
(-1, -1)
>>> g = kop.TreeGame(kop.figure2())
>>> kop.search(g, "M2").value, kop.search(g, "Mh").pv_names
((9, 4), ('S', 'U', 'X', '0'))
"""

from __future__ import annotations

from typing import Any

from kop.games.errors import StrategyError
from kop.games.implicit import Evaluations
from kop.games.search.mh import hm0m_search, mh_search
from kop.games.search.minimax import Order, alphabeta_search, minimax_search
from kop.games.search.mstar import mstar_search
from kop.games.search.result import SearchResult

__all__ = ["search", "SearchResult", "minimax_search", "alphabeta_search", "mstar_search",
           "mh_search", "hm0m_search"]


def search(game: Any, strategy: str, *, state: Any = None, depth: int | None = None,
           player: str | int | None = None, evaluations: Evaluations = None, prune: bool = True,
           bound: float | None = None, order: Order | None = None, iterative: bool = False,
           tie: str = "first", max_nodes: int | None = None, bounds: Any = None,
           types: Any = None, probabilities: Any = None, opponent: str | int | None = None) -> Any:
    """Search *game* with the strategy called *strategy* and return value, move, pv and nodes.

    *game* may also be a :class:`~kop.games.tree.GameTree` (searched as a
    :class:`~kop.games.implicit.TreeGame`).  Bodkin's searches on trees
    (``maxn``, ``bnb``, ``lower_eval``, ``bimodal``, ``paranoid``, ``expectimax``,
    ``star1``, ``star2``, ``cscout``, ``naive``, ``substructure``, ``dominating``;
    :mod:`kop.games.searches`) go by the same name: ``kop.search(tree, "bimodal",
    bounds=...)`` returns their own result.

    Parameters
    ----------
    game : an implicit game (:mod:`kop.games.implicit`), e.g. ``kop.nim()``,
        ``kop.TreeGame(tree)`` or ``kop.from_openspiel(...)``
    strategy : ``minimax``, ``alphabeta``, ``M<d>`` (``M0`` is minimax), ``Mh``, ``HM0M<d>``,
        ``PrOM`` or ``PrOM-Bayes`` (:mod:`kop.games.search.prom`)
    state : the root of the search (default: the game's initial state)
    depth : plies to search (None: to the end); the horizon is scored by the evaluations
    player : whose strategy, by name or index (default: the first player; M^h ignores it)
    evaluations : evaluation functions per player (mapping name -> function(state) -> number,
        or one per player); a player without one is scored by the game's payoffs
    prune : M^d: search the minimax models by alpha-beta (default) or by plain recursion
    bound : M^d: B for αβ* pruning, sound only when ``|u_P + u_Q| <= B`` at every leaf
    order : alphabeta: move-ordering hook ``order(state, move) -> score`` (higher first)
    iterative : alphabeta: iterative deepening
    tie : "first" (default, SPEC §3.1) or "last"
    max_nodes : stop with a LimitError past this many visited states (None: no limit)
    bounds : for Bodkin's searches on a game tree (``maxn``, ``paranoid``, ``star1``, ...; see
        :func:`kop.games.searches.search`), the payoff bounds their pruning relies on
    types, probabilities, opponent : for ``PrOM`` and ``PrOM-Bayes``: the opponent's types (one
        evaluation function ``state -> number`` each, or None for its own), their probabilities
        (default uniform) and whose types they are (default: the other of two players)
    """
    from kop.games.engine import check_tie
    from kop.games.implicit import TreeGame
    from kop.games.names import parse_strategy_name
    from kop.games.searches import is_search_name
    from kop.games.searches import search as tree_search
    from kop.games.tree import GameTree

    check_tie(tie)
    if not isinstance(strategy, str):
        raise StrategyError(f"the strategy is a name such as 'alphabeta' or 'M2', not {strategy!r}")
    if is_search_name(strategy):
        if not isinstance(game, GameTree):
            raise StrategyError(f"{strategy!r} is one of Bodkin's searches on game trees; give a GameTree "
                                "(kop.GameTree.from_game expands an implicit game)")
        if player is not None and not isinstance(player, str):
            player = game.players[player].name
        return tree_search(game, strategy, player, bounds=bounds)
    if bounds is not None:
        raise StrategyError(f"bounds apply to Bodkin's searches, not to {strategy!r} (for M^d see bound=)")
    if isinstance(game, GameTree):
        game = TreeGame(game)
    prom_kind = strategy.strip().lower().replace("_", "-")
    if prom_kind in ("prom", "prom-bayes"):
        from kop.games.search.prom import prom_search

        return prom_search(game, types, probabilities, state, depth, player, evaluations, opponent=opponent,
                           bayes=prom_kind == "prom-bayes", tie=tie, max_nodes=max_nodes)
    if types is not None or probabilities is not None or opponent is not None:
        raise StrategyError(f"types, probabilities and opponent apply to PrOM and PrOM-Bayes, not to {strategy!r}")
    kind, d = parse_strategy_name(strategy)
    if kind == "minimax" or (kind == "M" and d == 0):
        return minimax_search(game, state, depth, player, evaluations, tie=tie, max_nodes=max_nodes)
    if kind == "alphabeta":
        return alphabeta_search(game, state, depth, player, evaluations, order=order, iterative=iterative,
                                tie=tie, max_nodes=max_nodes)
    if kind == "Mh":
        return mh_search(game, state, depth, evaluations, tie=tie, max_nodes=max_nodes)
    assert d is not None
    if kind == "M":
        return mstar_search(game, d, state, depth, player, evaluations, prune=prune, bound=bound, tie=tie,
                            max_nodes=max_nodes)
    return hm0m_search(game, d, state, depth, player, evaluations, tie=tie, max_nodes=max_nodes)
