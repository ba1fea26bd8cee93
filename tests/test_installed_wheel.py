"""The wheel, installed and run outside the repository, passes its docstring examples.

Builds the wheel from a copy of the package's sources (pip, with the setuptools already installed
here when there is one, so no network is needed), installs it into a fresh virtual environment that
sees this environment's packages (a ``.pth`` file: kop's dependencies and pytest come from here, kop
itself only from the wheel), and runs ``pytest --doctest-modules --pyargs kop`` in an empty
directory.  An example that opens ``theories/...`` by a relative path, or needs a file the wheel
does not carry, fails here.  ``KOP_TEST_WHEEL=PATH`` tests that wheel instead of building one
(``.ci/run`` builds its wheel once and installs it in every environment).  Skipped when no wheel can be built (no pip, or neither setuptools here
nor an index to fetch it from).  Slow (it runs every example again): ``-m slow``; ``.ci/run`` runs it.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: what the wheel is built from (pyproject.toml's readme, license-files, packages)
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "CHANGELOG.md", "MANIFEST.in", "kop")

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not (ROOT / "pyproject.toml").is_file(), reason="needs the package's sources")]


def _has(module: str) -> bool:
    done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True)
    return done.returncode == 0


def _build_wheel(tmp: Path) -> Path:
    given = os.environ.get("KOP_TEST_WHEEL")       # .ci/run builds the wheel once and names it here
    if given:
        return Path(given).resolve()
    if not _has("pip"):
        pytest.skip("pip is not installed: no wheel can be built")
    src = tmp / "src"
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.py[co]"))
        else:
            src.mkdir(exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    local = _has("setuptools")       # build with it, offline; otherwise pip fetches the build requirements
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-cache-dir", "-q", "-w", str(tmp / "dist"),
               *(["--no-build-isolation"] if local else []), str(src)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if done.returncode != 0 and not local:
        pytest.skip(f"no setuptools here and pip could not fetch it: {done.stderr.strip()[-300:]}")
    assert done.returncode == 0, done.stdout + done.stderr
    wheels = list((tmp / "dist").glob("kop_epistemic-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def _environment(tmp: Path) -> Path:
    """A virtual environment without kop that imports everything this one has; its python."""
    where = tmp / "venv"
    venv.EnvBuilder(with_pip=False, symlinks=os.name != "nt").create(where)
    python = where / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    here = [*site.getsitepackages(), site.getusersitepackages()]
    parents = [p for p in dict.fromkeys(here) if os.path.isdir(p) and Path(p).resolve() != ROOT]
    (Path(purelib) / "kop_test_parent_env.pth").write_text("\n".join(parents) + "\n", encoding="utf-8")
    return python


def test_installed_wheel_passes_its_doctests_outside_the_repository(tmp_path: Path) -> None:
    wheel = _build_wheel(tmp_path)
    python = _environment(tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTEST_ADDOPTS")}
    env["KOP_CACHE_DIR"] = str(tmp_path / "cache")
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--ignore-installed",
                    str(wheel)], check=True, env=env, timeout=600)
    away = tmp_path / "elsewhere"
    away.mkdir()
    where = subprocess.run([str(python), "-c", "import kop; print(kop.__file__)"], capture_output=True, text=True,
                           check=True, env=env, cwd=away).stdout.strip()
    assert Path(where).is_relative_to(tmp_path / "venv"), f"kop came from {where}, not the wheel"
    done = subprocess.run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "--doctest-modules",
                           "--pyargs", "kop"], capture_output=True, text=True, env=env, cwd=away, timeout=1800)
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "failed" not in summary and "error" not in summary, summary
    passed = int(summary.split(" passed")[0].split()[-1])
    assert passed >= 250, summary       # kop's docstrings with examples (298 when this test was written)
