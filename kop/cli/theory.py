"""Theory files (``.kop``): a knowledge specification and the questions to ask about it.

A theory is a list of line statements (grammar: ``grammar/theory.lark``; guide:
``docs/theories.md``)::

    tree "figure2.json"
    core A = 2
    core B = 1
    ask level A
    ask entails K_A K_B E_A
    ask select A

:func:`load_theory` parses a file into a :class:`Theory`; :func:`run_theory`
answers its questions in order and returns one :class:`Answer` per ``ask``.
Parse errors name the line and column in the theory file, also for errors
inside a formula.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from kop.syntax.errors import KopError, ParseError
from kop.syntax.formula import Formula
from kop.syntax.levels import f_level

__all__ = ["Statement", "Theory", "Answer", "parse_theory", "load_theory", "run_theory"]

_MAX_STATEMENTS = 10_000


@dataclass(frozen=True)
class Statement:
    """One line of a theory: its kind, arguments and line number."""

    kind: str
    args: tuple
    line: int


@dataclass(frozen=True)
class Theory:
    statements: tuple[Statement, ...]
    base: Path = field(default=Path("."))

    def __repr__(self) -> str:
        return f"Theory({len(self.statements)} statements)"


@dataclass(frozen=True)
class Answer:
    """The answer to one ``ask`` (or the effect of an ``announce``)."""

    line: int
    question: str
    result: Any
    text: str

    def to_json(self) -> dict:
        return {"line": self.line, "question": self.question, "result": self.result}


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
        line = st.meta.line if not st.meta.empty else (toks[0].line if toks else 0)
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


def _level(x: float) -> int | str:
    return "inf" if x == math.inf else int(x)


def run_theory(theory: Theory, *, timeout: float | None = 60.0) -> list[Answer]:
    """Answer the theory's questions in order.

    ``know`` and ``core`` add to the knowledge (formulas true at the actual
    world); questions see the knowledge stated above them.  ``announce``
    updates the declared model.
    """
    from kop.reasoning.knowledge import level
    from kop.reasoning.prover import entails, satisfiable, valid
    from kop.syntax.printer import to_ascii

    knowledge: list[Formula] = []
    agents: tuple[str, ...] | None = None
    tree = None
    model = None
    answers: list[Answer] = []

    def where(st: Statement) -> str:
        return f"line {st.line}"

    def other(p: str) -> str:
        names = agents or (tree.player_names if tree is not None else ())
        rest = [a for a in names if a != p]
        if len(rest) != 1:
            raise KopError(f"cannot tell who {p}'s opponent is: declare 'agents P, Q' or a two-player tree")
        return rest[0]

    for st in theory.statements:
        k, a = st.kind, st.args
        if k == "tree":
            from kop.games.formats import load_tree

            tree = load_tree(theory.base / a[0])
        elif k == "model":
            from kop.semantics.model import KripkeModel

            model = KripkeModel.load(theory.base / a[0])
        elif k == "agents":
            agents = a
        elif k == "know":
            knowledge.append(a[0])
        elif k == "core":
            knowledge.extend(f_level(a[0], other(a[0]), a[1]))
        elif k == "announce":
            if model is None:
                raise KopError(f"{where(st)}: 'announce' needs a model (model \"FILE\")")
            model = model.announce(a[0])
            answers.append(Answer(st.line, f"announce {to_ascii(a[0])}", {"worlds": len(model.worlds)},
                                  f"announced {to_ascii(a[0])}: {len(model.worlds)} worlds remain"))
        elif k == "ask_formula":
            verb, f = a
            q = f"{verb} {to_ascii(f)}"
            if verb == "check":
                if model is None:
                    raise KopError(f"{where(st)}: 'ask check' needs a model (model \"FILE\")")
                holds = model.satisfies(f)
                worlds = sorted(model.truth_set(f))
                answers.append(Answer(st.line, q, {"holds": holds, "worlds": worlds},
                                      f"{q}: {'yes' if holds else 'no'} (true at {len(worlds)} worlds)"))
                continue
            if verb == "valid":
                v = valid(f, agents=agents, timeout=timeout)
            elif verb == "satisfiable":
                v = satisfiable(f, agents=agents, timeout=timeout)
            else:
                v = entails(knowledge, f, agents=agents, timeout=timeout)
            witness = v.model if (v.holds and verb == "satisfiable") or (not v.holds and verb != "satisfiable") else None
            text = f"{q}: {'yes' if v.holds else 'no'}"
            if witness is not None:
                text += f" ({'model' if verb == 'satisfiable' else 'countermodel'} with {len(witness.worlds)} worlds)"
            answers.append(Answer(st.line, q, {"holds": v.holds,
                                               "model": None if witness is None else witness.to_json()}, text))
        elif k == "ask_level":
            p = a[0]
            lv = level(knowledge, p, other(p), timeout=timeout, agents=agents)
            answers.append(Answer(st.line, f"level {p}", {"level": _level(lv)}, f"level {p}: {_level(lv)}"))
        elif k in ("ask_select", "ask_decided"):
            if tree is None:
                raise KopError(f"{where(st)}: '{k.replace('_', ' ')}' needs a game tree (tree \"FILE\")")
            if k == "ask_decided":
                from kop.selection.decide import decide

                names = [n.name for n in decide(tree, knowledge, timeout=timeout).decided_nodes()]
                answers.append(Answer(st.line, "decided", {"decided": names},
                                      f"decided nodes: {', '.join(names) or 'none'}"))
            else:
                from kop.selection.selector import select

                s = select(tree, knowledge, a[0] if a else None, timeout=timeout)
                answers.append(Answer(st.line, f"select {s.player}", s.to_json(), s.explain()))
    return answers
