"""Argument checks shared by the semantics functions (see :mod:`kop.syntax.arguments`).

>>> model_argument(None, "model")
Traceback (most recent call last):
...
kop.errors.ArgumentError: argument 'model': expected a KripkeModel (kop.KripkeModel, or a model file read \
with kop.KripkeModel.load), got None
"""

from __future__ import annotations

from typing import Any

from kop.semantics.model import KripkeModel
from kop.syntax import arguments

__all__ = ["model_argument"]


def model_argument(value: Any, name: str = "model") -> KripkeModel:
    """*value* when it is a :class:`~kop.semantics.model.KripkeModel`."""
    if not isinstance(value, KripkeModel):
        raise arguments.fail(name, "a KripkeModel (kop.KripkeModel, or a model file read with kop.KripkeModel.load)",
                             value)
    return value
