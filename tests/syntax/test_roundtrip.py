"""Printing round-trips through parsing, over thousands of random formulas."""

from hypothesis import given, settings, HealthCheck
from profiles import examples

from formula_strategies import formulas
from kop import parse, to_ascii, to_unicode, to_latex
from kop.io.formula_json import from_json_ast, to_json_ast

ROUNDS = settings(max_examples=examples(2500), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@ROUNDS
@given(formulas())
def test_ascii_round_trip(f):
    assert parse(to_ascii(f)) == f


@ROUNDS
@given(formulas())
def test_unicode_round_trip(f):
    assert parse(to_unicode(f)) == f


@settings(max_examples=examples(500), deadline=None)
@given(formulas())
def test_json_ast_round_trip(f):
    assert from_json_ast(to_json_ast(f)) == f


@settings(max_examples=examples(300), deadline=None)
@given(formulas())
def test_latex_mentions_every_atom_and_balances_braces(f):
    s = to_latex(f)
    assert s.count("{") == s.count("}")
    assert s.count("\\left(") == s.count("\\right)")


@settings(max_examples=examples(500), deadline=None)
@given(formulas())
def test_hash_and_equality_are_structural(f):
    g = parse(to_ascii(f))
    assert f == g and hash(f) == hash(g) and f is not g or f is g
