"""Readers benchmark: Gambit .efg read/write and kop-tree/1 JSON load (issue 10).

Prints CPU time (time.process_time) for each case, its ratio against a baseline run in the same
process (``json.loads`` of the kop-tree/1 text of the same tree, the cyclic collector paused as
kop does), and whether the goal is met:

* .efg write and read of a 10^6-node tree: each under 3 s (the read also by the token-level
  reader alone, which reads the files the whole-file fast path leaves to it, for comparison);
* .efg read of flat games with 10k / 30k / 300k terminals: linear (time per terminal flat);
* kop-tree/1 JSON load of 10^6 nodes: under 2 s.

Run: ``python benchmarks/readers.py``
"""

from __future__ import annotations

import json
import time

import kop
from kop.games.efg import _loads
from kop.syntax.jsontext import paused_gc


def cpu(fn):
    t = time.process_time()
    out = fn()
    return time.process_time() - t, out


def main() -> None:
    tree = kop.random_tree(depth=19, branching=2, seed=1)  # 2^20 - 1 = 1,048,575 nodes
    text = kop.dumps_tree(tree)
    with paused_gc():
        base, _ = cpu(lambda: json.loads(text))
    print(f"tree: {len(tree):,} nodes; baseline json.loads of its kop-tree/1 text: {base:.2f} s CPU")
    rows = []
    t_write, efg = cpu(lambda: kop.dumps_efg(tree))
    rows.append(("efg write, 10^6 nodes", t_write, t_write < 3, "< 3 s"))
    t_read, back = cpu(lambda: kop.loads_efg(efg))
    assert back == tree
    rows.append(("efg read, 10^6 nodes", t_read, t_read < 3, "< 3 s"))
    t_slow, back = cpu(lambda: _loads(efg, fast=False))
    assert back == tree
    rows.append(("efg read, token-level reader alone", t_slow, None, f"(fast path {t_slow / t_read:.1f}x faster)"))
    t_json, back = cpu(lambda: kop.loads_tree(text))
    assert back == tree
    rows.append(("tree JSON load, 10^6 nodes", t_json, t_json < 2, "< 2 s"))
    per = []
    for n in (10_000, 30_000, 300_000):
        flat = kop.GameTree.build(["A", "B"], ("A", [(i, -i) for i in range(n)]))
        flat_text = kop.dumps_efg(flat)
        t, back = cpu(lambda: kop.loads_efg(flat_text))
        assert back == flat
        per.append(t / n)
        rows.append((f"efg read, flat {n:,} terminals", t, None, f"{t / n * 1e6:.1f} us/terminal"))
    linear = max(per) < 2 * min(per)
    for name, t, ok, goal in rows:
        verdict = "" if ok is None else ("met" if ok else "NOT met")
        print(f"{name:34s} {t:7.2f} s CPU  {t / base:6.1f}x baseline  goal {goal} {verdict}")
    print(f"flat games linear (time per terminal within 2x across 10k..300k): {'met' if linear else 'NOT met'}")


if __name__ == "__main__":
    main()
