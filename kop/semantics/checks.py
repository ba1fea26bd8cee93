"""Argument checks shared by the semantics functions (see :mod:`kop.syntax.arguments`).

>>> model_argument(None, "model")
Traceback (most recent call last):
...
kop.errors.ArgumentError: argument 'model': expected a KripkeModel (kop.KripkeModel, or a model file read \
with kop.KripkeModel.load), got None
"""

from __future__ import annotations

from typing import Any

from kop.semantics.model_value import ModelValue
from kop.syntax import arguments

__all__ = ["model_argument"]


def model_argument(value: Any, name: str = "model") -> ModelValue:
    """*value* when it is a :class:`~kop.semantics.model.KripkeModel` (a
    :class:`~kop.semantics.model_value.ModelValue`); else an :class:`~kop.errors.ArgumentError`."""
    if not isinstance(value, ModelValue):
        raise arguments.fail(name, "a KripkeModel (kop.KripkeModel, or a model file read with kop.KripkeModel.load)",
                             value)
    return value
