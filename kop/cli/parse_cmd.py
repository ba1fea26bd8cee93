"""``kop parse``: read a formula and print it back, or describe it as JSON."""

from __future__ import annotations

import json
from enum import Enum

import typer


class Format(str, Enum):
    ascii = "ascii"
    unicode = "unicode"
    latex = "latex"


def register(app: typer.Typer) -> None:
    @app.command("parse")
    def parse_command(
        formula: str = typer.Argument(..., help="The formula, e.g. 'K_A K_B E_A' or 'C{A,B}(p, q)'."),
        fmt: Format = typer.Option(Format.ascii, "--format", "-f", help="Notation to print."),
        as_json: bool = typer.Option(False, "--json", help="Print a JSON description (all notations, atoms, agents, depth, AST)."),
    ) -> None:
        """Parse FORMULA and print it in ASCII, Unicode or LaTeX notation.

        A syntax error is reported with its line and column and a caret under the
        offending text, and the exit status is 2.
        """
        from kop.syntax.parser import parse
        from kop.syntax.printer import render

        f = parse(formula)
        if not as_json:
            print(render(f, fmt.value))
            return
        from kop.syntax.jsonast import to_json_ast

        print(json.dumps({
            "formula": render(f, fmt.value),
            "ascii": render(f, "ascii"),
            "unicode": render(f, "unicode"),
            "latex": render(f, "latex"),
            "atoms": sorted(f.atoms()),
            "agents": sorted(f.agents()),
            "modal_depth": f.modal_depth(),
            "size": f.size(),
            "ast": to_json_ast(f),
        }, ensure_ascii=False, indent=2))
