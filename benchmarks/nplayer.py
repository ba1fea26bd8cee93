"""Bodkin's searches against their naive baselines, CPU time (time.process_time) in one process.

1. N players: leaves and time of Branch-and-Bound, Lower-Eval and Bimodal-Unimodal against
   naive max^n on the thesis's largest configuration (N = 3, b = 2, d = 14, m = 1, eta = 1 and
   eta = inf), averaged over --trees trees; the ratio is against max^n in this process.
2. Best case: the average branching factor f(d)^(1/d) of Branch-and-Bound on best-case
   trees against 1/2 + sqrt(b - 3/4) and against sqrt(b) (alpha-beta).
3. Simultaneous moves: LPs and time of Substructure-Eval (and Dominating-Eval) against
   Naive-Solution on random matrix-trees with correlated leaves.

    .venv/bin/python benchmarks/nplayer.py [--trees 20] [--sim-trees 20] [--quick]
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from kop.games.nplayer.best_case import best_case_branching, best_case_leaves, best_case_tree
from kop.games.nplayer.bimodal import bimodal_flat
from kop.games.nplayer.bnb import bnb, bnb_flat
from kop.games.nplayer.bounds import PayoffBounds
from kop.games.trees.lists import TreeLists
from kop.games.nplayer.lower_eval import lower_eval_flat
from kop.games.nplayer.random_trees import bodkin_arrays
from kop.games.simultaneous.core import random_sim_tree
from kop.games.simultaneous.dominating import dominating
from kop.games.simultaneous.naive import naive
from kop.games.simultaneous.substructure import substructure


def naive_maxn(flat: TreeLists) -> tuple[tuple[float, ...], int]:
    off, kind, pay = flat.off, flat.kind, flat.pay
    count = 0

    def rec(v: int) -> tuple[float, ...]:
        nonlocal count
        w = pay[v]
        if w is not None:
            count += 1
            return w
        p = kind[v]
        best = rec(off[v])
        for c in range(off[v] + 1, off[v + 1]):
            u = rec(c)
            if u[p] > best[p]:
                best = u
        return best

    return rec(0), count


def nplayer(trees: int) -> None:
    N, b, d, m = 3, 2, 14, 1.0
    bounds = PayoffBounds.uniform(N, m=m, M=1.0)
    print(f"1. N = {N}, b = {b}, d = {d}, m = {m:g}: mean leaves and CPU per tree over {trees} trees")
    for eta in (1.0, math.inf):
        rng = np.random.default_rng(2024)
        flats = [TreeLists.uniform(N, b, d, bodkin_arrays(N, b, d, m, eta, rng)[0]) for _ in range(trees)]
        rows = []
        base_t = 0.0
        for name, fn in (("maxn (naive)", None), ("bnb", bnb_flat), ("lower_eval", lower_eval_flat),
                         ("bimodal", bimodal_flat)):
            leaves = 0
            t0 = time.process_time()
            for f in flats:
                if fn is None:
                    _, n = naive_maxn(f)
                else:
                    _, n, _ = fn(f, bounds)
                leaves += n
            t = (time.process_time() - t0) / trees
            if fn is None:
                base_t = t
            rows.append((name, leaves / trees, t))
        print(f"   eta = {'inf' if eta == math.inf else int(eta)}")
        for name, leaves, t in rows:
            print(f"   {name:<14} leaves {leaves:>9.1f}  log_2 {math.log2(leaves):5.2f}  "
                  f"CPU {1000 * t:7.1f} ms  x{t / base_t:4.2f} of naive")


def best_case() -> None:
    print("2. best case of Branch-and-Bound: f(d)^(1/d) against 1/2 + sqrt(b - 3/4) and sqrt(b)")
    for b in (2, 3, 6):
        d = {2: 12, 3: 9, 6: 6}[b]
        t = best_case_tree(3, b, d)
        r = bnb(t, PayoffBounds.uniform(3, m=0, M=1))
        assert r.leaves == best_case_leaves(b, d)
        far = best_case_leaves(b, 200) ** (1 / 200)
        print(f"   b = {b}: d = {d}: {r.leaves} leaves, f(d)^(1/d) = {r.leaves ** (1 / d):.4f}; "
              f"d = 200: {far:.4f}; 1/2 + sqrt(b - 3/4) = {best_case_branching(b):.4f}; sqrt(b) = {b ** 0.5:.4f}")


def simultaneous(trees: int) -> None:
    print(f"3. simultaneous moves: 3x3 stages, depth 3, correlated leaves, {trees} trees (totals)")
    for chance in (0, 2):
        sims = [random_sim_tree(3, 3, 3, seed=s, chance=chance) for s in range(trees)]
        base = None
        for name, fn in (("naive", naive), ("substructure", substructure), ("dominating", dominating)):
            t0 = time.process_time()
            res = [fn(s) for s in sims]
            t = time.process_time() - t0
            lps = sum(r.lps for r in res)
            leaves = sum(r.leaves for r in res)
            if base is None:
                base = (lps, leaves, t, [r.value for r in res])
            assert all(abs(r.value - v) < 1e-7 for r, v in zip(res, base[3]))
            print(f"   chance {chance}: {name:<13} LPs {lps:>6}  leaves {leaves:>7}  CPU {t:6.2f} s  "
                  f"x{t / base[2]:4.2f} time, x{lps / max(base[0], 1):4.2f} LPs of naive")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trees", type=int, default=20, help="N-player trees (default 20)")
    ap.add_argument("--sim-trees", type=int, default=20, help="simultaneous-move trees (default 20)")
    ap.add_argument("--quick", action="store_true", help="small sizes, one run: seconds (a smoke test, no measurement)")
    a = ap.parse_args()
    if a.quick:
        a.trees, a.sim_trees = 1, 1
    nplayer(a.trees)
    best_case()
    simultaneous(a.sim_trees)


if __name__ == "__main__":
    main()
