"""``kop valid``, ``kop satisfiable``, ``kop entails``, ``kop level``: the S5_n prover on the command line.

    kop valid "C{a,b} p -> K_a K_b p"
    kop valid "K_a p -> K_b p" --json
    kop entails -p "K_A E_B" -p "K_B E_A" "K_A K_B E_A"
    kop level -k "K_A E_A" -k "K_A S_A" -k "K_A E_B" --player A --opponent B

A failed validity or entailment prints its countermodel (worlds with their
true atoms, each agent's partition, the designated world that refutes the
formula); ``--json`` prints ``{"holds": ..., "countermodel": MODEL or null,
...}`` with MODEL in the kop-model/1 format.  ``--timeout S`` bounds every
command; a question not decided in time prints "unknown within the limit"
and exits with status 3.  Bad input exits with status 2.
"""

from __future__ import annotations

import json
import sys

import typer

#: exit status of a question not decided within --timeout
EXIT_UNKNOWN = 3

_TIMEOUT_HELP = "Give up after this many seconds: print 'unknown within the limit' and exit with status 3."
_AGENTS_HELP = "The declared agents, comma separated (a formula naming another one is an error)."
_METHOD_HELP = "Decision procedure: auto (default), sat (no C, no D) or bdd."


def _agents(text: str | None):
    if text is None:
        return None
    names = [a.strip() for a in text.split(",") if a.strip()]
    from kop.syntax.errors import KopError

    if not names:
        raise KopError("--agents needs at least one agent name")
    return names


def describe_model(model, indent: str = "  ") -> str:
    """A readable description: one line per world (its true atoms), one per agent (its partition)."""
    lines = []
    actual = set(model.actual)
    width = max((len(w) for w in model.worlds), default=0)
    for w in model.worlds:
        atoms = sorted(model.valuation(w))
        mark = "  <- designated" if w in actual else ""
        lines.append(f"{indent}{w.ljust(width)} : {', '.join(atoms) if atoms else '(no atom true)'}{mark}")
    for a in model.agents:
        blocks = " ".join("{" + ", ".join(b) + "}" for b in model.partition(a))
        lines.append(f"{indent}agent {a}: {blocks}")
    return "\n".join(lines)


def _unknown(exc, as_json: bool) -> None:
    if as_json:
        print(json.dumps({"holds": None, "status": "unknown within the limit", "timeout": exc.seconds}))
    else:
        print(f"unknown within the limit ({exc.seconds:g} s)")
    raise typer.Exit(EXIT_UNKNOWN)


def _report(verdict, as_json: bool, yes: str, no: str) -> None:
    if as_json:
        print(json.dumps(verdict.to_json(), ensure_ascii=False))
        return
    print(yes if verdict.holds else no)
    model = verdict.model
    if model is not None:
        kind = "model" if verdict.question == "satisfiable" else "countermodel"
        n = len(model)
        print(f"{kind} ({n} world{'s' if n != 1 else ''}, designated {', '.join(model.actual)}):")
        print(describe_model(model))


def register(app: typer.Typer) -> None:
    @app.command("valid")
    def valid_command(
        formula: str = typer.Argument(..., help="The formula, e.g. 'C{a,b} p -> K_a K_b p'."),
        as_json: bool = typer.Option(False, "--json", help='Print {"holds": ..., "countermodel": MODEL or null, ...}.'),
        timeout: float | None = typer.Option(None, "--timeout", help=_TIMEOUT_HELP),
        agents: str | None = typer.Option(None, "--agents", help=_AGENTS_HELP),
        method: str = typer.Option("auto", "--method", help=_METHOD_HELP),
    ) -> None:
        """Is FORMULA valid in S5_n (with C, D, relativized C and announcements)?  If not, show a countermodel."""
        from kop.reasoning.errors import ProverTimeout
        from kop.reasoning.prover import valid

        try:
            v = valid(formula, agents=_agents(agents), timeout=timeout, method=method)
        except ProverTimeout as exc:
            _unknown(exc, as_json)
        _report(v, as_json, "valid", "not valid")

    @app.command("satisfiable")
    def satisfiable_command(
        formula: str = typer.Argument(..., help="The formula."),
        as_json: bool = typer.Option(False, "--json", help='Print {"holds": ..., "model": MODEL or null, ...}.'),
        timeout: float | None = typer.Option(None, "--timeout", help=_TIMEOUT_HELP),
        agents: str | None = typer.Option(None, "--agents", help=_AGENTS_HELP),
        method: str = typer.Option("auto", "--method", help=_METHOD_HELP),
    ) -> None:
        """Is FORMULA satisfiable in S5_n?  If so, show a model (its designated world satisfies it)."""
        from kop.reasoning.errors import ProverTimeout
        from kop.reasoning.prover import satisfiable

        try:
            v = satisfiable(formula, agents=_agents(agents), timeout=timeout, method=method)
        except ProverTimeout as exc:
            _unknown(exc, as_json)
        _report(v, as_json, "satisfiable", "unsatisfiable")

    @app.command("entails")
    def entails_command(
        formula: str = typer.Argument(..., help="The conclusion."),
        premise: list[str] = typer.Option([], "--premise", "-p", help="A premise (repeat for several)."),
        as_json: bool = typer.Option(False, "--json", help='Print {"holds": ..., "countermodel": MODEL or null, ...}.'),
        timeout: float | None = typer.Option(None, "--timeout", help=_TIMEOUT_HELP),
        agents: str | None = typer.Option(None, "--agents", help=_AGENTS_HELP),
        method: str = typer.Option("auto", "--method", help=_METHOD_HELP),
    ) -> None:
        """Do the premises (true at the actual world) entail FORMULA?  If not, show a countermodel."""
        from kop.reasoning.errors import ProverTimeout
        from kop.reasoning.prover import entails

        try:
            v = entails(list(premise), formula, agents=_agents(agents), timeout=timeout, method=method)
        except ProverTimeout as exc:
            _unknown(exc, as_json)
        _report(v, as_json, "entailed", "not entailed")

    @app.command("level")
    def level_command(
        knowledge: list[str] = typer.Option([], "--knowledge", "-k", help="A formula of the knowledge (repeat)."),
        player: str = typer.Option(..., "--player", help="The player P whose level is asked."),
        opponent: str = typer.Option(..., "--opponent", help="The opponent Q."),
        max_depth: int | None = typer.Option(None, "--max-depth", help="Examine chains up to this length only."),
        as_json: bool = typer.Option(False, "--json", help='Print {"level": N} ("inf" when unbounded).'),
        timeout: float | None = typer.Option(None, "--timeout", help=_TIMEOUT_HELP),
        agents: str | None = typer.Option(None, "--agents", help=_AGENTS_HELP),
    ) -> None:
        """The level of knowledge of PLAYER: the largest d with f(P, d) entailed by the knowledge.

        Prints "inf" under common knowledge of E_P and E_Q, and -1 when not even
        f(P, 0) = {K_P E_P, K_P S_P} follows.
        """
        import math

        from kop.reasoning.errors import ProverTimeout
        from kop.reasoning.knowledge import level

        try:
            d = level(list(knowledge), player, opponent, max_depth, timeout=timeout, agents=_agents(agents))
        except ProverTimeout as exc:
            if as_json:
                print(json.dumps({"level": None, "status": "unknown within the limit", "timeout": exc.seconds}))
            else:
                print(f"unknown within the limit ({exc.seconds:g} s)")
            raise typer.Exit(EXIT_UNKNOWN) from None
        shown = "inf" if d == math.inf else int(d)
        if as_json:
            print(json.dumps({"level": shown, "player": player, "opponent": opponent}))
        else:
            print(shown)
        sys.stdout.flush()
