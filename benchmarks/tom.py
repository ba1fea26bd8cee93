"""Theory-of-mind datasets end to end: agreement with the gold answers, per question type and order, and CPU time.

    python benchmarks/tom.py path/to/tomi_balanced_story_types/fb_all_test.txt
    python benchmarks/tom.py path/to/Hi-ToM_data.json [--sizes]

The format comes from the suffix (.txt ToMi, with its .trace beside it; .json Hi-ToM).  Prints a
table of agreement per question type and per order, every disagreement's class (see
docs/theory-of-mind.md), the CPU time (reading + compiling, answering), the time per question,
and with --sizes the distribution of Story.minimal_size() (the explicit model; stories whose
model exceeds the reference's limit are counted apart).  The datasets are not shipped (ToMi is
CC BY-NC): fetch them from GitHub (facebookresearch/ToMi, ying-hui-he/Hi-ToM_dataset).
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kop.stories.errors import StoryError  # noqa: E402
from kop.stories.story import Story, read_stories  # noqa: E402


def classify(story: Story, q, answer) -> str:  # type: ignore[no-untyped-def]
    """A disagreement's class: a label error shown by the story's lines, or a named convention."""
    c = story.compiled
    from kop.stories.beliefs import believed
    if q.order >= 1 and answer.container is not None:
        try:
            known = believed(c, q.chain, c.objects.index(q.obj), story._steps(q.after), {}, ranked=False)
        except StoryError:  # too many runs to enumerate every world of the cells
            known = None
        if known is not None and c.containers[known] == answer.container:
            return (f"label error: K_{' K_'.join(q.chain)} in({q.obj}, {answer.container}) holds (knowledge, "
                    "true in every world of the cells, whatever the plausibility), so the gold cannot be right")
    if q.order >= 2 and q.gold == c.containers[c.states[-1][c.objects.index(q.obj)]]:
        # the gold is where the object really is: did each agent of the chain see the last move?
        return next((r for r in (_absent(story, q, a) for a in reversed(q.chain)) if r), "unclassified")
    return "unclassified"


def _absent(story: Story, q, inner: str) -> str:  # type: ignore[no-untyped-def]
    if True:
        moves = [e for e in story.events if e.kind == "move" and e.obj == q.obj]
        if moves:
            last = moves[-1]
            where: dict[str, str | None] = {}
            for e in story.events:
                if e is last:
                    break
                if e.kind == "enter":
                    for a in e.agents or (e.agent,):
                        where[a] = e.place
                elif e.kind == "exit":
                    where[e.agent] = None
            mover_place = where.get(last.agent)
            after = story.events[story.events.index(last) + 1:]
            back = any(e.kind == "enter" and inner in (e.agents or (e.agent,)) and e.place == mover_place
                       for e in after)
            if where.get(inner) != mover_place and not back:
                left = [e.line for e in story.events if e.kind == "exit" and e.agent == inner
                        and e.line < last.line]
                return (f"label error: {inner} was not in the {mover_place} when the {q.obj} was moved "
                        f"(line {last.line}{', left at line ' + str(left[-1]) if left else ''}) and did not come "
                        "back, yet the gold is where it was moved")
    return ""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dataset", metavar="DATASET_PATH")
    ap.add_argument("--format", choices=("tomi", "hitom", "kop"))
    ap.add_argument("--sizes", action="store_true", help="also the distribution of minimal model sizes")
    ap.add_argument("--show", type=int, default=0, metavar="N", help="print N disagreements of each class")
    args = ap.parse_args()
    path = Path(args.dataset)
    fmt = args.format or ("tomi" if path.suffix == ".txt" else "hitom" if path.suffix == ".json" else "kop")
    text = path.read_text(encoding="utf-8")
    trace_path = path.with_suffix(".trace")
    trace = trace_path.read_text(encoding="utf-8") if fmt == "tomi" and trace_path.is_file() else None
    t0 = time.process_time()
    stories = read_stories(text, fmt, trace=trace)
    t1 = time.process_time()
    by_type: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    by_order: dict[int, list[int]] = collections.defaultdict(lambda: [0, 0])
    classes: collections.Counter[str] = collections.Counter()
    examples: dict[str, list[str]] = collections.defaultdict(list)
    worst = 0.0
    for s in stories:
        for q in s.questions:
            q0 = time.process_time()
            a = s.answer(q)
            worst = max(worst, time.process_time() - q0)
            ok = bool(a.agrees)
            for table, key in ((by_type, q.label or q.kind), (by_order, q.order)):
                table[key][0] += ok  # type: ignore[index]
                table[key][1] += 1   # type: ignore[index]
            if not ok:
                cls = classify(s, q, a)
                key = cls.split(":")[0] if cls.startswith("label error") else cls
                classes[key] += 1
                if len(examples[key]) < args.show:
                    examples[key].append(f"line {q.line}: {q.text} gold {q.gold}, kop {a.container}: {cls}")
    t2 = time.process_time()
    n = sum(v[1] for v in by_order.values())
    agree = sum(v[0] for v in by_order.values())
    print(f"{path.name} ({fmt}): {len(stories)} stories, {n} questions, {agree} agree ({100 * agree / max(n, 1):.2f} %)")
    print(f"{'question type':32} {'agree':>7} {'of':>7} {'%':>7}")
    for k, (ok, tot) in sorted(by_type.items()):
        print(f"{k:32} {ok:7d} {tot:7d} {100 * ok / tot:7.2f}")
    print(f"{'order':32} {'agree':>7} {'of':>7} {'%':>7}")
    for k, (ok, tot) in sorted(by_order.items()):
        print(f"{k:<32} {ok:7d} {tot:7d} {100 * ok / tot:7.2f}")
    print("disagreements by class:")
    for k, v in classes.most_common():
        print(f"  {v:5d}  {k}")
        for ex in examples[k]:
            print(f"         {ex}")
    print(f"CPU: read and compile {t1 - t0:.2f} s, answer {t2 - t1:.2f} s, total {t2 - t0:.2f} s; "
          f"{1000 * (t2 - t1) / max(n, 1):.2f} ms per question, slowest {1000 * worst:.1f} ms")
    if args.sizes:
        sizes: collections.Counter[int] = collections.Counter()
        too_big = 0
        t3 = time.process_time()
        for s in stories:
            try:
                sizes[s.minimal_size()] += 1
            except StoryError:
                too_big += 1
        t4 = time.process_time()
        print("minimal model size (worlds): " + ", ".join(f"{k}: {v}" for k, v in sorted(sizes.items()))
              + (f"; over the reference's limit: {too_big}" if too_big else "") + f" ({t4 - t3:.1f} s CPU)")


if __name__ == "__main__":
    main()
