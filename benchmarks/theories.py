"""Benchmark of theory files: parse a theory and answer ``dominates`` in every scenario.

Two workloads:

* ``theories/figure2.kop``: Figure 2 inline with the four scenarios of SPEC §3.4
  (goal: all four scenarios answered in under 0.5 s of CPU in process);
* a random two-player tree of about 10,000 nodes written inline in a theory,
  with two scenarios: each player knows only its own evaluation, and the same
  with partial knowledge (each knows the order of the other's outcomes).

For each it prints the CPU time (``time.process_time``) of each phase: parse
(reading the theory, building the game), prover (the two knowledge levels),
Decide (Algorithm 3), selector (the selector without verification),
verification (playing every allowed opponent behaviour), and the whole
``dominates`` answer as :func:`kop.theory.dominance.dominance` gives it
(which adds the proofs of the preconditions).  The first round warms the
caches (Lark's grammar, imports); the figures are the best of ``--repeat``
rounds.  The ratio column compares each phase with the parse of Figure 2 in
the same process.

Usage: python benchmarks/theories.py [--repeat N] [--nodes N] [--quick]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import kop
from kop.theory import TheoryRun

ROOT = Path(__file__).resolve().parent.parent


def _cpu(fn, repeat):
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t0)
    return best, out


def inline(tree) -> str:
    """The tree as the nested inline syntax of a theory."""
    lines: list[str] = []

    def node(i: int) -> str:
        n = tree.node(i)
        if n.is_leaf:
            return "(" + ",".join(str(int(x)) for x in n.payoff) + ")"
        return f"{n.player} {{ " + " ".join(node(c.index) for c in n.children) + " }"

    import sys

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 10_000))
    try:
        lines.append("game " + node(0))
    finally:
        sys.setrecursionlimit(old)
    return "\n".join(lines)


def phases(text: str, base: Path, repeat: int) -> dict[str, float]:
    from kop.reasoning.knowledge import level
    from kop.selection.decide import decide
    from kop.selection.selector import select
    from kop.theory.dominance import dominance

    t_parse, run = _cpu(lambda: TheoryRun(kop.parse_theory(text, base)), repeat)
    tree = run.tree
    p, q = tree.player_names
    out = {"parse": t_parse, "prover": 0.0, "Decide": 0.0, "selector": 0.0, "verification": 0.0, "dominates": 0.0}
    for ctx in run.scenarios():
        ks = ctx.formulas
        evs = run.evaluations(ctx.name) if ctx.partials else []
        kw = {"evaluations": evs} if evs else {}
        h = tree.height
        out["prover"] += _cpu(lambda: (level(ks, p, q, max_depth=h + 1), level(ks, q, p, max_depth=h + 1)),
                              repeat)[0]
        out["Decide"] += _cpu(lambda: decide(tree, ks, **kw), repeat)[0]
        sel_plain = _cpu(lambda: select(tree, ks, p, verify=False, **kw), repeat)[0]
        sel_full = _cpu(lambda: select(tree, ks, p, **kw), repeat)[0]
        out["selector"] += sel_plain
        out["verification"] += max(sel_full - sel_plain, 0.0)
        out["dominates"] += _cpu(lambda: dominance(tree, ks, p, scenario=ctx.name, evaluations=evs), repeat)[0]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="rounds per figure, the best kept (default 3)")
    ap.add_argument("--nodes", type=int, default=10_000, help="nodes of the random tree (default 10,000)")
    ap.add_argument("--quick", action="store_true", help="one round on a 500-node tree (seconds; no measurement)")
    args = ap.parse_args()
    if args.quick:
        args.repeat, args.nodes = 1, 500

    fig2 = (ROOT / "theories" / "figure2.kop").read_text()
    phases(fig2, ROOT / "theories", 1)  # warm up: grammar cache, imports
    f2 = phases(fig2, ROOT / "theories", args.repeat)

    tree = kop.random_tree(depth=40, branching=2, seed=7, max_nodes=args.nodes, leaf_prob=0.3)
    partial = "  A knows order of E_B\n  B knows order of E_A\n"
    big = ("players A max, B min\n" + inline(tree) + "\n"
           "scenario atomic {\n  core A = 0\n  core B = 0\n}\n"
           "scenario partial {\n  core A = 0\n  core B = 0\n" + partial + "}\n")
    rnd = phases(big, ROOT, 1)

    print(f"theories benchmark (CPU seconds, best of {args.repeat}; ratio = phase / Figure 2 parse)")
    print(f"{'phase':<14}{'Figure 2 (4 scenarios)':>24}{'ratio':>8}   "
          f"{f'random tree, {len(tree)} nodes (2 scenarios)':>38}{'ratio':>9}")
    base = f2["parse"] or 1e-9
    for k in f2:
        print(f"{k:<14}{f2[k]:>24.4f}{f2[k] / base:>8.1f}   {rnd[k]:>38.4f}{rnd[k] / base:>9.1f}")
    total = f2["parse"] + f2["dominates"]
    print(f"\nFigure 2: parse + dominates in all four scenarios = {total:.3f} s CPU "
          f"(goal < 0.5 s: {'met' if total < 0.5 else 'NOT met'})")


if __name__ == "__main__":
    main()
