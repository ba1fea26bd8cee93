"""Reading JSON text strictly, with every problem located (line, column, JSON path).

kop's JSON formats (``kop-tree/1`` game trees, ``kop-model/1`` Kripke models)
share this reader.  It differs from :func:`json.loads` in four ways:

* a key repeated in one object is an error (``json.loads`` keeps the last one);
* errors are :class:`JsonError` values that name the line, the column and, for a
  duplicate key, the JSON path of the object (``$.root.children[1]``);
* an integer of more than :data:`MAX_INT_DIGITS` digits is a located error, not
  Python's ``ValueError`` about its integer-string conversion limit;
* documents nested too deeply for ``json.loads`` (about a thousand levels) are
  read by an iterative reader (:func:`loads_deep`) up to ``max_depth`` levels,
  beyond which a located :class:`~kop.errors.LimitError` is raised.

Only standard JSON is accepted (no ``NaN``, no ``Infinity``).  The cyclic
garbage collector is paused while a document is built: for the millions of
small containers of a large document it otherwise costs several times the
parsing itself.

Example
-------
>>> loads_json('{"a": [1, 2.5, "x"]}')
{'a': [1, 2.5, 'x']}
>>> loads_json('{"a": 1,\\n "a": 2}')
Traceback (most recent call last):
...
kop.errors.JsonError: line 2, column 2: $: duplicate key 'a'
>>> loads_deep("[" * 5000 + "]" * 5000) is not None
True
"""

from __future__ import annotations

import gc
import json
import json.scanner
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kop.errors import JsonError, KopError, LimitError
from kop.syntax.wording import json_path

__all__ = ["JsonError", "loads_json", "loads_deep", "location", "json_path", "paused_gc",
           "MAX_DEPTH", "MAX_INT_DIGITS"]

#: nesting levels accepted by default (a game tree of depth d needs about 2d)
MAX_DEPTH = 1_000_000
#: below this, ``json.loads`` alone may have read deeper documents than asked: check the depth
_NATIVE_DEPTH = 2000
#: the longest integer accepted (Python's own integer-string conversion limit)
MAX_INT_DIGITS = 4300

_TOKEN = re.compile(r"""[ \t\n\r]*(?:
    (?P<punct>[\[\]{},:])
  | (?P<string>"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*")
  | (?P<number>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)
  | (?P<literal>true|false|null)
)""", re.VERBOSE)
_LITERALS = {"true": True, "false": False, "null": None}
_SPACE = re.compile(r"[ \t\n\r]*")
_EXPECTED = {"value": "a value", "value_or_close": "a value or ']'", "key_or_close": "a string key or '}'",
             "key": "a string key", "colon": "':'"}


def location(text: str, pos: int) -> str:
    """``line L, column C`` of a character offset.

    >>> location("ab\\ncd", 4)
    'line 2, column 2'
    """
    line, col = _line_col(text, pos)
    return f"line {line}, column {col}"


def _line_col(text: str, pos: int) -> tuple[int, int]:
    return text.count("\n", 0, pos) + 1, pos - (text.rfind("\n", 0, pos) + 1) + 1


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector for the block (restored as it was)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _strict_pairs(dups: list[dict[str, Any]]) -> Any:
    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        d = dict(items)
        if len(d) != len(items):
            dups.append(d)
        return d
    return pairs


def _no_constant(name: str) -> Any:
    raise ValueError(name)


def loads_json(text: str, max_depth: int = MAX_DEPTH) -> Any:
    """JSON text to Python data, strictly (see the module docstring); problems raise :class:`JsonError`."""
    dups: list[dict[str, Any]] = []
    try:
        with paused_gc():
            data = json.loads(text, object_pairs_hook=_strict_pairs(dups), parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise JsonError(exc.lineno, exc.colno, f"invalid JSON: {exc.msg}") from None
    except (RecursionError, ValueError):
        # too deep for json.loads, an over-long integer, or NaN/Infinity: the iterative reader
        # reads the first and locates the others
        return loads_deep(text, max_depth)
    if len(dups) == 1 and max_depth >= _NATIVE_DEPTH:
        # one object holds a repeated key, and the text is otherwise what loads_deep accepts:
        # place it without reading the whole text token by token
        with paused_gc():
            error = _locate_duplicate(text, data, dups[0])
        if error is not None:
            raise error
    if dups or (max_depth < _NATIVE_DEPTH and _deeper_than(data, max_depth)):
        loads_deep(text, max_depth)  # locates the first duplicate key or the first level too deep
        raise AssertionError("loads_deep found no problem")  # pragma: no cover
    return data


def _path_to(data: Any, target: Any) -> list[str | int] | None:
    """The keys and indices leading from *data* to the container *target* (by identity), or None."""
    found: list[Any] = [data]           # containers, breadth first
    up: list[int] = [-1]                # the index in *found* of each one's parent
    steps: list[str | int] = [0]        # and its key or index there
    k = 0
    while k < len(found):
        x = found[k]
        if x is target:
            path: list[str | int] = []
            while k > 0:
                path.append(steps[k])
                k = up[k]
            return path[::-1]
        for step, v in (x.items() if type(x) is dict else enumerate(x)):
            if type(v) is dict or type(v) is list:
                found.append(v)
                up.append(k)
                steps.append(step)
        k += 1
    return None


def _locate_duplicate(text: str, data: Any, target: dict[str, Any]) -> JsonError | None:
    """The error :func:`loads_deep` gives for valid JSON *text* whose one object *target* repeats a key.

    Walks the text along the path to *target*, skipping other values with the C scanner;
    None if anything is not as expected (then :func:`loads_deep` decides).
    """
    parts = _path_to(data, target)
    if parts is None:
        return None
    scan = json.scanner.make_scanner(json.JSONDecoder())  # type: ignore[arg-type]
    space = _SPACE.match

    def skip(pos: int, char: str) -> int:
        pos = space(text, pos).end()  # type: ignore[union-attr]
        if text[pos] != char:
            raise ValueError(char)
        return space(text, pos + 1).end()  # type: ignore[union-attr]

    try:
        pos = space(text, 0).end()  # type: ignore[union-attr]
        for step in parts:
            if isinstance(step, int):
                pos = skip(pos, "[")
                for _ in range(step):
                    pos = skip(scan(text, pos)[1], ",")
            else:
                pos = skip(pos, "{")
                while True:
                    key, pos = scan(text, pos)
                    pos = skip(pos, ":")
                    if key == step:
                        break
                    pos = skip(scan(text, pos)[1], ",")
        pos = skip(pos, "{")
        seen = set()
        while True:
            start = pos
            key, pos = scan(text, pos)
            if key in seen:
                line, col = _line_col(text, start)
                where = json_path(parts)
                return JsonError(line, col, f"{where}: duplicate key {key!r}", where, key)
            seen.add(key)
            pos = skip(scan(text, skip(pos, ":"))[1], ",")
    except (ValueError, IndexError, StopIteration, RecursionError):
        return None


def _deeper_than(data: Any, limit: int) -> bool:
    """Whether containers nest more than *limit* levels in *data* (iterative)."""
    stack = [(data, 1)]
    while stack:
        x, d = stack.pop()
        if isinstance(x, (dict, list)):
            if d > limit:
                return True
            stack.extend((v, d + 1) for v in (x.values() if isinstance(x, dict) else x))
    return False


def loads_deep(text: str, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON text with an explicit stack (no recursion at any depth), strictly and located."""
    return _DeepReader(text, max_depth).read()


_MORE = object()   # what a token that finishes no value gives (a comma, a colon, a key, an opening bracket)


class _DeepReader:
    """The state of :func:`loads_deep`: the open containers, each with its pending key, and what may come next
    (``value``, ``value_or_close``, ``key_or_close``, ``key``, ``colon`` or ``comma_or_close``)."""

    def __init__(self, text: str, max_depth: int) -> None:
        self.text, self.max_depth = text, max_depth
        self.stack: list[list[Any]] = []   # [container, pending key]
        self.expect = "value"

    def read(self) -> Any:
        text = self.text
        pos = 0
        with paused_gc():
            while True:
                m = _TOKEN.match(text, pos)
                start = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
                if m is None or m.end() == start:
                    raise self.fail(start, self.expect)
                pos = m.end()
                kind = m.lastgroup or ""
                value = self.token(kind, m.group(kind), start)
                if value is _MORE:
                    continue
                if not self.stack:
                    root = value
                    break
                top = self.stack[-1]
                if isinstance(top[0], list):
                    top[0].append(value)
                else:
                    top[0][top[1]] = value
                self.expect = "comma_or_close"
        end = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
        if end != len(text):
            line, col = _line_col(text, end)
            raise JsonError(line, col, "invalid JSON: extra data after the document")
        return root

    def token(self, kind: str, tok: str, start: int) -> Any:
        """The value *tok* finishes (a scalar or a closed container), or ``_MORE``."""
        expect = self.expect
        if kind == "punct" and tok in "]}":
            return self.close(tok, start)
        if kind == "punct" and tok in ",:":
            self.separator(tok, start)
            return _MORE
        if expect in ("key", "key_or_close"):
            self.key(kind, tok, start)
            return _MORE
        if expect not in ("value", "value_or_close"):
            raise self.fail(start, expect)
        if kind == "punct":  # [ or {
            self.open(tok, start)
            return _MORE
        if kind == "string":
            return json.loads(tok)
        if kind == "number":
            return _number(tok, self.text, start)
        return _LITERALS[tok]

    def close(self, tok: str, start: int) -> Any:
        closes_list = tok == "]"
        if self.expect not in ("comma_or_close", "value_or_close" if closes_list else "key_or_close") \
                or not self.stack or isinstance(self.stack[-1][0], list) != closes_list:
            raise self.fail(start, self.expect)
        return self.stack.pop()[0]

    def separator(self, tok: str, start: int) -> None:
        if tok == ",":
            if self.expect != "comma_or_close":
                raise self.fail(start, self.expect)
            self.expect = "value" if isinstance(self.stack[-1][0], list) else "key"
        else:
            if self.expect != "colon":
                raise self.fail(start, self.expect)
            self.expect = "value"

    def key(self, kind: str, tok: str, start: int) -> None:
        if kind != "string":
            raise self.fail(start, "key")
        key = json.loads(tok)
        if key in self.stack[-1][0]:
            line, col = _line_col(self.text, start)
            raise JsonError(line, col, f"{self.path()}: duplicate key {key!r}", self.path(), key)
        self.stack[-1][1] = key
        self.expect = "colon"

    def open(self, tok: str, start: int) -> None:
        if len(self.stack) >= self.max_depth:
            raise LimitError(f"{location(self.text, start)}: JSON nested deeper than {self.max_depth} levels "
                             "(kop's limit)")
        self.stack.append([[] if tok == "[" else {}, None])
        self.expect = "value_or_close" if tok == "[" else "key_or_close"

    def fail(self, at: int, state: str) -> JsonError:
        text = self.text
        line, col = _line_col(text, at)
        found = repr(text[at:at + 1]) if at < len(text) else "the end of the text"
        what = _EXPECTED.get(state, state)
        if state == "comma_or_close":
            what = "',' or " + ("']'" if isinstance(self.stack[-1][0], list) else "'}'")
        return JsonError(line, col, f"invalid JSON: expected {what}, found {found}")

    def path(self) -> str:
        parts: list[str | int] = []
        for container, key in self.stack[:-1]:
            parts.append(len(container) if isinstance(container, list) else key)
        return json_path(parts)


def _number(tok: str, text: str, start: int) -> int | float:
    if any(ch in tok for ch in ".eE"):
        return float(tok)
    digits = len(tok) - tok.startswith("-")
    if digits > MAX_INT_DIGITS:
        line, col = _line_col(text, start)
        raise JsonError(line, col, f"an integer of {digits} digits is longer than kop reads "
                                   f"({MAX_INT_DIGITS} digits)")
    return int(tok)
