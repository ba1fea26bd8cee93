"""Theory-of-mind datasets end to end: agreement with the gold answers, per question type and order, and CPU time.

    python benchmarks/tom.py path/to/tomi_balanced_story_types/fb_all_test.txt
    python benchmarks/tom.py path/to/Hi-ToM_data.json [--sizes]
    python benchmarks/tom.py path/to/Hi-ToM_data.json --set telling=revise --set hidden=any

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
import gc
import dataclasses
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kop.stories.errors import StoryError  # noqa: E402
from kop.io.stories import read_stories  # noqa: E402
from kop.stories.story import Story  # noqa: E402


def hitom_tell_rule(story: Story, q) -> str | None:  # type: ignore[no-untyped-def]
    """The answer under Hi-ToM's telling rule: kop's answer to the story without its tells, then each
    tell sets only a trusting listener's belief, the listener's belief about the speaker, and the
    speaker's belief about each listener (dynamic_actions.py, PrivateTellAction / PublicTellAction)."""
    from kop.stories.events import ParsedStory
    events = tuple(e for e in story.events if e.kind != "tell")
    base = Story(ParsedStory(events, story.agents, (q,)), story.conventions).answer(q).container
    exits: dict[str, int] = {}
    never = 10**9
    for e in story.events:
        if e.kind == "exit":
            exits[e.agent] = e.line
        if e.kind != "tell" or e.obj != q.obj:
            continue
        hear = e.listeners or tuple(a for a in story.agents if a != e.agent)
        for lis in hear:
            trusted = exits.get(e.agent, never) > exits.get(lis, never)
            if trusted and q.chain in ((lis,), (lis, e.agent)):
                base = e.container
            if q.chain == (e.agent, lis):
                base = e.container
    return base


class _World:
    """The little of ToMi's World that its Oracle's constructor reads."""

    def __init__(self, story: Story):
        c = story.compiled
        self.kinds = {"agents": list(story.agents), "objects": list(c.objects), "containers": list(c.containers),
                      "locations": sorted({e.place for e in story.events if e.place} | {""})}

    def get_all(self, kind: str) -> list[str]:
        return self.kinds[kind]


def tomi_oracle_answers(story: Story, tomi) -> list[str | None]:  # type: ignore[no-untyped-def]
    """Replay *story* through ToMi's own oracle (tomi.oracle.Oracle, tomi.actions) and read its answers.

    Observers are the agents in the place at the time, as ToMi's generator passes them."""
    oracle = tomi.oracle.Oracle(_World(story))
    c = story.compiled
    for a in story.agents:
        oracle.set_location(a, None)
    for place in oracle.locations.containers:
        oracle.locations.containers[place] = []
    places: dict[str, list[str]] = collections.defaultdict(list)
    for cont, place_of in zip(c.containers, [c.containers.index(x) for x in c.containers]):
        places[_place(story, place_of)].append(cont)
    for place, conts in places.items():
        oracle.set_containers(place, conts)
    for o, obj in enumerate(c.objects):
        oracle.set_object_container(obj, c.containers[c.initial[o]])
    start = {obj: c.containers[c.initial[o]] for o, obj in enumerate(c.objects)}
    act = tomi.actions

    def present(place: str, but: str = "") -> list[str]:
        return [a for a in story.agents if oracle.get_location(a) == place and a != but]

    for e in story.events:
        if e.kind == "enter":
            for a in e.agents or (e.agent,):
                act.EnterAction(oracle, (a, e.place), present(e.place, a))
        elif e.kind == "exit":
            act.ExitedAction(oracle, e.agent)
        elif e.kind == "place":
            act.ObjectLocAction(oracle, e.obj, present(_place(story, c.containers.index(e.container))))
        elif e.kind == "move":
            act.MoveAction(oracle, (e.agent, e.obj, e.container), present(oracle.get_location(e.agent), e.agent))
    out: list[str | None] = []
    for q in story.questions:
        if q.kind == "reality":
            out.append(oracle.get_object_container(q.obj))
        elif q.kind == "memory":
            out.append(start[q.obj])
        elif q.order == 1:
            out.append(oracle.get_direct_belief(q.chain[0], q.obj))
        else:
            out.append(oracle.get_indirect_belief(q.chain[0], q.chain[1], q.obj))
    return out


def _place(story: Story, container: int) -> str:
    from kop.stories.compile import _Builder
    if not hasattr(story, "_places"):
        story._places = _Builder(story.events, story.agents, story.conventions).container_place  # type: ignore[attr-defined]
    return story._places[container]  # type: ignore[attr-defined,no-any-return]


def _plain(story: Story) -> tuple[object, ...]:
    return tuple(dataclasses.replace(e, line=0) for e in story.events)


def classify(story: Story, q, answer, twins=None) -> str:  # type: ignore[no-untyped-def]
    """A disagreement's class: a label error shown by the story's lines, or a named convention."""
    c = story.compiled
    golds = (twins or {}).get((_plain(story), q.text), {})
    if len(golds) > 1 and answer.container in golds:
        other = ", ".join(f"{g} (item {i})" for g, i in sorted(golds.items()))
        return f"label error, two answers: the same story and question have the answers {other}; kop gives one"
    said = {e.container for e in story.events if e.obj == q.obj}
    if q.gold not in said:
        return (f"label error, wrong object: the gold {q.gold} is never said to hold the {q.obj} (it is not placed, "
                "moved or claimed there)")
    from kop.stories.beliefs import believed
    if q.order >= 1 and answer.container is not None:
        try:
            known = believed(c, q.chain, c.objects.index(q.obj), story._steps(q.after), {}, ranked=False)
        except StoryError:  # too many runs to enumerate every world of the cells
            known = None
        if known is not None and c.containers[known] == answer.container:
            return (f"label error: K_{' K_'.join(q.chain)} in({q.obj}, {answer.container}) holds (knowledge, "
                    "true in every world of the cells, whatever the plausibility), so the gold cannot be right")
    if (story.conventions.telling == "revise" and any(e.kind == "tell" for e in story.events)
            and hitom_tell_rule(story, q) == q.gold):
        return ("convention: telling=hitom (a tell changes only the listener's belief, its belief "
                "about the speaker and the speaker's belief about the listener)")
    if story.conventions.telling == "hitom" and any(e.kind == "tell" for e in story.events):
        revised = Story(story.parsed, dataclasses.replace(story.conventions, telling="revise")).answer(q)
        if revised.container == q.gold:
            return ("convention: telling=revise on this question (the gold is what a listener who revises "
                    "by DEL's soft upgrade, and those who know it does, believe)")
    if len(golds) > 1:
        other = ", ".join(f"{g} (item {i})" for g, i in sorted(golds.items()))
        return f"label error, two answers: the same story and question have the answers {other}; kop gives neither"
    told = any(e.kind == "tell" and e.obj == q.obj and e.container in (q.gold, "") for e in story.events)
    if q.order >= 2 and not told and q.gold == c.containers[c.states[-1][c.objects.index(q.obj)]]:
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


def _generated(n: int) -> str:
    """*n* generated stories (3 agents, questions to order 4) in Hi-ToM's JSON, kop's answers as gold."""
    import json

    from kop.stories.generate import generate_story, render
    from kop.stories.events import ParsedStory, story_agents
    from kop.stories.story import DEFAULTS

    items = []
    for seed in range(n):
        events, questions = generate_story(3, 4, 10, seed)
        story = Story(ParsedStory(tuple(events), story_agents(events, questions, 1), tuple(questions)), DEFAULTS["hitom"])
        answered = [(q, a) for q in questions if (a := story.answer(q).container) is not None]  # one container
        items += json.loads(render(events, [q for q, _ in answered], "hitom", [a for _, a in answered]))["data"]
    return json.dumps({"data": items})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dataset", metavar="DATASET_PATH", nargs="?")
    ap.add_argument("--quick", action="store_true",
                    help="a smoke test in seconds: without DATASET_PATH, 20 generated Hi-ToM stories (answers by kop)")
    ap.add_argument("--format", choices=("tomi", "hitom", "kop"))
    ap.add_argument("--sizes", action="store_true", help="also the distribution of minimal model sizes")
    ap.add_argument("--size-limit", type=int, default=5000, metavar="WORLDS",
                    help="with --sizes: the largest explicit model built (default 5000; larger ones are counted apart)")
    ap.add_argument("--size-events", type=int, default=10**9, metavar="N",
                    help="with --sizes: size only the stories of at most N events (the others are counted apart)")
    ap.add_argument("--tomi-oracle", metavar="DIR",
                    help="a folder holding ToMi's 'tomi' package (from a clone of facebookresearch/ToMi): replay "
                         "every ToMi story through its own oracle in this process, for agreement and time")
    ap.add_argument("--generated", action="store_true",
                    help="also time an order-6 question on generated 8-agent stories")
    ap.add_argument("--show", type=int, default=0, metavar="N", help="print N disagreements of each class")
    ap.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                    help="change one of the format's conventions, e.g. --set telling=revise (repeatable)")
    args = ap.parse_args()
    if args.dataset is None and not args.quick:
        ap.error("DATASET_PATH is required (or --quick, a smoke test on generated stories)")
    if args.dataset is None:
        path, fmt, text, trace = Path("generated.json"), "hitom", _generated(20), None
    else:
        path = Path(args.dataset)
        fmt = args.format or ("tomi" if path.suffix == ".txt" else "hitom" if path.suffix == ".json" else "kop")
        text = path.read_text(encoding="utf-8")
        trace_path = path.with_suffix(".trace")
        trace = trace_path.read_text(encoding="utf-8") if fmt == "tomi" and trace_path.is_file() else None
    t0 = time.process_time()
    from kop.stories.story import DEFAULTS
    conventions = DEFAULTS[fmt]
    for option in args.set:
        name, _, value = option.partition("=")
        if name not in {f.name for f in dataclasses.fields(conventions)}:
            ap.error(f"unknown convention {name!r}")
        conventions = dataclasses.replace(conventions, **{name: value == "true" if name == "enter_sees" else value})
    if args.set:
        print(f"conventions: {conventions!r}")
    stories = read_stories(text, fmt, conventions, trace=trace)
    t1 = time.process_time()
    twins: dict[tuple[object, str], dict[str, int]] = collections.defaultdict(dict)
    for i, s in enumerate(stories):   # the same story and question given twice (Hi-ToM: CoTP and VP items)
        for q in s.questions:
            if q.gold is not None:
                twins[(_plain(s), q.text)].setdefault(q.gold, i)
    by_type: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    by_order: dict[int, list[int]] = collections.defaultdict(lambda: [0, 0])
    classes: collections.Counter[str] = collections.Counter()
    examples: dict[str, list[str]] = collections.defaultdict(list)
    worst = spent = 0.0
    for s in stories:
        for q in s.questions:
            q0 = time.process_time()
            a = s.answer(q)
            took = time.process_time() - q0
            worst, spent = max(worst, took), spent + took
            ok = bool(a.agrees)
            for table, key in ((by_type, q.label or q.kind), (by_order, q.order)):
                table[key][0] += ok  # type: ignore[index]
                table[key][1] += 1   # type: ignore[index]
            if not ok:
                cls = classify(s, q, a, twins)
                key = cls.split(":")[0] + ("; kop gives neither" if cls.endswith("neither") else "")
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
    print(f"CPU: read and compile {t1 - t0:.2f} s, answer {spent:.2f} s, total {t1 - t0 + spent:.2f} s "
          f"(classifying the disagreements: {t2 - t1 - spent:.2f} s more); "
          f"{1000 * spent / max(n, 1):.2f} ms per question, slowest {1000 * worst:.1f} ms")
    per_order: dict[int, list[float]] = collections.defaultdict(list)
    gc.collect()
    gc.disable()   # as timeit does: a collection of the whole data set's garbage is not one item's time
    for s in stories:   # each story compiled afresh and its questions answered: the time of one item
        q0 = time.process_time()
        fresh = Story(s.parsed, s.conventions)
        for q in fresh.questions:
            fresh.answer(q)
        per_order[max((q.order for q in s.questions), default=0)].append(time.process_time() - q0)
    for k, ts in sorted(per_order.items()):
        ts.sort()
        print(f"one item (compile + answer, GC off), questions of order {k}: median {1000 * ts[len(ts) // 2]:.2f} ms, "
              f"max {1000 * ts[-1]:.2f} ms ({len(ts)} items)")
    gc.enable()
    if args.generated:
        from kop.stories.generate import generate_story
        from kop.stories.events import ParsedStory, story_agents
        spent6 = []
        for seed in range(20):
            ev, qs = generate_story(8, 6, 30, seed)
            st = Story(ParsedStory(tuple(ev), story_agents(ev, qs, 1), tuple(qs)))
            q0 = time.process_time()
            st.answer(qs[2])   # the first belief question has the full order
            spent6.append(time.process_time() - q0)
        spent6.sort()
        print(f"an order-6 question on a generated 8-agent, 30-event story (20 seeds): median "
              f"{1000 * spent6[10]:.2f} ms, max {1000 * spent6[-1]:.2f} ms")
    if args.tomi_oracle and fmt == "tomi":
        sys.path.insert(0, args.tomi_oracle)
        import tomi.actions
        import tomi.oracle
        t5 = time.process_time()
        same = gold_same = total = 0
        for s in stories:
            _place(s, 0)
        t5 = time.process_time()
        replies = [tomi_oracle_answers(s, tomi) for s in stories]
        t6 = time.process_time()
        differ: collections.Counter[str] = collections.Counter()
        for s, got in zip(stories, replies):
            for q, g in zip(s.questions, got):
                total += 1
                mine = s.answer(q).container
                same += g == mine
                gold_same += g == q.gold
                if g != mine:
                    differ[f"{q.label}: oracle {'=' if g == q.gold else '!='} gold, kop {'=' if mine == q.gold else '!='} gold"] += 1
        print(f"ToMi's own oracle replayed on the same stories: agrees with kop on {same} of {total}, with the "
              f"file's gold on {gold_same}; CPU {t6 - t5:.2f} s (kop: {t1 - t0 + spent:.2f} s, ratio "
              f"{(t1 - t0 + spent) / max(t6 - t5, 1e-9):.2f})")
        for k, v in differ.most_common():
            print(f"  {v:5d}  {k}")
    if args.sizes:
        import kop.stories.reference
        kop.stories.reference.MAX_WORLDS = args.size_limit
        sizes: collections.Counter[int] = collections.Counter()
        too_big = longer = 0
        t3 = time.process_time()
        for s in stories:
            if len(s.events) > args.size_events:
                longer += 1
                continue
            try:
                sizes[s.minimal_size()] += 1
            except StoryError:
                too_big += 1
        t4 = time.process_time()
        print("minimal model size (worlds): " + ", ".join(f"{k}: {v}" for k, v in sorted(sizes.items()))
              + (f"; over the reference's limit: {too_big}" if too_big else "")
              + (f"; longer than {args.size_events} events, not sized: {longer}" if longer else "")
              + f" ({t4 - t3:.1f} s CPU)")


if __name__ == "__main__":
    main()
