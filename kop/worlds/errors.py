"""Errors of the worlds layer.  All are :class:`kop.KopError` (a ``ValueError``)."""

from __future__ import annotations

from kop.errors import KopError, LimitError

__all__ = ["WorldsError", "LimitError"]


class WorldsError(KopError):
    """A possible-worlds game, a belief function or a card-game setting is malformed.

    Examples
    --------
    >>> import kop
    >>> try:
    ...     kop.WorldsGame.build(("MAX", [[1, 0], [1]]))
    ... except kop.WorldsError as err:
    ...     print(err)
    root/1: payoff vector of length 1, but the game has 2 worlds
    """
