"""Bisimulation: contraction by partition refinement, bisimilarity, generated submodels.

Two worlds are bisimilar when they agree on every atom and, for every agent,
each world one of them cannot tell apart is bisimilar to one the other cannot
tell apart.  Bisimilar worlds satisfy the same formulas of the language with
K, M, Kw, E, common knowledge, relativized common knowledge and announcements,
so a model can be contracted to one world per bisimulation class.  Distributed
knowledge D_G is *not* preserved in general (it needs bisimulation for the
intersections of the group's relations too): check D formulas on the original
model.

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

from typing import TypeVar

import numpy as np

from kop.semantics.checker import components
from kop.semantics.checks import model_argument
from kop.semantics.errors import ModelError
from kop.semantics.model_value import ModelValue

__all__ = ["bisimulation_classes", "minimize", "bisimilar", "generated_submodel"]

M = TypeVar("M", bound=ModelValue)

#: The refinement's compound blocks, each block's compound block, and the compound blocks still to split.
_Hooks = tuple[dict[int, list[int]], dict[int, int], set[int]]


def bisimulation_classes(model: ModelValue) -> np.ndarray:
    """The coarsest bisimulation of *model*: a class id per world (0, 1, ... by first world).

    Computed by partition refinement (Paige & Tarjan) from the valuation
    classes, splitting by each agent's blocks until stable.

    Parameters
    ----------
    model : KripkeModel

    Returns
    -------
    numpy.ndarray
        An int64 class id per world, in the order of ``model.worlds``; worlds
        with equal ids are bisimilar.

    Raises
    ------
    ArgumentError
        If *model* is not a KripkeModel.

    Examples
    --------
    >>> from kop import KripkeModel
    >>> m = KripkeModel({"u": ["p"], "v": ["p"], "x": []}, {"a": [["u", "x"], ["v"]]})
    >>> bisimulation_classes(m).tolist()
    [0, 1, 2]
    >>> bisimulation_classes(KripkeModel({"u": ["p"], "v": ["p"]}, {"a": [["u", "v"]]})).tolist()
    [0, 0]

    References
    ----------
    Blackburn, de Rijke & Venema, *Modal Logic* (2001), §2.2; Paige & Tarjan,
    "Three partition refinement algorithms", SIAM J. Comput. 16 (1987).
    """
    model_argument(model)
    atoms = sorted(model.atoms)
    blocks = [model._blocks[a] for a in model.agents]
    return _refine(_valuation_classes(model, atoms), blocks)


def _valuation_classes(model: ModelValue, atoms: list[str]) -> np.ndarray:
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
    out: np.ndarray = lookup[ids]  # (numpy types fancy indexing as Any)
    return out


#: Rounds of signature refinement tried (plus log2 of the number of worlds) before Paige-Tarjan takes over.
SIGNATURE_ROUNDS = 8


def _refine(cls: np.ndarray, blocks: list[np.ndarray]) -> np.ndarray:
    """The coarsest bisimulation refining the world classes *cls*, given each agent's block ids.

    Signature rounds are fast while few are needed (the usual case); a long
    chain of worlds can need a round per world, so after
    :data:`SIGNATURE_ROUNDS` + log2(n) rounds the O(m log n) algorithm of
    Paige and Tarjan finishes the job from the partition reached so far.
    """
    if len(cls) == 0:
        return cls
    count = int(cls.max()) + 1
    for _ in range(SIGNATURE_ROUNDS + len(cls).bit_length()):
        cols = [cls] + [_block_signatures(ids, cls, count) for ids in blocks]
        new = _dense(np.stack(cols, axis=1))
        new_count = int(new.max()) + 1
        if new_count == count:
            return new
        cls, count = new, new_count
    return _paige_tarjan_worlds(cls, blocks)


def _paige_tarjan_worlds(cls: np.ndarray, blocks: list[np.ndarray]) -> np.ndarray:
    """:func:`_refine` by Paige-Tarjan on the bipartite graph of worlds and agents' blocks.

    Nodes are the worlds and, per agent, its blocks; each world points to its
    block of each agent and each block to its worlds.  Blocks start in one
    class per agent, worlds in the classes *cls*; the coarsest stable
    partition of this graph restricted to the worlds is the coarsest
    bisimulation refining *cls* (a world's a-block is its only a-successor,
    and a block's successors are its worlds).
    """
    n = len(cls)
    preds: list[list[int]] = [[] for _ in range(n)]
    init = cls.tolist()
    k = int(cls.max()) + 1
    for j, ids in enumerate(blocks):
        _, dense = np.unique(ids, return_inverse=True)
        dense = dense.reshape(-1)
        nb = int(dense.max()) + 1 if n else 0
        base = len(preds)
        preds.extend([] for _ in range(nb))
        for w, b in enumerate(dense.tolist()):
            preds[base + b].append(w)   # w -> its block
            preds[w].append(base + b)   # the block -> w
        init.extend([k + j] * nb)
    classes = _paige_tarjan(preds, init)
    return _dense(np.asarray(classes[:n], dtype=np.int64))


def _paige_tarjan(preds: list[list[int]], init: list[int]) -> list[int]:
    """The coarsest stable refinement of the partition *init* (node -> class) for the relation
    whose predecessor lists are *preds* (Paige & Tarjan 1987, O(m log n)).  Returns node -> class."""
    size = len(init)
    outdeg = [0] * size
    for ys in preds:
        for x in ys:
            outdeg[x] += 1
    # Q: the current partition; X: the compound partition (sets of Q blocks)
    members: dict[int, set[int]] = {}
    block_of = [0] * size
    for x, c in enumerate(init):
        members.setdefault(c, set()).add(x)
        block_of[x] = c
    next_block = max(init, default=-1) + 1
    # the initial split: nodes with and without successors
    next_block = _split(members, block_of, [x for x in range(size) if outdeg[x]], next_block, None)
    compound_blocks: dict[int, list[int]] = {0: list(members)}
    compound_of = {b: 0 for b in members}
    count: dict[tuple[int, int], int] = {(x, 0): d for x, d in enumerate(outdeg) if d}
    pending = {0} if len(members) > 1 else set()
    next_compound = 1
    while pending:
        s = pending.pop()
        parts = compound_blocks[s]
        b = parts[0] if len(members[parts[0]]) <= len(members[parts[1]]) else parts[1]
        parts.remove(b)
        if len(parts) > 1:
            pending.add(s)
        new_s = next_compound
        next_compound += 1
        compound_blocks[new_s] = [b]
        compound_of[b] = new_s
        in_b: dict[int, int] = {}
        for y in list(members[b]):
            for x in preds[y]:
                in_b[x] = in_b.get(x, 0) + 1
        hooks = (compound_blocks, compound_of, pending)
        next_block = _split(members, block_of, list(in_b), next_block, hooks)
        only_b = [x for x, c in in_b.items() if c == count[(x, s)]]
        next_block = _split(members, block_of, only_b, next_block, hooks)
        for x, c in in_b.items():
            rest = count[(x, s)] - c
            if rest:
                count[(x, s)] = rest
            else:
                del count[(x, s)]
            count[(x, new_s)] = c
    return block_of


def _split(members: dict[int, set[int]], block_of: list[int], nodes: list[int], next_block: int,
           hooks: _Hooks | None) -> int:
    """Split every block into its part in *nodes* and the rest; returns the next free block id."""
    touched: dict[int, list[int]] = {}
    for x in nodes:
        touched.setdefault(block_of[x], []).append(x)
    for d, xs in touched.items():
        if len(xs) == len(members[d]):
            continue
        nb = next_block
        next_block += 1
        part = set(xs)
        members[d] -= part
        members[nb] = part
        for x in xs:
            block_of[x] = nb
        if hooks is not None:
            compound_blocks, compound_of, pending = hooks
            c = compound_of[d]
            compound_of[nb] = c
            compound_blocks[c].append(nb)
            if len(compound_blocks[c]) == 2:
                pending.add(c)
    return next_block


def minimize(model: M) -> M:
    """The bisimulation contraction of *model*: one world per bisimulation class.

    Each class is named after its first world; designated: the classes of the
    designated worlds.  Every formula without D holds at a world of *model* iff
    it holds at that world's class.

    Parameters
    ----------
    model : KripkeModel
        Without plausibility or probability.

    Returns
    -------
    KripkeModel
        The contraction (of the class of *model*), with *model*'s note.

    Raises
    ------
    ArgumentError
        If *model* is not a KripkeModel.
    ModelError
        If *model* has plausibility or probability (not handled here).

    Examples
    --------
    >>> from kop import KripkeModel
    >>> m = KripkeModel({"u": ["p"], "v": ["p"], "x": []}, {"a": [["u", "v", "x"]]}, "v")
    >>> small = minimize(m)
    >>> small.worlds, small.actual, small.satisfies("p & M_a ~p")
    (('u', 'x'), ('u',), True)

    References
    ----------
    Blackburn, de Rijke & Venema, *Modal Logic* (2001), §2.2.
    """
    model_argument(model)
    model._no_uncertainty("the bisimulation contraction")
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
    return type(model)._raw(worlds, model.agents, blocks, nblocks, atoms, actual.astype(np.int64), model.note)


def bisimilar(m1: ModelValue, m2: ModelValue, w1: str | None = None, w2: str | None = None) -> bool:
    """Whether two models are bisimilar, as pointed models.

    With *w1* and *w2*: whether those two worlds are bisimilar.  Without:
    whether every designated world of *m1* is bisimilar to some designated
    world of *m2* and vice versa.  Atoms missing from a model are false
    throughout it.  Bisimilar pointed models satisfy the same formulas
    without D.

    Parameters
    ----------
    m1, m2 : KripkeModel
        Models with the same agents.
    w1, w2 : str, optional
        A world of *m1* and one of *m2* (both or neither).

    Returns
    -------
    bool

    Raises
    ------
    ArgumentError
        If *m1* or *m2* is not a KripkeModel.
    ModelError
        If the models have different agents, or a world is unknown.

    Examples
    --------
    >>> from kop import KripkeModel
    >>> m1 = KripkeModel({"u": ["p"], "v": ["p"], "x": []}, {"a": [["u", "v", "x"]]}, "u")
    >>> m2 = KripkeModel({"s": ["p"], "t": []}, {"a": [["s", "t"]]}, "s")
    >>> bisimilar(m1, m2), bisimilar(m1, m2, "x", "s")
    (True, False)

    References
    ----------
    Blackburn, de Rijke & Venema, *Modal Logic* (2001), §2.2.
    """
    model_argument(m1, "m1")
    model_argument(m2, "m2")
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
    if w1 is not None and w2 is not None:
        return bool(cls[m1.index(w1)] == cls[n1 + m2.index(w2)])
    left = set(cls[m1._actual].tolist())
    right = set(cls[n1 + m2._actual].tolist())
    return left == right


def generated_submodel(model: M) -> M:
    """The submodel of the worlds reachable from a designated world by steps of any agents.

    Every formula has the same truth value at the designated worlds here as in *model*.

    Parameters
    ----------
    model : KripkeModel

    Returns
    -------
    KripkeModel
        The submodel (of the class of *model*), with *model*'s note.

    Raises
    ------
    ArgumentError
        If *model* is not a KripkeModel.

    Examples
    --------
    >>> from kop import KripkeModel
    >>> m = KripkeModel({"u": ["p"], "v": [], "x": ["p"]}, {"a": [["u", "v"], ["x"]], "b": [["u"], ["v"], ["x"]]}, "u")
    >>> generated_submodel(m).worlds
    ('u', 'v')

    References
    ----------
    Blackburn, de Rijke & Venema, *Modal Logic* (2001), §2.1 (generated submodels).
    """
    model_argument(model)
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
