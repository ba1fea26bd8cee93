"""Argument checks shared by the possible-worlds functions (see :mod:`kop.syntax.arguments`).

>>> game_argument("game")
Traceback (most recent call last):
...
kop.errors.ArgumentError: argument 'game': expected a WorldsGame (kop.random_worlds_game, kop.card_game \
or kop.WorldsGame), got 'game'
"""

from __future__ import annotations

from typing import Any

from kop.syntax import arguments
from kop.worlds.game import WorldsGame

__all__ = ["game_argument"]


def game_argument(value: Any, name: str = "game") -> WorldsGame:
    """*value* when it is a :class:`~kop.worlds.game.WorldsGame`."""
    if not isinstance(value, WorldsGame):
        raise arguments.fail(name, "a WorldsGame (kop.random_worlds_game, kop.card_game or kop.WorldsGame)", value)
    return value
