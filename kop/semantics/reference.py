"""A deliberately naive model checker, quantifying directly over worlds.

This is the yardstick the fast checker (:mod:`kop.semantics.checker`) is
tested against.  It shares nothing with it but the formula AST: it reads the
model through its JSON form (``to_json``), turns each agent's partition into a
set of pairs, and evaluates each operator by its textbook definition, world by
world, recursively.  It is slow (exponential in the nesting of announcements)
and meant for small models only.

Definitions used, at world w:

* ``K_a φ``: φ at every v with (w, v) in R_a; ``M_a φ``: at some such v;
  ``Kw_a φ``: ``K_a φ`` or ``K_a ¬φ``;
* ``E_G φ``: ``K_a φ`` for every a in G;
* ``D_G φ``: φ at every v with (w, v) in the intersection of the R_a, a in G;
* ``C_G φ``: φ at every v reachable from w in one or more steps of the union
  of the R_a, a in G;
* ``C_G(φ, ψ)``: ψ at every v reachable from w in one or more steps of that
  union in which every world after w satisfies φ;
* ``[!φ]ψ``: if φ at w then ψ at w in the model restricted to the φ-worlds;
  ``<!φ>ψ``: φ at w and ψ at w there;
* ``B_a φ``: φ at every v with (w, v) in R_a whose rank (for a) is the least
  among such v; ``B_a(ψ, φ)``: φ at every ψ-world v with (w, v) in R_a whose
  rank is the least among such ψ-worlds (true if there is none);
* ``P_a(φ) ⋈ r``: the sum of a's weights of the φ-worlds v with (w, v) in R_a,
  divided by the sum over all such v (0 if that sum is 0), compared with r,
  as fractions.  Missing ranks are 0, missing weights 1 (an agent left out).

Example
-------
>>> from kop import KripkeModel, parse
>>> m = KripkeModel({"w0": ["p"], "w1": []}, {"a": [["w0", "w1"]]}, "w0")
>>> sorted(naive_truth_set(m, parse("<!p> K_a p")))
['w0']

Reference: Fagin, Halpern, Moses & Vardi, *Reasoning About Knowledge* (1995),
ch. 2; van Benthem, van Eijck & Kooi (2006) for relativized common knowledge.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from kop.syntax import formula as F

__all__ = ["NaiveModel", "naive_truth_set", "naive_satisfies", "naive_bisimulation", "naive_product"]


class NaiveModel:
    """Worlds, valuation and accessibility relations as plain Python sets.

    Parameters
    ----------
    worlds : list of str
    valuation : dict of world to set of atoms
    relations : dict of agent to set of (world, world) pairs
    """

    def __init__(self, worlds: list[str], valuation: dict[str, set[str]], relations: dict[str, set[tuple[str, str]]],
                 ranks: dict[str, dict[str, int]] | None = None,
                 weights: dict[str, dict[str, Fraction]] | None = None):
        self.worlds = list(worlds)
        self.valuation = valuation
        self.relations = relations
        self.ranks = ranks or {}
        self.weights = weights or {}
        self.parent: NaiveModel | None = None     # the model before the announcement that gave this one

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> NaiveModel:
        worlds = list(doc["worlds"])
        valuation = {w: set(atoms) for w, atoms in doc["worlds"].items()}
        relations = {}
        for agent, blocks in doc["relations"].items():
            relations[agent] = {(u, v) for block in blocks for u in block for v in block}
        ranks = {a: dict(r) for a, r in doc.get("plausibility", {}).items()}
        weights = {a: {w: Fraction(x) for w, x in ws.items()} for a, ws in doc.get("probability", {}).items()}
        return cls(worlds, valuation, relations, ranks, weights)

    def restrict(self, keep: set[str]) -> NaiveModel:
        return NaiveModel([w for w in self.worlds if w in keep],
                          {w: self.valuation[w] for w in self.worlds if w in keep},
                          {a: {(u, v) for (u, v) in r if u in keep and v in keep}
                           for a, r in self.relations.items()}, self.ranks, self.weights)

    def successors(self, agents: tuple[str, ...], w: str) -> set[str]:
        return {v for a in agents for (u, v) in self.relations[a] if u == w}

    def holds(self, phi: F.Formula, w: str) -> bool:
        phi_: Any = phi  # dispatched on its exact type below
        t = type(phi)
        if t is F.Atom:
            return phi_.name in self.valuation[w]
        if t is F.Top:
            return True
        if t is F.Bottom:
            return False
        if t is F.Not:
            return not self.holds(phi_.arg, w)
        if t is F.And:
            return all(self.holds(a, w) for a in phi_.args)
        if t is F.Or:
            return any(self.holds(a, w) for a in phi_.args)
        if t is F.Implies:
            return (not self.holds(phi_.left, w)) or self.holds(phi_.right, w)
        if t is F.Iff:
            return self.holds(phi_.left, w) == self.holds(phi_.right, w)
        if t is F.Know:
            return all(self.holds(phi_.arg, v) for v in self.successors((phi_.agent,), w))
        if t is F.Possible:
            return any(self.holds(phi_.arg, v) for v in self.successors((phi_.agent,), w))
        if t is F.KnowWhether:
            vs = self.successors((phi_.agent,), w)
            return all(self.holds(phi_.arg, v) for v in vs) or all(not self.holds(phi_.arg, v) for v in vs)
        if t is F.Everyone:
            return all(all(self.holds(phi_.arg, v) for v in self.successors((a,), w)) for a in phi_.group)
        if t is F.Distributed:
            common = set(self.worlds)
            for a in phi_.group:
                common &= self.successors((a,), w)
            return all(self.holds(phi_.arg, v) for v in common)
        if t is F.Common:
            return all(self.holds(phi_.arg, v) for v in self.reachable(phi_.group, w, lambda v: True))
        if t is F.RelCommon:
            return all(self.holds(phi_.arg, v)
                       for v in self.reachable(phi_.group, w, lambda v: self.holds(phi_.cond, v)))
        if t is F.Announce:
            if not self.holds(phi_.ann, w):
                return True
            return self._after(phi_.ann).holds(phi_.arg, w)
        if t is F.AnnounceDual:
            return self.holds(phi_.ann, w) and self._after(phi_.ann).holds(phi_.arg, w)
        if t is F.Belief:
            return self._believes(phi_.agent, lambda v: True, phi_.arg, w)
        if t is F.CondBelief:
            return self._believes(phi_.agent, lambda v: self.holds(phi_.cond, v), phi_.arg, w)
        if t is F.Probability:
            model: NaiveModel | None = self
            while model is not None:  # Kooi: with no weight left, the agent keeps its measure from before
                cell = model.successors((phi_.agent,), w)
                weight = model.weights.get(phi_.agent)
                total = sum((weight[v] if weight else Fraction(1)) for v in cell)
                if total:
                    good = sum((weight[v] if weight else Fraction(1)) for v in cell if model.holds(phi_.arg, v))
                    held: bool = phi_.holds_for(good / total)
                    return held
                model = model.parent
            return bool(phi_.holds_for(Fraction(0)))
        raise TypeError(f"cannot evaluate {t.__name__}")

    def _believes(self, agent: str, cond: Any, arg: F.Formula, w: str) -> bool:
        """arg at the most plausible cond-worlds that agent cannot tell apart from w."""
        rank = self.ranks.get(agent, {})
        candidates = [v for v in self.successors((agent,), w) if cond(v)]
        if not candidates:
            return True
        least = min(rank.get(v, 0) for v in candidates)
        return all(self.holds(arg, v) for v in candidates if rank.get(v, 0) == least)

    def reachable(self, group: tuple[str, ...], w: str, ok: Callable[[str], bool]) -> set[str]:
        """Worlds reached from w by one or more G-steps, every world after w satisfying *ok*."""
        seen: set[str] = set()
        frontier = [w]
        while frontier:
            u = frontier.pop()
            for v in self.successors(group, u):
                if v not in seen and ok(v):
                    seen.add(v)
                    frontier.append(v)
        return seen

    def _after(self, ann: F.Formula) -> NaiveModel:
        after = self.restrict({v for v in self.worlds if self.holds(ann, v)})
        after.parent = self
        return after


def naive_truth_set(model: Any, phi: F.Formula) -> frozenset[str]:
    """The worlds of a :class:`~kop.semantics.model.KripkeModel` where *phi* holds, computed naively."""
    naive = NaiveModel.from_json(model.to_json())
    return frozenset(w for w in naive.worlds if naive.holds(phi, w))


def naive_satisfies(model: Any, phi: F.Formula, world: str) -> bool:
    """Whether *phi* holds at *world*, computed naively."""
    return NaiveModel.from_json(model.to_json()).holds(phi, world)


def naive_bisimulation(model: Any) -> set[tuple[str, str]]:
    """The largest bisimulation on *model*, as a set of pairs, by the greatest-fixpoint definition.

    Start from all pairs with the same valuation and remove (u, v) while some
    agent's successor of u has no related successor of v, or the other way round.
    """
    naive = NaiveModel.from_json(model.to_json())
    ws = naive.worlds
    rel = {(u, v) for u in ws for v in ws if naive.valuation[u] == naive.valuation[v]}
    succ = {(a, u): naive.successors((a,), u) for a in naive.relations for u in ws}
    changed = True
    while changed:
        changed = False
        for (u, v) in list(rel):
            for a in naive.relations:
                forth = all(any((x, y) in rel for y in succ[a, v]) for x in succ[a, u])
                back = all(any((x, y) in rel for x in succ[a, u]) for y in succ[a, v])
                if not (forth and back):
                    rel.discard((u, v))
                    changed = True
                    break
    return rel


def naive_product(model: Any, action: Any) -> NaiveModel:
    """The product update of a model with an action model, straight from the definition.

    Worlds are named ``(w,e)`` as in :func:`kop.semantics.update.product_update`.
    """
    naive = NaiveModel.from_json(model.to_json())
    pairs = [(w, e) for w in naive.worlds for e in action.events if naive.holds(action.pre[e], w)]
    name = {(w, e): f"({w},{e})" for (w, e) in pairs}
    valuation = {}
    for (w, e) in pairs:
        atoms = set(naive.valuation[w])
        for p, val in action.post.get(e, {}).items():
            if naive.holds(val, w):
                atoms.add(p)
            else:
                atoms.discard(p)
        valuation[name[w, e]] = atoms
    relations = {}
    for a in naive.relations:
        same_event = {(e, f) for block in action.partition(a) for e in block for f in block}
        relations[a] = {(name[w, e], name[v, f]) for (w, e) in pairs for (v, f) in pairs
                        if (w, v) in naive.relations[a] and (e, f) in same_event}
    return NaiveModel([name[p] for p in pairs], valuation, relations)
