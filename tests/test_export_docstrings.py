"""Every callable exported from ``kop`` has a numpydoc docstring: Parameters, Returns and Examples.

The rules: a function or class that takes arguments documents them (``Parameters``; a class may
document its fields as ``Attributes`` instead), a function whose return annotation is not ``None``
has ``Returns`` (or ``Yields``), and every one has an ``Examples`` section with at least one
``>>>`` example (the examples run as doctests: ``--doctest-modules``).  Values (``kop.TRUE``) carry
no docstring of their own and are left out.

``python tests/test_export_docstrings.py`` lists what each exported name still lacks.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import kop

#: a numpydoc section heading: a title line underlined with dashes
SECTION = re.compile(r"^([A-Z][A-Za-z ]*)\n-{3,}[ \t]*$", re.M)


def sections(doc: str) -> dict[str, str]:
    """The numpydoc sections of a (cleaned) docstring: heading -> body."""
    found = list(SECTION.finditer(doc))
    return {m.group(1).strip(): doc[m.end():found[i + 1].start() if i + 1 < len(found) else len(doc)]
            for i, m in enumerate(found)}


def _parameters(obj: Any) -> list[str]:
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return []
    return [p for p in signature.parameters if p not in ("self", "cls")]


def _returns(obj: Any) -> bool:
    annotation = inspect.signature(obj).return_annotation
    return annotation not in (None, "None", type(None))


def lacks(name: str) -> list[str]:
    """What the docstring of ``kop.<name>`` lacks: section names (empty when it is complete)."""
    return missing_sections(getattr(kop, name))


def missing_sections(obj: Any) -> list[str]:
    """The numpydoc sections the docstring of the function or class *obj* lacks."""
    have = sections(inspect.cleandoc(obj.__doc__ or ""))
    missing = []
    if _parameters(obj) and "Parameters" not in have and not (inspect.isclass(obj) and "Attributes" in have):
        missing.append("Parameters")
    if not inspect.isclass(obj) and _returns(obj) and not {"Returns", "Yields"} & set(have):
        missing.append("Returns")
    if ">>>" not in have.get("Examples", ""):
        missing.append("Examples")
    return missing


def exported_callables() -> list[str]:
    """The names of ``kop._EXPORTS`` that are functions or classes."""
    return [name for name in kop._EXPORTS if callable(getattr(kop, name))]


def test_the_section_reader_finds_numpydoc_sections() -> None:
    doc = inspect.cleandoc(kop.parse.__doc__ or "")
    assert {"Parameters", "Returns", "Examples"} <= set(sections(doc))
    assert lacks("parse") == []
    assert sections("One line.\n\nExample\n-------\n>>> 1\n1\n") == {"Example": "\n>>> 1\n1\n"}


def test_a_one_line_docstring_lacks_every_section() -> None:
    def double(x: int) -> int:
        """Twice *x*."""
        return 2 * x

    def hello() -> None:
        """Print a greeting."""

    assert missing_sections(double) == ["Parameters", "Returns", "Examples"]
    assert missing_sections(hello) == ["Examples"]


def test_every_exported_callable_has_parameters_returns_and_examples() -> None:
    names = exported_callables()
    assert len(names) > 150
    gaps = {name: what for name in names if (what := lacks(name))}
    assert gaps == {}, f"exported names whose docstrings lack numpydoc sections: {gaps}"


if __name__ == "__main__":
    for name in exported_callables():
        if what := lacks(name):
            print(f"{kop._EXPORTS[name]:40} {name:24} lacks {', '.join(what)}")
