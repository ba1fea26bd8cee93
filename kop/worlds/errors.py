"""Errors of the worlds layer.  All are :class:`kop.KopError` (a ``ValueError``)."""

from __future__ import annotations

from kop.errors import KopError, LimitError

__all__ = ["WorldsError", "LimitError"]


class WorldsError(KopError):
    """A possible-worlds game, a belief function or a card-game setting is malformed."""
