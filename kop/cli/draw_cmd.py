"""``kop draw``: a picture of a game tree, a Kripke model or a theory (docs/pictures.md).

    kop draw theories/figure2.json --play A=M2 --play B=M1 -o play.svg
    kop draw theories/muddy3.model.json -o muddy.png
    kop draw theories/figure2.kop --scenario s4 -o recommendation.svg
"""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kop.cli.app import Commands, plural, print_json

if TYPE_CHECKING:  # pragma: no cover
    from kop.games.trees.tree import GameTree
    from kop.selection.evaluations import EvaluationKnowledge
    from kop.semantics.model import KripkeModel
    from kop.theory import Context, TheoryRun

KINDS = ("tree", "model", "theory")


def register(cli: Commands) -> None:
    p = cli.add("draw", _draw, json_help="Print JSON: what was drawn and where.")
    p.add_argument("source", metavar="INPUT",
                   help="A theory (.kop), a game tree (.json kop-tree/1 or .efg) or a model (.json kop-model/1).")
    p.add_argument("--output", "-o", required=True, metavar="FILE", help="The picture: FILE.svg, .png or .pdf.")
    p.add_argument("--as", dest="kind", choices=KINDS, metavar="tree|model|theory",
                   help="What INPUT is (default: by its suffix and format).")
    p.add_argument("--scenario", "-s", metavar="NAME", help="A theory's scenario (needed when it has several).")
    p.add_argument("--player", "-p", metavar="PLAYER", help="Whose recommendation to draw (default: the first mover).")
    p.add_argument("--play", dest="plays", action="append", default=[], metavar="PLAYER=NAME",
                   help="Highlight the play of these strategies (repeat per player), e.g. A=M2.")
    p.add_argument("--title", metavar="TEXT", help="A title above the picture.")
    p.add_argument("--layout", choices=("auto", "valuation", "cells", "grouped", "kamada_kawai", "spring", "circular"),
                   default="auto", metavar="LAYOUT",
                   help="How a model's worlds are placed: auto (default: by valuation, or in a grid of two agents' "
                        "cells, else kamada_kawai, or grouped past 48 worlds), valuation, cells, grouped, "
                        "kamada_kawai, spring or circular.")
    p.add_argument("--step", type=int, metavar="N",
                   help="A theory's model after its first N announcements (0: before any; default: after all).")
    p.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS",
                   help="Seconds per prover question (theories; default: 60).")
    p.add_argument("--allow-outside", action="store_true",
                   help="Let a theory read files outside its own folder.")


def _kind(path: Path) -> str:
    """tree, model or theory, by suffix; a .json file by its "format" field."""
    name = path.name.lower()
    if name.endswith(".kop"):
        return "theory"
    if name.endswith(".efg"):
        return "tree"
    if name.endswith(".model.json"):
        return "model"
    from kop.errors import KopError
    from kop.syntax.files import open_regular

    try:  # the guarded reader: a FIFO or a device is refused here, not read
        fd = open_regular(path, what="input")
    except KopError:
        return "tree"  # the loader reports the error
    try:
        head = os.read(fd, 4096).decode("utf-8", "replace")
    except OSError:
        return "tree"
    finally:
        os.close(fd)
    return "model" if re.search(r'"format"\s*:\s*"kop-model/', head) else "tree"


def _draw(args: argparse.Namespace) -> None:
    """Draw INPUT to FILE: a tree with the decided nodes and a highlighted play, or a model.

    A game tree shows its payoffs; --play A=M2 --play B=M1 highlights the play
    of those strategies.  A Kripke model shows one colour per agent and the
    designated worlds circled twice.  A theory draws its game in one scenario:
    the nodes its knowledge decides, and the recommended strategy's predicted
    play (or the --play strategies); a theory with a model and no game draws
    the model.  Needs the draw extra: pip install '.[draw]' in kop's
    source folder (or pip install matplotlib).
    """
    from kop.cli.game_cmds import strategy_pairs
    from kop.drawing.models import save_figure

    source = Path(args.source)
    kind = args.kind or _kind(source)
    plays = strategy_pairs(args.plays, "--play")
    info: dict[str, Any] = {"input": args.source, "kind": kind, "output": args.output}
    if kind == "model":
        from kop.semantics.model import KripkeModel

        m = KripkeModel.load(source)
        fig = m.draw(layout=args.layout, title=args.title)
        info["worlds"] = len(m)
        text = f"{plural(len(m), 'world')}, {plural(len(m.agents), 'agent')}"
    elif kind == "tree":
        from kop.io.trees import load_tree
        from kop.games.strategies.play import play

        t = load_tree(source)
        line = play(t, plays) if plays else None
        fig = t.draw(play=line, title=args.title)
        info.update(nodes=len(t), play=None if line is None else line.steps,
                    outcome=None if line is None else list(line.value))
        text = plural(len(t), "node") + ("" if line is None else f"; play reaches {line.value}")
    else:
        fig, more, text = _theory(args, plays)
        info.update(more)
    save_figure(fig, args.output)
    if args.json:
        print_json(info)
    else:
        print(f"drew {args.source} ({text}) to {args.output}")


def _model_at_step(run: TheoryRun, args: argparse.Namespace) -> tuple[KripkeModel | None, int, int]:
    """The theory's model after its first --step announcements (all of them by default), the step and their count."""
    from kop.errors import KopError

    total = run.announcements
    step = total if args.step is None else args.step
    if not 0 <= step <= total:
        raise KopError(f"--step {args.step}: the theory makes {plural(total, 'announcement')}; "
                       f"choose a step from 0 to {total}")
    return run.model_after(step), step, total


def _theory(args: argparse.Namespace, plays: dict[str, str]) -> tuple[Any, dict[str, Any], str]:
    from kop.errors import KopError
    from kop.theory import TheoryRun, load_theory

    run = TheoryRun(load_theory(args.source, allow_outside=args.allow_outside), timeout=args.timeout,
                    scenario=args.scenario, questions=False)
    ctxs = run.scenarios()
    tree = run.tree
    if tree is None:
        return _theory_model(run, args)
    if args.step is not None:
        raise KopError("--step draws a theory's model after its announcements; this theory has a game "
                       "(announcements on a game change the knowledge, which `kop run` answers)")
    if len(ctxs) > 1:
        names = ", ".join(c.name or "base" for c in ctxs)
        raise KopError(f"{args.source}: the theory has several scenarios ({names}); choose one with --scenario")
    ctx = ctxs[0]
    where = f"scenario {ctx.name}" if ctx.name else "the base knowledge"
    if tree.simultaneous and not plays:  # Decide and the selector need sequential moves: the game alone
        fig = tree.draw(title=args.title)
        return fig, {"scenario": ctx.name, "simultaneous": True}, f"{where}; simultaneous moves, no recommendation"
    evaluations = run.evaluations(ctx.name)
    if plays:
        return _theory_play(args, tree, ctx, plays, evaluations, where)
    return _theory_recommendation(args, tree, ctx, evaluations, where)


def _theory_model(run: TheoryRun, args: argparse.Namespace) -> tuple[Any, dict[str, Any], str]:
    """A theory without a game: its model after the announcements asked for (``--step``)."""
    from kop.errors import KopError

    if run.model is None:
        raise KopError(f"{args.source}: the theory states neither a game nor a model to draw")
    model, step, total = _model_at_step(run, args)
    if model is None:  # pragma: no cover - an announcement keeps a model
        raise KopError(f"{args.source}: the theory states no model to draw")
    fig = model.draw(layout=args.layout, title=args.title)
    at = f" after {plural(step, 'announcement')} of {total}" if total else ""
    return fig, {"worlds": len(model), "step": step}, plural(len(model), "world") + at


def _theory_play(args: argparse.Namespace, tree: GameTree, ctx: Context, plays: dict[str, str],
                 evaluations: list[EvaluationKnowledge], where: str) -> tuple[Any, dict[str, Any], str]:
    """The game with the decided nodes and the play of the strategies named by ``--play``."""
    from kop.games.strategies.play import play
    from kop.selection.decide import decide

    line = play(tree, plays)
    decision = decide(tree, ctx.formulas, timeout=args.timeout, evaluations=evaluations or None)
    title = args.title or f"{' vs '.join(f'{p}={n}' for p, n in plays.items())} ({where})"
    fig = tree.draw(decided=decision, play=line, title=title)
    more = {"scenario": ctx.name, "play": line.steps, "outcome": list(line.value),
            "decided": [n.name for n in decision.decided_nodes()]}
    return fig, more, f"{where}; play reaches {line.value}"


def _theory_recommendation(args: argparse.Namespace, tree: GameTree, ctx: Context,
                           evaluations: list[EvaluationKnowledge], where: str) -> tuple[Any, dict[str, Any], str]:
    """The selector's report drawn: the decided nodes and the recommended strategy's play."""
    from kop.selection.selector import select

    report = select(tree, ctx.formulas, args.player, timeout=args.timeout,
                    evaluations=evaluations or None)
    r = report.recommended
    fig = report.draw(**({"title": args.title} if args.title else {}))
    more = {"scenario": ctx.name, "player": report.player, "recommended": r.strategy,
            "outcome": list(r.guaranteed or r.estimate),
            "decided": [n.name for n in report.decision.decided_nodes()]}
    return fig, more, f"{where}; {report.player} plays {r.strategy}"
