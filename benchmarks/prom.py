"""Benchmark of PrOM (kop.prom) and its Bayesian variant against M^1 (kop.mstar(t, 1)) on the same trees.

For random binary trees of about 10^4, 10^5 and 10^6 nodes, prints the time of
M^1 and of PrOM / Bayesian PrOM with 1, 2, 4 and 8 opponent types (random
integer candidates; uniform probabilities), each the best of ``--repeat`` runs in
this process, and the ratios the goals are about:

* PrOM with one type against M^1 (goal <= 1.5x);
* time per type: PrOM with 8 types against 2 types (linear growth gives about 4x
  for the type-dependent part; the fixed part -- P's sweep -- makes it less).

With one type equal to B's actual evaluation the value is M^1's (checked).

Usage: python benchmarks/prom.py [--quick] [--repeat N]
"""

from __future__ import annotations

import argparse

import numpy as np
from timing import best_of

import kop




def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="10^4 and 10^5 nodes only")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    depths = (13, 16) if args.quick else (13, 16, 19)
    rng = np.random.default_rng(7)
    for depth in depths:
        t = kop.random_tree(depth=depth, branching=2, seed=depth)
        order = kop.leaf_order(t)
        actual = t.payoffs[t.leaf_rows()[order], 1]
        t_m1, m1 = best_of(args.repeat, lambda: kop.mstar(t, 1, "A"))
        s1 = kop.prom(t, "A", [actual], [1])
        assert s1.value == m1.value and np.array_equal(s1.next_array, m1.next_array)
        print(f"tree: binary, depth {depth}: {len(t):,} nodes;  M^1 {t_m1 * 1000:8.1f} ms")
        times: dict[tuple[str, int], float] = {}
        for k in (1, 2, 4, 8):
            cands = np.vstack([actual[None, :], rng.integers(0, 100, size=(k - 1, t.n_leaves))])
            for name, f in (("PrOM", kop.prom), ("PrOM-Bayes", kop.prom_bayes)):
                tk, _ = best_of(args.repeat, lambda: f(t, "A", cands))
                times[(name, k)] = tk
                print(f"  {name:10s} {k} type{'s' if k > 1 else ' '}  {tk * 1000:8.1f} ms   "
                      f"{tk / t_m1:5.2f}x M^1")
        for name in ("PrOM", "PrOM-Bayes"):
            print(f"  {name}: 1 type / M^1 = {times[(name, 1)] / t_m1:.2f} (goal <= 1.5);  "
                  f"8 types / 2 types = {times[(name, 8)] / times[(name, 2)]:.2f};  "
                  f"8 types / 4 types = {times[(name, 8)] / times[(name, 4)]:.2f}")


if __name__ == "__main__":
    main()
