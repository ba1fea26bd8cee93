"""Every kop module's docstring examples run as shown (modules added later are found automatically)."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil

import pytest

import kop

#: third-party packages of kop's extras: a module needing one that is not installed is skipped
OPTIONAL = {"matplotlib", "pyspiel", "open_spiel", "distributed", "dask", "pyarrow", "resvg_py"}

MODULES = sorted(m.name for m in pkgutil.walk_packages(kop.__path__, prefix="kop.") if not m.name.endswith("__main__"))


def test_modules_are_found() -> None:
    assert {"kop.syntax.formula", "kop.cli.app", "kop.semantics.model"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ImportError as exc:
        if exc.name and exc.name.split(".")[0] in OPTIONAL:
            pytest.skip(f"needs the optional package {exc.name}")
        raise
    for needed in getattr(module, "__doctest_requires__", ()):
        if importlib.util.find_spec(needed) is None:
            pytest.skip(f"its examples need the optional package {needed}")
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    for test in finder.find(module, name):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} fail (see output above)"
