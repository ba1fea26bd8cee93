"""The ``kop`` command line: one :mod:`argparse` parser, one module per command group.

The CLI is plain :mod:`argparse` (chosen by measurement: typer's import alone
cost more CPU than the whole start-up goal; argparse is in the standard
library and loads in about 2 ms).  Conventions every command follows:

* ``--json`` on every command (added by :meth:`Commands.add`): the answer as
  **one line** of JSON on stdout, printed with :func:`print_json`;
* a user's mistake is a :class:`kop.KopError` (located: file, line, column or
  field where there is one) -> ``error: ...`` on stderr, exit status 2, no
  traceback; a bad flag is also exit 2 (argparse);
* counts in text go through :func:`plural` ("1 world", "2 worlds");
* heavy imports (numpy, networkx, sympy, lark, rich) happen inside handlers.

How a command module registers its commands
-------------------------------------------
1. Write ``kop/cli/<group>_cmds.py`` with a function ``register(cli)``.
2. Add ``"kop.cli.<group>_cmds"`` to :data:`COMMAND_MODULES` below (the order
   of that list is the order of ``kop --help``), and each of its commands to
   :data:`COMMAND_INDEX` (so that running the command imports that module
   alone; ``tests/cli/test_startup_imports.py`` checks the index).
3. In ``register``, add each command with :meth:`Commands.add`, which returns
   an ordinary :class:`argparse.ArgumentParser` for its arguments::

       import argparse
       from kop.cli.app import Commands, print_json

       def register(cli: Commands) -> None:
           p = cli.add("solve", _solve, json_help="Print JSON: value and path.")
           p.add_argument("tree", metavar="TREE", help="A game tree: .json or .efg.")
           p.add_argument("--strategy", "-s", default="Mh", metavar="NAME", help="The strategy.")
           p.add_argument("--knowledge", "-k", action="append", default=[], metavar="FORMULA",
                          help="A formula true at the actual world (repeat).")

       def _solve(args: argparse.Namespace) -> int | None:
           \"\"\"Compute a strategy on TREE.          <- one line: shown in ``kop --help``

           Longer text, shown in ``kop solve --help`` (layout kept).
           \"\"\"
           from kop.io.trees import load_tree     # heavy imports go here
           t = load_tree(args.tree)
           if args.json:
               print_json({"tree": args.tree, ...})
               return None
           print(...)
           return None                                 # or an exit status (int)

   ``register`` runs whenever its module's command is run (and for
   ``kop --help``); for the other commands,
   :meth:`Commands.add` hands back a stand-in that ignores what is added to
   it, so ``register`` only configures parsers (``add_argument``, groups,
   ``add_subparsers``) and never reads from them.

   The handler's docstring is the help text; ``--json`` arrives as
   ``args.json``.  Metavars are plain words (``FORMULA``, ``MODEL``, ``TREE``,
   ``SECONDS``, ``P=d``).  Raise a :class:`kop.KopError` for bad input; return
   an int to exit with that status (e.g. 1 for a failed check, 3 for
   "unknown within the limit").
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import textwrap
from collections.abc import Callable
from typing import Any, cast

from kop import config
from kop.errors import KopError, ParseError
from kop.syntax.wording import plural

__all__ = ["Commands", "Handler", "COMMAND_MODULES", "COMMAND_INDEX", "build_parser", "main", "plural",
           "positive_int", "print_json", "report_error", "report_unknown"]

#: a command's handler: the parsed arguments in, an exit status (or None for 0) out
Handler = Callable[[argparse.Namespace], "int | None"]

DESCRIPTION = "kop: reason about what players know (S5_n) and pick the strategy that knowledge justifies."
EPILOG = ("Formulas use the syntax of docs/syntax.md (K_a, M_a, Kw_a, E{G}, C{G}, D{G},\n"
          "C{G}(phi, psi), [!phi] psi, ~ & | -> <->).  --json prints one line of JSON.\n"
          "Errors exit with status 2.  Run 'kop COMMAND --help' for a command's options.")

#: command modules, in the order their commands appear in --help
COMMAND_MODULES = [
    "kop.cli.parse_cmd",
    "kop.cli.model_cmds",
    "kop.cli.prover_cmds",
    "kop.cli.game_cmds",
    "kop.cli.select_cmds",
    "kop.cli.agent_cmds",
    "kop.cli.theory_cmds",
    "kop.cli.experiment_cmds",
    "kop.cli.draw_cmd",
    "kop.cli.epddl_cmds",
    "kop.cli.recall_cmd",
    "kop.cli.serve_cmd",
    "kop.cli.story_cmds",
]

#: command -> the module that registers it: ``kop CMD`` imports that module alone.  A command
#: missing here still runs (every module is then imported to find it), only slower to start.
COMMAND_INDEX = {
    "parse": "kop.cli.parse_cmd",
    "check": "kop.cli.model_cmds", "announce": "kop.cli.model_cmds", "minimize": "kop.cli.model_cmds",
    "export": "kop.cli.model_cmds",
    "valid": "kop.cli.prover_cmds", "satisfiable": "kop.cli.prover_cmds", "entails": "kop.cli.prover_cmds",
    "level": "kop.cli.prover_cmds",
    "solve": "kop.cli.game_cmds", "play": "kop.cli.game_cmds",
    "run": "kop.cli.select_cmds", "select": "kop.cli.select_cmds", "demo": "kop.cli.select_cmds",
    "match": "kop.cli.agent_cmds",
    "dominates": "kop.cli.theory_cmds", "decided": "kop.cli.theory_cmds",
    "experiment": "kop.cli.experiment_cmds",
    "draw": "kop.cli.draw_cmd",
    "epddl": "kop.cli.epddl_cmds",
    "recall": "kop.cli.recall_cmd",
    "serve": "kop.cli.serve_cmd",
    "story": "kop.cli.story_cmds",
}

#: command -> its line in ``kop --help``, in the order of the help: the first line of its handler's
#: docstring (``tests/cli/test_startup_imports.py`` checks both).  ``kop``, ``kop --help`` and
#: ``kop --version`` print from here and import no command module; a command missing here makes them
#: import every module instead, as before.
COMMAND_SUMMARIES = {
    "parse": "Parse FORMULA and print it in ASCII, Unicode or LaTeX notation.",
    "check": "Check FORMULA at the designated worlds of MODEL (or at --world) and list where it holds.",
    "announce": "Publicly announce FORMULA in MODEL: keep the worlds where it holds.",
    "minimize": "Contract MODEL by bisimulation: one world per class of bisimilar worlds.",
    "export": "Write MODEL in another tool's format: --to smcdel writes SMCDEL's input language.",
    "valid": "Is FORMULA valid in S5_n (with C, D, relativized C and announcements)?  If not, show a countermodel.",
    "satisfiable": "Is FORMULA satisfiable in S5_n?  If so, show a model (its designated world satisfies it).",
    "entails": "Do the premises (true at the actual world) entail FORMULA?  If not, show a countermodel.",
    "level": "The level of knowledge of player P (--player): the largest d with f(P, d) entailed by the knowledge.",
    "solve": "Compute a strategy on TREE: the value at the root and the principal path.",
    "play": "Play the players' strategies against each other on TREE (Definition 2): outcome and path.",
    "run": "Run a theory file: state a game and what players know, then ask questions about it.",
    "select": "Which strategy does the knowledge justify for the first mover, and why?",
    "demo": "Run the paper's worked example (Figure 2, SPEC §3.4) end to end and check every number.",
    "match": "Agents with knowledge play GAME move by move: each move with its strategy and reasons, and the outcome.",
    "dominates": "Which strategy dominates for the player, in every scenario of THEORY, and why?",
    "decided": "Which nodes of the game does the knowledge decide, and what is missing for the others?",
    "experiment": "Run one of the papers' experiments (kop experiment NAME --help).",
    "draw": "Draw INPUT to FILE: a tree with the decided nodes and a highlighted play, or a model.",
    "epddl": "Check plans of EPDDL planning tasks (the IPC 2026 epistemic track's language): validate, show.",
    "recall": "Perfect recall (Kuhn) and the kinds of imperfect recall, per player.",
    "serve": "Serve the playground: theories, models, stories, matches and experiments in the browser.",
    "story": "Answer every question of a story FILE (ToMi, Hi-ToM or kop syntax) by model checking, or generate one.",
}


def print_json(obj: Any) -> None:
    """Print *obj* as one line of JSON (kop's ``--json`` convention).

    >>> print_json({"holds": True, "worlds": ["w1"]})
    {"holds": true, "worlds": ["w1"]}
    """
    print(json.dumps(obj, ensure_ascii=False))


def positive_int(text: str) -> int:
    """An argparse ``type=``: a positive integer (a flag such as ``--max-nodes 0`` is bad input).

    >>> positive_int("3")
    3
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


class _Formatter(argparse.RawDescriptionHelpFormatter):
    def __init__(self, prog: str) -> None:
        super().__init__(prog, max_help_position=30)


class _Skipped:
    """Stands in for the parser of a command that is not being run: every call does nothing."""

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: self


class Commands:
    """The registry that command modules add their commands to (see the module docstring).

    When *only* names a command, the other commands get a stand-in parser that
    ignores what is added to it (building ~60 argparse parsers per run costs
    more start-up than the command itself).
    """

    def __init__(self, subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
                 only: str | None = None) -> None:
        self._sub = subparsers
        self._only = only
        self.names: list[str] = []

    def add(self, name: str, handler: Handler, *, json_help: str = "Print the answer as one line of JSON.",
            doc: str | None = None) -> argparse.ArgumentParser:
        """Add command *name* run by *handler*; its help is *doc* or the handler's docstring.

        Returns the command's parser (add arguments to it); ``--json`` is
        already there.
        """
        self.names.append(name)
        if self._only is not None and name != self._only:
            return cast(argparse.ArgumentParser, _Skipped())
        text = textwrap.dedent(doc if doc is not None else (handler.__doc__ or "")).strip()
        if "\n" in text:  # a docstring: first line, then an indented body
            first, _, rest = text.partition("\n")
            text = first + "\n" + textwrap.dedent(rest)
        summary = text.split("\n\n")[0].replace("\n", " ")
        p = self._sub.add_parser(name, help=summary, description=text or None, formatter_class=_Formatter,
                                 allow_abbrev=False)
        p.add_argument("--json", action="store_true", help=json_help)
        p.add_argument("--max-bytes", type=int, metavar="N", default=None,
                       help="Refuse input files larger than N bytes (default: 64 MiB).")
        p.set_defaults(_handler=handler)
        return p


def build_parser() -> argparse.ArgumentParser:
    """The whole ``kop`` parser, with every command module's commands."""
    return _build(None)[0]


def _build(only: str | None) -> tuple[argparse.ArgumentParser, list[str]]:
    """The parser (complete, or with only command *only* filled in) and the names of the commands in it.

    With *only* in :data:`COMMAND_INDEX`, only its module is imported and registered.
    """
    parser, sub = _top()
    cli = Commands(sub, only)
    home = COMMAND_INDEX.get(only) if only is not None else None
    for name in COMMAND_MODULES if home is None else [home]:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:  # a command group not built yet
            if exc.name != name:
                raise
            continue
        module.register(cli)
    return parser, cli.names


def _top() -> tuple[argparse.ArgumentParser, argparse._SubParsersAction[argparse.ArgumentParser]]:
    """The ``kop`` parser without its commands, and the action its commands are added to."""
    from kop import __version__

    parser = argparse.ArgumentParser(prog="kop", description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=_Formatter)
    parser.add_argument("--version", action="version", version=f"kop {__version__}", help="Print kop's version.")
    return parser, parser.add_subparsers(title="commands", metavar="COMMAND")


def _overview() -> argparse.ArgumentParser | None:
    """The parser ``kop --help`` prints, from :data:`COMMAND_SUMMARIES` (no command module imported).

    None when the summaries do not name every command of :data:`COMMAND_INDEX`.
    """
    if COMMAND_SUMMARIES.keys() != COMMAND_INDEX.keys():
        return None
    parser, sub = _top()
    for name, summary in COMMAND_SUMMARIES.items():
        sub.add_parser(name, help=summary, add_help=False)
    return parser


def report_error(exc: Exception) -> None:
    """Print a user error (with a caret under the column for parse errors) to stderr."""
    if isinstance(exc, ParseError):
        msg = f"error: {exc.pretty()}"
    else:
        msg = f"error: {exc}"
    print(msg, file=sys.stderr)


#: command -> what a stray argument to it usually means
STRAY_HINTS: dict[tuple[str, ...], str] = {
    ("entails",): " (premises go with -p: kop entails -p PREMISE -p PREMISE CONCLUSION)",
}


def _command_parser(parser: argparse.ArgumentParser,
                    argv: list[str]) -> tuple[argparse.ArgumentParser, list[str]]:
    """The parser of the (sub-)command that *argv* names, and the names leading to it."""
    names: list[str] = []
    for token in argv:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if subs and token in subs[0].choices:
            parser = subs[0].choices[token]
            names.append(token)
    return parser, names


def run(argv: list[str] | None = None) -> int:
    """Run the command line on *argv* (default: ``sys.argv[1:]``); return the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    first = argv[0] if argv and not argv[0].startswith("-") else None
    overview = _overview() if first is None and not set(argv) & COMMAND_INDEX.keys() else None
    if overview is not None:  # no command: kop, kop --help, kop --version
        parser, names = overview, list[str]()
    else:
        parser, names = _build(first)
    if first is not None and first not in names:  # not a command: the full parser says so
        parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # a stray argument: the command's own usage says what it takes
        command, names = _command_parser(parser, argv)
        hint = STRAY_HINTS.get(tuple(names), "")
        command.error(f"unrecognized arguments: {' '.join(extra)}{hint}")
    handler: Handler | None = getattr(args, "_handler", None)
    if handler is None:  # no command: show the help
        parser.print_help()
        return 0
    from kop.syntax.budget import start_deadline

    with config.using():  # the limits of one command (--max-bytes, --timeout) end with it, in this thread only
        try:
            _limits(args)
            return handler(args) or 0
        finally:
            start_deadline(None)  # and a hard deadline's timer stops


def _limits(args: argparse.Namespace) -> None:
    """Check the limits every command shares: ``--max-bytes`` (set for the command's block) and ``--timeout``."""
    from kop.syntax.budget import check_timeout
    from kop.syntax.files import set_max_bytes

    if getattr(args, "max_bytes", None) is not None:
        if args.max_bytes < 1:
            raise KopError(f"--max-bytes must be a positive number of bytes, not {args.max_bytes}")
        set_max_bytes(args.max_bytes)
    if getattr(args, "timeout", None) is not None:
        args.timeout = check_timeout(args.timeout, "--timeout")


def report_unknown(exc: BaseException, as_json: bool, command: str | None = None) -> int:
    """Print "unknown within the limit" for a time limit reached (*exc* has ``seconds``); return 3.

    With ``--json``, the prover commands' answer field (``holds``, ``level``) is there too, as null.
    """
    seconds = getattr(exc, "seconds", None)
    where = getattr(exc, "where", None)
    if where:
        print(f"{where}: {exc}", file=sys.stderr)
    if as_json:
        key = {"valid": "holds", "satisfiable": "holds", "entails": "holds", "level": "level"}.get(command or "")
        print_json({**({key: None} if key else {}), "status": "unknown within the limit", "timeout": seconds})
    else:
        print(f"unknown within the limit ({seconds:g} s)" if seconds else "unknown within the limit")
    return 3


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``kop`` console script."""
    from kop.syntax.budget import DeadlineInterrupt, OutOfTime

    try:
        status = run(argv)
    except (OutOfTime, DeadlineInterrupt) as exc:  # a time limit reached, in any command: "unknown within the limit"
        args = sys.argv[1:] if argv is None else list(argv)
        status = report_unknown(exc, "--json" in args, args[0] if args else None)
    except KopError as exc:
        report_error(exc)
        status = 2
    except RecursionError:
        print("error: input nested too deeply for kop's limits", file=sys.stderr)
        status = 2
    except KeyboardInterrupt as exc:  # Ctrl-C, or a run stopped by SIGTERM (kop.errors.Stopped)
        print(f"interrupted: {exc}" if str(exc) else "interrupted", file=sys.stderr)
        status = getattr(exc, "status", 130)
    except BrokenPipeError:  # output piped into a program that stopped reading (head, ...)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        status = 1
    except Exception as exc:  # a bug: say so, briefly, unless debugging
        if os.environ.get("KOP_DEBUG"):
            raise
        print(f"internal error ({type(exc).__name__}): {exc}\n"
              "This is a bug in kop; set KOP_DEBUG=1 to see the traceback.", file=sys.stderr)
        status = 1
    sys.exit(status)


if __name__ == "__main__":
    main()
