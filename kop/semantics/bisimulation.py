"""Bisimulation: contraction by partition refinement, bisimilarity, generated submodels.

Two worlds are bisimilar when they agree on every atom and, for every agent,
each world one of them cannot tell apart is bisimilar to one the other cannot
tell apart.  Bisimilar worlds satisfy the same formulas of the whole language
(with common and distributed knowledge and announcements in S5), so a model
can be contracted to one world per bisimulation class.

The coarsest bisimulation is computed by partition refinement: start from the
classes of worlds with the same valuation; in each round, give every world the
signature (its class, and for every agent the *set* of classes in its block)
and split classes by signature; stop when no class splits.  Each round is a
few numpy sorts over the worlds.

>>> from kop import KripkeModel, bisimilar
>>> m = KripkeModel({"u": ["p"], "v": ["p"], "x": []}, {"a": [["u", "x"], ["v"]]}, "u")
>>> len(m.minimize()) # u and v differ: a cannot tell u from a ~p world
3
>>> m2 = KripkeModel({"u": ["p"], "v": ["p"]}, {"a": [["u"], ["v"]]}, "u")
>>> len(m2.minimize())
1
>>> bisimilar(m2, m2.minimize())
True

Reference: Blackburn, de Rijke & Venema, *Modal Logic* (2001), §2.2 (bisimulation,
generated submodels); Paige & Tarjan, *Three partition refinement algorithms* (1987).
"""

from __future__ import annotations

import numpy as np

from kop.semantics.errors import ModelError
from kop.semantics.model import KripkeModel

__all__ = ["bisimulation_classes", "minimize", "bisimilar", "generated_submodel"]


def bisimulation_classes(model: KripkeModel) -> np.ndarray:
    """The coarsest bisimulation of *model*: a class id per world (0, 1, ... by first world).

    Worlds with equal ids are bisimilar.
    """
    atoms = sorted(model.atoms)
    blocks = [model._blocks[a] for a in model.agents]
    return _refine(_valuation_classes(model, atoms), blocks)


def _valuation_classes(model: KripkeModel, atoms: list[str]) -> np.ndarray:
    n = len(model)
    if not atoms or n == 0:
        return np.zeros(n, dtype=np.int64)
    rows = np.stack([model._atoms[p] if p in model._atoms else np.zeros(n, dtype=bool) for p in atoms], axis=1)
    return _dense(rows.astype(np.int8))


def _dense(rows: np.ndarray) -> np.ndarray:
    """Ids 0, 1, ... for the distinct rows of *rows*, numbered by first occurrence."""
    if rows.ndim == 1:
        rows = rows[:, None]
    if len(rows) == 0:
        return np.zeros(0, dtype=np.int64)
    _, first, inv = np.unique(rows, axis=0, return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first))
    return rank[inv.reshape(-1)]


def _block_signatures(ids: np.ndarray, cls: np.ndarray, k: int) -> np.ndarray:
    """For each world, an id of the set of classes (of *cls*, k classes) in its block."""
    codes = np.unique(ids * k + cls)           # distinct (block, class) pairs, sorted
    blk, members = codes // k, codes % k
    starts = np.flatnonzero(np.r_[True, blk[1:] != blk[:-1]])
    lengths = np.diff(np.r_[starts, len(codes)])
    block_of = blk[starts]
    sig = np.empty(len(starts), dtype=np.int64)
    next_id = 0
    # blocks with the same number of classes are compared as rows of a matrix
    for length in np.unique(lengths).tolist():
        which = np.flatnonzero(lengths == length)
        rows = members[starts[which][:, None] + np.arange(length)[None, :]]
        _, inv = np.unique(rows, axis=0, return_inverse=True)
        inv = inv.reshape(-1)
        sig[which] = inv + next_id
        next_id += int(inv.max()) + 1
    lookup = np.zeros(int(ids.max()) + 1, dtype=np.int64)
    lookup[block_of] = sig
    return lookup[ids]


def _refine(cls: np.ndarray, blocks: list[np.ndarray]) -> np.ndarray:
    if len(cls) == 0:
        return cls
    count = int(cls.max()) + 1
    while True:
        cols = [cls] + [_block_signatures(ids, cls, count) for ids in blocks]
        new = _dense(np.stack(cols, axis=1))
        new_count = int(new.max()) + 1
        if new_count == count:
            return new
        cls, count = new, new_count


def minimize(model: KripkeModel) -> KripkeModel:
    """The bisimulation contraction of *model*: one world per bisimulation class.

    Each class is named after its first world; designated: the classes of the
    designated worlds.  Every formula holds at a world of *model* iff it holds
    at that world's class.
    """
    cls = bisimulation_classes(model)
    n = len(model)
    if n == 0:
        return model
    k = int(cls.max()) + 1
    reps = np.zeros(k, dtype=np.int64)
    reps[cls[::-1]] = np.arange(n - 1, -1, -1)   # first world of each class
    worlds = tuple(model.worlds[i] for i in reps.tolist())
    blocks, nblocks = {}, {}
    for a in model.agents:
        sig = _block_signatures(model._blocks[a], cls, k)
        blocks[a] = _dense(sig[reps])
        nblocks[a] = int(blocks[a].max()) + 1
    atoms = {p: v[reps] for p, v in model._atoms.items() if v.any()}
    actual = np.unique(cls[model._actual])
    actual = actual[np.argsort(reps[actual], kind="stable")] if len(actual) else actual
    return KripkeModel._raw(worlds, model.agents, blocks, nblocks, atoms, actual.astype(np.int64), model.note)


def bisimilar(m1: KripkeModel, m2: KripkeModel, w1: str | None = None, w2: str | None = None) -> bool:
    """Whether two models are bisimilar, as pointed models.

    With *w1* and *w2*: whether those two worlds are bisimilar.  Without:
    whether every designated world of *m1* is bisimilar to some designated
    world of *m2* and vice versa.  Atoms missing from a model are false
    throughout it.

    Raises
    ------
    ModelError
        If the models have different agents, or a world is unknown.
    """
    if set(m1.agents) != set(m2.agents):
        raise ModelError(f"cannot compare models with different agents: {sorted(m1.agents)} and {sorted(m2.agents)}")
    if (w1 is None) != (w2 is None):
        raise ModelError("name a world in both models, or in neither")
    n1 = len(m1)
    atoms = sorted(m1.atoms | m2.atoms)
    n = n1 + len(m2)

    def column(p: str) -> np.ndarray:
        a = m1._atoms.get(p, np.zeros(n1, dtype=bool))
        b = m2._atoms.get(p, np.zeros(len(m2), dtype=bool))
        return np.concatenate([a, b])

    if atoms and n:
        init = _dense(np.stack([column(p) for p in atoms], axis=1).astype(np.int8))
    else:
        init = np.zeros(n, dtype=np.int64)
    blocks = [np.concatenate([m1._blocks[a], m2._blocks[a] + m1._nblocks[a]]) for a in m1.agents]
    cls = _refine(init, blocks)
    if w1 is not None:
        return bool(cls[m1.index(w1)] == cls[n1 + m2.index(w2)])
    left = set(cls[m1._actual].tolist())
    right = set(cls[n1 + m2._actual].tolist())
    return left == right


def generated_submodel(model: KripkeModel) -> KripkeModel:
    """The submodel of the worlds reachable from a designated world by steps of any agents.

    Every formula has the same truth value at the designated worlds here as in *model*.
    """
    from kop.semantics.checker import components

    n = len(model)
    keep = np.zeros(n, dtype=bool)
    if n == 0 or len(model._actual) == 0:
        keep[model._actual] = True
        return model._restrict(keep, model.note)
    if model.agents:
        labels = components(model, tuple(sorted(model.agents)))
        marked = np.zeros(n + 1, dtype=bool)
        marked[labels[model._actual]] = True
        keep = marked[labels]
    else:
        keep[model._actual] = True
    return model._restrict(keep, model.note)
