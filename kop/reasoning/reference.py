"""A deliberately naive reference: search every small S5_n model.

:func:`small_models` builds the disjoint union of *all* S5_n models with up to
``max_worlds`` worlds over the given agents and atoms (every valuation, every
partition per agent).  A formula's truth at a world depends only on the
world's connected component, and announcements restrict each component
separately, so one model check of the union answers "is there a model with at
most ``max_worlds`` worlds where φ holds?" for all of them at once.

It is incomplete by design (a formula may need more worlds), so it is used in
one direction only: where it finds a model of φ, the prover must not call φ
unsatisfiable; where it finds a model of ¬φ, the prover must not call φ valid.

    >>> from kop import parse
    >>> u = small_models(["a", "b"], ["p"], 2)
    >>> naive_model(parse("E{a,b} p & ~C{a,b} p"), u) is None    # needs 3 worlds
    True
    >>> naive_model(parse("E{a,b} p & ~C{a,b} p"), small_models(["a", "b"], ["p"], 3)) is not None
    True
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import product

import numpy as np

from kop.semantics.model import KripkeModel
from kop.syntax.formula import Formula

#: every small model at once: the disjoint union, and the component (small model) of each world
Universe = tuple[KripkeModel, np.ndarray]

__all__ = ["small_models", "naive_model", "set_partitions"]


def set_partitions(n: int) -> list[tuple[int, ...]]:
    """Every partition of {0..n-1} as a restricted growth string (block id per element)."""
    out: list[tuple[int, ...]] = []

    def grow(prefix: list[int], top: int) -> None:
        if len(prefix) == n:
            out.append(tuple(prefix))
            return
        for b in range(top + 2):
            grow(prefix + [b], max(top, b))

    if n == 0:
        return [()]
    grow([0], 0)
    return out


@lru_cache(maxsize=16)
def _universe(agents: tuple[str, ...], atoms: tuple[str, ...], max_worlds: int) -> Universe:
    block_cols: dict[str, list[int]] = {a: [] for a in agents}
    val_cols: dict[str, list[bool]] = {p: [] for p in atoms}
    comp: list[int] = []
    offset = 0
    ncomp = 0
    for n in range(1, max_worlds + 1):
        parts = set_partitions(n)
        for choice in product(parts, repeat=len(agents)):
            for vals in product(range(1 << len(atoms)), repeat=n):
                for a, part in zip(agents, choice):
                    block_cols[a].extend(offset + b for b in part)
                for i, p in enumerate(atoms):
                    val_cols[p].extend(bool(v >> i & 1) for v in vals)
                comp.extend([ncomp] * n)
                offset += n
                ncomp += 1
    total = len(comp)
    model = KripkeModel.from_arrays(total, {a: np.array(block_cols[a], dtype=np.int64) for a in agents},
                                    {p: np.array(val_cols[p], dtype=bool) for p in atoms},
                                    agents=agents)
    return model, np.array(comp, dtype=np.int64)


def small_models(agents: Iterable[str], atoms: Iterable[str], max_worlds: int = 3) -> Universe:
    """The union of all S5_n models with at most *max_worlds* worlds: ``(model, component id per world)``."""
    return _universe(tuple(sorted(agents)), tuple(sorted(atoms)), int(max_worlds))


def naive_model(phi: Formula, universe: Universe) -> KripkeModel | None:
    """A small model (one component of *universe*) whose designated world satisfies *phi*, or None."""
    model, comp = universe
    mask = model.truth_mask(phi)
    hits = np.flatnonzero(mask)
    if len(hits) == 0:
        return None
    w = int(hits[0])
    members = np.flatnonzero(comp == comp[w])
    names = [model.worlds[i] for i in members]
    small: KripkeModel = model.restrict(names).with_actual(model.worlds[w])
    return small
