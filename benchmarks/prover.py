"""Benchmarks of the S5_n prover (issue 4).

(a) Deciding f(A, d) ⊆ K(A) from the core f(A, d), d = 1..20 (goal: < 1 s each),
    and the level of that core (which also needs the failing chain d+1).
(b) Random modal 3-CNF (Patel-Schneider & Sebastiani 3CNF_K) with 1-3 agents,
    modal depth 1-2, 3-10 atoms, 100 formulas per family (goal: all solved
    within 10 s, median <= 0.1 s).
(c) LWB-style families that are S5 theorems (k_branch_p, k_ph_p, s4_s5_p):
    the largest instance decided within 10 s.
(d) Random formulas with common knowledge ("C"), relativized common knowledge
    ("RC") and announcements ("ann") of 100 and 150 operators over 2 and 3 agents
    (:func:`kop.reasoning.generators.random_formula`; goal: median < 0.5 s, none
    undecided in 30 s), against the engine before the move to CUDD: type
    elimination on the pure-Python BDDs with the full constraints, capped at
    ``--cap`` seconds per formula, on the first ``--baseline`` formulas.

(e) Knowledge and belief: random formulas of family "B" (``B_a`` with K, M, E, C)
    and "Bc" (also conditional belief ``B_a(ψ, φ)``), 50, 100 and 150 operators,
    2 and 3 agents (goal: none undecided at the limit, median < 0.5 s), against
    type elimination alone (``method="bdd"``) on the first ``--baseline`` formulas.

Every figure has a ratio against a baseline run in the same process: the
SAT-free path (``method="bdd"``, symbolic type elimination) on the same
questions.  Times are the best of ``--repeat`` runs where noted.

    python benchmarks/prover.py            # everything (a few minutes)
    python benchmarks/prover.py --quick    # small sizes, a few formulas: seconds (a smoke test)
    python benchmarks/prover.py --only d   # the common-knowledge families
    python benchmarks/prover.py --only e   # knowledge and belief

Times are CPU seconds (time.process_time) in (d).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import kop
from kop.reasoning.announcements import reduce_announcements
from kop.reasoning.bddengine import BddEngine
from kop.reasoning.core import Closure, Core
from kop.reasoning.errors import ProverTimeout
from kop.reasoning.generators import LWB_FAMILIES, random_3cnf, random_formula
from kop.reasoning.limits import Deadline
from kop.reasoning.prover import decide_formula
from kop.errors import LimitError
from kop.syntax.formula import Not, conj
from kop.syntax.levels import f_level


#: time limit of one baseline (BDD) run in (b); ">" marks a median that hit it
BASELINE_LIMIT = 2.0


def timed(fn, repeat: int = 1) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def subset_check(core, method):
    return all(decide_formula(conj(tuple(core) + (Not(f),)), method=method, minimize=False)[0] is None for f in core)


#: --quick: small sizes everywhere (a smoke test that the script still runs; its figures measure nothing)
QUICK = [False]


def bench_a(repeat: int) -> None:
    print("(a) f(A,d) ⊆ K(A) from the core f(A,d), and the level of the core (needs chain d+1 to fail)")
    print(f"{'d':>3} {'subset s':>10} {'level':>6} {'level s':>9} {'bdd level s':>12} {'ratio':>7}")
    worst = 0.0
    for d in range(1, 4 if QUICK[0] else 21):
        core = f_level("A", "B", d)
        t = timed(lambda: subset_check(core, "auto"), repeat)
        lv = kop.level(core, "A", "B")
        tl = timed(lambda: kop.level(core, "A", "B"), repeat)
        tb = timed(lambda: kop.level(core, "A", "B", method="bdd"), 1)
        worst = max(worst, t, tl)
        print(f"{d:>3} {t:>10.4f} {lv:>6} {tl:>9.4f} {tb:>12.4f} {tb / tl:>7.1f}")
    print(f"    slowest: {worst:.4f} s (goal < 1 s)")


def bench_b(per_family: int, baseline: int, ratio: int) -> None:
    print(f"(b) random 3CNF_K, L = {ratio}N clauses, p_prop = 0.5, {per_family} formulas per family")
    print(f"{'agents':>6} {'depth':>5} {'atoms':>5} {'L':>4} {'solved':>7} {'sat':>4} {'median s':>9} "
          f"{'max s':>7} {'bdd median':>11} {'ratio':>6}")
    rng = random.Random(2024)
    all_solved, medians = True, []
    for m in (1,) if QUICK[0] else (1, 2, 3):
        for depth in (1,) if QUICK[0] else (1, 2):
            for n in (3,) if QUICK[0] else (3, 5, 10):
                L = ratio * n
                fs = [random_3cnf(rng, n, m, depth, L) for _ in range(per_family)]
                times, solved, sat = [], 0, 0
                for f in fs:
                    t = time.perf_counter()
                    try:
                        model, _ = decide_formula(f, timeout=10.0, minimize=False)
                        solved += 1
                        sat += model is not None
                    except ProverTimeout:
                        pass
                    times.append(time.perf_counter() - t)
                base, capped = [], False
                for f in fs[:baseline]:
                    t = time.perf_counter()
                    try:
                        decide_formula(f, timeout=BASELINE_LIMIT, method="bdd", minimize=False)
                    except ProverTimeout:
                        capped = True
                    base.append(time.perf_counter() - t)
                med = statistics.median(times)
                bmed = statistics.median(base) if base else float("nan")
                sub = statistics.median(times[:baseline]) if base else float("nan")
                all_solved &= solved == len(fs)
                medians.append(med)
                mark = ">" if capped else " "
                print(f"{m:>6} {depth:>5} {n:>5} {L:>4} {solved:>4}/{len(fs):<3}{sat:>4} {med:>9.4f} "
                      f"{max(times):>7.3f} {mark}{bmed:>10.4f} {mark}{bmed / sub:>5.1f}")
    print(f"    all solved within 10 s: {all_solved}; worst family median {max(medians):.4f} s (goal <= 0.1 s)")


def bench_c(limit: float) -> None:
    print(f"(c) LWB-style S5 theorems: the largest instance decided within {limit:g} s")
    print("    n = 1..10, then x1.5; 'stop' says why the search ended (time, nesting limit 1000, cap n <= 900)")
    print(f"{'family':>11} {'largest n':>9} {'time s':>8} {'closure':>8} {'stop':>8} "
          f"{'bdd largest n':>14} {'bdd time s':>10} {'bdd stop':>9}")
    for name, fam in LWB_FAMILIES.items():
        res = {}
        for method in ("auto", "bdd"):
            best, stop = (0, 0.0, 0), "cap"
            n = 1
            while n <= (5 if QUICK[0] else 900):
                f = fam(n)
                t = time.perf_counter()
                try:
                    v = kop.valid(f, timeout=limit, method=method)
                except ProverTimeout:
                    stop = "time"
                    break
                except LimitError:
                    stop = "nesting"
                    break
                dt = time.perf_counter() - t
                if not v.holds:
                    print(f"    ERROR: {name}({n}) not valid", file=sys.stderr)
                    break
                best = (n, dt, v.stats.get("closure", 0))
                n = n + 1 if n < 10 else int(n * 1.5)
            res[method] = best + (stop,)
        (n, t, cl, stop), (bn, bt, _, bstop) = res["auto"], res["bdd"]
        print(f"{name:>11} {n:>9} {t:>8.3f} {cl:>8} {stop:>8} {bn:>14} {bt:>10.3f} {bstop:>9}")


class CpuDeadline(Deadline):
    """A limit in CPU seconds of this process (the machine is shared: wall time would measure the others)."""

    __slots__ = ("cpu_end",)

    def __init__(self, seconds: float):
        super().__init__(seconds)
        self.cpu_end = time.process_time() + seconds

    def check(self) -> None:
        if time.process_time() >= self.cpu_end:
            raise self.timeout()


def old_engine(f, cap: float) -> bool:
    """The engine before CUDD: pure-Python BDDs, every constraint in both directions."""
    core = Core()
    root = core.compile(reduce_announcements(f))
    return BddEngine(core, Closure(core, [root]), root, CpuDeadline(cap), backend="python", polarity=False).run() is not None


def _table(families: tuple[str, ...], sizes: tuple[int, ...], agent_counts: tuple[int, ...], per_cell: int,
           limit: float, baseline: int, cap: float, old: Callable[[Any, float], object]) -> None:
    """One row per (family, operators, agents): kop's prover on *per_cell* random formulas, and
    *old* (the baseline) on the first *baseline* of them, capped at *cap* CPU s."""
    print(f"{'family':>6} {'ops':>4} {'agents':>6} {'decided':>8} {'sat':>4} {'median s':>9} {'max s':>7} "
          f"{'old median':>11} {'ratio':>7}")
    worst_med, undecided = 0.0, 0
    for family in families:
        for ops in sizes:
            for n in agent_counts:
                rng = random.Random(f"{family}-{ops}-{n}")
                agents, atoms = ["a", "b", "c"][:n], ["p", "q", "r"]
                fs = [random_formula(rng, ops, agents, atoms, family) for _ in range(per_cell)]
                times, decided, sat = [], 0, 0
                for f in fs:
                    t = time.process_time()
                    try:
                        model, _ = decide_formula(f, deadline=CpuDeadline(limit))
                        decided += 1
                        sat += model is not None
                    except (ProverTimeout, LimitError):
                        pass
                    times.append(time.process_time() - t)
                olds, capped = [], False
                for f in fs[:baseline]:
                    t = time.process_time()
                    try:
                        old(f, cap)
                    except (ProverTimeout, LimitError):
                        capped = True
                    olds.append(time.process_time() - t)
                med = statistics.median(times)
                omed = statistics.median(olds) if olds else float("nan")
                sub = statistics.median(times[:baseline]) if olds else float("nan")
                worst_med = max(worst_med, med)
                undecided += len(fs) - decided
                mark = ">" if capped else " "
                print(f"{family:>6} {ops:>4} {n:>6} {decided:>4}/{len(fs):<3} {sat:>4} {med:>9.3f} {max(times):>7.2f} "
                      f"{mark}{omed:>10.3f} {mark}{omed / sub:>6.1f}", flush=True)
    print(f"    worst cell median {worst_med:.3f} s (goal < 0.5 s); undecided within {limit:g} s: {undecided} (goal 0)")


def bench_d(per_cell: int, baseline: int, cap: float, limit: float = 30.0,
            families: tuple[str, ...] = ("C", "RC", "ann")) -> None:
    print(f"(d) random formulas with C / relativized C / announcements, {per_cell} per cell, CPU s; "
          f"old engine on the first {baseline}, capped at {cap:g} CPU s ('>' = a run hit the cap)")
    _table(families, (20,) if QUICK[0] else (100, 150), (2,) if QUICK[0] else (2, 3), per_cell, limit,
           baseline, cap, old_engine)


def _type_elimination(f: Any, cap: float) -> object:
    """Type elimination alone (the BDD engine), the baseline of (e)."""
    return decide_formula(f, deadline=CpuDeadline(cap), method="bdd")


def bench_e(per_cell: int, baseline: int, cap: float, limit: float = 30.0,
            families: tuple[str, ...] = ("B", "Bc")) -> None:
    print(f"(e) knowledge and belief (plausibility models), {per_cell} per cell, CPU s, limit {limit:g} s; "
          f"type elimination alone on the first {baseline}, capped at {cap:g} CPU s ('>' = a run hit the cap)")
    _table(families, (20,) if QUICK[0] else (50, 100, 150), (2,) if QUICK[0] else (2, 3), per_cell, limit,
           baseline, cap, _type_elimination)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, a few formulas: seconds (a smoke test, no measurement)")
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs in (a)")
    ap.add_argument("--ratio", type=int, default=4, help="clauses per atom in (b)")
    ap.add_argument("--only", choices=["a", "b", "c", "d", "e"], help="run one part")
    ap.add_argument("--per-cell", type=int, default=30, help="formulas per cell in (d)")
    ap.add_argument("--baseline", type=int, default=5, help="formulas per cell run on the old engine in (d)")
    ap.add_argument("--cap", type=float, default=10.0, help="seconds per old-engine run in (d)")
    ap.add_argument("--families", default="C,RC,ann", help="the families of (d), comma separated")
    ap.add_argument("--belief-families", default="B,Bc", help="the families of (e), comma separated")
    args = ap.parse_args()
    QUICK[0] = args.quick
    if args.quick:
        args.repeat, args.per_cell, args.baseline, args.cap = 1, 2, 1, 1.0
    if args.only in (None, "a"):
        bench_a(args.repeat)
    if args.only in (None, "b"):
        bench_b(3 if args.quick else 100, 1 if args.quick else 5, args.ratio)
    if args.only in (None, "c"):
        bench_c(1.0 if args.quick else 10.0)
    if args.only in (None, "d"):
        bench_d(args.per_cell, args.baseline, args.cap, limit=5.0 if args.quick else 30.0,
                families=tuple(args.families.split(",")))
    if args.only in (None, "e"):
        bench_e(2 if args.quick else args.per_cell, args.baseline, args.cap, limit=5.0 if args.quick else 30.0,
                families=tuple(args.belief_families.split(",")))


if __name__ == "__main__":
    main()
