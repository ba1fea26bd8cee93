"""The strict JSON reader: a repeated key is placed exactly where the token-by-token reader
(loads_deep, the definition of every located JSON error) places it, however it is found."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from kop.io.jsontext import JsonError, loads_deep, loads_json

KEYS = st.sampled_from(["a", "b", "payoff", "a b", "é", ""])
SPACE = st.sampled_from(["", " ", "\n", "\n  ", "\t"])


def values() -> st.SearchStrategy[Any]:
    """JSON text built from pieces, objects given as lists of pairs so a key may come twice."""
    scalars = st.sampled_from(["1", "-2.5e3", '"x"', '"{\\"a\\": 1}"', "true", "null", "[]", "{}"])
    return st.recursive(
        scalars.map(lambda t: ("raw", t)),
        lambda inner: st.one_of(st.lists(inner, max_size=4).map(lambda xs: ("list", xs)),
                                st.lists(st.tuples(KEYS, inner), max_size=4).map(lambda ps: ("obj", ps))),
        max_leaves=25)


def write(v: Any, space: Any) -> str:
    kind, body = v
    if kind == "raw":
        return body
    if kind == "list":
        return "[" + ",".join(space() + write(x, space) + space() for x in body) + "]"
    return "{" + ",".join(space() + json.dumps(k) + space() + ":" + space() + write(x, space) + space()
                          for k, x in body) + "}"


def outcome(read: Any, text: str) -> tuple:
    try:
        return ("value", read(text))
    except JsonError as exc:
        return ("error", str(exc), exc.line, exc.column, exc.path, exc.key)


@settings(max_examples=examples(1000), deadline=None)
@given(values(), st.data())
def test_repeated_keys_are_placed_as_the_token_reader_places_them(value, data):
    text = data.draw(SPACE) + write(value, lambda: data.draw(SPACE)) + data.draw(SPACE)
    assert outcome(loads_json, text) == outcome(loads_deep, text)


@pytest.mark.parametrize("text, where", [
    ('{"a": {"b": 1, "b": 2}}', r"line 1, column 16: \$\.a: duplicate key 'b'"),
    ('[0, [1, {"x": [{"k": 1,\n "k": 2}]}]]', r"line 2, column 2: \$\[1\]\[1\]\.x\[0\]: duplicate key 'k'"),
    ('{"a": 1, "a": {"b": 1, "b": 2}}', r"line 1, column 10: \$: duplicate key 'a'"),  # two objects: the first in the text
    ('{"a": 1, "a": 2, "x": {"b": 1, "b": 2}}', r"line 1, column 10: \$: duplicate key 'a'"),
    ('[{"b": 1, "b": 2}, {"a": 1, "a": 2}]', r"line 1, column 11: \$\[0\]: duplicate key 'b'"),
    ('{"a b": {"c": {"": 0, "": 1}}}', r'line 1, column 23: \$\["a b"\]\.c: duplicate key \'\''),
])
def test_repeated_key_messages(text, where):
    with pytest.raises(JsonError, match=where):
        loads_json(text)
