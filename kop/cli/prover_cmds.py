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

import argparse
import sys
from typing import TYPE_CHECKING, Any

from kop.cli.app import Commands, plural, print_json

if TYPE_CHECKING:  # pragma: no cover
    from kop.reasoning.verdict import Verdict
    from kop.semantics.model import KripkeModel

#: exit status of a question not decided within --timeout
EXIT_UNKNOWN = 3

_TIMEOUT_HELP = ("Give up after this many seconds of CPU time: print 'unknown within the limit' and exit with "
                 "status 3 (a decided question prints the CPU time it used).")
_AGENTS_HELP = "The declared agents, comma separated (a formula naming another one is an error)."
_METHOD_HELP = ("Decision procedure: auto (default), sat (no C, no D), bdd (type elimination, on CUDD "
                "when available) or bdd-python (type elimination on the pure-Python BDDs).")


def _agents(text: str | None) -> list[str] | None:
    if text is None:
        return None
    names = [a.strip() for a in text.split(",") if a.strip()]
    from kop.errors import KopError

    if not names:
        raise KopError("--agents needs at least one agent name")
    return names


def describe_model(model: KripkeModel, indent: str = "  ") -> str:
    """A readable description: one line per world (its true atoms), one per agent (its partition).

    An agent with a plausibility order lists each cell's worlds from the most
    plausible: ``{w2 < w0 = w1}`` (its beliefs are what holds at the first).
    """
    lines = []
    actual = set(model.actual)
    width = max((len(w) for w in model.worlds), default=0)
    for w in model.worlds:
        atoms = sorted(model.valuation(w))
        mark = "  <- designated" if w in actual else ""
        lines.append(f"{indent}{w.ljust(width)} : {', '.join(atoms) if atoms else '(no atom true)'}{mark}")
    for a in model.agents:
        blocks = " ".join("{" + _ordered(model, a, b) + "}" for b in model.partition(a))
        lines.append(f"{indent}agent {a}: {blocks}")
    return "\n".join(lines)


def _ordered(model: KripkeModel, agent: str, block: tuple[str, ...]) -> str:
    """A block's worlds; with a plausibility order, most plausible first: ``{w2 < w0 = w1}``."""
    if not model.has_uncertainty or all(model.rank(agent, w) == model.rank(agent, block[0]) for w in block):
        return ", ".join(block)
    by_rank: dict[int, list[str]] = {}
    for w in block:
        by_rank.setdefault(model.rank(agent, w), []).append(w)
    return " < ".join(" = ".join(ws) for _, ws in sorted(by_rank.items()))


def _start(args: argparse.Namespace) -> None:
    """--timeout bounds the whole command (parsing, proving, building and checking models), not only the prover."""
    from kop.syntax.budget import start_deadline

    start_deadline(args.timeout, hard=True)


def _done() -> None:
    from kop.syntax.budget import start_deadline

    start_deadline(None)


def _unknown(seconds: float, as_json: bool, key: str = "holds") -> int:
    _done()
    if as_json:
        print_json({key: None, "status": "unknown within the limit", "timeout": seconds})
    else:
        print(f"unknown within the limit ({seconds:g} s)")
    return EXIT_UNKNOWN


def _report(verdict: Verdict, as_json: bool, yes: str, no: str) -> None:
    if as_json:
        print_json(verdict.to_json())
        return
    print(yes if verdict.holds else no)
    if verdict.limit_used is not None:  # --timeout: how much of it the question used (CPU time, as it counts)
        print(f"CPU time: {verdict.stats['cpu_seconds']:.2f} s of the {verdict.stats['limit_seconds']:g} s limit")
    model = verdict.model
    if model is not None:
        kind = "model" if verdict.question == "satisfiable" else "countermodel"
        print(f"{kind} ({plural(len(model), 'world')}, designated {', '.join(model.actual)}):")
        print(describe_model(model))


def _common(p: argparse.ArgumentParser, *, method: bool = True) -> None:
    p.add_argument("--timeout", type=float, metavar="SECONDS", help=_TIMEOUT_HELP)
    p.add_argument("--agents", metavar="A,B,...", help=_AGENTS_HELP)
    if method:
        p.add_argument("--method", default="auto", metavar="METHOD", help=_METHOD_HELP)


def register(cli: Commands) -> None:
    p = cli.add("valid", _valid, json_help='Print {"holds": ..., "countermodel": MODEL or null, ...}.')
    p.add_argument("formula", metavar="FORMULA", help="The formula, e.g. 'C{a,b} p -> K_a K_b p'.")
    _common(p)

    p = cli.add("satisfiable", _satisfiable, json_help='Print {"holds": ..., "model": MODEL or null, ...}.')
    p.add_argument("formula", metavar="FORMULA", help="The formula.")
    _common(p)

    p = cli.add("entails", _entails, json_help='Print {"holds": ..., "countermodel": MODEL or null, ...}.')
    p.add_argument("formula", metavar="FORMULA", help="The conclusion.")
    p.add_argument("--premise", "-p", action="append", default=[], metavar="FORMULA",
                   help="A premise (repeat for several).")
    _common(p)

    p = cli.add("level", _level, json_help='Print {"level": N} ("inf" when unbounded).')
    p.add_argument("--knowledge", "-k", action="append", default=[], metavar="FORMULA",
                   help="A formula of the knowledge (repeat).")
    p.add_argument("--player", required=True, metavar="P", help="The player P whose level is asked.")
    p.add_argument("--opponent", required=True, metavar="Q", help="The opponent Q.")
    p.add_argument("--max-depth", type=int, metavar="N", help="Examine chains up to this length only.")
    _common(p, method=False)


def _valid(args: argparse.Namespace) -> int | None:
    """Is FORMULA valid in S5_n (with C, D, relativized C and announcements)?  If not, show a countermodel."""
    _start(args)
    from kop.syntax.budget import OutOfTime
    from kop.reasoning.prover import valid

    try:
        v = valid(args.formula, agents=_agents(args.agents), timeout=args.timeout, method=args.method)
    except OutOfTime as exc:
        return _unknown(exc.seconds, args.json)
    _done()  # the answer is in: printing it is not cut short half way
    _report(v, args.json, "valid", "not valid")
    return None


def _satisfiable(args: argparse.Namespace) -> int | None:
    """Is FORMULA satisfiable in S5_n?  If so, show a model (its designated world satisfies it)."""
    _start(args)
    from kop.syntax.budget import OutOfTime
    from kop.reasoning.prover import satisfiable

    try:
        v = satisfiable(args.formula, agents=_agents(args.agents), timeout=args.timeout, method=args.method)
    except OutOfTime as exc:
        return _unknown(exc.seconds, args.json)
    _done()  # the answer is in: printing it is not cut short half way
    _report(v, args.json, "satisfiable", "unsatisfiable")
    return None


def _entails(args: argparse.Namespace) -> int | None:
    """Do the premises (true at the actual world) entail FORMULA?  If not, show a countermodel."""
    _start(args)
    from kop.syntax.budget import OutOfTime
    from kop.reasoning.prover import entails

    try:
        v = entails(list(args.premise), args.formula, agents=_agents(args.agents), timeout=args.timeout,
                    method=args.method)
    except OutOfTime as exc:
        return _unknown(exc.seconds, args.json)
    _done()  # the answer is in: printing it is not cut short half way
    reason = _chain_reason(v)
    if reason is not None and args.json:
        print_json({**v.to_json(), "reason": reason})
        return None
    _report(v, args.json, "entailed", "not entailed")
    if reason is not None:
        print("reason: " + reason.replace("\n", "\n        "))
    return None


def _chain_reason(v: Verdict) -> str | None:
    """For an entailment between chains of K and B over one formula: the derivation, one step a line."""
    if not v.holds or len(v.premises) != 1:
        return None
    from kop.reasoning.reading import derivation, show_derivation

    steps = derivation(v.premises[0], v.formula)
    return None if steps is None or len(steps) < 2 else show_derivation(steps)


def _level(args: argparse.Namespace) -> int | None:
    """The level of knowledge of player P (--player): the largest d with f(P, d) entailed by the knowledge.

    Prints "inf" under common knowledge of E_P and E_Q, and -1 when not even
    f(P, 0) = {K_P E_P, K_P S_P} follows.
    """
    _start(args)
    import math

    from kop.syntax.budget import OutOfTime
    from kop.reasoning.knowledge import level

    try:
        d = level(list(args.knowledge), args.player, args.opponent, args.max_depth, timeout=args.timeout,
                  agents=_agents(args.agents))
    except OutOfTime as exc:
        return _unknown(exc.seconds, args.json, key="level")
    _done()  # the answer is in: printing it is not cut short half way
    shown = "inf" if d == math.inf else int(d)
    if args.json:
        print_json({"level": shown, "player": args.player, "opponent": args.opponent})
    else:
        print(shown)
    sys.stdout.flush()
    return None
