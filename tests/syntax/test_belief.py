"""Belief and probability formulas: parsing, printing, round trips, located errors."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings

from formula_strategies import formulas
from kop import B, P, ParseError, parse, to_ascii, to_latex, to_unicode
from kop.syntax import formula as F
from kop.io.formula_json import from_json_ast, to_json_ast

UNCERTAIN = formulas(agents=["a", "b", "ann"], atoms=["p", "q", "B_a", "P_a", "E_A"], max_leaves=10,
                     uncertain=True)


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(UNCERTAIN)
def test_round_trips(f):
    assert parse(to_ascii(f)) == f
    assert parse(to_unicode(f)) == f
    assert from_json_ast(to_json_ast(f)) == f
    to_latex(f)


@pytest.mark.parametrize("text, expected", [
    ("B_a p", F.Belief("a", F.Atom("p"))),
    ("B_{ann} ~p", F.Belief("ann", F.Not(F.Atom("p")))),
    ("B[a] (p & q)", F.Belief("a", F.And(F.Atom("p"), F.Atom("q")))),
    ("B_a(p, q)", F.CondBelief("a", F.Atom("p"), F.Atom("q"))),
    ("B_a [!p] q", F.Belief("a", F.Announce(F.Atom("p"), F.Atom("q")))),
    ("B_a", F.Atom("B_a")),                                  # alone, an atom
    ("K_A B_A", F.Know("A", F.Atom("B_A"))),
    ("B_a <-> q", F.Iff(F.Atom("B_a"), F.Atom("q"))),
    ("<!B_a> q", F.AnnounceDual(F.Atom("B_a"), F.Atom("q"))),
    ("P_a", F.Atom("P_a")),
    ("P_a & q", F.And(F.Atom("P_a"), F.Atom("q"))),
    ("P_a(p) >= 1/3", F.Probability("a", F.Atom("p"), ">=", Fraction(1, 3))),
    ("P_a(p) ≥ 0.25", F.Probability("a", F.Atom("p"), ">=", Fraction(1, 4))),
    ("P_a(p) ≤ 1", F.Probability("a", F.Atom("p"), "<=", 1)),
    ("P_a(p) = 0", F.Probability("a", F.Atom("p"), "=", 0)),
    ("~P_a(p) < 1/2 & q", F.And(F.Not(F.Probability("a", F.Atom("p"), "<", Fraction(1, 2))), F.Atom("q"))),
    ("<!P_a(p) > 1/2> q", F.AnnounceDual(F.Probability("a", F.Atom("p"), ">", Fraction(1, 2)), F.Atom("q"))),
])
def test_parse(text, expected):
    assert parse(text) == expected


def test_printing():
    f = parse("B_a(p, q) & P_b(p | q) >= 2/4 -> B_a ~p")
    assert to_ascii(f) == "B_a(p, q) & P_b(p | q) >= 1/2 -> B_a ~p"
    assert to_unicode(f) == "B_a(p, q) ∧ P_b(p ∨ q) ≥ 1/2 → B_a ¬p"
    assert to_latex(f) == "B_{a}(p, q) \\land P_{b}(p \\lor q) \\geq \\frac{1}{2} \\rightarrow B_{a} \\lnot p"


def test_python_constructors():
    assert B("a", "p") == parse("B_a p") and B("a", "q", given="p") == parse("B_a(p, q)")
    assert (P("a", "p") >= "1/3") == parse("P_a(p) >= 1/3")
    assert (P("a", "p") == 0.5) == parse("P_a(p) = 1/2")       # a float is read as the decimal it prints as
    assert (P("a", "p") < 1) == parse("P_a(p) < 1")
    with pytest.raises(ValueError, match="negative"):
        F.Probability("a", F.Atom("p"), ">=", "-1/2")
    with pytest.raises(ValueError, match="comparison"):
        F.Probability("a", F.Atom("p"), "!=", 1)


def test_negation_normal_form_flips_comparisons():
    assert parse("~P_a(p) >= 1/2").nnf() == parse("P_a(p) < 1/2")
    assert parse("~P_a(~~p) = 1/2").nnf() == parse("~P_a(p) = 1/2")
    assert parse("~B_a ~~p").nnf() == parse("~B_a p")


@pytest.mark.parametrize("text, line, column, message", [
    ("P_a(p)", 1, 7, "expected a comparison (>=, >, <, <=, =) and a number after 'P_a(p)'"),
    ("P_a(p) >= ", 1, 10, "expected a number (a decimal or a fraction such as 1/3) after '>='"),
    ("P_a(p) >= x", 1, 11, "expected a number"),
    ("P_a(p) >= 1/0", 1, 11, "division by zero"),
    ("P_a(p) ⟩ 1", 1, 8, "expected a comparison"),
    ("B_a(p, q", 1, 9, "expected ')'"),
    ("p & 3", 1, 5, "numbers appear only in P_a(phi) >= r"),
    ("B_a p q", 1, 7, "expected an operator"),
])
def test_located_errors(text, line, column, message):
    with pytest.raises(ParseError) as info:
        parse(text)
    assert (info.value.line, info.value.column) == (line, column), str(info.value)
    assert message in info.value.expected, str(info.value)
