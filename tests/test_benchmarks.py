"""Every benchmark in benchmarks/ still runs (issue 29): ``--help`` and a ``--quick`` mode, spawned as a user
runs them, so that none can rot unnoticed.  ``--quick`` uses small sizes and takes seconds; its figures
are not measurements (the full runs are)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = sorted(p.name for p in (ROOT / "benchmarks").glob("*.py")
                    if "__main__" in p.read_text(encoding="utf-8"))

pytestmark = pytest.mark.benchmarks


def _run(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED="0")
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / name), *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=300)


def test_every_benchmark_is_found() -> None:
    assert len(BENCHMARKS) >= 15 and "theories.py" in BENCHMARKS and "timing.py" not in BENCHMARKS


@pytest.mark.parametrize("name", BENCHMARKS)
def test_benchmark_help(name: str) -> None:
    r = _run(name, "--help")
    assert r.returncode == 0 and "usage:" in r.stdout and "--quick" in r.stdout, r.stdout + r.stderr


@pytest.mark.parametrize("name", BENCHMARKS)
def test_benchmark_quick(name: str) -> None:
    r = _run(name, "--quick")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-4000:]
    assert r.stdout.strip() and "Traceback" not in r.stderr
