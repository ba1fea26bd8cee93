"""The ``kop`` command line: one typer app, one module per command group.

Each command module defines ``register(app)``; heavy imports happen inside the
command functions so that ``kop --help`` and small questions start fast.
Errors a user can cause (:class:`kop.KopError`) are printed without a
traceback and exit with status 2.
"""

from __future__ import annotations

import importlib
import os
import sys

import typer

from kop.syntax.errors import KopError, ParseError

app = typer.Typer(
    name="kop",
    help="kop: reason about what players know (S5_n) and pick the strategy that knowledge justifies.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

def _version(value: bool) -> None:
    if value:
        from kop import __version__

        print(f"kop {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print kop's version."),
) -> None:
    """kop: reason about what players know (S5_n) and pick the strategy that knowledge justifies.

    Formulas use the syntax of docs/syntax.md (K_a, M_a, Kw_a, E{G}, C{G}, D{G},
    C{G}(phi, psi), [!phi] psi, ~ & | -> <->).  Errors exit with status 2.
    """


#: command modules, in the order their commands appear in --help
COMMAND_MODULES = [
    "kop.cli.parse_cmd",
    "kop.cli.model_cmds",
    "kop.cli.prover_cmds",
    "kop.cli.game_cmds",
    "kop.cli.select_cmds",
]

for _name in COMMAND_MODULES:
    try:
        _module = importlib.import_module(_name)
    except ModuleNotFoundError as exc:  # a command group not built yet
        if exc.name != _name:
            raise
        continue
    _module.register(app)


def report_error(exc: Exception) -> None:
    """Print a user error (with a caret under the column for parse errors) to stderr."""
    if isinstance(exc, ParseError):
        msg = f"error: {exc.pretty()}"
    else:
        msg = f"error: {exc}"
    print(msg, file=sys.stderr)


def main() -> None:
    """Entry point of the ``kop`` console script."""
    try:
        app()
    except KopError as exc:
        report_error(exc)
        sys.exit(2)
    except RecursionError:
        print("error: input nested too deeply for kop's limits", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except Exception as exc:  # a bug: say so, briefly, unless debugging
        if os.environ.get("KOP_DEBUG"):
            raise
        print(f"internal error ({type(exc).__name__}): {exc}\n"
              "This is a bug in kop; set KOP_DEBUG=1 to see the traceback.", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
