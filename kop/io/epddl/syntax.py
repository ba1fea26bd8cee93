"""EPDDL's syntax: read a file with ``grammar/epddl.lark`` into located nodes, and the located error.

``grammar/epddl.lark`` holds EPDDL's productions (domains, problems, action-type libraries,
events, actions, formulas, effects, observability conditions, initial states), so a misplaced
item is reported by Lark with its line and column and what was expected there; the common
mistakes have their messages in ``grammar/epddl.errors.toml`` (errors by example,
:func:`kop.syntax.examples.explain`).  :func:`read_nodes` gives the file as nested
:class:`Node` lists that remember where they were written, for the readers of the domain, the
problem and the libraries, which check names, types and arities against the declarations.

>>> top = read_nodes("(define (domain d) (:predicates (p)) (:event e :precondition ([C. All] (p))))")
>>> top.head(), top.items[3].items[3].items[0].kind, top.items[3].items[3].items[0].items[0].text
('define', '[', 'C.')
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from kop.errors import EpddlError, KopError
from kop.syntax.examples import explain
from kop.syntax.grammar_cache import lalr_parser

if TYPE_CHECKING:  # pragma: no cover
    from lark import Lark, Token
    from lark.exceptions import UnexpectedInput

__all__ = ["Node", "EpddlError", "read_nodes"]


@dataclass(frozen=True)
class Node:
    """One item of an EPDDL file: a symbol (``kind == "sym"``, its ``text``) or a list.

    Lists have ``kind`` ``"("``, ``"["`` (a box operator) or ``"<"`` (a diamond operator)
    and their ``items``.  ``line`` and ``column`` are 1-based.

    Example
    -------
    >>> Node("(", "", (Node("sym", "p", (), 1, 2),), 1, 1).show()
    '(p)'
    """

    kind: str
    text: str
    items: tuple[Node, ...]
    line: int
    column: int

    @property
    def is_sym(self) -> bool:
        """Whether this is a symbol (a name, ``?variable``, ``:keyword`` or operator)."""
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
            s = self.kind + " ".join(i.show(limit) for i in self.items) + _CLOSE[self.kind]
        return s if len(s) <= limit else s[:limit - 3] + "..."


_CLOSE = {"(": ")", "[": "]", "<": ">"}
#: how the terminals of grammar/epddl.lark that are patterns are named in "expected ..." messages
_CHARACTERS = "an EPDDL name, ?variable, :keyword or bracket"
_TERMINALS = {"NAME": "a name", "VARIABLE": "a ?variable", "KEYWORD": "a :keyword",
              "MODOP": "C., Kw. or D.", "$END": "the end of the file"}


class _WholeWords:
    """Lark's "postlexer" that only widens the contextual lexer: names, ?variables and :keywords are
    read whole in every parser state, so that ``:action-types`` is one (unexpected) keyword rather
    than ``:action`` and a stray ``-types``."""

    always_accept = ("NAME", "VARIABLE", "KEYWORD")

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        return stream


@lru_cache(maxsize=1)
def _parser() -> Lark:
    """The grammar's parser (loaded once per process: Lark's parsers keep no state between parses)."""
    return lalr_parser("epddl", propagate_positions=True, keep_all_tokens=True, postlex=_WholeWords())


def read_nodes(text: str, source: str = "") -> Node:
    """Parse an EPDDL file (a domain, a problem or an action-type library) into its ``(define ...)`` node.

    Raises
    ------
    EpddlError
        A syntax error, with its line and column and what was expected there.

    Example
    -------
    >>> read_nodes("(define (domain d) (:predicates (p ?x))")
    Traceback (most recent call last):
    ...
    kop.errors.EpddlError: line 1, column 40: a ')' closing the '(' of line 1, column 1
    >>> read_nodes("(define (domain d) (:derived (p)))")
    Traceback (most recent call last):
    ...
    kop.errors.EpddlError: line 1, column 21: a domain section kop reads: :requirements, :types, \
:constants, :predicates, :action-type-libraries, :event, :action (see docs/epddl.md); found ':derived'
    """
    from lark.exceptions import UnexpectedInput

    if not isinstance(text, str):
        raise KopError(f"EPDDL text must be a str, not {type(text).__name__}")
    parser = _parser()
    try:
        tree = parser.parse(text)
    except UnexpectedInput as e:
        raise _syntax_error(parser, text, source, e) from None
    return _nodes(list(tree.scan_values(lambda v: True)))


def _syntax_error(parser: Lark, text: str, source: str, e: UnexpectedInput) -> EpddlError:
    """The located error for Lark's *e*: an unclosed bracket, a message by example, or what Lark expected."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF

    token = getattr(e, "token", None)
    if isinstance(e, UnexpectedEOF) or (token is not None and token.type == "$END"):
        lines = text.split("\n")
        unclosed = _unclosed(text)
        if unclosed:
            return EpddlError(text, len(lines), len(lines[-1]) + 1, "", unclosed, source)
        line, column, found = len(lines), len(lines[-1]) + 1, ""
    elif isinstance(e, UnexpectedCharacters):
        pos = e.pos_in_stream or 0
        line, column, found = e.line, e.column, text[pos:pos + 1]
    else:
        line, column, found = e.line, e.column, str(token)
    lark_words = _CHARACTERS if isinstance(e, UnexpectedCharacters) else _expected(parser, e)
    expected = explain("epddl", parser.parse, e) or lark_words
    return EpddlError(text, line, column, found, expected, source)


def _expected(parser: Lark, e: UnexpectedInput) -> str:
    """Lark's own wording: the terminals it would have accepted there."""
    names = getattr(e, "accepts", None) or getattr(e, "expected", None) or getattr(e, "allowed", None) or set()
    shown = sorted({_terminal(parser, n) for n in names})
    if not shown:  # pragma: no cover - Lark always names what it expected
        return "EPDDL text"
    return shown[0] if len(shown) == 1 else "one of " + ", ".join(shown)


def _terminal(parser: Lark, name: str) -> str:
    if name in _TERMINALS:
        return _TERMINALS[name]
    try:
        pattern = parser.get_terminal(name).pattern
    except KeyError:  # pragma: no cover - every name Lark gives is a terminal of the grammar
        return name
    return repr(pattern.value) if pattern.type == "str" else name


def _unclosed(text: str) -> str:
    """Name the innermost bracket left open at the end of *text* (comments skipped)."""
    stack: list[tuple[str, int, int]] = []
    line, col = 1, 0
    in_comment = False
    for ch in text:
        col += 1
        if ch == "\n":
            line, col, in_comment = line + 1, 0, False
        elif in_comment:
            continue
        elif ch == ";":
            in_comment = True
        elif ch in _CLOSE:
            stack.append((ch, line, col))
        elif ch in ")]>" and stack:
            stack.pop()
    if not stack:
        return ""
    ch, ln, c = stack[-1]
    return f"a {_CLOSE[ch]!r} closing the {ch!r} of line {ln}, column {c}"


def _nodes(tokens: Sequence[Token]) -> Node:
    """The nested lists the grammar has checked, rebuilt from its tokens (in order) by their brackets."""
    stack: list[tuple[Token, list[Node]]] = []
    done: Node | None = None
    for tok in tokens:
        value = str(tok)
        if value in _CLOSE:
            stack.append((tok, []))
            continue
        if value in (")", "]", ">"):
            opener, items = stack.pop()
            node = Node(str(opener), "", tuple(items), opener.line or 1, opener.column or 1)
        else:
            node = Node("sym", value, (), tok.line or 1, tok.column or 1)
        if stack:
            stack[-1][1].append(node)
        else:
            done = node
    assert done is not None and not stack, "the grammar reads one (define ...) list"
    return done


# -- what the readers share: located errors, typed lists, :key value lists, (define (KIND NAME) ...) --


class _File:
    """Error reporting for one file."""

    def __init__(self, text: str, source: str):
        self.text, self.source = text, source

    def fail(self, node: Node, expected: str, found: str | None = None) -> EpddlError:
        return EpddlError(self.text, node.line, node.column, node.show() if found is None else found, expected,
                          self.source)


def _define(f: _File, top: Node, kind: str) -> tuple[str, Node, list[Node]]:
    """The name and the sections of ``(define (KIND NAME) SECTION ...)`` (the grammar checked the form)."""
    title = top.items[1]
    if title.head() != kind:
        if title.head() == "action-type-library":
            raise f.fail(title, f"({kind} NAME): this is an action-type library (give it to kop with --library)")
        raise f.fail(title, f"({kind} NAME)")
    return title.items[1].text, top, list(top.items[2:])


def _typed(f: _File, items: Sequence[Node], what: str,
           default: str = "object") -> tuple[list[tuple[str, str, Node]], Node | None]:
    """A typed list ``?a ?b - t ?c - u | cond`` (the grammar checked its form): the (name, type, node) entries and the condition."""
    out: list[tuple[str, str, Node]] = []
    pending: list[Node] = []
    cond = None
    k = 0
    while k < len(items):
        it = items[k]
        if it.text == "|":
            cond = items[k + 1]
            break
        if it.text == "-":
            out.extend((p.text, items[k + 1].text, p) for p in pending)
            pending = []
            k += 2
            continue
        pending.append(it)
        k += 1
    out.extend((p.text, default, p) for p in pending)
    seen: set[str] = set()
    for name, _, node in out:
        if name in seen:
            raise f.fail(node, f"a {what} that names {name} once")
        seen.add(name)
    return out, cond


def _plist(f: _File, items: Sequence[Node], what: str) -> dict[str, Node]:
    """``:key value :key value`` pairs (the grammar checked the keys): each key once."""
    out: dict[str, Node] = {}
    for key, value in zip(items[::2], items[1::2]):
        if key.text in out:
            raise f.fail(key, f"{key.text} once in the {what}")
        out[key.text] = value
    return out


def name_condition(f: _File, node: Node, env: Mapping[str, str], what: str) -> bool:
    """A condition over bound names (event or world variables): ``=``, ``/=``, ``and``, ``or``, ``not``,
    ``imply``; *what* names them in the error (``"variables"``, ``"worlds"``)."""
    head = node.head()
    rest = node.items[1:]
    if head in ("=", "/="):
        a, b = (env.get(k.text, k.text) for k in rest)
        return (a == b) == (head == "=")
    if head == "not":
        return not name_condition(f, rest[0], env, what)
    if head == "and":
        return all(name_condition(f, k, env, what) for k in rest)
    if head == "or":
        return any(name_condition(f, k, env, what) for k in rest)
    if head == "imply":
        return not name_condition(f, rest[0], env, what) or name_condition(f, rest[1], env, what)
    raise f.fail(node, f"a condition over {what}: =, /=, and, or, not, imply")
