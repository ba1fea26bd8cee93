"""Readers benchmark: Gambit .efg read/write and kop-tree/1 JSON load (issues 10 and 20).

Prints CPU time (time.process_time, the least of a few runs: the machine may be shared) for each
case, its ratio against a baseline run in the same process (``json.loads`` of the kop-tree/1 text
of the same tree, the cyclic collector paused as kop does), and whether the goal is met:

* .efg write and read of a 10^6-node tree: each under 3 s (the read also by the token-level
  reader alone, which reads the files the whole-file fast path leaves to it, for comparison);
* .efg read of a 10^6-node tree at least as fast as OpenSpiel's C++ loader
  (``pyspiel.load_efg_game`` on the same text, in the same run, where open_spiel is installed);
* peak memory of the .efg read and the JSON load (tracemalloc, the text itself not counted), and
  of ``kop.load_tree`` of the .efg file (its text counted as it is read) and M^h on the tree,
  within 3x the bytes of the tree's arrays (``GameTree.nbytes()``);
* .efg read of flat games with 10k / 30k / 300k terminals: linear (time per terminal flat);
* kop-tree/1 JSON load of 10^6 nodes: under 2 s.

Run: ``python benchmarks/readers.py`` (``--quick``: a 2^12-node tree and small flat games, one run;
seconds, and its figures measure nothing)
"""

from __future__ import annotations

import gc
import json
import os
import tempfile
import time
import tracemalloc

import kop
from kop.io.efg import _loads
from kop.io.jsontext import paused_gc

REPEATS = 3


def cpu(fn, repeats: int = 1):
    """(least CPU time over *repeats* runs, the last result)."""
    best = float("inf")
    out = None
    for _ in range(repeats):
        out = None
        gc.collect()
        t = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t)
    return best, out


def peak(fn) -> int:
    """Peak bytes allocated (tracemalloc) while *fn* runs, beyond what was held before."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    out = fn()
    top = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    del out
    return top - base


def main() -> None:
    global REPEATS
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, one run: seconds (a smoke test, no measurement)")
    args = ap.parse_args()
    depth, flats = (11, (1_000, 3_000)) if args.quick else (19, (10_000, 30_000, 300_000))
    if args.quick:
        REPEATS = 1
    tree = kop.random_tree(depth=depth, branching=2, seed=1)  # depth 19: 2^20 - 1 = 1,048,575 nodes
    text = kop.dumps_tree(tree)
    arrays = tree.nbytes()
    with paused_gc():
        base, _ = cpu(lambda: json.loads(text))
    print(f"tree: {len(tree):,} nodes, arrays {arrays / 2**20:.1f} MiB; "
          f"baseline json.loads of its kop-tree/1 text: {base:.2f} s CPU")
    rows = []
    t_write, efg = cpu(lambda: kop.dumps_efg(tree))
    rows.append(("efg write, 10^6 nodes", t_write, t_write < 3, "< 3 s"))
    t_read, back = cpu(lambda: kop.loads_efg(efg), REPEATS)
    assert back == tree
    del back
    rows.append(("efg read, 10^6 nodes", t_read, t_read < 3, "< 3 s"))
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
    if pyspiel is not None:  # paired: the two loaders in turn, the least of each
        t_kop = t_spiel = float("inf")
        for _ in range(2 * REPEATS):
            t_kop = min(t_kop, cpu(lambda: kop.loads_efg(efg))[0])
            t_spiel = min(t_spiel, cpu(lambda: pyspiel.load_efg_game(efg))[0])
        rows.append(("pyspiel.load_efg_game, same text", t_spiel, None,
                     f"(kop's read in turn with it {t_kop:.2f} s: {t_kop / t_spiel:.2f}x; goal <= 1: "
                     f"{'met' if t_kop <= t_spiel else 'NOT met'})"))
    t_slow, back = cpu(lambda: _loads(efg, fast=False))
    assert back == tree
    del back
    rows.append(("efg read, token-level reader alone", t_slow, None, f"(fast path {t_slow / t_read:.1f}x faster)"))
    t_json, back = cpu(lambda: kop.loads_tree(text), REPEATS)
    assert back == tree
    del back
    rows.append(("tree JSON load, 10^6 nodes", t_json, t_json < 2, "< 2 s"))
    per = []
    for n in flats:
        flat = kop.GameTree.build(["A", "B"], ("A", [(i, -i) for i in range(n)]))
        flat_text = kop.dumps_efg(flat)
        t, back = cpu(lambda: kop.loads_efg(flat_text), REPEATS)
        assert back == flat
        per.append(t / n)
        rows.append((f"efg read, flat {n:,} terminals", t, None, f"{t / n * 1e6:.1f} us/terminal"))
    linear = max(per) < 2 * min(per)
    for name, t, ok, goal in rows:
        verdict = "" if ok is None else ("met" if ok else "NOT met")
        print(f"{name:34s} {t:7.2f} s CPU  {t / base:6.1f}x baseline  goal {goal} {verdict}")
    print(f"flat games linear (time per terminal within 2x across 10k..300k): {'met' if linear else 'NOT met'}")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "big.efg")
        with open(path, "w", encoding="utf-8") as f:
            f.write(efg)
        cases = (("efg read", lambda: kop.loads_efg(efg)), ("tree JSON load", lambda: kop.loads_tree(text)),
                 ("efg file read + M^h", lambda: kop.strategy(kop.load_tree(path), "Mh")))
        for name, fn in cases:
            top = peak(fn)
            print(f"peak memory, {name:20s} {top / 2**20:7.1f} MiB  {top / arrays:5.2f}x the arrays  "
                  f"goal <= 3x {'met' if top <= 3 * arrays else 'NOT met'}")


if __name__ == "__main__":
    main()
