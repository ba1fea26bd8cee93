"""The events and questions of a story, as small immutable values.

A story is a sequence of :class:`Event` values over agents, places, objects
and containers, followed by :class:`Question` values.  The readers
(:mod:`kop.io.stories`, :mod:`kop.io.story_syntax`) produce them from ToMi, Hi-ToM and kop's own
syntax; :mod:`kop.stories.compile` turns them into event models.

>>> Event("move", line=4, agent="Anne", obj="marble", container="box")
Event('move', line=4, agent='Anne', obj='marble', container='box')
>>> Question("belief", ("Sally", "Anne"), "marble", line=9).order
2
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kop.stories.errors import StoryError

__all__ = ["Event", "Question", "EVENT_KINDS", "QUESTION_KINDS"]

#: The kinds of event: enter/exit a place, an object is (seen) in a container, a move, staying
#: without moving, a private or public tell, a peek into a container, being distracted or attentive.
EVENT_KINDS = ("enter", "exit", "place", "move", "stay", "tell", "peek", "distracted", "attentive")

#: The kinds of question: where the object really is, where it was at the beginning, and where an
#: agent believes (an agent believes an agent believes ...) it is.
QUESTION_KINDS = ("reality", "memory", "belief")


@dataclass(frozen=True)
class Event:
    """One event of a story.

    Parameters
    ----------
    kind : str
        One of :data:`EVENT_KINDS`.
    line : int
        The line of the story that states it (for located errors).
    agent : str, optional
        Who acts (enters, exits, moves, stays, tells, peeks, is distracted).
    agents : tuple of str, optional
        For ``enter``: everyone who enters together (``agent`` is then the first).
    place : str, optional
        For ``enter``/``exit``/``stay``: the place.
    obj, container : str, optional
        The object and the container (``place``, ``move``, ``tell``, ``peek``).
    listeners : tuple of str, optional
        For ``tell``: who is told privately; empty for a public claim (heard by all).

    Examples
    --------
    >>> Event("tell", line=7, agent="Anne", listeners=("Sally",), obj="marble", container="box").private
    True
    """

    kind: str
    line: int = 0
    agent: str = ""
    agents: tuple[str, ...] = ()
    place: str = ""
    obj: str = ""
    container: str = ""
    listeners: tuple[str, ...] = ()

    @property
    def private(self) -> bool:
        """Is this a private tell (to the listeners only)?"""
        return self.kind == "tell" and bool(self.listeners)

    def text(self, trace: bool = False) -> str:
        """The event as a line of kop's story syntax, or (with *trace*) as a story's trace shows it.

        The trace writes an event as the syntax does, except that it names every agent of any
        event, shows an exit without a place as ``A exits``, a claim without a container as
        ``(where it is)``, and the other kinds (``stay``, ``distracted``, ``attentive``, or any
        kind the syntax has no line for) as the agent and the kind.

        Raises
        ------
        StoryError
            Without *trace*, for a kind the syntax cannot write.

        Examples
        --------
        >>> tell = Event("tell", 5, agent="Anne", listeners=("Sally",), obj="marble", container="box")
        >>> tell.text()
        'Anne tells Sally: marble in box'
        >>> Event("stay", 6, agent="Anne").text(), Event("stay", 6, agent="Anne").text(trace=True)
        ('Anne stays', 'Anne stay')
        """
        kind = self.kind
        if trace or kind == "enter":
            who = ", ".join(self.agents) if self.agents else self.agent
        else:
            who = self.agent
        template = _CLAIM if kind == "tell" and not self.listeners else _SYNTAX.get(kind)
        if trace and (template is None or kind in _TRACE_PLAIN):
            return f"{who} {kind}"
        if template is None:
            raise StoryError(f"cannot write a {kind} event", self.line)
        container = self.container or "(where it is)" if trace and kind == "tell" else self.container
        out = template.format(who=who, place=self.place, obj=self.obj, container=container,
                              listeners=", ".join(self.listeners))
        return out.rstrip() if trace and kind == "exit" else out

    def __repr__(self) -> str:
        parts = [repr(self.kind), f"line={self.line}"]
        for name in ("agent", "agents", "place", "obj", "container", "listeners"):
            value = getattr(self, name)
            if value:
                parts.append(f"{name}={value!r}")
        return f"Event({', '.join(parts)})"


#: Each kind of event as kop's story syntax writes it (``who``: the agents of an entry, else the agent).
_SYNTAX = {
    "enter": "{who} enter {place}", "exit": "{who} exits {place}", "place": "{obj} in {container}",
    "move": "{who} moves {obj} to {container}", "tell": "{who} tells {listeners}: {obj} in {container}",
    "stay": "{who} stays", "peek": "{who} peeks into {container}", "distracted": "{who} is distracted",
    "attentive": "{who} attends",
}
#: A tell without listeners: a public claim.
_CLAIM = "{who} claims: {obj} in {container}"
#: The kinds a trace writes as the agent and the kind (``A stay``).
_TRACE_PLAIN = ("stay", "distracted", "attentive")

@dataclass(frozen=True)
class Question:
    """A question about a story.

    Parameters
    ----------
    kind : str
        ``"reality"`` (where is the object now), ``"memory"`` (where was it at the
        beginning) or ``"belief"`` (where does ``chain[0]`` think that ``chain[1]``
        thinks ... the object is).
    chain : tuple of str
        The agents of the nested belief, outermost first (empty unless ``belief``).
    obj : str
        The object asked about.
    line : int
        The line of the question.
    text : str
        The question as written.
    gold : str or None
        The file's answer, if it gives one.
    label : str
        A dataset's name for the question's type (e.g. ToMi's ``first_order``), or ''.
    after : int or None
        The number of events before the question (None: all of them).

    Examples
    --------
    >>> q = Question("belief", ("Sally",), "marble", line=6, gold="basket")
    >>> q.order, q.gold
    (1, 'basket')
    """

    kind: str
    chain: tuple[str, ...]
    obj: str
    line: int = 0
    text: str = ""
    gold: str | None = None
    label: str = ""
    after: int | None = field(default=None)

    @property
    def order(self) -> int:
        """The nesting depth: the number of belief operators (0 for reality and memory)."""
        return len(self.chain)

    def __repr__(self) -> str:
        extra = "".join(f", {n}={getattr(self, n)!r}" for n in ("text", "gold", "label", "after")
                        if getattr(self, n))
        return f"Question({self.kind!r}, {self.chain!r}, {self.obj!r}, line={self.line}{extra})"


@dataclass(frozen=True)
class ParsedStory:
    """A story as read: its events, its agents (in order of appearance) and its questions.

    Examples
    --------
    >>> ParsedStory((), ("Sally",), (), first_line=1)
    ParsedStory(events=0, agents=('Sally',), questions=0, first_line=1)
    """

    events: tuple[Event, ...]
    agents: tuple[str, ...]
    questions: tuple[Question, ...]
    first_line: int = 1
    source: str = ""

    def __repr__(self) -> str:
        return (f"ParsedStory(events={len(self.events)}, agents={self.agents!r}, "
                f"questions={len(self.questions)}, first_line={self.first_line})")


def story_agents(events: list[Event], questions: list[Question], line: int) -> tuple[str, ...]:
    """The agents of a story in order of appearance; a question about an agent or object that is not
    in the story is a :class:`~kop.errors.StoryError` at its line.

    >>> story_agents([Event("enter", 1, agent="Sally", place="room")], [], 1)
    ('Sally',)
    """
    seen: dict[str, None] = {}
    for ev in events:
        for a in (ev.agents or (ev.agent,)) + ev.listeners:
            if a:
                seen.setdefault(a, None)
    objects = {ev.obj for ev in events if ev.obj}
    for q in questions:
        for a in q.chain:
            if a not in seen:
                raise StoryError(f"the question is about {a}, who is not in the story", q.line)
        if q.obj not in objects:
            raise StoryError(f"the question is about the {q.obj}, which is not in the story", q.line)
    return tuple(seen)
