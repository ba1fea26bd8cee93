"""Benchmark: model checking belief (B_a) and probability (P_a) against knowledge (K_a), in the same run.

Usage::

    python benchmarks/uncertainty.py            # 10^3, 10^4 and 10^5 worlds (about a minute)
    python benchmarks/uncertainty.py --quick    # 10^3 and 10^4 worlds

For each size n it builds one random model with ``KripkeModel.from_arrays``:
two agents, each with a partition into about n/10 random cells, a random
plausibility rank (0..9) per world and a random probability weight (k/7,
k = 1..8) per world for each agent, and three random atoms.  It then times
the numpy checker (:mod:`kop.semantics.checker`) on pairs of formulas that
ask the same shape of question with K_a and with B_a or P_a:

=============================  ===========================================
knowledge                      belief / probability
=============================  ===========================================
``K_a p``                      ``B_a p``, ``P_a(p) >= 1/2``
``K_a (p & ~K_b q)``           ``B_a (p & ~B_b q)``, ``P_a(p & ~(P_b(q) > 1/3)) >= 1/2``
``K_a (q -> p)``               ``B_a(q, p)`` (conditional belief)
``[!q] K_a p``                 ``[!q] B_a p``, ``[!q] P_a(p) >= 1/2`` (restriction, conditioning)
=============================  ===========================================

Each time is the best of several runs, each on a fresh copy of the model
(``with_actual``: nothing memoized, the arrays shared); the ratio is
belief-or-probability time over knowledge time (goal: at most 2).  Probability
is decided exactly: integer weights, and comparisons of integers.
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction

import numpy as np

from kop.semantics.checker import truth_vector
from kop.semantics.model import KripkeModel
from kop.syntax.parser import parse

PAIRS = [
    ("K_a p", ["B_a p", "P_a(p) >= 1/2"]),
    ("K_a (p & ~K_b q)", ["B_a (p & ~B_b q)", "P_a(p & ~(P_b(q) > 1/3)) >= 1/2"]),
    ("K_a (q -> p)", ["B_a(q, p)"]),
    ("[!q] K_a p", ["[!q] B_a p", "[!q] P_a(p) >= 1/2"]),
]


def build(n: int, seed: int = 0) -> KripkeModel:
    rng = np.random.default_rng(seed)
    cells = max(1, n // 10)
    parts = {a: rng.integers(0, cells, n) for a in ("a", "b")}
    val = {p: rng.random(n) < 0.5 for p in ("p", "q", "r")}
    plaus = {a: rng.integers(0, 10, n) for a in ("a", "b")}
    prob = {a: [Fraction(int(k), 7) for k in rng.integers(1, 9, n)] for a in ("a", "b")}
    return KripkeModel.from_arrays(n, parts, val, actual=["w0"], plausibility=plaus, probability=prob)


def best_time(model: KripkeModel, text: str, repeats: int) -> float:
    phi = parse(text)
    truth_vector(model.with_actual(None), phi)  # warm up (numpy's first calls)
    best = float("inf")
    for _ in range(repeats):
        fresh = model.with_actual(None)
        start = time.perf_counter()
        truth_vector(fresh, phi)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="10^3 and 10^4 worlds only")
    args = ap.parse_args()
    sizes = [1_000, 10_000] if args.quick else [1_000, 10_000, 100_000]
    print(f"{'worlds':>8}  {'knowledge':<20} {'ms':>8}  {'belief / probability':<36} {'ms':>8}  {'ratio':>6}")
    worst = 0.0
    for n in sizes:
        model = build(n)
        repeats = 15 if n <= 10_000 else 7
        for k_text, others in PAIRS:
            tk = best_time(model, k_text, repeats)
            for text in others:
                t = best_time(model, text, repeats)
                worst = max(worst, t / tk)
                print(f"{n:>8}  {k_text:<20} {tk * 1e3:>8.3f}  {text:<36} {t * 1e3:>8.3f}  {t / tk:>6.2f}")
    print(f"worst ratio: {worst:.2f} (goal: at most 2)")


if __name__ == "__main__":
    main()
