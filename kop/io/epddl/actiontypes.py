"""EPDDL's action types: the standard ones kop knows built in, and action-type libraries read from files.

An action type names the event slots of an action, its observability types (``Fully``,
``Partially``, ``Oblivious``, ...) and, for each, the accessibility between the slots.

>>> ACTION_TYPES["semi-private-sensing"].slots, sorted(ACTION_TYPES["semi-private-sensing"].relations)
(('pos', 'neg'), ['Fully', 'Partially'])
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from kop.io.epddl.syntax import Node, _define, _File, _plist, _typed, name_condition, read_nodes

__all__ = ["ActionType", "ACTION_TYPES", "LIBRARIES", "parse_library"]


@dataclass(frozen=True)
class ActionType:
    """A standard action type: its event slots, its observability types and their relations.

    ``relations[t]`` lists the pairs ``(i, j)`` of event slots ``(i, j)`` with ``j``
    accessible from ``i`` for an agent of observability type ``t``; ``designated`` the
    designated slots; ``trivial`` the slots that must hold the trivial event (precondition
    true, no effect) and ``static`` the slots whose events may not have effects.

    Example
    -------
    >>> t = ACTION_TYPES["private-ontic"]
    >>> t.slots, sorted(t.relations["Oblivious"]), t.trivial
    (('pos', 'nil'), [(0, 1), (1, 1)], frozenset({1}))
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
#: The libraries whose action types kop knows built in.
LIBRARIES = frozenset({"basic", "intermediate"})


def parse_library(text: str, source: str = "") -> tuple[str, dict[str, ActionType]]:
    """Read an action-type library: its name and its action types.

    ``(define (action-type-library NAME) (:action-type NAME :events (?e ...)
    :observability-types (T ...) :relations (T PAIRS ...) :designated (?e ...)
    :conditions (?e (CONDITION) ...)))``.  The pairs are ``(?e ?f)``, ``(:and ...)`` or
    ``(:forall (?e ?f - event | C) (?e ?f))`` with C over ``=``, ``/=``, ``and``, ``or``,
    ``not``, ``imply``; the conditions kop checks are ``:trivial-event`` and
    ``:trivial-postconditions`` (``:non-trivial-postconditions`` allows effects).

    Raises
    ------
    EpddlError
        Located: a syntax error, a missing or repeated part, an unknown event variable,
        observability type or condition.

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
        if s.head() == ":action-type":
            at = _action_type(f, s)
            out[at.name] = at
    return name, out


def _action_type(f: _File, s: Node) -> ActionType:
    """One ``(:action-type NAME :events (...) ...)`` of a library."""
    tname = s.items[1].text
    props = _plist(f, s.items[2:], "action type")
    for needed in (":events", ":observability-types", ":relations", ":designated"):
        if needed not in props:
            raise f.fail(s, f"{needed} in action type {tname}")
    ev = props[":events"]
    slots = [e.text for e in ev.items]
    if len(set(slots)) != len(slots):
        raise f.fail(ev, "distinct event variables")
    index = {e: k for k, e in enumerate(slots)}
    rel = _relations(f, props[":relations"], [t.text for t in props[":observability-types"].items], index)
    des = props[":designated"]
    for d in des.items:
        if d.text not in index:
            raise f.fail(des, "a list of event variables of :events")
    trivial, static = _conditions(f, props.get(":conditions"), index)
    return ActionType(tname, tuple(v[1:] for v in slots), rel, frozenset(index[d.text] for d in des.items),
                      trivial, static)


def _relations(f: _File, node: Node, otypes: Sequence[str], index: Mapping[str, int]
               ) -> dict[str, frozenset[tuple[int, int]]]:
    """``(TYPE PAIRS TYPE PAIRS ...)``: one relation per observability type."""
    rel: dict[str, frozenset[tuple[int, int]]] = {}
    items = node.items
    for t, pairs in zip(items[::2], items[1::2]):
        if t.text not in otypes:
            raise f.fail(t, "an observability type of :observability-types")
        if t.text in rel:
            raise f.fail(t, f"one relation for {t.text}")
        rel[t.text] = frozenset((index[a], index[b]) for a, b in _slot_pairs(f, pairs, {}, index))
    for tn in otypes:
        if tn not in rel:
            raise f.fail(node, f"a relation for every observability type (none for {tn})", "")
    return rel


def _conditions(f: _File, node: Node | None, index: Mapping[str, int]) -> tuple[frozenset[int], frozenset[int]]:
    """``(?event (CONDITION ...) ...)``: the trivial slots and the slots without effects."""
    trivial: set[int] = set()
    static: set[int] = set()
    items = node.items if node is not None else ()
    for e, conds in zip(items[::2], items[1::2]):
        if e.text not in index:
            raise f.fail(e, "an event variable of :events")
        for c in conds.items if conds.kind == "(" else (conds,):
            if c.text == ":trivial-event":
                trivial.add(index[e.text])
            elif c.text == ":trivial-postconditions":
                static.add(index[e.text])
            elif c.text != ":non-trivial-postconditions":
                raise f.fail(c, "a condition kop checks: :trivial-event, :trivial-postconditions or "
                             ":non-trivial-postconditions")
    return frozenset(trivial), frozenset(static)


def _slot_pairs(f: _File, node: Node, env: Mapping[str, str], index: Mapping[str, int]
                ) -> Iterator[tuple[str, str]]:
    """Pairs of event variables from an action type's relation: ``(?e ?f)``, ``(:and ...)``, ``(:forall ...)``."""
    head = node.head()
    if head == ":and":
        for k in node.items[1:]:
            yield from _slot_pairs(f, k, env, index)
        return
    if head == ":forall":
        entries, cond = _typed(f, node.items[1].items, "variable list")
        for _, t, n in entries:
            if t != "event":
                raise f.fail(n, "variables of type event")
        for combo in itertools.product(list(index), repeat=len(entries)):
            e = dict(env)
            e.update({v: x for (v, _, _), x in zip(entries, combo)})
            if cond is None or name_condition(f, cond, e, "variables"):
                yield from _slot_pairs(f, node.items[2], e, index)
        return
    u, v = (env.get(k.text, k.text) for k in node.items)
    for k, x in zip(node.items, (u, v)):
        if x not in index:
            raise f.fail(k, "an event variable of :events or a bound ?variable")
    yield (u, v)
