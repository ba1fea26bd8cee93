"""``kop select`` (which strategy the knowledge justifies), ``kop demo`` (the paper's worked example)
and ``kop run`` (a theory file)."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from kop.cli.app import Commands, print_json

if TYPE_CHECKING:  # pragma: no cover
    from kop.selection.worked_example import WorkedExample


def register(cli: Commands) -> None:
    p = cli.add("run", _run, json_help="Print the answers as JSON.")
    p.add_argument("theory", metavar="THEORY",
                   help="A .kop theory file (see docs/theories.md), or a file in SMCDEL's input language "
                        "(*.smcdel.txt, or text starting with VARS; see docs/formats.md).")
    p.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS",
                   help="Seconds per prover question (default: 60).")
    p.add_argument("--scenario", "-s", metavar="NAME", help="Answer only in this scenario.")
    p.add_argument("--allow-outside", action="store_true",
                   help="Let the theory read files outside its own folder.")

    p = cli.add("select", _select, json_help="Print the report as JSON.")
    p.add_argument("tree", metavar="TREE", help="Game tree: a kop-tree/1 .json file or a Gambit .efg file.")
    p.add_argument("--knowledge", "-k", action="append", default=[], metavar="FORMULA",
                   help="A formula true at the actual world (repeat).")
    p.add_argument("--core", "-c", action="append", default=[], metavar="P=d",
                   help="P=d adds f(P,d) to the knowledge, e.g. -c A=2 -c B=1.")
    p.add_argument("--player", "-p", metavar="PLAYER", help="The player to advise (default: the first mover).")
    p.add_argument("--evaluation", "-e", action="append", default=None, metavar="K:O=KIND",
                   help="Partial knowledge of an evaluation (repeat): K:O=exact|nothing|order|within:K|"
                        "subtree:NODE|candidates:V,V,..;V,V,.. says what K knows of O's payoffs "
                        "(values left to right), e.g. -e B:A=order.")
    p.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS",
                   help="Seconds per prover question (default: 60).")
    p.add_argument("--strict", action="store_true",
                   help="Decide by the stricter reading of Definition 6: the mover must also know that its "
                        "children are decided (K_X D(c)).")

    cli.add("demo", _demo, json_help="Print the checks as JSON.")


def _select(args: argparse.Namespace) -> None:
    """Which strategy does the knowledge justify for the first mover, and why?

    Reports every candidate (M^h, HM0M^d, M^d, minimax) with its knowledge
    precondition, the theorem behind it, the value it estimates and the
    outcome it guarantees against every opponent behaviour the knowledge
    allows (checked by playing them), and the communication schemes.
    """
    from kop.io.trees import load_tree
    from kop.selection.decide import two_players
    from kop.selection.selector import select
    from kop.errors import KopError
    from kop.syntax.parser import parse
    from kop.theory import core_for

    t = load_tree(args.tree)
    first, second = two_players(t)
    ks = [parse(k) for k in args.knowledge]
    for spec in args.core:
        name, _, d = spec.partition("=")
        if name not in (first, second) or not d.strip().isdigit():
            raise KopError(f"--core {spec!r}: expected P=d with P in {{{first}, {second}}} and d >= 0")
        other = second if name == first else first
        ks.extend(core_for(name, other, d.strip(), what=f"--core {spec}"))
    evaluations = None
    if args.evaluation is not None:
        from kop.selection.evaluations import parse_evaluation

        evaluations = [parse_evaluation(e) for e in args.evaluation]
    report = select(t, ks, args.player, timeout=args.timeout, evaluations=evaluations, strict=args.strict)
    if args.json:
        print_json(report.to_json())
    else:
        print(report.explain())


def _demo(args: argparse.Namespace) -> int | None:
    """Run the paper's worked example (Figure 2, SPEC §3.4) end to end and check every number.

    Levels come from the prover, decided nodes from Decide (Definition 6), plays from
    the strategies, the recommendation and the communication outcome from
    the selector.  Exits with status 1 if any figure differs from the paper.
    """
    from kop.selection.worked_example import worked_example

    result = worked_example()
    if args.json:
        print_json({
            "ok": result.all_ok,
            "scenarios": [{"scenario": s.name, "level_A": s.level_a, "level_B": s.level_b,
                           "decided": list(s.decided), "play": list(s.play), "outcome": list(s.outcome),
                           "recommended": s.recommended, "recommended_outcome": list(s.recommended_outcome),
                           "with_communication": None if s.communication_outcome is None
                           else list(s.communication_outcome)} for s in result.scenarios],
            "checks": [{"what": c.what, "computed": repr(c.computed), "expected": repr(c.expected),
                        "ok": c.ok} for c in result.checks],
        })
    else:
        _print_demo(result)
    return None if result.all_ok else 1


def _run(args: argparse.Namespace) -> int | None:
    """Run a theory file: state a game and what players know, then ask questions about it.

    Statements: players, game { ... }, tree "FILE", model "FILE" or model { ... },
    agents, know, common, core P = d, P knows E_Q ..., scenario NAME { ... },
    include "FILE", announce FORMULA, [in S] ask QUESTION, [in S] expect ...
    (see docs/theories.md).  Exit 1 when an `expect` does not match.

    Statements run in order: a question sees the knowledge stated above it,
    after every `announce` above it (`kop dominates` answers for the state
    before any announcement).

    A file in SMCDEL's input language (VARS, LAW, OBS, then VALID?, WHERE?
    and TRUE? questions; *.smcdel.txt or text that starts with VARS) is
    read as SMCDEL reads it, and each question answered as SMCDEL prints it.
    """
    from kop.syntax.budget import deadline_phase
    from kop.theory import load_theory
    from kop.theory import Answer, run_statements

    smcdel = _smcdel_text(args.theory)
    if smcdel is not None:
        return _run_smcdel(smcdel, args)

    with deadline_phase(args.timeout):  # reading the theory and its includes is bounded like a question
        th = load_theory(args.theory, allow_outside=args.allow_outside)
    answers: list[Answer] = []
    try:
        run_statements(th, timeout=args.timeout, scenario=args.scenario, answers=answers)
    finally:  # on an error, the answers found before it are printed, then the error
        if args.json:
            print_json([a.to_json() for a in answers])
        else:
            for a in answers:
                scen = f" ({a.scenario})" if a.scenario is not None else ""
                print(f"[{a.where}]{scen} {a.text}")
    bad = [a for a in answers if a.question.startswith("expect") and not a.result["ok"]]
    return 1 if bad else None


def _smcdel_text(name: str) -> str | None:
    """The text of *name* when it is in SMCDEL's language (by name, or by its first word), else None."""
    from kop.io.smcdel import looks_like_smcdel
    from kop.syntax.files import read_text

    if name.endswith(".kop"):
        return None
    text = read_text(name, what="input file", shown=name)
    return text if looks_like_smcdel(name, text) else None


def _run_smcdel(text: str, args: argparse.Namespace) -> int | None:
    from kop.io.smcdel import parse_smcdel

    if args.scenario is not None:
        from kop.errors import KopError

        raise KopError("--scenario: an SMCDEL file has no scenarios")
    answers = parse_smcdel(text).run()
    if args.json:
        print_json([a.to_json() for a in answers])
    else:
        print("\n\n".join(a.explain() for a in answers))
    return None


def _pair(v: Iterable[object]) -> str:
    return "(" + ",".join(str(x) for x in v) + ")"


def _print_demo(result: WorkedExample) -> None:
    from rich.console import Console
    from rich.table import Table

    con = Console()
    con.print("[bold]kop — Sang & Chen, Beyond Minimax: the worked example of Figure 2[/bold]")
    con.print("root (A) -> R, S, T\n  R (B) -> (4,7), (8,9)\n  S (B) -> U, V\n"
              "    U (A) -> W, X    W (B) -> (7,4), (5,6)    X (B) -> (10,3), (6,10)\n"
              "    V (A) -> Y, Z    Y (B) -> (3,8), (1,9)    Z (B) -> (2,2), (11,12)\n"
              "  T (B) -> (9,4), (1,5)\nA maximizes E_A, B minimizes E_B.\n", markup=False, highlight=False)
    table = Table(title="Knowledge scenarios (cores f(A,a), f(B,b))")
    for col in ("", "levels A,B", "decided nodes", "paper's play", "kop, no talk", "kop + announce"):
        table.add_column(col)
    for s in result.scenarios:
        table.add_row(s.name, f"{int(s.level_a)}, {int(s.level_b)}", " ".join(s.decided) or "none",
                      f"{s.play[0]}/{s.play[1]} {_pair(s.outcome)}",
                      f"{s.recommended} {_pair(s.recommended_outcome)}",
                      f"Mh {_pair(s.communication_outcome)}" if s.communication_outcome else "-")
    con.print(table)
    con.print("\n[bold]Why, in scenario (4)[/bold] (kop select theories/figure2.json -c A=2 -c B=1):")
    con.print(result.scenarios[-1].explanation, markup=False, highlight=False)
    checks = Table(title="\nEvery number of SPEC §3.4")
    for col in ("figure", "kop", "paper", ""):
        checks.add_column(col)
    for c in result.checks:
        checks.add_row(c.what, str(c.computed), str(c.expected), "ok" if c.ok else "MISMATCH")
    con.print(checks)
    bad = [c for c in result.checks if not c.ok]
    con.print(f"\n{len(result.checks) - len(bad)} of {len(result.checks)} figures match the paper."
              + ("" if not bad else " MISMATCHES: " + "; ".join(c.what for c in bad)))
