"""The prover on the axioms of S5_n, C, D, announcements, and on classic non-validities.

Every countermodel is checked here again with the model checker (the prover
checks it too before returning it).
"""

from __future__ import annotations

import pytest

import kop
from kop import parse
from kop.reasoning.announcements import reduce_announcements

SUBS = ["p", "q", "p & ~q", "K_b q", "M_a (p | K_b q)", "C{a,b} p", "[!p] q"]


def assert_valid(f, **kw):
    v = kop.valid(f, **kw)
    assert v.holds, f"{f} should be valid; countermodel {v.countermodel and v.countermodel.to_json()}"
    assert v.countermodel is None
    return v


def assert_invalid(f, **kw):
    v = kop.valid(f, **kw)
    assert not v.holds, f"{f} should not be valid"
    m = v.countermodel
    assert m is not None and len(m.actual) == 1
    assert not m.satisfies(parse(f) if isinstance(f, str) else f)
    return v


# -- S5: A1-A5 --------------------------------------------------------------------

@pytest.mark.parametrize("f", [
    "p | ~p", "(p -> q) -> (~q -> ~p)", "((p -> q) -> p) -> p", "(p & (p -> q)) -> q",
    "~(p & q) <-> (~p | ~q)", "(K_a p -> K_b q) | (K_b q -> K_a p)",
])
def test_a1_tautologies(f):
    assert_valid(f)


@pytest.mark.parametrize("x", SUBS)
@pytest.mark.parametrize("y", ["q", "K_a q", "~p"])
def test_a2_distribution(x, y):
    assert_valid(f"(K_a ({x}) & K_a (({x}) -> ({y}))) -> K_a ({y})")


@pytest.mark.parametrize("x", SUBS)
def test_a3_a4_a5(x):
    assert_valid(f"K_a ({x}) -> ({x})")
    assert_valid(f"K_a ({x}) -> K_a K_a ({x})")
    assert_valid(f"~K_a ({x}) -> K_a ~K_a ({x})")


def test_knowledge_of_true_and_false():
    assert_valid("K_a true & ~K_a false")
    assert_valid("Kw_a p <-> (K_a p | K_a ~p)")
    assert_valid("M_a p <-> ~K_a ~p")
    assert_valid("E{a,b} p <-> (K_a p & K_b p)")


# -- common knowledge -----------------------------------------------------------------

@pytest.mark.parametrize("x", ["p", "p & q", "K_a p", "M_b ~q", "C{a} p"])
def test_fixed_point_axiom(x):
    assert_valid(f"C{{a,b}} ({x}) <-> E{{a,b}} (({x}) & C{{a,b}} ({x}))")


@pytest.mark.parametrize("x", ["p", "p | q", "K_b p", "~K_a q"])
def test_induction_axiom(x):
    assert_valid(f"C{{a,b}} (({x}) -> E{{a,b}} ({x})) -> (({x}) -> C{{a,b}} ({x}))")
    assert_valid(f"(E{{a,b}} ({x}) & C{{a,b}} (({x}) -> E{{a,b}} ({x}))) -> C{{a,b}} ({x})")


def test_common_knowledge_facts():
    assert_valid("C{a,b} p -> K_a K_b K_a K_b p")
    assert_valid("C{a,b,c} p -> C{a,b} p")
    assert_valid("C{a,b} p -> C{a,b} C{a,b} p")
    assert_valid("~C{a,b} p -> C{a,b} ~C{a,b} p")      # S5: C is an equivalence modality
    assert_valid("C{a} p <-> K_a p")
    assert_valid("C{a,b}(p, q) -> C{a,b}(p & r, q)")
    assert_valid("C{a,b}(true, q) <-> C{a,b} q")
    assert_valid("C{a,b}(p, q) <-> E{a,b}(p -> (q & C{a,b}(p, q)))")


def test_distributed_knowledge():
    assert_valid("K_a p -> D{a,b} p")
    assert_valid("(K_a p & K_b (p -> q)) -> D{a,b} q")
    assert_valid("D{a,b} p -> D{a,b,c} p")
    assert_valid("D{a,b} p -> p")
    assert_valid("D{a,b} p -> D{a,b} D{a,b} p")
    assert_valid("~D{a,b} p -> D{a,b} ~D{a,b} p")
    assert_valid("D{a} p <-> K_a p")
    assert_invalid("D{a,b} p -> K_a p")
    assert_invalid("D{a,b} p -> E{a,b} p")
    assert_invalid("D{a,b,c} p -> D{a,b} p")


def test_distributed_knowledge_needs_more_than_the_pseudo_model():
    # satisfiable only in a model where a- and b-classes cross (the pseudo-model is not enough)
    f = "M_a D{a,b} p & M_a ~D{a,b} p & M_b D{a,b} p & M_b ~D{a,b} p"
    v = kop.satisfiable(f)
    assert v.holds and v.model.satisfies(f)


# -- announcements ----------------------------------------------------------------------

REDUCTIONS = [
    "[!x] p <-> (x -> p)",
    "[!x] ~y <-> (x -> ~[!x] y)",
    "[!x] (y & z) <-> ([!x] y & [!x] z)",
    "[!x] K_a y <-> (x -> K_a [!x] y)",
    "[!x] [!y] z <-> [!(x & [!x] y)] z",
    "<!x> y <-> (x & [!x] y)",
]


@pytest.mark.parametrize("scheme", REDUCTIONS)
@pytest.mark.parametrize("x,y,z", [("p", "q", "r"), ("K_a p", "M_b q", "p | r"), ("~K_b p", "K_a ~q", "K_b r")])
def test_reduction_axioms_c_free(scheme, x, y, z):
    f = scheme.replace("x", f"({x})").replace("y", f"({y})").replace("z", f"({z})")
    assert_valid(f)


def test_reduction_axioms_with_common_knowledge():
    assert_valid("[!p] C{a,b} q <-> (p -> C{a,b}(p, [!p] q))")
    assert_valid("[!p] C{a,b}(q, r) <-> (p -> C{a,b}(p & [!p] q, [!p] r))")
    assert_valid("[!K_a p] C{a,b}(M_b q, r) <-> (K_a p -> C{a,b}(K_a p & [!K_a p] M_b q, [!K_a p] r))")
    assert_valid("[!p] D{a,b} q <-> (p -> D{a,b} [!p] q)")


def test_announcing_an_atom_makes_it_known():
    # [!p] K_a p is VALID in S5 for an atom p: after the announcement every world left is a p-world.
    assert_valid("[!p] K_a p")
    assert_valid("[!p] C{a,b} p")
    # the genuine non-validities
    assert_invalid("[!p] K_a q")
    assert_invalid("[!(p & ~K_a p)] (p & ~K_a p)")      # the Moore sentence is not successful
    assert_valid("[!(p & ~K_a p)] K_a p")
    assert_invalid("[!~K_a p] ~K_b p")


def test_reduction_equivalent_on_a_model():
    f = parse("[!(p | K_a q)] C{a,b}(M_b p, [!q] K_a p)")
    g = reduce_announcements(f)
    assert not any(isinstance(s, (kop.Announce, kop.AnnounceDual)) for s in g.subformulas())
    assert_valid(kop.Iff(f, g))


# -- classic non-validities ---------------------------------------------------------------

@pytest.mark.parametrize("f", [
    "K_a p -> K_b p",
    "E{a,b} p -> C{a,b} p",
    "M_a p -> K_a p",
    "E{a,b} p -> E{a,b} E{a,b} p",
    "K_a K_b p -> K_b K_a p",
    "p -> K_a p",
    "C{a,b}(q, p) -> C{a,b} p",
    "K_a (p | q) -> (K_a p | K_a q)",
])
def test_classic_non_validities_have_countermodels(f):
    v = assert_invalid(f)
    assert v.countermodel.satisfies(kop.Not(parse(f)))


def test_countermodel_of_e_to_c_needs_a_path():
    v = assert_invalid("E{a,b} p -> C{a,b} p")
    m = v.countermodel
    assert m.satisfies("E{a,b} p & ~C{a,b} p") and len(m) >= 3


def test_entailment_and_countermodel_premises():
    assert kop.entails(["C{a,b} p"], "K_a K_b p").holds
    v = kop.entails(["K_a p", "K_b q"], "K_a q")
    assert not v.holds
    m = v.countermodel
    assert m.satisfies("K_a p & K_b q & ~K_a q")
    assert kop.entails([], "p | ~p").holds
    assert kop.entails("p & q", "q").holds                    # a single premise as a string


def test_satisfiable_returns_checked_model():
    v = kop.satisfiable("C{a,b}(p, q) & ~C{a,b} q & M_a (p & M_b ~q)")
    assert v.holds
    assert v.model.satisfies("C{a,b}(p, q) & ~C{a,b} q & M_a (p & M_b ~q)")
    assert not kop.satisfiable("C{a,b} p & M_a ~p").holds


def test_methods_agree():
    for f in ["K_a p -> K_b p", "M_a (p & K_b ~q) | K_a q", "K_a (p -> K_b p) -> (K_a p -> K_a K_b p)"]:
        assert kop.valid(f, method="sat").holds == kop.valid(f, method="bdd").holds


def test_verdict_api():
    v = kop.valid("K_a p -> K_b p")
    assert not v and v.question == "valid"
    assert "countermodel" in repr(v)
    doc = v.to_json()
    assert doc["holds"] is False and doc["countermodel"]["actual"] and "time" in doc["stats"]
    assert kop.KripkeModel.from_json(doc["countermodel"]).satisfies("K_a p & ~K_b p")
    s = kop.satisfiable("p & ~p")
    assert not s and s.model is None and s.countermodel is None
