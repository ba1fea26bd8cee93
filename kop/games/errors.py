"""Errors of the games layer.  All are :class:`kop.KopError` (a ``ValueError``)."""

from __future__ import annotations

from kop.errors import KopError, LimitError

__all__ = ["TreeError", "EfgError", "StrategyError", "GameError", "LimitError"]


class TreeError(KopError):
    """A game tree is malformed; the message names the node path at fault (``root/1/0: ...``)."""


class EfgError(TreeError):
    """A Gambit ``.efg`` file is malformed or uses a feature kop does not support."""


class StrategyError(KopError):
    """A strategy name, parameter or player does not fit the tree."""


class GameError(KopError):
    """An implicit game broke its rules (no legal moves, an illegal move, a bad evaluation, ...).

    The message names the state and, where there is one, the move.
    """
