"""What CI promises: every Python of the classifiers in ``.ci/run``, the tools in dependency groups (not in the
``test`` extra), and coverage per layer against floors written in ``pyproject.toml`` (tests/coverage_layers.py)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import coverage_layers
import pytest
from coverage_layers import Layer, layer_of, measure, table

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(not (ROOT / "pyproject.toml").is_file(), reason="run from a checkout or sdist")


def _pyproject() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as fh:
        return tomllib.load(fh)


def test_ci_runs_every_python_of_the_classifiers() -> None:
    classified = {c.rsplit(" ", 1)[1] for c in _pyproject()["project"]["classifiers"]
                  if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)}
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    loop = re.search(r"^for version in ([\d. ]+); do$", run, flags=re.M)
    assert loop is not None
    requires = _pyproject()["project"]["requires-python"].removeprefix(">=")     # python3: the oldest
    assert classified == {requires, *loop.group(1).split()}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert run.splitlines()[-1] in readme
    says = readme[readme.index("`.ci/run` is what CI runs"):]
    says = says[:says.index("\n\n")]
    assert all(v in says for v in classified), says


def test_tools_are_dependency_groups_not_the_test_extra() -> None:
    meta = _pyproject()
    extra = " ".join(meta["project"]["optional-dependencies"]["test"])
    for tool in ("mypy", "open_spiel", "pygambit", "sphinx", "radon"):
        assert tool not in extra
    groups = meta["dependency-groups"]
    names = {g: " ".join(r if isinstance(r, str) else "" for r in reqs) for g, reqs in groups.items()}
    assert "mypy" in names["lint"] and "radon" in names["lint"] and "sphinx" in names["docs"]
    assert "open_spiel" in names["test"] and "pygambit" in names["test"] and "pytest-cov" in names["runner"]
    assert {"include-group": "runner"} in groups["test"]


def test_floors_name_layers_of_kop() -> None:
    listed, default = coverage_layers.floors()
    layers = {p.name for p in (ROOT / "kop").iterdir() if (p / "__init__.py").is_file()} | {coverage_layers.TOP}
    assert set(listed) <= layers, sorted(set(listed) - layers)
    assert all(0 <= f <= 100 for f in [*listed.values(), default])


class _Coverage:
    """A stand-in for coverage.Coverage: statements 1..n of each file, *missed* ("folder/file.py") of them
    missed, all of them for a file not named."""

    def __init__(self, missed: dict[str, int], statements: int = 10) -> None:
        self.missed, self.statements = missed, statements

    def analysis2(self, path: str) -> tuple[str, list[int], list[int], list[int], str]:
        lines = list(range(1, self.statements + 1))
        return path, lines, [], lines[:self.missed.get("/".join(Path(path).parts[-2:]), self.statements)], ""


def test_measure_counts_every_file_of_a_layer_imported_or_not(tmp_path: Path) -> None:
    package = tmp_path / "kop"
    for name in ("__init__.py", "errors.py", "conftest.py", "syntax/__init__.py", "syntax/ast.py",
                 "newroom/__init__.py", "newroom/deep/thing.py"):
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text("x = 1\n")
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("[tool.kop.coverage]\ndefault = 50\n[tool.kop.coverage.floors]\nsyntax = 90\nkop = 10\n")
    # thing.py was never imported: all its statements are missed
    cov = _Coverage({"kop/__init__.py": 0, "kop/errors.py": 5, "syntax/__init__.py": 0, "syntax/ast.py": 1})
    layers = {layer.name: layer for layer in measure(cov, package, pyproject)}
    assert set(layers) == {"kop", "syntax", "newroom"}               # conftest.py is left out
    assert (layers["kop"].statements, layers["kop"].missing, layers["kop"].floor) == (20, 5, 10)
    assert (layers["syntax"].percent, layers["syntax"].ok) == (95.0, True)
    assert (layers["newroom"].missing, layers["newroom"].floor, layers["newroom"].ok) == (20, 50, False)
    assert layer_of(package, package / "newroom" / "deep" / "thing.py") == "newroom"
    lines = table(sorted(layers.values(), key=lambda layer: layer.name))
    assert [line.split()[0] for line in lines] == ["layer", "kop", "newroom", "syntax", "total"]
    assert "BELOW THE FLOOR" in lines[2] and "BELOW" not in lines[1] + lines[3]
    assert lines[-1].split()[1:4] == ["60", "26", "56.7%"]


def test_a_layer_without_statements_is_covered() -> None:
    assert Layer("empty", 0, 0, 100).ok
