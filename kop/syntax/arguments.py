"""Checking the arguments of kop's public functions (one small helper for every layer).

Each public function checks what it is given on entry and raises
:class:`~kop.errors.ArgumentError` naming the argument and what it
expected, instead of letting a ``TypeError``, ``AttributeError`` or
``KeyError`` escape from deep inside.

>>> integer(3, "depth", minimum=0)
3
>>> integer(-1, "depth", minimum=0)
Traceback (most recent call last):
...
kop.errors.ArgumentError: argument 'depth': expected an integer >= 0, got -1
>>> instance(None, dict, "options", "a dict")
Traceback (most recent call last):
...
kop.errors.ArgumentError: argument 'options': expected a dict, got None
>>> formula("K_a p", "phi")
kop.parse('K_a p')
"""

from __future__ import annotations

import math
import operator
import os
from typing import Any

from kop.errors import ArgumentError
from kop.syntax.formula import AGENT_RE, Formula

__all__ = ["describe", "fail", "instance", "integer", "real", "text", "path", "formula", "formulas", "flag", "seed",
           "agent", "items", "ArgumentError"]



def describe(value: Any) -> str:
    """A short description of *value* for a message: its repr, or its type when the repr is long."""
    if value is None or isinstance(value, (bool, int, float, str)):
        shown = repr(value)
        return shown if len(shown) <= 40 else f"{shown[:37]}..."
    return f"a {type(value).__name__}"


def fail(name: str, expected: str, value: Any) -> ArgumentError:
    """The error for argument *name*: *expected* (a phrase such as "a GameTree"), and what came."""
    return ArgumentError(f"argument {name!r}: expected {expected}, got {describe(value)}")


def instance(value: Any, types: type | tuple[type, ...], name: str, expected: str) -> Any:
    """*value* when it is an instance of *types*; else :class:`ArgumentError`."""
    if not isinstance(value, types):
        raise fail(name, expected, value)
    return value


def integer(value: Any, name: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """*value* as an int (Python or numpy integer, not a bool), within the bounds given."""
    what = "an integer" + (f" >= {minimum}" if minimum is not None else "") + \
        (f" <= {maximum}" if maximum is not None else "")
    if isinstance(value, bool):
        raise fail(name, what, value)
    try:
        out = operator.index(value)
    except TypeError:
        raise fail(name, what, value) from None
    if (minimum is not None and out < minimum) or (maximum is not None and out > maximum):
        raise fail(name, what, value)
    return out


def real(value: Any, name: str, minimum: float | None = None, maximum: float | None = None,
         finite: bool = True, nan: bool = False) -> float:
    """*value* as a float (any real number, not a bool or a string), within the bounds given.

    ``finite=False`` lets infinities through, ``nan=True`` NaN (for a caller that reports it itself).
    """
    what = ("a finite number" if finite else "a number") + (f" >= {minimum:g}" if minimum is not None else "") + \
        (f" <= {maximum:g}" if maximum is not None else "")
    if isinstance(value, (bool, str, bytes)):
        raise fail(name, what, value)
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise fail(name, what, value) from None
    if math.isnan(out):
        if nan:
            return out
        raise fail(name, what, value)
    if (finite and math.isinf(out)) or (minimum is not None and out < minimum) \
            or (maximum is not None and out > maximum):
        raise fail(name, what, value)
    return out


def text(value: Any, name: str, expected: str = "a string") -> str:
    """*value* when it is a str."""
    return instance(value, str, name, expected)  # type: ignore[no-any-return]


def path(value: Any, name: str) -> str | os.PathLike[str]:
    """*value* when it is a file path (a str or a path object)."""
    if isinstance(value, str) or (isinstance(value, os.PathLike) and isinstance(os.fspath(value), str)):
        return value
    raise fail(name, "a file path (str or pathlib.Path)", value)


def agent(value: Any, name: str) -> str:
    """*value* when it is an agent name (letters, digits and underscores)."""
    if not isinstance(value, str) or not AGENT_RE.fullmatch(value):
        raise fail(name, "an agent name (letters, digits and underscores)", value)
    return value


def formula(value: Any, name: str) -> Any:
    """*value* as a :class:`~kop.syntax.formula.Formula`: a Formula, or a string in kop's syntax (parsed)."""
    if isinstance(value, Formula):
        return value
    if isinstance(value, str):
        from kop.syntax.parser import parse

        return parse(value)
    raise fail(name, "a formula (a kop Formula or a string such as 'K_a p')", value)


def items(value: Any, name: str, expected: str) -> list[Any]:
    """*value* as a list: any iterable but a string, bytes or a mapping."""
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise fail(name, expected, value)
    return list(value)


def formulas(value: Any, name: str) -> list[Any]:
    """*value* as a list of formulas: one formula (or string), or an iterable of them."""
    if isinstance(value, (Formula, str)):
        return [formula(value, name)]
    return [formula(v, f"{name}[{i}]") for i, v in enumerate(items(value, name, "formulas (a list of "
                                                                                "formulas or strings)"))]


def flag(value: Any, name: str) -> bool:
    """*value* when it is True or False (a Python or numpy bool)."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return bool(value)
    raise fail(name, "True or False", value)


def seed(value: Any, name: str = "seed") -> Any:
    """*value* when it seeds a random generator: None, an integer >= 0, or a numpy Generator."""
    if value is None:
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            raise fail(name, "None, an integer >= 0 or a numpy Generator", value)
        return value
    import numpy as np

    if isinstance(value, (np.random.Generator, np.random.SeedSequence)):
        return value
    if isinstance(value, np.integer) and value >= 0:
        return int(value)
    raise fail(name, "None, an integer >= 0 or a numpy Generator", value)
