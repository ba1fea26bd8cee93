"""Benchmark: kop's symbolic engine side by side with SMCDEL and DEMO-S5, in the same run.

Usage::

    python benchmarks/peers.py                    # kop's figures only
    KOP_SMCDEL_BENCH=/path/to/smcdel-bench python benchmarks/peers.py --runs 9

Each case runs in fresh processes, kop's and the peer's in turn (kop, peer,
kop, peer, ...), so a drift of the shared machine's speed hits both alike.
Each process first warms its BDD package on a small instance of the same
case (n = 3), then times the case at full size once, in CPU time (user +
system of that process, the work after start-up: building the structure,
the formulas, checking and updating).  Neither side parses: kop's formulas
are built as objects (the muddy children's law is ``kop.TRUE``, as SMCDEL's
is ``boolBddOf Top``).  kop's timed run makes its CUDD manager for the new
vocabulary; SMCDEL's CacBDD manager is global, made during its warm-up.  kop's process collects Python's
garbage once after the warm-up (``gc.collect()``, as a clean start for the
timed run; the collector stays on during it); ``--no-collect`` skips that,
leaving the first full collection of the imported modules' objects
(~10-30 ms on this machine) to fall wherever it falls, often in the timed
run.  The table gives the median over the
runs of each side and the median of the run-by-run ratios kop / peer (below
1: kop is faster).

The peers are optional and are never part of kop: ``KOP_SMCDEL_BENCH`` names
an executable that takes ``CASE N REPEATS`` and prints one line
``MEDIAN_SECONDS MIN_SECONDS RESULT`` (the CPU time of REPEATS runs after a
warm-up at n = 3).  Its cases:

``muddy N``
    Muddy children, all N muddy, SMCDEL's way of updating: the structure
    after "at least one is muddy", then, until every child knows whether it
    is muddy, the update with "nobody knows" (SMCDEL's ``update`` on
    ``mudScnInit``; kop's :class:`~kop.KnowledgeStructure` ``announce``).
``dining N``
    Dining cryptographers, N at a table where every pair shares a coin:
    the formula of SMCDEL's benchmark (``benchDcCheckForm``) is valid on
    ``genDcKnsInit N`` (kop: :func:`kop.puzzles.dining_cryptographers.smcdel_benchmark_formula`).
``drinking N``
    Drinking logicians (SMCDEL's ``thirstyCheck``).
``demo-muddy N``
    Muddy children with DEMO-S5 (explicit, all N muddy); kop's side is
    :func:`kop.puzzles.muddy_children.solve` on its explicit engine.

How to build such an executable from SMCDEL's and HasCacBDD's public sources
is described in ``docs/models.md``; nothing of theirs is in kop.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: (case, n) run by default, with what kop runs for each case.
CASES = [("muddy", 20), ("muddy", 40), ("dining", 50), ("drinking", 400), ("demo-muddy", 8)]

KOP_WORK = {
    "muddy": ("from benchmarks.peers import kop_muddy as run", 3),
    "dining": ("from benchmarks.peers import kop_dining as run", 3),
    "drinking": ("from benchmarks.peers import kop_drinking as run", 3),
    "demo-muddy": ("from benchmarks.peers import kop_explicit_muddy as run", 3),
}


def kop_muddy(n: int) -> int:
    """Muddy children, all *n* muddy, on a knowledge structure updated after each
    announcement: the question at which every child knows."""
    from kop import TRUE, KnowledgeStructure
    from kop.puzzles import muddy_children as mc

    vocab = [mc.muddy_atom(i).name for i in range(1, n + 1)]
    observes = {mc.child(i): vocab[:i - 1] + vocab[i:] for i in range(1, n + 1)}
    # the law as a formula, like SMCDEL's `boolBddOf Top` (a string would time kop's parser)
    ks = KnowledgeStructure(vocab, TRUE, observes, actual=vocab).announce(mc.at_least_one(n))
    for q in range(1, n + 1):
        if all(ks.satisfies(mc.knows_own_state(i)) for i in range(1, n + 1)):
            return q
        ks = ks.announce(mc.nobody_knows(n))
    raise AssertionError("the children never all knew")


def kop_dining(n: int) -> int:
    """SMCDEL's dining cryptographers benchmark formula, valid on the structure: 1."""
    from kop.puzzles import dining_cryptographers as dc

    return int(dc.structure(n).valid(dc.smcdel_benchmark_formula(n)))


def kop_drinking(n: int) -> int:
    """SMCDEL's drinking logicians check: 1 when it holds."""
    from kop.puzzles import drinking_logicians as dl

    return int(dl.structure(n).satisfies(dl.smcdel_formula(n)))


def kop_explicit_muddy(n: int) -> int:
    """Muddy children, all *n* muddy, on kop's explicit engine: the question at which all know."""
    from kop.puzzles import muddy_children as mc

    first = mc.solve(n, range(1, n + 1)).first_knows
    return max(q for q in first if q is not None)


#: Whether kop's process collects garbage after the warm-up, before the timed run
#: (``--no-collect`` leaves it to fall where it falls).
COLLECT = [True]

EXPECTED = {"muddy": lambda n: n, "dining": lambda n: 1, "drinking": lambda n: 1, "demo-muddy": lambda n: n}


def kop_once(case: str, n: int) -> float:
    """CPU seconds of one kop run of *case* at *n* in a fresh process (warmed at n = 3)."""
    setup, warm = KOP_WORK[case]
    code = "\n".join([
        "import sys, time, json",
        f"sys.path.insert(0, {str(ROOT)!r})",
        setup,
        f"run({warm})",
        "import gc; gc.collect()" if COLLECT[0] else "",
        "c = time.process_time()",
        f"r = run({n})",
        "print(json.dumps([time.process_time() - c, r]))",
    ])
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    seconds, result = json.loads(out.stdout.strip().splitlines()[-1])
    if result != EXPECTED[case](n):
        raise AssertionError(f"kop answered {result} for {case} {n}")
    return float(seconds)


def peer_once(exe: str, case: str, n: int) -> float:
    """CPU seconds of one run of the peer's executable (warmed at n = 3 inside it)."""
    out = subprocess.run([exe, case, str(n), "1"], check=True, capture_output=True, text=True)
    median, _least, result = out.stdout.split()
    if int(result) != EXPECTED[case](n):
        raise AssertionError(f"{exe} answered {result} for {case} {n}")
    return float(median)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7, help="paired runs per case (default 7)")
    ap.add_argument("--case", action="append", metavar="CASE:N",
                    help="a case to run, e.g. muddy:40 (repeatable; default: all)")
    ap.add_argument("--no-collect", action="store_true",
                    help="do not collect Python's garbage between kop's warm-up and the timed run")
    ap.add_argument("--quick", action="store_true", help="small sizes, one run: seconds (a smoke test, no measurement)")
    args = ap.parse_args(argv)
    COLLECT[0] = not args.no_collect
    cases = CASES if not args.case else [(c.split(":")[0], int(c.split(":")[1])) for c in args.case]
    if args.quick:
        args.runs, cases = 1, [("muddy", 8), ("dining", 8), ("drinking", 20), ("demo-muddy", 4)]
    exe = os.environ.get("KOP_SMCDEL_BENCH")
    if exe and not os.access(exe, os.X_OK):
        print(f"KOP_SMCDEL_BENCH={exe} is not an executable; kop's figures only", file=sys.stderr)
        exe = None
    peer = "SMCDEL" if exe else "-"
    print(f"{'case':<18} {'kop ms':>9} {'peer':<8} {'peer ms':>9} {'ratio':>7}  runs (CPU time, medians)")
    for case, n in cases:
        if case not in KOP_WORK:
            raise SystemExit(f"unknown case {case!r}: use one of {', '.join(KOP_WORK)}")
        kop_t, peer_t, ratios = [], [], []
        for _ in range(args.runs):
            kop_t.append(kop_once(case, n))
            if exe:
                peer_t.append(peer_once(exe, case, n))
                ratios.append(kop_t[-1] / peer_t[-1] if peer_t[-1] > 0 else float("inf"))
        name = "DEMO-S5" if case == "demo-muddy" and exe else peer
        k = statistics.median(kop_t) * 1e3
        if exe:
            p = statistics.median(peer_t) * 1e3
            r = statistics.median(ratios)
            print(f"{case + ' ' + str(n):<18} {k:9.1f} {name:<8} {p:9.1f} {r:7.2f}  {args.runs}")
        else:
            print(f"{case + ' ' + str(n):<18} {k:9.1f} {'-':<8} {'-':>9} {'-':>7}  {args.runs}")


if __name__ == "__main__":
    main()
