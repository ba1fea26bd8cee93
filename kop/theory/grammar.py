"""Reading theory text: the Lark grammar ``grammar/theory.lark`` and the statements it yields.

Errors are located by line and column in the theory, also inside formulas.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from kop.syntax.errors import KopError, ParseError
from kop.syntax.formula import Formula
from kop.theory.model import Statement, Theory

__all__ = ["parse_theory", "load_theory"]

_MAX_STATEMENTS = 10_000


@lru_cache(maxsize=1)
def _parser() -> Lark:
    from kop.syntax.parser import grammar_path

    path = grammar_path().parent / "theory.lark"
    return Lark(path.read_text(encoding="utf-8"), parser="lalr", lexer="contextual", propagate_positions=True)


def _formula(text: str, tok: Token, source: str) -> Formula:
    """Parse a formula written on a theory line; errors are located in the theory text."""
    from kop.syntax.parser import parse

    try:
        return parse(str(tok))
    except ParseError as exc:
        col = (tok.column or 1) + exc.column - 1 if exc.line == 1 else exc.column
        raise ParseError(source, (tok.line or 1) + exc.line - 1, col, exc.found,
                         f"in a formula: {exc.expected}") from None


def parse_theory(text: str, base: Path | str = ".") -> Theory:
    """Parse the text of a theory; *base* is the folder that relative file names are read from."""
    try:
        tree = _parser().parse(text if text.endswith("\n") else text + "\n")
    except UnexpectedInput as exc:
        line, col = exc.line, exc.column
        lines = text.splitlines() or [""]
        src = lines[line - 1] if 0 < line <= len(lines) else ""
        first = src.split()[0] if src.split() else ""
        start = len(src) - len(src.lstrip()) + 1
        if first and col <= start + len(first):  # the statement word itself is wrong
            col, found, what = start, first, f"unknown statement {first!r}: expected"
        else:
            found, what = src[col - 1:].split(" ")[0], "expected"
        raise ParseError(text, line, col, found,
                         f"{what} a statement: tree \"FILE\", model \"FILE\", agents A, B, know FORMULA, "
                         "core P = d, announce FORMULA, or ask valid|entails|satisfiable|check FORMULA, "
                         "ask level P, ask select [P], ask decided") from None
    out: list[Statement] = []
    for st in tree.children:
        if not isinstance(st, Tree):
            continue
        toks = [c for c in st.children if isinstance(c, Token)]
        line = st.meta.line if not st.meta.empty else ((toks[0].line or 0) if toks else 0)
        kind = st.data
        if kind in ("tree", "model"):
            args: tuple = (str(toks[0])[1:-1],)
        elif kind == "agents":
            args = tuple(str(t) for t in toks)
        elif kind in ("know", "announce"):
            args = (_formula(str(toks[0]), toks[0], text),)
        elif kind == "core":
            args = (str(toks[0]), int(toks[1]))
        elif kind == "ask_formula":
            args = (str(toks[0]), _formula(str(toks[1]), toks[1], text))
        else:
            args = tuple(str(t) for t in toks)
        out.append(Statement(kind, args, line))
        if len(out) > _MAX_STATEMENTS:
            raise KopError(f"a theory may have at most {_MAX_STATEMENTS} statements")
    return Theory(tuple(out), Path(base))


def load_theory(path: str | Path) -> Theory:
    """Read and parse a ``.kop`` theory file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise KopError(f"cannot read theory {str(p)!r}: {exc.strerror or exc}") from None
    return parse_theory(text, p.parent)


