"""Benchmark: the CPU time of whole ``kop`` processes, against a bare ``python -c pass``.

Usage::

    python benchmarks/startup.py            # 15 runs of each command
    python benchmarks/startup.py --runs 5   # quicker
    python benchmarks/startup.py --goal 0.15  # exit 1 if parse or check exceed 0.15 s
    python benchmarks/startup.py --root ../old-checkout   # the same commands on another checkout
    python benchmarks/startup.py --symbolic-goal 0.1      # exit 1 if a symbolic row exceeds 0.1 s

Each command runs as a child process (``python -m kop ...``, output discarded);
its CPU time (user + system) is read with ``resource.getrusage(RUSAGE_CHILDREN)``
before and after, so the figure counts the child alone, not the wall clock of
a shared machine.  The table gives the median over the runs and the ratio to
the median of ``python -c pass`` measured in the same run, with the same
interpreter.  The first run of each command is discarded (it fills caches:
bytecode, kop's grammar cache).  Children run as a user's shell runs them:
``PYTHONDONTWRITEBYTECODE`` is removed from their environment, so kop's modules
load from bytecode as they do after ``pip install``, not compiled anew each run.

The symbolic rows time the path that needs BDDs (``dd``/CUDD): a prover
question with distributed knowledge (type elimination on BDDs) and a small
knowledge structure built and checked from Python, next to ``import dd.cudd``
alone (which pulls in networkx; kop imports ``dd`` without it).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


STRUCTURE = ("from kop import KnowledgeStructure as K; "
             "assert K(['p', 'q'], 'p | q', {'a': ['p'], 'b': ['q']}, actual={'p', 'q'}).satisfies('K_a p & ~K_a q')")


def commands(root: Path) -> list[tuple[str, list[str], bool | str]]:
    """(label, argv after the interpreter, goal row: True, "symbolic" or False) of the commands timed, in *root*."""
    theories = root / "theories"
    return [
        ("python -c pass", ["-c", "pass"], False),
        ("python -c 'import kop'", ["-c", "import kop"], False),
        ("kop --help", ["-m", "kop", "--help"], False),
        ('kop parse "K_a p"', ["-m", "kop", "parse", "K_a p"], True),
        ('kop check muddy3 "K_a m_a"', ["-m", "kop", "check", str(theories / "muddy3.model.json"), "K_a m_a"], True),
        ('kop valid "K_a p -> p"', ["-m", "kop", "valid", "K_a p -> p"], False),
        ("kop solve figure2.json", ["-m", "kop", "solve", str(theories / "figure2.json")], False),
        ("python -c 'import dd.cudd'", ["-c", "import dd.cudd"], False),
        ('kop valid "D{a,b} p -> p" (BDDs)', ["-m", "kop", "valid", "D{a,b} p -> p"], "symbolic"),
        ("KnowledgeStructure p|q, K_a p", ["-c", STRUCTURE], "symbolic"),
        ("kop dominates figure2.kop", ["-m", "kop", "dominates", str(theories / "figure2.kop")], False),
    ]


def child_cpu(argv: list[str], root: Path = ROOT) -> float:
    """CPU seconds (user + system) of one child process running *argv*."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=root, check=False,
                          env=ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15, help="runs of each command (default 15)")
    ap.add_argument("--goal", type=float, default=None, help="fail if a goal row's median exceeds this (seconds)")
    ap.add_argument("--symbolic-goal", type=float, default=None,
                    help="fail if a symbolic row's median exceeds this (seconds)")
    ap.add_argument("--root", type=Path, default=ROOT,
                    help="the checkout whose kop is timed (python -m kop runs in it; default: this one)")
    ap.add_argument("--quick", action="store_true", help="small sizes, one run: seconds (a smoke test, no measurement)")
    args = ap.parse_args()
    if args.quick:
        args.runs = 1
    root = args.root.resolve()
    COMMANDS = commands(root)
    samples: dict[str, list[float]] = {label: [] for label, _, _ in COMMANDS}
    for label, argv, _ in COMMANDS:  # warm-up: bytecode and grammar caches
        child_cpu([PY, *argv], root)
    for _ in range(args.runs):  # interleaved, so load changes hit every command alike
        for label, argv, _ in COMMANDS:
            samples[label].append(child_cpu([PY, *argv], root))
    base = statistics.median(samples[COMMANDS[0][0]])
    print(f"{'command':34} {'CPU median':>11} {'min':>8} {'x python':>9}")
    failed = []
    for label, _, goal in COMMANDS:
        med = statistics.median(samples[label])
        print(f"{label:34} {med:10.3f}s {min(samples[label]):7.3f}s {med / base:8.1f}x"
              + ("   (symbolic goal row)" if goal == "symbolic" else "   (goal row)" if goal else ""))
        limit = args.symbolic_goal if goal == "symbolic" else args.goal if goal else None
        if limit is not None and med > limit:
            failed.append(f"{label} (goal {limit} s)")
    print(f"kop from {root}; {args.runs} runs each; CPU time of the child process (user + system); Python {sys.version.split()[0]}")
    if failed:
        print(f"over the goal: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
