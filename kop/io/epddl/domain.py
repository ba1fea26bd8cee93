"""EPDDL domains: predicates, events and actions, read from a ``(define (domain NAME) ...)`` file.

>>> d = parse_domain(DOMAIN_EXAMPLE)
>>> sorted(d.predicates), d.actions["peek"].action_type
(['heads'], 'semi-private-sensing')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from kop.io.epddl.actiontypes import ACTION_TYPES, LIBRARIES, ActionType
from kop.io.epddl.syntax import Node, _define, _File, _plist, _typed, read_nodes

__all__ = ["Predicate", "EventSchema", "ActionSchema", "EpddlDomain", "parse_domain", "DOMAIN_EXAMPLE"]

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


@dataclass(frozen=True)
class Predicate:
    """A predicate: its name, its parameters' types, whether it is a ``:fact``.

    Example
    -------
    >>> parse_domain(DOMAIN_EXAMPLE).predicates["heads"].types
    ()
    """

    name: str
    types: tuple[str, ...]
    fact: bool
    node: Node


@dataclass(frozen=True)
class EventSchema:
    """An ``:event``: parameters, precondition and effects (nodes, grounded per action).

    Example
    -------
    >>> parse_domain(DOMAIN_EXAMPLE).events["see-heads"].params
    (('?i', 'agent'),)
    """

    name: str
    params: tuple[tuple[str, str], ...]
    precondition: Node | None
    effects: Node | None
    node: Node


@dataclass(frozen=True)
class ActionSchema:
    """An ``:action``: parameters (and their condition), action type with its events, observability.

    Example
    -------
    >>> a = parse_domain(DOMAIN_EXAMPLE).actions["peek"]
    >>> a.params, a.action_type, [e.show() for e in a.events]
    ((('?i', 'agent'),), 'semi-private-sensing', ['(see-heads ?i)', '(see-tails ?i)'])
    """

    name: str
    params: tuple[tuple[str, str], ...]
    condition: Node | None
    action_type: str
    events: tuple[Node, ...]
    observability: Node | None
    node: Node


@dataclass(frozen=True)
class EpddlDomain:
    """A parsed EPDDL domain (build it with :func:`parse_domain`).

    Example
    -------
    >>> d = parse_domain(DOMAIN_EXAMPLE)
    >>> d.name, d.types
    ('coin', {'object': '', 'agent': 'object'})
    """

    name: str
    types: dict[str, str]
    constants: dict[str, str]
    predicates: dict[str, Predicate]
    events: dict[str, EventSchema]
    actions: dict[str, ActionSchema]
    text: str = field(repr=False, default="")
    source: str = ""
    action_types: dict[str, ActionType] = field(repr=False, default_factory=lambda: dict(ACTION_TYPES))


def parse_domain(text: str, source: str = "",
                 libraries: Mapping[str, Mapping[str, ActionType]] | None = None) -> EpddlDomain:
    """Read an EPDDL domain.

    *libraries* maps a library name to its action types (:func:`parse_library`); the
    domain's ``:action-type-libraries`` may name them, or ``basic`` and ``intermediate``,
    whose standard types kop knows built in.

    Raises
    ------
    EpddlError
        Located: a syntax error (a section, event or action kop does not read), an unknown
        action type, a repeated name.

    Example
    -------
    >>> d = parse_domain(DOMAIN_EXAMPLE)
    >>> sorted(d.events), d.actions["peek"].action_type
    (['nil', 'see-heads', 'see-tails'], 'semi-private-sensing')
    """
    reader = _DomainReader(_File(text, source))
    name, _, sections = _define(reader.f, read_nodes(text, source), "domain")
    reader.libraries(sections, libraries or {})
    for s in sections:
        reader.section(s)
    reader.acyclic(sections)
    return EpddlDomain(name, reader.types, reader.constants, reader.predicates, reader.events, reader.actions, text,
                       source, reader.atypes)


class _DomainReader:
    """The declarations of a domain, read section by section."""

    def __init__(self, f: _File):
        self.f = f
        self.types: dict[str, str] = {"object": "", "agent": "object"}
        self.constants: dict[str, str] = {}
        self.predicates: dict[str, Predicate] = {}
        self.events: dict[str, EventSchema] = {}
        self.actions: dict[str, ActionSchema] = {}
        self.atypes = dict(ACTION_TYPES)

    def libraries(self, sections: list[Node], libraries: Mapping[str, Mapping[str, ActionType]]) -> None:
        """The action types of the libraries the domain names (read first: actions may come before)."""
        for s in sections:
            if s.head() != ":action-type-libraries":
                continue
            for lib in s.items[1:]:
                if lib.text in libraries:
                    self.atypes.update(libraries[lib.text])
                elif lib.text not in LIBRARIES:
                    known = sorted(set(libraries) | LIBRARIES)
                    raise self.f.fail(lib, "a library given to kop (--library FILE) or built in: " + ", ".join(known))

    def section(self, s: Node) -> None:
        key, body = s.head(), s.items[1:]
        if key == ":types":
            self.type_section(body)
        elif key == ":constants":
            entries, _ = _typed(self.f, body, "constants")
            self.constants.update((c, t) for c, t, _ in entries)
        elif key == ":predicates":
            for p in body:
                self.predicate(p)
        elif key == ":event":
            ev = _event(self.f, s)
            if ev.name in self.events:
                raise self.f.fail(s.items[1], f"event {ev.name} declared once")
            self.events[ev.name] = ev
        elif key == ":action":
            act = _action(self.f, s, self.atypes)
            if act.name in self.actions:
                raise self.f.fail(s.items[1], f"action {act.name} declared once")
            self.actions[act.name] = act

    def type_section(self, body: tuple[Node, ...]) -> None:
        entries, _ = _typed(self.f, body, "types")
        for t, parent, node in entries:
            if t in ("agent", "object"):
                raise self.f.fail(node, f"a new type name ({t} is built in)")
            self.types[t] = parent
        for t, parent, node in entries:
            if parent not in self.types:
                raise self.f.fail(node, f"a known parent type for {t} (not {parent})")

    def predicate(self, p: Node) -> None:
        fact = p.head() == ":fact"
        items = p.items[1:] if fact else p.items
        params, _ = _typed(self.f, items[1:], "predicate's parameters")
        pname = items[0].text
        if pname in self.predicates:
            raise self.f.fail(items[0], f"predicate {pname} declared once")
        self.predicates[pname] = Predicate(pname, tuple(t for _, t, _ in params), fact, p)

    def acyclic(self, sections: list[Node]) -> None:
        for t, parent in self.types.items():
            seen = {t}
            while parent:
                if parent in seen:
                    raise self.f.fail(sections[0], f"types without a cycle (type {t})")
                seen.add(parent)
                parent = self.types.get(parent, "")


def _event(f: _File, s: Node) -> EventSchema:
    props = _plist(f, s.items[2:], "event")
    params: list[tuple[str, str, Node]] = []
    if ":parameters" in props:
        params, _ = _typed(f, props[":parameters"].items, "event's parameters")
    return EventSchema(s.items[1].text, tuple((n, t) for n, t, _ in params), props.get(":precondition"),
                       props.get(":effects"), s)


def _action(f: _File, s: Node, atypes: Mapping[str, ActionType]) -> ActionSchema:
    props = _plist(f, s.items[2:], "action")
    params: list[tuple[str, str, Node]] = []
    cond = None
    if ":parameters" in props:
        params, cond = _typed(f, props[":parameters"].items, "action's parameters")
    if ":action-type" not in props:
        raise f.fail(s, "an :action-type")
    at = props[":action-type"]
    tname = at.items[0].text
    if tname not in atypes:
        raise f.fail(at.items[0], "an action type kop knows: " + ", ".join(sorted(atypes)))
    evs = at.items[1:]
    if len(evs) != len(atypes[tname].slots):
        raise f.fail(at, f"{len(atypes[tname].slots)} event(s) for {tname} ({' '.join(atypes[tname].slots)})")
    return ActionSchema(s.items[1].text, tuple((n, t) for n, t, _ in params), cond, tname, tuple(evs),
                        props.get(":observability-conditions"), s)
