"""Premise/hypothesis items about knowledge and belief (BIG-bench ``epistemic_reasoning``), answered by the prover.

    python benchmarks/epistemic_items.py DATASET_PATH [--show N]
    python benchmarks/epistemic_items.py --synthetic 2000     # self-written items, for the timing
    python benchmarks/epistemic_items.py --quick              # 100 self-written items (seconds; no measurement)

DATASET_PATH is a BIG-bench task file (``task.json``: ``{"examples": [{"input":
"... Premise: P Hypothesis: H ...", "target_scores": {"entailment": 0|1,
"non-entailment": 0|1}}, ...]}``) or a JSON Lines file of ``{"premise", "hypothesis",
"label"}`` records.  Each item is read by :func:`kop.reasoning.reading.judge`:
factive verbs as ``K_x``, non-factive ones as ``B_x``, the innermost sentence as
an atom when the premise's and the hypothesis's are the same text; otherwise
the item "needs textual entailment" and is not answered.

Printed: per *shape* (the two operator chains with the agents renamed 1, 2, ...
in order of appearance, e.g. ``K1 B2 S |- B2 S``), the number of items, how
many kop answered, how many agree with the gold label, how many it refused as
textual; then the disagreements (``--show``), and the CPU time of the whole run
in this one process (goal: under 30 s for 2,000 items).

``--synthetic N`` builds N items of the same shapes from kop's own names,
verbs and sentences (premise chains of 1-2 attitudes, hypotheses of 0-2, one
item in ten with a different innermost sentence); their "gold" label is the
chain derivation of :func:`kop.reasoning.reading.derivation`, a procedure
separate from the prover, so the run is also a cross-check.

kop does not ship the dataset: fetch it from the BIG-bench repository
(``bigbench/benchmark_tasks/epistemic_reasoning/task.json``, Apache 2.0).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from kop.reasoning.reading import LABELS, judge, reading

_ITEM = re.compile(r"Premise:\s*(?P<p>.*?)\s*Hypothesis:\s*(?P<h>.*?)\s*$", re.S)


def load(path: Path) -> list[tuple[str, str, str]]:
    """``(premise, hypothesis, gold label)`` per item."""
    text = path.read_text(encoding="utf-8")
    items = []
    if path.suffix == ".jsonl":
        for line in text.splitlines():
            if line.strip():
                r = json.loads(line)
                items.append((r["premise"], r["hypothesis"], r["label"]))
        return items
    data = json.loads(text)
    for ex in data["examples"]:
        m = _ITEM.search(ex["input"])
        if m is None:
            raise SystemExit(f"cannot find 'Premise: ... Hypothesis: ...' in {ex['input'][:120]!r}")
        scores = ex["target_scores"]
        gold = max(scores, key=lambda k: scores[k])
        items.append((m.group("p"), m.group("h"), gold))
    return items


NAMES = ["Ann", "Bob", "Carl", "Dana"]
VERBS = {"K": ["knows", "understands", "sees", "remembers", "learns", "recognizes"],
         "B": ["believes", "thinks", "suspects", "assumes"]}
SENTENCES = ["a dog runs on the beach", "two men play chess in a park", "the door is open",
             "a woman rides a bicycle", "it is raining in the city"]


def synthetic(n: int, seed: int = 0) -> list[tuple[str, str, str]]:
    """*n* self-written items; gold by :func:`derivation` (see the module docstring)."""
    import random

    from kop.reasoning.reading import derivation

    rng = random.Random(seed)

    def sentence(depth: int, core: str) -> str:
        parts = []
        for _ in range(depth):
            op = rng.choice("KB")
            parts.append(f"{rng.choice(NAMES)} {rng.choice(VERBS[op])} that")
        return " ".join(parts + [core])

    items = []
    for _ in range(n):
        core = rng.choice(SENTENCES)
        other = rng.choice(SENTENCES) if rng.random() < 0.1 else core
        p, h = sentence(rng.randint(1, 2), core), sentence(rng.randint(0, 2), other)
        rp, rh = reading(p), reading(h)
        if rp.core != rh.core:
            # two sentences: never entailed while they are unrelated (a chain of attitudes over T is
            # not valid); entailed if equivalent exactly where the chains over one atom are
            gold = LABELS[2] if derivation(rp.formula(), rh.formula()) is not None else LABELS[1]
        else:
            gold = LABELS[0] if derivation(rp.formula(), rh.formula()) is not None else LABELS[1]
        items.append((p, h, gold))
    return items


def shape(premise: str, hypothesis: str) -> str:
    p, h = reading(premise), reading(hypothesis)
    names: dict[str, int] = {}
    parts = []
    for r, core in ((p, "S"), (h, "S" if h.core == p.core else "T")):
        ops = [f"{op}{names.setdefault(agent, len(names) + 1)}" for op, agent, _ in r.attitudes]
        parts.append(" ".join(ops + [core]))
    return f"{parts[0]} |- {parts[1]}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", metavar="DATASET_PATH", type=Path, nargs="?")
    ap.add_argument("--synthetic", type=int, metavar="N", help="N self-written items instead of a dataset")
    ap.add_argument("--show", type=int, default=20, help="print at most this many disagreements")
    ap.add_argument("--shapes", type=int, default=40, help="print the most frequent shapes only (the total counts all)")
    ap.add_argument("--quick", action="store_true",
                    help="100 self-written items when no DATASET_PATH is given, else the first 100 items "
                         "(seconds; no measurement)")
    args = ap.parse_args()
    if args.quick and not args.synthetic and args.dataset is None:
        args.synthetic = 100
    if args.synthetic:
        items = synthetic(args.synthetic)
    elif args.dataset is not None:
        items = load(args.dataset)
    else:
        ap.error("give DATASET_PATH or --synthetic N (or --quick)")
    if args.quick:
        items = items[:100]
    start = time.process_time()
    per: dict[str, Counter[str]] = defaultdict(Counter)
    wrong = []
    for premise, hypothesis, gold in items:
        a = judge(premise, hypothesis)
        c = per[shape(premise, hypothesis)]
        c["items"] += 1
        c[f"gold {gold}"] += 1
        if a.label == LABELS[2]:
            c["textual"] += 1
            if gold != LABELS[2] and gold not in ("entailment", "non-entailment"):
                wrong.append((premise, hypothesis, gold, a))
            continue
        c["answered"] += 1
        if a.label == gold:
            c["agree"] += 1
        else:
            wrong.append((premise, hypothesis, gold, a))
    cpu = time.process_time() - start
    print(f"{'shape':<34} {'items':>6} {'answered':>8} {'agree':>6} {'textual':>7}")
    tot: Counter[str] = Counter()
    for rank, s in enumerate(sorted(per, key=lambda k: (-per[k]["items"], k))):
        c = per[s]
        tot.update(c)
        if rank >= args.shapes:
            continue
        print(f"{s:<34} {c['items']:>6} {c['answered']:>8} {c['agree']:>6} {c['textual']:>7}")
    if len(per) > args.shapes:
        print(f"... {len(per) - args.shapes} more shapes")
    print(f"{'all':<34} {tot['items']:>6} {tot['answered']:>8} {tot['agree']:>6} {tot['textual']:>7}")
    if tot["answered"]:
        print(f"agreement with the gold labels on the answered items: {tot['agree'] / tot['answered']:.2%}")
    print(f"CPU time: {cpu:.2f} s for {len(items)} items in one process (goal < 30 s for 2,000)")
    for premise, hypothesis, gold, a in wrong[:args.show]:
        print(f"\nDISAGREE gold={gold} kop={a.label}\n  premise:    {premise}\n  hypothesis: {hypothesis}\n"
              f"  reason: {a.reason}")


if __name__ == "__main__":
    sys.exit(main())
