"""EPDDL domains and problems: read them, ground them, and check plans by product update.

EPDDL (Burigana & Fabiano, *The Epistemic Planning Domain Definition Language: Official
Guideline*, 2026) is the input language of the IPC 2026 epistemic planning track.  kop reads
the practical subset that the guideline's benchmarks use (``docs/epddl.md`` lists it):

* a domain: ``:types``, ``:constants``, ``:predicates`` (``:fact`` ones too), ``:event`` s
  with parameters, a precondition and (conditional, quantified) effects, and ``:action`` s
  that instantiate one of the standard *action types* (public / private / semi-private /
  quasi-private ontic, sensing and announcement actions) with observability conditions that
  make each agent a ``Fully``, ``Partially`` or ``Oblivious`` observer;
* a problem: ``:agents``, ``:objects``, ``:facts-init``, an initial state as a finitary S5
  theory or as explicit worlds, relations and labels, and a ``:goal`` formula;
* a plan: one ground action per line, ``(tell A B)`` or ``tell_A_B``.

Grounding gives a :class:`~kop.semantics.relational.RelationalModel` (the initial state) and,
for each plan step, an :class:`~kop.semantics.relational.EventModel` (the action with the
agents' observability resolved on the current state).  :func:`validate_plan` applies the plan
by product update and says at each step whether the action is applicable (at every designated
world some designated event's precondition holds) and at the end whether the goal holds.

>>> task = load_task(DOMAIN_EXAMPLE, PROBLEM_EXAMPLE)
>>> len(task.initial), task.goal
(2, kop.parse('K_a heads'))
>>> result = validate_plan(task, parse_plan("(peek a)"))
>>> result.valid, [s.applicable for s in result.steps]
(True, [True])
>>> validate_plan(task, parse_plan("")).reason
'the goal is false at the end of the plan'
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kop.io.epddl_sexpr import EpddlError, Node, read_nodes
from kop.semantics.errors import ModelError
from kop.semantics.relational import EventModel, RelationalModel, relational_product
from kop.syntax.formula import (AGENT_RE, ATOM_RE, FALSE, TRUE, And, Atom, Bottom, Common, Distributed, Everyone,
                                Formula, Implies, Know, KnowWhether, Not, Or, Possible, Top, conj, disj,
                                is_reserved_atom)

__all__ = ["EpddlDomain", "EpddlProblem", "EpddlTask", "GroundAction", "PlanStep", "StepResult", "Validation",
           "ActionType", "ACTION_TYPES", "parse_domain", "parse_library", "parse_problem", "parse_plan", "load_task",
           "validate_plan", "EpddlError", "DOMAIN_EXAMPLE", "PROBLEM_EXAMPLE"]

#: A small domain: an agent peeks at a coin while the other agents watch or not.
DOMAIN_EXAMPLE = """
(define (domain coin)
  (:predicates (heads))
  (:event nil)
  (:event see-heads :parameters (?i - agent) :precondition (heads))
  (:event see-tails :parameters (?i - agent) :precondition (not (heads)))
  (:action peek
    :parameters (?i - agent)
    :action-type (semi-private-sensing (see-heads ?i) (see-tails ?i))
    :observability-conditions (:and (?i Fully) (default Partially))))
"""
#: A problem for :data:`DOMAIN_EXAMPLE`: heads, and nobody knows whether.
PROBLEM_EXAMPLE = """
(define (problem coin-1) (:domain coin) (:agents a b)
  (:init (:and (heads) (:forall (?i - agent) ([C. All] (<Kw. ?i> (heads))))))
  (:goal ([a] (heads))))
"""

#: The largest number of worlds kop builds for a finitary S5 theory.
MAX_WORLDS = 5_000


# -- action types -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ActionType:
    """A standard action type: its event slots, its observability types and their relations.

    ``relations[t]`` lists the pairs ``(i, j)`` of event slots ``(i, j)`` with ``j``
    accessible from ``i`` for an agent of observability type ``t``; ``designated`` the
    designated slots; ``trivial`` the slots that must hold the trivial event (precondition
    true, no effect) and ``static`` the slots whose events may not have effects.
    """

    name: str
    slots: tuple[str, ...]
    relations: Mapping[str, frozenset[tuple[int, int]]]
    designated: frozenset[int]
    trivial: frozenset[int] = frozenset()
    static: frozenset[int] = frozenset()


def _identity(n: int) -> frozenset[tuple[int, int]]:
    return frozenset((i, i) for i in range(n))


def _to(n: int, target: int) -> frozenset[tuple[int, int]]:
    return frozenset((i, target) for i in range(n))


def _all(slots: Sequence[int]) -> frozenset[tuple[int, int]]:
    return frozenset((i, j) for i in slots for j in slots)


def _types() -> dict[str, ActionType]:
    out: dict[str, ActionType] = {}

    def add(name: str, slots: tuple[str, ...], rel: dict[str, frozenset[tuple[int, int]]], designated: set[int],
            ontic: bool = False) -> None:
        trivial = frozenset(i for i, s in enumerate(slots) if s == "nil")
        static = frozenset() if ontic else frozenset(range(len(slots))) - trivial
        out[name] = ActionType(name, slots, rel, frozenset(designated), trivial, static)

    add("basic", ("pos",), {"Fully": _identity(1)}, {0}, ontic=True)
    add("public-ontic", ("pos",), {"Fully": _identity(1)}, {0}, ontic=True)
    add("private-ontic", ("pos", "nil"), {"Fully": _identity(2), "Oblivious": _to(2, 1)}, {0}, ontic=True)
    for kind, designated in (("sensing", {0, 1}), ("announcement", {0})):
        add(f"public-{kind}", ("pos", "neg"), {"Fully": _identity(2)}, designated)
        add(f"private-{kind}", ("pos", "neg", "nil") if kind == "sensing" else ("pos", "nil"),
            {"Fully": _identity(3 if kind == "sensing" else 2),
             "Oblivious": _to(3, 2) if kind == "sensing" else _to(2, 1)}, designated)
        add(f"semi-private-{kind}", ("pos", "neg"), {"Fully": _identity(2), "Partially": _all([0, 1])}, designated)
        add(f"quasi-private-{kind}", ("pos", "neg", "nil"),
            {"Fully": _identity(3), "Partially": _all([0, 1]) | _identity(3), "Oblivious": _to(3, 2)}, designated)
    return out


#: The action types kop knows, by name (the guideline's standard libraries ``basic`` and ``intermediate``).
ACTION_TYPES: dict[str, ActionType] = _types()
_LIBRARIES = {"basic", "intermediate"}


# -- parsed files -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Predicate:
    """A predicate: its name, its parameters' types, whether it is a ``:fact``."""

    name: str
    types: tuple[str, ...]
    fact: bool
    node: Node


@dataclass(frozen=True)
class EventSchema:
    """An ``:event``: parameters, precondition and effects (nodes, grounded per action)."""

    name: str
    params: tuple[tuple[str, str], ...]
    precondition: Node | None
    effects: Node | None
    node: Node


@dataclass(frozen=True)
class ActionSchema:
    """An ``:action``: parameters (and their condition), action type with its events, observability."""

    name: str
    params: tuple[tuple[str, str], ...]
    condition: Node | None
    action_type: str
    events: tuple[Node, ...]
    observability: Node | None
    node: Node


@dataclass(frozen=True)
class EpddlDomain:
    """A parsed EPDDL domain."""

    name: str
    types: dict[str, str]
    constants: dict[str, str]
    predicates: dict[str, Predicate]
    events: dict[str, EventSchema]
    actions: dict[str, ActionSchema]
    text: str = field(repr=False, default="")
    source: str = ""
    action_types: dict[str, ActionType] = field(repr=False, default_factory=lambda: dict(ACTION_TYPES))


@dataclass(frozen=True)
class EpddlProblem:
    """A parsed EPDDL problem (the initial state and goal are grounded by :func:`load_task`)."""

    name: str
    domain: str
    agents: tuple[str, ...]
    objects: dict[str, str]
    facts: tuple[Node, ...]
    init: Node
    goal: Node
    text: str = field(repr=False, default="")
    source: str = ""
    where: dict[str, Node] = field(repr=False, default_factory=dict)


class _File:
    """Error reporting for one file."""

    def __init__(self, text: str, source: str):
        self.text, self.source = text, source

    def fail(self, node: Node, expected: str, found: str | None = None) -> EpddlError:
        return EpddlError(self.text, node.line, node.column, node.show() if found is None else found, expected,
                          self.source)


def _define(f: _File, nodes: tuple[Node, ...], kind: str) -> tuple[str, Node, list[Node]]:
    if len(nodes) != 1:
        where = nodes[1] if len(nodes) > 1 else Node("sym", "", (), 1, 1)
        raise f.fail(where, f"one (define ({kind} NAME) ...) in the file", "" if len(nodes) < 1 else None)
    top = nodes[0]
    if top.head() != "define" or len(top.items) < 2:
        raise f.fail(top, f"(define ({kind} NAME) ...)")
    title = top.items[1]
    if title.head() != kind or len(title.items) != 2 or not title.items[1].is_sym:
        if title.head() == "action-type-library":
            raise f.fail(title, f"({kind} NAME): this is an action-type library (give it to kop with --library)")
        raise f.fail(title, f"({kind} NAME)")
    sections = []
    for s in top.items[2:]:
        if s.kind != "(" or s.head() is None or not s.head().startswith(":"):  # type: ignore[union-attr]
            raise f.fail(s, "a section such as (:predicates ...)")
        sections.append(s)
    return title.items[1].text, top, sections


def _typed(f: _File, items: Sequence[Node], what: str, variables: bool = True,
           default: str = "object") -> tuple[list[tuple[str, str, Node]], Node | None]:
    """A typed list ``?a ?b - t ?c - u | cond``: the (name, type, node) entries and the condition."""
    out: list[tuple[str, str, Node]] = []
    pending: list[Node] = []
    cond = None
    k = 0
    while k < len(items):
        it = items[k]
        if it.is_sym and it.text == "|":
            if k + 2 != len(items):
                raise f.fail(it, f"one condition after '|' at the end of the {what}")
            cond = items[k + 1]
            break
        if it.is_sym and it.text == "-":
            if not pending or k + 1 >= len(items) or not items[k + 1].is_sym:
                raise f.fail(it, f"names before '-' and a type after it in the {what}")
            t = items[k + 1].text
            out.extend((p.text, t, p) for p in pending)
            pending = []
            k += 2
            continue
        if not it.is_sym or (variables and not it.text.startswith("?")) or (not variables and it.text[:1] in "?:"):
            raise f.fail(it, f"a {'?variable' if variables else 'name'} in the {what}")
        pending.append(it)
        k += 1
    out.extend((p.text, default, p) for p in pending)
    seen: set[str] = set()
    for name, _, node in out:
        if name in seen:
            raise f.fail(node, f"a {what} that names {name} once")
        seen.add(name)
    return out, cond


def _plist(f: _File, items: Sequence[Node], allowed: Sequence[str], what: str) -> dict[str, Node]:
    """``:key value :key value`` pairs."""
    out: dict[str, Node] = {}
    k = 0
    while k < len(items):
        key = items[k]
        if not key.is_sym or key.text not in allowed:
            raise f.fail(key, f"one of {', '.join(allowed)} in the {what}")
        if key.text in out:
            raise f.fail(key, f"{key.text} once in the {what}")
        if k + 1 >= len(items):
            raise f.fail(key, f"a value after {key.text}")
        out[key.text] = items[k + 1]
        k += 2
    return out


def parse_domain(text: str, source: str = "",
                 libraries: Mapping[str, Mapping[str, ActionType]] | None = None) -> EpddlDomain:
    """Read an EPDDL domain.

    *libraries* maps a library name to its action types (:func:`parse_library`); the
    domain's ``:action-type-libraries`` may name them, or ``basic`` and ``intermediate``,
    whose standard types kop knows built in.

    Raises
    ------
    EpddlError
        Located: a section, event or action kop does not read, an unknown action type,
        a repeated name.

    Example
    -------
    >>> d = parse_domain(DOMAIN_EXAMPLE)
    >>> sorted(d.events), d.actions["peek"].action_type
    (['nil', 'see-heads', 'see-tails'], 'semi-private-sensing')
    """
    f = _File(text, source)
    name, _, sections = _define(f, read_nodes(text, source), "domain")
    types: dict[str, str] = {"object": "", "agent": "object"}
    constants: dict[str, str] = {}
    predicates: dict[str, Predicate] = {}
    events: dict[str, EventSchema] = {}
    actions: dict[str, ActionSchema] = {}
    libraries = dict(libraries or {})
    atypes = dict(ACTION_TYPES)
    for s in sections:
        if s.head() == ":action-type-libraries":
            for lib in s.items[1:]:
                if lib.is_sym and lib.text in libraries:
                    atypes.update(libraries[lib.text])
                elif not lib.is_sym or lib.text not in _LIBRARIES:
                    known = sorted(set(libraries) | _LIBRARIES)
                    raise f.fail(lib, "a library given to kop (--library FILE) or built in: " + ", ".join(known))
    for s in sections:
        key, body = s.head(), s.items[1:]
        if key in (":requirements", ":action-type-libraries"):
            continue
        if key == ":types":
            entries, cond = _typed(f, body, "types", variables=False)
            if cond is not None:
                raise f.fail(cond, "no '|' in :types")
            for t, parent, node in entries:
                if t in ("agent", "object"):
                    raise f.fail(node, f"a new type name ({t} is built in)")
                types[t] = parent
            for t, parent, node in entries:
                if parent not in types:
                    raise f.fail(node, f"a known parent type for {t} (not {parent})")
        elif key == ":constants":
            entries, _ = _typed(f, body, "constants", variables=False)
            for c, t, node in entries:
                constants[c] = t
        elif key == ":predicates":
            for p in body:
                fact = p.head() == ":fact"
                items = p.items[1:] if fact else p.items
                if p.kind != "(" or not items or not items[0].is_sym or items[0].text[:1] in "?:":
                    raise f.fail(p, "a predicate (NAME ?x - type ...) or (:fact NAME ...)")
                params, cond = _typed(f, items[1:], "predicate's parameters")
                if cond is not None:
                    raise f.fail(cond, "no '|' in a predicate's parameters")
                pname = items[0].text
                if pname in predicates:
                    raise f.fail(items[0], f"predicate {pname} declared once")
                predicates[pname] = Predicate(pname, tuple(t for _, t, _ in params), fact, p)
        elif key == ":event":
            ev = _event(f, s)
            if ev.name in events:
                raise f.fail(s.items[1], f"event {ev.name} declared once")
            events[ev.name] = ev
        elif key == ":action":
            act = _action(f, s, atypes)
            if act.name in actions:
                raise f.fail(s.items[1], f"action {act.name} declared once")
            actions[act.name] = act
        else:
            raise f.fail(s.items[0], "a domain section kop reads: :requirements, :types, :constants, :predicates, "
                         ":action-type-libraries, :event, :action (see docs/epddl.md)")
    for t, parent in types.items():
        seen = {t}
        while parent:
            if parent in seen:
                raise f.fail(sections[0], f"types without a cycle (type {t})")
            seen.add(parent)
            parent = types.get(parent, "")
    return EpddlDomain(name, types, constants, predicates, events, actions, text, source, atypes)


def _event(f: _File, s: Node) -> EventSchema:
    if len(s.items) < 2 or not s.items[1].is_sym:
        raise f.fail(s, "(:event NAME :parameters (...) :precondition F :effects E)")
    props = _plist(f, s.items[2:], (":parameters", ":precondition", ":effects"), "event")
    params: list[tuple[str, str, Node]] = []
    if ":parameters" in props:
        p = props[":parameters"]
        if p.kind != "(":
            raise f.fail(p, "a parameter list (?x - type ...)")
        params, cond = _typed(f, p.items, "event's parameters")
        if cond is not None:
            raise f.fail(cond, "no '|' in an event's parameters")
    return EventSchema(s.items[1].text, tuple((n, t) for n, t, _ in params), props.get(":precondition"),
                       props.get(":effects"), s)


def _action(f: _File, s: Node, atypes: Mapping[str, ActionType]) -> ActionSchema:
    if len(s.items) < 2 or not s.items[1].is_sym:
        raise f.fail(s, "(:action NAME :parameters (...) :action-type (...) :observability-conditions ...)")
    props = _plist(f, s.items[2:], (":parameters", ":action-type", ":observability-conditions"), "action")
    params: list[tuple[str, str, Node]] = []
    cond = None
    if ":parameters" in props:
        p = props[":parameters"]
        if p.kind != "(":
            raise f.fail(p, "a parameter list (?x - type ...)")
        params, cond = _typed(f, p.items, "action's parameters")
    if ":action-type" not in props:
        raise f.fail(s, "an :action-type")
    at = props[":action-type"]
    if at.kind != "(" or not at.items or not at.items[0].is_sym:
        raise f.fail(at, "(ACTION-TYPE (event args...) ...)")
    tname = at.items[0].text
    if tname not in atypes:
        raise f.fail(at.items[0], "an action type kop knows: " + ", ".join(sorted(atypes)))
    evs = at.items[1:]
    if len(evs) != len(atypes[tname].slots):
        raise f.fail(at, f"{len(atypes[tname].slots)} event(s) for {tname} ({' '.join(atypes[tname].slots)})")
    for e in evs:
        if e.kind != "(" or not e.items or not e.items[0].is_sym:
            raise f.fail(e, "an event (NAME args...)")
    return ActionSchema(s.items[1].text, tuple((n, t) for n, t, _ in params), cond, tname, tuple(evs),
                        props.get(":observability-conditions"), s)


def parse_library(text: str, source: str = "") -> tuple[str, dict[str, ActionType]]:
    """Read an action-type library: its name and its action types.

    ``(define (action-type-library NAME) (:action-type NAME :events (?e ...)
    :observability-types (T ...) :relations (T PAIRS ...) :designated (?e ...)
    :conditions (?e (CONDITION) ...)))``.  The pairs are ``(?e ?f)``, ``(:and ...)`` or
    ``(:forall (?e ?f - event | C) (?e ?f))`` with C over ``=``, ``/=``, ``and``, ``or``,
    ``not``, ``imply``; the conditions kop checks are ``:trivial-event`` and
    ``:trivial-postconditions`` (``:non-trivial-postconditions`` allows effects).

    Example
    -------
    >>> name, types = parse_library('''(define (action-type-library mine)
    ...   (:action-type whisper :events (?said ?nil) :observability-types (Fully Oblivious)
    ...     :relations (Fully (:forall (?e - event) (?e ?e)) Oblivious (:forall (?e - event) (?e ?nil)))
    ...     :designated (?said) :conditions (?said (:trivial-postconditions) ?nil (:trivial-event))))''')
    >>> name, sorted(types["whisper"].relations["Oblivious"])
    ('mine', [(0, 1), (1, 1)])
    """
    f = _File(text, source)
    name, _, sections = _define(f, read_nodes(text, source), "action-type-library")
    out: dict[str, ActionType] = {}
    for s in sections:
        key = s.head()
        if key == ":requirements":
            continue
        if key != ":action-type":
            raise f.fail(s.items[0], "an (:action-type ...) or (:requirements ...) section")
        if len(s.items) < 2 or not s.items[1].is_sym:
            raise f.fail(s, "(:action-type NAME :events (...) ...)")
        tname = s.items[1].text
        props = _plist(f, s.items[2:], (":events", ":observability-types", ":relations", ":designated",
                                        ":conditions"), "action type")
        for needed in (":events", ":observability-types", ":relations", ":designated"):
            if needed not in props:
                raise f.fail(s, f"{needed} in action type {tname}")
        ev = props[":events"]
        if ev.kind != "(" or not ev.items or not all(e.is_sym and e.text.startswith("?") for e in ev.items):
            raise f.fail(ev, "a list of ?event variables")
        slots = [e.text for e in ev.items]
        if len(set(slots)) != len(slots):
            raise f.fail(ev, "distinct event variables")
        index = {e: k for k, e in enumerate(slots)}
        ot = props[":observability-types"]
        if ot.kind != "(" or not ot.items or not all(t.is_sym for t in ot.items):
            raise f.fail(ot, "a list of observability type names")
        otypes = [t.text for t in ot.items]
        rel: dict[str, frozenset[tuple[int, int]]] = {}
        items = props[":relations"].items
        if props[":relations"].kind != "(" or len(items) % 2:
            raise f.fail(props[":relations"], "(TYPE PAIRS TYPE PAIRS ...)")
        g = _SlotPairs(f)
        for k in range(0, len(items), 2):
            t = items[k]
            if not t.is_sym or t.text not in otypes:
                raise f.fail(t, "an observability type of :observability-types")
            if t.text in rel:
                raise f.fail(t, f"one relation for {t.text}")
            rel[t.text] = frozenset((index[a], index[b]) for a, b in g.pairs(items[k + 1], {}, index))
        for tn in otypes:
            if tn not in rel:
                raise f.fail(props[":relations"], f"a relation for every observability type (none for {tn})", "")
        des = props[":designated"]
        if des.kind != "(" or not all(d.is_sym and d.text in index for d in des.items):
            raise f.fail(des, "a list of event variables of :events")
        trivial: set[int] = set()
        static: set[int] = set()
        cond = props.get(":conditions")
        if cond is not None:
            citems = cond.items
            if cond.kind != "(" or len(citems) % 2:
                raise f.fail(cond, "(?event (CONDITION ...) ...)")
            for k in range(0, len(citems), 2):
                e = citems[k]
                if not e.is_sym or e.text not in index:
                    raise f.fail(e, "an event variable of :events")
                for c in citems[k + 1].items if citems[k + 1].kind == "(" else (citems[k + 1],):
                    if c.text == ":trivial-event":
                        trivial.add(index[e.text])
                    elif c.text == ":trivial-postconditions":
                        static.add(index[e.text])
                    elif c.text != ":non-trivial-postconditions":
                        raise f.fail(c, "a condition kop checks: :trivial-event, :trivial-postconditions or "
                                     ":non-trivial-postconditions")
        out[tname] = ActionType(tname, tuple(v[1:] for v in slots), rel, frozenset(index[d.text] for d in des.items),
                                frozenset(trivial), frozenset(static))
    return name, out


class _SlotPairs:
    """Pairs of event variables from an action type's relation."""

    def __init__(self, f: _File):
        self.f = f

    def pairs(self, node: Node, env: Mapping[str, str], index: Mapping[str, int]) -> Iterator[tuple[str, str]]:
        head = node.head()
        if head == ":and":
            for k in node.items[1:]:
                yield from self.pairs(k, env, index)
            return
        if head == ":forall":
            if len(node.items) != 3 or node.items[1].kind != "(":
                raise self.f.fail(node, "(:forall (?e ?f - event | C) PAIRS)")
            entries, cond = _typed(self.f, node.items[1].items, "variable list")
            for _, t, n in entries:
                if t != "event":
                    raise self.f.fail(n, "variables of type event")
            for combo in itertools.product(list(index), repeat=len(entries)):
                e = dict(env)
                e.update({v: x for (v, _, _), x in zip(entries, combo)})
                if cond is None or _slot_cond(self.f, cond, e):
                    yield from self.pairs(node.items[2], e, index)
            return
        if node.kind == "(" and len(node.items) == 2 and all(k.is_sym for k in node.items):
            u, v = (env.get(k.text, k.text) for k in node.items)
            for k, x in zip(node.items, (u, v)):
                if x not in index:
                    raise self.f.fail(k, "an event variable of :events or a bound ?variable")
            yield (u, v)
            return
        raise self.f.fail(node, "a pair (?e ?f), (:and ...) or (:forall (?e ?f - event | C) (?e ?f))")


def _slot_cond(f: _File, node: Node, env: Mapping[str, str]) -> bool:
    head = node.head()
    rest = node.items[1:]
    if head in ("=", "/=") and len(rest) == 2 and all(k.is_sym for k in rest):
        a, b = (env.get(k.text, k.text) for k in rest)
        return (a == b) == (head == "=")
    if head == "not" and len(rest) == 1:
        return not _slot_cond(f, rest[0], env)
    if head == "and":
        return all(_slot_cond(f, k, env) for k in rest)
    if head == "or":
        return any(_slot_cond(f, k, env) for k in rest)
    if head == "imply" and len(rest) == 2:
        return not _slot_cond(f, rest[0], env) or _slot_cond(f, rest[1], env)
    raise f.fail(node, "a condition over variables: =, /=, and, or, not, imply")


def parse_problem(text: str, source: str = "") -> EpddlProblem:
    """Read an EPDDL problem.

    Example
    -------
    >>> p = parse_problem(PROBLEM_EXAMPLE)
    >>> p.agents, p.domain
    (('a', 'b'), 'coin')
    """
    f = _File(text, source)
    name, top, sections = _define(f, read_nodes(text, source), "problem")
    domain = ""
    agents: list[str] = []
    objects: dict[str, str] = {}
    facts: tuple[Node, ...] = ()
    init = goal = None
    where: dict[str, Node] = {}
    seen: set[str] = set()
    for s in sections:
        key = s.head() or ""
        if key in seen and key != ":requirements":
            raise f.fail(s.items[0], f"{key} once")
        seen.add(key)
        body = s.items[1:]
        if key == ":requirements":
            continue
        if key == ":domain":
            if len(body) != 1 or not body[0].is_sym:
                raise f.fail(s, "(:domain NAME)")
            domain = body[0].text
            where[":domain"] = body[0]
        elif key == ":agents":
            for a in body:
                if not a.is_sym or AGENT_RE.fullmatch(a.text) is None:
                    raise f.fail(a, "an agent's name (letters, digits, _)")
                if a.text in agents:
                    raise f.fail(a, f"agent {a.text} listed once")
                agents.append(a.text)
                where[a.text] = a
        elif key == ":objects":
            entries, cond = _typed(f, body, "objects", variables=False)
            if cond is not None:
                raise f.fail(cond, "no '|' in :objects")
            for o, t, node in entries:
                objects[o] = t
                where[o] = node
        elif key == ":facts-init":
            facts = body
        elif key == ":init":
            init = s
        elif key == ":goal":
            if len(body) != 1:
                raise f.fail(s, "(:goal FORMULA)")
            goal = body[0]
        else:
            raise f.fail(s.items[0], "a problem section kop reads: :domain, :requirements, :agents, :objects, "
                         ":facts-init, :init, :goal (see docs/epddl.md)")
    if not domain:
        raise f.fail(top, "a (:domain NAME) section")
    if init is None:
        raise f.fail(top, "an (:init ...) section")
    if goal is None:
        raise f.fail(top, "a (:goal ...) section")
    return EpddlProblem(name, domain, tuple(agents), objects, facts, init, goal, text, source, where)


# -- grounding -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class GroundAction:
    """A ground action: its name and arguments and the grounded events in the action type's slots."""

    name: str
    args: tuple[str, ...]
    action_type: ActionType
    events: tuple[str, ...]
    pre: tuple[Formula, ...]
    post: tuple[dict[str, Formula], ...]
    observability: dict[str, tuple[tuple[Formula, str], ...]]
    default: tuple[tuple[Formula, str], ...] | None

    @property
    def label(self) -> str:
        """The action as a plan writes it: ``(name arg ...)``."""
        return "(" + " ".join((self.name, *self.args)) + ")"

    def observers(self, model: RelationalModel) -> dict[str, str]:
        """Each agent's observability type on *model*: the first condition that holds at every designated world."""
        out: dict[str, str] = {}
        for a in model.agents:
            chain = self.observability.get(a, self.default)
            if chain is None:
                raise ModelError(f"action {self.label}: agent {a} has no observability type (add (default TYPE))")
            for cond, t in chain:
                if model.holds(cond):
                    out[a] = t
                    break
            else:  # pragma: no cover - every chain ends in a true condition
                raise ModelError(f"action {self.label}: no observability condition of agent {a} holds")
        return out

    def event_model(self, model: RelationalModel) -> tuple[EventModel, dict[str, str]]:
        """The event model of this action on *model* (observability resolved there) and each agent's type."""
        obs = self.observers(model)
        rel = {a: [(self.events[i], self.events[j]) for i, j in sorted(self.action_type.relations[t])]
               for a, t in obs.items()}
        em = EventModel(self.events, dict(zip(self.events, self.pre)), dict(zip(self.events, self.post)), rel,
                        [self.events[i] for i in sorted(self.action_type.designated)])
        return em, obs


@dataclass(frozen=True)
class PlanStep:
    """One line of a plan: the action's name and arguments and where it was written."""

    name: str
    args: tuple[str, ...]
    line: int
    column: int = 1

    @property
    def label(self) -> str:
        """``(name arg ...)``."""
        return "(" + " ".join((self.name, *self.args)) + ")"


def parse_plan(text: str, source: str = "") -> list[PlanStep]:
    """Read a plan: one action per line, ``(tell a b)`` or ``tell_a_b``, optionally numbered ``0.``/``1:``.

    ``;`` starts a comment; blank lines are skipped.

    >>> [s.label for s in parse_plan("0. (open A)\\n; peek next\\n1: peek_A")]
    ['(open A)', '(peek_A)']
    """
    steps = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split(";", 1)[0]
        m = re.match(r"\s*(?:\d+\s*[.:]\s*)?", line)
        start = m.end() if m else 0
        body = line[start:].strip()
        if not body:
            continue
        col = line.index(body) + 1
        if body.startswith("("):
            if not body.endswith(")") or "(" in body[1:-1] or ")" in body[1:-1]:
                raise EpddlError(text, n, col, body, "an action (NAME ARG ...) on one line", source)
            words = body[1:-1].split()
            if not words:
                raise EpddlError(text, n, col, body, "an action name inside the parentheses", source)
        else:
            words = body.split()
            if len(words) != 1:
                raise EpddlError(text, n, col, body, "one action per line: (NAME ARG ...) or NAME_ARG_...", source)
        steps.append(PlanStep(words[0], tuple(words[1:]), n, col))
    return steps


class EpddlTask:
    """A grounded planning task: the initial state, the goal, and the ground actions on demand.

    Build it with :func:`load_task`.
    """

    def __init__(self, domain: EpddlDomain, problem: EpddlProblem):
        if problem.domain != domain.name:
            pf = _File(problem.text, problem.source)
            raise pf.fail(problem.where.get(":domain", problem.init),
                          f"a problem for domain {domain.name} (the domain file defines {domain.name})")
        self.domain, self.problem = domain, problem
        self.objects: dict[str, str] = {}
        self._dfile = _File(domain.text, domain.source)
        self._pfile = _File(problem.text, problem.source)
        for o, t in list(domain.constants.items()) + list(problem.objects.items()):
            self.objects[o] = t
        for a in problem.agents:
            if a in self.objects:
                raise self._pfile.fail(problem.where.get(a, problem.init), f"agent {a} not also declared as an object")
            self.objects[a] = "agent"
        #: the agents: the problem's (:agents ...) and the constants and objects of type agent
        self.agents: tuple[str, ...] = tuple(o for o, t in self.objects.items() if t == "agent")
        if not self.agents:
            raise self._pfile.fail(problem.init, "an (:agents ...) section (the problem has no agent)", "")
        for a in self.agents:
            if AGENT_RE.fullmatch(a) is None:
                raise self._pfile.fail(problem.where.get(a, problem.init), f"agent names of letters, digits and _ "
                                       f"({a} is not one)")
        for o, t in self.objects.items():
            if t not in domain.types:
                raise self._pfile.fail(problem.where.get(o, problem.init), f"a type of the domain for object {o} (not {t})")
        self.facts: set[tuple[str, ...]] = set()
        g = _Grounder(self, self._pfile)
        for fact in problem.facts:
            if fact.kind != "(" or not fact.items:
                raise self._pfile.fail(fact, "a fact (NAME OBJECT ...)")
            pred, args = g.atom_parts(fact, {})
            if not domain.predicates[pred].fact:
                raise self._pfile.fail(fact, f"a :fact predicate in :facts-init ({pred} is not one)")
            self.facts.add((pred, *args))
        self.atoms: dict[str, tuple[str, ...]] = {}
        for p in domain.predicates.values():
            if p.fact:
                continue
            for combo in itertools.product(*(self.objects_of(t) for t in p.types)):
                name = _atom_name(p.name, combo)
                if ATOM_RE.fullmatch(name) is None or is_reserved_atom(name):
                    raise self._dfile.fail(p.node, f"a predicate whose ground atoms are kop atoms ({name} is not)")
                if name in self.atoms:
                    raise self._dfile.fail(p.node, f"predicates whose ground atoms differ (two give {name})")
                self.atoms[name] = (p.name, *combo)
        self.initial = _initial_state(self, g)
        self.goal = g.formula(problem.goal, {})
        self._actions: dict[tuple[str, tuple[str, ...]], GroundAction] = {}
        self._check_schemas()

    def _check_schemas(self) -> None:
        """Ground every event and action once (their first binding), so that a misspelt name is reported now."""
        g = _Grounder(self, self._dfile)
        for ev in self.domain.events.values():
            for combo in itertools.islice(itertools.product(*(self.objects_of(t) for _, t in ev.params)), 1):
                env = {v: o for (v, _), o in zip(ev.params, combo)}
                if ev.precondition is not None:
                    g.formula(ev.precondition, env)
                if ev.effects is not None:
                    g.effects(ev.effects, env)
        for name, args in self.ground_names().values():
            schema = self.domain.actions[name]
            env = dict(zip((v for v, _ in schema.params), args))
            if schema.condition is None or g.static(schema.condition, env):
                self.action(name, args)
                break

    def objects_of(self, t: str) -> list[str]:
        """The objects (and agents) of type *t* or a subtype, in declaration order."""
        return [o for o, ot in self.objects.items() if self._subtype(ot, t)]

    def _subtype(self, t: str, of: str) -> bool:
        while t:
            if t == of:
                return True
            t = self.domain.types.get(t, "")
        return False

    def action(self, name: str, args: Sequence[str], where: tuple[_File, Node] | None = None) -> GroundAction:
        """The ground action ``(name args...)``.

        Raises
        ------
        EpddlError
            Located at *where* (a plan line) or at the action: an unknown action or object,
            a wrong number or type of arguments, arguments that fail the parameters' condition.
        """
        key = (name, tuple(args))
        if key in self._actions:
            return self._actions[key]
        f, node = where if where is not None else (self._dfile, Node("sym", name, (), 1, 1))
        schema = self.domain.actions.get(name)
        if schema is None:
            raise f.fail(node, "an action of the domain: " + ", ".join(sorted(self.domain.actions)))
        if len(args) != len(schema.params):
            raise f.fail(node, f"{len(schema.params)} argument(s) for {name} "
                         f"({' '.join(v + ' - ' + t for v, t in schema.params)})")
        env: dict[str, str] = {}
        for (var, t), arg in zip(schema.params, args):
            if arg not in self.objects:
                raise f.fail(node, f"objects and agents of the problem as arguments ({arg} is neither)")
            if not self._subtype(self.objects[arg], t):
                raise f.fail(node, f"an argument of type {t} for {var} ({arg} is a {self.objects[arg]})")
            env[var] = arg
        g = _Grounder(self, self._dfile)
        if schema.condition is not None and not g.static(schema.condition, env):
            raise f.fail(node, f"arguments that satisfy the parameters' condition {schema.condition.show()}")
        atype = self.domain.action_types[schema.action_type]
        names: list[str] = []
        pres: list[Formula] = []
        posts: list[dict[str, Formula]] = []
        for slot, ref in zip(atype.slots, schema.events):
            ev = self.domain.events.get(ref.items[0].text)
            if ev is None:
                raise self._dfile.fail(ref.items[0], "an event of the domain: " + ", ".join(sorted(self.domain.events)))
            if len(ref.items) - 1 != len(ev.params):
                raise self._dfile.fail(ref, f"{len(ev.params)} argument(s) for event {ev.name}")
            eenv = {}
            for (var, t), a in zip(ev.params, ref.items[1:]):
                val = g.term(a, env)
                if not self._subtype(self.objects[val], t):
                    raise self._dfile.fail(a, f"an argument of type {t} for {var} of event {ev.name}")
                eenv[var] = val
            pre = g.formula(ev.precondition, eenv) if ev.precondition is not None else TRUE
            post = g.effects(ev.effects, eenv) if ev.effects is not None else {}
            k = len(names)
            if k in atype.trivial and (pre != TRUE or post):
                raise self._dfile.fail(ref, f"the trivial event (no precondition, no effect) in {atype.name}'s "
                                       f"slot {slot} ({ev.name} is not trivial)")
            if k in atype.static and post:
                raise self._dfile.fail(ref, f"an event without effects in {atype.name}'s slot {slot} "
                                       f"({ev.name} has effects)")
            label = "(" + " ".join([ev.name, *eenv.values()]) + ")"
            if label in names:
                label = f"{label}#{slot}"
            names.append(label)
            pres.append(pre)
            posts.append(post)
        obs, default = g.observability(schema, atype, env)
        ga = GroundAction(name, tuple(args), atype, tuple(names), tuple(pres), tuple(posts), obs, default)
        self._actions[key] = ga
        return ga

    def ground_names(self) -> dict[str, tuple[str, tuple[str, ...]]]:
        """``name_arg_arg`` (as planners print plans) -> (name, args), for every well-typed argument list."""
        out: dict[str, tuple[str, tuple[str, ...]]] = {}
        for schema in self.domain.actions.values():
            for combo in itertools.product(*(self.objects_of(t) for _, t in schema.params)):
                out["_".join((schema.name, *combo))] = (schema.name, tuple(combo))
        return out


def _atom_name(pred: str, args: Sequence[str]) -> str:
    return "_".join((pred, *args)).replace("-", "_")


class _Grounder:
    """Formulas, effects and observability conditions under a binding of variables to objects."""

    def __init__(self, task: EpddlTask, f: _File):
        self.task, self.f = task, f

    def term(self, node: Node, env: Mapping[str, str]) -> str:
        if not node.is_sym:
            raise self.f.fail(node, "an object, agent or ?variable")
        if node.text.startswith("?"):
            if node.text not in env:
                raise self.f.fail(node, f"a bound variable ({node.text} is not a parameter or quantified here)")
            return env[node.text]
        if node.text not in self.task.objects:
            raise self.f.fail(node, "an object or agent of the problem")
        return node.text

    def atom_parts(self, node: Node, env: Mapping[str, str]) -> tuple[str, tuple[str, ...]]:
        pred = node.items[0].text
        p = self.task.domain.predicates.get(pred)
        if p is None:
            raise self.f.fail(node.items[0], "a predicate of the domain, or a formula operator")
        args = tuple(self.term(a, env) for a in node.items[1:])
        if len(args) != len(p.types):
            raise self.f.fail(node, f"{len(p.types)} argument(s) for predicate {pred}")
        for a, t, n in zip(args, p.types, node.items[1:]):
            if not self.task._subtype(self.task.objects[a], t):
                raise self.f.fail(n, f"an argument of type {t} for predicate {pred} ({a} is a {self.task.objects[a]})")
        return pred, args

    def bindings(self, node: Node, env: Mapping[str, str]) -> Iterator[dict[str, str]]:
        """Every binding of a quantifier's typed variables ``(?x - t ... | cond)``."""
        if node.kind != "(":
            raise self.f.fail(node, "a variable list (?x - type ...)")
        entries, cond = _typed(self.f, node.items, "variable list")
        for _, t, n in entries:
            if t not in self.task.domain.types:
                raise self.f.fail(n, f"a declared type (not {t})")
        for combo in itertools.product(*(self.task.objects_of(t) for _, t, _ in entries)):
            e = dict(env)
            e.update({v: o for (v, _, _), o in zip(entries, combo)})
            if cond is None or self.static(cond, e):
                yield e

    def static(self, node: Node, env: Mapping[str, str]) -> bool:
        """The value of a condition over equalities and facts only."""
        f = self.formula(node, env)
        if f.atoms():
            raise self.f.fail(node, "a condition over =, /= and facts only (it uses " + sorted(f.atoms())[0] + ")")
        return RelationalModel(["w"], {}, {}).holds(f)

    def formula(self, node: Node, env: Mapping[str, str]) -> Formula:  # noqa: C901 - one case per operator
        if node.is_sym:
            if node.text == "true":
                return TRUE
            if node.text == "false":
                return FALSE
            raise self.f.fail(node, "a formula: (PREDICATE args), (and ...), (not ...), ([AGENT] F), ...")
        if node.kind != "(" or not node.items:
            raise self.f.fail(node, "a formula in parentheses")
        first = node.items[0]
        if first.kind in "[<":
            if len(node.items) != 2:
                raise self.f.fail(node, "one formula after a modal operator: ([a] F)")
            return self.modal(first, self.formula(node.items[1], env), env)
        head = first.text
        rest = node.items[1:]
        if head in ("and", "or"):
            parts = [self.formula(k, env) for k in rest]
            return conj(parts) if head == "and" else disj(parts)
        if head == "not":
            self.arity(node, 1)
            return Not(self.formula(rest[0], env))
        if head == "imply":
            self.arity(node, 2)
            return Implies(self.formula(rest[0], env), self.formula(rest[1], env))
        if head in ("forall", "exists"):
            self.arity(node, 2)
            parts = [self.formula(rest[1], e) for e in self.bindings(rest[0], env)]
            return conj(parts) if head == "forall" else disj(parts)
        if head in ("=", "/="):
            self.arity(node, 2)
            same = self.term(rest[0], env) == self.term(rest[1], env)
            return TRUE if same == (head == "=") else FALSE
        if head in ("true", "false") and not rest:
            return TRUE if head == "true" else FALSE
        pred, args = self.atom_parts(node, env)
        if self.task.domain.predicates[pred].fact:
            return TRUE if (pred, *args) in self.task.facts else FALSE
        return Atom(_atom_name(pred, args))

    def arity(self, node: Node, n: int) -> None:
        if len(node.items) - 1 != n:
            raise self.f.fail(node, f"{n} argument(s) for {node.items[0].text}")

    def agents(self, node: Node, env: Mapping[str, str]) -> tuple[str, ...]:
        if node.is_sym and node.text == "All":
            return self.task.agents
        items = node.items if node.kind == "(" else (node,)
        out = []
        for it in items:
            a = self.term(it, env)
            if a not in self.task.agents:
                raise self.f.fail(it, f"an agent ({a} is not one)")
            out.append(a)
        if not out:
            raise self.f.fail(node, "at least one agent")
        return tuple(dict.fromkeys(out))

    def modal(self, op: Node, arg: Formula, env: Mapping[str, str]) -> Formula:
        items = op.items
        box = op.kind == "["
        if len(items) == 2 and items[0].is_sym and items[0].text in ("C.", "Kw.", "D."):
            kind = items[0].text
            group = self.agents(items[1], env)
            if kind == "Kw.":
                f: Formula = conj([KnowWhether(a, arg) for a in group])
                return f if box else Not(f)
            cls = Common if kind == "C." else Distributed
            return cls(group, arg) if box else Not(cls(group, Not(arg)))
        if len(items) == 1:
            group = self.agents(items[0], env)
            if len(group) == 1 and (items[0].is_sym and items[0].text != "All"):
                return Know(group[0], arg) if box else Possible(group[0], arg)
            return Everyone(group, arg) if box else Not(Everyone(group, Not(arg)))
        raise self.f.fail(op, "a modal operator: [a], [(a b)], [All], [C. G], [Kw. a], [D. G] or their <...> duals")

    def effects(self, node: Node, env: Mapping[str, str]) -> dict[str, Formula]:
        """Postconditions: p becomes (some add condition) or (p and no delete condition); adds win, as in PDDL."""
        adds: dict[str, list[Formula]] = {}
        dels: dict[str, list[Formula]] = {}
        self._effects(node, env, TRUE, adds, dels)
        out: dict[str, Formula] = {}
        for p in list(adds) + [q for q in dels if q not in adds]:
            add, delete = disj(adds.get(p, [])), disj(dels.get(p, []))
            if add == TRUE:
                out[p] = TRUE
            elif delete == TRUE:
                out[p] = add
            elif delete == FALSE:
                out[p] = Or(add, Atom(p))
            else:
                keep = And(Atom(p), Not(delete))
                out[p] = keep if add == FALSE else Or(add, keep)
        return out

    def _effects(self, node: Node, env: Mapping[str, str], cond: Formula, adds: dict[str, list[Formula]],
                 dels: dict[str, list[Formula]]) -> None:
        if node.kind != "(" or not node.items:
            raise self.f.fail(node, "an effect: (PREDICATE args), (not (PREDICATE args)), (:and ...), (when C E), "
                              "(:forall (...) E)")
        head = node.head()
        rest = node.items[1:]
        if head in (":and", "and"):
            for k in rest:
                self._effects(k, env, cond, adds, dels)
        elif head == "when":
            self.arity(node, 2)
            c = self.formula(rest[0], env)
            self._effects(rest[1], env, c if cond == TRUE else And(cond, c), adds, dels)
        elif head in (":forall", "forall"):
            self.arity(node, 2)
            for e in self.bindings(rest[0], env):
                self._effects(rest[1], e, cond, adds, dels)
        elif head == "not":
            self.arity(node, 1)
            p = self._literal(rest[0], env)
            dels.setdefault(p, []).append(cond)
        else:
            p = self._literal(node, env)
            adds.setdefault(p, []).append(cond)

    def _literal(self, node: Node, env: Mapping[str, str]) -> str:
        if node.kind != "(" or not node.items or not node.items[0].is_sym:
            raise self.f.fail(node, "an atom (PREDICATE args)")
        pred, args = self.atom_parts(node, env)
        if self.task.domain.predicates[pred].fact:
            raise self.f.fail(node, f"an effect on a fluent ({pred} is a :fact)")
        return _atom_name(pred, args)

    def observability(self, schema: ActionSchema, atype: ActionType, env: Mapping[str, str]
                      ) -> tuple[dict[str, tuple[tuple[Formula, str], ...]], tuple[tuple[Formula, str], ...] | None]:
        per: dict[str, tuple[tuple[Formula, str], ...]] = {}
        default: list[tuple[tuple[Formula, str], ...]] = []
        types = sorted(atype.relations)
        if schema.observability is None:
            if len(types) != 1:
                raise self.f.fail(schema.node, f"observability conditions ({atype.name} has types {', '.join(types)})")
            return {}, ((TRUE, types[0]),)
        self._obs(schema.observability, env, per, default, types)
        return per, (default[0] if default else None)

    def _obs(self, node: Node, env: Mapping[str, str], per: dict[str, tuple[tuple[Formula, str], ...]],
             default: list[tuple[tuple[Formula, str], ...]], types: list[str]) -> None:
        if node.kind != "(" or not node.items:
            raise self.f.fail(node, "an observability condition: (AGENT TYPE), (default TYPE), (:and ...), "
                              "(:forall (...) ...)")
        head = node.head()
        if head == ":and":
            for k in node.items[1:]:
                self._obs(k, env, per, default, types)
            return
        if head == ":forall":
            self.arity(node, 2)
            for e in self.bindings(node.items[1], env):
                self._obs(node.items[2], e, per, default, types)
            return
        if len(node.items) != 2:
            raise self.f.fail(node, "(AGENT TYPE) or (AGENT (if C TYPE else TYPE))")
        chain = self._chain(node.items[1], env, types)
        if head == "default":
            if default:
                raise self.f.fail(node, "one default observability type")
            default.append(chain)
            return
        a = self.term(node.items[0], env)
        if a not in self.task.agents:
            raise self.f.fail(node.items[0], f"an agent ({a} is not one)")
        if a in per:
            raise self.f.fail(node, f"one observability condition for agent {a}")
        per[a] = chain

    def _chain(self, node: Node, env: Mapping[str, str], types: list[str]) -> tuple[tuple[Formula, str], ...]:
        if node.is_sym:
            if node.text not in types:
                raise self.f.fail(node, "an observability type of this action type: " + ", ".join(types))
            return ((TRUE, node.text),)
        items = node.items
        if node.kind == "(" and len(items) == 5 and items[0].text == "if" and items[3].text == "else":
            cond = self.formula(items[1], env)
            first = self._chain(items[2], env, types)
            return tuple((And(cond, c) if c != TRUE else cond, t) for c, t in first) + \
                self._chain(items[4], env, types)
        raise self.f.fail(node, "an observability type or (if CONDITION TYPE else TYPE)")


# -- the initial state ---------------------------------------------------------------------------


def _initial_state(task: EpddlTask, g: _Grounder) -> RelationalModel:
    init = task.problem.init
    body = init.items[1:]
    if body and body[0].is_sym and body[0].text == ":worlds":
        return _explicit_init(task, g, body)
    if len(body) != 1:
        raise g.f.fail(init, "(:init THEORY) with one finitary S5 theory, or (:init :worlds ... :relations ... "
                       ":labels ... :designated ...)")
    return _theory_init(task, g, body[0])


def _theory_items(g: _Grounder, node: Node, env: Mapping[str, str]) -> Iterator[tuple[Node, dict[str, str]]]:
    if node.head() == ":and":
        for k in node.items[1:]:
            yield from _theory_items(g, k, env)
    elif node.head() == ":forall":
        g.arity(node, 2)
        for e in g.bindings(node.items[1], env):
            yield from _theory_items(g, node.items[2], e)
    else:
        yield node, dict(env)


_FINITARY = ("a finitary S5 item: a propositional formula, ([C. All] F), ([C. All] ([Kw. a] F)) "
             "or ([C. All] (<Kw. a> F)) with F propositional")


@dataclass
class _Theory:
    """A finitary S5 theory sorted by what each item says (what :func:`_theory_init` builds the model from)."""

    designated: list[Formula]          # propositional items: true at the designated worlds
    common: list[Formula]              # ([C. All] F), F propositional: true at every world
    kw: dict[str, list[Formula]]       # ([C. All] ([Kw. a] F)): agent a tells the worlds apart by F
    checks: list[tuple[Node, Formula]]  # every item, checked on the model at the end


def _theory_init(task: EpddlTask, g: _Grounder, theory: Node) -> RelationalModel:
    th = _sort_theory(task, g, theory)
    chosen = _theory_valuations(task, g, theory, th.common)
    names = [f"w{i}" for i in range(len(chosen))]
    target = conj(th.designated)
    designated = [w for w, v in zip(names, chosen) if _prop(target, v)]
    if not designated:
        raise g.f.fail(theory, "a theory whose propositional part holds at some world", "")
    rel = {a: _kw_partition(names, chosen, th.kw[a]) for a in task.agents}
    model = RelationalModel(names, rel, dict(zip(names, chosen)), designated)
    for item, f in th.checks:
        if not model.holds(f):
            raise g.f.fail(item, "an item that holds in the model the theory describes (it is false there)")
    return model


def _sort_theory(task: EpddlTask, g: _Grounder, theory: Node) -> _Theory:
    """The items of *theory*, grounded and sorted (a located error for an item outside finitary S5)."""
    th = _Theory([], [], {a: [] for a in task.agents}, [])
    for item, env in _theory_items(g, theory, {}):
        f = g.formula(item, env)
        th.checks.append((item, f))
        if isinstance(f, Common) and set(f.group) == set(task.agents):
            _sort_common(g, item, f.arg, th)
        elif _modal(f):
            raise g.f.fail(item, _FINITARY)
        else:
            th.designated.append(f)
    return th


def _sort_common(g: _Grounder, item: Node, inner: Formula, th: _Theory) -> None:
    """File ``[C. All] inner``: knowing-whether statements, common knowledge of a propositional formula,
    or ``<Kw. a> F`` (nobody is told; checked on the model)."""
    kws = inner.args if isinstance(inner, And) else (inner,)
    if all(isinstance(k, KnowWhether) for k in kws):
        for k in kws:
            assert isinstance(k, KnowWhether)
            if _modal(k.arg):
                raise g.f.fail(item, "[C. All] ([Kw. a] F) with F without modal operators")
            th.kw[k.agent].append(k.arg)
    elif isinstance(inner, Know) and not _modal(inner.arg):
        th.common.append(inner.arg)
    elif isinstance(inner, Not) and isinstance(inner.arg, KnowWhether) and not _modal(inner.arg.arg):
        return  # nobody is told: checked on the model
    elif not _modal(inner):
        th.common.append(inner)
    else:
        raise g.f.fail(item, _FINITARY)


def _theory_valuations(task: EpddlTask, g: _Grounder, theory: Node, common: list[Formula]) -> list[frozenset[str]]:
    """The valuations (the worlds) the theory's common knowledge allows, within :data:`MAX_WORLDS`."""
    fixed: dict[str, bool] = {}
    for c in common:   # literals known in common fix their atoms
        for lit in (c.args if isinstance(c, And) else (c,)):
            if isinstance(lit, Atom):
                fixed[lit.name] = True
            elif isinstance(lit, Not) and isinstance(lit.arg, Atom):
                fixed[lit.arg.name] = False
    free = [p for p in task.atoms if p not in fixed]
    chosen = _models(common, free, dict(fixed))
    if chosen is None:
        raise g.f.fail(theory, f"a theory with at most {MAX_WORLDS} worlds: kop's explicit models stop there, and the "
                       f"common knowledge of this one leaves {len(free)} atoms free", "")
    if not chosen:
        raise g.f.fail(theory, "a consistent theory (no valuation satisfies its common knowledge)", "")
    return chosen


def _kw_partition(names: list[str], chosen: list[frozenset[str]], kws: list[Formula]) -> list[tuple[str, str]]:
    """An agent's relation: the worlds it cannot tell apart agree on every formula it knows whether."""
    groups: dict[tuple[bool, ...], list[str]] = {}
    for w, v in zip(names, chosen):
        groups.setdefault(tuple(_prop(f, v) for f in kws), []).append(w)
    return [(u, w) for block in groups.values() for u in block for w in block]


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


def _explicit_init(task: EpddlTask, g: _Grounder, body: Sequence[Node]) -> RelationalModel:
    props = _plist(g.f, body, (":worlds", ":relations", ":labels", ":designated"), "initial state")
    for key in (":worlds", ":relations", ":labels", ":designated"):
        if key not in props:
            raise g.f.fail(task.problem.init, f"{key} in the explicit initial state")
    wnode = props[":worlds"]
    if wnode.kind != "(" or not wnode.items or not all(w.is_sym for w in wnode.items):
        raise g.f.fail(wnode, "a list of world names")
    worlds = [w.text for w in wnode.items]
    if len(set(worlds)) != len(worlds):
        raise g.f.fail(wnode, "distinct world names")
    wenv = {w: "world" for w in worlds}
    rel: dict[str, list[tuple[str, str]]] = {}
    items = props[":relations"].items
    if props[":relations"].kind != "(" or len(items) % 2:
        raise g.f.fail(props[":relations"], "(AGENT PAIRS AGENT PAIRS ...)")
    for k in range(0, len(items), 2):
        a = items[k]
        if not a.is_sym or a.text not in task.agents:
            raise g.f.fail(a, "an agent of the problem")
        if a.text in rel:
            raise g.f.fail(a, f"one relation for agent {a.text}")
        rel[a.text] = sorted(set(_pairs(g, items[k + 1], {}, wenv)))
    missing = [a for a in task.agents if a not in rel]
    if missing:
        raise g.f.fail(props[":relations"], f"a relation for every agent (none for {missing[0]})", "")
    labels: dict[str, list[str]] = {}
    litems = props[":labels"].items
    if props[":labels"].kind != "(" or len(litems) % 2:
        raise g.f.fail(props[":labels"], "(WORLD ATOMS WORLD ATOMS ...)")
    for k in range(0, len(litems), 2):
        w = litems[k]
        if not w.is_sym or w.text not in wenv:
            raise g.f.fail(w, "a world of :worlds")
        if w.text in labels:
            raise g.f.fail(w, f"one label for world {w.text}")
        lab = litems[k + 1]
        atoms = lab.items[1:] if lab.head() == ":and" else (lab,)
        names = []
        for at in atoms:
            if at.kind != "(" or not at.items or not at.items[0].is_sym:
                raise g.f.fail(at, "an atom (PREDICATE args)")
            names.append(g._literal(at, {}))
        labels[w.text] = names
    for wname in worlds:
        if wname not in labels:
            raise g.f.fail(props[":labels"], f"a label for every world (none for {wname})", "")
    dnode = props[":designated"]
    if dnode.kind != "(" or not dnode.items:
        raise g.f.fail(dnode, "a list of designated worlds")
    for d in dnode.items:
        if not d.is_sym or d.text not in wenv:
            raise g.f.fail(d, "a world of :worlds")
    return RelationalModel(worlds, rel, labels, [d.text for d in dnode.items])


def _pairs(g: _Grounder, node: Node, env: Mapping[str, str], worlds: Mapping[str, str]) -> Iterator[tuple[str, str]]:
    head = node.head()
    if head == ":and":
        for k in node.items[1:]:
            yield from _pairs(g, k, env, worlds)
        return
    if head == ":forall":
        g.arity(node, 2)
        entries, cond = _typed(g.f, node.items[1].items, "variable list")
        for _, t, n in entries:
            if t != "world":
                raise g.f.fail(n, "variables of type world")
        for combo in itertools.product(list(worlds), repeat=len(entries)):
            e = dict(env)
            e.update({v: w for (v, _, _), w in zip(entries, combo)})
            if cond is None or _world_cond(g, cond, e):
                yield from _pairs(g, node.items[2], e, worlds)
        return
    if node.kind == "(" and len(node.items) == 2 and all(k.is_sym for k in node.items):
        u, v = (env.get(k.text, k.text) for k in node.items)
        for k, x in zip(node.items, (u, v)):
            if x not in worlds:
                raise g.f.fail(k, "a world of :worlds or a bound ?variable")
        yield (u, v)
        return
    raise g.f.fail(node, "a pair (WORLD WORLD), (:and ...) or (:forall (?x ?y - world | C) (?x ?y))")


def _world_cond(g: _Grounder, node: Node, env: Mapping[str, str]) -> bool:
    head = node.head()
    rest = node.items[1:]
    if head in ("=", "/="):
        g.arity(node, 2)
        a, b = (env.get(k.text, k.text) for k in rest)
        return (a == b) == (head == "=")
    if head == "not":
        return not _world_cond(g, rest[0], env)
    if head == "and":
        return all(_world_cond(g, k, env) for k in rest)
    if head == "or":
        return any(_world_cond(g, k, env) for k in rest)
    if head == "imply":
        return not _world_cond(g, rest[0], env) or _world_cond(g, rest[1], env)
    raise g.f.fail(node, "a condition over worlds: =, /=, and, or, not, imply")


# -- loading and validating ------------------------------------------------------------------------


def load_task(domain: str, problem: str, domain_source: str = "", problem_source: str = "",
              libraries: Sequence[tuple[str, str]] = ()) -> EpddlTask:
    """Read and ground a domain and a problem (their texts), with action-type libraries ``(text, source)``.

    Raises
    ------
    EpddlError
        Located in the file at fault.
    """
    libs: dict[str, dict[str, ActionType]] = {}
    for text, source in libraries:
        name, types = parse_library(text, source)
        libs[name] = types
    return EpddlTask(parse_domain(domain, domain_source, libs), parse_problem(problem, problem_source))


@dataclass(frozen=True)
class StepResult:
    """One step of a plan: the action, whether it was applicable, the model's size after it."""

    index: int
    action: str
    line: int
    applicable: bool
    worlds: int
    observability: dict[str, str]
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        """``{"step", "action", "line", "applicable", "worlds", "observability", "reason"}``."""
        return {"step": self.index, "action": self.action, "line": self.line, "applicable": self.applicable,
                "worlds": self.worlds, "observability": dict(self.observability), "reason": self.reason or None}


@dataclass(frozen=True)
class Validation:
    """The result of :func:`validate_plan`.

    ``model`` is the state at the failing step (before the inapplicable action,
    or at the end when the goal fails), else the final state.
    """

    steps: tuple[StepResult, ...]
    goal: bool | None
    valid: bool
    failed_step: int | None
    reason: str
    model: RelationalModel
    initial_worlds: int

    def explain(self) -> str:
        """Lines of text: the initial state, each step, the goal and the verdict."""
        lines = [f"initial state: {self.initial_worlds} world(s)"]
        for s in self.steps:
            obs = ", ".join(f"{a} {t}" for a, t in s.observability.items())
            if s.applicable:
                lines.append(f"step {s.index}: {s.action}: applicable; {s.worlds} world(s) after it"
                             + (f" [{obs}]" if obs else ""))
            else:
                lines.append(f"step {s.index}: {s.action}: NOT applicable: {s.reason}")
        if self.goal is not None:
            lines.append(f"goal: {'holds' if self.goal else 'does not hold'} at the end")
        lines.append("plan valid" if self.valid else f"plan NOT valid: {self.reason}")
        return "\n".join(lines)


def validate_plan(task: EpddlTask, plan: Sequence[PlanStep], plan_text: str = "",
                  plan_source: str = "") -> Validation:
    """Apply *plan* to the task's initial state by product update and check the goal.

    A step is applicable when every designated world satisfies the precondition of some
    designated event; the states kept are the parts reachable from the designated worlds.

    Raises
    ------
    EpddlError
        A plan step that is not a ground action of the domain (located in the plan).

    Example
    -------
    >>> task = load_task(DOMAIN_EXAMPLE, PROBLEM_EXAMPLE)
    >>> v = validate_plan(task, parse_plan("(peek b)"))
    >>> v.valid, v.goal, v.steps[0].observability
    (False, False, {'a': 'Partially', 'b': 'Fully'})
    """
    pf = _File(plan_text, plan_source)
    names = None
    model = task.initial
    results: list[StepResult] = []
    for k, step in enumerate(plan, 1):
        name, args = step.name, step.args
        node = Node("sym", step.label, (), step.line, step.column)
        if name not in task.domain.actions and not args:
            names = names or task.ground_names()
            if name in names:
                name, args = names[name]
        action = task.action(name, args, (pf, node))
        em, obs = action.event_model(model)
        label = action.label
        if not em.applicable(model):
            bad = [model.worlds[w] for w in sorted(model.designated)
                   if not any(w in model.truth(em.pre[e]) for e in em.designated)]
            reason = (f"no designated event's precondition holds at designated world {bad[0]} "
                      f"(preconditions: {'; '.join(str(em.pre[e]) for e in sorted(em.designated))})")
            results.append(StepResult(k, label, step.line, False, len(model), obs, reason))
            return Validation(tuple(results), None, False, k, f"step {k} {label} is not applicable", model,
                              len(task.initial))
        model = relational_product(model, em).generated()
        results.append(StepResult(k, label, step.line, True, len(model), obs))
    goal = model.holds(task.goal)
    return Validation(tuple(results), goal, goal, None if goal else len(results) + 1,
                      "" if goal else "the goal is false at the end of the plan", model, len(task.initial))
