"""Every number of SPEC 3.4 (Figure 2 of Sang & Chen) and the SPEC 5 examples (sharing game, 2,2-Nim)."""

from pathlib import Path

import pytest

import kop
from kop.games.strategies.reference import ref_hm0m, ref_mh, ref_minimax, ref_mstar, ref_mstar_algorithm2, ref_play

THEORIES = Path(__file__).resolve().parents[2] / "theories"


@pytest.fixture(scope="module")
def fig2():
    return kop.load_tree(THEORIES / "figure2.json")


def test_figure2_shape(fig2):
    heights = {lab: fig2.node(lab).height for lab in "RSTUVWXYZ"}
    assert heights == {"R": 1, "T": 1, "W": 1, "X": 1, "Y": 1, "Z": 1, "U": 2, "V": 2, "S": 3}
    assert fig2.height == 4 and fig2.root.player == "A" and fig2.node("S").player == "B"


@pytest.mark.parametrize("a, b, outcome, path", [
    ("M0", "M0", (4, 7), ["R", 0]),                 # (1) minimax vs minimax
    ("minimax", "minimax", (4, 7), ["R", 0]),
    ("M1", "M0", (10, 3), ["S", "U", "X", 0]),      # (2)
    ("M1", "M1", (3, 8), ["S", "V", "Y", 0]),       # (3)
    ("M2", "M1", (9, 4), ["T", 0]),                 # (4)
    ("Mh", "Mh", (10, 3), ["S", "U", "X", 0]),      # common knowledge / after the announcement
])
def test_figure2_scenarios(fig2, a, b, outcome, path):
    out = kop.play(fig2, {"A": a, "B": b})
    assert out.value == outcome
    assert out.steps == path
    assert out.leaf.payoff == outcome
    ref = ref_play(fig2, {"A": kop.strategy(fig2, a, "A"), "B": kop.strategy(fig2, b, "B")})
    assert ref == outcome


def test_figure2_strategy_values(fig2):
    assert kop.mh(fig2).value == (10, 3)
    assert [kop.hm0m(fig2, d, "A").value for d in range(5)] == [(4, 7), (9, 4), (9, 4), (10, 3), (10, 3)]
    assert ref_mh(fig2).value == (10, 3)
    assert [ref_hm0m(fig2, d, "A").value for d in range(5)] == [(4, 7), (9, 4), (9, 4), (10, 3), (10, 3)]


def test_figure2_b_minimax_node_values(fig2):
    expected = {"W": (7, 4), "X": (10, 3), "Y": (3, 8), "Z": (2, 2), "U": (7, 4), "V": (3, 8), "S": (7, 4)}
    for s in (kop.minimax(fig2, "B"), kop.mstar(fig2, 0, "B"), ref_minimax(fig2, "B")):
        assert {lab: s.value_at(lab) for lab in expected} == expected


def test_figure2_a_minimax_node_values(fig2):
    for s in (kop.minimax(fig2, "A"), kop.alphabeta(fig2, "A"), ref_minimax(fig2, "A")):
        assert s.value_at("Y") == (1, 9) and s.value_at("Z") == (2, 2) and s.value_at("V") == (2, 2)
        assert s.value_at("R")[0] == 4 and s.value_at("S")[0] <= 2 and s.value_at("T")[0] == 1
        assert s.next().label == "R"


def test_figure2_mstar_reasoning(fig2):
    # (2): A's M^1 expects B's M^0 to go S -> U and A to go U -> X
    m1 = kop.mstar(fig2, 1, "A")
    assert m1.next().label == "S" and m1.next("S").label == "U" and m1.next("U").label == "X"
    # (3): B's M^1 moves S -> V expecting (2,2); A's M^1 answers V -> Y
    assert kop.mstar(fig2, 1, "B").next("S").label == "V"
    assert kop.mstar(fig2, 1, "B").value_at("S") == (2, 2)
    assert m1.next("V").label == "Y"
    # (4): A's M^2 moves to T
    assert kop.mstar(fig2, 2, "A").next().label == "T"
    for d in range(5):
        for who in "AB":
            assert kop.mstar(fig2, d, who).value == ref_mstar(fig2, d, who).value


def test_algorithm2_as_printed_differs(fig2):
    """The erratum of SPEC 3.2: with XOR, Algorithm 2 computes the wrong chain."""
    fixed = ref_mstar_algorithm2(fig2, 1, "A")
    printed = ref_mstar_algorithm2(fig2, 1, "A", printed=True)
    assert fixed.next().label == "S" == ref_mstar(fig2, 1, "A").next().label
    assert printed.next().label == "R"   # A's minimax choice, not M^1's
    assert printed.value != ref_mstar(fig2, 1, "A").value


def test_missed_global_optimum():
    """Theorem 4: M^h finds the global optimum; minimax and M^1, M^2 miss it on this tree."""
    t = kop.load_tree(THEORIES / "missed_optimum.json")
    g = kop.global_optimum(t)
    assert g is not None and g.is_leaf
    assert kop.mh(t).value == g.payoff
    assert kop.play(t, {"A": "Mh", "B": "Mh"}).leaf == g
    for d in range(3):
        assert kop.mstar(t, d, "A").value != g.payoff
    assert kop.minimax(t, "A").value != g.payoff


def test_figure2_has_no_global_optimum(fig2):
    assert kop.global_optimum(fig2) is None


@pytest.mark.parametrize("tie, outcome, path", [
    ("first", (2, 0), ["keep", "yes"]),   # Barb's "yes" breaks her tie after keep
    ("last", (1, 1), ["share", "yes"]),   # her "no" does
])
def test_sharing_game(tie, outcome, path):
    t = kop.load_tree(THEORIES / "sharing.json")
    assert all(p.goal == "max" for p in t.players)
    s = kop.mh(t, tie=tie)
    assert s.value == outcome
    assert [n.step for n in s.path[1:]] == path
    assert ref_mh(t, tie=tie).value == outcome
    assert kop.play(t, {"Andy": "Mh", "Barb": "Mh"}, tie=tie).value == outcome


def test_nim22_minimax_value():
    t = kop.load_tree(THEORIES / "nim22.json")
    assert kop.minimax(t, "MAX").value[0] == -1
    assert kop.alphabeta(t, "MAX").value[0] == -1
    assert ref_minimax(t, "MAX").value[0] == -1
    assert kop.mh(t).value[0] == -1   # zero-sum: M^h is minimax


def test_figure2_efg_copy_is_the_same_tree(fig2):
    assert kop.load_tree(THEORIES / "figure2.efg") == fig2


def test_figure2_has_one_source():
    """Figure 2 is written once, in code (kop.figure2()); the json, efg and theory copies in theories/ equal it."""
    t = kop.figure2()
    assert kop.load_tree(THEORIES / "figure2.json") == t
    assert kop.load_tree(THEORIES / "figure2.efg") == t
    # theories/figure2.kop's inline game: tests/theory/test_language.py::test_inline_figure2_is_the_papers_tree
