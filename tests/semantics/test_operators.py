"""Each operator of SPEC §2.1 on small hand-made models with known answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from kop import KripkeModel
from kop.semantics.checker import truth_vector
from kop.semantics.reference import naive_truth_set
from kop.syntax.parser import parse

THEORIES = Path(__file__).resolve().parents[2] / "theories"   # wherever pytest runs from


@pytest.fixture
def chain():
    """A line u - v - x - y: a links u,v and x,y; b links v,x.  p everywhere but y; q at u, v."""
    return KripkeModel(
        {"u": ["p", "q"], "v": ["p", "q"], "x": ["p"], "y": []},
        {"a": [["u", "v"], ["x", "y"]], "b": [["u"], ["v", "x"], ["y"]], "c": [["u", "v", "x", "y"]]},
        actual="u",
    )


CASES = [
    # propositional
    ("p", {"u", "v", "x"}),
    ("true", {"u", "v", "x", "y"}),
    ("false", set()),
    ("~p", {"y"}),
    ("p & q", {"u", "v"}),
    ("p & q & ~q", set()),
    ("q | ~p", {"u", "v", "y"}),
    ("q -> p", {"u", "v", "x", "y"}),
    ("p -> q", {"u", "v", "y"}),
    ("p <-> q", {"u", "v", "y"}),
    # individual knowledge
    ("K_a p", {"u", "v"}),
    ("K_b p", {"u", "v", "x"}),
    ("M_a ~p", {"x", "y"}),
    ("M_b q", {"u", "v", "x"}),
    ("Kw_a q", {"u", "v", "x", "y"}),
    ("Kw_b q", {"u", "y"}),
    ("Kw_a p", {"u", "v"}),
    ("K_c p", set()),
    # groups
    ("E{a,b} p", {"u", "v"}),
    ("E{a} p", {"u", "v"}),
    ("D{a,b} p", {"u", "v", "x"}),          # a∩b is the identity
    ("D{a,c} q", {"u", "v"}),
    ("C{a} p", {"u", "v"}),                 # a's component of u is {u, v}
    ("C{a,b} p", set()),                    # the chain reaches y
    ("C{b} q", {"u"}),
    ("C{a,b} (p | ~p)", {"u", "v", "x", "y"}),
    # relativized common knowledge: along p-worlds only
    ("C{a,b}(p, p)", {"u", "v", "x", "y"}),
    ("C{a,b}(p, q)", set()),                # from u through v to x (p, not q)
    ("C{a}(q, q)", {"u", "v", "x", "y"}),   # a-paths through q-worlds stay in q
    ("C{a,b}(q, p)", {"u", "v", "x", "y"}),
    ("C{b}(~q, ~p)", {"u", "y"}),           # from v or x, b reaches x (~q but p); u reaches nothing
    # announcements
    ("[!p] K_a p", {"u", "v", "x", "y"}),   # after !p, x's a-block is {x}
    ("<!p> K_a p", {"u", "v", "x"}),
    ("[!q] C{a,b} q", {"u", "v", "x", "y"}),
    ("[!~q] K_b p", {"u", "v", "x"}),       # after !~q, y is alone and ~p
    ("<!~q> K_a ~p", set()),
    ("[!p & ~K_a p] (p & ~K_a p)", {"u", "v", "y"}),   # the Moore sentence defeats itself
    ("<!p> <!K_b p> K_a p", {"u", "v", "x"}),
    ("[!false] false", {"u", "v", "x", "y"}),
    ("<!false> true", set()),
]


@pytest.mark.parametrize("formula, expected", CASES)
def test_operator(chain, formula, expected):
    phi = parse(formula)
    assert chain.truth_set(phi) == frozenset(expected)
    assert naive_truth_set(chain, phi) == frozenset(expected)


def test_satisfies_at_designated_and_named_worlds(chain):
    assert chain.satisfies("K_a q")
    assert not chain.satisfies("K_b ~p")
    assert chain.satisfies("K_b ~p", world="y")
    multi = chain.with_actual(["u", "x"])
    assert multi.satisfies("p") and not multi.satisfies("q")


def test_memoized_vectors_are_shared(chain):
    phi = parse("K_a p & K_b q")
    first = truth_vector(chain, phi)
    assert truth_vector(chain, parse("K_a p & K_b q")) is first


def test_common_knowledge_of_a_fact_after_announcing_it(chain):
    after = chain.announce("q")
    assert after.worlds == ("u", "v")
    assert after.satisfies("C{a,b,c} q")
    assert chain.satisfies("[!q] C{a,b,c} q")
    # the reduction of [!q]C(p) to relativized common knowledge
    assert chain.truth_set("[!q] C{a,b} p") == chain.truth_set("q -> C{a,b}(q, p)")


def test_muddy_children_three():
    """Three children, a and b muddy: after 'at least one' and one 'nobody knows', a and b know."""
    m = KripkeModel.load(str(THEORIES / "muddy3.model.json"))
    nobody = "~Kw_a m_a & ~Kw_b m_b & ~Kw_c m_c"
    m1 = m.announce("m_a | m_b | m_c")
    assert m1.satisfies(nobody)
    m2 = m1.announce(nobody)
    assert m2.satisfies("K_a m_a & K_b m_b & ~Kw_c m_c")
    m3 = m2.announce("Kw_a m_a & Kw_b m_b")
    assert m3.satisfies("K_c ~m_c")
