"""The formula AST: immutability, equality, constructors, structure, NNF, the sympy bridge."""

import pickle

import pytest
import sympy
from hypothesis import given, settings
from profiles import examples

from formula_strategies import formulas
from kop import (FALSE, TRUE, And, Atom, C, Common, D, E, Implies, K, Know, Kw, M, Not, Or, parse,
                 symbols, to_ascii, to_sympy, from_sympy)
from kop.syntax import formula as F
from kop.syntax.sympy_bridge import simplify, truth_table

p, q, r = symbols("p q r")


def test_values_are_immutable_and_hashable():
    f = K("a", p)
    with pytest.raises(AttributeError):
        f.agent = "b"
    assert {f: 1}[Know("a", Atom("p"))] == 1
    assert pickle.loads(pickle.dumps(f)) == f


def test_operator_overloading_builds_the_ast():
    assert (p & q) == And(p, q)
    assert (p | q) == Or(p, q)
    assert ~p == Not(p)
    assert (p >> q) == Implies(p, q)
    assert p.iff(q) == F.Iff(p, q)
    assert K("A", "K_B E_A") == parse("K_A K_B E_A")


def test_groups_are_canonical():
    assert E(["b", "a", "a"], p) == parse("E{a,b} p")
    assert C("a", p) == Common(("a",), p)
    assert C(["a", "b"], p, q) == parse("C{a,b}(p, q)")


def test_repr_is_readable_and_str_is_ascii():
    f = parse("K_a (p -> q)")
    assert repr(f) == "kop.parse('K_a (p -> q)')"      # code in kop's syntax that rebuilds it
    import kop

    assert eval(repr(f)) == f
    assert f.structure() == "Know('a', Implies(Atom('p'), Atom('q')))"
    assert str(f) == "K_a (p -> q)"


@pytest.mark.parametrize("bad", ["", "1p", "p q", "K_a", "Ka", "true", "M_b", "Kw_x", "C_", "E_", "K_"])
def test_invalid_atom_names(bad):
    with pytest.raises(ValueError):
        Atom(bad)


def test_invalid_agents_and_arguments():
    with pytest.raises(ValueError):
        K("a b", p)
    with pytest.raises(ValueError):
        E([], p)
    with pytest.raises(TypeError):
        Not("p")
    with pytest.raises(ValueError):
        And(p)


def test_structure():
    f = parse("K_A (E_B & M_b [!p] C{A,B} q) | r")
    assert f.atoms() == {"E_B", "p", "q", "r"}
    assert f.agents() == {"A", "B", "b"}
    assert f.modal_depth() == 4
    assert parse("p & q").modal_depth() == 0
    assert list(parse("p & (q | p)").subformulas()) == [p, q, Or(q, p), And(p, Or(q, p))]
    assert parse("p & q").size() == 3


def test_nnf_examples():
    assert parse("~K_a p").nnf() == parse("M_a ~p")
    assert parse("~(p -> K_a q)").nnf() == parse("p & M_a ~q")
    assert parse("~[!p] q").nnf() == parse("<!p> ~q")
    assert parse("~Kw_a p").nnf() == parse("M_a p & M_a ~p")
    assert parse("E{a,b} p").nnf() == parse("K_a p & K_b p")
    assert parse("~C{a,b} ~p").nnf() == parse("~C{a,b} ~p")


def _nnf_ok(f):
    for g in f.subformulas():
        if isinstance(g, Not):
            assert isinstance(g.arg, (Atom, F.Common, F.Distributed, F.RelCommon)), to_ascii(g)
        assert not isinstance(g, (Implies, F.Iff, F.Everyone, F.KnowWhether))


@settings(max_examples=examples(500), deadline=None)
@given(formulas(agents=["a", "b"], atoms=["p", "q"]))
def test_nnf_shape(f):
    _nnf_ok(f.nnf())


@settings(max_examples=examples(300), deadline=None)
@given(formulas(agents=["a", "b"], atoms=["p", "q", "r"], modal=False))
def test_nnf_is_equivalent_propositionally(f):
    a, b = to_sympy(f), to_sympy(f.nnf())
    assert sympy.logic.inference.satisfiable(sympy.Xor(a, b)) is False


@settings(max_examples=examples(300), deadline=None)
@given(formulas(agents=["a", "b"], atoms=["p", "q", "r"]))
def test_sympy_skeleton_round_trip_is_equivalent(f):
    back = from_sympy(to_sympy(f))
    assert sympy.logic.inference.satisfiable(sympy.Xor(to_sympy(f), to_sympy(back))) is False


def test_modal_subformulas_become_readable_symbols():
    s = to_sympy(parse("K_A p & (q | ~K_A p)"))
    assert {x.name for x in s.free_symbols} == {"K_A p", "q"}
    assert simplify(parse("(K_A p -> q) & K_A p")) == parse("K_A p & q")
    assert simplify(parse("p | ~p")) == TRUE
    assert simplify(parse("p & ~p")) == FALSE


def test_truth_table():
    cols, rows = truth_table(parse("p -> K_a q"))
    assert cols == ["K_a q", "p"]
    assert [v for _, v in rows] == [True, False, True, True]


def test_python_constructors_parse_strings():
    assert M("a", "p") == parse("M_a p")
    assert Kw("a", "p") == parse("Kw_a p")
    assert D(["a", "b"], "p") == parse("D{a,b} p")


def test_equality_of_deep_formulas_does_not_recurse():
    from kop.syntax.parser import MAX_DEPTH

    a = parse("K_a " * (MAX_DEPTH - 1) + "p")
    b = parse("K_a " * (MAX_DEPTH - 1) + "p")
    assert a == b and a is not b and {a: 1}[b] == 1
    assert a != parse("K_a " * (MAX_DEPTH - 1) + "q")
