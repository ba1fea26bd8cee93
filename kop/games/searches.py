"""Bodkin's searches by name: N players (max^n and its pruning), chance, simultaneous moves.

=================  =======================================================  ==================
name               what                                                     module
=================  =======================================================  ==================
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

Example
-------
>>> import kop
>>> from kop.games.searches import search
>>> t = kop.bodkin_tree(3, 2, 6, m=1, eta=1, seed=1)
>>> search(t, "bimodal", bounds={"low": 0, "high": 1, "m": 1, "M": 1}).value == search(t, "maxn").value
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kop.games.errors import StrategyError
from kop.games.tree import GameTree

__all__ = ["search", "SEARCH_NAMES", "is_search_name"]

SEARCH_NAMES = ("maxn", "bnb", "lower_eval", "bimodal", "paranoid", "expectimax", "star1", "star2", "cscout",
                "naive", "substructure", "dominating")
_ALIASES = {"max^n": "maxn", "lower-eval": "lower_eval", "lowereval": "lower_eval", "branch-and-bound": "bnb",
            "bimodal_unimodal": "bimodal", "bimodal-unimodal": "bimodal", "star-1": "star1", "star-2": "star2",
            "pure_substructure": "pure_substructure"}


def canonical(name: str) -> str | None:
    """The search's canonical name, or None if *name* is not one of :data:`SEARCH_NAMES`."""
    if not isinstance(name, str):
        return None
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    return key if key in SEARCH_NAMES or key == "pure_substructure" else None


def is_search_name(name: str) -> bool:
    return canonical(name) is not None


def search(tree: GameTree, name: str, player: str | None = None, *,
           bounds: Mapping[str, Any] | tuple[float, float] | None = None) -> Any:
    """Run the search called *name* on *tree*; *bounds* are the payoff bounds it may rely on
    (a dict ``low``/``high``/``m``/``M`` for the N-player searches, ``(L, U)`` for Star1/2)."""
    key = canonical(name)
    if key is None:
        raise StrategyError(f"unknown search {name!r} (use {', '.join(SEARCH_NAMES)})")
    if player is not None:
        tree.player(player)
    if key in ("bnb", "lower_eval", "bimodal"):
        if bounds is not None and not isinstance(bounds, Mapping):
            raise StrategyError(f"{key}: bounds are a dict with low, high, m, M")
        if key == "bnb":
            from kop.games.nplayer.bnb import bnb
            return bnb(tree, bounds)
        if key == "lower_eval":
            from kop.games.nplayer.lower_eval import lower_eval
            return lower_eval(tree, bounds)
        from kop.games.nplayer.bimodal import bimodal
        return bimodal(tree, bounds)
    if key == "maxn":
        from kop.games.nplayer.maxn import maxn
        return maxn(tree)
    if key == "paranoid":
        from kop.games.nplayer.paranoid import paranoid
        return paranoid(tree, player)
    if key in ("star1", "star2"):
        rng = None
        if isinstance(bounds, Mapping):
            lo, hi = bounds.get("low"), bounds.get("high")
            rng = None if lo is None or hi is None else (float(lo), float(hi))
        elif bounds is not None:
            rng = (float(bounds[0]), float(bounds[1]))
        if key == "star1":
            from kop.games.chance.star1 import star1
            return star1(tree, player, bounds=rng)
        from kop.games.chance.star2 import star2
        return star2(tree, player, bounds=rng)
    if key == "expectimax":
        from kop.games.chance.expectimax import expectimax
        return expectimax(tree, player)
    if key == "cscout":
        from kop.games.chance.cscout import cscout
        return cscout(tree, player)
    if key == "naive":
        from kop.games.simultaneous.naive import naive
        return naive(tree, player)
    if key in ("substructure", "pure_substructure"):
        from kop.games.simultaneous.substructure import substructure
        return substructure(tree, player, pure=key == "pure_substructure")
    from kop.games.simultaneous.dominating import dominating
    return dominating(tree, player)
