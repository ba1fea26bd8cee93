"""``kop parse``: read a formula and print it back, or describe it as JSON."""

from __future__ import annotations

import argparse

from kop.cli.app import Commands, print_json

FORMATS = ("ascii", "unicode", "latex")


def register(cli: Commands) -> None:
    p = cli.add("parse", _parse,
                json_help="Print a JSON description (all notations, atoms, agents, depth, AST).")
    p.add_argument("formula", metavar="FORMULA", help="The formula, e.g. 'K_A K_B E_A' or 'C{A,B}(p, q)'.")
    p.add_argument("--format", "-f", dest="fmt", choices=FORMATS, default="ascii", metavar="NOTATION",
                   help="Notation to print: ascii (default), unicode or latex; with --json, the notation "
                        "of the \"formula\" field (the others are always there).")


def _parse(args: argparse.Namespace) -> None:
    """Parse FORMULA and print it in ASCII, Unicode or LaTeX notation.

    A syntax error is reported with its line and column and a caret under the
    offending text, and the exit status is 2.
    """
    from kop.syntax.parser import parse
    from kop.syntax.printer import render

    f = parse(args.formula)
    if not args.json:
        print(render(f, args.fmt))
        return
    from kop.io.formula_json import to_json_ast

    print_json({
        "formula": render(f, args.fmt),
        "ascii": render(f, "ascii"),
        "unicode": render(f, "unicode"),
        "latex": render(f, "latex"),
        "atoms": sorted(f.atoms()),
        "agents": sorted(f.agents()),
        "modal_depth": f.modal_depth(),
        "size": f.size(),
        "ast": to_json_ast(f),
    })
