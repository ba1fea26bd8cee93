"""kop's own story syntax (``grammar/story.lark``): one event or question per line.

>>> s = read_kop('''
... Sally, Anne enter room   # both see the room
... marble in basket
... Sally exits room
... Anne moves marble to box
... ? Anne, Sally: marble = basket
... ''')
>>> s.events[0], s.questions[0].chain
(Event('enter', line=2, agent='Sally', agents=('Sally', 'Anne'), place='room'), ('Anne', 'Sally'))
>>> read_kop("Sally moves marble box")
Traceback (most recent call last):
...
kop.errors.StoryError: line 1, column 20: expected 'to'; found 'box'
"""

from __future__ import annotations

from typing import Any

from kop.stories.errors import StoryError
from kop.stories.events import Event, ParsedStory, Question, story_agents
from kop.syntax.grammar_cache import lalr_parser

__all__ = ["read_kop"]

_WORDS = {"TO": "'to'", "IN": "'in'", "INTO": "'into'", "COLON": "':'", "EQUAL": "'='", "NAME": "a name",
          "_NL": "the end of the line", "COMMA": "','", "_ENTER": "'enters'", "_EXIT": "'exits'",
          "_MOVE": "'moves'", "_STAY": "'stays'", "_TELL": "'tells'", "_CLAIM": "'claims'", "_PEEK": "'peeks'",
          "_ATTEND": "'attends'", "IS": "'is'", "DISTRACTED": "'distracted'", "QMARK": "'?'",
          "INITIALLY": "'initially'", "_END": "';'", "$END": "the end of the input"}


def _expected(names: set[str]) -> str:
    words = sorted({_WORDS.get(n, n.lower()) for n in names})
    return " or ".join(words) if words else "something else"


def read_kop(text: str) -> ParsedStory:
    """Read a story in kop's syntax.

    Parameters
    ----------
    text : str

    Returns
    -------
    ParsedStory

    Raises
    ------
    StoryError
        With the line, the column and what was expected there.

    Examples
    --------
    >>> read_kop("A enter hall\\nx in cup\\n? A: x").questions[0].order
    1
    """
    from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

    parser = lalr_parser("story", lexer="contextual", propagate_positions=True)
    try:
        tree = parser.parse(text)
    except UnexpectedToken as exc:
        found = "the end of the input" if exc.token.type == "$END" else repr(str(exc.token))
        raise StoryError(f"expected {_expected(set(exc.expected))}; found {found}", exc.line, exc.column) from None
    except UnexpectedCharacters as exc:
        raise StoryError(f"expected {_expected(set(exc.allowed or ()))}; found {text[exc.pos_in_stream or 0]!r}",
                         exc.line, exc.column) from None
    except UnexpectedInput as exc:  # pragma: no cover - lark's other errors
        raise StoryError(f"cannot read this: {exc}", getattr(exc, "line", None)) from None
    events: list[Event] = []
    questions: list[Question] = []
    items: list[Any] = list(tree.children)
    for item in items:
        line = item.meta.line
        kind = item.data
        parts = [_words(c) for c in item.children]
        if kind == "enter":
            who = tuple(parts[0])
            events.append(Event("enter", line, agent=who[0], agents=who, place=parts[1]))
        elif kind == "exit":
            events.append(Event("exit", line, agent=parts[0], place=parts[1] if len(parts) > 1 else ""))
        elif kind == "place":
            events.append(Event("place", line, obj=parts[0], container=parts[1]))
        elif kind == "move":
            events.append(Event("move", line, agent=parts[0], obj=parts[1], container=parts[2]))
        elif kind == "stay":
            events.append(Event("stay", line, agent=parts[0]))
        elif kind == "tell":
            events.append(Event("tell", line, agent=parts[0], listeners=tuple(parts[1]), obj=parts[2],
                                container=parts[3]))
        elif kind == "claim":
            events.append(Event("tell", line, agent=parts[0], obj=parts[1], container=parts[2]))
        elif kind == "peek":
            events.append(Event("peek", line, agent=parts[0], container=parts[1]))
        elif kind in ("distracted", "attentive"):
            events.append(Event(kind, line, agent=parts[0]))
        else:
            q = item.children[0]
            qparts = [_words(c) for c in q.children]
            gold = str(item.children[1]) if len(item.children) > 1 else None
            chain: tuple[str, ...] = tuple(qparts[0]) if q.data == "belief" else ()
            obj = qparts[-1]
            text_q = {"reality": f"where is the {obj} really",
                      "memory": f"where was the {obj} at the beginning"}.get(
                q.data, "where does " + " think that ".join(chain) + (" think" if len(chain) == 1 else " thinks") + f" the {obj} is")
            questions.append(Question(str(q.data), chain, obj, line, text_q, gold, after=len(events)))
    return ParsedStory(tuple(events), story_agents(events, questions, 1), tuple(questions), 1)


def _words(node: Any) -> Any:
    if hasattr(node, "children"):
        return [str(c) for c in node.children]
    return str(node)
