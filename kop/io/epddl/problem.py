"""EPDDL problems: agents, objects, facts, the initial state and the goal, read from a ``(define (problem NAME) ...)`` file.

The initial state and the goal are kept as nodes here; :class:`~kop.io.epddl.grounding.EpddlTask`
grounds them against the domain.

>>> p = parse_problem(PROBLEM_EXAMPLE)
>>> p.name, p.agents, p.goal.show()
('coin-1', ('a', 'b'), '([a] (heads))')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kop.io.epddl.syntax import Node, _define, _File, _typed, read_nodes
from kop.syntax.formula import AGENT_RE

__all__ = ["EpddlProblem", "parse_problem", "PROBLEM_EXAMPLE"]

#: A problem for :data:`~kop.io.epddl.domain.DOMAIN_EXAMPLE`: heads, and nobody knows whether.
PROBLEM_EXAMPLE = """
(define (problem coin-1) (:domain coin) (:agents a b)
  (:init (:and (heads) (:forall (?i - agent) ([C. All] (<Kw. ?i> (heads))))))
  (:goal ([a] (heads))))
"""


@dataclass(frozen=True)
class EpddlProblem:
    """A parsed EPDDL problem (the initial state and goal are grounded by :func:`~kop.io.epddl.load_task`).

    Example
    -------
    >>> parse_problem(PROBLEM_EXAMPLE).domain
    'coin'
    """

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


def parse_problem(text: str, source: str = "") -> EpddlProblem:
    """Read an EPDDL problem.

    Raises
    ------
    EpddlError
        Located: a syntax error, a section given twice or missing, an agent listed twice.

    Example
    -------
    >>> p = parse_problem(PROBLEM_EXAMPLE)
    >>> p.agents, p.domain
    (('a', 'b'), 'coin')
    """
    f = _File(text, source)
    name, top, sections = _define(f, read_nodes(text, source), "problem")
    reader = _ProblemReader(f)
    for s in sections:
        reader.section(s)
    for key, what in ((":domain", "a (:domain NAME) section"), (":init", "an (:init ...) section"),
                      (":goal", "a (:goal ...) section")):
        if key not in reader.seen:
            raise f.fail(top, what)
    assert reader.init is not None and reader.goal is not None
    return EpddlProblem(name, reader.domain, tuple(reader.agents), reader.objects, reader.facts, reader.init,
                        reader.goal, text, source, reader.where)


class _ProblemReader:
    """The sections of a problem, read one by one."""

    def __init__(self, f: _File):
        self.f = f
        self.domain = ""
        self.agents: list[str] = []
        self.objects: dict[str, str] = {}
        self.facts: tuple[Node, ...] = ()
        self.init: Node | None = None
        self.goal: Node | None = None
        self.where: dict[str, Node] = {}
        self.seen: set[str] = set()

    def section(self, s: Node) -> None:
        key = s.head() or ""
        if key in self.seen and key != ":requirements":
            raise self.f.fail(s.items[0], f"{key} once")
        self.seen.add(key)
        body = s.items[1:]
        if key == ":domain":
            self.domain = body[0].text
            self.where[":domain"] = body[0]
        elif key == ":agents":
            self.agent_list(body)
        elif key == ":objects":
            entries, _ = _typed(self.f, body, "objects")
            for o, t, node in entries:
                self.objects[o] = t
                self.where[o] = node
        elif key == ":facts-init":
            self.facts = body
        elif key == ":init":
            self.init = s
        elif key == ":goal":
            self.goal = body[0]

    def agent_list(self, body: tuple[Node, ...]) -> None:
        for a in body:
            if AGENT_RE.fullmatch(a.text) is None:
                raise self.f.fail(a, "an agent's name (letters, digits, _)")
            if a.text in self.agents:
                raise self.f.fail(a, f"agent {a.text} listed once")
            self.agents.append(a.text)
            self.where[a.text] = a
