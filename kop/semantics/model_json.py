"""Reading Kripke models from the JSON format ``kop-model/1``.

A document looks like::

    {"format": "kop-model/1",
     "agents": ["a", "b"],
     "worlds": {"w0": ["p", "q"], "w1": ["p"]},
     "relations": {"a": [["w0", "w1"]], "b": [["w0"], ["w1"]]},
     "actual": ["w0"]}

and may add each agent's plausibility order (``"plausibility": {"a": {"w0": 0,
"w1": 1}}``, lower is more plausible) and probabilities (``"probability":
{"a": {"w0": "1/3", "w1": "2/3"}}``); see :mod:`kop.semantics.uncertainty`.

It is checked in three steps, each with an error naming the place at fault:
the JSON syntax (line and column), duplicate keys such as two worlds with the
same name (the JSON path), the schema ``kop/schemas/model.schema.json`` (the
JSON path and what was expected), and finally the model itself (agent and
world; see :class:`kop.semantics.model.KripkeModel`).

Example
-------
>>> from kop import KripkeModel
>>> KripkeModel.from_json('{"agents": ["a"], "worlds": {"w0": [], "w0": []},'
...                       ' "relations": {"a": [["w0"]]}, "actual": ["w0"]}')
Traceback (most recent call last):
...
kop.semantics.errors.ModelError: model: $.worlds: duplicate world name 'w0' (line 1, column 40)
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from kop.semantics.errors import ModelError
from kop.errors import LimitError
from kop.syntax.jsontext import JsonError, json_path, loads_json


__all__ = ["read_text", "parse_json", "validate_schema", "quick_valid", "model_from_json", "schema", "dumps"]

#: How many schema violations one error message lists.
MAX_REPORTED = 3
#: The deepest JSON nesting a model file may have (a model needs 3 levels).
MAX_DEPTH = 200


def read_text(path: str | Path) -> str:
    """The text of a model file, or a :class:`ModelError` saying why it cannot be read.

    Read by the guarded reader (:mod:`kop.syntax.files`): regular files only, within the size cap.
    """
    from kop.errors import KopError
    from kop.syntax.files import read_text as guarded_read

    if not Path(path).exists() and not Path(path).is_symlink():
        raise ModelError(f"{path}: no such model file")
    try:
        return guarded_read(path, what="model file")
    except KopError as exc:
        raise ModelError(str(exc)) from None


def parse_json(text: str, source: str = "model") -> Any:
    """Parse JSON text strictly; syntax errors, duplicate keys and too deep nesting become :class:`ModelError`."""
    try:
        return loads_json(text, max_depth=MAX_DEPTH)
    except JsonError as exc:
        if exc.key is not None:
            what = "world name" if exc.path == "$.worlds" else "key"
            raise ModelError(f"{source}: {exc.path}: duplicate {what} {exc.key!r} "
                             f"(line {exc.line}, column {exc.column})") from None
        raise ModelError(f"{source}: malformed JSON at line {exc.line}, column {exc.column}: "
                         f"{exc.reason.removeprefix('invalid JSON: ')}") from None
    except LimitError as exc:
        raise ModelError(f"{source}: {exc}") from None


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The JSON schema of ``kop-model/1``."""
    path = Path(__file__).resolve().parent.parent / "schemas" / "model.schema.json"
    return json.loads(path.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _validator() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema())


def validate_schema(data: Any, source: str = "model") -> None:
    """Check *data* against the model schema; violations become one readable :class:`ModelError`.

    A document that the quick check (:func:`quick_valid`) accepts is valid;
    otherwise ``jsonschema`` decides and words the errors.  This keeps
    ``jsonschema`` (slow to import) out of the common case.
    """
    if quick_valid(data):
        return
    errors = sorted(_validator().iter_errors(data), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    if not errors:
        return
    lines = []
    for err in errors[:MAX_REPORTED]:
        lines.append(f"{json_path(list(err.absolute_path))}: {_message(err)}")
    more = f" (and {len(errors) - MAX_REPORTED} more)" if len(errors) > MAX_REPORTED else ""
    raise ModelError(f"{source}: not a valid kop-model/1 document: " + "; ".join(lines) + more)


# -- a quick validator for the subset of JSON Schema that the model schema uses ----------

_ANNOTATIONS = {"$schema", "$id", "title", "description", "$comment"}
_KEYWORDS = {"type", "required", "properties", "additionalProperties", "items", "pattern",
             "uniqueItems", "minItems", "minProperties", "const"} | _ANNOTATIONS
_TYPES: dict[str, Any] = {"object": dict, "array": list, "string": str, "integer": int, "number": (int, float)}


def _supported(sch: Any) -> bool:
    """Whether *sch* uses only keywords (and types) that :func:`_conforms` implements."""
    if isinstance(sch, bool):
        return True
    if not isinstance(sch, dict) or not set(sch) <= _KEYWORDS:
        return False
    types = sch.get("type", [])
    if any(t not in _TYPES for t in (types if isinstance(types, list) else [types])):
        return False
    subs = list(sch.get("properties", {}).values())
    for key in ("additionalProperties", "items"):
        if key in sch:
            subs.append(sch[key])
    return all(_supported(x) for x in subs)


@lru_cache(maxsize=1)
def _quick_schema() -> Any:
    sch = schema()
    return sch if _supported(sch) else None


def _conforms(x: Any, sch: Any) -> bool:
    """Whether *x* satisfies *sch* (only the keywords accepted by :func:`_supported`)."""
    import re

    if sch is True:
        return True
    if sch is False:
        return False
    t = sch.get("type")
    if t is not None:
        allowed = tuple(_TYPES[k] for k in (t if isinstance(t, list) else [t]))
        if not any(isinstance(x, k) for k in allowed) or isinstance(x, bool):
            return False
    if "const" in sch and not (x == sch["const"] and type(x) is type(sch["const"])):
        return False
    if isinstance(x, dict):
        if any(k not in x for k in sch.get("required", ())):
            return False
        if len(x) < sch.get("minProperties", 0):
            return False
        props = sch.get("properties", {})
        extra = sch.get("additionalProperties", True)
        for k, v in x.items():
            if not _conforms(v, props[k] if k in props else extra):
                return False
    elif isinstance(x, list):
        if len(x) < sch.get("minItems", 0):
            return False
        if sch.get("uniqueItems") and not _unique(x):
            return False
        if "items" in sch and not all(_conforms(v, sch["items"]) for v in x):
            return False
    elif isinstance(x, str):
        if "pattern" in sch and re.search(sch["pattern"], x) is None:
            return False
    return True


def _unique(items: list) -> bool:
    if all(isinstance(v, str) for v in items):
        return len(set(items)) == len(items)
    seen = [json.dumps(v, sort_keys=True) for v in items]
    return len(set(seen)) == len(seen)


def quick_valid(data: Any) -> bool:
    """True when *data* certainly conforms to the model schema (False: ask ``jsonschema``)."""
    sch = _quick_schema()
    return sch is not None and _conforms(data, sch)


def _message(err: Any) -> str:
    if err.validator == "required":
        return err.message.replace("is a required property", "is missing (required)")
    if err.validator == "pattern":
        return f"{err.instance!r} is not a valid name (expected the pattern {err.validator_value})"
    if err.validator == "type":
        return f"expected {err.validator_value}, found {json.dumps(err.instance)[:60]}"
    return err.message


def model_from_json(cls: type, data: Any, source: str | None = None) -> Any:
    """Build a model of class *cls* from a parsed ``kop-model/1`` document or its JSON text."""
    src = source or "model"
    if isinstance(data, (str, bytes)):
        data = parse_json(data if isinstance(data, str) else data.decode("utf-8", "replace"), src)
    validate_schema(data, src)
    try:
        return cls(worlds=data["worlds"], partitions=data["relations"], actual=data["actual"],
                   agents=data["agents"], plausibility=data.get("plausibility"),
                   probability=data.get("probability"))
    except ModelError as exc:
        raise ModelError(f"{src}: {exc}") from None


def dumps(doc: dict[str, Any]) -> str:
    """A ``kop-model/1`` document as JSON text, one world and one block per line."""
    d = json.dumps
    lines = ["{"]
    items = list(doc.items())
    for n, (key, value) in enumerate(items):
        comma = "," if n < len(items) - 1 else ""
        if key == "worlds" and isinstance(value, dict) and value:
            inner = ",\n".join(f"  {d(w)}: {d(a)}" for w, a in value.items())
            lines.append(f" {d(key)}: {{\n{inner}\n }}{comma}")
        elif key == "relations" and isinstance(value, dict) and value:
            parts = []
            for agent, blocks in value.items():
                body = ",\n".join(f"   {d(b)}" for b in blocks)
                parts.append(f"  {d(agent)}: [\n{body}\n  ]" if blocks else f"  {d(agent)}: []")
            lines.append(f" {d(key)}: {{\n" + ",\n".join(parts) + f"\n }}{comma}")
        else:
            lines.append(f" {d(key)}: {d(value)}{comma}")
    lines.append("}")
    return "\n".join(lines)
