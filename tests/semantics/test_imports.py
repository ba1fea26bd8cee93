"""No import cycles inside kop.semantics, not even through imports inside functions.

``KripkeModel`` (kop/semantics/model.py) is a value with conveniences that call
the algorithm modules; those modules work on the value
(:class:`~kop.semantics.model_value.ModelValue`) and never import model.py at
run time.  An import inside a function still counts here: it hides a cycle from
Python, not from a reader.  Imports under ``if TYPE_CHECKING:`` do not run and
are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

SEMANTICS = Path(__file__).resolve().parents[2] / "kop" / "semantics"


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for sub in node.body:
                skip.update(id(s) for s in ast.walk(sub))
    return skip


def runtime_imports(source: str, modules: set[str]) -> set[str]:
    """The modules of *modules* that *source* imports when it runs (anywhere but under TYPE_CHECKING)."""
    tree = ast.parse(source)
    skip = _type_checking_nodes(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)   # from kop.semantics import model
    return found & modules


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of *graph* (as a path that returns to its start), or None."""
    state: dict[str, int] = {}   # 1: on the current path, 2: done
    path: list[str] = []

    def visit(u: str) -> list[str] | None:
        state[u] = 1
        path.append(u)
        for v in sorted(graph.get(u, ())):
            if state.get(v) == 1:
                return path[path.index(v):] + [v]
            if v not in state:
                found = visit(v)
                if found:
                    return found
        path.pop()
        state[u] = 2
        return None

    for u in sorted(graph):
        if u not in state:
            found = visit(u)
            if found:
                return found
    return None


def semantics_graph() -> dict[str, set[str]]:
    files = {f"kop.semantics.{p.stem}": p for p in SEMANTICS.glob("*.py") if p.stem != "__init__"}
    names = set(files)
    return {mod: runtime_imports(path.read_text(encoding="utf-8"), names) - {mod} for mod, path in files.items()}


def test_no_import_cycle_in_semantics():
    cycle = find_cycle(semantics_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_algorithms_do_not_import_the_convenience_class():
    graph = semantics_graph()
    for algorithm in ("bisimulation", "update", "observations", "checker", "checks", "evaluate",
                      "model_build", "model_value", "bitset_checker", "upgrade", "nxgraph"):
        assert "kop.semantics.model" not in graph[f"kop.semantics.{algorithm}"], algorithm


def test_the_probe_sees_a_cycle_through_an_import_inside_a_function():
    modules = {"kop.semantics.a", "kop.semantics.b"}
    a = "from kop.semantics.b import f\n"
    b = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from kop.semantics.a import g\n"
         "def f():\n    from kop.semantics import a\n    return a\n")
    graph = {"kop.semantics.a": runtime_imports(a, modules), "kop.semantics.b": runtime_imports(b, modules)}
    assert find_cycle(graph) == ["kop.semantics.a", "kop.semantics.b", "kop.semantics.a"]
    b_typing_only = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from kop.semantics.a import g\n"
    graph["kop.semantics.b"] = runtime_imports(b_typing_only, modules)
    assert find_cycle(graph) is None
