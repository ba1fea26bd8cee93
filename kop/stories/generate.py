"""Random stories with questions up to a given order, whose answers kop computes.

>>> events, questions = generate_story(agents=3, order=2, length=6, seed=1)
>>> len([e for e in events if e.kind in ("move", "tell", "exit", "enter")]) >= 6, max(q.order for q in questions)
(True, 2)
>>> print(render(events, questions, "kop").splitlines()[0])
A, B, C enter room
"""

from __future__ import annotations

import json
import random

from kop.stories.errors import StoryError
from kop.stories.events import Event, Question

__all__ = ["generate_story", "render", "agent_names"]

_CONTAINERS = ("basket", "box", "drawer", "crate")


def agent_names(n: int) -> list[str]:
    """``A``, ``B``, ... then ``A1``, ``B1`` ... (*n* names).

    >>> agent_names(3)
    ['A', 'B', 'C']
    """
    return [chr(65 + i % 26) + (str(i // 26) if i >= 26 else "") for i in range(n)]


def generate_story(agents: int, order: int, length: int, seed: int, tells: bool = True,
                   questions: int = 6, extra: bool = False) -> tuple[list[Event], list[Question]]:
    """A random story: *agents* agents in one room, one object, *length* events, questions up to *order*.

    The events are entries, exits, moves and (if *tells*) private tells and public
    claims, each possible when drawn; the questions are reality, memory and
    nested beliefs (no agent twice in a row) up to *order*.  They carry no gold answer.
    With *extra*, also staying put, peeking into a container and being distracted or attentive
    (kop's syntax only).

    Examples
    --------
    >>> ev, qs = generate_story(agents=2, order=1, length=3, seed=0, tells=False)
    >>> ev[0].kind, ev[1].kind, {q.kind for q in qs} <= {"reality", "memory", "belief"}
    ('enter', 'place', True)
    """
    if agents < 1 or order < 0 or length < 0:
        raise StoryError("generate needs --agents >= 1, --order >= 0 and --length >= 0")
    rng = random.Random(seed)
    names = agent_names(agents)
    events: list[Event] = [Event("enter", 1, agent=names[0], agents=tuple(names), place="room"),
                           Event("place", 2, obj="ball", container=rng.choice(_CONTAINERS))]
    plot = _Plot(rng, names, events[1].container)
    kinds = ["move", "exit", "enter"] + (["tell", "claim"] if tells else [])
    kinds += ["stay", "peek", "distracted", "attentive"] if extra else []
    line = 3
    while len(events) < length + 2:
        event = plot.draw(rng.choice(kinds), line)
        if event is None:
            continue
        events.append(event)
        line += 1
    return events, _questions(rng, names, order, questions, line)


class _Plot:
    """The state of a story being drawn: who is in the room, where the ball is."""

    def __init__(self, rng: random.Random, names: list[str], where: str) -> None:
        self.rng, self.names, self.where = rng, names, where
        self.inside = set(names)

    def draw(self, kind: str, line: int) -> Event | None:
        """An event of *kind* at *line*, drawn at random among those possible now, or None if none is."""
        rng, names, inside = self.rng, self.names, self.inside
        if kind == "move" and inside:
            who = rng.choice(sorted(inside))
            to = rng.choice([c for c in _CONTAINERS if c != self.where])
            self.where = to
            return Event("move", line, agent=who, obj="ball", container=to)
        if kind in ("exit", "enter"):
            return self.cross(kind, line)
        if kind == "tell" and len(names) > 1:
            who, to = rng.sample(names, 2)
            return Event("tell", line, agent=who, listeners=(to,), obj="ball", container=rng.choice(_CONTAINERS))
        if kind in ("stay", "peek") and inside:
            who = rng.choice(sorted(inside))
            return (Event(kind, line, agent=who, place="room") if kind == "stay" else
                    Event("peek", line, agent=who, container=rng.choice(_CONTAINERS)))
        if kind in ("distracted", "attentive"):
            return Event(kind, line, agent=rng.choice(names))
        if kind == "claim":
            return Event("tell", line, agent=rng.choice(names), obj="ball", container=rng.choice(_CONTAINERS))
        return None

    def cross(self, kind: str, line: int) -> Event | None:
        """Someone leaves the room or comes in (None if nobody can)."""
        rng, inside = self.rng, self.inside
        if kind == "exit" and inside:
            who = rng.choice(sorted(inside))
            inside.discard(who)
            return Event("exit", line, agent=who, place="room")
        if kind == "enter" and len(inside) < len(self.names):
            who = rng.choice(sorted(set(self.names) - inside))
            inside.add(who)
            return Event("enter", line, agent=who, agents=(who,), place="room")
        return None


def _questions(rng: random.Random, names: list[str], order: int, questions: int, line: int) -> list[Question]:
    """Reality and memory, then *questions* nested beliefs (the first of *order*, no agent twice in a row)."""
    qs = [Question("reality", (), "ball", line), Question("memory", (), "ball", line + 1)]
    for k in range(questions):
        depth = order if k == 0 else rng.randint(1, max(order, 1)) if order else 0
        chain: list[str] = []
        for _ in range(depth):
            chain.append(rng.choice([a for a in names if not chain or a != chain[-1]] or names))
        if chain:
            qs.append(Question("belief", tuple(chain), "ball", line + 2 + k))
    return qs


def render(events: list[Event], questions: list[Question], format: str = "kop",
           answers: list[str | None] | None = None) -> str:
    """The story as text in kop's syntax, ToMi's or Hi-ToM's JSON (with *answers* as gold).

    Raises
    ------
    StoryError
        When the format cannot say it (ToMi has no lies, no claims and no question above order 2).

    Examples
    --------
    >>> ev = [Event("enter", 1, agent="A", agents=("A",), place="room"), Event("place", 2, obj="x", container="box")]
    >>> print(render(ev, [Question("belief", ("A",), "x")], "tomi", ["box"]))
    1 A entered the room.
    2 The x is in the box.
    3 Where will A look for the x?	box	1
    """
    answers = answers or [None] * len(questions)
    if format == "kop":
        lines = [e.text() for e in events]
        for q, a in zip(questions, answers):
            body = {"reality": q.obj, "memory": f"initially {q.obj}"}.get(q.kind, f"{', '.join(q.chain)}: {q.obj}")
            lines.append(f"? {body}" + (f" = {a}" if a else ""))
        return "\n".join(lines)
    story = [_english(e) for e in events]
    if format == "tomi":
        out = []
        for q, a in zip(questions, answers):
            if any(e.kind == "tell" for e in events) or q.order > 2:
                raise StoryError("ToMi's format has no tells or claims and no question above order 2")
            text = _question(q, tomi=True)
            out += [f"{i} {s}" for i, s in enumerate(story, start=1)]
            out.append(f"{len(story) + 1} {text}\t{a or ''}\t1")
        return "\n".join(out)
    if format == "hitom":
        numbered = "\n".join(f"{i} {s}" for i, s in enumerate(story, start=1))
        data = [{"story": numbered, "question": _question(q, tomi=False), "answer": a, "question_order": q.order,
                 "deception": any(e.kind == "tell" for e in events)} for q, a in zip(questions, answers)]
        return json.dumps({"data": data}, indent=1)
    raise StoryError(f"unknown story format {format!r}: use one of tomi, hitom, kop")


def _english(e: Event) -> str:
    if e.kind == "enter":
        who = list(e.agents or (e.agent,))
        names = who[0] if len(who) == 1 else ", ".join(who[:-1]) + " and " + who[-1]
        return f"{names} entered the {e.place}."
    if e.kind == "exit":
        return f"{e.agent} exited the {e.place}."
    if e.kind == "place":
        return f"The {e.obj} is in the {e.container}."
    if e.kind == "move":
        return f"{e.agent} moved the {e.obj} to the {e.container}."
    if e.kind == "tell":
        if e.listeners:
            return f"{e.agent} privately told {e.listeners[0]} that the {e.obj} is in the {e.container}."
        return f"{e.agent} publicly claimed that {e.obj} is in the {e.container} now."
    raise StoryError(f"cannot write a {e.kind} event", e.line)


def _question(q: Question, tomi: bool) -> str:
    if q.kind == "reality":
        return f"Where is the {q.obj} really?"
    if q.kind == "memory":
        return f"Where was the {q.obj} at the beginning?"
    if tomi:
        if q.order == 1:
            return f"Where will {q.chain[0]} look for the {q.obj}?"
        return f"Where does {q.chain[0]} think that {q.chain[1]} searches for the {q.obj}?"
    if q.order == 1:
        return f"Where does {q.chain[0]} really think the {q.obj} is?"
    return f"Where does {q.chain[0]} think " + "".join(f"{a} thinks " for a in q.chain[1:]) + f"the {q.obj} is?"
