"""Benchmark: the fast model checker against the naive reference, on random models and formulas.

Usage::

    python benchmarks/checker.py             # about two minutes
    python benchmarks/checker.py --quick     # a few seconds

For each model size it draws random S5_n models (3 agents, random partitions
and valuations over 4 atoms) and random formulas over the whole language
(K, M, Kw, E, C, D, relativized C, announcements), and prints the time per
formula of

* kop's checker (:mod:`kop.semantics.checker`: numpy truth vectors, memoized
  subformulas) on a fresh model, so nothing is cached between formulas;
* the naive reference (:mod:`kop.semantics.reference`: quantifying over
  worlds, one world at a time) on the same model and formula, where it
  finishes in reasonable time,

with the ratio naive / fast and a check that both give the same truth sets
(``truth_set``, which on models of at most ``SMALL_MODEL`` worlds uses the
pure-Python bit-set checker :mod:`kop.semantics.bitset_checker`).
A second table gives the numpy checker alone on larger models, with the
number of worlds times formula size handled per second (cost is linear in both).
A third table sets the two checkers side by side (CPU time per formula, each
on a fresh model with both representations ready): it is how
``kop.semantics.bitset_checker.SMALL_MODEL`` was chosen.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from kop.semantics.bitset_checker import SMALL_MODEL, ModelBits, truth_bits
from kop.semantics.checker import truth_vector
from kop.semantics.model import KripkeModel
from kop.semantics.reference import naive_truth_set
from kop.syntax import formula as F

AGENTS = ("a", "b", "c")
ATOMS = ("p", "q", "r", "s")


def random_model(rng: random.Random, n: int, blocks: int) -> KripkeModel:
    """n worlds, each agent's partition into about *blocks* random blocks."""
    nprng = np.random.default_rng(rng.randrange(1 << 30))
    parts = {a: nprng.integers(0, blocks, n) for a in AGENTS}
    val = {p: nprng.random(n) < 0.5 for p in ATOMS}
    return KripkeModel.from_arrays(n, parts, val, actual=["w0"])


def random_formula(rng: random.Random, depth: int) -> F.Formula:
    if depth == 0 or rng.random() < 0.15:
        return F.Atom(rng.choice(ATOMS))
    group = tuple(rng.sample(AGENTS, rng.randint(1, 3)))
    sub = lambda: random_formula(rng, depth - 1)  # noqa: E731
    kind = rng.randrange(13)
    return [
        lambda: F.Not(sub()),
        lambda: F.And(sub(), sub()),
        lambda: F.Or(sub(), sub()),
        lambda: F.Implies(sub(), sub()),
        lambda: F.Know(group[0], sub()),
        lambda: F.Possible(group[0], sub()),
        lambda: F.KnowWhether(group[0], sub()),
        lambda: F.Everyone(group, sub()),
        lambda: F.Common(group, sub()),
        lambda: F.Distributed(group, sub()),
        lambda: F.RelCommon(group, sub(), sub()),
        lambda: F.Announce(sub(), sub()),
        lambda: F.AnnounceDual(sub(), sub()),
    ][kind]()


def time_per_formula(models_formulas, check) -> float:
    t = time.perf_counter()
    for m, phi in models_formulas:
        check(m, phi)
    return (time.perf_counter() - t) / len(models_formulas)


def fresh(m: KripkeModel) -> KripkeModel:
    """The same model without memoized truth vectors."""
    return m.with_actual(m.actual)


def compare(sizes, count: int, depth: int, seed: int) -> None:
    print(f"fast checker vs naive reference: {count} random formulas of depth {depth} per size, 3 agents")
    print(f"{'worlds':>7} {'fast (ms)':>10} {'naive (ms)':>11} {'naive/fast':>11}  agree")
    for n in sizes:
        rng = random.Random(seed + n)
        cases = [(random_model(rng, n, max(1, n // 3)), random_formula(rng, depth)) for _ in range(count)]
        fast_runs = []
        for _ in range(3):
            fast_runs.append(time_per_formula([(fresh(m), phi) for m, phi in cases],
                                              lambda m, phi: m.truth_set(phi)))
        fast = min(fast_runs)
        naive_sets = []
        naive = time_per_formula(cases, lambda m, phi: naive_sets.append(naive_truth_set(m, phi)))
        agree = all(m.truth_set(phi) == ns for (m, phi), ns in zip(cases, naive_sets))
        print(f"{n:>7} {fast * 1e3:>10.3f} {naive * 1e3:>11.3f} {naive / fast:>11.1f}  {agree}")


def scale(sizes, count: int, depth: int, seed: int) -> None:
    print(f"\nfast checker alone: {count} random formulas of depth {depth} per size")
    print(f"{'worlds':>9} {'ms/formula':>11} {'avg size':>9} {'world-nodes/s':>14}")
    for n in sizes:
        rng = random.Random(seed + n)
        cases = [(random_model(rng, n, max(1, n // 3)), random_formula(rng, depth)) for _ in range(count)]
        best = min(time_per_formula([(fresh(m), phi) for m, phi in cases], lambda m, phi: m.truth_mask(phi))
                   for _ in range(3))
        size = sum(len(set(phi.subformulas())) for _, phi in cases) / count
        print(f"{n:>9} {best * 1e3:>11.3f} {size:>9.1f} {n * size / best:>14.3g}")


def both(m: KripkeModel) -> KripkeModel:
    """A copy of *m* with nothing memoized and both representations (arrays and bit sets) ready."""
    b = m._bitsets()
    c = KripkeModel._raw(m.worlds, m.agents, m._blocks, m._nblocks, m._atoms, m._actual)
    c._bits = ModelBits(b.n, b.ids, b.nblocks, b.atoms, b.actual)
    return c


def bits_vs_numpy(sizes, count: int, depth: int, seed: int) -> None:
    print(f"\nbit sets vs numpy (SMALL_MODEL = {SMALL_MODEL}): {count} random formulas of depth {depth} per size, "
          "CPU time per formula")
    print(f"{'worlds':>7} {'bits (ms)':>10} {'numpy (ms)':>11} {'bits/numpy':>11}  agree")
    for n in sizes:
        rng = random.Random(seed + n)
        cases = [(random_model(rng, n, max(1, n // 3)), random_formula(rng, depth)) for _ in range(count)]

        def cpu(check) -> float:
            runs = []
            for _ in range(3):
                fresh_cases = [(both(m), phi) for m, phi in cases]
                t = time.process_time()
                for m, phi in fresh_cases:
                    check(m, phi)
                runs.append((time.process_time() - t) / count)
            return min(runs)

        bits, vec = cpu(truth_bits), cpu(truth_vector)
        agree = all(truth_bits(m, phi) == sum(1 << int(i) for i in np.flatnonzero(truth_vector(m, phi)))
                    for m, phi in ((both(m), phi) for m, phi in cases))
        print(f"{n:>7} {bits * 1e3:>10.3f} {vec * 1e3:>11.3f} {bits / vec:>11.2f}  {agree}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer and smaller cases")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--bits", action="store_true", help="only the bit sets vs numpy table")
    args = ap.parse_args(argv)
    if args.bits:
        bits_vs_numpy([8, 32, 128, 256, 512, 1024, 4096], count=50, depth=6, seed=args.seed)
    elif args.quick:
        compare([8, 32], count=30, depth=4, seed=args.seed)
        scale([1_000, 100_000], count=10, depth=6, seed=args.seed)
        bits_vs_numpy([8, 256, 1024], count=20, depth=6, seed=args.seed)
    else:
        compare([8, 16, 32, 48], count=100, depth=4, seed=args.seed)
        scale([1_000, 10_000, 100_000, 1_000_000], count=20, depth=6, seed=args.seed)
        bits_vs_numpy([8, 32, 128, 256, 512, 1024, 4096], count=50, depth=6, seed=args.seed)


if __name__ == "__main__":
    main()
