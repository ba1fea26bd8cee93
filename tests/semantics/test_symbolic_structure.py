"""KnowledgeStructure as a value: construction, errors, updates, conversion, display, limits."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from profiles import examples

from kop import KnowledgeStructure, KripkeModel, parse
from kop.semantics.errors import ModelError
from kop.errors import KopError, LimitError
from kop.syntax.formula import TRUE, Atom, Know, Not


def two_agents(**kw):
    return KnowledgeStructure(["p", "q"], "p | q", {"a": ["p"], "b": ["q"]}, **kw)


def test_basic_questions():
    ks = two_agents(actual={"p", "q"})
    assert ks.vocabulary == ("p", "q") and ks.agents == ("a", "b")
    assert ks.observables == {"a": ("p",), "b": ("q",)}
    assert ks.actual == (frozenset({"p", "q"}),)
    assert ks.count() == 3 and ks.count("p") == 2 and ks.count("K_a q") == 1
    assert ks.satisfies("K_a p & ~K_a q & K_b q")
    assert not ks.satisfies("K_a q", state={"p"}) and ks.satisfies("K_a q", state="q")
    assert ks.valid("p | q") and not ks.valid("K_a p")
    assert ks.valid("C{a,b} (p | q)") and ks.count("D{a,b} p") == 2
    assert set(ks.states("~p")) == {frozenset({"q"})}
    assert ks.truth_bdd("false") == ks.law_bdd & ~ks.law_bdd


def test_no_actual_means_every_state():
    ks = two_agents()
    assert ks.actual is None
    assert ks.satisfies("p | q") and not ks.satisfies("p")


def test_several_designated_states():
    ks = two_agents(actual=[["p"], ["p", "q"]])
    assert ks.satisfies("p") and not ks.satisfies("q")
    assert ks.announce("q").actual == (frozenset({"p", "q"}),)


def test_announcement_and_notes():
    ks = KnowledgeStructure("p q", "true", {"a": "p"}, actual={"p"})
    after = ks.announce("~q")
    assert after.satisfies("K_a ~q") and after.count() == 2 and after.law == Not(Atom("q"))
    gone = ks.announce("q")
    assert gone.note == "the announcement 'q' is false at every designated state"
    with pytest.raises(ModelError, match="no designated states"):
        gone.satisfies("p")
    assert gone.satisfies("p", state={"p", "q"})
    empty = ks.announce("p & ~p")
    assert empty.is_empty and empty.count() == 0 and empty.valid("false")
    assert "false at every state" in empty.note
    with pytest.raises(ModelError, match="empty"):
        empty.satisfies("p")


def test_announcing_a_modal_formula_restricts_the_law():
    ks = KnowledgeStructure("m1 m2", "m1 | m2", {"c1": "m2", "c2": "m1"}, actual={"m1", "m2"})
    nobody = parse("~Kw_c1 m1 & ~Kw_c2 m2")
    after = ks.announce(nobody)
    assert after.count() == 1 and after.satisfies("Kw_c1 m1 & Kw_c2 m2")
    assert after == ks.announce(nobody)
    assert after.law == parse("m1 & m2")


def test_from_observations_is_symmetric_with_kripke():
    args = (["p", "q", "r"], "p -> q", {"a": ["p"], "b": ["q", "r"]})
    ks = KnowledgeStructure.from_observations(*args, actual=["p", "q"], max_worlds=100)
    m = KripkeModel.from_observations(*args, actual=["p", "q"])
    assert ks.to_kripke() == m
    assert ks == KnowledgeStructure(*args, actual={"q", "p"})
    with pytest.raises(TypeError, match="unexpected"):
        KnowledgeStructure.from_observations(*args, colour="red")


def test_to_kripke_refuses_past_the_limit():
    ks = KnowledgeStructure([f"x{i}" for i in range(30)], "true", {"a": ["x0"]})
    with pytest.raises(LimitError, match="more than the limit"):
        ks.to_kripke()
    small = KnowledgeStructure([f"x{i}" for i in range(8)], "x0 -> x1", {"a": ["x0"]})
    with pytest.raises(LimitError):
        small.to_kripke(max_states=10)
    assert len(small.to_kripke(max_states=192)) == 192


def test_value_semantics():
    a, b = two_agents(actual={"p"}), two_agents(actual={"p"})
    assert a == b and hash(a) == hash(b)
    assert a != two_agents(actual={"q"}) and a != two_agents()
    assert a != KnowledgeStructure(["p", "q"], "p", {"a": ["p"], "b": ["q"]}, actual={"p"})
    assert a != KnowledgeStructure(["q", "p"], "p | q", {"a": ["p"], "b": ["q"]}, actual={"p"})
    assert len({a, b, two_agents()}) == 2
    assert a.with_actual(None) == two_agents()
    with pytest.raises(AttributeError):
        a.vocabulary = ("x",)


def test_repr():
    assert repr(two_agents(actual={"p", "q"})) == \
        "KnowledgeStructure(['p', 'q'], 'p | q', {'a': ['p'], 'b': ['q']}, actual={'p', 'q'})"
    assert repr(two_agents()) == "KnowledgeStructure(['p', 'q'], 'p | q', {'a': ['p'], 'b': ['q']})"
    big = KnowledgeStructure([f"b{i}" for i in range(1, 401)], "true", {f"l{i}": [f"b{i}"] for i in range(1, 401)})
    assert repr(big) == ("KnowledgeStructure(<400 atoms: b1 b2 ... b400>, 'true', <400 agents: l1 l2 ... l400>, "
                         "states=2**400)")


def test_counts_are_exact_past_floating_point():
    ks = KnowledgeStructure([f"x{i}" for i in range(1200)], "x0 | x1", {"a": ["x0"]})
    assert ks.count() == 3 * 2 ** 1198
    assert ks.count("K_a x0") == 2 ** 1199
    assert ks.count("~K_a x0") == 2 ** 1198


@pytest.mark.parametrize("bad, message", [
    (dict(vocabulary=["p", "p"]), "twice"),
    (dict(vocabulary=["K_a"]), "not a valid atom"),
    (dict(vocabulary=[3]), "not an atom name"),
    (dict(law="p & z"), "'z' outside the vocabulary"),
    (dict(law="K_a p"), "propositional"),
    (dict(law=3), "formula or a string"),
    (dict(observables={"a": ["z"]}), "observes atom 'z'"),
    (dict(observables={"a": ("p", "z")}), "observes atom 'z'"),
    (dict(observables={"a": ["p", 3]}), "3 is not an atom name"),
    (dict(observables={"a": ["p", ["q"]]}), "is not an atom name"),
    (dict(observables={"a b": ["p"]}), "invalid agent"),
    (dict(observables=["p"]), "map each agent"),
    (dict(actual={"z"}), "'z' true, but it is not in the vocabulary"),
    (dict(law="p", actual={"q"}), "violates the law"),
    (dict(actual=[["p"], "q"]), "list of sets"),
])
def test_bad_input(bad, message):
    args = dict(vocabulary=["p", "q"], law="true", observables={"a": ["p"]}, actual=None)
    args.update(bad)
    with pytest.raises(ModelError, match=message):
        KnowledgeStructure(args["vocabulary"], args["law"], args["observables"], args["actual"])


def test_observables_in_vocabulary_order():
    """However an agent's atoms are listed (a list, a tuple, a string, a set; repeated;
    in any order), they are kept once each, in the vocabulary's order."""
    ks = KnowledgeStructure("p q r", "true", {"a": ["r", "p", "r"], "b": ("q", "p"), "c": "r q", "d": {"r"},
                                              "e": []})
    assert ks.observables == {"a": ("p", "r"), "b": ("p", "q"), "c": ("q", "r"), "d": ("r",), "e": ()}


def test_bad_questions():
    ks = two_agents()
    with pytest.raises(ModelError, match="agent 'z' that the structure does not have"):
        ks.satisfies("K_z p")
    with pytest.raises(ModelError, match="agent 'z'"):
        ks.count("false & K_z p")          # reported even where it would not matter
    with pytest.raises(ModelError, match="atom\\(s\\) 'r' outside the vocabulary"):
        ks.valid("r | p")
    with pytest.raises(ModelError, match="violates the law"):
        ks.satisfies("p", state=[])
    with pytest.raises(ModelError, match="not in the vocabulary"):
        ks.satisfies("p", state={"p", "z"})
    with pytest.raises(TypeError):
        ks.count(3)
    assert isinstance(ModelError("x"), KopError)


def test_deep_formulas_do_not_exhaust_the_stack():
    ks = two_agents(actual={"p", "q"})
    phi = Atom("p")
    for i in range(20_000):
        phi = Not(phi)
    assert ks.satisfies(phi)                   # an even number of negations
    psi = Atom("p")
    for i in range(3_000):
        psi = Know("a" if i % 2 else "b", psi)
    assert not ks.satisfies(psi) and ks.count(psi) == 0
    chi = TRUE
    for i in range(3_000):
        chi = parse("[!p | q] true") if i == 0 else Not(Not(chi))
    assert ks.valid(chi)


def test_pure_python_backend():
    ks = two_agents(actual={"p", "q"}, backend="python")
    assert ks.backend == "python" and two_agents(backend="autoref").backend == "python"   # the old name
    assert ks.count("C{a,b}(p, q)") == two_agents().count("C{a,b}(p, q)")
    assert ks == two_agents(actual={"p", "q"})   # compared across back ends
    with pytest.raises(ModelError, match="unknown BDD back end"):
        two_agents(backend="nope")


def test_import_kop_does_not_import_dd():
    code = "import sys, kop; kop.KnowledgeStructure; assert 'dd' not in sys.modules, 'dd imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


_NAMES = st.one_of(st.sampled_from(["p", "q", "m1", "s1_2", "K_a", "Ka", "Kw_b", "E_", "true", "false", "Kb2",
                                    "", "p q", "p\nq", "x\n", "\n", "1p", "_p", "K", "Kw"]),
                   st.text(alphabet="pqKMEw_1 \n", max_size=4), st.integers(0, 2))


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(_NAMES, max_size=5), st.booleans())
@example(["p\nq"], False).via("a name holding the separator")
@example(["p", "x\n"], True).via("a name ending in the separator")
@example([""], False).via("the empty name")
@example(["p", "Kw_b"], False).via("a reserved name after another")
@example(["p", "q", "p"], True).via("a repeat")
def test_vocabulary_read_at_once_as_one_by_one(names, as_tuple):
    """The vocabulary's fast reader (all names with two regular expressions) accepts what
    the reader of one name at a time accepts, and leaves the rest to it (same error)."""
    from kop.semantics.symbolic import _read_vocabulary
    from kop.semantics.vocabulary import _vocabulary

    given_names = tuple(names) if as_tuple else names
    try:
        expected = tuple(_vocabulary(list(names)))
    except ModelError as e:
        with pytest.raises(ModelError) as got:
            _read_vocabulary(given_names)
        assert str(got.value) == str(e)
    else:
        assert _read_vocabulary(given_names) == expected
