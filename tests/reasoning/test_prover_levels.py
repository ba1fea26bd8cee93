"""Levels of knowledge f(P, d), knowing and cores (SPEC §2.5), with the paper's properties (5)-(7)."""

from __future__ import annotations

import math
import random

import pytest

import kop
from kop import chains_fragment, f_level, is_core, knows, level, parse
from kop.syntax.levels import chain

# Figure 2 (SPEC §3.4): the knowledge cores of the four scenarios
SCENARIOS = [
    (f_level("A", "B", 0), f_level("B", "A", 0)),
    (f_level("A", "B", 1), f_level("B", "A", 0)),
    (f_level("A", "B", 1), f_level("B", "A", 1)),
    (f_level("A", "B", 2), f_level("B", "A", 1)),
]


def test_figure_2_levels():
    a_levels = [level(ka, "A", "B") for ka, _ in SCENARIOS]
    b_levels = [level(kb, "B", "A") for _, kb in SCENARIOS]
    assert a_levels == [0, 1, 1, 2]
    assert b_levels == [0, 0, 1, 1]


@pytest.mark.parametrize("d", range(0, 9))
def test_level_of_the_core_f_d_is_d(d):
    assert level(f_level("A", "B", d), "A", "B") == d


def test_infinite_level_under_common_knowledge():
    base = ["K_A E_A", "K_A S_A"]
    assert level(base + ["C{A,B}(E_A & E_B)"], "A", "B") == math.inf
    assert level(base + ["C{A,B} E_A", "C{A,B} E_B"], "A", "B") == math.inf
    # common knowledge of only one evaluation is not enough
    assert level(base + ["C{A,B} E_A"], "A", "B") == 0
    # "after announcing both evaluations they are common knowledge" is valid, and says
    # nothing about the knowledge before the announcement
    assert kop.valid("[!(E_A & E_B)] C{A,B}(E_A & E_B)").holds
    assert level(base + ["[!(E_A & E_B)] C{A,B}(E_A & E_B)", "E_A & E_B"], "A", "B") == 0
    # inconsistent knowledge entails everything
    assert level(["p", "~p"], "A", "B") == math.inf


def test_level_without_f0():
    assert level(["K_A E_B"], "A", "B") == -1
    assert level([], "A", "B") == -1


def test_level_with_richer_knowledge():
    k = ["K_A E_A", "K_A S_A", "K_A C{A,B} E_B", "K_A K_B E_A"]
    assert level(k, "A", "B") == 3             # K_A K_B K_A E_B holds; K_A K_B K_A K_B E_A does not
    assert knows(k, "A", "K_B K_A E_B").holds
    assert not knows(k, "A", "K_B K_A K_B E_A").holds


def test_max_depth_caps_the_search():
    core = f_level("A", "B", 6)
    assert level(core, "A", "B", max_depth=3) == 3
    assert level(core, "A", "B", max_depth=10) == 6
    assert level(["K_A E_A", "K_A S_A", "C{A,B}(E_A & E_B)"], "A", "B", max_depth=2) == math.inf


def test_property_5_levels_are_nested():
    for d in range(1, 8):
        assert set(f_level("A", "B", d - 1)) <= set(f_level("A", "B", d))
        assert set(f_level("B", "A", d - 1)) <= set(f_level("B", "A", d))
    # semantically: every f(A, d') with d' <= level follows, f(A, level + 1) does not
    k = f_level("A", "B", 3)
    for d in range(0, 4):
        assert all(kop.entails(k, f).holds for f in f_level("A", "B", d))
    assert not all(kop.entails(k, f).holds for f in f_level("A", "B", 4))


def _random_knowledge(rng: random.Random):
    """Knowledge with the paper's assumption (c) for both players plus random chains and facts."""
    k = ["K_A E_A", "K_A S_A", "K_B E_B", "K_B S_B"]
    for _ in range(rng.randint(0, 4)):
        kind = rng.random()
        P, Q = rng.choice([("A", "B"), ("B", "A")])
        if kind < 0.6:
            k.append(chain(P, Q, rng.randint(1, 5)))
        elif kind < 0.8:
            k.append(parse(f"K_{P} (E_{Q} | K_{Q} E_{P})"))
        else:
            k.append(parse(f"C{{A,B}} E_{rng.choice('AB')}"))
    return k


def test_property_6_over_random_knowledge():
    rng = random.Random(6)
    checked = 0
    for _ in range(40):
        k = _random_knowledge(rng)
        la, lb = level(k, "A", "B"), level(k, "B", "A")
        if la >= 1:
            assert lb >= la - 1, (k, la, lb)
            checked += 1
        if lb >= 1:
            assert la >= lb - 1, (k, la, lb)
    assert checked > 5


@pytest.mark.parametrize("d", range(1, 6))
def test_property_7_cores(d):
    atoms = ["E_A", "E_B", "S_A"]
    fragment = chains_fragment("A", "B", atoms, d)
    knowledge = f_level("A", "B", d)
    assert is_core(f_level("A", "B", d), knowledge, "A", fragment)
    verdict = is_core(f_level("A", "B", d - 1), knowledge, "A", fragment)
    assert not verdict
    assert chain("A", "B", d) in verdict.missing


def test_is_core_reports_unsupported_formulas():
    v = is_core(["K_A E_B"], ["K_A E_A"], "A", chains_fragment("A", "B", ["E_A"], 1))
    assert not v and v.unsupported == (parse("K_A E_B"),)


def test_a_different_core_of_the_same_knowledge():
    # C{A,B}(E_A & E_B) with f(A,0) is a core of what f(A,3) plus common knowledge gives
    knowledge = ["K_A E_A", "K_A S_A", "C{A,B}(E_A & E_B)"]
    fragment = chains_fragment("A", "B", ["E_A", "E_B", "S_A"], 4)
    assert is_core(knowledge, knowledge, "A", fragment)
    assert not is_core(f_level("A", "B", 3), knowledge, "A", fragment)


def test_chains_fragment():
    frag = chains_fragment("A", "B", ["E_A", "E_B"], 2)
    assert [str(f) for f in frag] == ["K_A E_A", "K_A E_B", "K_A K_B E_A", "K_A K_B E_B"]
    assert set(f_level("A", "B", 2)) - {parse("K_A S_A")} <= set(frag)
    with pytest.raises(ValueError):
        chains_fragment("A", "B", ["E_A"], 0)


def test_knows():
    v = knows(["K_A K_B E_A"], "A", "K_B E_A")
    assert v.holds
    v = knows(["K_A p"], "B", "p")
    assert not v.holds and v.countermodel.satisfies("K_A p & ~K_B p")
