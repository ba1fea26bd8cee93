"""Benchmark: what the settings per context (``kop.config``) cost, against the process-wide globals they replaced.

Usage::

    python benchmarks/context.py                       # the calls, and the theories in this checkout
    python benchmarks/context.py --root ../old-checkout  # the same theories run by another checkout, side by side
    python benchmarks/context.py --quick               # small sizes (seconds; not a measurement)

1. **The calls on hot paths**, in this process: ``check_deadline()`` (a context variable read, then
   the deadline compared) and a remembered prover answer (``Memo.get``, under a lock), each next
   to the process-wide version it replaced, written out below as the baseline (a module global
   read; a plain ``dict.get``).  CPU seconds per million calls (best of the repeats), and the ratio.
2. **Whole theories**: the CPU time of child processes that run ``theories/*.kop`` files with
   ``kop.run_theory`` (many deadline checks and prover questions each), median of the runs
   (``resource.getrusage(RUSAGE_CHILDREN)``: the child alone, not the wall clock of a shared
   machine).  With ``--root``, the same files run by the other checkout's kop, and the ratio.
   Children keep their bytecode under the temporary directory (``PYTHONPYCACHEPREFIX``), so the
   other checkout is only read.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

THEORIES = ["figure2.kop", "muddy3.kop", "cheryl.kop"]
_CHILD = "import sys, kop\nfor path in sys.argv[1:]:\n    kop.run_theory(kop.load_theory(path))\n"


def _cpu(fn, calls: int, repeat: int) -> float:
    """Least CPU seconds per million calls of *fn* over *repeat* rounds of *calls* calls."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for _ in range(calls):
            fn()
        best = min(best, time.process_time() - t0)
    return best / calls * 1e6


# the baselines: the process-wide implementations kop had before kop.config
_end: float | None = None
_seconds: float | None = None


def _old_check_deadline() -> None:
    if _end is not None and time.process_time() >= _end:
        raise RuntimeError("out of time")


def calls(n: int, repeat: int) -> list[tuple[str, float, float]]:
    from kop import config
    from kop.syntax.budget import check_deadline

    global _end, _seconds
    rows = []
    rows.append(("check_deadline(), no limit", _cpu(check_deadline, n, repeat), _cpu(_old_check_deadline, n, repeat)))
    _end, _seconds = time.process_time() + 3600, 3600.0
    with config.using(timeout=3600):
        rows.append(("check_deadline(), a limit", _cpu(check_deadline, n, repeat), _cpu(_old_check_deadline, n, repeat)))
    _end = _seconds = None
    memo, table = config.Memo(4096), {}
    for i in range(100):
        memo.put(i, i)
        table[i] = i
    rows.append(("remembered answer (Memo.get)", _cpu(lambda: memo.get(42), n, repeat),
                 _cpu(lambda: table.get(42), n, repeat)))
    return rows


def _child_cpu(root: Path, files: list[str]) -> float:
    env = {**os.environ, "PYTHONPATH": str(root),
           "PYTHONPYCACHEPREFIX": os.path.join(tempfile.gettempdir(), f"kop-bench-context-{os.getuid()}")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", _CHILD, *files], cwd=root, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def theories(other: Path | None, runs: int, names: list[str]) -> list[tuple[str, float, float | None]]:
    rows = []
    for name in names:
        files = [str(ROOT / "theories" / name)]
        roots = [ROOT] + ([other] if other is not None else [])
        for r in roots:
            _child_cpu(r, files)            # the first run fills caches (bytecode, grammar tables)
        mine = statistics.median(_child_cpu(ROOT, files) for _ in range(runs))
        theirs = statistics.median(_child_cpu(other, files) for _ in range(runs)) if other is not None else None
        rows.append((name, mine, theirs))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 epilog="Run from anywhere; the theories are read from this checkout.")
    ap.add_argument("--root", type=Path, help="another checkout of kop to run the same theories with (the baseline)")
    ap.add_argument("--runs", type=int, default=5, help="runs of each theory (median; default 5)")
    ap.add_argument("--calls", type=int, default=1_000_000, help="calls per round of the hot-path timings")
    ap.add_argument("--quick", action="store_true", help="small sizes: seconds, not a measurement")
    args = ap.parse_args(argv)
    n, repeat, runs, names = args.calls, 5, args.runs, THEORIES
    if args.quick:
        n, repeat, runs, names = 20_000, 2, 1, THEORIES[:1]
    print("CPU seconds per million calls (best of %d rounds of %d calls)" % (repeat, n))
    print(f"{'call':34} {'kop.config':>11} {'global':>9} {'ratio':>7}")
    for label, new, old in calls(n, repeat):
        print(f"{label:34} {new:11.3f} {old:9.3f} {new / old:7.2f}")
    print()
    other = args.root.resolve() if args.root is not None else None
    print(f"CPU seconds of a child running the theory (median of {runs})")
    print(f"{'theory':20} {'this checkout':>14}" + (f" {'--root':>9} {'ratio':>7}" if other else ""))
    for name, mine, theirs in theories(other, runs, names):
        tail = f" {theirs:9.3f} {mine / theirs:7.2f}" if theirs is not None else ""
        print(f"{name:20} {mine:14.3f}{tail}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
