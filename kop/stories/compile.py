"""A story compiled to dynamic epistemic logic: an initial model and one event model per step.

The initial model has one world per placement of the objects (each object in
one of its candidate containers); no agent can tell them apart and all are
equally plausible (nobody has seen anything yet).  Who is where, and who is
distracted, is common knowledge (the exit order too): it decides, for each
event, each agent's *observability*, which the event model encodes:

* **full**: the agent sees which event happens (one block per event);
* **partial**: the agent knows that something of this kind happens, not what
  (e.g. someone who is not in the room when another enters it knows the
  entrant sees where the objects are, but not where they are);
* **oblivious**: the agent believes nothing happened (the ``skip`` event is
  its most plausible; the real events are in its block, less plausible).

Plausibility is updated by Baltag & Smets's action-priority rule: after the
event, the event's order decides, and only ties fall back on the old order.
A tell is a soft upgrade for a listener who trusts the speaker (the true
version of the claim is more plausible), no change for one who does not, and
no change for the speaker.

>>> from kop.stories.events import Event
>>> story = [Event("enter", 1, agent="S", agents=("S", "A"), place="room"),
...          Event("place", 2, obj="m", container="basket"), Event("exit", 3, agent="S", place="room"),
...          Event("move", 4, agent="A", obj="m", container="box")]
>>> c = compile_story(story, ["S", "A"])
>>> [e.names for e in c.steps]
[('sees0:basket', 'sees0:box'), ('sees0:basket', 'sees0:box'), ('skip', 'move0:box', 'move0:basket')]
>>> c.steps[-1].blocks["S"], c.steps[-1].ranks["S"]
((0, 0, 0), (0, 1, 1))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import product

from kop.stories.conventions import Conventions, KOP
from kop.stories.errors import StoryError
from kop.stories.events import Event

__all__ = ["EventModel", "Compiled", "compile_story"]

#: An event's precondition: for some objects (by index), the containers (by index) it may be in.
Pre = tuple[tuple[int, frozenset[int]], ...]
#: An event's postcondition: objects (by index) put into containers (by index).
Post = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class EventModel:
    """One step: a plausibility event model over the story's worlds.

    Attributes
    ----------
    source : Event
        The story's event (its line locates errors and traces).
    names : tuple of str
        The events.
    pre, post : tuple
        Per event, its precondition and its postcondition (see the module's aliases).
    blocks, ranks : dict of agent to tuple of int
        Per agent, the block of each event (events of one block look alike to it)
        and its plausibility rank (lower is more plausible).
    actual : int
        The event that happens.

    Examples
    --------
    >>> EventModel(Event("stay", 3, agent="A"), ("stay",), ((),), ((),), {"A": (0,)}, {"A": (0,)}, 0)
    EventModel(line=3, names=('stay',), actual='stay')
    """

    source: Event
    names: tuple[str, ...]
    pre: tuple[Pre, ...]
    post: tuple[Post, ...]
    blocks: dict[str, tuple[int, ...]]
    ranks: dict[str, tuple[int, ...]]
    actual: int
    members: dict[str, dict[int, tuple[int, ...]]] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        for a, bl in self.blocks.items():
            groups: dict[int, list[int]] = {}
            for e, b in enumerate(bl):
                groups.setdefault(b, []).append(e)
            self.members[a] = {b: tuple(es) for b, es in groups.items()}

    def __repr__(self) -> str:
        return f"EventModel(line={self.source.line}, names={self.names!r}, actual={self.names[self.actual]!r})"


@dataclass(frozen=True)
class Compiled:
    """A compiled story: its names, initial worlds, steps and the actual run.

    Attributes
    ----------
    agents, objects, containers : tuple of str
    candidates : tuple of tuple of int
        Per object, the containers it may be in (the initial uncertainty).
    initial : tuple of int
        The actual initial placement (a container per object).
    steps : tuple of EventModel
    step_of_event : tuple of int
        Per story event, the number of steps done after it.
    states : tuple of tuple of int
        The actual placement after each step (``states[0]`` is ``initial``).
    """

    agents: tuple[str, ...]
    objects: tuple[str, ...]
    containers: tuple[str, ...]
    candidates: tuple[tuple[int, ...], ...]
    initial: tuple[int, ...]
    steps: tuple[EventModel, ...]
    step_of_event: tuple[int, ...]
    states: tuple[tuple[int, ...], ...]

    def initial_states(self) -> list[tuple[int, ...]]:
        """Every initial placement (the worlds of the initial model), in a fixed order."""
        return [tuple(s) for s in product(*self.candidates)]


class _Builder:
    """Walks the story once: tracks the actual run, validates, and emits event models."""

    def __init__(self, events: Sequence[Event], agents: Sequence[str], conv: Conventions):
        self.events = list(events)
        self.agents = tuple(agents)
        self.conv = conv
        self.objects: list[str] = []
        self.containers: list[str] = []
        self.container_place: dict[int, str] = {}
        self.object_place: dict[int, str] = {}
        self._names()

    # -- the static pass: names and places ------------------------------------------------------
    def _names(self) -> None:
        """Index objects and containers; place each container (where it is acted on, else where
        its object is acted on, else the place of the last entry) and each object (its first container's)."""
        self.oi: dict[str, int] = {}
        self.ci: dict[str, int] = {}
        focus = ""
        where: dict[str, str] = {}
        acted: dict[str, str] = {}        # container -> the place of the first agent acting on it
        obj_acted: dict[str, str] = {}    # object -> the place of the first agent moving it
        stated: dict[str, str] = {}       # container -> the place of the last entry when first mentioned
        self.related: dict[int, set[int]] = {}
        for ev in self.events:
            focus = _follow(ev, focus, where)
            if ev.kind in ("move", "peek") and ev.agent in where:
                acted.setdefault(ev.container, where[ev.agent])
                if ev.obj:
                    obj_acted.setdefault(ev.obj, where[ev.agent])
            self._index(ev, focus, stated)
        first_container: dict[str, str] = {}
        for ev in self.events:
            if ev.obj and ev.container and ev.kind in ("place", "move"):
                first_container.setdefault(ev.obj, ev.container)
        for name, c in self.ci.items():
            place = acted.get(name)
            if place is None:
                owners = [o for o, cont in first_container.items() if cont == name and o in obj_acted]
                place = obj_acted[owners[0]] if owners else stated.get(name, "")
            self.container_place[c] = place
        for name, o in self.oi.items():
            self.object_place[o] = obj_acted.get(name) or self.container_place[self.ci[first_container[name]]]
        self.candidates = []
        for o in range(len(self.objects)):
            here = {c for c, p in self.container_place.items() if p == self.object_place[o]}
            self.candidates.append(tuple(sorted(here | self.related.get(o, set()))))

    def _index(self, ev: Event, focus: str, stated: dict[str, str]) -> None:
        """Number the container and the object *ev* mentions first; relate the object to the container."""
        if ev.container and ev.container not in self.ci:
            self.ci[ev.container] = len(self.containers)
            self.containers.append(ev.container)
            if ev.kind != "tell":
                stated[ev.container] = focus
        if ev.obj and ev.obj not in self.oi:
            if ev.kind not in ("place", "move"):
                raise StoryError(f"the {ev.obj} is mentioned before it is placed or moved", ev.line)
            self.oi[ev.obj] = len(self.objects)
            self.objects.append(ev.obj)
        if ev.obj and ev.container:
            self.related.setdefault(self.oi[ev.obj], set()).add(self.ci[ev.container])

    # -- the dynamic pass ------------------------------------------------------------------------
    def build(self) -> Compiled:
        self.where: dict[str, str | None] = {a: None for a in self.agents}
        self.distracted: set[str] = set()
        self.exits: dict[str, int] = {}
        self.known: dict[int, int] = {}   # object -> its actual container, once stated or moved
        self.steps: list[EventModel] = []
        initial = self._initial()
        self.state = list(initial)
        self.states = [list(initial)]
        step_of_event: list[int] = []
        handlers: dict[str, Callable[[int, Event], None]] = {
            "enter": self._enter, "exit": self._exit, "distracted": self._distracted,
            "attentive": self._attentive, "place": self._place, "move": self._move, "stay": self._stay,
            "peek": self._peek_in, "tell": self._told,
        }
        for i, ev in enumerate(self.events):
            handler = handlers.get(ev.kind)
            if handler is None:
                raise StoryError(f"unknown event kind {ev.kind!r}", ev.line)
            handler(i, ev)
            step_of_event.append(len(self.steps))
        return Compiled(self.agents, tuple(self.objects), tuple(self.containers),
                        tuple(self.candidates), initial, tuple(self.steps), tuple(step_of_event),
                        tuple(tuple(s) for s in self.states))

    def _initial(self) -> tuple[int, ...]:
        """The initial placement: the first statement about each object (before any move)."""
        first: dict[int, int] = {}
        for ev in self.events:
            if ev.kind == "place" and self.oi[ev.obj] not in first:
                first[self.oi[ev.obj]] = self.ci[ev.container]
            if ev.kind == "move" and self.oi[ev.obj] not in first:
                raise StoryError(f"the {ev.obj} is moved before the story says where it is", ev.line)
        return tuple(first[o] for o in range(len(self.objects)))

    def _present(self, place: str) -> set[str]:
        return {a for a in self.agents if self.where[a] == place and a not in self.distracted}

    def _emit(self, model: EventModel) -> None:
        self.steps.append(model)
        for o, c in model.post[model.actual]:
            self.state[o] = c
        self.states.append(list(self.state))

    def _at(self, ev: Event, doing: str) -> str:
        """The place of *ev*'s agent, who must be in one to be *doing* what *ev* says."""
        at = self.where.get(ev.agent)
        if at is None:
            raise StoryError(f"{ev.agent} {doing} but is in no place", ev.line)
        return at

    def _enter(self, i: int, ev: Event) -> None:
        for a in ev.agents or (ev.agent,):
            self.where[a] = ev.place
        if self.conv.enter_sees:
            seers = self._present(ev.place)
            for o in range(len(self.objects)):
                if self.object_place[o] == ev.place and seers:
                    self._emit(self._sense(ev, o, self.candidates[o], seers, self.state,
                                           self.conv.outsiders == "oblivious", self.conv.entry == "news"))

    def _exit(self, i: int, ev: Event) -> None:
        if self.where.get(ev.agent) is None or (ev.place and self.where[ev.agent] != ev.place):
            at = self.where.get(ev.agent)
            raise StoryError(f"{ev.agent} exits the {ev.place or 'place'} but is "
                             + (f"in the {at}" if at else "in no place"), ev.line)
        self.where[ev.agent] = None
        self.exits[ev.agent] = i

    def _distracted(self, i: int, ev: Event) -> None:
        self.distracted.add(ev.agent)

    def _attentive(self, i: int, ev: Event) -> None:
        self.distracted.discard(ev.agent)

    def _place(self, i: int, ev: Event) -> None:
        o, c = self.oi[ev.obj], self.ci[ev.container]
        if o in self.known and self.known[o] != c:
            raise StoryError(f"the {ev.obj} is in the {self.containers[self.known[o]]}, not in the "
                             f"{ev.container}: an object cannot be in two containers", ev.line)
        self.known[o] = c
        focus = self._focus(self.where, ev)
        self._emit(self._sense(ev, o, self.candidates[o], self._present(focus), self.state,
                               self.conv.outsiders == "oblivious"))

    def _move(self, i: int, ev: Event) -> None:
        o, c = self.oi[ev.obj], self.ci[ev.container]
        at = self._at(ev, f"moves the {ev.obj}")
        self.known[o] = c
        self._emit(self._act(ev, at, self._present(at) | {ev.agent}, (o, c)))

    def _stay(self, i: int, ev: Event) -> None:
        at = self._at(ev, "stays")
        if self.conv.hidden == "any":
            self._emit(self._act(ev, at, self._present(at) | {ev.agent}, None))

    def _peek_in(self, i: int, ev: Event) -> None:
        at = self._at(ev, f"looks in the {ev.container}")
        c = self.ci[ev.container]
        for o in range(len(self.objects)):
            if c in self.candidates[o]:
                self._emit(self._peek(ev, o, c, self._present(at) | {ev.agent}, self.state))

    def _told(self, i: int, ev: Event) -> None:
        for who in (ev.agent, *ev.listeners):
            if who not in self.agents:
                raise StoryError(f"unknown agent {who!r}", ev.line)
        self._emit(self._tell(ev, self.exits, self.state))

    def _focus(self, where: dict[str, str | None], ev: Event) -> str:
        place = self.container_place.get(self.ci[ev.container], "")
        return place

    # -- event models ----------------------------------------------------------------------------
    def _sense(self, ev: Event, o: int, values: tuple[int, ...], seers: set[str],
               state: list[int], oblivious: bool = False, news: bool = False) -> EventModel:
        """The seers learn which container object *o* is in; everyone else knows that they do
        (partial), or, if *oblivious*, believes nobody looked (a ``skip`` event, its most plausible).

        With *news*, each event ``sees:c`` has no precondition and puts the object in c: the
        seers take what they see as a change nobody else saw (the actual event changes nothing,
        since the object is in c)."""
        names = tuple(f"{'news' if news else 'sees'}{o}:{self.containers[c]}" for c in values)
        if news:
            pre: tuple[Pre, ...] = ((),) * len(values)
            post: tuple[Post, ...] = tuple(((o, c),) for c in values)
        else:
            pre = tuple(((o, frozenset([c])),) for c in values)
            post = ((),) * len(values)
        n = len(values)
        if not oblivious:
            blocks = {a: (tuple(range(n)) if a in seers else (0,) * n) for a in self.agents}
            ranks = {a: (0,) * n for a in self.agents}
            return EventModel(ev, names, pre, post, blocks, ranks, values.index(state[o]))
        blocks = {a: (tuple(range(n + 1)) if a in seers else (0,) * (n + 1)) for a in self.agents}
        ranks = {a: ((0,) * (n + 1) if a in seers else (0,) + (1,) * n) for a in self.agents}
        return EventModel(ev, ("skip", *names), ((), *pre), ((),) + post, blocks, ranks,
                          1 + values.index(state[o]))

    def _peek(self, ev: Event, o: int, c: int, seers: set[str], state: list[int]) -> EventModel:
        others = frozenset(self.candidates[o]) - {c}
        names = (f"sees{o}:in:{self.containers[c]}", f"sees{o}:not-in:{self.containers[c]}")
        pre = (((o, frozenset([c])),), ((o, others),))
        blocks: dict[str, tuple[int, ...]] = {a: ((0, 1) if a in seers else (0, 0)) for a in self.agents}
        ranks: dict[str, tuple[int, ...]] = {a: (0, 0) for a in self.agents}
        return EventModel(ev, names, pre, ((), ()), blocks, ranks, 0 if state[o] == c else 1)

    def _act(self, ev: Event, place: str, seers: set[str], move: tuple[int, int] | None) -> EventModel:
        """A move (or staying put): the seers see it; the others believe nothing happened."""
        options: list[tuple[int, int] | None] = [None, move] if move is not None else [None]
        if self.conv.hidden == "any":
            for o in range(len(self.objects)):
                if self.object_place[o] != place:
                    continue
                for c in self.candidates[o]:
                    if (o, c) not in options:
                        options.append((o, c))
        names = tuple(("skip" if move is not None else "stay") if x is None
                      else f"move{x[0]}:{self.containers[x[1]]}" for x in options)
        post = tuple(() if x is None else (x,) for x in options)
        n = len(options)
        blocks = {a: (tuple(range(n)) if a in seers else (0,) * n) for a in self.agents}
        ranks = {a: ((0,) * n if a in seers else (0,) + (1,) * (n - 1)) for a in self.agents}
        return EventModel(ev, names, ((),) * n, post, blocks, ranks, 1 if move is not None else 0)

    def _tell(self, ev: Event, exits: dict[str, int], state: list[int]) -> EventModel:
        """A claim 'the object is in the container': a soft upgrade for the listeners who trust the speaker."""
        if ev.obj not in self.oi:
            raise StoryError(f"unknown object {ev.obj!r}", ev.line)
        o = self.oi[ev.obj]
        c = self.ci[ev.container] if ev.container else state[o]   # 'told where the X is': the truth
        others = frozenset(self.candidates[o]) - {c}
        hear = set(ev.listeners) if ev.listeners else set(self.agents)
        speaker = ev.agent
        if self.conv.telling == "hitom":
            return self._tell_hitom(ev, o, c, sorted(hear - {speaker}), exits)
        names = ("skip", "tell-true", "tell-false")
        pre: tuple[Pre, ...] = ((), ((o, frozenset([c])),), ((o, others),))
        blocks: dict[str, tuple[int, ...]] = {}
        ranks: dict[str, tuple[int, ...]] = {}
        for a in self.agents:
            if a == speaker:
                blocks[a], ranks[a] = (0, 1, 1), (0, 0, 0)
            elif a in hear:
                blocks[a] = (0, 1, 1)
                ranks[a] = (0, 0, 1) if self._trusts(a, speaker, exits) else (0, 0, 0)
            else:
                blocks[a], ranks[a] = (0, 0, 0), (0, 1, 1)
        return EventModel(ev, names, pre, ((), (), ()), blocks, ranks, 1 if state[o] == c else 2)

    def _tell_hitom(self, ev: Event, o: int, c: int, hear: list[str], exits: dict[str, int]) -> EventModel:
        """Hi-ToM's telling rule as a plausibility event model (``telling="hitom"``).

        Events: ``skip``; ``tell`` (actual: nothing changes); ``tell*`` (the same, as the speaker
        imagines it: every listener trusts it); per listener L, ``fiction:L`` and ``fiction*:L``
        (the object is put in the claimed container, a change only L and the speaker take part in).
        A trusting L cannot tell ``tell`` from ``fiction:L`` (nor ``tell*`` from ``fiction*:L``) and
        prefers the fiction; an untrusting L, and anyone who does not hear, believes nothing
        happened, except in the speaker's imagined ``tell*``.  The speaker cannot tell ``tell`` from
        ``tell*`` (and prefers ``tell*``), nor ``fiction:L`` from ``fiction*:L``.  Every agent other than L
        and the speaker believes, in ``fiction:L``, that nothing happened."""
        k = len(hear)
        names = ("skip", "tell", "tell*", *(f"fiction:{a}" for a in hear), *(f"fiction*:{a}" for a in hear))
        n = len(names)
        fic = {a: 3 + i for i, a in enumerate(hear)}
        fic_star = {a: 3 + k + i for i, a in enumerate(hear)}
        blocks: dict[str, tuple[int, ...]] = {}
        ranks: dict[str, tuple[int, ...]] = {}
        for a in self.agents:
            if a == ev.agent:
                blocks[a] = (0, 1, 1) + tuple(range(2, 2 + k)) * 2
                ranks[a] = (0, 1, 0) + (0,) * (2 * k)
                continue
            bl = [0] * n
            rk = [0] + [1] * (n - 1)
            if a in fic:
                bl[2], bl[fic_star[a]] = 2, 2          # the imagined tell: a trusts
                rk[2], rk[fic_star[a]] = 1, 0
                if self._trusts(a, ev.agent, exits):
                    bl[1], bl[fic[a]] = 1, 1
                    rk[1], rk[fic[a]] = 1, 0
            blocks[a], ranks[a] = tuple(bl), tuple(rk)
        post: tuple[Post, ...] = ((), (), ()) + tuple(((o, c),) for _ in range(2 * k))
        return EventModel(ev, names, ((),) * n, post, blocks, ranks, 1)

    def _trusts(self, listener: str, speaker: str, exits: dict[str, int]) -> bool:
        if self.conv.trust != "exit-order":
            return self.conv.trust == "always"
        never = len(self.events) + 1
        return exits.get(speaker, never) > exits.get(listener, never)


def compile_story(events: Sequence[Event], agents: Sequence[str], conventions: Conventions | None = None
                  ) -> Compiled:
    """Compile *events* over *agents* to an initial model and one event model per step.

    Parameters
    ----------
    events : sequence of Event
    agents : sequence of str
        Every agent of the story.
    conventions : Conventions, optional
        Default: :data:`kop.stories.conventions.KOP`.

    Returns
    -------
    Compiled

    Raises
    ------
    StoryError
        With the line at fault: an object in two containers, an agent exiting a
        place it is not in, moving while in no place, an object moved before it
        is placed, an unknown agent.

    Examples
    --------
    >>> from kop.stories.events import Event
    >>> compile_story([Event("exit", 1, agent="S", place="room")], ["S"])
    Traceback (most recent call last):
    ...
    kop.errors.StoryError: line 1: S exits the room but is in no place
    """
    return _Builder(events, agents, conventions or KOP).build()


def _follow(ev: Event, focus: str, where: dict[str, str]) -> str:
    """Follow the agents in and out of places (*where*, updated); the place of the last entry."""
    if ev.kind == "enter":
        for a in ev.agents or (ev.agent,):
            where[a] = ev.place
        return ev.place
    if ev.kind == "exit":
        where.pop(ev.agent, None)
    return focus
