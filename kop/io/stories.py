"""Readers for the field's story formats: ToMi, Hi-ToM, and kop's own syntax.

Each reader returns a list of :class:`ParsedStory` (events, agents, questions);
a sentence of an unknown shape is a :class:`~kop.errors.StoryError`
naming its line.  Distractor sentences (ToMi's "Isla dislikes the hall",
Hi-ToM's "Noah saw a monkey.") are recognised and are no events.

ToMi (facebookresearch/ToMi, bAbI style): numbered lines, a story restarts at
line 1, a question carries its answer after a tab; its ``.trace`` file gives
each question's type (``first_order_1_tom`` ...).

>>> text = '''1 Sally entered the room.
... 2 Anne entered the room.
... 3 The marble is in the basket.
... 4 Sally exited the room.
... 5 Anne moved the marble to the box.
... 6 Where will Sally look for the marble?\\tbasket\\t1'''
>>> [s] = read_tomi(text)
>>> s.agents, s.questions[0].chain, s.questions[0].gold
(('Sally', 'Anne'), ('Sally',), 'basket')
"""

from __future__ import annotations

import json
import re

from kop.io.story_syntax import read_kop
from kop.stories.conventions import Conventions
from kop.stories.errors import StoryError
from kop.stories.story import DEFAULTS, Story
from kop.syntax import arguments
from kop.stories.events import Event, ParsedStory, Question, story_agents

__all__ = ["read_tomi", "read_hitom", "read_hitom_text", "read_stories", "read_story", "FORMATS"]

#: The formats ``kop story --format`` and :func:`kop.read_story` accept.
FORMATS = ("tomi", "hitom", "kop")

_W = r"[A-Za-z0-9_'\-]+"
_NOISE = re.compile(r"^[A-Z]\w* (likes|dislikes|loves|hates) (the )?[\w ]+\.?$|^[A-Z]\w* saw an? \w+\.?$"
                    r"|^[A-Z]\w* lost (his|her|their) \w+\.?$")


def _names(text: str) -> tuple[str, ...]:
    parts = re.split(r",\s*|\s+and\s+", text.strip())
    return tuple(p for p in parts if p)


# -- sentences shared by ToMi and Hi-ToM ------------------------------------------------------------
_SENTENCES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"^(?P<who>{_W}(?:(?:, | and ){_W})*) (?:entered|enter|went into) the (?P<place>{_W})\.?$"), "enter"),
    (re.compile(rf"^(?P<who>{_W}(?: and {_W})?) (?:is|are) in the (?P<place>{_W})\.?$"), "enter"),
    (re.compile(rf"^(?P<who>{_W}) (?:exited|left|went out of) the (?P<place>{_W})\.?$"), "exit"),
    (re.compile(rf"^The (?P<obj>{_W}) is in the (?P<container>{_W})\.?$"), "place"),
    (re.compile(rf"^(?P<who>{_W}) moved the (?P<obj>{_W}) to the (?P<container>{_W})\.?$"), "move"),
    (re.compile(rf"^(?P<who>{_W}) made no movements and stayed in the (?P<place>{_W}) for [\w ]+\.?$"), "stay"),
    (re.compile(rf"^(?P<who>{_W}) looked in the (?P<container>{_W})\.?$"), "peek"),
    (re.compile(rf"^(?P<who>{_W}) told (?P<listener>{_W}) where the (?P<obj>{_W}) is\.?$"), "tell-truth"),
    (re.compile(rf"^(?P<who>{_W}) privately told (?P<listener>{_W}) that (?:the )?(?P<obj>{_W}) is in the "
                rf"(?P<container>{_W})(?: now)?\.?$"), "tell"),
    (re.compile(rf"^(?P<who>{_W}) publicly claimed that (?:the )?(?P<obj>{_W}) is in the "
                rf"(?P<container>{_W})(?: now)?\.?$"), "claim"),
]

_QUESTIONS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"^Where is the (?P<obj>{_W}) really\?$"), "reality"),
    (re.compile(rf"^Where is the (?P<obj>{_W})\?$"), "reality"),
    (re.compile(rf"^Where was the (?P<obj>{_W}) at the beginning\?$"), "memory"),
    (re.compile(rf"^Where will (?P<a>{_W}) look for the (?P<obj>{_W})\?$"), "first"),
    (re.compile(rf"^Where does (?P<a>{_W}) think that (?P<b>{_W}) searches for the (?P<obj>{_W})\?$"), "second"),
    (re.compile(rf"^Where does (?P<a>{_W}) (?:really )?think (?P<rest>(?:{_W} thinks )*)the (?P<obj>{_W}) is\?$"),
     "chain"),
]


def _sentence(text: str, line: int) -> Event | None:
    text = text.strip()
    if not text or _NOISE.match(text):
        return None
    for pattern, kind in _SENTENCES:
        m = pattern.match(text)
        if not m:
            continue
        g = m.groupdict()
        if kind == "enter":
            who = _names(g["who"])
            return Event("enter", line, agent=who[0], agents=who, place=g["place"])
        if kind == "exit":
            return Event("exit", line, agent=g["who"], place=g["place"])
        if kind == "place":
            return Event("place", line, obj=g["obj"], container=g["container"])
        if kind == "move":
            return Event("move", line, agent=g["who"], obj=g["obj"], container=g["container"])
        if kind == "stay":
            return Event("stay", line, agent=g["who"], place=g["place"])
        if kind == "peek":
            return Event("peek", line, agent=g["who"], container=g["container"])
        if kind == "tell-truth":
            return Event("tell", line, agent=g["who"], listeners=(g["listener"],), obj=g["obj"])
        if kind == "tell":
            return Event("tell", line, agent=g["who"], listeners=(g["listener"],), obj=g["obj"],
                         container=g["container"])
        return Event("tell", line, agent=g["who"], obj=g["obj"], container=g["container"])
    raise StoryError(f"unknown sentence {text!r}: not an event kop knows "
                     "(enter, exit, 'The X is in the Y', move, stay, look, tell, claim) nor a distractor", line)


def _question(text: str, line: int, gold: str | None, label: str, after: int) -> Question:
    text = text.strip()
    for pattern, kind in _QUESTIONS:
        m = pattern.match(text)
        if not m:
            continue
        g = m.groupdict()
        if kind in ("reality", "memory"):
            return Question(kind, (), g["obj"], line, text, gold, label, after)
        if kind == "first":
            chain: tuple[str, ...] = (g["a"],)
        elif kind == "second":
            chain = (g["a"], g["b"])
        else:
            chain = (g["a"], *re.findall(rf"({_W}) thinks ", g["rest"]))
        return Question("belief", chain, g["obj"], line, text, gold, label, after)
    raise StoryError(f"unknown question {text!r}: kop answers 'Where is the X (really)?', 'Where was the X at "
                     "the beginning?', 'Where will A look for the X?' and 'Where does A think (that) B ... the X is?'",
                     line)


def read_tomi(text: str, trace: str | None = None) -> list[ParsedStory]:
    """Read a ToMi file (and its ``.trace``, which names each question's type).

    Parameters
    ----------
    text : str
        Numbered lines; a story restarts at line 1; a question is
        ``question<TAB>answer<TAB>supporting-fact``.
    trace : str, optional
        The ``.trace`` file: one line per question, its last two fields the
        question's type and the story's type.

    Returns
    -------
    list of ParsedStory
        One per story (a story with several questions keeps them all).

    Raises
    ------
    StoryError
        With the line of the file at fault.

    Examples
    --------
    >>> read_tomi("1 Sally entered the room.\\n2 Sally juggled.")
    Traceback (most recent call last):
    ...
    kop.errors.StoryError: line 2: unknown sentence 'Sally juggled.': not an event kop knows (enter, exit, 'The X is in the Y', move, stay, look, tell, claim) nor a distractor
    """
    labels = [ln.split(",")[-2] if ln.count(",") >= 1 else ln for ln in (trace or "").splitlines() if ln.strip()]
    stories: list[ParsedStory] = []
    events: list[Event] = []
    questions: list[Question] = []
    start = 1
    qn = 0

    def close() -> None:
        if events or questions:
            stories.append(ParsedStory(tuple(events), story_agents(events, questions, start), tuple(questions), start))

    for i, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip():
            continue
        m = re.match(r"^\s*(\d+)\s+(.*)$", raw)
        if not m:
            raise StoryError(f"expected a numbered line ('3 Sally entered the room.'), found {raw.strip()[:40]!r}", i)
        if m.group(1) == "1":
            close()
            events, questions, start = [], [], i
        body = m.group(2)
        if "\t" in body or body.rstrip().endswith("?"):
            parts = body.split("\t")
            gold = parts[1].strip() if len(parts) > 1 and parts[1].strip() else None
            label = labels[qn] if qn < len(labels) else ""
            questions.append(_question(parts[0], i, gold, label, len(events)))
            qn += 1
        else:
            ev = _sentence(body, i)
            if ev is not None:
                events.append(ev)
    close()
    return stories


def read_hitom_text(story: str, question: str = "", gold: str | None = None, label: str = "",
                    offset: int = 0) -> ParsedStory:
    """Read one Hi-ToM story (numbered lines) and, optionally, its question.

    Lines that are not numbered (a prompt's instructions, "Story:", the choices)
    are skipped; the question is the line starting "Question:" when *question* is empty, and
    the gold answer the line starting "Answer:" when *gold* is None (Hi-ToM's prompt files).
    Events carry the story's own line numbers (plus *offset*).

    Examples
    --------
    >>> s = read_hitom_text("1 Ann and Bo entered the hall.\\n2 The pea is in the red_box.",
    ...                     "Where does Ann think Bo thinks the pea is?", "red_box")
    >>> s.questions[0].chain, s.questions[0].order
    (('Ann', 'Bo'), 2)
    """
    events: list[Event] = []
    qline = 0
    last = 0
    for i, raw in enumerate(story.split("\n"), start=1):
        m = re.match(r"^\s*(\d+)\s+(.*)$", raw)
        if m:
            last = max(last, int(m.group(1)))
        if not m:
            qm = re.match(r"^\s*Question:\s*(.*)$", raw)
            if qm and not question:
                question, qline = qm.group(1).strip(), offset + i
            am = re.match(r"^\s*Answer:\s*(\S+)\s*$", raw)
            if am and gold is None:
                gold = am.group(1)
            continue
        ev = _sentence(m.group(2), offset + int(m.group(1)))   # the story's own line number
        if ev is not None:
            events.append(ev)
    qline = qline or offset + last + 1   # a question given apart from the story: the line after it
    questions = [_question(question, qline, gold, label, len(events))] if question else []
    return ParsedStory(tuple(events), story_agents(events, questions, offset + 1), tuple(questions), offset + 1)


def read_hitom(text: str) -> list[ParsedStory]:
    """Read Hi-ToM's JSON (``{"data": [{"story", "question", "answer", ...}]}``): one story per item.

    A story's lines are numbered as in the item; errors say the item (0-based) and the line.

    Examples
    --------
    >>> import json
    >>> item = {"story": "1 Ann entered the hall.\\n2 The pea is in the red_box.",
    ...         "question": "Where is the pea really?", "answer": "red_box", "question_order": 0,
    ...         "deception": False}
    >>> [s] = read_hitom(json.dumps({"data": [item]}))
    >>> s.questions[0].kind, s.questions[0].label
    ('reality', 'order 0, no deception')
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StoryError(f"not Hi-ToM JSON: {exc.msg}", exc.lineno, exc.colno) from None
    items = data.get("data") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise StoryError('not Hi-ToM JSON: expected an object {"data": [...]}', 1)
    out = []
    for k, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("story"), str):
            raise StoryError(f"item {k}: expected an object with a \"story\" string", 1)
        label = (f"order {item.get('question_order')}, "
                 + ("deception" if item.get("deception") else "no deception"))
        try:
            out.append(read_hitom_text(item["story"], str(item.get("question", "")), item.get("answer"), label))
        except StoryError as err:
            raise StoryError(f"item {k}: {err.detail}", err.line) from None
    return out


def read_stories(text: str, format: str = "kop", conventions: Conventions | None = None,
                 trace: str | None = None) -> list[Story]:
    """Every story of *text* (a ToMi file holds many; a Hi-ToM JSON one per item).

    Parameters
    ----------
    text : str
    format : {"tomi", "hitom", "kop"}
    conventions : Conventions, optional
        Default: the format's (:data:`DEFAULTS`).
    trace : str, optional
        ToMi's ``.trace`` text (question types).

    Returns
    -------
    list of Story

    Raises
    ------
    StoryError
        Located, on bad input.

    Examples
    --------
    >>> len(read_stories("1 A entered the hall.\\n1 B entered the hall.", "tomi"))
    2
    """
    arguments.text(text, "text", "the story's text (a string)")
    if format not in FORMATS:
        raise StoryError(f"unknown story format {format!r}: use one of {', '.join(FORMATS)}")
    if conventions is not None:
        arguments.instance(conventions, Conventions, "conventions", "a kop.Conventions or None")
    if trace is not None:
        arguments.text(trace, "trace", "the text of a ToMi .trace file, or None")
    conv = conventions or DEFAULTS[format]
    parsed: list[ParsedStory]
    if format == "tomi":
        parsed = read_tomi(text, trace)
    elif format == "hitom":
        parsed = read_hitom(text) if text.lstrip().startswith("{") else [read_hitom_text(text)]
    else:
        parsed = [read_kop(text)]
    out = []
    for p in parsed:
        try:
            out.append(Story(p, conv))
        except StoryError as err:
            raise err from None
    return out


def read_story(text: str, format: str = "kop", conventions: Conventions | None = None) -> Story:
    """Read one story (with its questions) in the given *format*.

    Parameters
    ----------
    text : str
    format : {"kop", "tomi", "hitom"}
    conventions : Conventions, optional
        Default: the format's (:data:`DEFAULTS`).

    Returns
    -------
    Story

    Raises
    ------
    StoryError
        Located, on bad input; also when *text* holds several stories (use :func:`read_stories`).

    Examples
    --------
    >>> s = read_story("1 Ann entered the hall.\\n2 The pea is in the red_box.\\n3 Where is the pea really?\\tred_box\\t1",
    ...                format="tomi")
    >>> s.answer(0).container
    'red_box'
    """
    stories = read_stories(text, format, conventions)
    if len(stories) != 1:
        raise StoryError(f"the text holds {len(stories)} stories; read_stories() reads them all")
    return stories[0]
