"""Every strategy and search by its name: :func:`strategy` on whole trees, :func:`search` on games.

One registry for the names of :class:`~kop.games.names.StrategyName`:

=================  =======================================================  ==================
name               what                                                     module
=================  =======================================================  ==================
``minimax``        Algorithm 1: one player's evaluation for everybody       strategies.minimax
``alphabeta``      minimax by alpha-beta search                             strategies.alphabeta
``M<d>``           Algorithm 2: Carmel & Markovitch's M^d (``M0`` minimax)  strategies.mstar
``Mh``             Algorithm 4: every player optimizes its own payoff       strategies.mh
``HM0M<d>``        Algorithm 5: M^h up to height d, minimax above           strategies.hm0m
``PrOM``           probabilistic opponent model (implicit games)            search.prom
``PrOM-Bayes``     PrOM with Bayesian updates (implicit games)              search.prom
``maxn``           naive max^n (every player maximizes its own payoff)      nplayer.maxn
``bnb``            Branch-and-Bound, shallow pruning with sum bounds        nplayer.bnb
``lower_eval``     Lower-Eval, deep cutoffs from floors                     nplayer.lower_eval
``bimodal``        Bimodal-/Unimodal-Eval, deep cutoffs                     nplayer.bimodal
``paranoid``       the player's maximin against all the others              nplayer.paranoid
``expectimax``     *-minimax with chance nodes, full search                 chance.expectimax
``star1``          Ballard's Star1                                          chance.star1
``star2``          Ballard's Star2 (probing)                                chance.star2
``cscout``         Bodkin's CSCOUT                                          chance.cscout
``naive``          simultaneous moves: Naive-Solution (an LP per stage)     simultaneous.naive
``substructure``   simultaneous moves: Substructure-Eval                    simultaneous.substructure
``dominating``     simultaneous moves: Dominating-Eval                      simultaneous.dominating
=================  =======================================================  ==================

Every result answers ``value`` (the root's value), ``move`` (the root's choice) and ``nodes``
(see :mod:`kop.games.result`).

Examples
--------
>>> import kop
>>> t = kop.figure2()
>>> kop.strategy(t, "HM0M1", "A").value, kop.search(t, "Mh").value
((9, 4), (10, 3))
>>> b = kop.bodkin_tree(3, 2, 6, m=1, eta=1, seed=1)
>>> kop.search(b, "bimodal", bounds={"low": 0, "high": 1, "m": 1, "M": 1}).value == kop.search(b, "maxn").value
True
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

from kop.games.errors import StrategyError
from kop.games.search.implicit import Evaluations
from kop.games.search.treegame import TreeGame
from kop.games.names import SEARCH_NAMES, StrategyName
from kop.games.search.mh import hm0m_search, mh_search
from kop.games.search.minimax import Order, alphabeta_search, minimax_search
from kop.games.search.mstar import mstar_search
from kop.games.strategies.alphabeta import alphabeta
from kop.games.strategies.hm0m import hm0m
from kop.games.strategies.mh import mh
from kop.games.strategies.minimax import minimax
from kop.games.strategies.mstar import mstar
from kop.games.strategies.engine import check_tie
from kop.games.strategies.strategy import TreeStrategy
from kop.games.trees.checks import tree_argument
from kop.games.trees.tree import GameTree
from kop.syntax.arguments import text
from kop.games.search.prom import prom_search

__all__ = ["strategy", "search"]

#: Bodkin's searches: name -> (module, function); imported when first used (scipy for the LPs)
_BODKIN: dict[str, tuple[str, str]] = {
    "maxn": ("kop.games.nplayer.maxn", "maxn"),
    "bnb": ("kop.games.nplayer.bnb", "bnb"),
    "lower_eval": ("kop.games.nplayer.lower_eval", "lower_eval"),
    "bimodal": ("kop.games.nplayer.bimodal", "bimodal"),
    "paranoid": ("kop.games.nplayer.paranoid", "paranoid"),
    "expectimax": ("kop.games.chance.expectimax", "expectimax"),
    "star1": ("kop.games.chance.star1", "star1"),
    "star2": ("kop.games.chance.star2", "star2"),
    "cscout": ("kop.games.chance.cscout", "cscout"),
    "naive": ("kop.games.simultaneous.naive", "naive"),
    "substructure": ("kop.games.simultaneous.substructure", "substructure"),
    "pure_substructure": ("kop.games.simultaneous.substructure", "substructure"),
    "dominating": ("kop.games.simultaneous.dominating", "dominating"),
}
assert set(SEARCH_NAMES) <= set(_BODKIN)


def strategy(tree: GameTree, name: str | StrategyName, player: str | None = None, *,
             tie: str = "first") -> TreeStrategy:
    """The strategy called *name* for *player* (default: the first player) on the whole *tree*.

    Parameters
    ----------
    tree : GameTree
    name : str or StrategyName
        ``minimax``, ``alphabeta``, ``M<d>`` (``M0`` is minimax), ``Mh`` or ``HM0M<d>``.
    player : str, optional
        Whose strategy (default: the first player; M^h models every player alike).
    tie : "first" or "last"

    Returns
    -------
    TreeStrategy
        ``next(n)`` and ``value_at(n)`` at every node; ``value``, ``move``, ``path`` at the root.

    Examples
    --------
    >>> import kop
    >>> kop.strategy(kop.figure2(), "HM0M1", "A").value
    (9, 4)
    """
    tree_argument(tree)
    if not isinstance(name, StrategyName):
        text(name, "name", "a strategy's name such as 'Mh', 'M2' or 'minimax'")
    n = StrategyName.parse(str(name), "kop")
    if player is not None:
        tree.player(player)
    if n.kind == "minimax":
        return minimax(tree, player, tie=tie)
    if n.kind == "alphabeta":
        return alphabeta(tree, player, tie=tie)
    if n.kind == "Mh":
        return mh(tree, tie=tie)
    assert n.d is not None  # M<d> and HM0M<d> name their depth
    if n.kind == "M":
        return mstar(tree, n.d, player, tie=tie)
    return hm0m(tree, n.d, player, tie=tie)


def search(game: Any, strategy: str | StrategyName, *, state: Any = None, depth: int | None = None,
           player: str | int | None = None, evaluations: Evaluations = None, prune: bool = True,
           bound: float | None = None, order: Order | None = None, iterative: bool = False,
           tie: str = "first", max_nodes: int | None = None, bounds: Any = None,
           types: Any = None, probabilities: Any = None, opponent: str | int | None = None) -> Any:
    """Search *game* with the strategy called *strategy* and return its value, move and nodes.

    *game* may also be a :class:`~kop.games.trees.tree.GameTree` (searched as a
    :class:`~kop.games.search.treegame.TreeGame`).  Bodkin's searches on trees
    (``maxn``, ``bnb``, ``lower_eval``, ``bimodal``, ``paranoid``, ``expectimax``,
    ``star1``, ``star2``, ``cscout``, ``naive``, ``substructure``, ``dominating``)
    go by the same name: ``kop.search(tree, "bimodal", bounds=...)`` returns their own result.

    Parameters
    ----------
    game : an implicit game (:mod:`kop.games.search.implicit`), e.g. ``kop.nim()``,
        ``kop.TreeGame(tree)`` or ``kop.from_openspiel(...)``, or a GameTree
    strategy : ``minimax``, ``alphabeta``, ``M<d>`` (``M0`` is minimax), ``Mh``, ``HM0M<d>``,
        ``PrOM`` or ``PrOM-Bayes`` (:mod:`kop.games.search.prom`), or one of Bodkin's searches
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
    bounds : for Bodkin's searches on a game tree, the payoff bounds their pruning relies on
        (a dict ``low``/``high``/``m``/``M`` for the N-player searches, ``(L, U)`` for Star1/2)
    types, probabilities, opponent : for ``PrOM`` and ``PrOM-Bayes``: the opponent's types (one
        evaluation function ``state -> number`` each, or None for its own), their probabilities
        (default uniform) and whose types they are (default: the other of two players)

    Returns
    -------
    SearchResult, or the result of one of Bodkin's searches
        ``value``, ``move`` and ``nodes`` (see :mod:`kop.games.result`).

    Examples
    --------
    >>> import kop
    >>> kop.search(kop.nim(), "alphabeta").value
    (-1, -1)
    >>> g = kop.TreeGame(kop.figure2())
    >>> kop.search(g, "M2").value, kop.search(g, "Mh").pv_names
    ((9, 4), ('S', 'U', 'X', '0'))

    References
    ----------
    T. Sang, J.-H. Chen, *Beyond Minimax: Nonzero-Sum Game Tree Search with Knowledge Oriented
    Players*; lecture notes *Adversarial Search* (m,p-Nim, alpha-beta).
    """
    check_tie(tie)
    if not isinstance(strategy, (str, StrategyName)):
        raise StrategyError(f"the strategy is a name such as 'alphabeta' or 'M2', not {strategy!r}")
    name = strategy if isinstance(strategy, StrategyName) else StrategyName.parse(strategy)
    if name.family == "bodkin":
        if not isinstance(game, GameTree):
            raise StrategyError(f"{str(name)!r} is one of Bodkin's searches on game trees; give a GameTree "
                                "(kop.GameTree.from_game expands an implicit game)")
        if player is not None and not isinstance(player, str):
            player = game.players[player].name
        return _bodkin(game, name.kind, player, bounds)
    if bounds is not None:
        raise StrategyError(f"bounds apply to Bodkin's searches, not to {str(name)!r} (for M^d see bound=)")
    if isinstance(game, GameTree):
        game = TreeGame(game)
    if name.family == "prom":
        return prom_search(game, types, probabilities, state, depth, player, evaluations, opponent=opponent,
                           bayes=name.kind == "PrOM-Bayes", tie=tie, max_nodes=max_nodes)
    if types is not None or probabilities is not None or opponent is not None:
        raise StrategyError(f"types, probabilities and opponent apply to PrOM and PrOM-Bayes, not to {str(name)!r}")
    if name.kind == "minimax" or (name.kind == "M" and name.d == 0):
        return minimax_search(game, state, depth, player, evaluations, tie=tie, max_nodes=max_nodes)
    if name.kind == "alphabeta":
        return alphabeta_search(game, state, depth, player, evaluations, order=order, iterative=iterative,
                                tie=tie, max_nodes=max_nodes)
    if name.kind == "Mh":
        return mh_search(game, state, depth, evaluations, tie=tie, max_nodes=max_nodes)
    assert name.d is not None
    if name.kind == "M":
        return mstar_search(game, name.d, state, depth, player, evaluations, prune=prune, bound=bound, tie=tie,
                            max_nodes=max_nodes)
    return hm0m_search(game, name.d, state, depth, player, evaluations, tie=tie, max_nodes=max_nodes)


def _bodkin(tree: GameTree, key: str, player: str | None, bounds: Any) -> Any:
    """Run Bodkin's search *key* on *tree* with the payoff *bounds* its pruning relies on."""
    if player is not None:
        tree.player(player)
    module, attr = _BODKIN[key]
    fn: Callable[..., Any] = getattr(importlib.import_module(module), attr)
    if key in ("bnb", "lower_eval", "bimodal"):
        if bounds is not None and not isinstance(bounds, Mapping):
            raise StrategyError(f"{key}: bounds are a dict with low, high, m, M")
        return fn(tree, bounds)
    if key == "maxn":
        return fn(tree)
    if key in ("star1", "star2"):
        rng = None
        if isinstance(bounds, Mapping):
            lo, hi = bounds.get("low"), bounds.get("high")
            rng = None if lo is None or hi is None else (float(lo), float(hi))
        elif bounds is not None:
            rng = (float(bounds[0]), float(bounds[1]))
        return fn(tree, player, bounds=rng)
    if key in ("substructure", "pure_substructure"):
        return fn(tree, player, pure=key == "pure_substructure")
    return fn(tree, player)
