"""Data flows one way: no kop layer imports a layer above it."""

import ast
from pathlib import Path

import pytest

ORDER = ["syntax", "semantics", "reasoning", "stories", "games", "worlds", "selection", "agents", "theory",
         "experiments", "serve", "cli"]
ROOT = Path(__file__).resolve().parent.parent / "kop"


def _layer(module: str):
    parts = module.split(".")
    if parts[0] != "kop" or len(parts) < 2:
        return None
    top = parts[1]
    if top == "puzzles":
        return ORDER.index("semantics")
    return ORDER.index(top) if top in ORDER else None


def _files():
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT.parent).with_suffix("")
        mod = ".".join(rel.parts)
        if _layer(mod) is not None:
            yield path, mod


@pytest.mark.parametrize("path,module", list(_files()), ids=lambda x: str(x))
def test_no_upward_imports(path, module):
    own = _layer(module)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            layer = _layer(name)
            if layer is not None:
                assert layer <= own, f"{module} imports {name}: {ORDER[layer]} is above {ORDER[own]}"


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


def test_error_root_imports_no_layer():
    """``kop/errors.py`` (the root of every kop error) sits below every layer: it imports none."""
    tree = ast.parse((ROOT / "errors.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("kop"):
            raise AssertionError(f"kop/errors.py imports {node.module}")
        if isinstance(node, ast.Import):
            assert not any(a.name.startswith("kop") for a in node.names), "kop/errors.py imports kop"


def test_config_root_imports_no_kop_module():
    """``kop/config.py`` (the settings of each context) is a root like ``kop/errors.py``: it imports no kop module,
    not even through ``from kop import ...``."""
    tree = ast.parse((ROOT / "config.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0 and not (node.module or "").startswith("kop"), f"kop/config.py imports {node.module}"
        if isinstance(node, ast.Import):
            assert not any(a.name.startswith("kop") for a in node.names), "kop/config.py imports kop"
