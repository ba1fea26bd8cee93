"""The quick schema check agrees with jsonschema on random documents, valid and broken."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples
from jsonschema import Draft202012Validator

from kop.io.model_json import _quick_schema, quick_valid, schema

VALIDATOR = Draft202012Validator(schema())

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=False, allow_infinity=False) |
    st.sampled_from(["w0", "p", "a", "", "1x", "K_a", "a b", "kop-model/1", "a\n"]),
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(
        st.sampled_from(["agents", "worlds", "relations", "actual", "format", "w0", "a", "x"]), kids, max_size=4),
    max_leaves=8)

names = st.sampled_from(["w0", "w1", "w2", "p", "q", "a", "b", "", "1x", "x-y", "a\n", "K_a"])


@st.composite
def documents(draw):
    """A nearly valid model document with a few random corruptions."""
    doc = {
        "agents": draw(st.lists(names, max_size=3)),
        "worlds": draw(st.dictionaries(names, st.lists(names, max_size=3), max_size=3)),
        "relations": draw(st.dictionaries(names, st.lists(st.lists(names, max_size=3), max_size=3), max_size=3)),
        "actual": draw(st.lists(names, max_size=3)),
    }
    if draw(st.booleans()):
        doc["format"] = draw(st.sampled_from(["kop-model/1", "kop-model/2", 1]))
    for _ in range(draw(st.integers(0, 2))):
        key = draw(st.sampled_from(sorted(doc) + ["extra"]))
        action = draw(st.sampled_from(["drop", "replace"]))
        if action == "drop":
            doc.pop(key, None)
        else:
            doc[key] = draw(json_values)
    return doc


SETTINGS = settings(max_examples=examples(1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(documents())
def test_quick_check_agrees_with_jsonschema_on_model_like_documents(doc):
    assert quick_valid(doc) == VALIDATOR.is_valid(doc), json.dumps(doc)


@SETTINGS
@given(json_values)
def test_quick_check_agrees_with_jsonschema_on_any_json(doc):
    assert quick_valid(doc) == VALIDATOR.is_valid(doc), json.dumps(doc)


def test_the_model_schema_is_within_the_quick_subset():
    # if the schema grows a keyword the quick check does not know, jsonschema takes over (still correct, slower)
    assert _quick_schema() is not None
