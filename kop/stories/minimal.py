"""The bisimulation-minimal size of a plausibility model (for :meth:`Story.minimal_size`).

Two worlds are bisimilar for knowledge and plausibility when they agree on the
atoms and, for every agent, on the classes of the worlds of the agent's cell
and of the worlds at least as plausible as themselves there (bisimulation for
the relations ~a and ≤a; Andersen, Bolander, van Ditmarsch & Jensen,
"Bisimulation for single-agent plausibility models", 2013, for why ≤a).

>>> from kop import KripkeModel
>>> m = KripkeModel({"u": ["p"], "v": ["p"], "x": []}, {"a": [["u", "v", "x"]]}, "u",
...                 plausibility={"a": {"u": 0, "v": 0, "x": 1}})
>>> plausibility_classes(m)
2
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from kop.semantics.model import KripkeModel

__all__ = ["plausibility_classes"]


def plausibility_classes(model: KripkeModel) -> int:
    """The number of classes of the coarsest bisimulation for ~a and ≤a (every agent a).

    Examples
    --------
    >>> from kop import KripkeModel
    >>> plausibility_classes(KripkeModel({"u": ["p"], "v": []}, {"a": [["u", "v"]]}, "u"))
    2
    """
    worlds = model.worlds
    n = len(worlds)
    atoms = sorted(model.atoms)
    masks = [model.truth_mask(p).tolist() for p in atoms]
    cls = _dense([tuple(m[i] for m in masks) for i in range(n)])
    ids = {a: model.block_ids(a).tolist() for a in model.agents}
    ranks = {a: [model.rank(a, w) for w in worlds] for a in model.agents}
    while True:
        sigs = []
        for a in model.agents:
            cell: dict[int, set[int]] = {}
            for i in range(n):
                cell.setdefault(ids[a][i], set()).add(i)
            per_world = []
            for i in range(n):
                members = cell[ids[a][i]]
                per_world.append((frozenset(cls[j] for j in members),
                                  frozenset(cls[j] for j in members if ranks[a][j] <= ranks[a][i])))
            sigs.append(per_world)
        new = _dense([(cls[i], *(s[i] for s in sigs)) for i in range(n)])
        if max(new, default=-1) == max(cls, default=-1):
            return max(new, default=-1) + 1
        cls = new


def _dense(keys: list[object]) -> list[int]:
    seen: dict[object, int] = {}
    return [seen.setdefault(k, len(seen)) for k in keys]
