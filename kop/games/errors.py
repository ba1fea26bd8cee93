"""Errors of the games layer.  All are :class:`kop.KopError` (a ``ValueError``)."""

from __future__ import annotations

from kop.errors import KopError, LimitError

__all__ = ["TreeError", "EfgError", "StrategyError", "GameError", "LimitError"]


class TreeError(KopError):
    """A game tree is malformed; the message names the node path at fault (``root/1/0: ...``).

    Examples
    --------
    >>> import kop
    >>> try:
    ...     kop.GameTree.build(["A", "B"], ("A", []))
    ... except kop.TreeError as err:
    ...     print(err)
    root: inner node has no children
    """


class EfgError(TreeError):
    """A Gambit ``.efg`` file is malformed or uses a feature kop does not support."""


class StrategyError(KopError):
    """A strategy name, parameter or player does not fit the tree."""


class GameError(KopError):
    """An implicit game broke its rules (no legal moves, an illegal move, a bad evaluation, ...).

    The message names the state and, where there is one, the move.

    Examples
    --------
    >>> import kop
    >>> g = kop.nim((2, 1))
    >>> try:
    ...     g.apply(g.initial_state(), (5, 5))
    ... except kop.GameError as err:
    ...     print(err)
    move (5, 5) is not legal at ((2, 1), 'MAX'): take k >= 1 matches from a pile i
    """
