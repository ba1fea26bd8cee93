"""``kop dominates`` (which strategy dominates, per scenario) and ``kop decided`` (what Decide lacks)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from kop.cli.app import Commands, plural, print_json

if TYPE_CHECKING:  # pragma: no cover
    from kop.selection.missing import Gap
    from kop.theory import Answer, Dominance, TheoryRun


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("theory", metavar="THEORY", help="A .kop theory file (see docs/theories.md).")
    p.add_argument("--scenario", "-s", metavar="NAME", help="Only this scenario (default: every scenario).")
    p.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS",
                   help="Seconds per prover question (default: 60).")
    p.add_argument("--allow-outside", action="store_true",
                   help="Let the theory read files outside its own folder.")
    p.add_argument("--strict", action="store_true",
                   help="Decide by the stricter reading of Definition 6: the mover must also know that its "
                        "children are decided (K_X D(c)); the theory statement 'decide strict' does the same.")


def register(cli: Commands) -> None:
    p = cli.add("dominates", _dominates, json_help="Print the report as one line of JSON.")
    _common(p)
    p.add_argument("--player", "-p", metavar="PLAYER", help="The player to advise (default: the first mover).")
    p = cli.add("decided", _decided, json_help="Print the decided nodes and what is missing as JSON.")
    _common(p)


def _setup(args: argparse.Namespace, *, questions: bool) -> TheoryRun:
    from kop.syntax.budget import deadline_phase
    from kop.theory import TheoryRun, load_theory

    with deadline_phase(args.timeout):  # reading the theory and its includes is bounded like a question
        th = load_theory(args.theory, allow_outside=args.allow_outside)
    return TheoryRun(th, timeout=args.timeout, scenario=args.scenario, strict=args.strict, questions=questions)


def _dominates(args: argparse.Namespace) -> int | None:
    """Which strategy dominates for the player, in every scenario of THEORY, and why?

    For each scenario: the ranked strategies with their knowledge precondition
    (proved, or refuted with a countermodel), the theorem, the predicted and
    the guaranteed outcome, the pairwise dominance claims (verified or refuted
    on this tree), the recommendation and the outcome with communication.
    The theory's `expect` statements are checked: exit 1 on a mismatch.

    It answers for the state the theory states: its game, knowledge and
    scenarios, before any `announce` (announcements are left out); `kop run`
    applies each `announce` in order, so its later questions see the
    knowledge after it.
    """
    from kop.errors import KopError

    run = _setup(args, questions=True)     # the theory's questions too: its expectations are checked
    ctxs = run.scenarios()
    if run.tree is None:
        raise KopError(f"{args.theory}: the theory states no game ('game ...' or tree \"FILE\")")
    reports: list[Dominance] = []
    uncertain: list[list[dict[str, Any]]] = []
    for ctx in ctxs:
        reports.append(run.dominance(ctx.name, args.player))
        uncertain.append(run.uncertainty(ctx.name, args.player))
    checks = run.expectations
    bad = [c for c in checks if not c.result["ok"]]
    if args.json:
        print_json({"theory": args.theory, "scenarios": [{**r.to_json(), **({"uncertainty": u} if u else {})}
                                                         for r, u in zip(reports, uncertain)],
                    "expectations": [{**c.to_json()} for c in checks]})
    else:
        _print_dominance(reports, uncertain, checks, bad)
    return 1 if bad else None


def _print_dominance(reports: list[Dominance], uncertain: list[list[dict[str, Any]]], checks: list[Answer],
                     bad: list[Answer]) -> None:
    """The reports as text, then the theory's expectations and how many match."""
    from kop.theory import tables_text

    for i, r in enumerate(reports):
        if i:
            print()
        print(r.explain())
        if uncertain[i]:
            print(tables_text(uncertain[i]))
    if checks:
        print()
        for c in checks:
            scen = f" ({c.scenario})" if c.scenario is not None else ""
            print(f"[{c.where}]{scen} {c.text}")
        print(f"{len(checks) - len(bad)} of {len(checks)} expected figures match"
              + ("." if not bad else "; MISMATCHES above."))


def _decided(args: argparse.Namespace) -> None:
    """Which nodes of the game does the knowledge decide, and what is missing for the others?

    A node is decided when both players agree on its next move and value by
    what they know (Definition 6), computed by the corrected Decide (SPEC
    §2.6): at a node where X moves with two or more children, the other player
    Y must know X's evaluation (K_Y E_X) and know that every child is decided
    (K_Y D(c)); a forced move is decided when its child is, a chance node when
    its children are.  --strict (or 'decide strict' in the theory) also asks
    the mover to know that its children are decided (K_X D(c)).  For every
    undecided node: the knowledge formula that does not follow, with a
    countermodel from the prover, checked by the model checker.
    """
    from kop.errors import KopError

    run = _setup(args, questions=False)
    ctxs = run.scenarios()
    if run.tree is None:
        raise KopError(f"{args.theory}: the theory states no game ('game ...' or tree \"FILE\")")
    out = [(ctx, *run.decision(ctx.name)) for ctx in ctxs]
    if args.json:
        print_json({"theory": args.theory, "scenarios": [
            {"scenario": ctx.name, "decided": dec, "undecided": [g.to_json() for g in gaps],
             **({} if extra is None else {"by_partial_knowledge": extra})}
            for ctx, dec, extra, gaps in out]})
        return
    for i, (ctx, dec, extra, gaps) in enumerate(out):
        if i:
            print()
        head = f"Scenario {ctx.name}: " if ctx.name is not None else ""
        print(f"{head}decided nodes: {', '.join(dec) or 'none'}")
        if extra is not None:
            print(f"  decided by partial knowledge, not by the atoms alone: {', '.join(extra) or 'none'}")
        for g in gaps:
            print("\n".join(_gap_lines(g)))


def _gap_lines(g: Gap) -> list[str]:
    """An undecided node as text: the formula that does not follow and the prover's countermodel."""
    from kop.syntax.printer import to_ascii

    cm = g.countermodel
    lines = [f"  {g.node} ({g.mover} moves) is undecided: {to_ascii(g.formula)} does not follow."]
    if cm is not None:
        lines.append(f"    countermodel ({plural(len(cm.worlds), 'world')}, designated {', '.join(cm.actual)}):")
        lines += [f"      {a}: " + " ".join("{" + ", ".join(b) + "}" for b in cm.partition(a)) for a in cm.agents]
        lines += [f"      {w}: {', '.join(sorted(cm.valuation(w))) or '-'}" for w in cm.worlds]
    return lines
