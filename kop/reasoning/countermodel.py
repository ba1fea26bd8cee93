"""From a pseudo-model to a genuine S5_n Kripke model.

Without distributed knowledge the types themselves are the worlds: agent a
cannot tell two worlds apart iff their types agree on every ``K_a`` formula.

With ``D_G`` (|G| >= 2) that is not enough: the pseudo-model relates two types
by G iff they agree on the G-profile (every ``K_a``, a in G, and ``D_H``, H a
subset of G), which can be strictly finer than the intersection of the
agents' relations that ``D_G`` means in a Kripke model.  Following the idea of
the unravelling of Fagin, Halpern & Vardi (1992) in a finite form, each world
is a type plus a vector of *coordinates* x[a, G] in Z_m, one for each group G
and member a, subject to ``sum_{a in G} x[a, G] = i (mod m)``, where i numbers
the type's G-profile among the G-profiles of the types with the same members'
K-profiles (m is the most there are; a group with m = 1 needs no coordinates).
Agent a cannot tell apart two worlds iff their types agree on the ``K_a``
formulas and their coordinates x[a, G] agree for every G containing a.  Then:

* worlds related by every member of G have the same members' K-profiles and
  equal coordinates for G, hence the same G-profile (the sum decides it):
  distributed knowledge is sound;
* a witness for a demand of agent a (or of group H) is reached by copying the
  coordinates and re-solving each other group's equation through a member
  outside {a} (outside H); for a group inside H the equation already holds.

Worlds are generated from the root by following the chosen witnesses, so the
model is finite.  The model's designated world ``w0`` is the root.

    >>> from kop.reasoning.pseudomodel import PseudoModel, TypeInfo
    >>> t0 = TypeInfo(frozenset({"p"}), {"a": (False,)}, {"a": [7]}, {("a", 7): 1})
    >>> t1 = TypeInfo(frozenset(), {"a": (False,)}, {"a": [7]}, {("a", 7): 1})
    >>> m = build_model(PseudoModel([t0, t1], 0, ("a",), (), ("p",)))
    >>> m.satisfies("p & M_a ~p")
    True

Reference: R. Fagin, J. Y. Halpern, M. Y. Vardi, *What can machines know? On
the properties of knowledge in distributed systems*, JACM 39 (1992) (pseudo-models and
unravelling for distributed knowledge).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable

import numpy as np

from kop.reasoning.errors import ProverBug
from kop.reasoning.pseudomodel import PseudoModel, Who
from kop.semantics.model import KripkeModel
from kop.errors import LimitError

__all__ = ["build_model", "MAX_WORLDS"]

#: agent -> the class key of each world, in the order of the worlds
Classes = dict[str, list[Hashable]]

#: The most worlds a countermodel may have.
MAX_WORLDS = 200_000


def build_model(pm: PseudoModel, agents: Iterable[str] = (),
                check: Callable[[], None] | None = None) -> KripkeModel:
    """The Kripke model of pseudo-model *pm*; *agents* adds agents (each with the identity partition).

    *check* (a deadline's ``check``) is called now and then while building.
    """
    all_agents = tuple(sorted(set(pm.agents) | set(agents)))
    if pm.dgroups:
        worlds, classes = _with_coordinates(pm)
    else:
        worlds, classes = _plain(pm)
    n = len(worlds)
    partitions = {}
    for k, a in enumerate(all_agents):
        if check is not None and k % 64 == 0:
            check()
        if a in pm.agents:
            ids: dict[Hashable, int] = {}
            partitions[a] = np.array([ids.setdefault(classes[a][i], len(ids)) for i in range(n)], dtype=np.int64)
        else:
            partitions[a] = np.arange(n, dtype=np.int64)
    valuation = {p: np.array([p in pm.types[t].atoms for t in worlds], dtype=bool) for p in pm.atoms}
    return KripkeModel.from_arrays(n, partitions, valuation, actual=["w0"], agents=all_agents)


def _plain(pm: PseudoModel) -> tuple[list[int], Classes]:
    order = [pm.root]
    seen = {pm.root}
    for i in order:                     # breadth first, following the witnesses
        for j in pm.types[i].witness.values():
            if j not in seen:
                seen.add(j)
                order.append(j)
    classes = {a: [pm.types[t].keys[a] for t in order] for a in pm.agents}
    return order, classes


def _with_coordinates(pm: PseudoModel) -> tuple[list[int], Classes]:
    # Only types that agree on every member's K-profile can be confused by D_G; so a
    # G-profile is indexed among the G-profiles with the same members' K-profiles, and a
    # group whose members' K-profiles already decide its G-profile needs no coordinates.
    by_joint: dict[tuple[tuple[str, ...], tuple[Hashable, ...]], list[Hashable]] = {}
    for ty in pm.types:
        for g in pm.dgroups:
            lst = by_joint.setdefault((g, tuple(ty.keys[a] for a in g)), [])
            if ty.keys[g] not in lst:
                lst.append(ty.keys[g])
    size = {g: max(len(lst) for (h, _), lst in by_joint.items() if h == g) for g in pm.dgroups}
    groups = tuple(g for g in pm.dgroups if size[g] > 1)
    if not groups:
        return _plain(pm)
    co = _Coordinates(pm, by_joint, size, groups)
    worlds = co.worlds()
    classes: Classes = {a: [co.key(t, x, a) for t, x in worlds] for a in pm.agents}
    return [t for t, _ in worlds], classes


class _Coordinates:
    """Worlds as (type, coordinates): one coordinate per (agent, group) slot, the coordinates of a group's
    members summing (modulo the number of its G-profiles) to the index of the world's G-profile."""

    def __init__(self, pm: PseudoModel, by_joint: dict[tuple[tuple[str, ...], tuple[Hashable, ...]], list[Hashable]],
                 size: dict[tuple[str, ...], int], groups: tuple[tuple[str, ...], ...]) -> None:
        self.pm, self.by_joint, self.size, self.groups = pm, by_joint, size, groups
        slots = [(a, g) for g in groups for a in g]
        self.pos = {s: i for i, s in enumerate(slots)}
        self.mine = {a: [self.pos[(a, g)] for g in groups if a in g] for a in pm.agents}

    def idx(self, g: tuple[str, ...], t: int) -> int:
        keys = self.pm.types[t].keys
        return self.by_joint[(g, tuple(keys[a] for a in g))].index(keys[g])

    def solve(self, x: list[int], t: int, free_not_in: set[str]) -> None:
        """Change *x* (in slots of agents not in *free_not_in*) so that its group sums index type *t*'s."""
        pos, size = self.pos, self.size
        for g in self.groups:
            want = self.idx(g, t)
            if sum(x[pos[(a, g)]] for a in g) % size[g] == want:
                continue
            free = [a for a in g if a not in free_not_in]
            if not free:
                raise ProverBug("a group's equation cannot be re-solved")  # pragma: no cover
            b = free[0]
            rest = sum(x[pos[(a, g)]] for a in g if a != b)
            x[pos[(b, g)]] = (want - rest) % size[g]

    def key(self, t: int, x: tuple[int, ...], agent: str) -> Hashable:
        """*agent*'s class of the world (*t*, *x*): its K-profile and its coordinates."""
        return (self.pm.types[t].keys[agent], tuple(x[k] for k in self.mine[agent]))

    def class_key(self, t: int, x: tuple[int, ...], who: Who) -> Hashable:
        members = (who,) if isinstance(who, str) else who
        return (who, tuple(self.key(t, x, a) for a in members))

    def worlds(self) -> list[tuple[int, tuple[int, ...]]]:
        """The worlds reached from the root's, breadth first, following the witnesses."""
        pm = self.pm
        x0 = [0] * len(self.pos)
        self.solve(x0, pm.root, set())
        start = (pm.root, tuple(x0))
        worlds = [start]
        seen = {start}
        # (who, its class key) -> {type: world}: reuse a world of the right type in the right class
        members_of: dict[Hashable, dict[int, tuple[int, tuple[int, ...]]]] = {}
        whos: tuple[Who, ...] = (*pm.agents, *self.groups)
        for who in whos:
            members_of.setdefault(self.class_key(*start, who), {})[pm.root] = start
        i = 0
        while i < len(worlds):
            t, x = worlds[i]
            i += 1
            for (who, _node), s in pm.types[t].witness.items():
                if members_of.get(self.class_key(t, x, who), {}).get(s) is not None:
                    continue
                y = list(x)
                self.solve(y, s, {who} if isinstance(who, str) else set(who))
                w = (s, tuple(y))
                if w not in seen:
                    for other in whos:
                        members_of.setdefault(self.class_key(*w, other), {}).setdefault(s, w)
                    _count(len(worlds))
                    seen.add(w)
                    worlds.append(w)
        return worlds


def _count(n: int) -> None:
    """Refuse a countermodel of more than MAX_WORLDS worlds (*n* are there, one more is coming)."""
    if n >= MAX_WORLDS:
        raise LimitError(f"the countermodel would have more than {MAX_WORLDS} worlds (kop's limit)")
