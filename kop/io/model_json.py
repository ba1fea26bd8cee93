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
kop.errors.ModelError: model: $.worlds: duplicate world name 'w0' (line 1, column 40)
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from kop.errors import KopError, LimitError
from kop.semantics.bitset_checker import members
from kop.semantics.errors import ModelError
from kop.syntax.files import read_text as guarded_read
from kop.io.jsontext import JsonError, json_path, loads_json

if TYPE_CHECKING:  # pragma: no cover
    from jsonschema.exceptions import ValidationError

    from kop.semantics.model_value import ModelValue

    M = TypeVar("M", bound=ModelValue)


__all__ = ["FORMAT", "read_text", "parse_json", "validate_schema", "quick_valid", "model_from_json", "load_model",
           "model_to_json", "save_model", "schema", "dumps"]

#: The format tag written into JSON model files.
FORMAT = "kop-model/1"

#: How many schema violations one error message lists.
MAX_REPORTED = 3
#: The deepest JSON nesting a model file may have (a model needs 3 levels).
MAX_DEPTH = 200


def read_text(path: str | Path) -> str:
    """The text of a model file, or a :class:`ModelError` saying why it cannot be read.

    Read by the guarded reader (:mod:`kop.syntax.files`): regular files only, within the size cap.
    """
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
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


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
        return _conforms_object(x, sch)
    if isinstance(x, list):
        return _conforms_array(x, sch)
    if isinstance(x, str):
        return "pattern" not in sch or re.search(sch["pattern"], x) is not None
    return True


def _conforms_object(x: dict[str, Any], sch: Any) -> bool:
    """The object keywords: ``required``, ``minProperties``, ``properties``, ``additionalProperties``."""
    if any(k not in x for k in sch.get("required", ())):
        return False
    if len(x) < sch.get("minProperties", 0):
        return False
    props = sch.get("properties", {})
    extra = sch.get("additionalProperties", True)
    return all(_conforms(v, props[k] if k in props else extra) for k, v in x.items())


def _conforms_array(x: list[Any], sch: Any) -> bool:
    """The array keywords: ``minItems``, ``uniqueItems``, ``items``."""
    if len(x) < sch.get("minItems", 0):
        return False
    if sch.get("uniqueItems") and not _unique(x):
        return False
    return "items" not in sch or all(_conforms(v, sch["items"]) for v in x)


def _unique(items: list[Any]) -> bool:
    if all(isinstance(v, str) for v in items):
        return len(set(items)) == len(items)
    seen = [json.dumps(v, sort_keys=True) for v in items]
    return len(set(seen)) == len(seen)


def quick_valid(data: Any) -> bool:
    """True when *data* certainly conforms to the model schema (False: ask ``jsonschema``)."""
    sch = _quick_schema()
    return sch is not None and _conforms(data, sch)


def _message(err: ValidationError) -> str:
    message: str = err.message  # (jsonschema leaves it untyped)
    if err.validator == "required":
        return message.replace("is a required property", "is missing (required)")
    if err.validator == "pattern":
        return f"{err.instance!r} is not a valid name (expected the pattern {err.validator_value})"
    if err.validator == "type":
        return f"expected {err.validator_value}, found {json.dumps(err.instance)[:60]}"
    return message


def model_from_json(cls: type[M], data: Any, source: str | None = None) -> M:
    """A model of class *cls* from a parsed ``kop-model/1`` document or its JSON text.

    Parameters
    ----------
    cls : type
        The class to build, :class:`~kop.semantics.model.KripkeModel` (or a subclass).
    data : dict, str or bytes
        The document, parsed or as JSON text.
    source : str, optional
        What to call the document in error messages (default ``"model"``).

    Returns
    -------
    KripkeModel

    Raises
    ------
    ModelError
        Malformed JSON (line and column), a duplicate key or a schema violation
        (the JSON path), or a model error (the agent and world).

    Examples
    --------
    >>> from kop import KripkeModel
    >>> m = model_from_json(KripkeModel, {"agents": ["a"], "worlds": {"w0": ["p"]},
    ...                                   "relations": {"a": [["w0"]]}, "actual": ["w0"]})
    >>> m.satisfies("K_a p")
    True
    """
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


def load_model(cls: type[M], path: str | Path) -> M:
    """A model of class *cls* read from the ``kop-model/1`` JSON file *path*.

    Parameters
    ----------
    cls : type
        :class:`~kop.semantics.model.KripkeModel` (or a subclass).
    path : str or Path

    Returns
    -------
    KripkeModel

    Raises
    ------
    ModelError
        The file cannot be read, or as :func:`model_from_json` (the message starts with the path).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from kop import KripkeModel
    >>> m = KripkeModel({"u": ["p"], "v": []}, {"a": [["u", "v"]]}, "u")
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     save_model(m, pathlib.Path(tmp) / "m.json")
    ...     load_model(KripkeModel, pathlib.Path(tmp) / "m.json") == m
    True
    """
    return model_from_json(cls, read_text(path), source=str(path))


def model_to_json(model: ModelValue) -> dict[str, Any]:
    """*model* in the JSON format ``kop-model/1``: a dict ready for ``json.dump`` (see ``docs/formats.md``).

    Parameters
    ----------
    model : KripkeModel

    Returns
    -------
    dict
        ``format``, ``agents``, ``worlds`` (name -> sorted atoms), ``relations``
        (agent -> blocks), ``actual``, and ``plausibility``/``probability`` when
        the model has them.

    Examples
    --------
    >>> from kop import KripkeModel
    >>> doc = model_to_json(KripkeModel({"u": ["p"], "v": []}, {"a": [["u", "v"]]}, "u"))
    >>> doc["format"], doc["worlds"], doc["relations"], doc["actual"]
    ('kop-model/1', {'u': ['p'], 'v': []}, {'a': [['u', 'v']]}, ['u'])
    """
    val: list[list[str]] = [[] for _ in range(len(model))]
    bits = model._bits
    if bits is not None:
        for p, mask in sorted(bits.atoms.items()):
            for i in members(mask):
                val[i].append(p)
    else:
        atoms = model._atoms
        for p in sorted(atoms):
            for i in atoms[p].nonzero()[0].tolist():
                val[i].append(p)
    doc: dict[str, Any] = {
        "format": FORMAT,
        "agents": list(model.agents),
        "worlds": {w: val[i] for i, w in enumerate(model.worlds)},
        "relations": {a: [list(b) for b in model.partition(a)] for a in model.agents},
        "actual": list(model.actual),
    }
    if model._unc:
        doc.update(model._unc.to_json(model.worlds))
    return doc


def save_model(model: ModelValue, path: str | Path) -> None:
    """Write *model* to *path* as ``kop-model/1`` JSON (:func:`model_to_json`, laid out by :func:`dumps`).

    Parameters
    ----------
    model : KripkeModel
    path : str or Path

    Returns
    -------
    None

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from kop import KripkeModel
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     save_model(KripkeModel(["u"], {"a": [["u"]]}), pathlib.Path(tmp) / "m.json")
    ...     print((pathlib.Path(tmp) / "m.json").read_text().splitlines()[1])
     "format": "kop-model/1",
    """
    Path(path).write_text(dumps(model_to_json(model)) + "\n", encoding="utf-8")


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
