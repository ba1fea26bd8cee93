"""``kop select`` (which strategy the knowledge justifies) and ``kop demo`` (the paper's worked example)."""

from __future__ import annotations

import json
from typing import List, Optional

import typer



def register(app: typer.Typer) -> None:
    register_run(app)

    @app.command("select")
    def select_command(
        tree: str = typer.Argument(..., help="Game tree: a kop-tree/1 .json file or a Gambit .efg file."),
        knowledge: Optional[List[str]] = typer.Option(None, "--knowledge", "-k",
                                                      help="A formula true at the actual world (repeat)."),
        core: Optional[List[str]] = typer.Option(None, "--core", "-c",
                                                 help="P=d adds f(P,d) to the knowledge, e.g. -c A=2 -c B=1."),
        player: Optional[str] = typer.Option(None, "--player", "-p", help="The player to advise (default: the first mover)."),
        timeout: Optional[float] = typer.Option(60.0, "--timeout", help="Seconds per prover question."),
        as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    ) -> None:
        """Which strategy does the knowledge justify for the first mover, and why?

        Reports every candidate (M^h, HM0M^d, M^d, minimax) with its knowledge
        precondition, the theorem behind it, the value it estimates and the
        outcome it guarantees against every opponent behaviour the knowledge
        allows (checked by playing them), and the communication schemes.
        """
        from kop.games.formats import load_tree
        from kop.selection.decide import two_players
        from kop.selection.selector import select
        from kop.syntax.errors import KopError
        from kop.syntax.levels import f_level
        from kop.syntax.parser import parse

        t = load_tree(tree)
        first, second = two_players(t)
        ks = [parse(k) for k in (knowledge or [])]
        for spec in core or []:
            name, _, d = spec.partition("=")
            if name not in (first, second) or not d.strip().isdigit():
                raise KopError(f"--core {spec!r}: expected P=d with P in {{{first}, {second}}} and d >= 0")
            other = second if name == first else first
            ks.extend(f_level(name, other, int(d)))
        report = select(t, ks, player, timeout=timeout)
        if as_json:
            print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
        else:
            print(report.explain())

    @app.command("demo")
    def demo_command(
        as_json: bool = typer.Option(False, "--json", help="Print the checks as JSON."),
    ) -> None:
        """Run the paper's worked example (Figure 2, SPEC §3.4) end to end and check every number.

        Levels come from the prover, decided nodes from Algorithm 3, plays from
        the strategies, the recommendation and the communication outcome from
        the selector.  Exits with status 1 if any figure differs from the paper.
        """
        from kop.selection.worked_example import worked_example

        result = worked_example()
        if as_json:
            print(json.dumps({
                "ok": result.all_ok,
                "scenarios": [{"scenario": s.name, "level_A": s.level_a, "level_B": s.level_b,
                               "decided": list(s.decided), "play": list(s.play), "outcome": list(s.outcome),
                               "recommended": s.recommended, "recommended_outcome": list(s.recommended_outcome),
                               "with_communication": None if s.communication_outcome is None
                               else list(s.communication_outcome)} for s in result.scenarios],
                "checks": [{"what": c.what, "computed": repr(c.computed), "expected": repr(c.expected),
                            "ok": c.ok} for c in result.checks],
            }, indent=2))
        else:
            _print_demo(result)
        if not result.all_ok:
            raise typer.Exit(1)


def _pair(v) -> str:
    return "(" + ",".join(str(x) for x in v) + ")"


def _print_demo(result) -> None:
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


def register_run(app: typer.Typer) -> None:
    @app.command("run")
    def run_command(
        theory: str = typer.Argument(..., help="A .kop theory file (see docs/theories.md)."),
        timeout: Optional[float] = typer.Option(60.0, "--timeout", help="Seconds per prover question."),
        as_json: bool = typer.Option(False, "--json", help="Print the answers as JSON."),
    ) -> None:
        """Run a theory file: state what players know, then ask questions about it.

        Statements: tree "FILE", model "FILE", agents A, B, know FORMULA, core P = d,
        announce FORMULA, ask valid|entails|satisfiable|check FORMULA, ask level P,
        ask decided, ask select [P].
        """
        from kop.theory import load_theory, run_theory

        answers = run_theory(load_theory(theory), timeout=timeout)
        if as_json:
            print(json.dumps([a.to_json() for a in answers], indent=2, ensure_ascii=False))
        else:
            for a in answers:
                print(f"[line {a.line}] {a.text}")
