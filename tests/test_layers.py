"""Data flows one way: no kop package imports a package on its own floor or above it.

The floors (documented in ``docs/architecture.md``) are read from the bottom up; packages on one floor
are siblings and do not import each other.  The root modules ``kop.errors`` and ``kop.config`` import
no kop module at all.  One exception, python-chess's ``Board._repr_svg_``: a value type's method may
import ``kop.io`` (``.load()``, ``.save()``) or ``kop.drawing`` (``.draw()``, ``_repr_svg_``) inside its
body, so that ``model.draw()`` works while the picture code sits above the value.
"""

import ast
from pathlib import Path

import pytest

FLOORS = [
    ["syntax", "bdd"],
    ["semantics"],
    ["reasoning", "games", "stories", "puzzles"],
    ["io", "drawing", "worlds", "selection"],
    ["agents", "theory", "experiments"],
    ["serve"],
    ["cli"],
]
ROOTS = {"errors", "config"}
#: packages a value type's method may import from below (inside a function body only)
METHOD_ONLY = {"io", "drawing"}
ROOT = Path(__file__).resolve().parent.parent / "kop"
FLOOR = {pkg: i for i, floor in enumerate(FLOORS) for pkg in floor}


def _package(module: str):
    parts = module.split(".")
    if parts[0] != "kop" or len(parts) < 2:
        return None
    return parts[1]


def _files():
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT.parent).with_suffix("")
        mod = ".".join(rel.parts)
        if _package(mod) in FLOOR or _package(mod) in ROOTS:
            yield path, mod


def _imports(tree):
    """(imported module, inside a function body) for every absolute import in *tree*."""
    def walk(node, in_function):
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                for a in child.names:
                    yield a.name, in_function
            elif isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                yield child.module, in_function
            yield from walk(child, inner)
    yield from walk(tree, False)


def test_every_package_has_a_floor():
    packages = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages <= set(FLOOR), f"packages without a floor: {sorted(packages - set(FLOOR))}"


@pytest.mark.parametrize("path,module", list(_files()), ids=lambda x: str(x))
def test_no_upward_imports(path, module):
    own = _package(module)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for name, in_function in _imports(tree):
        other = _package(name)
        if other is None or other == own:
            continue
        if own in ROOTS:
            raise AssertionError(f"{module} imports {name}: the root modules import no kop module")
        if other in ROOTS:
            continue
        if FLOOR[other] < FLOOR[own]:
            continue
        if in_function and other in METHOD_ONLY:
            continue
        where = "on its own floor" if FLOOR[other] == FLOOR[own] else "above it"
        raise AssertionError(f"{module} imports {name}: {other} is {where} ({own} is on floor {FLOOR[own] + 1})")


def test_exports_have_no_duplicate_names():
    """A name listed twice in kop._EXPORTS silently takes the later module."""
    tree = ast.parse((ROOT / "__init__.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == "_EXPORTS":
            keys = [k.value for k in node.value.keys if isinstance(k, ast.Constant)]
            dup = sorted({k for k in keys if keys.count(k) > 1})
            assert not dup, f"listed twice in kop._EXPORTS: {dup}"
            return
    raise AssertionError("kop._EXPORTS not found")


def test_config_root_imports_no_kop_module():
    """``kop/config.py`` (the settings of each context) is a root like ``kop/errors.py``: it imports no kop module,
    not even through ``from kop import ...`` (which the floor test above does not see)."""
    tree = ast.parse((ROOT / "config.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0 and not (node.module or "").startswith("kop"), f"kop/config.py imports {node.module}"
        if isinstance(node, ast.Import):
            assert not any(a.name.startswith("kop") for a in node.names), "kop/config.py imports kop"
