"""Benchmark: the classic puzzles, kop's explicit engine against SMCDEL and DEMO-S5.

Usage::

    python benchmarks/puzzles.py            # full run (about a minute)
    python benchmarks/puzzles.py --budget 2 # shorter search for the largest n

For each puzzle it prints kop's time (best of several runs, in this process)
next to the published figure of SMCDEL (symbolic, BDD-based) and, where there
is one, of DEMO-S5 (explicit), with the ratio kop / reference (below 1 means
kop is faster).  The in-process baseline is kop's own naive reference checker
(:mod:`kop.semantics.reference`, quantifying directly over worlds) running the
same announcements, where it finishes in reasonable time.  For the DEMO-S5
comparisons, which were whole-process timings, it also times a fresh ``python``
process doing the same work.

Drinking logicians (SMCDEL: n = 400) and dining cryptographers (SMCDEL:
n = 90) are out of reach of an explicit engine (2^n and (n+1)·2^(n(n-1)/2)
worlds); for them it prints the largest n that kop handles within the time
budget (10 s by default), searching n upward, and the time at that n.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from kop.puzzles import cheryl, dining_cryptographers, drinking_logicians, muddy_children, russian_cards, sum_product
from kop.syntax.errors import KopError

SMCDEL = {"cheryl": 0.04, "sum_product": 1.03, "russian_cards": 0.37,
          "drinking_logicians": (400, 1.79), "dining_cryptographers": (90, 1.10)}
DEMO_S5 = {"sum_product": 0.40, "muddy_8": 0.14, "muddy_10": 3.6, "muddy_12": 113.0}


def best_of(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The least wall-clock time of *repeat* runs, and the last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def process_time(code: str, repeat: int = 3) -> float:
    """The least wall-clock time of a fresh ``python -c code`` process."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        best = min(best, time.perf_counter() - t)
    return best


def naive_run(m, announcements) -> int:
    """Run announcements with the naive reference checker; the worlds left."""
    from kop.semantics.reference import naive_truth_set

    for phi in announcements:
        m = m.restrict(naive_truth_set(m, phi))
    return len(m)


def naive_muddy(n: int) -> tuple[int | None, ...]:
    """Muddy children with every question answered by the naive checker."""
    from kop.semantics.reference import naive_satisfies, naive_truth_set

    m = muddy_children.model(n, range(1, n + 1))
    m = m.restrict(m.truth_set(muddy_children.at_least_one(n)))
    actual = m.actual[0]
    for q in range(1, n + 1):
        if all(naive_satisfies(m, muddy_children.knows_own_state(i), actual) for i in range(1, n + 1)):
            return q
        m = m.restrict(naive_truth_set(m, muddy_children.nobody_knows(n)))
    return None


def largest_n(run: Callable[[int], Any], start: int, budget: float, sizes: Callable[[int], int]) -> tuple[int, float, str]:
    """Search n upward from *start*: the largest n whose run takes at most *budget* seconds.

    Stops when a run exceeds the budget, when the model would exceed kop's
    world limit, or when the run for n + 1, extrapolated from n by the growth
    in worlds, would take more than twice the budget.
    """
    n, last_ok, last_t, why = start, None, 0.0, ""
    while True:
        try:
            t, _ = best_of(lambda: run(n), 1)
        except KopError as e:
            why = f"n = {n}: {e}"
            break
        if t > budget:
            why = f"n = {n} took {t:.2f} s"
            break
        last_ok, last_t = n, t
        growth = sizes(n + 1) / max(1, sizes(n))
        if t * growth > 2 * budget:
            why = f"n = {n + 1} predicted at {t * growth:.0f} s ({sizes(n + 1)} worlds)"
            break
        n += 1
    return last_ok, last_t, why


def row(name: str, kop_s: float, ref: str, ref_s: float | None, note: str = "") -> None:
    ratio = f"{kop_s / ref_s:8.3f}" if ref_s else "       -"
    ref_txt = f"{ref_s:9.2f}" if ref_s is not None else "        -"
    print(f"{name:<44} {kop_s:9.3f} {ref:<8} {ref_txt} {ratio}  {note}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=10.0, help="seconds allowed per n in the search for the largest n")
    ap.add_argument("--repeat", type=int, default=5, help="runs per timing (the best is kept)")
    args = ap.parse_args(argv)
    rep = args.repeat

    print(f"{'puzzle':<44} {'kop (s)':>9} {'vs':<8} {'ref (s)':>9} {'ratio':>8}  notes")
    print("-" * 100)

    t, r = best_of(cheryl.solve, rep)
    assert r.birthday == ("July", 16) and r.counts == (10, 5, 3, 1)
    tn, _ = best_of(lambda: naive_run(cheryl.model(), cheryl.statements()), rep)
    row("Cheryl's birthday", t, "SMCDEL", SMCDEL["cheryl"], f"counts {r.counts}; naive checker {tn:.3f} s")

    t, r = best_of(sum_product.solve, rep)
    assert r.counts == (2352, 145, 86, 1) and r.solutions == ((4, 13),)
    tn, _ = best_of(lambda: naive_run(sum_product.model(), sum_product.statements()), 1)
    row("sum and product (x + y <= 100)", t, "SMCDEL", SMCDEL["sum_product"],
        f"counts {r.counts}; naive checker {tn:.2f} s")
    row("", t, "DEMO-S5", DEMO_S5["sum_product"], "in-process")
    tp = process_time("from kop.puzzles import sum_product as s; assert s.solve().solutions == ((4, 13),)")
    row("  whole process", tp, "DEMO-S5", DEMO_S5["sum_product"], "python -c ... (start-up included)")

    t, r = best_of(russian_cards.solve, rep)
    assert len(r.safe) == 102
    row("Russian cards filter (1290 candidates)", t, "SMCDEL", SMCDEL["russian_cards"],
        f"{len(r.safe)} safe {r.safe_by_size}; model built each run")

    for n in (8, 10, 12):
        t, r = best_of(lambda: muddy_children.solve(n, range(1, n + 1)), rep)
        assert r.first_knows == (n,) * n
        note = f"{2 ** n} worlds, {n - 1} x 'nobody knows'"
        if n == 8:
            tn, q = best_of(lambda: naive_muddy(n), 1)
            assert q == n
            note += f"; naive checker {tn:.2f} s"
        row(f"muddy children n = {n}, all muddy", t, "DEMO-S5", DEMO_S5[f"muddy_{n}"], note)
        tp = process_time(f"from kop.puzzles import muddy_children as m; m.solve({n}, range(1, {n + 1}))")
        row("  whole process", tp, "DEMO-S5", DEMO_S5[f"muddy_{n}"], "python -c ... (start-up included)")

    def drink(n: int) -> None:
        m = drinking_logicians.model(n)
        assert m.satisfies(drinking_logicians.smcdel_formula(n))

    n, t, why = largest_n(drink, 2, args.budget, lambda k: 2 ** k)
    ref_n, ref_t = SMCDEL["drinking_logicians"]
    row(f"drinking logicians: largest n in {args.budget:g} s: {n}", t, "SMCDEL", None,
        f"SMCDEL: n = {ref_n} in {ref_t} s; stopped: {why}")

    def dine(n: int) -> None:
        m = dining_cryptographers.model(n)
        assert m.satisfies(dining_cryptographers.smcdel_formula(n))

    n, t, why = largest_n(dine, 3, args.budget, lambda k: (k + 1) * 2 ** (k * (k - 1) // 2))
    ref_n, ref_t = SMCDEL["dining_cryptographers"]
    row(f"dining cryptographers: largest n in {args.budget:g} s: {n}", t, "SMCDEL", None,
        f"SMCDEL: n = {ref_n} in {ref_t} s (coins for every pair); stopped: {why}")

    def dine_ring(n: int) -> None:
        m = dining_cryptographers.model(n, topology="ring")
        assert m.satisfies(dining_cryptographers.smcdel_formula(n, "ring"))

    n, t, why = largest_n(dine_ring, 3, args.budget, lambda k: (k + 1) * 2 ** k)
    row(f"  same, ring of coins (Chaum): largest n: {n}", t, "-", None, f"stopped: {why}")


if __name__ == "__main__":
    main()
