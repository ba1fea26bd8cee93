"""Errors of the games layer, defined in :mod:`kop.errors` and kept here under their old names.

All are :class:`kop.KopError` (a ``ValueError``).
"""

from __future__ import annotations

from kop.errors import EfgError, GameError, LimitError, StrategyError, TreeError

__all__ = ["TreeError", "EfgError", "StrategyError", "GameError", "LimitError"]
