"""An iterative JSON reader for documents nested too deeply for :func:`json.loads`.

Python's ``json`` module recurses once per nesting level and raises
``RecursionError`` beyond about a thousand levels.  Game trees are nested two
JSON levels per tree level, so a long line of play is deep JSON.  This reader
keeps its own stack, accepts standard JSON only, and stops at ``max_depth``
levels with a located :class:`~kop.syntax.errors.LimitError`.

Parameters of :func:`loads_deep`
--------------------------------
text : str
max_depth : int
    the deepest nesting accepted (default :data:`MAX_DEPTH`)

Example
-------
>>> loads_deep("[" * 5000 + "]" * 5000) is not None
True
"""

from __future__ import annotations

import json
import re
from typing import Any

from kop.games.errors import LimitError, TreeError

__all__ = ["loads", "loads_deep", "MAX_DEPTH", "location"]

#: nesting levels accepted (a tree of depth d needs about 2d)
MAX_DEPTH = 1_000_000

_TOKEN = re.compile(r"""[ \t\n\r]*(?:
    (?P<punct>[\[\]{},:])
  | (?P<string>"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*")
  | (?P<number>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)
  | (?P<literal>true|false|null)
)""", re.VERBOSE)
_LITERALS = {"true": True, "false": False, "null": None}
_SPACE = re.compile(r"[ \t\n\r]*")


def location(text: str, pos: int) -> str:
    """``line L, column C`` of a character offset."""
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return f"line {line}, column {col}"


def loads(text: str, max_depth: int = MAX_DEPTH) -> Any:
    """JSON text to Python data: :func:`json.loads`, or :func:`loads_deep` when that recurses too deep."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise TreeError(f"line {exc.lineno}, column {exc.colno}: invalid JSON: {exc.msg}") from None
    except RecursionError:
        return loads_deep(text, max_depth)


def loads_deep(text: str, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON text with an explicit stack (no recursion at any depth)."""
    stack: list[list] = []  # [container, pending key]
    pos = 0
    expect = "value"  # value | value_or_close | key_or_close | key | colon | comma_or_close
    done = False
    root: Any = None

    def fail(at: int, what: str) -> TreeError:
        found = text[at:at + 1] or "end of input"
        return TreeError(f"{location(text, at)}: invalid JSON: expected {what}, found {found!r}")

    while not done:
        m = _TOKEN.match(text, pos)
        start = _SPACE.match(text, pos).end()
        if m is None or m.end() == start:
            raise fail(start, expect.replace("_", " "))
        pos = m.end()
        kind = m.lastgroup
        tok = m.group(kind)
        if kind == "punct" and tok in "]}":
            closes_list = tok == "]"
            if expect not in ("comma_or_close", "value_or_close" if closes_list else "key_or_close") \
                    or not stack or isinstance(stack[-1][0], list) != closes_list:
                raise fail(start, expect.replace("_", " "))
            value = stack.pop()[0]
        elif kind == "punct" and tok == ",":
            if expect != "comma_or_close":
                raise fail(start, expect.replace("_", " "))
            expect = "value" if isinstance(stack[-1][0], list) else "key"
            continue
        elif kind == "punct" and tok == ":":
            if expect != "colon":
                raise fail(start, expect.replace("_", " "))
            expect = "value"
            continue
        elif expect in ("key", "key_or_close"):
            if kind != "string":
                raise fail(start, "a string key")
            stack[-1][1] = json.loads(tok)
            expect = "colon"
            continue
        elif expect not in ("value", "value_or_close"):
            raise fail(start, expect.replace("_", " "))
        elif kind == "punct":  # [ or {
            if len(stack) >= max_depth:
                raise LimitError(f"{location(text, start)}: JSON nested deeper than {max_depth} levels "
                                 "(kop's limit)")
            stack.append([[] if tok == "[" else {}, None])
            expect = "value_or_close" if tok == "[" else "key_or_close"
            continue
        elif kind == "string":
            value = json.loads(tok)
        elif kind == "number":
            value = float(tok) if any(ch in tok for ch in ".eE") else int(tok)
        else:
            value = _LITERALS[tok]
        # attach a finished value
        if not stack:
            root, done = value, True
        else:
            top = stack[-1]
            if isinstance(top[0], list):
                top[0].append(value)
            else:
                top[0][top[1]] = value
            expect = "comma_or_close"
    end = _SPACE.match(text, pos).end()
    if end != len(text):
        raise TreeError(f"{location(text, end)}: invalid JSON: extra data after the document")
    return root
