"""Benchmark of the game-tree strategies: the vectorized engine against the recursive reference.

Prints, for M^h, minimax and HM0M^2:

* a random ~10^6-node tree: vectorized vs the recursive reference
  (:mod:`kop.games.strategies.reference`), same process, and the ratio (goal >= 100x);
* a random ~10^7-node tree: vectorized only (goal <= 2 s each);
* peak memory per node on the 10^7 tree: the tree's arrays (numpy ``nbytes``)
  plus the peak of the solve measured by ``tracemalloc`` (numpy reports its
  buffers to tracemalloc), divided by the node count (goal <= 32 bytes);
* M^d for d = 0..6 on the 10^6 tree (should grow linearly in d).

Timings are the best of ``--repeat`` runs (the machine is shared).

Usage: python benchmarks/strategies.py [--quick] [--repeat N]
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc

from timing import best_of

import kop
from kop.games.strategies import reference

sys.setrecursionlimit(10_000)




def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="10^5 and 10^6 nodes instead of 10^6 and 10^7")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    small_depth, big = (16, (10, 6)) if args.quick else (19, (10, 7))

    t = kop.random_tree(depth=small_depth, branching=2, seed=1)
    print(f"tree 1: binary, depth {small_depth}: {len(t):,} nodes, {t.n_leaves:,} leaves")
    cases = [
        ("Mh", lambda: kop.mh(t), lambda: reference.ref_mh(t)),
        ("minimax", lambda: kop.minimax(t, "A"), lambda: reference.ref_minimax(t, "A")),
        ("HM0M2", lambda: kop.hm0m(t, 2, "A"), lambda: reference.ref_hm0m(t, 2, "A")),
    ]
    for name, fast, slow in cases:
        tf, s = best_of(args.repeat, fast)
        ts, r = best_of(1, slow)
        assert s.value == r.value, (name, s.value, r.value)
        print(f"  {name:8s} vectorized {tf * 1000:8.1f} ms   recursive reference {ts:7.2f} s   "
              f"ratio {ts / tf:7.0f}x   value {s.value}")

    b, depth = big
    t0 = time.perf_counter()
    T = kop.random_tree(depth=depth, branching=b, seed=2)
    print(f"tree 2: branching {b}, depth {depth}: {len(T):,} nodes, {T.n_leaves:,} leaves "
          f"(generated in {time.perf_counter() - t0:.1f} s)")
    for name, fn in [("Mh", lambda: kop.mh(T)), ("minimax", lambda: kop.minimax(T, "A")),
                     ("HM0M2", lambda: kop.hm0m(T, 2, "A"))]:
        tf, s = best_of(args.repeat, fn)
        print(f"  {name:8s} vectorized {tf:6.2f} s   value {s.value}")
        del s
    tree_bytes = T.nbytes()
    tracemalloc.start()
    s = kop.mh(T)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    n = len(T)
    print(f"  memory: tree arrays {tree_bytes / n:.1f} B/node + M^h solve peak {peak / n:.1f} B/node "
          f"(of which the result {s.nbytes() / n:.1f}) = {(tree_bytes + peak) / n:.1f} B/node")
    del s, T

    print(f"M^d on tree 1 ({len(t):,} nodes):")
    base = None
    for d in range(7):
        tf, s = best_of(args.repeat, lambda: kop.mstar(t, d, "A"))
        base = base or tf
        print(f"  M{d}: {tf * 1000:8.1f} ms   ({tf / base:4.1f}x M0)   value {s.value}")


if __name__ == "__main__":
    main()
