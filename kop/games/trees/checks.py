"""Argument checks shared by the game functions (see :mod:`kop.syntax.arguments`).

>>> import kop
>>> tree_argument(kop.figure2()).player_names
('A', 'B')
>>> tree_argument("figure2.json")
Traceback (most recent call last):
...
kop.errors.ArgumentError: argument 'tree': expected a GameTree (from kop.load_tree, kop.loads_tree or \
kop.GameTree.build), got 'figure2.json'
"""

from __future__ import annotations

from typing import Any

from kop.games.trees.tree import GameTree
from kop.syntax import arguments

__all__ = ["TREE", "tree_argument", "player_argument", "tie_argument"]

#: what a tree argument is
TREE = "a GameTree (from kop.load_tree, kop.loads_tree or kop.GameTree.build)"


def tree_argument(value: Any, name: str = "tree") -> GameTree:
    """*value* when it is a :class:`~kop.games.trees.tree.GameTree`."""
    if not isinstance(value, GameTree):
        raise arguments.fail(name, TREE, value)
    return value


def player_argument(value: Any, name: str = "player") -> str | None:
    """*value* when it is None or a player's name (a string)."""
    if value is not None and not isinstance(value, str):
        raise arguments.fail(name, "a player's name (a string) or None", value)
    return value


def tie_argument(value: Any) -> str:
    """*value* when it is ``"first"`` or ``"last"``."""
    if value not in ("first", "last") or not isinstance(value, str):
        raise arguments.fail("tie", "'first' or 'last'", value)
    return str(value)
