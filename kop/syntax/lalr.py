"""A small LALR(1) runtime for tables that Lark computed: parse without importing Lark.

Importing Lark costs more CPU than the rest of a small ``kop`` command (see
``benchmarks/startup.py``).  Lark is what analyses kop's grammars; this module
only *runs* the result.  :func:`tables_from_lark` reads, from a Lark parser
built with ``parser="lalr", lexer="contextual"``, the contextual lexer's
regular expressions, the parse table and how each rule builds its value, as
plain data (lists, dicts, strings and numbers: what JSON stores), and
:class:`Parser` runs them with the same results as Lark, token for token:

* the contextual lexer: in each parser state only the terminals the state
  accepts (plus the ignored ones) are tried, with Lark's own combined
  regular expressions; when none matches, the whole terminal set decides
  between :class:`UnexpectedToken` (a known terminal in the wrong place) and
  :class:`UnexpectedCharacters`;
* the parser: shift and reduce by the table; at each reduction the children
  are filtered as Lark's tree builder does (helper rules ``_x`` spliced in,
  filtered tokens dropped, ``?rule`` with one child passed through) and the
  callback named by the rule's alias or name is called with them.

Line and column numbers start at 1, as in Lark.  :mod:`kop.syntax.grammar_cache`
keeps the tables of each grammar in kop's cache folder; ``tests/syntax``
checks this runtime against Lark on random and malformed formulas.

    >>> from kop.syntax.grammar_cache import lalr_tables
    >>> p = Parser(lalr_tables("s5n"), None)
    >>> [t.type for t in p.lex("K_a (p & q)")]
    ['KNOW', 'LPAR', 'ATOM', 'AND', 'ATOM', 'RPAR']
    >>> class Atoms:
    ...     def atom(self, c):
    ...         return str(c[0])
    ...     def and_(self, c):
    ...         return c[0] + " and " + c[2]
    >>> Parser(lalr_tables("s5n"), Atoms()).parse("p & q").children
    ['p and q']
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

__all__ = ["Parser", "Token", "TooDeep", "UnexpectedInput", "UnexpectedCharacters", "UnexpectedToken", "tables_from_lark",
           "FORMAT"]

#: version of the table layout (part of the cache key)
FORMAT = 1

_SHIFT, _REDUCE = 0, 1


class Token(str):
    """A token: its text, with its terminal's name (``type``) and where it is (as Lark's ``Token``)."""

    __slots__ = ("type", "start_pos", "line", "column", "end_line", "end_column", "end_pos")

    type: str
    start_pos: int
    line: int
    column: int
    end_line: int
    end_column: int
    end_pos: int

    def __new__(cls, type_: str, value: str, start_pos: int = 0, line: int = 1, column: int = 1) -> Token:
        self = super().__new__(cls, value)
        self.type, self.start_pos, self.line, self.column = type_, start_pos, line, column
        self.end_line, self.end_column, self.end_pos = line, column, start_pos
        return self

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {str(self)!r})"


class UnexpectedInput(Exception):
    """The text does not parse (as Lark's exception of that name)."""

    line: int
    column: int


class UnexpectedCharacters(UnexpectedInput):
    """No terminal matches at ``pos_in_stream``; *allowed*: the terminals tried there."""

    def __init__(self, pos: int, line: int, column: int, allowed: set[str]):
        super().__init__(f"no terminal matches at line {line}, column {column}")
        self.pos_in_stream, self.line, self.column, self.allowed = pos, line, column, allowed


class UnexpectedToken(UnexpectedInput):
    """*token* (``$END`` at the end of the text) cannot come here; *expected*: the terminals that could."""

    def __init__(self, token: Token, expected: set[str]):
        super().__init__(f"unexpected {token.type} {str(token)!r} at line {token.line}, column {token.column}")
        self.token, self.expected = token, expected
        self.line, self.column, self.pos_in_stream = token.line, token.column, token.start_pos


class _Tree:
    """The value of a rule without a callback (Lark's default ``Tree``), e.g. a helper rule ``_x`` to splice."""

    __slots__ = ("data", "children")

    def __init__(self, data: str, children: list[Any]):
        self.data, self.children = data, children


class _Scanner:
    """One lexer: Lark's combined regular expressions for a set of terminals."""

    __slots__ = ("patterns", "ignore", "_res")

    def __init__(self, patterns: list[tuple[str, int]], ignore: frozenset[str]):
        self.patterns, self.ignore = patterns, ignore
        self._res: list[re.Pattern[str]] | None = None

    @property
    def res(self) -> list[re.Pattern[str]]:
        """The compiled expressions (compiled on first use: most states are never reached by a short text)."""
        if self._res is None:
            self._res = [re.compile(p, flags) for p, flags in self.patterns]
        return self._res

    @property
    def allowed(self) -> set[str]:
        """The terminals this scanner tries, ignored ones left out (as Lark reports them)."""
        return {name for mre in self.res for name in mre.groupindex} - self.ignore or {"<END-OF-FILE>"}

    def next_token(self, text: str, at: list[int]) -> Token | None:
        """The next token from position ``at = [pos, line, line_start]`` (moved past it); None at the end."""
        pos, line, start = at
        n = len(text)
        res = self.res
        while pos < n:
            for mre in res:
                m = mre.match(text, pos)
                if m:
                    break
            else:
                at[:] = pos, line, start
                raise UnexpectedCharacters(pos, line, pos - start + 1, self.allowed)
            value, type_ = m.group(0), m.lastgroup
            assert type_ is not None
            tok = None if type_ in self.ignore else Token(type_, value, pos, line, pos - start + 1)
            newlines = value.count("\n")
            if newlines:
                line += newlines
                start = pos + value.rindex("\n") + 1
            pos += len(value)
            if tok is not None:
                tok.end_line, tok.end_column, tok.end_pos = line, pos - start + 1, pos
                at[:] = pos, line, start
                return tok
        at[:] = pos, line, start
        return None


class Parser:
    """An LALR(1) parser running *tables* (from :func:`tables_from_lark`), with callbacks from *transformer*.

    ``transformer.<name>(children)`` is called at each reduction of a rule
    whose alias or name is *name* (as with a Lark ``Transformer`` given to an
    LALR parser); rules without such a method build a tree.
    """

    def __init__(self, tables: dict[str, Any], transformer: Any, max_stack: int | None = None):
        #: the deepest parse stack allowed: beyond it, :class:`TooDeep` (nesting limits, reached fast)
        self.max_stack = max_stack
        ignore = frozenset(tables["ignore"])
        scanners = [_Scanner(p, ignore) for p in tables["scanners"]]
        self._root = scanners[tables["root"]]
        self._lexer = [scanners[i] for i in tables["state_scanner"]]
        self._states: list[dict[str, list[int]]] = tables["states"]
        self._start, self._end = tables["start"], tables["end"]
        self._rules = []
        for origin, size, name, expand1, include in tables["rules"]:
            method = getattr(transformer, name, None) if transformer is not None else None
            self._rules.append((origin, size, name, expand1, include, method))

    def lex(self, text: str) -> Iterator[Token]:
        """The tokens of *text* by all terminals (ignored ones left out), as Lark's ``Lark.lex``."""
        at = [0, 1, 0]
        while True:
            tok = self._root.next_token(text, at)
            if tok is None:
                return
            yield tok

    def parse(self, text: str) -> Any:
        """Parse *text*; the value of the start rule (raises :class:`UnexpectedInput`)."""
        states, rules, lexers = self._states, self._rules, self._lexer
        state_stack = [self._start]
        value_stack: list[Any] = []
        at = [0, 1, 0]
        last: Token | None = None
        while True:
            try:
                tok = lexers[state_stack[-1]].next_token(text, at)
            except UnexpectedCharacters as exc:
                # a terminal that this state does not accept, or no terminal at all?  The whole set decides.
                try:
                    wrong = self._root.next_token(text, at)
                except UnexpectedCharacters:
                    raise exc from None
                assert wrong is not None
                raise UnexpectedToken(wrong, exc.allowed) from None
            end = tok is None
            if tok is None:
                tok = _end_token(last)
            else:
                last = tok
            while True:
                try:
                    action, arg = states[state_stack[-1]][tok.type]
                except KeyError:
                    raise UnexpectedToken(tok, _expected(states[state_stack[-1]])) from None
                if action == _SHIFT:
                    state_stack.append(arg)
                    value_stack.append(tok)
                    if self.max_stack is not None and len(state_stack) > self.max_stack:
                        raise TooDeep(tok)
                    break
                origin, size, name, expand1, include, method = rules[arg]
                if size:
                    children = value_stack[-size:]
                    del state_stack[-size:]
                    del value_stack[-size:]
                else:
                    children = []
                if include is not None:
                    children = _filter(children, include)
                if expand1 and len(children) == 1:
                    value = children[0]
                else:
                    value = method(children) if method is not None else _Tree(name, children)
                state_stack.append(states[state_stack[-1]][origin][1])
                value_stack.append(value)
                if end and state_stack[-1] == self._end:
                    return value_stack[-1]


class TooDeep(Exception):
    """The parse stack outgrew :attr:`Parser.max_stack` at *token* (the input nests too deeply)."""

    def __init__(self, token: Token):
        super().__init__(f"nested too deeply at line {token.line}, column {token.column}")
        self.token = token


def _expected(actions: dict[str, list[int]]) -> set[str]:
    return {s for s in actions if s.isupper()}


def _end_token(last: Token | None) -> Token:
    """Lark's ``$END`` token: at the last token's position (or 0, 1, 1 for empty input)."""
    if last is None:
        return Token("$END", "", 0, 1, 1)
    end = Token("$END", "", last.start_pos, last.line, last.column)
    end.end_line, end.end_column, end.end_pos = last.end_line, last.end_column, last.end_pos
    return end


def _filter(children: list[Any], include: list[tuple[int, bool]]) -> list[Any]:
    """Lark's child filter: keep the children at the included positions, splicing helper rules' children."""
    out: list[Any] = []
    for i, splice in include:
        if splice:
            out.extend(children[i].children)
        else:
            out.append(children[i])
    return out


# -- reading the tables out of a Lark parser ------------------------------------------

def tables_from_lark(parser: Any) -> dict[str, Any]:
    """The tables of a Lark parser built with ``parser="lalr", lexer="contextual"``, as plain data.

    Raises ``ValueError`` for what this runtime does not do (lexer callbacks,
    postlexers, placeholders, bytes): such grammars stay on Lark.
    """
    from lark.lexer import ContextualLexer
    from lark.parsers.lalr_analysis import Shift
    from lark.parse_tree_builder import _should_expand

    opts = parser.options
    if opts.parser != "lalr" or opts.postlex is not None or opts.use_bytes or opts.lexer_callbacks or \
            opts.maybe_placeholders or opts.keep_all_tokens or opts.g_regex_flags or opts.regex:
        raise ValueError("only plain LALR grammars with a contextual lexer and no placeholders run here")
    frontend = parser.parser
    lexer = frontend.lexer
    if not isinstance(lexer, ContextualLexer):
        raise ValueError("the parser needs lexer='contextual'")
    table = frontend.parser.parser.parse_table
    if len(table.start_states) != 1:
        raise ValueError("one start symbol only")
    (start_name, start), = table.start_states.items()
    end = table.end_states[start_name]
    scanners: list[list[tuple[str, int]]] = []
    index_of: dict[int, int] = {}

    def scanner_index(basic: Any) -> int:
        key = id(basic)
        if key not in index_of:
            scanner = basic.scanner
            if basic.callback:
                raise ValueError("terminals that need lexer callbacks are not supported")
            index_of[key] = len(scanners)
            scanners.append([(str(mre.pattern), int(mre.flags & ~re.UNICODE)) for mre in scanner._mres])
        return index_of[key]

    n = len(table.states)
    if sorted(table.states) != list(range(n)):
        raise ValueError("parser states are not numbered 0..n-1")
    rules = list(frontend.parser.parser.callbacks)
    rule_index = {r: i for i, r in enumerate(rules)}
    states = []
    for s in range(n):
        row = {}
        for sym, (action, arg) in table.states[s].items():
            row[str(sym)] = [_SHIFT, int(arg)] if action is Shift else [_REDUCE, rule_index[arg]]
        states.append(row)
    rule_rows = []
    for r in rules:
        include = [(i, bool(_should_expand(sym))) for i, sym in enumerate(r.expansion)
                   if r.options.keep_all_tokens or not (sym.is_term and sym.filter_out)]
        needs_filter = len(include) < len(r.expansion) or any(x for _, x in include)
        name = r.alias or r.options.template_source or r.origin.name
        rule_rows.append((str(r.origin.name), len(r.expansion), str(name), bool(r.options.expand1 and not r.alias),
                          include if needs_filter else None))
    return {
        "format": FORMAT,
        "ignore": sorted(str(t) for t in parser.lexer_conf.ignore),
        "scanners": scanners,
        "root": scanner_index(lexer.root_lexer),
        "state_scanner": [scanner_index(lexer.lexers[s]) for s in range(n)],
        "states": states,
        "start": int(start),
        "end": int(end),
        "rules": rule_rows,
    }
