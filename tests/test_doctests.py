"""kop's docstring examples run in the suite, and those needing an optional extra skip cleanly without it.

The examples themselves are pytest's own doctest items: ``python -m pytest -q`` collects ``kop/``
with ``--doctest-modules`` (pyproject.toml), and ``kop/conftest.py`` sets their option flags and
skips a module's examples when a package of its ``__doctest_requires__`` is missing.  This file
checks that arrangement: that the suite's configuration runs them, and, with kop's extras hidden
by an import hook, that every module still imports and the examples that need an extra are
skipped rather than failed.
"""

from __future__ import annotations

import os
import pkgutil
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

import kop

ROOT = Path(__file__).resolve().parents[1]

#: import names of kop's extras (pyproject.toml's optional dependencies)
EXTRAS = ("matplotlib", "pyspiel", "open_spiel", "pygambit", "distributed", "dask", "pyarrow", "resvg_py")

#: a pytest plugin / import hook that hides the extras, as if they were not installed
HIDE_EXTRAS = textwrap.dedent(f"""
    import sys

    class HideExtras:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in {EXTRAS!r}:
                raise ModuleNotFoundError(f"No module named {{name!r}} (hidden by the test)", name=name)
            return None

    sys.meta_path.insert(0, HideExtras())
""")

MODULES = sorted(m.name for m in pkgutil.walk_packages(kop.__path__, prefix="kop.") if not m.name.endswith("__main__"))


def _env(hook_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}    # .ci/run's --cov is not the child's
    env["PYTHONPATH"] = os.pathsep.join([str(hook_dir), str(Path(kop.__file__).parents[1])])
    return env


def _requires_extras(name: str) -> bool:
    path = ROOT / (name.replace(".", "/") + ".py")
    return path.is_file() and "\n__doctest_requires__ = " in path.read_text(encoding="utf-8")


def test_the_suite_runs_the_docstring_examples() -> None:
    with open(ROOT / "pyproject.toml", "rb") as fh:
        options = tomllib.load(fh)["tool"]["pytest"]["ini_options"]
    assert "kop" in options["testpaths"] and "tests" in options["testpaths"]
    assert "--doctest-modules" in options["addopts"].split()
    assert set(options["doctest_optionflags"].split()) == {"NORMALIZE_WHITESPACE", "ELLIPSIS"}
    assert (ROOT / "kop" / "conftest.py").is_file()
    assert {"kop.syntax.formula", "kop.cli.app", "kop.semantics.model", "kop.conftest"} <= set(MODULES)


def test_every_module_imports_without_the_extras(tmp_path: Path) -> None:
    (tmp_path / "hide_extras.py").write_text(HIDE_EXTRAS, encoding="utf-8")
    code = ("import importlib, hide_extras, sys\n"
            "for name in sys.argv[1:]:\n"
            "    try:\n"
            "        importlib.import_module(name)\n"
            "    except ImportError as exc:\n"
            "        print(name, exc)\n"
            "import matplotlib\n")    # the hook hides the extras: this must fail
    done = subprocess.run([sys.executable, "-c", code, *MODULES], capture_output=True, text=True,
                          env=_env(tmp_path), cwd=tmp_path, timeout=300)
    assert "No module named 'matplotlib' (hidden by the test)" in done.stderr
    assert done.stdout == "", f"modules that need an extra to import:\n{done.stdout}"


def test_examples_needing_an_extra_are_skipped_without_it(tmp_path: Path) -> None:
    needing = [name for name in MODULES if _requires_extras(name)]
    declared = "".join((ROOT / (name.replace(".", "/") + ".py")).read_text(encoding="utf-8") for name in needing)
    for package in ("pyspiel", "pygambit", "matplotlib"):      # the OpenSpiel and Gambit bridges, the pictures
        assert f'__doctest_requires__ = ("{package}",)' in declared
    (tmp_path / "hide_extras.py").write_text(HIDE_EXTRAS, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "hide_extras", "-p", "no:cacheprovider",
                           "--doctest-modules", "-rs", "--pyargs", *needing],
                          capture_output=True, text=True, env=_env(tmp_path), cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    summary = done.stdout.strip().splitlines()[-1]
    assert "skipped" in summary and "failed" not in summary and "error" not in summary, done.stdout
    assert "passed" not in summary, done.stdout     # every example of these modules needs its extra
    for package in ("pyspiel", "pygambit", "matplotlib"):
        assert f"need the optional package {package}" in done.stdout
