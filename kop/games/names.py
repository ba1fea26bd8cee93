"""Strategies by name: ``minimax``, ``alphabeta``, ``M<d>`` (``M0`` is minimax), ``Mh``, ``HM0M<d>``.

Example
-------
>>> import kop
>>> t = kop.figure2()
>>> kop.strategy(t, "HM0M1", "A").value()
(9, 4)
"""

from __future__ import annotations

import re
from typing import Any

from kop.games.errors import StrategyError
from kop.games.tree import GameTree
from kop.games.checks import tree_argument
from kop.syntax.arguments import text

__all__ = ["strategy", "parse_strategy_name", "STRATEGY_NAMES"]

STRATEGY_NAMES = "minimax, alphabeta, M<d> (M0 = minimax), Mh, HM0M<d>"
_NAME = re.compile(r"(minimax|alphabeta|Mh|M(\d+)|HM0M(\d+))", re.IGNORECASE)
#: the largest d accepted for M<d> and HM0M<d>
MAX_D = 10_000


def parse_strategy_name(name: str) -> tuple[str, int | None]:
    """``("minimax"|"alphabeta"|"Mh"|"M"|"HM0M", d)`` from a strategy name."""
    m = _NAME.fullmatch(name.strip()) if isinstance(name, str) else None
    if m is None:
        raise StrategyError(f"unknown strategy {name!r} (use {STRATEGY_NAMES})")
    word = m.group(1).lower()
    if word in ("minimax", "alphabeta"):
        return word, None
    if word == "mh":
        return "Mh", None
    d = int(m.group(2) or m.group(3))
    if d > MAX_D:
        raise StrategyError(f"strategy {name!r}: d = {d} is above kop's limit {MAX_D}")
    return ("M" if m.group(2) is not None else "HM0M"), d


def strategy(tree: GameTree, name: str, player: str | None = None, *, tie: str = "first") -> Any:
    """The strategy called *name* for *player* (default: the first player) on *tree*."""
    tree_argument(tree)
    text(name, "name", "a strategy's name such as 'Mh', 'M2' or 'minimax'")
    from kop.games.alphabeta import alphabeta
    from kop.games.hm0m import hm0m
    from kop.games.mh import mh
    from kop.games.minimax import minimax
    from kop.games.mstar import mstar

    kind, d = parse_strategy_name(name)
    if player is not None:
        tree.player(player)
    if kind == "minimax":
        return minimax(tree, player, tie=tie)
    if kind == "alphabeta":
        return alphabeta(tree, player, tie=tie)
    if kind == "Mh":
        return mh(tree, tie=tie)
    assert d is not None  # M<d> and HM0M<d> name their depth
    if kind == "M":
        return mstar(tree, d, player, tie=tie)
    return hm0m(tree, d, player, tie=tie)
