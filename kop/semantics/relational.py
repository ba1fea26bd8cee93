"""Kripke models and event models with arbitrary accessibility relations (DEL with belief).

kop's :class:`~kop.semantics.model.KripkeModel` and :class:`~kop.semantics.update.ActionModel`
are S5: each agent's indistinguishability is a partition.  Epistemic planning languages such as
EPDDL also have *oblivious* observers -- an agent who does not see an action believes nothing
happened -- and the product update with such an event model is no longer S5: the agent's
relation points from the new worlds back to the old ones.  This module holds the general case:

* :class:`RelationalModel` -- worlds, a valuation, a relation per agent (any set of pairs),
  designated worlds; formulas are evaluated with ``K_a`` as the box of ``R_a`` (knowledge when
  ``R_a`` is an equivalence, belief otherwise), ``C{G}`` over paths of one or more steps;
* :class:`EventModel` -- events with preconditions and postconditions, a relation per agent,
  designated events;
* :func:`relational_product` -- the product update (Baltag, Moss & Solecki 1998 with
  postconditions, van Benthem, van Eijck & Kooi 2006): a world (w, e) for each w and e whose
  precondition holds at w, ``(w, e) R_a (v, f)`` iff ``w R_a v`` and ``e Q_a f``, atoms take the
  value their postcondition had at w.

When every relation is an equivalence, :meth:`RelationalModel.to_kripke` gives kop's S5 model
(and :meth:`RelationalModel.from_kripke` goes back), so S5 results can be compared with kop's
own product update and bisimulation.

>>> from kop.syntax.formula import Atom
>>> m = RelationalModel(["h", "t"], {"a": [("h", "h"), ("h", "t"), ("t", "h"), ("t", "t")]},
...                     {"h": ["heads"], "t": []}, designated=["h"])
>>> peek = EventModel(["see_h", "see_t", "nil"], {"see_h": "heads", "see_t": "~heads"},
...                   relations={"a": [("see_h", "see_h"), ("see_t", "see_t"), ("nil", "nil")]},
...                   designated=["see_h", "see_t"])
>>> after = relational_product(m, peek)
>>> after.holds("K_a heads"), len(after)
(True, 4)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from kop.semantics.errors import ModelError
from kop.semantics.model import KripkeModel
from kop.semantics.model_build import as_formula
from kop.syntax.formula import (And, Atom, Bottom, Common, Distributed, Everyone, Formula, Iff, Implies, Know,
                                KnowWhether, Not, Or, Possible, Top)

__all__ = ["RelationalModel", "EventModel", "relational_product"]


def _index(names: Iterable[str], noun: str) -> tuple[tuple[str, ...], dict[str, int]]:
    out = tuple(names)
    index: dict[str, int] = {}
    for i, n in enumerate(out):
        if not isinstance(n, str) or not n:
            raise ModelError(f"{noun} names must be non-empty strings, not {n!r}")
        if n in index:
            raise ModelError(f"{noun} {n!r} is listed twice")
        index[n] = i
    return out, index


def _relation(agent: str, pairs: Iterable[tuple[str, str]], index: Mapping[str, int],
              noun: str) -> tuple[frozenset[int], ...]:
    succ: list[set[int]] = [set() for _ in index]
    for pair in pairs:
        u, v = pair
        for x in (u, v):
            if x not in index:
                raise ModelError(f"agent {agent!r}: the relation names unknown {noun} {x!r}")
        succ[index[u]].add(index[v])
    return tuple(frozenset(s) for s in succ)


class RelationalModel:
    """A Kripke model with one accessibility relation (any set of pairs) per agent.

    Parameters
    ----------
    worlds : iterable of str
    relations : mapping of agent to iterable of (world, world) pairs
    valuation : mapping of world to iterable of atoms, optional
        The atoms true at each world (others are false).
    designated : iterable of str, optional
        The designated worlds (default: all).

    Example
    -------
    >>> m = RelationalModel(["u", "v"], {"a": [("u", "v"), ("v", "v")]}, {"v": ["p"]}, designated=["u"])
    >>> m.holds("K_a p"), m.holds("p"), m.is_s5()
    (True, False, False)
    """

    __slots__ = ("worlds", "agents", "valuation", "succ", "designated", "_memo")

    def __init__(self, worlds: Iterable[str], relations: Mapping[str, Iterable[tuple[str, str]]],
                 valuation: Mapping[str, Iterable[str]] | None = None, designated: Iterable[str] | None = None):
        self.worlds, index = _index(worlds, "world")
        valuation = dict(valuation or {})
        for w in valuation:
            if w not in index:
                raise ModelError(f"the valuation names unknown world {w!r}")
        self.valuation: tuple[frozenset[str], ...] = tuple(frozenset(valuation.get(w, ())) for w in self.worlds)
        self.agents: tuple[str, ...] = tuple(relations)
        self.succ: dict[str, tuple[frozenset[int], ...]] = {
            a: _relation(a, relations[a], index, "world") for a in self.agents}
        if designated is None:
            self.designated: frozenset[int] = frozenset(range(len(self.worlds)))
        else:
            ds = set()
            for w in designated:
                if w not in index:
                    raise ModelError(f"designated world {w!r} is not a world of the model")
                ds.add(index[w])
            self.designated = frozenset(ds)
        self._memo: dict[Formula, frozenset[int]] = {}

    @classmethod
    def _raw(cls, worlds: tuple[str, ...], agents: tuple[str, ...], valuation: tuple[frozenset[str], ...],
             succ: dict[str, tuple[frozenset[int], ...]], designated: frozenset[int]) -> RelationalModel:
        m = cls.__new__(cls)
        m.worlds, m.agents, m.valuation, m.succ, m.designated = worlds, agents, valuation, succ, designated
        m._memo = {}
        return m

    def __len__(self) -> int:
        return len(self.worlds)

    def __repr__(self) -> str:
        return (f"RelationalModel(worlds={len(self.worlds)}, agents={self.agents!r}, "
                f"designated={[self.worlds[i] for i in sorted(self.designated)]!r})")

    def pairs(self, agent: str) -> list[tuple[str, str]]:
        """*agent*'s relation as (world, world) pairs, in world order."""
        return [(self.worlds[i], self.worlds[j]) for i, s in enumerate(self.succ[agent]) for j in sorted(s)]

    # -- truth ------------------------------------------------------------------------
    def truth(self, formula: Formula | str) -> frozenset[int]:
        """The indices of the worlds where *formula* holds."""
        return self._truth(as_formula(formula))

    def truth_set(self, formula: Formula | str) -> frozenset[str]:
        """The names of the worlds where *formula* holds."""
        return frozenset(self.worlds[i] for i in self.truth(formula))

    def holds(self, formula: Formula | str, world: str | None = None) -> bool:
        """Whether *formula* holds at *world*, or (by default) at every designated world."""
        t = self.truth(formula)
        if world is not None:
            if world not in self.worlds:
                raise ModelError(f"no world {world!r} in the model")
            return self.worlds.index(world) in t
        return self.designated <= t

    def _truth(self, f: Formula) -> frozenset[int]:
        got = self._memo.get(f)
        if got is not None:
            return got
        rule = _TRUTH.get(type(f))
        if rule is None:
            rule = _truth_rule(f)
        out = rule(self, f, frozenset(range(len(self.worlds))))
        self._memo[f] = out
        return out

    def _rel(self, agent: str) -> tuple[frozenset[int], ...]:
        if agent not in self.succ:
            raise ModelError(f"the model has no agent {agent!r} (agents: {', '.join(self.agents)})")
        return self.succ[agent]

    @staticmethod
    def _reach(i: int, rels: list[tuple[frozenset[int], ...]]) -> frozenset[int]:
        seen: set[int] = set()
        todo = [j for r in rels for j in r[i]]
        while todo:
            j = todo.pop()
            if j in seen:
                continue
            seen.add(j)
            todo.extend(k for r in rels for k in r[j] if k not in seen)
        return frozenset(seen)

    # -- structure ----------------------------------------------------------------------
    def is_s5(self) -> bool:
        """Whether every agent's relation is an equivalence relation."""
        for s in self.succ.values():
            for i, si in enumerate(s):
                if i not in si:
                    return False
                for j in si:
                    if s[j] != si:
                        return False
        return True

    def generated(self, rename: bool = True) -> RelationalModel:
        """The submodel of the worlds reachable (in zero or more steps) from the designated ones.

        With *rename*, the worlds are renamed ``w0``, ``w1``, ... in their order.
        """
        keep: set[int] = set(self.designated)
        todo = list(self.designated)
        while todo:
            i = todo.pop()
            for s in self.succ.values():
                for j in s[i]:
                    if j not in keep:
                        keep.add(j)
                        todo.append(j)
        order = sorted(keep)
        new = {old: k for k, old in enumerate(order)}
        names = tuple(f"w{k}" for k in range(len(order))) if rename else tuple(self.worlds[i] for i in order)
        succ = {a: tuple(frozenset(new[j] for j in s[i]) for i in order) for a, s in self.succ.items()}
        return RelationalModel._raw(names, self.agents, tuple(self.valuation[i] for i in order), succ,
                                    frozenset(new[i] for i in self.designated))

    def to_kripke(self) -> KripkeModel:
        """kop's S5 :class:`~kop.semantics.model.KripkeModel` of this model (every relation an equivalence).

        Raises
        ------
        ModelError
            When some agent's relation is not an equivalence, naming it.
        """
        if not self.worlds:
            raise ModelError("the model has no worlds")
        parts: dict[str, list[list[str]]] = {}
        for a, s in self.succ.items():
            blocks: list[list[str]] = []
            seen: set[frozenset[int]] = set()
            for i, si in enumerate(s):
                if i not in si or any(s[j] != si for j in si):
                    raise ModelError(f"agent {a!r}'s relation is not an equivalence (at world {self.worlds[i]!r}): "
                                     "the model is not S5")
                if si not in seen:
                    seen.add(si)
                    blocks.append([self.worlds[j] for j in sorted(si)])
            parts[a] = blocks
        worlds = {w: sorted(v) for w, v in zip(self.worlds, self.valuation)}
        return KripkeModel(worlds, parts, [self.worlds[i] for i in sorted(self.designated)])

    @classmethod
    def from_kripke(cls, m: Any) -> RelationalModel:
        """The relational view of an S5 :class:`~kop.semantics.model.KripkeModel`.

        >>> from kop import KripkeModel
        >>> k = KripkeModel({"u": ["p"], "v": []}, {"a": [["u", "v"]]}, "u")
        >>> RelationalModel.from_kripke(k).pairs("a")
        [('u', 'u'), ('u', 'v'), ('v', 'u'), ('v', 'v')]
        """
        rel = {a: [(u, v) for block in m.partition(a) for u in block for v in block] for a in m.agents}
        val = {w: sorted(m.valuation(w)) for w in m.worlds}
        return cls(m.worlds, rel, val, designated=m.actual)

    def to_json(self) -> dict[str, Any]:
        """``{"worlds": [{"name", "atoms"}], "relations": {agent: [[w, v], ...]}, "designated": [...]}``."""
        return {"worlds": [{"name": w, "atoms": sorted(v)} for w, v in zip(self.worlds, self.valuation)],
                "relations": {a: [list(p) for p in self.pairs(a)] for a in self.agents},
                "designated": [self.worlds[i] for i in sorted(self.designated)]}

    def describe(self) -> str:
        """A few lines of text: each world with its true atoms, then each agent's relation."""
        lines = [f"{len(self.worlds)} world(s); designated: "
                 + ", ".join(self.worlds[i] for i in sorted(self.designated))]
        for w, v in zip(self.worlds, self.valuation):
            lines.append(f"  {w}: {' '.join(sorted(v)) or '(no atom true)'}")
        for a in self.agents:
            edges = [f"{u}->{v}" for u, v in self.pairs(a) if u != v]
            loops = sum(1 for u, v in self.pairs(a) if u == v)
            lines.append(f"  {a}: {' '.join(edges) or '(no edge between worlds)'}"
                         + (f"  (+{loops} loop(s))" if loops else "  (no loops)"))
        return "\n".join(lines)


# -- the truth sets, one rule per connective (RelationalModel._truth) ------------------------------

_Rule = Callable[[RelationalModel, Any, frozenset[int]], frozenset[int]]


def _truth_rule(f: Formula) -> _Rule:
    """The rule of a subclass of a connective: its first base class that has one."""
    for base in type(f).__mro__:
        if base in _TRUTH:
            return _TRUTH[base]
    raise ModelError(f"{type(f).__name__} formulas are not evaluated on relational models: {f}")


def _top(m: RelationalModel, f: Top, every: frozenset[int]) -> frozenset[int]:
    return every


def _bottom(m: RelationalModel, f: Bottom, every: frozenset[int]) -> frozenset[int]:
    return frozenset()


def _atom(m: RelationalModel, f: Atom, every: frozenset[int]) -> frozenset[int]:
    return frozenset(i for i in range(len(m.worlds)) if f.name in m.valuation[i])


def _not(m: RelationalModel, f: Not, every: frozenset[int]) -> frozenset[int]:
    return every - m._truth(f.arg)


def _and(m: RelationalModel, f: And, every: frozenset[int]) -> frozenset[int]:
    out = every
    for g in f.args:
        out = out & m._truth(g)
    return out


def _or(m: RelationalModel, f: Or, every: frozenset[int]) -> frozenset[int]:
    out: frozenset[int] = frozenset()
    for g in f.args:
        out = out | m._truth(g)
    return out


def _implies(m: RelationalModel, f: Implies, every: frozenset[int]) -> frozenset[int]:
    return (every - m._truth(f.left)) | m._truth(f.right)


def _iff(m: RelationalModel, f: Iff, every: frozenset[int]) -> frozenset[int]:
    a, b = m._truth(f.left), m._truth(f.right)
    return every - (a ^ b)


def _know(m: RelationalModel, f: Know, every: frozenset[int]) -> frozenset[int]:
    rel = m._rel(f.agent)
    t = m._truth(f.arg)
    return frozenset(i for i in range(len(m.worlds)) if rel[i] <= t)


def _possible(m: RelationalModel, f: Possible, every: frozenset[int]) -> frozenset[int]:
    rel = m._rel(f.agent)
    t = m._truth(f.arg)
    return frozenset(i for i in range(len(m.worlds)) if rel[i] & t)


def _know_whether(m: RelationalModel, f: KnowWhether, every: frozenset[int]) -> frozenset[int]:
    rel = m._rel(f.agent)
    t = m._truth(f.arg)
    return frozenset(i for i in range(len(m.worlds)) if rel[i] <= t or not (rel[i] & t))


def _everyone(m: RelationalModel, f: Everyone, every: frozenset[int]) -> frozenset[int]:
    rels = [m._rel(a) for a in f.group]
    t = m._truth(f.arg)
    return frozenset(i for i in range(len(m.worlds)) if all(r[i] <= t for r in rels))


def _distributed(m: RelationalModel, f: Distributed, every: frozenset[int]) -> frozenset[int]:
    rels = [m._rel(a) for a in f.group]
    t = m._truth(f.arg)
    return frozenset(i for i in range(len(m.worlds)) if frozenset.intersection(*(r[i] for r in rels)) <= t)


def _common(m: RelationalModel, f: Common, every: frozenset[int]) -> frozenset[int]:
    rels = [m._rel(a) for a in f.group]
    t = m._truth(f.arg)
    return frozenset(i for i in range(len(m.worlds)) if m._reach(i, rels) <= t)


_TRUTH: dict[type, _Rule] = {
    Top: _top, Bottom: _bottom, Atom: _atom, Not: _not, And: _and, Or: _or, Implies: _implies, Iff: _iff,
    Know: _know, Possible: _possible, KnowWhether: _know_whether,
    Everyone: _everyone, Distributed: _distributed, Common: _common,
}


class EventModel:
    """An event model: events with pre- and postconditions, a relation per agent, designated events.

    Parameters
    ----------
    events : iterable of str
    pre : mapping of event to formula (or str), optional
        Preconditions (default ``true``).
    post : mapping of event to (mapping of atom to formula), optional
        After event e, atom p takes the value ``post[e][p]`` had before.
    relations : mapping of agent to iterable of (event, event) pairs
    designated : iterable of str, optional
        Default: all events.

    Example
    -------
    >>> e = EventModel(["say"], {"say": "p"}, relations={"a": [("say", "say")]})
    >>> e.events, str(e.pre[0])
    (('say',), 'p')
    """

    __slots__ = ("events", "agents", "pre", "post", "succ", "designated")

    def __init__(self, events: Iterable[str], pre: Mapping[str, Formula | str] | None = None,
                 post: Mapping[str, Mapping[str, Formula | str]] | None = None,
                 relations: Mapping[str, Iterable[tuple[str, str]]] | None = None,
                 designated: Iterable[str] | None = None):
        self.events, index = _index(events, "event")
        pre = dict(pre or {})
        post = dict(post or {})
        for e in list(pre) + list(post):
            if e not in index:
                raise ModelError(f"a pre- or postcondition is given for unknown event {e!r}")
        self.pre: tuple[Formula, ...] = tuple(as_formula(pre.get(e, "true")) for e in self.events)
        self.post: tuple[dict[str, Formula], ...] = tuple(
            {p: as_formula(f) for p, f in post.get(e, {}).items()} for e in self.events)
        relations = dict(relations or {})
        self.agents: tuple[str, ...] = tuple(relations)
        self.succ: dict[str, tuple[frozenset[int], ...]] = {
            a: _relation(a, relations[a], index, "event") for a in self.agents}
        if designated is None:
            self.designated: frozenset[int] = frozenset(range(len(self.events)))
        else:
            ds = set()
            for e in designated:
                if e not in index:
                    raise ModelError(f"designated event {e!r} is not an event of the model")
                ds.add(index[e])
            self.designated = frozenset(ds)

    def pairs(self, agent: str) -> list[tuple[str, str]]:
        """*agent*'s relation as (event, event) pairs."""
        return [(self.events[i], self.events[j]) for i, s in enumerate(self.succ[agent]) for j in sorted(s)]

    def __repr__(self) -> str:
        return f"EventModel(events={self.events!r}, agents={self.agents!r})"

    def applicable(self, model: RelationalModel) -> bool:
        """Whether every designated world of *model* satisfies some designated event's precondition.

        >>> m = RelationalModel(["u"], {"a": [("u", "u")]}, {"u": ["p"]})
        >>> EventModel(["x"], {"x": "~p"}, relations={"a": [("x", "x")]}).applicable(m)
        False
        """
        truths = [model.truth(self.pre[e]) for e in sorted(self.designated)]
        return all(any(w in t for t in truths) for w in model.designated)

    def to_json(self) -> dict[str, Any]:
        """``{"events": [{"name", "pre", "post"}], "relations": {agent: [[e, f], ...]}, "designated": [...]}``."""
        return {"events": [{"name": e, "pre": str(p), "post": {a: str(f) for a, f in sorted(q.items())}}
                           for e, p, q in zip(self.events, self.pre, self.post)],
                "relations": {a: [list(p) for p in self.pairs(a)] for a in self.agents},
                "designated": [self.events[i] for i in sorted(self.designated)]}

    def describe(self) -> str:
        """A few lines of text: each event's pre- and postconditions, then each agent's relation."""
        lines = ["events (* designated):"]
        for i, (e, p, q) in enumerate(zip(self.events, self.pre, self.post)):
            star = "*" if i in self.designated else " "
            eff = ", ".join(f"{a} := {f}" for a, f in sorted(q.items()))
            lines.append(f"  {star}{e}: pre {p}" + (f"; post {eff}" if eff else ""))
        for a in self.agents:
            lines.append(f"  {a}: " + " ".join(f"{u}->{v}" for u, v in self.pairs(a)))
        return "\n".join(lines)


def relational_product(model: RelationalModel, action: EventModel) -> RelationalModel:
    """The product update ``model ⊗ action`` (all pairs, reachable or not).

    Worlds ``(w,e)``, in the order of the worlds and then of the events; the
    designated ones pair a designated world with a designated event.

    Raises
    ------
    ModelError
        When the agents differ.

    Example
    -------
    >>> m = RelationalModel(["u", "v"], {"a": [(x, y) for x in "uv" for y in "uv"]}, {"u": ["p"]})
    >>> flip = EventModel(["f"], post={"f": {"p": "~p"}}, relations={"a": [("f", "f")]})
    >>> sorted(relational_product(m, flip).truth_set("p"))
    ['(v,f)']
    """
    if set(model.agents) != set(action.agents):
        diff = sorted(set(model.agents) ^ set(action.agents))
        raise ModelError(f"the event model and the model have different agents ({', '.join(diff)})")
    pre = [model.truth(p) for p in action.pre]
    pairs = [(w, e) for w in range(len(model)) for e in range(len(action.events)) if w in pre[e]]
    index = {p: k for k, p in enumerate(pairs)}
    names = tuple(f"({model.worlds[w]},{action.events[e]})" for w, e in pairs)
    post_truth = [{p: model.truth(f) for p, f in q.items()} for q in action.post]
    valuation = []
    for w, e in pairs:
        atoms = set(model.valuation[w])
        for p, t in post_truth[e].items():
            if w in t:
                atoms.add(p)
            else:
                atoms.discard(p)
        valuation.append(frozenset(atoms))
    succ: dict[str, tuple[frozenset[int], ...]] = {}
    for a in model.agents:
        r, q = model.succ[a], action.succ[a]
        succ[a] = tuple(frozenset(index[(v, f)] for v in r[w] for f in q[e] if (v, f) in index) for w, e in pairs)
    designated = frozenset(k for k, (w, e) in enumerate(pairs) if w in model.designated and e in action.designated)
    return RelationalModel._raw(names, model.agents, tuple(valuation), succ, designated)
