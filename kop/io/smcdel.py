"""SMCDEL's input language: read ``*.smcdel.txt`` files, answer their questions, write models back out.

An SMCDEL file states a knowledge structure -- ``VARS`` (the atoms, numbered),
``LAW`` (a propositional formula the states satisfy) and ``OBS`` (the atoms
each agent observes) -- and then questions: ``VALID? φ`` (is φ true at every
state?), ``WHERE? φ`` (at which states is φ true?) and ``TRUE? {1,3} φ`` (is
φ true at the state where exactly 1 and 3 are true?).  The grammar is
``grammar/smcdel.lark``; it follows SMCDEL's own lexer and parser, including
the precedence of its operators (see the grammar's header).

kop reads the whole language but for two constructs, each refused with a
located error: announcements to a group (``[alice,bob ! φ] ψ``: SMCDEL's
semi-private announcements) and ``Forall``/``Exists`` over a formula with
knowledge operators (SMCDEL quantifies the formula's truth set there, which
kop's formulas do not express); over propositional formulas both quantifiers
are read.  Atom ``n`` becomes kop's atom ``pn`` (``p1``, ``p2``, ...), and
the answers name states by their true atoms' numbers, as SMCDEL prints them.

Example
-------
>>> text = '''VARS 1,2,3
... LAW  Top
... OBS  alice: 2,3
...      bob:   1,3
...      carol: 1,2
... WHERE?
...   [ ! (1|2|3) ] alice knows whether 1
... VALID?
...   [ ! (1|2|3) ]
...   [ ! ((~ (alice knows whether 1)) & (~ (bob knows whether 2)) & (~ (carol knows whether 3))) ]
...   [ ! ((~ (alice knows whether 1)) & (~ (bob knows whether 2)) & (~ (carol knows whether 3))) ]
...   (alice,bob,carol) comknow that (1 & 2 & 3)
... '''
>>> spec = parse_smcdel(text)
>>> spec.vocabulary, spec.observables["alice"]
((1, 2, 3), (2, 3))
>>> [a.answer for a in spec.run()]
[[[], [1]], True]
>>> print(spec.run()[0].explain())
At which states is [ ! (1|2|3) ] alice knows whether 1 true?
[]
[1]

Reference: van Benthem, van Eijck, Gattinger & Su, *Symbolic model checking
for Dynamic Epistemic Logic* (LORI 2015); SMCDEL 1.3.0's ``Examples/*.smcdel.txt``
and ``exec/smcdel.hs`` (the file format and how answers are printed).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

from kop.syntax.examples import explain
from kop.errors import KopError, ParseError, SmcdelError
from kop.syntax.formula import (FALSE, TRUE, And, Announce, AnnounceDual, Atom, Bottom, Common, Distributed,
                                Everyone, Formula, Iff, Implies, Know, KnowWhether, Not, Or, Possible, Top, conj,
                                disj)

__all__ = ["SmcdelSpec", "SmcdelQuery", "SmcdelAnswer", "parse_smcdel", "looks_like_smcdel", "to_smcdel",
           "format_formula", "atom_name", "xor", "oneof", "announce_whether", "holds",
           "SmcdelError"]

Answer = Union[bool, list[list[int]]]


def atom_name(n: int) -> str:
    """kop's atom for SMCDEL's variable *n*: ``p`` followed by the number.

    >>> atom_name(7)
    'p7'
    """
    return f"p{n}"


def _number(atom: str) -> int | None:
    m = re.fullmatch(r"p(\d+)", atom)
    return int(m.group(1)) if m else None


@dataclass(frozen=True)
class SmcdelQuery:
    """One question of an SMCDEL file: ``kind`` is ``"VALID?"``, ``"WHERE?"`` or ``"TRUE?"``."""

    kind: str
    formula: Formula
    state: tuple[int, ...] | None = None
    line: int = 0
    source: str = ""

    def text(self) -> str:
        """The formula as the file wrote it (comments dropped, spaces collapsed), else in SMCDEL's syntax."""
        return self.source or format_formula(self.formula)


@dataclass(frozen=True)
class SmcdelAnswer:
    """A question with its answer: a bool (``VALID?``, ``TRUE?``) or the states, each a sorted list of numbers."""

    query: SmcdelQuery
    answer: Answer

    def question(self) -> str:
        """The question as SMCDEL words it."""
        f = self.query.text()
        if self.query.kind == "VALID?":
            return f"Is {f} valid on the given structure?"
        if self.query.kind == "TRUE?":
            return f"Is {f} true at {_show_state(self.query.state or ())}?"
        return f"At which states is {f} true?"

    def explain(self) -> str:
        """The question and its answer, as SMCDEL prints them."""
        if isinstance(self.answer, bool):
            return f"{self.question()}\n{self.answer}"
        return "\n".join([self.question(), *(_show_state(s) for s in self.answer)])

    def to_json(self) -> dict[str, Any]:
        """``{"query", "formula", "line", "answer"}`` (and ``"state"`` for ``TRUE?``)."""
        out: dict[str, Any] = {"query": self.query.kind, "formula": self.query.text(),
                               "line": self.query.line, "answer": self.answer}
        if self.query.state is not None:
            out["state"] = list(self.query.state)
        return out


def _show_state(s: Iterable[int]) -> str:
    return "[" + ",".join(str(n) for n in s) + "]"


@dataclass(frozen=True)
class SmcdelSpec:
    """A parsed SMCDEL file: the knowledge structure and its questions.

    Attributes
    ----------
    vocabulary : tuple of int
        The ``VARS``, in the file's order.
    law : Formula
        The ``LAW`` over kop's atoms ``p1``, ``p2``, ...
    observables : dict
        Agent -> the numbers of the atoms it observes, in the file's order.
    queries : tuple of SmcdelQuery
    """

    vocabulary: tuple[int, ...]
    law: Formula
    observables: dict[str, tuple[int, ...]]
    queries: tuple[SmcdelQuery, ...] = field(default=())

    def structure(self) -> Any:
        """The :class:`~kop.semantics.symbolic.KnowledgeStructure` the file states (every state designated)."""
        from kop.semantics.symbolic import KnowledgeStructure

        return KnowledgeStructure([atom_name(n) for n in self.vocabulary], self.law,
                                  {a: [atom_name(n) for n in obs] for a, obs in self.observables.items()})

    def run(self) -> list[SmcdelAnswer]:
        """Answer every question, in order, on the structure (symbolically, by BDDs)."""
        ks = self.structure()
        out = []
        for q in self.queries:
            if q.kind == "VALID?":
                out.append(SmcdelAnswer(q, bool(ks.valid(q.formula))))
            elif q.kind == "TRUE?":
                out.append(SmcdelAnswer(q, bool(ks.satisfies(q.formula, [atom_name(n) for n in q.state or ()]))))
            else:
                states = [sorted(n for a in s for n in [_number(a)] if n is not None) for s in ks.states(q.formula)]
                out.append(SmcdelAnswer(q, sorted(states, key=lambda s: (len(s), s))))
        return out


def looks_like_smcdel(name: str, text: str | None = None) -> bool:
    """Whether a file is in SMCDEL's language: by its name (``*.smcdel.txt``) or its first word (``VARS``).

    >>> looks_like_smcdel("muddy.smcdel.txt"), looks_like_smcdel("x.kop", "-- a comment\\nVARS 1,2")
    (True, True)
    """
    if name.endswith(".smcdel.txt"):
        return True
    if text is None:
        return False
    body = re.sub(r"--[^\n]*", "", text).lstrip()
    return re.match(r"VARS\b", body) is not None


# -- reading ---------------------------------------------------------------------------------

_EXPECTED = {
    "INT": "an atom (a number)", "NAME": "an agent's name", "COLON": "':'", "COMMA": "','",
    "LPAR": "'('", "RPAR": "')'", "RSQB": "']'", "MORETHAN": "'>'", "BANG": "'!'", "LBRACE": "'{'",
    "RBRACE": "'}'", "OBS": "'OBS'", "LAW": "'LAW'", "VARS": "'VARS'",
}


def _parser() -> Any:
    from kop.syntax.grammar_cache import lalr_parser

    return lalr_parser("smcdel", propagate_positions=True)


def parse_smcdel(text: str) -> SmcdelSpec:
    """Read an SMCDEL file's text.

    Parameters
    ----------
    text : str
        The file's content.

    Returns
    -------
    SmcdelSpec

    Raises
    ------
    ParseError
        Located (line and column): a syntax error (saying what was expected),
        an atom outside ``VARS``, an agent not in ``OBS``, a repeated
        variable or agent, a ``TRUE?`` state that violates the law, or a
        construct kop does not read (group announcements, quantifiers over
        knowledge).

    Example
    -------
    >>> spec = parse_smcdel("VARS 1,2 LAW ONEOF(1,2) OBS a: 1 VALID? a knows whether 2")
    >>> spec.law
    kop.parse('p1 & ~p2 | ~p1 & p2')
    >>> spec.run()[0].answer
    True
    """
    from lark.exceptions import UnexpectedInput

    if not isinstance(text, str):
        raise KopError(f"parse_smcdel: text must be a str, not {type(text).__name__}")
    parser = _parser()
    try:
        tree = parser.parse(text)
    except UnexpectedInput as e:
        raise _syntax_error(text, e, parser.parse) from None
    return _Reader(text).spec(tree)


def _syntax_error(text: str, e: Any, parse: Callable[[str], object]) -> SmcdelError:
    """The located error for Lark's *e*: the message of ``grammar/smcdel.errors.toml`` whose examples
    fail the same way (:func:`kop.syntax.examples.explain`), else what SMCDEL's grammar expected."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken

    if isinstance(e, UnexpectedCharacters):
        pos = e.pos_in_stream or 0
        line, col, found = e.line, e.column, text[pos:pos + 1]
        fallback = "an SMCDEL token (see docs/formats.md#smcdel-files)"
    else:  # UnexpectedToken or UnexpectedEOF: the only others Lark's LALR parser raises
        token = e.token if isinstance(e, UnexpectedToken) else None
        at_end = token is None or token.type == "$END"
        line, col, found = _end(text) if at_end else (e.line, e.column, str(token))
        fallback = _expected(getattr(e, "expected", ()) or (), found)
    return _error(text, line, col, found, explain("smcdel", parse, e) or fallback)


def _end(text: str) -> tuple[int, int, str]:
    lines = text.split("\n")
    return len(lines), len(lines[-1]) + 1, ""


def _expected(names: Iterable[str], found: str) -> str:
    words = sorted({_EXPECTED.get(n, _show_terminal(n)) for n in names})
    hint = ""
    if len(words) > 6:
        return "a formula or a question" + hint if found else "more input" + hint
    return "expected " + ", ".join(words) + hint


def _show_terminal(name: str) -> str:
    known = {"KNOWSTHAT": "'knows that'", "KNOWSWHETHER": "'knows whether'", "CKNOWTHAT": "'comknow that'",
             "CKNOWWHETHER": "'comknow whether'", "DKNOWTHAT": "'distknow that'",
             "DKNOWWHETHER": "'distknow whether'", "TRUEQ": "'TRUE?'", "VALIDQ": "'VALID?'",
             "WHEREQ": "'WHERE?'", "AMPERSAND": "'&'", "VBAR": "'|'", "CONJ": "'&'", "DISJ": "'|'", "IMPL": "'->'", "IFF": "'iff'",
             "QMARK": "'?'", "LESSTHAN": "'<'", "LSQB": "'['", "LBRACK": "'['", "LANGLE": "'<'"}
    return known.get(name, name.lower())


def _error(text: str, line: int, col: int, found: str, expected: str) -> SmcdelError:
    err = SmcdelError(text, line, col, found, expected)
    if not found:
        err.args = (f"line {line}, column {col}: {expected}",)
    return err


class _Reader:
    """Turns the parse tree into kop formulas, checking atoms and agents as SMCDEL's sanity check does."""

    def __init__(self, text: str):
        self.text = text
        self.vocab: tuple[int, ...] = ()
        self.agents: dict[str, tuple[int, ...]] = {}

    def fail(self, node: Any, message: str, found: str = "") -> SmcdelError:
        meta = getattr(node, "meta", None)
        line = getattr(node, "line", None) or (meta.line if meta is not None and not meta.empty else 1)
        col = getattr(node, "column", None) or (meta.column if meta is not None and not meta.empty else 1)
        return _error(self.text, line, col, found, message)

    def spec(self, tree: Any) -> SmcdelSpec:
        kids = list(tree.children)
        vars_node, law_node = kids[0], kids[1]
        self.vocab = self.ints(vars_node, "VARS")
        obs_nodes = [k for k in kids[2:] if getattr(k, "data", None) == "obsline"]
        jobs = [k for k in kids[2:] if getattr(k, "data", None) != "obsline"]
        for o in obs_nodes:
            name_tok, ints = o.children
            if str(name_tok) in self.agents:
                raise self.fail(name_tok, f"agent {name_tok} has a second OBS line", str(name_tok))
            self.agents[str(name_tok)] = self.ints(ints, f"OBS of {name_tok}", known=True)
        law = self.formula(law_node, where="the LAW", modal=False)
        queries = tuple(self.query(j) for j in jobs)
        spec = SmcdelSpec(self.vocab, law, dict(self.agents), queries)
        self.check_states(spec, jobs)
        return spec

    def ints(self, node: Any, what: str, *, known: bool = False) -> tuple[int, ...]:
        out: list[int] = []
        for tok in node.children:
            n = int(tok)
            if n in out:
                raise self.fail(tok, f"{what} lists {n} twice", str(tok))
            if known and n not in self.vocab:
                raise self.fail(tok, f"{what}: {n} is not in VARS", str(tok))
            out.append(n)
        return tuple(out)

    def query(self, node: Any) -> SmcdelQuery:
        kind = str(node.children[0])
        line = node.children[0].line
        if node.data == "true_query":
            state_node, f = node.children[1], node.children[2]
            ints = state_node.children[0] if state_node.children and state_node.children[0] is not None else None
            state = self.ints(ints, "the TRUE? state", known=True) if ints is not None else ()
            return SmcdelQuery(kind, self.formula(f, where="a question"), tuple(sorted(state)), line, self.source(f))
        f = node.children[1]
        return SmcdelQuery(kind, self.formula(f, where="a question"), None, line, self.source(f))

    def source(self, node: Any) -> str:
        meta = getattr(node, "meta", None)
        if meta is None or meta.empty:
            start, end = node.start_pos, node.end_pos
        else:
            start, end = meta.start_pos, meta.end_pos
        return " ".join(re.sub(r"--[^\n]*", "", self.text[start:end]).split())

    def check_states(self, spec: SmcdelSpec, jobs: Sequence[Any]) -> None:
        for q, j in zip(spec.queries, jobs):
            if q.state is None:
                continue
            true = {atom_name(n) for n in q.state}
            if not holds(spec.law, true):
                raise self.fail(j.children[1], f"the state {_show_state(q.state)} violates the LAW",
                                _show_state(q.state))

    # formulas ------------------------------------------------------------------------------

    def agent(self, tok: Any) -> str:
        name = str(tok)
        if name not in self.agents:
            known = ", ".join(self.agents) or "none"
            raise self.fail(tok, f"agent {name} is not in OBS (agents: {known})", name)
        return name

    def group(self, node: Any) -> tuple[str, ...]:
        names = node.children if getattr(node, "data", None) == "names" else [node]
        return tuple(dict.fromkeys(self.agent(t) for t in names))

    def formula(self, node: Any, *, where: str, modal: bool = True) -> Formula:
        f = self._formula(node, where, modal)
        return f

    def _formula(self, node: Any, where: str, modal: bool) -> Formula:
        """The kop formula of the parse tree *node*: one method per rule of the grammar
        (:data:`_PROPOSITIONAL` and, where *modal*, :data:`_MODAL`)."""
        data = getattr(node, "data", None)
        c = [k for k in getattr(node, "children", ()) if not _is_keyword(k)]
        read = _Formulas(self, where, modal)
        method = _PROPOSITIONAL.get(str(data))
        if method is None and not modal and data in _MODAL:
            raise self.fail(node, f"{where} must be propositional (no knowledge or announcements)")
        method = method or _MODAL.get(str(data))
        if method is None:  # pragma: no cover - the grammar has no other rule
            raise self.fail(node, f"{where}: unexpected {data}")
        result: Formula = getattr(read, method)(node, c)
        return result

    def quantifier(self, node: Any, c: list[Any], where: str, modal: bool, forall: bool) -> Formula:
        ints = self.ints(c[0], "Forall" if forall else "Exists", known=True)
        body = self._formula(c[1], where, modal)
        if not _propositional(body):
            raise self.fail(node, "kop reads Forall/Exists over propositional formulas only "
                                  "(over knowledge SMCDEL quantifies a truth set, which kop does not express)")
        for n in reversed(ints):
            p = Atom(atom_name(n))
            cases = [_substitute(body, p, TRUE), _substitute(body, p, FALSE)]
            body = And(*cases) if forall else Or(*cases)
        return body


class _Formulas:
    """Reads the formulas of one place of an SMCDEL file (the LAW or a question): a method per rule."""

    def __init__(self, reader: _Reader, where: str, modal: bool):
        self.reader, self.where, self.modal = reader, where, modal

    def rec(self, node: Any) -> Formula:
        return self.reader._formula(node, self.where, self.modal)

    def agent(self, tok: Any) -> str:
        return self.reader.agent(tok)

    def group(self, node: Any) -> tuple[str, ...]:
        return self.reader.group(node)

    def atom(self, node: Any, c: list[Any]) -> Formula:
        n = int(c[0])
        if n not in self.reader.vocab:
            raise self.reader.fail(c[0], f"{self.where} uses {n}, which is not in VARS", str(c[0]))
        return Atom(atom_name(n))

    def top(self, node: Any, c: list[Any]) -> Formula:
        return TRUE

    def bot(self, node: Any, c: list[Any]) -> Formula:
        return FALSE

    def neg(self, node: Any, c: list[Any]) -> Formula:
        return Not(self.rec(c[0]))

    def chain(self, node: Any, c: list[Any]) -> Formula:
        """SMCDEL's %left '|' '&': one level, left to right (1 | 2 & 3 is (1 | 2) & 3)."""
        out = self.rec(c[0])
        for op, right in zip(c[1::2], c[2::2]):
            out = (And if op.type == "CONJ" else Or)(out, self.rec(right))
        return out

    def and_list(self, node: Any, c: list[Any]) -> Formula:
        return _fold(And, [self.rec(k) for k in c])

    def or_list(self, node: Any, c: list[Any]) -> Formula:
        return _fold(Or, [self.rec(k) for k in c])

    def xor_list(self, node: Any, c: list[Any]) -> Formula:
        return xor([self.rec(k) for k in c])

    def oneof_list(self, node: Any, c: list[Any]) -> Formula:
        return oneof([self.rec(k) for k in c])

    def implies(self, node: Any, c: list[Any]) -> Formula:
        return Implies(self.rec(c[0]), self.rec(c[1]))

    def iff(self, node: Any, c: list[Any]) -> Formula:
        return Iff(self.rec(c[0]), self.rec(c[1]))

    def forall(self, node: Any, c: list[Any]) -> Formula:
        return self.reader.quantifier(node, c, self.where, self.modal, True)

    def exists(self, node: Any, c: list[Any]) -> Formula:
        return self.reader.quantifier(node, c, self.where, self.modal, False)

    def knows_that(self, node: Any, c: list[Any]) -> Formula:
        return Know(self.agent(c[0]), self.rec(c[1]))

    def knows_whether(self, node: Any, c: list[Any]) -> Formula:
        return KnowWhether(self.agent(c[0]), self.rec(c[1]))

    def knows_whether_list(self, node: Any, c: list[Any]) -> Formula:
        a = self.agent(c[0])
        return _fold(And, [KnowWhether(a, self.rec(k)) for k in c[1:]])

    def comknow_that(self, node: Any, c: list[Any]) -> Formula:
        return Common(self.group(c[0]), self.rec(c[1]))

    def comknow_whether(self, node: Any, c: list[Any]) -> Formula:
        g, f = self.group(c[0]), self.rec(c[1])
        return Or(Common(g, f), Common(g, Not(f)))

    def distknow_that(self, node: Any, c: list[Any]) -> Formula:
        return Distributed(self.group(c[0]), self.rec(c[1]))

    def distknow_whether(self, node: Any, c: list[Any]) -> Formula:
        g, f = self.group(c[0]), self.rec(c[1])
        return Or(Distributed(g, f), Distributed(g, Not(f)))

    def announce(self, node: Any, c: list[Any]) -> Formula:
        return Announce(self.rec(c[0]), self.rec(c[1]))

    def announce_dual(self, node: Any, c: list[Any]) -> Formula:
        return AnnounceDual(self.rec(c[0]), self.rec(c[1]))

    def announce_whether(self, node: Any, c: list[Any]) -> Formula:
        return announce_whether(self.rec(c[0]), self.rec(c[1]))

    def announce_whether_dual(self, node: Any, c: list[Any]) -> Formula:
        return Not(announce_whether(self.rec(c[0]), Not(self.rec(c[1]))))

    def group_announce(self, node: Any, c: list[Any]) -> Formula:
        raise self.reader.fail(node, "kop reads public announcements ([! φ], [?! φ]); an announcement to a group "
                                     "([alice,bob ! φ]) is not supported")


#: the rules of propositional formulas (allowed in the LAW), each read by the method of its name
_PROPOSITIONAL = {r: r for r in ("atom", "top", "bot", "neg", "chain", "and_list", "or_list", "xor_list",
                                 "oneof_list", "implies", "iff", "forall", "exists")}
#: the rules of knowledge and announcements, and the method that reads each
_MODAL = {"knows_that": "knows_that", "k_prefix": "knows_that", "knows_whether": "knows_whether",
          "kw_prefix": "knows_whether", "knows_whether_list": "knows_whether_list", "comknow_that": "comknow_that",
          "comknow_whether": "comknow_whether", "distknow_that": "distknow_that",
          "distknow_whether": "distknow_whether", "announce": "announce", "announce_dual": "announce_dual",
          "announce_whether": "announce_whether", "announce_whether_dual": "announce_whether_dual",
          "group_announce": "group_announce"}


_KEYWORDS = frozenset({"NEG", "IMPL", "IFF", "K", "KW", "FORALL", "EXISTS", "AND", "OR", "XOR", "ONEOF", "LBRACK",
                       "LANGLE", "KNOWSTHAT", "KNOWSWHETHER", "CKNOWTHAT", "CKNOWWHETHER", "DKNOWTHAT",
                       "DKNOWWHETHER", "TRUEQ", "VALIDQ", "WHEREQ", "TOP", "BOT"})


def _is_keyword(tok: Any) -> bool:
    return getattr(tok, "type", None) in _KEYWORDS


def holds(f: Formula, true: set[str] | frozenset[str]) -> bool:
    """The truth of a propositional formula under the valuation that makes exactly *true* true.

    >>> holds(oneof([Atom("p"), Atom("q")]), {"q"})
    True
    """
    if isinstance(f, Atom):
        return f.name in true
    if isinstance(f, Top):
        return True
    if isinstance(f, Bottom):
        return False
    if isinstance(f, Not):
        return not holds(f.arg, true)
    a, b = f.children
    if isinstance(f, And):
        return holds(a, true) and holds(b, true)
    if isinstance(f, Or):
        return holds(a, true) or holds(b, true)
    if isinstance(f, Implies):
        return not holds(a, true) or holds(b, true)
    if isinstance(f, Iff):
        return holds(a, true) == holds(b, true)
    raise KopError(f"not a propositional formula: {type(f).__name__}")


def _fold(op: Any, parts: list[Formula]) -> Formula:
    out = parts[0]
    for p in parts[1:]:
        out = op(out, p)
    return out


def _propositional(f: Formula) -> bool:
    if isinstance(f, (Atom, Top, Bottom)):
        return True
    if isinstance(f, (Not, And, Or, Implies, Iff)):
        return all(_propositional(k) for k in f.children)
    return False


def _substitute(f: Formula, p: Atom, by: Formula) -> Formula:
    if f == p:
        return by
    if isinstance(f, Not):
        return Not(_substitute(f.arg, p, by))
    if isinstance(f, (And, Or, Implies, Iff)):
        return type(f)(*(_substitute(k, p, by) for k in f.children))
    return f


def xor(parts: Sequence[Formula]) -> Formula:
    """SMCDEL's ``XOR(φ1, ..., φn)``: an odd number of the φi are true.

    >>> f = xor([Atom("p"), Atom("q"), Atom("r")])
    >>> [holds(f, s) for s in [set(), {"p"}, {"p", "q"}, {"p", "q", "r"}]]
    [False, True, False, True]
    """
    out = parts[0]
    for p in parts[1:]:
        out = Not(Iff(out, p))
    return out


def oneof(parts: Sequence[Formula]) -> Formula:
    """SMCDEL's ``ONEOF(φ1, ..., φn)``: exactly one of the φi is true.

    >>> f = oneof([Atom("p"), Atom("q"), Atom("r")])
    >>> [holds(f, s) for s in [set(), {"p"}, {"p", "q"}]]
    [False, True, False]
    """
    return _fold(Or, [_fold(And, [p if j == i else Not(p) for j, p in enumerate(parts)]) for i in range(len(parts))])


def announce_whether(ann: Formula, arg: Formula) -> Formula:
    """SMCDEL's ``[?! φ] ψ``: after announcing whether φ (φ or ¬φ, whichever is true), ψ holds.

    >>> print(format_formula(announce_whether(Atom("p1"), Atom("p2"))))
    (1 & ([! 1] 2)) | (~1 & ([! ~1] 2))
    """
    return Or(And(ann, Announce(ann, arg)), And(Not(ann), Announce(Not(ann), arg)))


# -- writing ---------------------------------------------------------------------------------

def format_formula(f: Formula, numbers: Mapping[str, int] | None = None) -> str:
    """*f* in SMCDEL's syntax, fully parenthesized so that SMCDEL reads it back the same.

    Atoms ``pn`` print as ``n``; others through *numbers* (atom -> number).

    >>> from kop.syntax.parser import parse
    >>> f = parse("K_alice (p1 & ~p2) -> C{alice,bob} p3")
    >>> format_formula(f)
    '(alice knows that (1 & ~2)) -> ((alice,bob) comknow that 3)'
    >>> parse_smcdel("VARS 1,2,3 LAW Top OBS alice: 1 bob: 2 VALID? " + format_formula(f)).queries[0].formula == f
    True
    """
    def atom(name: str) -> str:
        if numbers is not None and name in numbers:
            return str(numbers[name])
        n = _number(name)
        if n is None:
            raise KopError(f"atom {name} has no SMCDEL number (SMCDEL's atoms are numbers)")
        return str(n)

    def go(g: Formula, top: bool = False) -> str:
        wrap = (lambda s: s) if top else (lambda s: f"({s})")
        if isinstance(g, Atom):
            return atom(g.name)
        if isinstance(g, Top):
            return "Top"
        if isinstance(g, Bottom):
            return "Bot"
        if isinstance(g, Not):
            return "~" + go(g.arg)
        if isinstance(g, And):
            return wrap(" & ".join(go(k) for k in _flat(g, And)))
        if isinstance(g, Or):
            return wrap(" | ".join(go(k) for k in _flat(g, Or)))
        if isinstance(g, Implies):
            return wrap(f"{go(g.children[0])} -> {go(g.children[1])}")
        if isinstance(g, Iff):
            return wrap(f"{go(g.children[0])} iff {go(g.children[1])}")
        if isinstance(g, Know):
            return wrap(f"{g.agent} knows that {go(g.arg)}")
        if isinstance(g, Possible):
            return wrap(f"~ {g.agent} knows that {go(Not(g.arg))}")
        if isinstance(g, KnowWhether):
            return wrap(f"{g.agent} knows whether {go(g.arg)}")
        if isinstance(g, Common):
            return wrap(f"({','.join(g.group)}) comknow that {go(g.arg)}")
        if isinstance(g, Distributed):
            return wrap(f"({','.join(g.group)}) distknow that {go(g.arg)}")
        if isinstance(g, Everyone):
            return go(conj(Know(a, g.arg) for a in g.group), top)
        if isinstance(g, Announce):
            return wrap(f"[! {go(g.ann, True)}] {go(g.arg)}")
        if isinstance(g, AnnounceDual):
            return wrap(f"<! {go(g.ann, True)}> {go(g.arg)}")
        raise KopError(f"SMCDEL's language has no {type(g).__name__}")

    return go(f, top=True)


def _flat(f: Formula, op: type) -> list[Formula]:
    if isinstance(f, op):
        return [x for k in f.children for x in _flat(k, op)]
    return [f]


def to_smcdel(model: Any, *, name: str = "") -> str:
    """An SMCDEL file stating *model*, a Kripke model whose agents' partitions come from observation.

    The vocabulary is the model's atoms, numbered 1, 2, ... in order (a
    comment at the top maps numbers to names); each agent observes the atoms
    that are constant on each of its cells; the law is the set of the
    worlds' valuations (``Top`` when every valuation is a world).  An agent
    that observes nothing observes a fresh variable the law keeps false
    (SMCDEL's ``OBS`` lines list at least one atom), which tells it nothing.
    Designated worlds (unless every world is) are noted in a comment and
    asked as ``TRUE?`` questions of ``Top``.

    Raises
    ------
    KopError
        If the model has plausibility or probabilities (SMCDEL's structures have
        neither: the file would drop them).  Naming the worlds: two worlds with the same valuation (a knowledge
        structure's states are valuations), or an agent whose partition is
        not given by observing atoms.

    Example
    -------
    >>> from kop import KripkeModel
    >>> m = KripkeModel.from_observations(["m_a", "m_b"], "m_a | m_b", {"a": ["m_b"], "b": ["m_a"]},
    ...                                   actual=["m_a", "m_b"])
    >>> print(to_smcdel(m))
    -- written by kop: atoms 1 = m_a, 2 = m_b
    VARS 1,2
    LAW  1 | 2
    OBS  a: 2
         b: 1
    -- the actual world
    TRUE? {1,2} Top
    >>> spec = parse_smcdel(to_smcdel(m))
    >>> sorted(spec.observables.items())
    [('a', (2,)), ('b', (1,))]
    """
    _refuse_uncertainty(model)
    atoms = sorted(model.atoms)
    worlds = list(model.worlds)
    val = _valuations(model, worlds)
    numbers = {a: i + 1 for i, a in enumerate(atoms)}
    fresh = len(atoms) + 1
    obs = {agent: [numbers[a] for a in _observed(model, agent, atoms, worlds, val)] or [fresh]
           for agent in model.agents}
    used_fresh = any(o == [fresh] for o in obs.values())
    law = _law(atoms, [val[w] for w in worlds], numbers)
    if used_fresh:
        law = f"({law} & ~{fresh})" if law != "Top" else f"~{fresh}"
    header = ", ".join(f"{numbers[a]} = {a}" for a in atoms) or "none"
    lines = [f"-- written by kop{': ' + name if name else ''}: atoms {header}"]
    if used_fresh:
        lines[0] += f"; {fresh} is a constant (false) for agents that observe nothing"
    vocab = [str(numbers[a]) for a in atoms] + ([str(fresh)] if used_fresh else [])
    lines.append("VARS " + ",".join(vocab))
    lines.append("LAW  " + law)
    width = max((len(a) for a in obs), default=0)
    for i, (agent, o) in enumerate(obs.items()):
        lines.append(("OBS  " if i == 0 else "     ") + f"{agent}: ".ljust(width + 2) + ",".join(map(str, o)))
    return "\n".join(lines + _designated(model, atoms, val, numbers))


def _designated(model: Any, atoms: list[str], val: Mapping[Any, frozenset[str]],
                numbers: Mapping[str, int]) -> list[str]:
    """The designated worlds (unless every world is) as ``TRUE? {...} Top`` questions, after a comment."""
    actual = list(getattr(model, "actual", ()) or ())
    if not actual or len(actual) >= len(val):
        return []
    return ["-- the actual world" + ("s" if len(actual) > 1 else "")] + \
        ["TRUE? {" + ",".join(str(numbers[a]) for a in atoms if a in val[w]) + "} Top" for w in actual]


def _refuse_uncertainty(model: Any) -> None:
    """SMCDEL's structures are S5: a model with plausibility or probabilities has no file (say so, not drop them)."""
    if not getattr(model, "has_uncertainty", False):
        return
    unc = model._unc
    kinds = {a: [k for k, d in (("plausibility", unc.ranks), ("probabilities", unc.weights)) if a in d]
             for a in model.agents}
    said = "; ".join(f"{a} has {' and '.join(k)}" for a, k in kinds.items() if k)
    raise KopError(f"SMCDEL's knowledge structures have no plausibility or probability ({said}): the file "
                   "would drop them; export a model without them (kop check evaluates B_a and P_a)")


def _valuations(model: Any, worlds: list[Any]) -> dict[Any, frozenset[str]]:
    """Each world's valuation; two worlds with one valuation have no SMCDEL file (its states are valuations)."""
    val = {w: frozenset(model.valuation(w)) for w in worlds}
    seen: dict[frozenset[str], Any] = {}
    for w in worlds:
        if val[w] in seen:
            raise KopError(f"worlds {seen[val[w]]} and {w} have the same valuation: SMCDEL's states are "
                           f"valuations, so this model has no SMCDEL file (minimize it first)")
        seen[val[w]] = w
    return val


def _observed(model: Any, agent: str, atoms: list[str], worlds: list[Any],
              val: Mapping[Any, frozenset[str]]) -> list[str]:
    """The atoms *agent* observes: those constant on each of its cells, which must tell its cells apart."""
    cells = [list(c) for c in model.partition(agent)]
    observed = [a for a in atoms if all(len({a in val[w] for w in c}) == 1 for c in cells)]
    key = {w: frozenset(a for a in observed if a in val[w]) for w in worlds}
    for c in cells:
        for w in worlds:
            if (w in c) != (key[w] == key[c[0]]):
                raise KopError(f"agent {agent}'s partition is not given by observing atoms: it tells apart "
                               f"{c[0]} and {w}" if w not in c else
                               f"agent {agent}'s partition is not given by observing atoms")
    return observed


def _law(atoms: list[str], valuations: list[frozenset[str]], numbers: Mapping[str, int]) -> str:
    if len(valuations) == 1 << len(atoms):
        return "Top"
    if not valuations:
        return "Bot"
    if len(atoms) <= 12:
        from sympy import symbols as ssym
        from sympy.logic import SOPform

        syms = ssym([f"v{numbers[a]}" for a in atoms])
        minterms = [[1 if a in v else 0 for a in atoms] for v in valuations]
        expr = SOPform(syms, minterms)
        from kop.syntax.sympy_bridge import from_sympy

        f = from_sympy(expr)
        renamed = {f"v{numbers[a]}": numbers[a] for a in atoms}
        return format_formula(f, renamed)
    rows = [conj(Atom(a) if a in v else Not(Atom(a)) for a in atoms) for v in valuations]
    return format_formula(disj(rows), numbers)
