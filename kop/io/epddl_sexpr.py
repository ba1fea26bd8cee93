"""EPDDL's lists: read a file into located nodes, and the located error every EPDDL reader raises.

EPDDL is written as nested lists, ``( ... )``, with modal operators as bracketed lists
``[ ... ]`` and ``< ... >`` in front of a formula.  :func:`read_nodes` parses a file with
``grammar/epddl.lark`` into :class:`Node` values that remember their line and column, so that
:mod:`kop.io.epddl` can say where each problem is.

>>> nodes = read_nodes("(define (domain d) ([C. All] (p)))")
>>> nodes[0].head(), nodes[0].items[2].items[0].kind, nodes[0].items[2].items[0].items[0].text
('define', '[', 'C.')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kop.errors import EpddlError, KopError, ParseError

__all__ = ["Node", "EpddlError", "read_nodes"]


@dataclass(frozen=True)
class Node:
    """One item of an EPDDL file: a symbol (``kind == "sym"``, its ``text``) or a list.

    Lists have ``kind`` ``"("``, ``"["`` (a box operator) or ``"<"`` (a diamond operator)
    and their ``items``.  ``line`` and ``column`` are 1-based.
    """

    kind: str
    text: str
    items: tuple[Node, ...]
    line: int
    column: int

    @property
    def is_sym(self) -> bool:
        """Whether this is a symbol (a name, ``?variable``, ``:keyword``, operator or number)."""
        return self.kind == "sym"

    def head(self) -> str | None:
        """The first item's text when this is a list starting with a symbol, else None."""
        if self.kind != "sym" and self.items and self.items[0].is_sym:
            return self.items[0].text
        return None

    def show(self, limit: int = 60) -> str:
        """The node written back as EPDDL text (shortened to *limit* characters)."""
        if self.is_sym:
            s = self.text
        else:
            close = {"(": ")", "[": "]", "<": ">"}[self.kind]
            s = self.kind + " ".join(i.show(limit) for i in self.items) + close
        return s if len(s) <= limit else s[:limit - 3] + "..."


_EXPECTED = {"RPAR": "')'", "RSQB": "']'", "MORETHAN": "'>'", "$END": "end of input"}


def read_nodes(text: str, source: str = "") -> tuple[Node, ...]:
    """Parse EPDDL text into its top-level nodes.

    Raises
    ------
    EpddlError
        An unbalanced bracket or a character EPDDL does not use, with line and column.

    Example
    -------
    >>> read_nodes("(a ?x")
    Traceback (most recent call last):
    ...
    kop.errors.EpddlError: line 1, column 6: a ')' closing the '(' of line 1, column 1
    """
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

    from kop.syntax.grammar_cache import lalr_parser

    if not isinstance(text, str):
        raise KopError(f"EPDDL text must be a str, not {type(text).__name__}")
    parser = lalr_parser("epddl", propagate_positions=True)
    try:
        tree = parser.parse(text)
    except (UnexpectedToken, UnexpectedEOF) as e:
        tok = getattr(e, "token", None)
        if tok is None or tok.type == "$END":
            lines = text.split("\n")
            line, col, found = len(lines), len(lines[-1]) + 1, ""
            raise EpddlError(text, line, col, found, _unclosed(text) or "more input", source) from None
        found = str(tok)
        what = "a closing bracket" if found in ")]>" else "an item"
        raise EpddlError(text, tok.line, tok.column, found, f"{what} that matches the open brackets "
                         "(check the brackets before it)", source) from None
    except UnexpectedCharacters as e:
        pos = e.pos_in_stream or 0
        raise EpddlError(text, e.line, e.column, text[pos:pos + 1],
                         "an EPDDL name, ?variable, :keyword or bracket", source) from None
    except UnexpectedInput as e:  # pragma: no cover - the three above are all Lark raises for LALR
        raise EpddlError(text, getattr(e, "line", 1), getattr(e, "column", 1), "", "EPDDL text", source) from None
    return tuple(_node(k) for k in tree.children)


def _unclosed(text: str) -> str:
    """Name the innermost bracket left open at the end of *text* (comments skipped)."""
    stack: list[tuple[str, int, int]] = []
    line, col = 1, 0
    in_comment = False
    for ch in text:
        col += 1
        if ch == "\n":
            line, col, in_comment = line + 1, 0, False
            continue
        if in_comment:
            continue
        if ch == ";":
            in_comment = True
        elif ch in "([<":
            stack.append((ch, line, col))
        elif ch in ")]>" and stack:
            stack.pop()
    if not stack:
        return ""
    ch, ln, c = stack[-1]
    close = {"(": ")", "[": "]", "<": ">"}[ch]
    return f"a {close!r} closing the {ch!r} of line {ln}, column {c}"


def _node(t: Any) -> Node:
    from lark import Token

    if isinstance(t, Token):
        return Node("sym", str(t), (), t.line or 1, t.column or 1)
    if t.data == "symbol":
        tok = t.children[0]
        return Node("sym", str(tok), (), tok.line, tok.column)
    opener = t.children[0]
    kind = {"list": "(", "box": "[", "diamond": "<"}[t.data]
    return Node(kind, "", tuple(_node(k) for k in t.children[1:]), opener.line, opener.column)
