"""``kop epddl validate DOMAIN PROBLEM PLAN`` and ``kop epddl show DOMAIN PROBLEM``: EPDDL planning tasks."""

from __future__ import annotations

import argparse
from pathlib import Path

from kop.cli.app import Commands, print_json


def register(cli: Commands) -> None:
    p = cli.add("epddl", _no_command, json_help="Print the answer as one line of JSON.")
    sub = p.add_subparsers(title="commands", metavar="COMMAND")
    fmt = argparse.RawDescriptionHelpFormatter
    v = sub.add_parser("validate", help="Apply a plan to an EPDDL task by product update: is each step applicable, "
                       "does the goal hold at the end?", description=_validate.__doc__, formatter_class=fmt)
    for name in ("domain", "problem", "plan"):
        v.add_argument(name, metavar=name.upper(), type=Path, help=f"The {name} file.")
    v.add_argument("--library", "-l", action="append", default=[], type=Path, metavar="FILE",
                   help="An action-type library the domain names (repeat); basic and intermediate are built in.")
    v.add_argument("--show-model", action="store_true",
                   help="Print the state at the failing step (or the final state when the plan is valid).")
    v.add_argument("--json", action="store_true", default=argparse.SUPPRESS,  # kop epddl --json validate, too
                   help="Print the steps and the verdict as one line of JSON.")
    v.set_defaults(_handler=_validate)
    s = sub.add_parser("show", help="Print an EPDDL task's initial state and its actions' event models.",
                       description=_show.__doc__, formatter_class=fmt)
    s.add_argument("domain", metavar="DOMAIN", type=Path, help="The domain file.")
    s.add_argument("problem", metavar="PROBLEM", type=Path, help="The problem file.")
    s.add_argument("--library", "-l", action="append", default=[], type=Path, metavar="FILE",
                   help="An action-type library the domain names (repeat); basic and intermediate are built in.")
    s.add_argument("--action", "-a", action="append", default=[], metavar="'(NAME ARG ...)'",
                   help="Show only these ground actions (repeat); default: every ground action.")
    s.add_argument("--json", action="store_true", default=argparse.SUPPRESS,  # kop epddl --json show, too
                   help="Print the models as one line of JSON.")
    s.set_defaults(_handler=_show)


def _no_command(args: argparse.Namespace) -> int:
    """Check plans of EPDDL planning tasks (the IPC 2026 epistemic track's language): validate, show.

    See docs/epddl.md for the part of EPDDL kop reads.
    """
    from kop.errors import KopError

    raise KopError("kop epddl needs a command: validate DOMAIN PROBLEM PLAN, or show DOMAIN PROBLEM")


def _read(path: Path, what: str) -> str:
    from kop.theory import read_regular

    return read_regular(path, what=what, shown=str(path))


def _task(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from kop.io.epddl import load_task

    libraries = [(_read(lib, "action-type library"), str(lib)) for lib in args.library]
    return load_task(_read(args.domain, "domain file"), _read(args.problem, "problem file"), str(args.domain),
                     str(args.problem), libraries)


def _validate(args: argparse.Namespace) -> int:
    """Apply the plan's actions to the problem's initial state by product update.

    Each step is applicable when, at every designated world, the precondition of some
    designated event of the action holds; each agent's observability (Fully, Partially,
    Oblivious) is decided on the state the action applies to.  The goal must hold at every
    designated world at the end.  The plan has one action per line, (tell A B) or tell_A_B.

    Exit status: 0 the plan is valid, 1 it is not (a step not applicable, or the goal false
    at the end), 2 bad input (a located error in a file).
    """
    from kop.io.epddl import parse_plan, validate_plan

    task = _task(args)
    text = _read(args.plan, "plan file")
    result = validate_plan(task, parse_plan(text, str(args.plan)), text, str(args.plan))
    if args.json:
        out = {"domain": str(args.domain), "problem": str(args.problem), "plan": str(args.plan),
               "valid": result.valid, "goal": result.goal, "failed_step": result.failed_step,
               "reason": result.reason or None, "initial_worlds": result.initial_worlds,
               "steps": [s.to_json() for s in result.steps]}
        if args.show_model:
            out["model"] = result.model.to_json()
        print_json(out)
    else:
        print(result.explain())
        if args.show_model:
            where = "final state" if result.valid else (
                f"state before step {result.failed_step}" if result.goal is None else "state at the end")
            print(f"\n{where}:\n{result.model.describe()}")
    return 0 if result.valid else 1


def _show(args: argparse.Namespace) -> int:
    """Print the problem's initial state and the event model of each ground action.

    Observability conditions are resolved on the initial state.
    """
    from kop.io.epddl import EpddlError, parse_plan

    task = _task(args)
    if args.action:
        steps = parse_plan("\n".join(args.action), "--action")
        wanted = [(s.name, s.args) for s in steps]
    else:
        wanted = sorted((n, a) for n, a in task.ground_names().values())
    actions = []
    for name, params in wanted:
        try:
            ga = task.action(name, params)
        except EpddlError:
            if args.action:
                raise
            continue  # arguments that fail the action's parameter condition
        em, obs = ga.event_model(task.initial)
        actions.append((ga, em, obs))
    if args.json:
        print_json({"domain": task.domain.name, "problem": task.problem.name, "agents": list(task.agents),
                    "atoms": sorted(task.atoms), "initial": task.initial.to_json(), "goal": str(task.goal),
                    "actions": [{"action": ga.label, "type": ga.action_type.name, "observability": obs,
                                 **em.to_json()} for ga, em, obs in actions]})
        return 0
    print(f"domain {task.domain.name}, problem {task.problem.name}; agents {' '.join(task.agents)}")
    print(f"initial state: {task.initial.describe()}")
    print(f"goal: {task.goal}")
    for ga, em, obs in actions:
        print(f"\naction {ga.label} ({ga.action_type.name}; "
              + ", ".join(f"{a} {t}" for a, t in obs.items()) + ")")
        print(em.describe())
    return 0
