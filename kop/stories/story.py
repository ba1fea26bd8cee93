"""A story with its questions, answered by model checking: :class:`Story` (read by :func:`kop.read_story`).

>>> import kop
>>> story = kop.read_story('''
... Sally, Anne enter room
... marble in basket
... Sally exits room
... Anne moves marble to box
... ? Sally: marble = basket
... ? Anne, Sally: marble = basket
... ? marble = box
... ''')
>>> [str(story.answer(q)) for q in story.questions]
['basket: B_Sally (marble_in_basket)', 'basket: B_Anne (B_Sally (marble_in_basket))', 'box: marble_in_box']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kop.stories.beliefs import Memo, believed
from kop.stories.compile import Compiled, compile_story
from kop.stories.conventions import HITOM, KOP, TOMI, Conventions
from kop.stories.errors import StoryError
from kop.stories.events import Event, Question
from kop.stories.events import ParsedStory
from kop.stories.reference import Reference, belief_formula
from kop.syntax import arguments

if TYPE_CHECKING:  # pragma: no cover
    from kop.semantics.model import KripkeModel

__all__ = ["Story", "Answer", "TraceRow", "DEFAULTS"]

#: The conventions each format defaults to (the ones that reproduce its dataset).
DEFAULTS = {"tomi": TOMI, "hitom": HITOM, "kop": KOP}


@dataclass(frozen=True)
class Answer:
    """The answer to a question: the container (None if the belief is not about one), and why.

    Attributes
    ----------
    question : Question
    container : str or None
    formula : str
        The formula that decided it, true at the actual world (for memory
        questions: at the initial model's actual world).  Empty when no container is decided.
    reason : str
        One sentence.

    Examples
    --------
    >>> a = Answer(Question("reality", (), "m"), "box", "m_in_box", "where the m is after the story")
    >>> str(a), a.agrees
    ('box: m_in_box', None)
    """

    question: Question
    container: str | None
    formula: str
    reason: str

    @property
    def agrees(self) -> bool | None:
        """Does the answer agree with the file's answer (None if the file gives none)?"""
        return None if self.question.gold is None else self.container == self.question.gold

    def __str__(self) -> str:
        return f"{self.container}: {self.formula}" if self.container is not None else f"no single container: {self.reason}"


@dataclass(frozen=True)
class TraceRow:
    """Beliefs after one event of the story: chain of agents -> container (or None).

    Examples
    --------
    >>> TraceRow(4, "Anne moves marble to box", {("Sally",): "basket"}).beliefs[("Sally",)]
    'basket'
    """

    line: int
    event: str
    beliefs: dict[tuple[str, ...], str | None]


class Story:
    """A story compiled to a dynamic epistemic model, with its questions.

    Parameters
    ----------
    parsed : ParsedStory
        What a reader returned.
    conventions : Conventions, optional
        Default :data:`kop.stories.conventions.KOP`.

    Examples
    --------
    >>> import kop
    >>> s = kop.read_story("A enter room\\nx in cup\\nA exits room\\n? A: x = cup")
    >>> s.questions[0].order, s.answer(s.questions[0]).container, s.minimal_size()
    (1, 'cup', 1)
    """

    def __init__(self, parsed: ParsedStory, conventions: Conventions | None = None):
        self.parsed = parsed
        self.conventions = conventions or KOP
        self.events: tuple[Event, ...] = parsed.events
        self.agents: tuple[str, ...] = parsed.agents
        self.questions: tuple[Question, ...] = parsed.questions
        self.compiled: Compiled = compile_story(parsed.events, parsed.agents, self.conventions)
        self._memo: Memo = {}
        self._reference: Reference | None = None
        self._contracted: Reference | None = None

    def __repr__(self) -> str:
        return f"Story(events={len(self.events)}, agents={self.agents!r}, questions={len(self.questions)})"

    # -- answers ---------------------------------------------------------------------------------
    def _steps(self, after: int | None) -> int:
        if after is None or after >= len(self.events):
            return len(self.compiled.steps)
        return self.compiled.step_of_event[after - 1] if after > 0 else 0

    def _obj(self, q: Question) -> int:
        if q.obj not in self.compiled.objects:
            raise StoryError(f"the question is about the {q.obj}, which is not in the story", q.line)
        for a in q.chain:
            if a not in self.agents:
                raise StoryError(f"the question is about {a}, who is not in the story", q.line)
        return self.compiled.objects.index(q.obj)

    def answer(self, q: Question | int, reference: bool = False) -> Answer:
        """Answer question *q* (a :class:`Question` or an index into :attr:`questions`).

        With ``reference=True`` the explicit model (kop's product update) decides, else the fast path.
        """
        if isinstance(q, int):
            q = self.questions[q]
        o = self._obj(q)
        c = self.compiled
        ref = self.reference()
        if q.kind == "memory":
            where: int | None = c.initial[o]
            return Answer(q, c.containers[c.initial[o]], ref.atom(o, c.initial[o]),
                          "true at the actual world of the initial model")
        steps = self._steps(q.after)
        if reference:
            where = ref.believed(q.chain, o, steps)
        else:
            where = believed(c, q.chain, o, steps, self._memo)
        if where is None:
            whose = " that ".join(q.chain)
            return Answer(q, None, "", f"no container c makes B_{' B_'.join(q.chain)} in({q.obj}, c) true: "
                                       f"{whose}'s belief is not about one container")
        formula = belief_formula(q.chain, ref.atom(o, where)) if q.chain else ref.atom(o, where)
        return Answer(q, c.containers[where], formula, "true at the actual world after the story")

    def answers(self) -> list[Answer]:
        """Every question's answer, in order."""
        return [self.answer(q) for q in self.questions]

    # -- the model ------------------------------------------------------------------------------
    def reference(self) -> Reference:
        """The explicit model builder (kop's product update), made on first use."""
        if self._reference is None:
            self._reference = Reference(self.compiled)
        return self._reference

    def model_after(self, step: int | None = None) -> KripkeModel:
        """The plausibility model after the first *step* events of the story (default: all)."""
        return self.reference().model(self._steps(step))

    def minimal_size(self, step: int | None = None) -> int:
        """Worlds of the bisimulation-minimal model after the first *step* events (default: all).

        The model is contracted after every event (plausibility bisimulation, on the part
        generated by the actual world), so stories whose full model is large are measured too.
        """
        if self._contracted is None:
            self._contracted = Reference(self.compiled, contract=True)
        return len(self._contracted.model(self._steps(step)))

    # -- the belief trace ------------------------------------------------------------------------
    def to_json(self, order: int = 1, obj: str | None = None) -> dict[str, object]:
        """The belief trace as JSON: the agents, and after every event each agent's beliefs in words.

        The shape the playground's Story page reads (docs/playground.md): ``{"agents": [...],
        "events": [{"text": ..., "line": ..., "beliefs": {agent: [sentence, ...]}}]}``, where an
        agent's sentences are its beliefs (chains up to *order* that start with it), and
        ``"reality"`` says where the object is.

        Examples
        --------
        >>> import kop
        >>> s = kop.read_story("Sally, Anne enter room\\nmarble in basket\\nSally exits room\\n"
        ...                "Anne moves marble to box\\n? Sally: marble")
        >>> s.to_json(2)["events"][-1]["beliefs"]["Anne"]
        ['Anne thinks the marble is in the box', 'Anne thinks that Sally thinks the marble is in the basket']
        """
        rows = self.trace(order, obj)
        name = obj or (self.questions[0].obj if self.questions else
                       (self.compiled.objects[0] if self.compiled.objects else ""))
        events = []
        for row in rows:
            said: dict[str, list[str]] = {a: [] for a in self.agents}
            for chain, where in row.beliefs.items():
                if not chain:
                    continue
                thinks = " that ".join(f"{a} thinks" for a in chain)
                place = f"in the {where}" if where is not None else "in no single container"
                said[chain[0]].append(f"{thinks} the {name} is {place}")
            events.append({"text": row.event, "line": row.line, "beliefs": said,
                           "reality": row.beliefs.get(())})
        return {"agents": list(self.agents), "object": name, "events": events}

    def trace(self, order: int = 1, obj: str | None = None) -> list[TraceRow]:
        """Each agent's belief (chains up to *order*, no agent twice in a row) after every event.

        Parameters
        ----------
        order : int
            The deepest nesting shown.
        obj : str, optional
            The object (default: the first question's, else the story's first object).
        """
        c = self.compiled
        name = obj or (self.questions[0].obj if self.questions else (c.objects[0] if c.objects else ""))
        if name not in c.objects:
            raise StoryError(f"unknown object {name!r}")
        o = c.objects.index(name)
        chains: list[tuple[str, ...]] = [()]
        frontier: list[tuple[str, ...]] = [()]
        for _ in range(order):
            frontier = [ch + (a,) for ch in frontier for a in self.agents if not ch or ch[-1] != a]
            chains.extend(frontier)
        rows = []
        for i, ev in enumerate(self.events):
            steps = c.step_of_event[i]
            beliefs = {}
            for ch in chains:
                w = believed(c, ch, o, steps, self._memo)
                beliefs[ch] = None if w is None else c.containers[w]
            rows.append(TraceRow(ev.line, ev.text(trace=True), beliefs))
        return rows
