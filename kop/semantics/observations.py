"""Kripke models from observations (SMCDEL's knowledge structures, made explicit).

A *knowledge structure* is a vocabulary of atoms, a propositional *law* and,
for each agent, the atoms it *observes*.  Its worlds are the valuations of the
vocabulary that satisfy the law; an agent cannot tell apart two worlds that
agree on every atom it observes.  This module turns one into an explicit
:class:`~kop.semantics.model.KripkeModel`.

World names spell the valuation: ``w`` followed by one digit per vocabulary
atom, in vocabulary order (``w101`` over ``p q r``: p and r true, q false).
Worlds are listed in that order (false before true, first atom first).

Example
-------
>>> from kop import KripkeModel
>>> m = KripkeModel.from_observations(["p", "q"], "p | q", {"a": ["p"], "b": ["q"]}, actual=["p", "q"])
>>> m.worlds
('w01', 'w10', 'w11')
>>> m.satisfies("K_a p & ~K_a q & K_b q")
True
>>> sorted(m.block("a", "w11"))
['w10', 'w11']

Reference: van Benthem, van Eijck, Gattinger & Su, *Symbolic model checking
for Dynamic Epistemic Logic* (LORI 2015), Definition 1 (knowledge structures)
and Theorem 1 (every one is equivalent to an S5_n Kripke model).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

import numpy as np

from kop.errors import LimitError
from kop.semantics.errors import ModelError
from kop.semantics.model_value import ModelValue
from kop.semantics.propmodels import evaluate_rows, propositional_models
from kop.semantics.vocabulary import _names, _vocabulary
from kop.syntax.formula import AGENT_RE, Formula
from kop.syntax.parser import parse

__all__ = ["build_from_observations", "world_name", "MAX_WORLDS"]

M = TypeVar("M", bound=ModelValue)

#: The most worlds :func:`build_from_observations` builds unless told otherwise.
MAX_WORLDS = 1 << 22


def _law(law: Formula | str, vocab: list[str]) -> Formula:
    if isinstance(law, str):
        law = parse(law)
    if not isinstance(law, Formula):
        raise ModelError(f"the law must be a formula or a string, not {type(law).__name__}")
    if not law.is_propositional():
        raise ModelError("the law must be propositional (no knowledge or announcement operators)")
    unknown = sorted(law.atoms() - set(vocab))
    if unknown:
        raise ModelError(f"the law mentions atom(s) {', '.join(map(repr, unknown))} that are not in the vocabulary")
    return law


def world_name(vocabulary: Iterable[str], true_atoms: Iterable[str]) -> str:
    """The name :func:`build_from_observations` gives the world where exactly *true_atoms* hold.

    >>> world_name(["p", "q", "r"], ["r", "p"])
    'w101'
    """
    vocab = _vocabulary(vocabulary)
    on = set(_names(true_atoms, "the true atoms"))
    unknown = sorted(on - set(vocab))
    if unknown:
        raise ModelError(f"atom(s) {', '.join(map(repr, unknown))} are not in the vocabulary")
    return "w" + "".join("1" if a in on else "0" for a in vocab)


def _actual_rows(actual: Any, vocab: list[str]) -> list[np.ndarray] | None:
    """The designated valuations as boolean rows, or None for every world."""
    if actual is None:
        return None
    valuations: list[Any]
    if isinstance(actual, str):
        valuations = [actual]
    else:
        if not isinstance(actual, Iterable):
            raise ModelError(f"actual must list the atoms true at the actual world, not {type(actual).__name__}")
        items = list(actual)
        several = any(not isinstance(x, str) for x in items)
        if several and not all(not isinstance(x, str) and isinstance(x, Iterable) for x in items):
            raise ModelError("actual must be a list of atoms (one world) or a list of lists of atoms (several)")
        valuations = items if several else [items]
    col = {a: j for j, a in enumerate(vocab)}
    rows = []
    for val in valuations:
        row = np.zeros(len(vocab), dtype=bool)
        for a in _names(val, "an actual valuation"):
            if a not in col:
                raise ModelError(f"the actual world makes atom {a!r} true, but it is not in the vocabulary")
            row[col[a]] = True
        rows.append(row)
    return rows


def _block_ids(bits: np.ndarray) -> tuple[np.ndarray, int]:
    """Ids 0, 1, ... of the distinct rows of *bits* (one per world), and their number."""
    w, k = bits.shape
    if k == 0 or w == 0:
        return np.zeros(w, dtype=np.int64), int(w > 0)
    if k == 1:
        col = bits[:, 0]
        if col.all() or not col.any():
            return np.zeros(w, dtype=np.int64), 1
        return col.astype(np.int64), 2
    if k <= 62:
        key = np.zeros(w, dtype=np.int64)
        for j in range(k):
            key <<= 1
            key |= bits[:, j]
        if k <= 22:  # compact through a table of all possible keys
            present = np.zeros(1 << k, dtype=np.int64)
            present[key] = 1
            rank = np.cumsum(present) - 1
            return rank[key], int(rank[-1]) + 1
        _, inv = np.unique(key, return_inverse=True)
    else:
        _, inv = np.unique(bits, axis=0, return_inverse=True)
    inv = inv.reshape(-1).astype(np.int64)
    return inv, int(inv.max()) + 1


def _all_assignments(k: int) -> np.ndarray:
    """All 2^k rows of k booleans, in lexicographic order (first column most significant)."""
    out = np.empty((1 << k, k), dtype=bool)
    for j in range(k):
        half = 1 << (k - 1 - j)
        out[:, j] = np.tile(np.repeat(np.array([False, True]), half), 1 << j)
    return out


def _lex_order(bits: np.ndarray) -> np.ndarray:
    w, n = bits.shape
    if n == 0 or w <= 1:
        return np.arange(w)
    if n <= 62:
        code = bits.astype(np.int64) @ (np.int64(1) << np.arange(n - 1, -1, -1, dtype=np.int64))
        return np.argsort(code, kind="stable")
    return np.lexsort(bits.T[::-1])


def _world_names(bits: np.ndarray) -> list[str]:
    w, n = bits.shape
    raw = np.empty((w, n + 1), dtype=np.uint8)
    raw[:, 0] = ord("w")
    raw[:, 1:] = bits.view(np.uint8) + ord("0")
    text = raw.tobytes().decode("ascii")
    size = n + 1
    return [text[i:i + size] for i in range(0, len(text), size)]


def build_from_observations(
    cls: type[M],
    vocabulary: Iterable[str] | str,
    law: Formula | str,
    observables: Mapping[str, Iterable[str] | str],
    actual: Any = None,
    *,
    max_worlds: int = MAX_WORLDS,
    method: str = "auto",
) -> M:
    """The Kripke model of a knowledge structure (the body of :meth:`KripkeModel.from_observations
    <kop.semantics.model.KripkeModel.from_observations>`).

    Parameters
    ----------
    cls : type
        The class to build: :class:`~kop.semantics.model.KripkeModel` (or a subclass).
    vocabulary : iterable of str, or str
        The atoms, in order (a string is split at spaces and commas).
    law : Formula or str
        A propositional formula over the vocabulary; the worlds are its models.
    observables : mapping of agent to atoms
        The atoms each agent observes; two worlds that agree on them are
        indistinguishable for it.
    actual : optional
        The atoms true at the actual world (the others false), or a list of
        such lists for several designated worlds; None designates every world.
    max_worlds : int
        Raise :class:`~kop.errors.LimitError` rather than build more worlds.
    method : {"auto", "table", "sat"}
        How to enumerate the law's models (see :mod:`kop.semantics.propmodels`).

    Returns
    -------
    KripkeModel
        Worlds named by their valuation (see :func:`world_name`), in
        lexicographic order of the valuations.

    Raises
    ------
    ModelError
        An atom outside the vocabulary (in the law, an observation or the
        actual world), a modal law, an actual valuation that violates the law.
    LimitError
        More than *max_worlds* worlds.

    Examples
    --------
    >>> from kop import KripkeModel
    >>> m = build_from_observations(KripkeModel, "p q", "p -> q", {"a": "p"}, actual="q")
    >>> m.worlds, m.satisfies("~K_a q & K_a ~p")
    (('w00', 'w01', 'w11'), True)

    References
    ----------
    van Benthem, van Eijck, Gattinger & Su, "Symbolic model checking for
    Dynamic Epistemic Logic" (LORI 2015), Theorem 1.
    """
    vocab = _vocabulary(vocabulary)
    law_f = _law(law, vocab)
    observed = _observed(observables, vocab)
    designated = _actual_rows(actual, vocab)
    bits = _valuations(law_f, vocab, max_worlds, method)
    actual_idx = _designated(designated, law_f, vocab, bits)
    agents = tuple(observed)
    for agent in agents:
        if not isinstance(agent, str) or not AGENT_RE.fullmatch(agent):
            raise ModelError(f"invalid agent name {agent!r}: use letters, digits and underscores")
    blocks, nblocks = {}, {}
    for agent, cols in observed.items():
        blocks[agent], nblocks[agent] = _block_ids(bits[:, cols])
    columns = np.ascontiguousarray(bits.T)
    valuation = {a: columns[j] for j, a in enumerate(vocab)}
    # The arrays are consistent by construction (distinct valuations, so distinct
    # names; compact block ids), so the unchecked constructor is safe here.
    note = None if len(bits) else "the law has no models, so the model has no worlds"
    return cls._raw(tuple(_world_names(bits)), agents, blocks, nblocks, valuation, actual_idx, note)


def _observed(observables: Mapping[str, Iterable[str] | str], vocab: list[str]) -> dict[str, list[int]]:
    """Each agent's observed atoms, as sorted vocabulary positions."""
    if not isinstance(observables, Mapping):
        raise ModelError(f"observables must map each agent to the atoms it observes, not {type(observables).__name__}")
    col = {a: j for j, a in enumerate(vocab)}
    observed: dict[str, list[int]] = {}
    for agent, atoms in observables.items():
        cols = []
        for a in _names(atoms, f"the observables of agent {agent!r}"):
            if a not in col:
                raise ModelError(f"agent {agent!r} observes atom {a!r}, which is not in the vocabulary")
            cols.append(col[a])
        observed[agent] = sorted(set(cols))
    return observed


def _valuations(law_f: Formula, vocab: list[str], max_worlds: int, method: str) -> np.ndarray:
    """The models of *law_f* over *vocab* as rows of booleans, in lexicographic order: the law's
    models over its own atoms, times every assignment of the atoms it leaves free."""
    col = {a: j for j, a in enumerate(vocab)}
    law_atoms = [a for a in vocab if a in law_f.atoms()]
    free = [a for a in vocab if a not in law_f.atoms()]
    if len(free) >= 63 or (len(free) and (1 << len(free)) > max_worlds):
        raise LimitError(f"{len(free)} atoms are unconstrained by the law: more than {max_worlds} worlds")
    free_count = 1 << len(free)
    law_models = propositional_models(law_f, law_atoms, limit=max_worlds // free_count, method=method)
    total = len(law_models) * free_count
    if total > max_worlds:  # pragma: no cover - the limit above already stops this
        raise LimitError(f"the law has {total} models, more than {max_worlds}")
    bits = np.empty((total, len(vocab)), dtype=bool)
    law_cols = [col[a] for a in law_atoms]
    free_cols = [col[a] for a in free]
    if law_cols:
        bits[:, law_cols] = np.repeat(law_models, free_count, axis=0)
    if free_cols:
        bits[:, free_cols] = np.tile(_all_assignments(len(free)), (len(law_models), 1))
    if law_cols and free_cols:
        bits = bits[_lex_order(bits)]
    return bits


def _designated(designated: list[np.ndarray] | None, law_f: Formula, vocab: list[str], bits: np.ndarray
                ) -> np.ndarray:
    """The indices of the designated valuations among *bits* (every one for None), each once;
    an error for one that violates the law."""
    if designated is None:
        return np.arange(len(bits), dtype=np.int64)
    found: list[int] = []
    for row in designated:
        if not evaluate_rows(law_f, {a: row[j:j + 1] for j, a in enumerate(vocab)}, 1)[0]:
            on = [a for a, b in zip(vocab, row) if b]
            raise ModelError(f"the actual world (true atoms: {', '.join(on) or 'none'}) violates the law")
        i = int(np.flatnonzero((bits == row).all(axis=1))[0])
        if i not in found:
            found.append(i)
    return np.array(found, dtype=np.int64)
