"""Module headers show the dependencies (issue 24, item 7): honest imports, no cycles.

* The graph of module-level imports between kop modules (``if TYPE_CHECKING:`` blocks left out)
  has no cycle.
* No function imports ``from kop.X`` when its file already imports ``kop.X`` at the top: the import
  belongs there.
* With the function-level imports added, the graph has no cycle either, except through the imports
  a value type makes inside its methods to reach the code that reads, writes or draws it (a value
  type's ``.load()``, ``.draw()``, ``_repr_svg_`` into ``kop.io`` / ``kop.drawing``, which
  ``tests/test_layers.py`` allows, and a formula's ``__str__`` into the printer and its string
  coercion into the parser): those edges are listed below, and any other cycle fails.

Function-level imports that remain are the heavy optional packages', the CLI's start-up path
(``tests/cli/test_startup_imports.py``), those that would pull numpy or another heavy package
into a light command's start-up, and the value types' methods above.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KOP = ROOT / "kop"

#: function-level edges that may close a cycle: a value type reaching its reader, writer or picture
METHOD_EDGES = {
    ("kop.syntax.formula", "kop.syntax.printer"),   # Formula.__str__ / __repr__ / _repr_latex_
    ("kop.syntax.formula", "kop.syntax.parser"),    # a formula given as a string
    ("kop.syntax.arguments", "kop.syntax.parser"),  # arguments.formula: a formula given as a string
}
METHOD_PACKAGES = ("kop.io", "kop.drawing")

#: files other branches own while this test lands (issue 24): their repeated imports go with their changes
PENDING: set[str] = set()



def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(KOP.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _resolve(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rsplit(".", 1)[0] if "." in name else ""
    return name or None


def _targets(node: ast.AST) -> set[str]:
    """The kop modules an import statement loads (``from kop.a import b``: kop.a.b if a module, else kop.a)."""
    out: set[str | None] = set()
    if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("kop"):
        for a in node.names:
            full = f"{node.module}.{a.name}"
            out.add(full if full in MODULES else _resolve(node.module or ""))
    elif isinstance(node, ast.Import):
        out.update(_resolve(a.name) for a in node.names if a.name.startswith("kop"))
    return {t for t in out if t}


def _type_checking(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and ((isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
                                         or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def _imports(tree: ast.Module) -> tuple[set[str], list[tuple[str, int, set[str]]]]:
    """(modules imported at module level, [(function, line, modules)] imported inside functions)."""
    top: set[str] = set()
    inner: list[tuple[str, int, set[str]]] = []

    def walk(node: ast.AST, function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if _type_checking(child):
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                if function is None:
                    top.update(_targets(child))
                elif _targets(child):
                    inner.append((function, child.lineno, _targets(child)))
            inside = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
            walk(child, inside)

    walk(tree, None)
    return top, inner


PARSED = {m: _imports(ast.parse(p.read_text(encoding="utf-8"))) for m, p in MODULES.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_cycle_among_module_level_imports():
    graph = {m: top - {m} for m, (top, _) in PARSED.items()}
    assert _cycles(graph) == []


def test_no_function_imports_a_module_its_file_imports_at_the_top():
    repeats = []
    for m, (top, inner) in PARSED.items():
        rel = MODULES[m].relative_to(ROOT).as_posix()
        if rel in PENDING:
            continue
        repeats += [f"{rel}:{line} ({function}): {sorted(t & top)}" for function, line, t in inner if t & top]
    assert repeats == [], "move these imports to the top of their file:\n" + "\n".join(repeats)


def _from_below(module: str, target: str) -> bool:
    """An import of kop.io or kop.drawing from another package (a value type's method)."""
    package = ".".join(target.split(".")[:2])
    return package in METHOD_PACKAGES and not module.startswith(package)


def test_function_level_imports_close_no_cycle_but_a_value_types_own():
    graph = {m: set(top) for m, (top, _) in PARSED.items()}
    for m, (_, inner) in PARSED.items():
        for _, _, targets in inner:
            graph[m] |= {t for t in targets if (m, t) not in METHOD_EDGES and not _from_below(m, t)}
        graph[m].discard(m)
    assert _cycles(graph) == []


def test_pending_files_exist():
    """The exceptions name real files (drop an entry once its file is fixed)."""
    assert all((ROOT / rel).is_file() for rel in PENDING)
