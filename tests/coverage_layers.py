"""Line coverage per layer of kop, checked against the floors written in ``pyproject.toml``.

A layer is a top-level package of kop (``kop/<name>/``, so a new package is picked up by itself);
``kop`` stands for the top-level modules (``kop/errors.py``, ``kop/config.py``, ...).  The floors are
``[tool.kop.coverage.floors]``; a layer not listed there has ``[tool.kop.coverage] default``.

``.ci/run`` measures coverage with pytest-cov (``--cov=kop``) in its Python 3.11 run; ``tests/conftest.py``
then prints this table at the end of that run and fails the run when a layer is below its floor.  By hand,
after ``pytest --cov=kop``: ``python tests/coverage_layers.py [DATA_FILE]`` (default ``.coverage``).
"""

from __future__ import annotations

import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TOP = "kop"                     # the layer name of kop's top-level modules


@dataclass(frozen=True)
class Layer:
    """One layer's line counts and floor."""

    name: str
    statements: int
    missing: int
    floor: float

    @property
    def percent(self) -> float:
        return 100.0 if self.statements == 0 else 100.0 * (self.statements - self.missing) / self.statements

    @property
    def ok(self) -> bool:
        return self.percent >= self.floor


def floors(pyproject: Path = ROOT / "pyproject.toml") -> tuple[dict[str, float], float]:
    """The floors per layer and the default floor, from ``[tool.kop.coverage]``."""
    with open(pyproject, "rb") as fh:
        table = tomllib.load(fh)["tool"]["kop"]["coverage"]
    return {k: float(v) for k, v in table.get("floors", {}).items()}, float(table["default"])


def layer_of(package: Path, source: Path) -> str:
    """The layer of the source file *source* of the package folder *package* (``kop/``)."""
    parts = source.relative_to(package).parts
    return parts[0] if len(parts) > 1 else TOP


def measure(cov: Any, package: Path, pyproject: Path = ROOT / "pyproject.toml") -> list[Layer]:
    """Every layer of the package folder *package*, from the (loaded or combined) ``coverage.Coverage`` *cov*.

    Every ``.py`` file under the package counts, imported or not (a file no test imports has all its
    statements missing); the files coverage's configuration omits (``kop/conftest.py``) do not.
    """
    listed, default = floors(pyproject)
    omitted = {package / "conftest.py"}
    counts: dict[str, list[int]] = {}
    for source in sorted(package.rglob("*.py")):
        if source in omitted or "__pycache__" in source.parts:
            continue
        _, statements, _, missing, _ = cov.analysis2(str(source))
        total = counts.setdefault(layer_of(package, source), [0, 0])
        total[0] += len(statements)
        total[1] += len(missing)
    return [Layer(name, s, m, listed.get(name, default)) for name, (s, m) in sorted(counts.items())]


def table(layers: list[Layer]) -> list[str]:
    """The lines of the per-layer table: statements, missed, percent, floor, and a mark below the floor."""
    lines = [f"{'layer':<14}{'stmts':>8}{'miss':>8}{'cover':>8}{'floor':>8}"]
    for layer in layers:
        mark = "" if layer.ok else "   BELOW THE FLOOR"
        lines.append(f"{layer.name:<14}{layer.statements:>8}{layer.missing:>8}{layer.percent:>7.1f}%"
                     f"{layer.floor:>7.0f}%{mark}")
    statements = sum(layer.statements for layer in layers)
    missing = sum(layer.missing for layer in layers)
    lines.append(f"{'total':<14}{statements:>8}{missing:>8}{Layer('', statements, missing, 0).percent:>7.1f}%")
    return lines


def main(argv: list[str]) -> int:
    import coverage
    import kop

    cov = coverage.Coverage(data_file=argv[0] if argv else ".coverage", config_file=str(ROOT / "pyproject.toml"))
    cov.load()
    layers = measure(cov, Path(kop.__file__).resolve().parent)
    print("\n".join(table(layers)))
    return 0 if all(layer.ok for layer in layers) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
