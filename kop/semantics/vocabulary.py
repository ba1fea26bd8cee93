"""Reading atom lists and vocabularies (shared by the explicit and the symbolic model builders).

Kept apart from :mod:`kop.semantics.observations` so that the symbolic
engine, which needs these readers, does not import numpy.

    >>> _vocabulary("p q, r")
    ['p', 'q', 'r']
    >>> _vocabulary(["p", "p"])
    Traceback (most recent call last):
    ...
    kop.errors.ModelError: the vocabulary lists atom 'p' twice
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from kop.semantics.errors import ModelError
from kop.syntax.formula import ATOM_RE, Formula, is_reserved_atom

__all__: list[str] = []


def _names(atoms: Any, what: str) -> list[str]:
    if isinstance(atoms, str):
        atoms = [a for a in re.split(r"[\s,]+", atoms) if a]
    elif isinstance(atoms, Formula) or not isinstance(atoms, Iterable):
        raise ModelError(f"{what} must be a list of atom names, not {type(atoms).__name__}")
    out = list(atoms)
    for a in out:
        if not isinstance(a, str):
            raise ModelError(f"{what}: {a!r} is not an atom name")
    return out


def _vocabulary(vocabulary: Any) -> list[str]:
    vocab = _names(vocabulary, "the vocabulary")
    seen: set[str] = set()
    for a in vocab:
        if not ATOM_RE.fullmatch(a) or is_reserved_atom(a):
            raise ModelError(f"the vocabulary: {a!r} is not a valid atom name")
        if a in seen:
            raise ModelError(f"the vocabulary lists atom {a!r} twice")
        seen.add(a)
    return vocab
