"""Reading theory text: the Lark grammar ``grammar/theory.lark`` and the statements it yields.

:func:`parse_theory` turns text into a :class:`~kop.theory.model.Theory`;
:func:`load_theory` reads a file (confined to its folder, see
:mod:`kop.theory.files`) and expands its includes.  Every error is a
:class:`~kop.errors.ParseError` located by line and column in the
theory, also inside formulas and inline games.

>>> th = parse_theory("players A max, B min\\ngame A { (1,2) (3,0) }\\nask dominates A\\n")
>>> [type(s).__name__ for s in th.statements]
['Players', 'Game', 'AskDominates']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from collections.abc import Callable
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from kop.syntax.budget import MAX_NESTING, check_deadline, recursion_room
from kop.errors import KopError, ParseError, source_lines
from kop.syntax.examples import explain
from kop.syntax.formula import Formula
from kop.theory import statements as S
from kop.theory.model import BeliefSpec, GameNode, ObservationSpec, PartialSpec, Theory, MAX_LEVEL
from kop.theory.statements import Statement
from kop.theory.source import Position, inner, located
from kop.syntax.arguments import path as path_argument
from kop.syntax.files import decode_utf8
from kop.syntax.files import read_bytes
from kop.syntax.grammar_cache import lalr_parser
from kop.syntax.parser import parse
from kop.theory.files import read_confined_bytes

__all__ = ["parse_theory", "load_theory", "expand_includes", "MAX_STATEMENTS"]

#: The most statements a theory (with its includes) may have.
MAX_STATEMENTS = 10_000
#: The deepest include chain.
MAX_INCLUDE_DEPTH = 50

_STATEMENTS = ('include "FILE", tree "FILE", model "FILE", model { ... }, agents A, B, players A max, B min, '
               "game ..., decide strict, scenario NAME { ... }, know FORMULA, common FORMULA, core P = d, "
               "P knows E_Q ..., P believes E_Q among { ... }, define NAME = FORMULA, announce FORMULA, [in S1, S2] ask QUESTION, [in S1, S2] expect ...")


@lru_cache(maxsize=1)
def _parser() -> Lark:

    return lalr_parser("theory", lexer="contextual", propagate_positions=True, maybe_placeholders=False)


@dataclass(frozen=True)
class _Failure:
    """Where Lark stopped reading a theory, and what is around: the facts the error rules look at."""

    exc: UnexpectedInput
    text: str
    file: str
    line: int
    column: int
    src: str  # the source line
    found: str  # the word at the error ('' at the end)
    expected: frozenset[str]  # the terminals Lark expected

    @classmethod
    def of(cls, exc: UnexpectedInput, text: str, file: str) -> _Failure:
        line, col = exc.line, exc.column
        lines = source_lines(text)
        src = lines[line - 1] if 0 < line <= len(lines) else ""
        found = src[col - 1:].split(" ")[0] if 0 < col <= len(src) else ""
        expected = getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ()
        return cls(exc, text, file, line, col, src, found, frozenset(expected))

    @property
    def first(self) -> str:
        """The first word of the line."""
        words = self.src.split()
        return words[0] if words else ""

    @property
    def start(self) -> int:
        """The column of the line's first word."""
        return len(self.src) - len(self.src.lstrip()) + 1

    def error(self, message: str, found: str | None = None, line: int | None = None,
              column: int | None = None) -> ParseError:
        return located(self.text, line or self.line, column or self.column, message,
                       self.found if found is None else found, self.file)


def _syntax_error(exc: UnexpectedInput, text: str, file: str) -> ParseError:
    """The located error for Lark's *exc*: a block never closed before a statement, else the message
    of ``grammar/theory.errors.toml`` whose examples fail the same way
    (:func:`kop.syntax.examples.explain`), else the first of the rules :data:`_RULES` that applies,
    else what the grammar expected there."""
    at = _Failure.of(exc, text, file)
    unclosed = _statement_inside_block(at)
    if unclosed is not None:
        return unclosed
    message = explain("theory", _parse_text, exc)
    if message is not None:
        return at.error(message)
    for rule in _RULES:
        err = rule(at)
        if err is not None:
            return err
    return _expected_there(at)


def _parse_text(text: str) -> Tree[Token]:
    """Lark's tree of *text*, which ends with a newline as every statement does."""
    return _parser().parse(text if text.endswith("\n") else text + "\n")


def _ends_inside_block(at: _Failure) -> ParseError | None:
    if not (isinstance(at.exc, UnexpectedToken) and at.exc.token.type == "$END"):
        return None
    brace = _open_brace(at.text, at.line, at.column)
    where = f" (the '{{' at line {brace[0]}, column {brace[1]} is not closed)" if brace else ""
    return at.error(f"the theory ends inside a block: expected '}}'{where}", "")


def _statement_inside_block(at: _Failure) -> ParseError | None:
    """A statement keyword starts a line inside a block that is never closed: the '}' is missing."""
    first = at.first
    if not (first and at.column == at.start and first in _KEYWORDS and first not in ("}", "in")
            and "NAME" in at.expected):
        return None
    brace = _open_brace(at.text, at.line, at.column)
    if brace is None or brace not in _open_braces(at.text, len(source_lines(at.text)) + 1, 1):
        return None
    return at.error(f"this '{{' is not closed: line {at.line} starts the statement {first!r} inside its block "
                    "(a '}' is missing before it)", "{", *brace)


def _inside_word(at: _Failure) -> ParseError | None:
    """Lark stopped inside a word: it read a keyword at the word's start (``maximum`` as ``max``)."""
    src, col = at.src, at.column
    if not (0 < col <= len(src) and (src[col - 1].isalnum() or src[col - 1] == "_")):
        return None
    word_start = col
    while word_start > 1 and (src[word_start - 2].isalnum() or src[word_start - 2] == "_"):
        word_start -= 1
    if word_start == col or not src[word_start - 1].isalpha():
        return None
    word = src[word_start - 1:].split(" ")[0].rstrip(",")
    prefix = src[word_start - 1:col - 1]
    return at.error(f"unknown word {word!r}: kop reads {prefix!r} and then {word[len(prefix):]!r}; "
                    f"did you mean {prefix!r}?", word, column=word_start)


def _reserved_name(at: _Failure) -> ParseError | None:
    found = at.found
    if not ("NAME" in at.expected and found.isidentifier() and (found in _KEYWORDS or found in _RESERVED_WORDS)):
        return None
    return at.error(f"expected a name; {found!r} is a reserved word of the theory language and cannot be a name "
                    f"or a move label (names are case-sensitive: write {found.capitalize()!r}, or another word)")


def _unknown_statement(at: _Failure) -> ParseError | None:
    """The line starts with a word that is no statement (nor a player's name before knows/believes)."""
    first, src, start = at.first, at.src, at.start
    words = src.split()
    if not first or first in _KEYWORDS or first.startswith("#") or (len(words) > 1 and words[1] in ("knows", "believes")):
        return None
    rest = src[start - 1 + len(first):]
    second = start + len(first) + len(rest) - len(rest.lstrip())  # the column of the second word
    at_start = at.column == start
    if not (at.column in (start, second) and (at_start or (at.expected and at.expected <= {"KNOWS", "BELIEVES"}))):
        return None
    return at.error(f"unknown statement {first!r}: expected a statement: {_STATEMENTS}", first, column=start)


_RULES: tuple[Callable[[_Failure], ParseError | None], ...] = (
    _ends_inside_block, _inside_word, _reserved_name, _unknown_statement)


def _expected_there(at: _Failure) -> ParseError:
    """What the grammar expected, with a near keyword when the word found is a misspelling of one."""
    words_expected = _describe(set(at.expected))
    if at.column == at.start and at.first == "}":
        return at.error("'}' closes no block", "}")
    hint = ""
    keywords = [e.lower() for e in at.expected if e.isupper() and e.isalpha()] + \
        [w for e in at.expected for w in _TERMINAL_WORDS.get(e, "").replace(",", " ").split() if w.isalpha()]
    if at.found.isidentifier() and keywords:
        import difflib

        near = difflib.get_close_matches(at.found, keywords, n=1, cutoff=0.75)
        if near and near[0] != at.found:
            hint = f"; did you mean {near[0]!r}?"
    return at.error((f"expected {words_expected}" if words_expected else f"expected a statement: {_STATEMENTS}") + hint)


def _open_brace(text: str, line: int, col: int) -> tuple[int, int] | None:
    """(line, column) of the innermost '{' still open at *line*, *col* of *text* (comments and strings skipped)."""
    stack = _open_braces(text, line, col)
    return stack[-1] if stack else None


def _open_braces(text: str, line: int, col: int) -> list[tuple[int, int]]:
    """The positions of the '{' still open at *line*, *col* of *text*, outermost first."""
    stack: list[tuple[int, int]] = []
    for n, src in enumerate(source_lines(text)[:line], start=1):
        in_string = False
        for c, ch in enumerate(src, start=1):
            if n == line and c >= col:
                break
            if ch == '"':
                in_string = not in_string
            elif in_string:
                continue
            elif ch == "#":
                break
            elif ch == "{":
                stack.append((n, c))
            elif ch == "}" and stack:
                stack.pop()
    return stack


#: words the theory grammar reads as keywords wherever they stand
_RESERVED_WORDS = {"in", "ask", "expect", "scenario", "announce", "include", "define", "know", "common", "core",
                   "players", "agents", "game", "tree", "model", "decide"}


_KEYWORDS = {"define", "expect", "include", "tree", "model", "agents", "players", "game", "scenario", "announce", "ask", "in", "decide",
             "know", "common", "core", "}", "vocabulary", "law", "exactly", "observes", "actual"}

_TERMINAL_WORDS = {
    "NAME": "a name", "INT": "a whole number", "NUMBER": "a number", "STRING": 'a quoted file name "..."',
    "FORMULA": "a formula", "EVAL": "an evaluation E_P", "GOAL": "max or min", "VERB": "valid, entails, "
    "satisfiable or check", "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'", "COMMA": "','",
    "EQUAL": "'='", "COLON": "':'", "LSQB": "'['", "RSQB": "']'", "_NL": "the end of the line",
    "__ANON_0": "'->'",
}


def _describe(expected: set[str]) -> str:
    words = []
    for e in sorted(expected):
        w = _TERMINAL_WORDS.get(e)
        if w is None:
            w = repr(e.lower()) if e.isupper() and e.isalpha() else e
        if w not in words:
            words.append(w)
    if len(words) > 8:
        words = words[:8] + ["..."]
    return ", ".join(words)


def _kid(tree: Tree[Token], i: int) -> Tree[Token]:
    """The child *i* of *tree*, which the grammar makes a subtree."""
    kid = tree.children[i]
    if not isinstance(kid, Tree):  # pragma: no cover - the grammar makes it one
        raise TypeError(f"expected a subtree at child {i} of {tree.data!r}")
    return kid


def _subtrees(tree: Tree[Token]) -> list[Tree[Token]]:
    """The children of *tree* that are subtrees, in order."""
    return [c for c in tree.children if isinstance(c, Tree)]


class _Reader:
    """Turns the Lark tree of one file into statements."""

    def __init__(self, text: str, file: str):
        self.text = text
        self.file = file

    def pos(self, tok: Token | Tree[Token]) -> Position:
        if isinstance(tok, Token):
            return Position(self.text, tok.line or 1, tok.column or 1, self.file)
        meta = tok.meta
        return Position(self.text, getattr(meta, "line", 1), getattr(meta, "column", 1), self.file)

    def formula(self, tok: Token) -> Formula:

        try:
            return parse(str(tok))
        except ParseError as exc:
            raise inner(exc, self.pos(tok), "in a formula") from None
        except KopError as exc:
            raise self.pos(tok).error(f"in a formula: {exc}", str(tok).strip()) from None

    def number(self, tok: Token, what: str) -> int | Fraction:
        text = str(tok)
        if len(text) > 60:
            raise self.pos(tok).error(f"{what} has too many digits (at most 60)", text[:20] + "...")
        try:
            if "/" in text:
                num, den = text.split("/")
                if int(den) == 0:
                    raise self.pos(tok).error(f"{what}: division by zero", text)
                value = Fraction(Fraction(num), int(den))
            else:
                value = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise self.pos(tok).error(f"{what} is not a number", text) from None
        return int(value) if value.denominator == 1 else value

    def statements(self, tree: Tree[Token]) -> list[Statement]:
        out: list[Statement] = []
        for st in tree.children:
            if isinstance(st, Tree):
                out.append(self.statement(st))
        return out

    def statement(self, st: Tree[Token]) -> Statement:
        while st.data == "statement":  # a bare knowledge statement
            st = _kid(st, 0)
        kind = str(st.data)
        pos = self.pos(st)
        if kind in _SCOPED:
            return self.scoped(kind, st, pos)
        read = _READERS.get(kind)
        if read is None:  # pragma: no cover - the grammar has no others
            raise pos.error(f"unknown statement {kind!r}")
        return read(self, st, [c for c in st.children if isinstance(c, Token)], pos)

    # -- each kind of statement (st: its tree; toks: its tokens; pos: where it starts) -------------

    def include(self, st: Tree[Token], toks: list[Token], pos: Position) -> Statement:
        """``include "FILE"``."""
        return S.Include(str(toks[0])[1:-1], line=pos.line, pos=pos)

    def tree_file(self, st: Tree[Token], toks: list[Token], pos: Position) -> Statement:
        """``tree "FILE"``."""
        return S.TreeFile(str(toks[0])[1:-1], line=pos.line, pos=pos)

    def model_file(self, st: Tree[Token], toks: list[Token], pos: Position) -> Statement:
        """``model "FILE"``."""
        return S.ModelFile(str(toks[0])[1:-1], line=pos.line, pos=pos)

    def agents(self, st: Tree[Token], toks: list[Token], pos: Position) -> Statement:
        """``agents A, B``."""
        return S.Agents(tuple(str(t) for t in toks), line=pos.line, pos=pos)

    def players(self, st: Tree[Token], toks: list[Token], pos: Position) -> Statement:
        """``players A max, B min``: each name with its goal or None."""
        players, at = [], []
        for p in _subtrees(st):
            name = p.children[0]
            players.append((str(name), str(p.children[1]) if len(p.children) > 1 else None))
            at.append(self.pos(name))
        return S.Players(tuple(players), tuple(at), line=pos.line, pos=pos)

    def define(self, st: Tree[Token], toks: list[Token], pos: Position) -> Statement:
        """``define NAME = FORMULA``."""
        return S.Define(str(toks[0]), self.formula(toks[1]), line=pos.line, pos=pos)

    def know(self, st: Tree[Token], toks: list[Token], pos: Position) -> Statement:
        """``know FORMULA``."""
        return S.Know(self.formula(toks[0]), line=pos.line, pos=pos)

    def common(self, st: Tree[Token], toks: list[Token], pos: Position) -> Statement:
        """``common FORMULA``."""
        return S.Common(self.formula(toks[0]), line=pos.line, pos=pos)

    def announce(self, st: Tree[Token], toks: list[Token], pos: Position) -> Statement:
        """``announce FORMULA``."""
        return S.Announce(self.formula(toks[0]), line=pos.line, pos=pos)

    def core(self, st: Tree[Token], toks: list[Token], pos: Position) -> Statement:
        """``core P = d``, with d at most :data:`MAX_LEVEL`."""
        name, d = toks
        if len(str(d)) > 6 or int(str(d)) > MAX_LEVEL:
            raise self.pos(d).error(f"core level {str(d)[:12]}{'...' if len(str(d)) > 12 else ''} is above "
                                    f"kop's limit {MAX_LEVEL}", str(d)[:12])
        return S.Core(str(name), int(str(d)), self.pos(name), line=pos.line, pos=pos)

    def game(self, st: Tree[Token], toks: list[Token], pos: Position) -> Statement:
        """``game ...``."""
        return S.Game(self.node(_kid(st, 0)), line=pos.line, pos=pos)

    def scenario(self, st: Tree[Token], toks: list[Token], pos: Position) -> Statement:
        """``scenario NAME { ... }``: its name, its statements and the name's position."""
        name = toks[0]
        body = tuple(self.statement(k) for k in st.children if isinstance(k, Tree))
        return S.Scenario(str(name), body, self.pos(name), line=pos.line, pos=pos)

    def knows(self, st: Tree[Token], toks: list[Token], pos: Position) -> Statement:
        """``P knows E_Q ...``."""
        return S.KnowsEvaluation(self.partial(st), line=pos.line, pos=pos)

    def believes(self, st: Tree[Token], toks: list[Token], pos: Position) -> Statement:
        """``P believes E_Q among { ... }``."""
        return S.BelievesEvaluation(self.belief(st), line=pos.line, pos=pos)

    def model_block(self, st: Tree[Token], toks: list[Token], pos: Position) -> Statement:
        """``model { ... }``."""
        return S.ModelBlock(self.observation(st), line=pos.line, pos=pos)

    def decide(self, st: Tree[Token], toks: list[Token], pos: Position) -> Statement:
        """``decide strict`` / ``decide agreement``."""
        return S.Decide(str(toks[0]), self.pos(toks[0]), line=pos.line, pos=pos)

    def scoped(self, kind: str, st: Tree[Token], pos: Position) -> Statement:
        """``ask``, ``announce`` and ``expect`` statements, with the scenarios they are in (``in S1, S2``)."""
        if kind == "ask":
            return self.question(_kid(st, 0), pos, ())
        if kind == "ask_in":
            names, at = self.scope(_kid(st, 0))
            return self.question(_kid(st, 1), pos, names, at)
        if kind == "announce_in":
            names, at = self.scope(_kid(st, 0))
            toks = [c for c in st.children if isinstance(c, Token)]
            return S.Announce(self.formula(toks[-1]), line=pos.line, pos=pos, scope=names, scope_pos=at)
        names, at = self.scope(_kid(st, 0)) if kind == "expect_in" else ((), ())
        return self.expectation(_kid(st, -1), pos, names, at)

    def scope(self, names: Tree[Token]) -> tuple[tuple[str, ...], tuple[Position, ...]]:
        """The scenario names of ``in S1, S2`` and their positions."""
        return tuple(str(t) for t in names.children), tuple(self.pos(t) for t in names.children)

    def question(self, q: Tree[Token], pos: Position, scope: tuple[str, ...],
                 scope_pos: tuple[Position, ...] = ()) -> Statement:
        kind = str(q.data)
        toks = [c for c in q.children if isinstance(c, Token)]
        if kind == "ask_formula":
            return S.AskFormula(str(toks[0]), self.formula(toks[1]), line=pos.line, pos=pos, scope=scope, scope_pos=scope_pos)
        if kind == "ask_play":
            pairs, at = [], []
            for s in _subtrees(q):
                who, name = s.children
                pairs.append((str(who), str(name)))
                at.append((self.pos(who), self.pos(name)))
            return S.AskPlay(tuple(pairs), tuple(at), line=pos.line, pos=pos, scope=scope, scope_pos=scope_pos)
        if kind == "ask_level":
            return S.AskLevel(str(toks[0]), self.pos(toks[0]), line=pos.line, pos=pos, scope=scope, scope_pos=scope_pos)
        player = (str(toks[0]), self.pos(toks[0])) if toks else (None, None)
        if kind == "ask_select":
            return S.AskSelect(*player, line=pos.line, pos=pos, scope=scope, scope_pos=scope_pos)
        if kind == "ask_dominates":
            return S.AskDominates(*player, line=pos.line, pos=pos, scope=scope, scope_pos=scope_pos)
        if kind == "ask_decided":
            return S.AskDecided(line=pos.line, pos=pos, scope=scope, scope_pos=scope_pos)
        return S.AskWorlds(line=pos.line, pos=pos, scope=scope, scope_pos=scope_pos)

    def expectation(self, e: Tree[Token], pos: Position, scope: tuple[str, ...], scope_pos: tuple[Position, ...]) -> Statement:
        toks = [c for c in e.children if isinstance(c, Token)]
        pays = [tuple(self.number(x, "a payoff") for x in c.children if isinstance(x, Token))
                for c in e.children if isinstance(c, Tree) and c.data == "payoff"]
        if e.data == "expect_dominates":
            comm = pays[1] if len(pays) > 1 else (str(toks[2]) if len(toks) > 2 else None)
            if isinstance(comm, str) and comm != "none":
                raise self.pos(toks[2]).error("expected a payoff (a, b) or 'none' after 'communication'", comm)
            return S.ExpectDominates(str(toks[0]), str(toks[1]), pays[0], None if isinstance(comm, str) else comm,
                                     comm is not None, line=pos.line, pos=pos, scope=scope, scope_pos=scope_pos)
        if e.data == "expect_play":
            pairs = tuple((str(s.children[0]), str(s.children[1])) for s in e.children
                          if isinstance(s, Tree) and s.data == "strategy_of")
            return S.ExpectPlay(pairs, pays[0], line=pos.line, pos=pos, scope=scope, scope_pos=scope_pos)
        if e.data == "expect_value":
            names = [str(t) for t in toks]
            return S.ExpectValue(names[0], names[1], names[2] if len(names) > 2 else None, pays[0], line=pos.line, pos=pos, scope=scope, scope_pos=scope_pos)
        if e.data == "expect_decided":
            return S.ExpectDecided(tuple(str(t) for t in toks), line=pos.line, pos=pos, scope=scope, scope_pos=scope_pos)
        value = str(toks[1])
        if value != "inf" and not value.isdigit():
            raise self.pos(toks[1]).error("expected a level: a whole number or inf", value)
        return S.ExpectLevel(str(toks[0]), value, line=pos.line, pos=pos, scope=scope, scope_pos=scope_pos)

    def candidate(self, c: Tree[Token]) -> Any:
        ctoks = [t for t in c.children if isinstance(t, Token)]
        if c.data == "values":
            return tuple(self.number(t, "a candidate value") for t in ctoks)
        pairs = {}
        for label, value in zip(ctoks[::2], ctoks[1::2]):
            if str(label) in pairs:
                raise self.pos(label).error(f"leaf {str(label)!r} is given twice", str(label))
            pairs[str(label)] = self.number(value, "a candidate value")
        return pairs

    def belief(self, st: Tree[Token]) -> BeliefSpec:
        knower, owner_tok = [c for c in st.children if isinstance(c, Token)][:2]
        cands = []
        for bc in st.children:
            if not isinstance(bc, Tree):
                continue
            ptok = next((t for t in bc.children if isinstance(t, Token)), None)
            c = next(t for t in bc.children if isinstance(t, Tree))
            prob = None
            if ptok is not None:
                prob = self.number(ptok, "a probability")
                if prob < 0:
                    raise self.pos(ptok).error(f"the probability {ptok} is negative", str(ptok))
            cands.append((self.candidate(c), prob, self.pos(bc)))
        given = [p is not None for _, p, _ in cands]
        if any(given) and not all(given):
            at = cands[given.index(False)][2]
            raise at.error("give every candidate a probability (p: [..]) or none")
        if all(given) and sum(p for _, p, _ in cands if p is not None) <= 0:
            raise self.pos(st).error("the probabilities sum to 0 (at least one must be positive)")
        return BeliefSpec(str(knower), str(owner_tok)[2:], tuple(cands), self.pos(st), self.pos(knower),
                          self.pos(owner_tok))

    def partial(self, st: Tree[Token]) -> PartialSpec:
        knower = st.children[0]
        body = _kid(st, 1)
        kind = str(body.data)
        toks = [c for c in body.children if isinstance(c, Token)]
        owner_tok = next(t for t in toks if t.type == "EVAL")
        owner = str(owner_tok)[2:]
        data: Any = None
        if kind == "within":
            data = self.number(toks[-1], "the bound k")
            if not isinstance(data, int) and not isinstance(data, Fraction):  # pragma: no cover
                raise self.pos(toks[-1]).error("the bound must be a number")
            if data < 0:
                raise self.pos(toks[-1]).error("the bound k must be >= 0", str(toks[-1]))
        elif kind == "subtree":
            data = str(toks[-1])
        elif kind == "among":
            cands: list[tuple[Any, Position]] = []
            for c in body.children:
                if not isinstance(c, Tree):
                    continue
                ctoks = [t for t in c.children if isinstance(t, Token)]
                if c.data == "values":
                    cands.append((tuple(self.number(t, "a candidate value") for t in ctoks), self.pos(c)))
                else:
                    pairs = {}
                    for label, value in zip(ctoks[::2], ctoks[1::2]):
                        if str(label) in pairs:
                            raise self.pos(label).error(f"leaf {str(label)!r} is given twice", str(label))
                        pairs[str(label)] = self.number(value, "a candidate value")
                    cands.append((pairs, self.pos(c)))
            data = tuple(cands)
        return PartialSpec(str(knower), kind, owner, data, self.pos(st), self.pos(knower), self.pos(owner_tok))

    def node(self, t: Tree[Token]) -> GameNode:
        toks = [c for c in t.children if isinstance(c, Token)]
        if t.data == "leaf":
            label = str(toks[0]) if toks and toks[0].type == "NAME" else None
            nums = [x for x in toks if x.type == "NUMBER"]
            return GameNode(label, None, (), tuple(self.number(x, "a payoff") for x in nums), self.pos(t))
        label = str(toks[0]) if len(toks) == 2 else None
        mover_tok = toks[-1]
        kids = []
        for c in t.children:
            if not isinstance(c, Tree):
                continue
            ctoks = [x for x in c.children if isinstance(x, Token)]
            sub = self.node(next(x for x in c.children if isinstance(x, Tree)))
            move = next((str(x) for x in ctoks if x.type == "NAME"), None)
            prob_tok = next((x for x in ctoks if x.type == "NUMBER"), None)
            prob = None if prob_tok is None else self.number(prob_tok, "a probability")
            kids.append((move, prob, sub))
        return GameNode(label, str(mover_tok), tuple(kids), (), self.pos(t), self.pos(mover_tok))

    def observation(self, st: Tree[Token]) -> ObservationSpec:
        vocab: list[str] = []
        laws: list[tuple[Formula, Position]] = []
        counts: list[tuple[int, tuple[str, ...], Position]] = []
        observes: list[tuple[str, tuple[str, ...], Position]] = []
        actual: tuple[str, ...] | None = None
        numbers: list[tuple[str, Any, Any, Position]] = []
        wheres: list[tuple[str, Position]] = []
        values: list[tuple[str, str, Position]] = []
        for item in st.children:
            if not isinstance(item, Tree):
                continue
            toks = [c for c in item.children if isinstance(c, Token)]
            words = tuple(str(x) for x in toks)
            if item.data == "vocabulary":
                vocab.extend(words)
            elif item.data == "law":
                laws.append((self.formula(toks[0]), self.pos(toks[0])))
            elif item.data == "exactly_of":
                counts.append((int(words[0][:7]), words[1:], self.pos(item)))
            elif item.data == "observes":
                observes.append((words[0], words[1:], self.pos(toks[0])))
            elif item.data == "number":
                numbers.append((words[0], self.number(toks[1], "a bound"), self.number(toks[2], "a bound"),
                                self.pos(toks[0])))
            elif item.data == "where":
                wheres.append((str(toks[0]), self.pos(toks[0])))
            elif item.data == "observes_value":
                values.append((words[0], str(toks[1]), self.pos(toks[1])))
            elif item.data == "actual":
                if actual is not None:
                    raise self.pos(item).error("the actual world is given twice", "actual")
                actual = words
        return ObservationSpec(tuple(vocab), tuple(laws), tuple(counts), tuple(observes), actual, self.pos(st),
                               tuple(numbers), tuple(wheres), tuple(values))


#: statement kind (the grammar's rule) -> its reader, from the reader, the statement's tree, its tokens and position
_READERS: dict[str, Callable[[_Reader, Tree[Token], list[Token], Position], Statement]] = {
    "include": _Reader.include, "tree": _Reader.tree_file, "model": _Reader.model_file,
    "agents": _Reader.agents, "players": _Reader.players, "define": _Reader.define,
    "know": _Reader.know, "common": _Reader.common, "announce": _Reader.announce,
    "core": _Reader.core, "game": _Reader.game, "scenario": _Reader.scenario,
    "partial": _Reader.knows, "belief": _Reader.believes, "model_block": _Reader.model_block,
    "decide_reading": _Reader.decide,
}
#: the statements read with the scenarios they are in (:meth:`_Reader.scoped`)
_SCOPED = frozenset({"ask", "ask_in", "announce_in", "expect", "expect_in"})


def parse_theory(text: str, base: Path | str = ".", *, allow_outside: bool = False, file: str = "") -> Theory:
    """Parse the text of a theory.

    Parameters
    ----------
    text : str
        The theory.
    base : str or os.PathLike
        The folder that file names in the theory are read from (and confined to).
    allow_outside : bool
        Let the theory read files outside *base*.
    file : str
        The file's name, for errors in included files.

    Returns
    -------
    Theory
        The parsed statements, for :func:`kop.run_theory`.

    Raises
    ------
    ParseError
        Located by line and column (also inside formulas and inline games).

    Examples
    --------
    >>> import kop
    >>> th = kop.parse_theory("players A max, B min\\ngame A { (1,2) (3,0) }\\nask dominates A\\n")
    >>> [type(s).__name__ for s in th.statements]
    ['Players', 'Game', 'AskDominates']
    >>> try:
    ...     kop.parse_theory("players A max, B min\\nask nothing\\n")
    ... except kop.ParseError as err:
    ...     print(err.line, err.column, err.found)
    2 5 nothing
    """
    if not isinstance(text, str):
        raise KopError(f"a theory is text, not {type(text).__name__}")
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        col = text.index("\x00") - (text.rfind("\n", 0, text.index("\x00")) + 1) + 1
        raise located(text.replace("\x00", " "), line, col, "a theory may not contain NUL characters", "", file)
    _check_nesting(text, file)
    try:
        tree = _parse_text(text)
    except (UnexpectedToken, UnexpectedCharacters, UnexpectedInput) as exc:
        raise _syntax_error(exc, text, file) from None
    with recursion_room(3 * MAX_NESTING):  # inline games are read recursively, within MAX_NESTING levels
        statements = _Reader(text, file).statements(tree)
    if len(statements) > MAX_STATEMENTS:
        raise KopError(f"a theory may have at most {MAX_STATEMENTS} statements")
    return Theory(tuple(statements), Path(base), text, allow_outside)


_BRACKETS = re.compile(r'[(){}\[\]"#\n]')


def _check_nesting(text: str, file: str = "") -> None:
    """Refuse text whose brackets ``( { [`` nest more than :data:`~kop.syntax.budget.MAX_NESTING` deep.

    One pass over the brackets (strings and comments skipped), before any parsing, so that
    100,000 levels fail at once, located at the first bracket too many.
    """
    depth = 0
    line, line_start = 1, 0
    in_string = in_comment = False
    for m in _BRACKETS.finditer(text):
        c = m.group()
        if c == "\n":
            line, line_start = line + 1, m.end()
            in_string = in_comment = False
        elif in_comment:
            continue
        elif c == '"':
            in_string = not in_string
        elif in_string:
            continue
        elif c == "#":
            in_comment = True
        elif c in "({[":
            depth += 1
            if depth > MAX_NESTING:
                raise located(text, line, m.start() - line_start + 1,
                              f"nested more than {MAX_NESTING} levels deep (kop's limit for theories, "
                              "their games and formulas)", "", file)
        else:
            depth = max(depth - 1, 0)


def _decode(data: bytes, shown: str) -> str:
    """UTF-8 text, or an error naming the bad byte's line and column (never quoting the text)."""

    what, _, name = shown.partition(" '")     # "included theory 'x.kop'" -> what, 'x.kop'
    return decode_utf8(data, what=what, shown=f"'{name}")


def load_theory(path: str | Path, *, allow_outside: bool = False) -> Theory:
    """Read and parse a ``.kop`` theory file, with its includes.

    Files the theory names (trees, models, includes) are read only inside the
    theory's folder (after resolving symbolic links) unless *allow_outside*;
    an ``include`` reads only ``.kop`` files (see :func:`expand_includes`).

    Parameters
    ----------
    path : str or pathlib.Path
        The ``.kop`` file.
    allow_outside : bool
        Let the theory read files outside its folder.

    Returns
    -------
    Theory
        The parsed statements, for :func:`kop.run_theory`.

    Raises
    ------
    ParseError
        Located by file, line and column (also inside formulas and inline games).

    Examples
    --------
    >>> import kop, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "tiny.kop")
    >>> with open(path, "w") as fh:
    ...     _ = fh.write("players A max, B min\\ngame A { (1,2) (3,0) }\\nask dominates A\\n")
    >>> [type(s).__name__ for s in kop.load_theory(path).statements]
    ['Players', 'Game', 'AskDominates']
    """

    p = Path(path_argument(path, "path"))
    if "\x00" in str(path):
        raise KopError("the theory path contains a NUL character")
    data = read_bytes(p, what="theory")
    text = _decode(data, f"theory {str(p)!r}")
    root = p.resolve().parent
    th = parse_theory(text, root, allow_outside=allow_outside)
    statements = expand_includes(th.statements, root, allow_outside, [p.resolve()])
    if len(statements) > MAX_STATEMENTS:
        raise KopError(f"a theory may have at most {MAX_STATEMENTS} statements (with its includes)")
    return Theory(tuple(statements), root, text, allow_outside)


def _is_theory_name(name: str | Path) -> bool:
    return str(name).lower().endswith(".kop")


def expand_includes(statements: tuple[Statement, ...], folder: Path, allow_outside: bool,
                    stack: list[Path], count: int = 0,
                    parsed: dict[tuple[Path, str], tuple[Path, tuple[Statement, ...]]] | None = None,
                    seen: list[int] | None = None) -> list[Statement]:
    """Replace every ``include`` by the included file's statements (cycles are errors).

    *folder* is where the statements' file lives; *stack* the files being included.

    * An ``include`` reads only a theory: a file whose name, and whose real path
      (after symbolic links), end in ``.kop``; anything else is refused by name,
      unread, so that no error can quote a file that is not a theory (an
      included non-UTF-8 file is refused by the line and column of its bad byte).
    * Each file is read and parsed once; the statements expanded (a file included
      twice counts twice, and so does each ``include`` statement) are counted against
      :data:`MAX_STATEMENTS` as they are produced, and the deadline in force (:mod:`kop.config`, :mod:`kop.syntax.budget`) is
      checked while expanding, so an include "diamond" fails fast.
    """

    if parsed is None:
        parsed = {}
    if seen is None:
        seen = [count]
    out: list[Statement] = []
    for st in statements:
        seen[0] += 1
        if seen[0] > MAX_STATEMENTS:
            raise st.error(f"a theory may have at most {MAX_STATEMENTS} statements (with its includes, "
                           "each counted as often as it is included)")
        if not isinstance(st, S.Include):
            out.append(st)
            continue
        check_deadline("reading the theory")
        name = st.path
        if not _is_theory_name(name):
            raise st.error(f"include reads theory files only (a name ending in .kop), not {name!r}", name)
        key = (st.base or folder, name)
        if key in parsed:
            real, subs = parsed[key]
        else:
            try:
                real, data = read_confined_bytes(name, st.base or folder, allow_outside=allow_outside,
                                                 what="included theory")
            except KopError as exc:
                raise st.error(str(exc), name) from None
            if not _is_theory_name(real):
                raise st.error(f"included theory {name!r} leads to {real.name!r}, which is not a .kop file", name)
            try:
                text = _decode(data, f"included theory {name!r}")
            except KopError as exc:
                raise st.error(str(exc), name) from None
            if real in stack:
                chain = " -> ".join(q.name for q in stack[stack.index(real):] + [real])
                raise st.error(f"include cycle: {chain}", name)
            sub = parse_theory(text, real.parent, allow_outside=allow_outside, file=name)
            subs = tuple(replace(s, base=real.parent) if s.base is None else s for s in sub.statements)
            parsed[key] = (real, subs)
        if real in stack:
            chain = " -> ".join(q.name for q in stack[stack.index(real):] + [real])
            raise st.error(f"include cycle: {chain}", name)
        if len(stack) > MAX_INCLUDE_DEPTH:
            raise st.error(f"includes nested deeper than {MAX_INCLUDE_DEPTH}", name)
        out.extend(expand_includes(subs, real.parent, allow_outside, stack + [real], count + len(out), parsed, seen))
        if count + len(out) > MAX_STATEMENTS:
            raise st.error(f"a theory may have at most {MAX_STATEMENTS} statements (with its includes)", name)
    return out
