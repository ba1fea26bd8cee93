"""Errors of the worlds layer, defined in :mod:`kop.errors` and kept here under their old names.

All are :class:`kop.KopError` (a ``ValueError``).
"""

from __future__ import annotations

from kop.errors import LimitError, WorldsError

__all__ = ["WorldsError", "LimitError"]
