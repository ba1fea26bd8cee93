"""Typed statements: one frozen dataclass per kind, a closed union, reprs that rebuild the value.

Checked against the definitions: the union holds exactly the classes the reader builds; every
grammar rule of a statement yields its class; each statement of every shipped theory is
rebuilt by evaluating its repr; a statement's line and keyword are those written in the file
(read here from the text itself, independently of the parser).
"""

from __future__ import annotations

import dataclasses
import typing
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kop
from kop.theory import Statement
from kop.theory import statements as S
from kop.theory.model import BeliefSpec, GameNode, ObservationSpec, PartialSpec
from kop.theory.source import Position

THEORIES = Path(__file__).resolve().parents[2] / "theories"
SHIPPED = sorted(THEORIES.glob("*.kop"))

EVERY_KIND = """include "other.kop"
tree "t.json"
model "m.json"
model {
  vocabulary p q
  observes A: p
  actual p
}
agents A, B
players A max, B min
game A { L: B { (1,5) (3,2) }  R: B { (2,1) (0,0) } }
decide strict
define both = p & q
know K_A p
common p
core A = 1
B knows E_A exactly
A believes E_B among { 1/2: [5, 2, 1, 0]  1/2: [5, 2, 0, 1] }
scenario s { core B = 0 }
announce p
in s announce q
ask valid p -> p
ask play A=minimax B=minimax
ask level A
ask select
ask dominates B
ask decided
ask worlds
in s, all expect A: Mh (3, 2) communication none
expect play A=minimax B=minimax: (3, 2)
expect value minimax A at L: (3, 2)
expect decided: L, R
expect level A: inf
"""


def flatten(statements):
    for s in statements:
        yield s
        if isinstance(s, S.Scenario):
            yield from flatten(s.body)


def test_the_union_is_closed_and_holds_every_class():
    members = set(typing.get_args(Statement))
    assert members == set(S.STATEMENTS) and len(S.STATEMENTS) == len(members)
    assert set(typing.get_args(S.Knowledge)) == set(S.KNOWLEDGE)
    for cls in S.STATEMENTS:
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, cls
        assert cls.KEYWORD, cls


def test_every_kind_of_statement_reads_into_its_class():
    th = kop.parse_theory(EVERY_KIND)
    kinds = {type(s) for s in flatten(th.statements)}
    assert kinds == set(S.STATEMENTS)
    by_line = {s.line: s for s in th.statements}
    assert by_line[16] == S.Core("A", 1, line=16)
    assert by_line[26] == S.AskDominates("B", line=26) and by_line[25] == S.AskSelect(None, line=25)
    exp = next(s for s in th.statements if isinstance(s, S.ExpectDominates))
    assert (exp.scope, exp.outcome, exp.communication, exp.has_communication) == (("s", "all"), (3, 2), None, True)
    assert by_line[21] == S.Announce(kop.parse("q"), line=21, scope=("s",))
    assert by_line[14] == S.Know(kop.parse("K_A p"), line=14) != S.Common(kop.parse("K_A p"), line=14)


def namespace():
    ns = {name: getattr(S, name) for name in S.__all__}
    ns.update(kop=kop, Fraction=Fraction, GameNode=GameNode, PartialSpec=PartialSpec, BeliefSpec=BeliefSpec,
              ObservationSpec=ObservationSpec, Position=Position)
    return ns


@pytest.mark.parametrize("path", SHIPPED + [None], ids=lambda p: p.name if p else "every_kind")
def test_reprs_rebuild_every_statement(path):
    th = kop.parse_theory(EVERY_KIND) if path is None else kop.load_theory(path)
    ns = namespace()
    for s in flatten(th.statements):
        again = eval(repr(s), ns)
        assert again == s and type(again) is type(s), repr(s)
        assert hash(again) == hash(s)


def written_prefix(s) -> str:
    """How a statement of this kind starts in the text (after ``in S, T``), from the language's definition."""
    if isinstance(s, S.EXPECTATIONS):
        return "expect"
    if isinstance(s, S.AskFormula):
        return f"ask {s.verb}"
    if isinstance(s, (S.ModelFile, S.ModelBlock)):
        return "model"
    return s.KEYWORD


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_line_and_keyword_are_those_written(path):
    """The reference: the file's own lines (a statement's first word(s), after an optional ``in S, T``)."""
    import re

    lines = path.read_text(encoding="utf-8").splitlines()
    for s in kop.load_theory(path).statements:
        text = re.sub(r"^in\s+[\w\s,]+?\s+(?=(ask|expect|announce)\b)", "", lines[s.line - 1].strip())
        if isinstance(s, (S.KnowsEvaluation, S.BelievesEvaluation)):
            assert text.split()[1] == s.KEYWORD, (s.line, text)
        else:
            assert text.startswith(written_prefix(s)), (s.line, text)
        assert bool(s.scope) == lines[s.line - 1].strip().startswith("in "), (s.line, text)


names = st.sampled_from(["A", "B"])
formulas = st.sampled_from(["p", "K_A p", "K_B (p | q)", "C{A,B} p", "~K_A q"])
lines_ = st.one_of(
    formulas.map(lambda f: (f"know {f}", S.Know)),
    formulas.map(lambda f: (f"common {f}", S.Common)),
    st.tuples(names, st.integers(0, 5)).map(lambda t: (f"core {t[0]} = {t[1]}", S.Core)),
    names.map(lambda n: (f"ask level {n}", S.AskLevel)),
    st.sampled_from(["valid", "satisfiable", "entails"]).flatmap(
        lambda v: formulas.map(lambda f: (f"ask {v} {f}", S.AskFormula))),
    st.just(("ask decided", S.AskDecided)),
    st.one_of(st.just(""), names).map(lambda n: (f"ask dominates {n}".strip(), S.AskDominates)),
    st.tuples(names, st.integers(0, 5)).map(lambda t: (f"expect level {t[0]}: {t[1]}", S.ExpectLevel)),
)


@settings(max_examples=80, deadline=None)
@given(st.lists(lines_, min_size=1, max_size=12))
def test_random_theories_read_into_the_classes_in_order(items):
    text = "agents A, B\n" + "".join(line + "\n" for line, _ in items)
    th = kop.parse_theory(text)
    assert [type(s) for s in th.statements] == [S.Agents] + [cls for _, cls in items]
    assert [s.line for s in th.statements] == list(range(1, len(items) + 2))
    ns = namespace()
    assert all(eval(repr(s), ns) == s for s in th.statements)
