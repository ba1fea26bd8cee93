"""Bisimulation contraction, bisimilarity and generated submodels."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from profiles import examples

from kop import KripkeModel, ModelError, bisimilar, bisimulation_classes
from kop.semantics.reference import naive_bisimulation
from tests.semantics.sem_strategies import models, models_and_formulas

THEORIES = Path(__file__).resolve().parents[2] / "theories"   # wherever pytest runs from

FAST = settings(max_examples=examples(500), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(models())
def test_classes_are_the_largest_bisimulation(m):
    cls = bisimulation_classes(m).tolist()
    pairs = naive_bisimulation(m)
    for i, u in enumerate(m.worlds):
        for j, v in enumerate(m.worlds):
            assert (cls[i] == cls[j]) == ((u, v) in pairs), (u, v)


@FAST
@given(models_and_formulas(max_leaves=10))
def test_minimize_preserves_truth(case):
    m, phi = case
    small = m.minimize()
    assert len(small) <= len(m)
    cls = bisimulation_classes(m).tolist()
    truth_small = small.truth_mask(phi).tolist()
    truth = m.truth_mask(phi).tolist()
    for i in range(len(m)):
        assert truth[i] == truth_small[cls[i]]
    assert m.satisfies(phi) == small.satisfies(phi)
    assert bisimilar(m, small)
    assert len(small.minimize()) == len(small)


@FAST
@given(models_and_formulas(max_leaves=10))
def test_generated_submodel_preserves_truth_at_designated_worlds(case):
    m, phi = case
    g = m.generated_submodel()
    assert set(g.actual) == set(m.actual)
    assert g.satisfies(phi) == m.satisfies(phi)
    assert all(g.satisfies(phi, w) == m.satisfies(phi, w) for w in g.worlds)
    assert bisimilar(m, g)


def test_minimize_muddy_children_after_learning():
    m = KripkeModel.load(str(THEORIES / "muddy3.model.json"))
    after = m.announce("m_a | m_b | m_c").announce("~Kw_a m_a & ~Kw_b m_b & ~Kw_c m_c")
    # distinct valuations: nothing to contract
    assert len(after.minimize()) == len(after)


def test_contraction_merges_copies():
    # two copies of the same two-world model, with different names
    m = KripkeModel({"u1": ["p"], "v1": [], "u2": ["p"], "v2": []},
                    {"a": [["u1", "v1"], ["u2", "v2"]], "b": [["u1"], ["v1"], ["u2"], ["v2"]]}, actual=["u1", "u2"])
    small = m.minimize()
    assert small.worlds == ("u1", "v1") and small.actual == ("u1",)
    assert small.partition("a") == (("u1", "v1"),)
    assert small.partition("b") == (("u1",), ("v1",))


def test_bisimilar_pointed():
    one = KripkeModel({"u": ["p"], "v": []}, {"a": [["u", "v"]]}, "u")
    two = KripkeModel({"x": ["p"], "y": [], "z": []}, {"a": [["x", "y", "z"]]}, "x")
    other = KripkeModel({"x": ["p"], "y": []}, {"a": [["x"], ["y"]]}, "x")
    assert bisimilar(one, two)
    assert not bisimilar(one, other)
    assert bisimilar(one, two, "v", "y")
    assert not bisimilar(one, other, "v", "y")
    assert not bisimilar(one, two.with_actual("y"))
    assert not bisimilar(one, two, "u", "y")
    with pytest.raises(ModelError, match="different agents"):
        bisimilar(one, KripkeModel(["u"], {"b": [["u"]]}))
    with pytest.raises(ModelError, match="unknown world 'q'"):
        bisimilar(one, two, "q", "x")


def test_generated_submodel_drops_unreachable_worlds():
    m = KripkeModel({"u": ["p"], "v": [], "x": ["p"]}, {"a": [["u", "v"], ["x"]], "b": [["u"], ["v"], ["x"]]}, "u")
    g = m.generated_submodel()
    assert g.worlds == ("u", "v")
    assert KripkeModel(["u", "v"], {}, actual="v").generated_submodel().worlds == ("v",)


def test_minimize_empty_model():
    empty = KripkeModel({"u": ["p"]}, {"a": [["u"]]}).announce("~p")
    assert empty.minimize().is_empty and empty.generated_submodel().is_empty


@FAST
@given(models())
def test_paige_tarjan_agrees_with_the_naive_bisimulation(m):
    from kop.semantics.bisimulation import _paige_tarjan_worlds, _valuation_classes

    start = _valuation_classes(m, sorted(m.atoms))
    cls = _paige_tarjan_worlds(start, [m.block_ids(a) for a in m.agents]).tolist()
    pairs = naive_bisimulation(m)
    for i, u in enumerate(m.worlds):
        for j, v in enumerate(m.worlds):
            assert (cls[i] == cls[j]) == ((u, v) in pairs), (u, v)


def test_long_chain_is_contracted_quickly():
    """A chain of worlds linked alternately by a and b, p at one end: no two worlds are bisimilar
    (each world's distance to p shows), and the chain folds in half when p is at both ends."""
    import numpy as np

    n = 3000
    a, b = np.arange(n) // 2, (np.arange(n) + 1) // 2
    p = np.zeros(n, dtype=bool)
    p[-1] = True
    chain = KripkeModel.from_arrays(n, {"a": a, "b": b}, {"p": p})
    assert len(chain.minimize()) == n
    p2 = p.copy()
    p2[0] = True
    # a(0,1) b(1,2) ... b(n-3,n-2) a(n-2,n-1) for even n: the chain reads the same from both ends
    sym = KripkeModel.from_arrays(n, {"a": a, "b": b}, {"p": p2})
    assert len(sym.minimize()) == n // 2
    assert bisimilar(sym, sym.minimize())
