"""``kop story``: answer the questions of a theory-of-mind story file; ``kop story generate``: make stories.

    kop story theories/sally_anne.story
    kop story fb_all_test.txt --format tomi --json
    kop story generate --agents 4 --order 3 --length 10 --seed 1

A file literally named ``generate`` is read as ``./generate``.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from kop.cli.app import Commands, print_json


def register(cli: Commands) -> None:
    p = cli.add("story", _story, json_help="Print JSON lines: one per question, then a summary object.")
    p.add_argument("source", metavar="FILE",
                   help="A story file (or 'generate' to make one; a file named generate: ./generate).")
    p.add_argument("--format", choices=("tomi", "hitom", "kop"), metavar="tomi|hitom|kop",
                   help="The file's format (default: by suffix: .txt tomi, .json hitom, else kop; "
                        "for generate: kop).")
    p.add_argument("--trace", action="store_true", help="Print each agent's belief after every event.")
    p.add_argument("--show-model", action="store_true", help="Print the plausibility model after the story.")
    p.add_argument("--agents", type=int, default=3, metavar="N", help="generate: the number of agents.")
    p.add_argument("--order", type=int, default=2, metavar="K", help="generate: the deepest question.")
    p.add_argument("--length", type=int, default=8, metavar="L", help="generate: the number of events.")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="generate: the random seed.")


def _format(path: str, given: str | None) -> str:
    if given:
        return given
    name = path.lower()
    return "tomi" if name.endswith(".txt") else "hitom" if name.endswith(".json") else "kop"


def _story(args: argparse.Namespace) -> int | None:
    """Answer every question of a story FILE (ToMi, Hi-ToM or kop syntax) by model checking, or generate one.

    Each answer is the container c with B_A B_B ... in(X, c) true at the actual world after the
    story, with that formula; "no single container" when no c makes it true.  Exit status 2 on bad input.
    """
    from kop.errors import KopError
    from kop.stories.errors import StoryError
    from kop.io.stories import read_stories
    from kop.syntax.files import read_text
    if args.source == "generate":
        return _generate(args)
    fmt = _format(args.source, args.format)
    text = read_text(args.source, what="story file")
    trace = None
    if fmt == "tomi":
        tpath = Path(args.source).with_suffix(".trace")
        if tpath.is_file():
            trace = read_text(str(tpath), what="trace file")
    try:
        stories = read_stories(text, fmt, trace=trace)
    except StoryError as err:
        raise KopError(f"{args.source}: {err}") from None   # FILE: line N[, column M]: what, as kop's other readers
    index = 0
    agree = disagree = unanswered = no_gold = 0
    for story in stories:
        if args.trace and not args.json:
            _print_trace(story)
        for q in story.questions:
            a = story.answer(q)
            index += 1
            if a.container is None:
                unanswered += 1
            if a.agrees is None:
                no_gold += 1
            elif a.agrees:
                agree += 1
            else:
                disagree += 1
            if args.json:
                row: dict[str, Any] = {"index": index, "question": q.text, "answer": a.container,
                                       "order": q.order, "gold": q.gold, "agrees": a.agrees,
                                       "kind": q.kind, "type": q.label or None, "line": q.line,
                                       "formula": a.formula or None}
                if a.container is None:
                    row["reason"] = a.reason
                print_json(row)
            else:
                mark = "" if a.agrees is None else ("  (agrees)" if a.agrees else f"  (file: {q.gold})")
                print(f"{index}. line {q.line}: {q.text}\n   {a}{mark}")
        if args.show_model:
            _print_model(story, args.json)
    total = agree + disagree
    if args.json:
        print_json({"summary": True, "questions": index, "agree": agree, "disagree": disagree,
                    "no_gold": no_gold, "unanswered": unanswered, "stories": len(stories)})
    else:
        print(f"{agree} of {total} answers agree with the file's answers")
    return None


def _print_trace(story: Any) -> None:
    order = max((q.order for q in story.questions), default=1) or 1
    rows = story.trace(order=min(order, 2))
    print("belief trace (" + ", ".join(">".join(ch) or "reality" for ch in rows[0].beliefs) + "):" if rows else "")
    for r in rows:
        cells = ", ".join(f"{'>'.join(ch) or 'really'}={c or '?'}" for ch, c in r.beliefs.items())
        print(f"  line {r.line}: {r.event}: {cells}")


def _print_model(story: Any, as_json: bool) -> None:
    m = story.model_after()
    size = story.minimal_size()
    if as_json:
        print_json({"model": m.to_json(), "worlds": len(m), "minimal_size": size})
        return
    print(f"model after the story: {len(m)} worlds, {size} after bisimulation contraction; actual {m.actual}")
    if len(m) <= 40:
        for w in m.worlds:
            ranks = " ".join(f"{a}:{m.rank(a, w)}" for a in m.agents)
            print(f"  {w}: {' '.join(sorted(m.valuation(w)))}   ranks {ranks}")


def _generate(args: argparse.Namespace) -> int | None:
    from kop.stories.generate import generate_story, render
    from kop.stories.events import ParsedStory, story_agents
    from kop.stories.story import DEFAULTS, Story
    events, questions = generate_story(args.agents, args.order, args.length, args.seed)
    # the answers under the conventions of the format written, so that reading it back agrees
    story = Story(ParsedStory(tuple(events), story_agents(events, questions, 1), tuple(questions)),
                  DEFAULTS[args.format or "kop"])
    answers = [story.answer(q).container for q in questions]
    print(render(events, questions, args.format or "kop", answers))
    return None
