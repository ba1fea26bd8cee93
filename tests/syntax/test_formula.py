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


def _rebuild(f):
    """*f* taken apart by ``match`` on every formula class and built again (a reference for __match_args__)."""
    match f:
        case Atom(name):
            return Atom(name)
        case F.Top():
            return F.Top()
        case F.Bottom():
            return F.Bottom()
        case Not(arg):
            return Not(_rebuild(arg))
        case And(args):
            return And(*map(_rebuild, args))
        case Or(args):
            return Or(*map(_rebuild, args))
        case Implies(left, right):
            return Implies(_rebuild(left), _rebuild(right))
        case F.Iff(left, right):
            return F.Iff(_rebuild(left), _rebuild(right))
        case F.Belief(agent, arg):         # before Know: a subclass of neither, but keep the order explicit
            return F.Belief(agent, _rebuild(arg))
        case Know(agent, arg):
            return Know(agent, _rebuild(arg))
        case F.Possible(agent, arg):
            return F.Possible(agent, _rebuild(arg))
        case F.KnowWhether(agent, arg):
            return F.KnowWhether(agent, _rebuild(arg))
        case F.Everyone(group, arg):
            return F.Everyone(group, _rebuild(arg))
        case Common(group, arg):
            return Common(group, _rebuild(arg))
        case F.Distributed(group, arg):
            return F.Distributed(group, _rebuild(arg))
        case F.RelCommon(group, cond, arg):
            return F.RelCommon(group, _rebuild(cond), _rebuild(arg))
        case F.Announce(ann, arg):
            return F.Announce(_rebuild(ann), _rebuild(arg))
        case F.AnnounceDual(ann, arg):
            return F.AnnounceDual(_rebuild(ann), _rebuild(arg))
        case F.CondBelief(agent, cond, arg):
            return F.CondBelief(agent, _rebuild(cond), _rebuild(arg))
        case F.Probability(agent, arg, relation, bound):
            return F.Probability(agent, _rebuild(arg), relation, bound)
    raise AssertionError(f"no case for {f!r}")


@settings(max_examples=examples(300), deadline=None)
@given(formulas(uncertain=True))
def test_match_takes_every_formula_apart_and_copies_are_equal(f):
    import copy

    for g in (_rebuild(f), pickle.loads(pickle.dumps(f)), copy.copy(f), copy.deepcopy(f), parse(str(f))):
        assert g == f and hash(g) == hash(f) and g.structure() == f.structure() and repr(g) == repr(f)


def test_every_formula_class_is_a_frozen_slotted_dataclass():
    import dataclasses

    f = parse("K_a p & C{a,b}(p, q) | P_a(p) >= 1/3 -> [!p] <!q> B_a(p, q) & E{a} true & ~D{b} false "
              "| (M_a Kw_b p <-> B_a C{a} q)")
    concrete = {c for c in vars(F).values() if isinstance(c, type) and issubclass(c, F.Formula)
                and c.__doc__ and not c.__name__.startswith("_")} - {F.Formula}
    assert {type(g) for g in f.subformulas()} == concrete and len(concrete) == 20
    for g in f.subformulas():
        assert dataclasses.is_dataclass(g) and not hasattr(g, "__dict__")
        for name in type(g).__match_args__:
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(g, name, getattr(g, name))
        assert type(g)(*g._init_args()) == g
    assert F.Formula.__match_args__ == () and And.__match_args__ == ("args",)


def test_pickles_load_in_a_process_with_other_string_hashes(tmp_path):
    """The cached hash is computed anew when a pickle loads (string hashes differ between processes)."""
    import os
    import subprocess
    import sys

    fs = [parse(t) for t in ("K_a p", "C{a,b}(p, q) & r", "P_a(p) >= 1/3 | [!p] B_a(q, r)")]
    (tmp_path / "f.pickle").write_bytes(pickle.dumps(fs))
    code = ("import pickle, sys, kop; fs = pickle.load(open(sys.argv[1], 'rb')); "
            "assert all(hash(f) == hash(kop.parse(str(f))) and {kop.parse(str(f)): 1}[f] for f in fs)")
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run([sys.executable, "-c", code, str(tmp_path / "f.pickle")], check=True, env=env)
