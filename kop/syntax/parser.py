"""Parse S5_n formulas written in kop's language (``grammar/s5n.lark``).

    >>> from kop import parse
    >>> parse("K_A K_B E_A")
    kop.parse('K_A K_B E_A')
    >>> parse("C{A,B}(p, K_A q)").structure()
    "RelCommon(('A', 'B'), Atom('p'), Know('A', Atom('q')))"

The grammar is an LALR(1) Lark grammar.  Lark analyses it once and keeps the
parser in kop's cache folder (see :func:`kop.syntax.grammar_cache.lalr_parser`).
The AST is built during parsing (no recursive tree walk), so nesting depth is
bounded only by :data:`MAX_DEPTH`.
Errors are :class:`kop.ParseError` with line, column and a sentence saying what
was expected.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any, NoReturn, cast

from kop.syntax import formula as F
from kop.errors import ParseError
from kop.syntax.examples import explain
from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

__all__ = ["parse", "parse_many", "nesting_depth", "locate_token", "MAX_DEPTH", "MAX_LENGTH", "grammar_path"]

#: Deepest nesting of operators a formula may have.
MAX_DEPTH = 1000
#: Longest formula text accepted, in characters.
MAX_LENGTH = 1_000_000

_AGENT = re.compile(r"[A-Za-z0-9_]+")


def grammar_path() -> Path:
    """The path of ``s5n.lark`` (installed inside the package as ``kop/grammar``)."""
    from kop.syntax.grammar_cache import grammar_dir

    return grammar_dir() / "s5n.lark"


def _agent_of(tok: Token, prefix_len: int) -> str:
    """The agent written in a K/M/Kw token: ``K_a``, ``K_{a}``, ``K[a]`` or ``Ka``."""
    rest = str(tok)[prefix_len:]
    if rest.startswith("_{") or rest.startswith("["):
        inner = rest[2:-1] if rest.startswith("_{") else rest[1:-1]
    elif rest.startswith("_"):
        inner = rest[1:]
    else:
        inner = rest
    inner = inner.strip()
    if not _AGENT.fullmatch(inner):
        _fail_at(tok, f"expected one agent name (letters, digits, '_') in {str(tok)!r}")
    return inner


def _group_of(tok: Token) -> tuple[str, ...]:
    text = str(tok)
    inner = text[text.index("{") + 1:-1] if "{" in text else text[text.index("[") + 1:-1]
    names = [n.strip() for n in inner.split(",")]
    if not inner.strip():
        _fail_at(tok, f"expected at least one agent in the group of {text!r}")
    for n in names:
        if not _AGENT.fullmatch(n):
            _fail_at(tok, f"expected agent names separated by commas in {text!r}")
    return tuple(names)


_RELATION = {"≥": ">=", "≤": "<="}

_TEXT: list[str] = [""]  # the text being parsed (for errors raised inside callbacks)


def _fail_at(tok: Token, expected: str) -> NoReturn:
    raise ParseError(_TEXT[0], tok.line or 1, tok.column or 1, str(tok), expected)


#: the children Lark gives a callback: the rule's tokens and the values its subrules built, by position
_Kids = list[Any]


class _Build:
    """Callbacks run by the LALR parser at each reduction."""

    def atom(self, c: _Kids) -> F.Atom:
        name = str(c[0])
        if re.fullmatch(r"(?:K|M|Kw|E|C|D)_", name):
            _fail_at(c[0], f"expected an agent name after {name!r}")
        try:
            return F.Atom(name)
        except ValueError as exc:
            _fail_at(c[0], str(exc))

    def true(self, c: _Kids) -> F.Formula:
        return F.TRUE

    def false(self, c: _Kids) -> F.Formula:
        return F.FALSE

    def group_parens(self, c: _Kids) -> F.Formula:
        inside: F.Formula = c[1]
        return inside

    def not_(self, c: _Kids) -> F.Not:
        return F.Not(c[1])

    def know(self, c: _Kids) -> F.Know:
        return F.Know(_agent_of(c[0], 1), c[1])

    def possible(self, c: _Kids) -> F.Possible:
        return F.Possible(_agent_of(c[0], 1), c[1])

    def know_whether(self, c: _Kids) -> F.KnowWhether:
        return F.KnowWhether(_agent_of(c[0], 2), c[1])

    def belief(self, c: _Kids) -> F.Belief:
        return F.Belief(_agent_of(c[0], 1), c[1])

    def cond_belief(self, c: _Kids) -> F.CondBelief:
        return F.CondBelief(_agent_of(c[0], 1), c[2], c[4])

    def comparison(self, c: _Kids) -> Token:
        tok: Token = c[0]
        if str(tok) in ("⟨", "⟩"):
            _fail_at(tok, "expected a comparison (>=, >, <, <=, =) after P_a(...)")
        return tok

    def probability(self, c: _Kids) -> F.Probability:
        rel = _RELATION.get(str(c[4]), str(c[4]))
        num = c[5]
        text = str(num)
        try:
            bound = F.parse_fraction(text)
        except ValueError:
            if re.fullmatch(r"[0-9.]+/0*(?:\.0*)?", text):
                _fail_at(num, f"a probability bound, not a division by zero ({text!r})")
            _fail_at(num, "a probability bound of at most 300 digits before and after the point")
        return F.Probability(_agent_of(c[0], 1), c[2], rel, bound)

    def everyone(self, c: _Kids) -> F.Everyone:
        return F.Everyone(_group_of(c[0]), c[1])

    def common(self, c: _Kids) -> F.Common:
        return F.Common(_group_of(c[0]), c[1])

    def distributed(self, c: _Kids) -> F.Distributed:
        return F.Distributed(_group_of(c[0]), c[1])

    def rel_common(self, c: _Kids) -> F.RelCommon:
        return F.RelCommon(_group_of(c[0]), c[2], c[4])

    def announce(self, c: _Kids) -> F.Announce:
        return F.Announce(c[2], c[4])

    def announce_dual(self, c: _Kids) -> F.AnnounceDual:
        return F.AnnounceDual(c[2], c[4])

    def and_(self, c: _Kids) -> F.And:
        return F.And(*(x for x in c if isinstance(x, F.Formula)))

    def or_(self, c: _Kids) -> F.Or:
        return F.Or(*(x for x in c if isinstance(x, F.Formula)))

    def implies(self, c: _Kids) -> F.Implies:
        return F.Implies(c[0], c[2])

    def iff(self, c: _Kids) -> F.Iff:
        return F.Iff(c[0], c[2])

    def start(self, c: _Kids) -> F.Formula:
        formula: F.Formula = c[0]
        return formula


@lru_cache(maxsize=1)
def _parser() -> Lark:
    from kop.syntax.grammar_cache import lalr_parser

    return lalr_parser("s5n", lexer="contextual", transformer=_Build(), maybe_placeholders=False)


#: The deepest parse stack a formula may need: each nesting level holds at most 5 of its entries
#: ("[!", "phi", "]", ...).  Beyond it, parsing stops at once (a fast nesting limit, also for
#: parentheses, which do not nest the AST).
_MAX_STACK = 5 * MAX_DEPTH + 8


class _TooDeep(Exception):
    """The parse stack outgrew :data:`_MAX_STACK` at *token*."""

    def __init__(self, token: Token):
        super().__init__(f"nested too deeply at line {token.line}, column {token.column}")
        self.token = token


def _run(text: str) -> F.Formula:
    """The formula of *text*, by Lark; a text long enough to nest too deeply is fed token by token
    (Lark's interactive parser) so that the parse stack can be watched."""
    parser = _parser()
    if len(text) < _MAX_STACK:  # the stack holds at most one entry per token, plus the start state
        return cast(F.Formula, parser.parse(text))
    session = parser.parse_interactive(text)
    stack = session.parser_state.state_stack
    last: Token | None = None
    for token in session.iter_parse():  # the stack as it was after the previous token
        if len(stack) > _MAX_STACK:
            raise _TooDeep(last or token)
        last = token
    if len(stack) > _MAX_STACK and last is not None:
        raise _TooDeep(last)
    end = Token.new_borrow_pos("$END", "", last) if last is not None else Token("$END", "", 0, 1, 1)  # as Lark's parse
    return cast(F.Formula, session.feed_token(end))


def parse(text: str) -> F.Formula:
    """Parse one formula.

    Parameters
    ----------
    text : str
        The formula, in ASCII or Unicode notation (see ``docs/syntax.md``).

    Returns
    -------
    Formula

    Raises
    ------
    ParseError
        With the line, column and what was expected there.

    Examples
    --------
    >>> parse("~K_B E_A").structure()
    "Not(Know('B', Atom('E_A')))"
    """
    if not isinstance(text, str):
        from kop.errors import ArgumentError

        raise ArgumentError(f"argument 'text' of parse(): expected a formula as a string, got a "
                            f"{type(text).__name__} (kop.parse reads text such as 'K_a p')")
    if len(text) > MAX_LENGTH:
        raise ParseError(text[:80], 1, 1, "", f"a formula of at most {MAX_LENGTH} characters (kop's limit)")
    _TEXT[0] = text
    try:
        result = _run(text)
    except ParseError:
        raise
    except _TooDeep as exc:
        tok = exc.token
        raise ParseError(text, tok.line or 1, tok.column or 1, str(tok),
                         f"a formula nested at most {MAX_DEPTH} levels deep (kop's limit)") from None
    except UnexpectedInput as exc:
        raise _explain(text, exc) from None
    if len(text) > MAX_DEPTH and nesting_depth(result) > MAX_DEPTH:
        raise ParseError(text, 1, 1, text[:20],
                         f"a formula nested at most {MAX_DEPTH} levels deep (kop's limit; "
                         f"this one is {nesting_depth(result)} deep)")
    return result


def parse_many(texts: Iterable[str]) -> list[F.Formula]:
    """Parse several formulas (e.g. a knowledge base).

    >>> parse_many(["p", "K_a p"])
    [kop.parse('p'), kop.parse('K_a p')]
    """
    return [parse(t) for t in texts]


def locate_token(text: str, kind: str) -> tuple[int, int, str]:
    """Line, column and text of the first token of terminal *kind* (e.g. ``"BELIEF"``) in *text*.

    (1, 1, '') when there is none.

    >>> locate_token("p & B_a q", "BELIEF")
    (1, 5, 'B_a')
    """
    try:
        for tok in _parser().lex(text):
            if tok.type == kind:
                return tok.line or 1, tok.column or 1, str(tok)
    except UnexpectedInput:
        pass
    return 1, 1, ""


# -- limits --------------------------------------------------------------------

def nesting_depth(f: F.Formula) -> int:
    """The height of the formula tree (an atom has depth 1), computed without recursion."""
    depth: dict[F.Formula, int] = {}
    for g in f.subformulas():
        depth[g] = 1 + max((depth[c] for c in g.children), default=0)
    return depth[f]


# -- error messages --------------------------------------------------------------

_DESCR = {
    "NOT": "'~'", "AND": "'&'", "OR": "'|'", "IMP": "'->'", "IFF": "'<->'",
    "LPAR": "'('", "RPAR": "')'", "LBOX": "'['", "RBOX": "']'", "LDIA": "'<'",
    "RDIA": "'>'", "BANG": "'!'", "COMMA": "','", "GE": "'>='", "LE": "'<='", "EQ": "'='",
}
_PREFIX = {"NOT", "KNOW", "POSS", "KW", "BELIEF", "EVERY", "COMMON", "DIST", "RBOX", "RDIA"}
_BINARY = {"AND", "OR", "IMP", "IFF"}
_OPERAND_END = {"ATOM", "TRUE", "FALSE", "RPAR"}
_OPERAND_START = {"ATOM", "TRUE", "FALSE", "LPAR", "NOT", "KNOW", "POSS", "KW", "BELIEF", "PROB",
                  "EVERY", "COMMON", "DIST", "LBOX", "LDIA"}
_COMPARISON = {"GE", "LE", "EQ"}


def _position(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, col


def _tokens_before(text: str, pos: int) -> list[Token]:
    """The tokens of text[:pos], as far as they lex."""
    out: list[Token] = []
    try:
        for tok in _parser().lex(text[:pos]):
            out.append(tok)
    except UnexpectedInput:
        pass
    return out


def _show(tok: Token) -> str:
    return _DESCR.get(tok.type, repr(str(tok)))


def _explain(text: str, exc: UnexpectedInput) -> ParseError:
    """The located :class:`ParseError` for Lark's *exc*: where it stopped and what could come there.

    The message of ``grammar/s5n.errors.toml`` whose examples fail the same way, if one does
    (:func:`kop.syntax.examples.explain`), else one worded from the tokens before."""
    message = explain("s5n", _parser().parse, exc)
    if message is not None:
        line, col, found = _where(text, exc)
        return ParseError(text, line, col, found, message)
    if isinstance(exc, UnexpectedCharacters):
        return _explain_characters(text, exc)
    assert isinstance(exc, UnexpectedToken)
    return _explain_token(text, exc)


def _where(text: str, exc: UnexpectedInput) -> tuple[int, int, str]:
    """Line, column and text of what Lark stopped at ('' at the end of the formula)."""
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream or 0
        return exc.line or 1, exc.column or 1, text[pos:pos + 1]
    tok = exc.token if isinstance(exc, UnexpectedToken) else None
    if tok is None or tok.type == "$END":
        line, col = _position(text, len(text.rstrip()))
        return line, col, ""
    return tok.line or 1, tok.column or 1, str(tok)


def _explain_characters(text: str, exc: UnexpectedCharacters) -> ParseError:
    """No token can start at the position of *exc*."""
    pos = exc.pos_in_stream or 0
    char = text[pos]
    prev = _tokens_before(text, pos)
    last = prev[-1] if prev else None
    line, col = exc.line or 1, exc.column or 1
    if char in "{[" and last is not None and last.end_pos == pos and str(last) in {"E", "C", "D", "K", "M", "Kw"}:
        closer = "}" if char == "{" else "]"
        return ParseError(text, last.line or 1, last.column or 1, text[last.start_pos or 0:pos + 1],
                          f"expected agent names and a closing '{closer}' after '{last}{char}'")
    if char == "_" and last is not None and last.end_pos == pos:
        return ParseError(text, line, col, char, f"expected an agent name after '{last}_'")
    what = _expected_after(last)
    return ParseError(text, line, col, char, f"unexpected character {char!r}: {what}")


def _explain_token(text: str, exc: UnexpectedToken) -> ParseError:
    """A token (or the end of the text) that cannot come where it stands."""
    tok = exc.token
    at_end = tok.type == "$END"
    line, col, found = _where(text, exc)
    pos = len(text.rstrip()) if at_end else tok.start_pos or 0
    prev = _tokens_before(text, pos)
    special = _misplaced(text, tok, at_end, prev, line, col, found)
    if special is not None:
        return special
    return ParseError(text, line, col, found, _expected_message(tok, at_end, prev))


def _misplaced(text: str, tok: Token, at_end: bool, prev: list[Token], line: int, col: int,
               found: str) -> ParseError | None:
    """The errors that name a misplaced piece (an agent name left out, a probability's comparison or
    number, a stray number or '!'), or None."""
    last = prev[-1] if prev else None
    if last is not None and last.type == "ATOM" and re.fullmatch(r"(?:K|M|Kw|E|C|D)_", str(last)):
        return ParseError(text, last.line or 1, last.column or 1, str(last), f"expected an agent name after {str(last)!r}")
    if last is not None and last.type == "RPAR" and _closes_probability(prev):
        return ParseError(text, line, col, found,
                          f"expected a comparison (>=, >, <, <=, =) and a number after {_prob_text(prev)!r}")
    if last is not None and len(prev) > 1 and prev[-2].type == "RPAR" and _closes_probability(prev[:-1]):
        return ParseError(text, line, col, found,
                          f"expected a number (a decimal or a fraction such as 1/3) after {str(last)!r}")
    if not at_end and tok.type == "NUMBER":
        return ParseError(text, line, col, found, f"unexpected character {found[0]!r}: {_expected_after(last)} "
                                                  "(numbers appear only in P_a(phi) >= r)")
    if not at_end and tok.type == "BANG" and (last is None or last.type not in {"LBOX", "LDIA"}):
        return ParseError(text, line, col, found,
                          "expected a formula ('~' is negation; '!' only appears in announcements [!phi] psi)")
    return None


def _expected_message(tok: Token, at_end: bool, prev: list[Token]) -> str:
    """What was expected instead of *tok*, after the tokens *prev*."""
    last = prev[-1] if prev else None
    if last is None:
        return f"expected a formula before {_show(tok)}" if not at_end and tok.type in _BINARY else "expected a formula"
    if last.type in _PREFIX or last.type in _BINARY or last.type in {"LPAR", "COMMA"}:
        return f"expected a formula after {_operand_of(last, prev)}"
    if last.type in {"LBOX", "LDIA"}:
        return f"expected '!' after {_show(last)} to begin an announcement"
    if last.type == "BANG":
        return "expected the formula to announce after '!'"
    closers = _open_closers(prev)
    if closers and (at_end or tok.type not in _OPERAND_START):
        return f"expected {' or '.join(closers)} to close {_OPENER_NAME[closers[-1]]}"
    if tok.type == "RPAR":
        return "unmatched ')'"
    if tok.type in _OPERAND_START and closers:
        return f"expected an operator (&, |, ->, <->) or {' or '.join(closers)} after {_show(last)}"
    if tok.type in _OPERAND_START:
        return f"expected an operator (&, |, ->, <->) or the end of the formula after {_show(last)}"
    return f"expected an operator or the end of the formula after {_show(last)}"


def _operand_of(last: Token, prev: list[Token]) -> str:
    """How to name the operator *last* that waits for its operand: ``'&'``, ``'K_a'``, ``'[!p]'``."""
    if last.type in ("RBOX", "RDIA"):
        return repr(_announcement_text(prev))
    return _show(last) if last.type in _DESCR else repr(str(last))


def _matching_open(prev: list[Token]) -> int | None:
    """The index of the '(' that the ')' ending *prev* closes."""
    depth = 0
    for i in range(len(prev) - 1, -1, -1):
        t = prev[i].type
        if t == "RPAR":
            depth += 1
        elif t == "LPAR":
            depth -= 1
            if depth == 0:
                return i
    return None


def _closes_probability(prev: list[Token]) -> bool:
    """Whether the ')' ending *prev* closes the '(' of ``P_a(``."""
    i = _matching_open(prev)
    return i is not None and i > 0 and prev[i - 1].type == "PROB"


def _prob_text(prev: list[Token]) -> str:
    i = _matching_open(prev)
    assert i is not None
    return "".join(str(x) for x in prev[i - 1:])


def _announcement_text(prev: list[Token]) -> str:
    """The text of the announcement operator that ends the token list, e.g. '[!p]'."""
    depth = 0
    for i in range(len(prev) - 1, -1, -1):
        t = prev[i].type
        if t in ("RBOX", "RDIA"):
            depth += 1
        elif t in ("LBOX", "LDIA"):
            depth -= 1
            if depth == 0:
                return "".join(str(x) for x in prev[i:])
    return str(prev[-1])


_OPENER_NAME = {"')'": "the parenthesis", "']'": "the announcement", "'>'": "the announcement"}


def _open_closers(prev: list[Token]) -> list[str]:
    """What may close the innermost open bracket of the token list: e.g. ["')'"], or ["','", "')'"]."""
    stack: list[tuple[str, bool]] = []  # (closer, expects a comma first)
    for i, t in enumerate(prev):
        if t.type == "LPAR":
            relc = i > 0 and prev[i - 1].type in ("COMMON", "BELIEF")
            stack.append(("')'", relc))
        elif t.type == "LBOX":
            stack.append(("']'", False))
        elif t.type == "LDIA":
            stack.append(("'>'", False))
        elif t.type == "COMMA" and stack:
            stack[-1] = (stack[-1][0], False)
        elif t.type in ("RPAR", "RBOX", "RDIA") and stack:
            stack.pop()
    if not stack:
        return []
    closer, comma = stack[-1]
    return ["','", closer] if comma else [closer]


def _expected_after(last: Token | None) -> str:
    if last is None or last.type in _PREFIX | _BINARY | {"LPAR", "COMMA", "BANG"}:
        return "expected a formula (an atom, 'true', 'false', '(', '~' or a modal operator)"
    return "expected an operator (&, |, ->, <->) or the end of the formula"
