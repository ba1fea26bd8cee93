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

__all__ = ["small_models", "naive_model", "set_partitions", "total_preorders"]


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


def total_preorders(part: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every total preorder inside each block of *part*, as a rank per element (0 = most plausible).

    Each block's ranks are 0..k without gaps, so each preorder appears once.

    >>> len(total_preorders((0, 0, 0))), len(total_preorders((0, 0, 1)))     # Fubini numbers 13 and 3
    (13, 3)
    """
    n = len(part)
    out = []
    for ranks in product(range(n), repeat=n):
        used: dict[int, set[int]] = {}
        for b, r in zip(part, ranks):
            used.setdefault(b, set()).add(r)
        if all(u == set(range(len(u))) for u in used.values()):
            out.append(ranks)
    return out


@lru_cache(maxsize=16)
def _universe(agents: tuple[str, ...], atoms: tuple[str, ...], max_worlds: int,
              ranked: tuple[str, ...] = ()) -> Universe:
    block_cols: dict[str, list[int]] = {a: [] for a in agents}
    rank_cols: dict[str, list[int]] = {a: [] for a in ranked}
    val_cols: dict[str, list[bool]] = {p: [] for p in atoms}
    comp: list[int] = []
    offset = 0
    ncomp = 0
    for n in range(1, max_worlds + 1):
        # per agent: (partition, ranks); agents without plausibility rank every world 0
        per_agent = [[(part, ranks) for part in set_partitions(n)
                      for ranks in (total_preorders(part) if a in ranked else [(0,) * n])] for a in agents]
        for choice in product(*per_agent):
            for vals in product(range(1 << len(atoms)), repeat=n):
                for a, (part, ranks) in zip(agents, choice):
                    block_cols[a].extend(offset + b for b in part)
                    if a in ranked:
                        rank_cols[a].extend(ranks)
                for i, p in enumerate(atoms):
                    val_cols[p].extend(bool(v >> i & 1) for v in vals)
                comp.extend([ncomp] * n)
                offset += n
                ncomp += 1
    total = len(comp)
    model = KripkeModel.from_arrays(total, {a: np.array(block_cols[a], dtype=np.int64) for a in agents},
                                    {p: np.array(val_cols[p], dtype=bool) for p in atoms},
                                    agents=agents,
                                    plausibility={a: np.array(rank_cols[a], dtype=np.int64) for a in ranked}
                                    or None)
    return model, np.array(comp, dtype=np.int64)


def small_models(agents: Iterable[str], atoms: Iterable[str], max_worlds: int = 3,
                 ranked: Iterable[str] = ()) -> Universe:
    """The union of all S5_n models with at most *max_worlds* worlds: ``(model, component id per world)``.

    With *ranked* agents, the union of all **plausibility models**: each of those
    agents also ranks the worlds of each of its cells by every total preorder
    (:func:`total_preorders`), so ``B_a`` and ``B_a(ψ, φ)`` are checked by
    their definition over all of them.

    >>> from kop import parse
    >>> u = small_models(["a"], ["p"], 2, ranked=["a"])
    >>> naive_model(parse("B_a p & ~p"), u).satisfies("B_a p & ~p")
    True
    >>> naive_model(parse("B_a p & B_a ~p"), u) is None        # D: beliefs are consistent
    True
    """
    return _universe(tuple(sorted(agents)), tuple(sorted(atoms)), int(max_worlds), tuple(sorted(ranked)))


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
