"""The command line and the playground ask the theory layer through its façade, ``kop.theory``, only.

Issue 24 item 2: no module of ``kop/cli`` or ``kop/serve`` imports a module inside
``kop/theory`` (``kop.theory.questions``, ``kop.theory.answers``, ...); they import
``kop.theory`` (``TheoryRun``, ``load_theory``, ...).  Imports are read from the source
(every ``import`` and ``from ... import``, also inside functions and ``TYPE_CHECKING``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def theory_submodule_imports(source: str) -> list[tuple[int, str]]:
    """(line, module) of every import of a module inside ``kop.theory`` (not the package itself)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.startswith("kop.theory."):
                out.append((node.lineno, node.module))
            elif node.module == "kop.theory":   # from kop.theory import answers: a module, not the façade's name
                out += [(node.lineno, f"kop.theory.{a.name}") for a in node.names if _is_submodule(a.name)]
        elif isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.startswith("kop.theory.")]
    return sorted(out)


def _is_submodule(name: str) -> bool:
    """Is kop.theory.NAME a module of the package (a file or folder), not a name the façade exports?"""
    return (ROOT / "kop" / "theory" / f"{name}.py").exists() or (ROOT / "kop" / "theory" / name).is_dir()


def test_the_scanner_finds_what_it_must():
    src = ("from kop.theory.questions import contexts\nimport kop.theory.grammar\n"
           "def f():\n    from kop.theory import answers\n    from kop.theory import TheoryRun, load_theory\n"
           "    import kop.theory\n    from kop.theoryx import y\n")
    assert theory_submodule_imports(src) == [(1, "kop.theory.questions"), (2, "kop.theory.grammar"),
                                             (4, "kop.theory.answers")]


@pytest.mark.parametrize("path", sorted((ROOT / "kop" / "cli").glob("*.py")) + sorted((ROOT / "kop" / "serve").glob("*.py")),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_cli_and_serve_import_the_theory_facade_only(path):
    found = theory_submodule_imports(path.read_text(encoding="utf-8"))
    assert found == [], f"{path.relative_to(ROOT)} imports inside the theory layer: {found}; use kop.theory"


def test_the_facade_exports_what_the_callers_use():
    import kop.theory

    for name in ("TheoryRun", "TheoryState", "Theory", "Answer", "Statement", "load_theory", "parse_theory",
                 "run_statements", "run_theory", "core_for", "read_regular", "read_confined", "resolve_confined"):
        assert name in kop.theory.__all__ and hasattr(kop.theory, name), name
