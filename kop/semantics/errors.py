"""Errors of the semantics layer: :class:`kop.errors.ModelError`, kept here under its old name."""

from __future__ import annotations

from kop.errors import ModelError

__all__ = ["ModelError"]
