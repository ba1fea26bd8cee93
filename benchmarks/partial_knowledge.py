"""Benchmark: Decide and the selector with partial knowledge of evaluations, on random trees.

Usage::

    python benchmarks/partial_knowledge.py            # trees of 1,000 to 100,000 nodes, about a minute
    python benchmarks/partial_knowledge.py --quick    # up to 10,000 nodes

For each size it draws a random two-player tree and prints the CPU time of

* ``resolve``: checking the statements against the tree and finding the nodes
  they fix (numpy over the tree's arrays);
* ``decide``: :func:`kop.decide` with partial knowledge and no other formulas
  (the knowing-value model answers the knowledge chains);
* ``decide+f``: the same with the paper's f-levels as formulas (a few prover
  calls, as many as there are distinct knowledge chains: it grows with the
  height, not the size);
* ``select``: :func:`kop.select` with the same knowledge;

next to the baseline ``Mh`` (one vectorized backward-induction sweep) run in
the same process, and the ratio decide / Mh.  Times are CPU seconds
(``time.process_time``); the machine may be shared.
"""

from __future__ import annotations

import argparse
import time

import kop
from kop.games.trees.random_trees import random_tree
from kop.selection.evaluations import resolve_all


def cpu(f):
    t0 = time.process_time()
    out = f()
    return time.process_time() - t0, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    sizes = [1_000, 10_000] if args.quick else [1_000, 10_000, 100_000]
    evals = [kop.knows_within("A", "B", 10), kop.knows_order("B", "A")]
    ks = kop.f_level("A", "B", 0) + kop.f_level("B", "A", 0)
    print(f"{'nodes':>8} {'height':>6} {'Mh':>8} {'resolve':>8} {'decide':>8} {'decide+f':>9} {'select':>8} "
          f"{'decide/Mh':>10} {'decided':>8}")
    for n in sizes:
        t = random_tree(depth=30, branching=(2, 4), leaf_prob=0.1, seed=n, max_nodes=n)
        t_mh, _ = cpu(lambda: kop.mh(t))
        t_res, _ = cpu(lambda: resolve_all(t, evals))
        t_dec, d = cpu(lambda: kop.decide(t, [], evaluations=evals))
        t_decf, _ = cpu(lambda: kop.decide(t, ks, evaluations=evals))
        t_sel, _ = cpu(lambda: kop.select(t, ks, evaluations=evals, verify=len(t) <= 20_000))
        print(f"{len(t):>8} {t.height:>6} {t_mh:>8.3f} {t_res:>8.3f} {t_dec:>8.3f} {t_decf:>9.3f} {t_sel:>8.3f} "
              f"{t_dec / max(t_mh, 1e-6):>10.1f} {len(d.decided_nodes()):>8}")


if __name__ == "__main__":
    main()
