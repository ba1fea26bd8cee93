"""The initial state of an EPDDL problem: a finitary S5 theory's model, or explicit worlds.

A **finitary S5 theory** is a list of items: propositional formulas (true at the designated
worlds), ``([C. All] F)`` (F true at every world), ``([C. All] ([Kw. a] F))`` (a knows
whether F) and ``([C. All] (<Kw. a> F))`` (a does not: checked on the model).  Its worlds are
the valuations that satisfy the common knowledge, found by backtracking (:func:`_models`, at
most :data:`MAX_WORLDS`); agent a cannot tell apart two worlds that agree on every F a knows
whether.  **Explicit worlds** list ``:worlds``, ``:relations``, ``:labels`` and ``:designated``.

>>> from kop.io.epddl import load_task, DOMAIN_EXAMPLE, PROBLEM_EXAMPLE
>>> m = load_task(DOMAIN_EXAMPLE, PROBLEM_EXAMPLE).initial
>>> len(m), m.holds("heads & ~Kw_a heads & ~Kw_b heads")
(2, True)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from kop.errors import ModelError
from kop.io.epddl.grounding import _Grounder
from kop.io.epddl.syntax import Node, _plist, _typed, name_condition
from kop.semantics.relational import RelationalModel
from kop.syntax.formula import (And, Atom, Bottom, Common, Distributed, Everyone, Formula, Implies, Know, KnowWhether,
                                Not, Or, Possible, Top, conj)

if TYPE_CHECKING:  # pragma: no cover
    from kop.io.epddl.task import EpddlTask

__all__ = ["MAX_WORLDS", "initial_state"]

#: The largest number of worlds kop builds for a finitary S5 theory.
MAX_WORLDS = 5_000

_FINITARY = ("a finitary S5 item: a propositional formula, ([C. All] F), ([C. All] ([Kw. a] F)) "
             "or ([C. All] (<Kw. a> F)) with F propositional")


def initial_state(task: EpddlTask, g: _Grounder) -> RelationalModel:
    """The problem's initial state: the model of its theory, or its explicit worlds."""
    body = task.problem.init.items[1:]
    if body[0].text == ":worlds":
        return _explicit_init(task, g, body)
    return _theory_init(task, g, body[0])


# -- a finitary S5 theory ------------------------------------------------------------------------


def _theory_items(g: _Grounder, node: Node, env: Mapping[str, str]) -> Iterator[tuple[Node, dict[str, str]]]:
    if node.head() == ":and":
        for k in node.items[1:]:
            yield from _theory_items(g, k, env)
    elif node.head() == ":forall":
        for e in g.bindings(node.items[1], env):
            yield from _theory_items(g, node.items[2], e)
    else:
        yield node, dict(env)


class _Theory:
    """The parts of a finitary S5 theory: the formulas at the designated worlds, the common knowledge, who knows whether what."""

    def __init__(self, task: EpddlTask, g: _Grounder):
        self.task, self.g = task, g
        self.designated: list[Formula] = []
        self.common: list[Formula] = []
        self.kw: dict[str, list[Formula]] = {a: [] for a in task.agents}
        self.checks: list[tuple[Node, Formula]] = []

    def add(self, item: Node, f: Formula) -> None:
        self.checks.append((item, f))
        if isinstance(f, Common) and set(f.group) == set(self.task.agents):
            self.add_common(item, f.arg)
        elif _modal(f):
            raise self.g.f.fail(item, _FINITARY)
        else:
            self.designated.append(f)

    def add_common(self, item: Node, inner: Formula) -> None:
        kws = inner.args if isinstance(inner, And) else (inner,)
        if all(isinstance(k, KnowWhether) for k in kws):
            for k in kws:
                assert isinstance(k, KnowWhether)
                if _modal(k.arg):
                    raise self.g.f.fail(item, "[C. All] ([Kw. a] F) with F without modal operators")
                self.kw[k.agent].append(k.arg)
        elif isinstance(inner, Know) and not _modal(inner.arg):
            self.common.append(inner.arg)
        elif isinstance(inner, Not) and isinstance(inner.arg, KnowWhether) and not _modal(inner.arg.arg):
            return  # nobody is told: checked on the model below
        elif not _modal(inner):
            self.common.append(inner)
        else:
            raise self.g.f.fail(item, _FINITARY)

    def worlds(self, theory: Node) -> list[frozenset[str]]:
        """The valuations that satisfy the common knowledge (the literals it fixes first)."""
        fixed: dict[str, bool] = {}
        for c in self.common:
            for lit in (c.args if isinstance(c, And) else (c,)):
                if isinstance(lit, Atom):
                    fixed[lit.name] = True
                elif isinstance(lit, Not) and isinstance(lit.arg, Atom):
                    fixed[lit.arg.name] = False
        free = [p for p in self.task.atoms if p not in fixed]
        chosen = _models(self.common, free, fixed)
        if chosen is None:
            raise self.g.f.fail(theory, f"a theory with at most {MAX_WORLDS} worlds: kop's explicit models stop "
                                f"there, and the common knowledge of this one leaves {len(free)} atoms free", "")
        if not chosen:
            raise self.g.f.fail(theory, "a consistent theory (no valuation satisfies its common knowledge)", "")
        return chosen

    def model(self, theory: Node) -> RelationalModel:
        chosen = self.worlds(theory)
        names = [f"w{i}" for i in range(len(chosen))]
        target = conj(self.designated)
        designated = [w for w, v in zip(names, chosen) if _prop(target, v)]
        if not designated:
            raise self.g.f.fail(theory, "a theory whose propositional part holds at some world", "")
        rel: dict[str, list[tuple[str, str]]] = {}
        for a in self.task.agents:
            groups: dict[tuple[bool, ...], list[str]] = {}
            for w, v in zip(names, chosen):
                groups.setdefault(tuple(_prop(f, v) for f in self.kw[a]), []).append(w)
            rel[a] = [(u, w) for block in groups.values() for u in block for w in block]
        model = RelationalModel(names, rel, dict(zip(names, chosen)), designated)
        for item, f in self.checks:
            if not model.holds(f):
                raise self.g.f.fail(item, "an item that holds in the model the theory describes (it is false there)")
        return model


def _theory_init(task: EpddlTask, g: _Grounder, theory: Node) -> RelationalModel:
    parts = _Theory(task, g)
    for item, env in _theory_items(g, theory, {}):
        parts.add(item, g.formula(item, env))
    return parts.model(theory)


def _modal(f: Formula) -> bool:
    if isinstance(f, (Know, Possible, KnowWhether, Everyone, Common, Distributed)):
        return True
    return any(_modal(k) for k in _children(f))


def _children(f: Formula) -> tuple[Formula, ...]:
    if isinstance(f, Not):
        return (f.arg,)
    if isinstance(f, (And, Or)):
        return tuple(f.args)
    if isinstance(f, Implies):
        return (f.left, f.right)
    return ()


def _prop(f: Formula, true: frozenset[str]) -> bool:
    if isinstance(f, Top):
        return True
    if isinstance(f, Bottom):
        return False
    if isinstance(f, Atom):
        return f.name in true
    if isinstance(f, Not):
        return not _prop(f.arg, true)
    if isinstance(f, And):
        return all(_prop(k, true) for k in f.args)
    if isinstance(f, Or):
        return any(_prop(k, true) for k in f.args)
    if isinstance(f, Implies):
        return not _prop(f.left, true) or _prop(f.right, true)
    raise ModelError(f"not a propositional formula: {f}")  # pragma: no cover - callers check _modal


def _prop3(f: Formula, val: Mapping[str, bool]) -> bool | None:
    """Three-valued truth of a propositional formula under a partial valuation (None: not decided yet)."""
    if isinstance(f, Top):
        return True
    if isinstance(f, Bottom):
        return False
    if isinstance(f, Atom):
        return val.get(f.name)
    if isinstance(f, Not):
        v = _prop3(f.arg, val)
        return None if v is None else not v
    if isinstance(f, (And, Or)):
        stop = isinstance(f, Or)
        unknown = False
        for k in f.args:
            v = _prop3(k, val)
            if v is None:
                unknown = True
            elif v == stop:
                return stop
        return None if unknown else not stop
    if isinstance(f, Implies):
        return _prop3(Or(Not(f.left), f.right), val)
    raise ModelError(f"not a propositional formula: {f}")  # pragma: no cover - callers check _modal


def _models(law: Sequence[Formula], free: Sequence[str], base: Mapping[str, bool]) -> list[frozenset[str]] | None:
    """Every valuation of *free* (with *base* fixed) that satisfies *law*, by backtracking; None past MAX_WORLDS."""
    out: list[frozenset[str]] = []
    val = dict(base)
    parts = [c for f in law for c in (f.args if isinstance(f, And) else (f,))]
    if any(_prop3(c, val) is False for c in parts):
        return out
    touching: dict[str, list[Formula]] = {p: [] for p in free}
    for c in parts:
        for p in c.atoms():
            if p in touching:
                touching[p].append(c)

    def go(k: int) -> bool:
        if k == len(free):
            out.append(frozenset(p for p, v in val.items() if v))
            return len(out) <= MAX_WORLDS
        p = free[k]
        for b in (False, True):
            val[p] = b
            if all(_prop3(c, val) is not False for c in touching[p]) and not go(k + 1):
                return False
        del val[p]
        return True

    return out if go(0) else None


# -- explicit worlds -----------------------------------------------------------------------------


def _explicit_init(task: EpddlTask, g: _Grounder, body: Sequence[Node]) -> RelationalModel:
    props = _plist(g.f, body, "initial state")
    for key in (":worlds", ":relations", ":labels", ":designated"):
        if key not in props:
            raise g.f.fail(task.problem.init, f"{key} in the explicit initial state")
    wnode = props[":worlds"]
    worlds = [w.text for w in wnode.items]
    if len(set(worlds)) != len(worlds):
        raise g.f.fail(wnode, "distinct world names")
    wenv = {w: "world" for w in worlds}
    rel = _relations(task, g, props[":relations"], wenv)
    labels = _labels(g, props[":labels"], wenv)
    for wname in worlds:
        if wname not in labels:
            raise g.f.fail(props[":labels"], f"a label for every world (none for {wname})", "")
    dnode = props[":designated"]
    for d in dnode.items:
        if d.text not in wenv:
            raise g.f.fail(d, "a world of :worlds")
    return RelationalModel(worlds, rel, labels, [d.text for d in dnode.items])


def _relations(task: EpddlTask, g: _Grounder, node: Node, wenv: Mapping[str, str]) -> dict[str, list[tuple[str, str]]]:
    """``(AGENT PAIRS AGENT PAIRS ...)``: one relation per agent."""
    rel: dict[str, list[tuple[str, str]]] = {}
    for a, pairs in zip(node.items[::2], node.items[1::2]):
        if a.text not in task.agents:
            raise g.f.fail(a, "an agent of the problem")
        if a.text in rel:
            raise g.f.fail(a, f"one relation for agent {a.text}")
        rel[a.text] = sorted(set(_pairs(g, pairs, {}, wenv)))
    missing = [a for a in task.agents if a not in rel]
    if missing:
        raise g.f.fail(node, f"a relation for every agent (none for {missing[0]})", "")
    return rel


def _labels(g: _Grounder, node: Node, wenv: Mapping[str, str]) -> dict[str, list[str]]:
    """``(WORLD ATOMS WORLD ATOMS ...)``: the atoms true at each world."""
    labels: dict[str, list[str]] = {}
    for w, lab in zip(node.items[::2], node.items[1::2]):
        if w.text not in wenv:
            raise g.f.fail(w, "a world of :worlds")
        if w.text in labels:
            raise g.f.fail(w, f"one label for world {w.text}")
        atoms = lab.items[1:] if lab.head() == ":and" else (lab,)
        labels[w.text] = [g.literal(at, {}) for at in atoms]
    return labels


def _pairs(g: _Grounder, node: Node, env: Mapping[str, str], worlds: Mapping[str, str]) -> Iterator[tuple[str, str]]:
    head = node.head()
    if head == ":and":
        for k in node.items[1:]:
            yield from _pairs(g, k, env, worlds)
        return
    if head == ":forall":
        entries, cond = _typed(g.f, node.items[1].items, "variable list")
        for _, t, n in entries:
            if t != "world":
                raise g.f.fail(n, "variables of type world")
        for combo in itertools.product(list(worlds), repeat=len(entries)):
            e = dict(env)
            e.update({v: w for (v, _, _), w in zip(entries, combo)})
            if cond is None or name_condition(g.f, cond, e, "worlds"):
                yield from _pairs(g, node.items[2], e, worlds)
        return
    u, v = (env.get(k.text, k.text) for k in node.items)
    for k, x in zip(node.items, (u, v)):
        if x not in worlds:
            raise g.f.fail(k, "a world of :worlds or a bound ?variable")
    yield (u, v)
