"""The pure-Python bit-set checker gives the numpy checker's answers, on every kind of model.

Models built from names keep bit sets and make numpy arrays on demand; models
made by updates keep arrays and make bit sets on demand.  Both directions are
drawn here, and the two checkers must agree world by world.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

from kop.semantics.bitset_checker import SMALL_MODEL, truth_bits
from kop.semantics.checker import truth_vector
from kop.semantics.model import KripkeModel
from kop.semantics.reference import naive_truth_set
from kop.syntax.parser import parse
from tests.semantics.sem_strategies import formulas_for, models

SETTINGS = settings(max_examples=examples(1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _as_set(m: KripkeModel, bits: int) -> frozenset[str]:
    return frozenset(w for i, w in enumerate(m.worlds) if bits >> i & 1)


def _numpy_set(m: KripkeModel, phi) -> frozenset[str]:
    return frozenset(w for w, t in zip(m.worlds, truth_vector(m, phi).tolist()) if t)


@st.composite
def cases(draw):
    m = draw(models(max_worlds=10))
    return m, draw(formulas_for(m.agents, 12))


@SETTINGS
@given(cases())
def test_bits_agree_with_numpy_on_models_built_from_names(case):
    m, phi = case
    assert m._arrays is None  # built from names: bit sets only, until an array is asked for
    bits = truth_bits(m, phi)
    assert _as_set(m, bits) == _numpy_set(m, phi), phi
    assert 0 <= bits < 1 << len(m)


@SETTINGS
@given(cases(), st.data())
def test_bits_agree_with_numpy_on_updated_models(case, data):
    """Restrictions by a numpy mask and array-built models hold numpy arrays; their bit sets are derived."""
    m, phi = case
    ann = data.draw(formulas_for(m.agents, 4))
    after = m._restrict(m.truth_mask(ann), None)
    assert after._bits is None
    assert _as_set(after, truth_bits(after, phi)) == _numpy_set(after, phi), (ann, phi)
    arrays = KripkeModel.from_arrays(m.worlds, {a: m.block_ids(a) for a in m.agents},
                                     {p: m.truth_mask(p) for p in sorted(m.atoms)}, actual=m.actual)
    assert arrays == m
    assert _as_set(arrays, truth_bits(arrays, phi)) == _numpy_set(m, phi)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_public_answers_agree_through_both_representations(case):
    """satisfies / truth_set / the JSON form are the same whichever representation answers."""
    m, phi = case
    fresh = KripkeModel.from_json(m.to_json())
    arrays = KripkeModel._raw(m.worlds, m.agents, m._blocks, m._nblocks, m._atoms, m._actual)
    assert fresh.to_json() == arrays.to_json() == m.to_json()
    assert fresh.truth_set(phi) == arrays.truth_set(phi) == naive_truth_set(m, phi)
    assert fresh.satisfies(phi) == arrays.satisfies(phi)
    for w in m.worlds:
        assert fresh.valuation(w) == arrays.valuation(w)
        for a in m.agents:
            assert fresh.block(a, w) == arrays.block(a, w)
    assert all(fresh.partition(a) == arrays.partition(a) for a in m.agents)


def test_models_past_the_threshold_use_numpy_and_agree():
    rng = np.random.default_rng(7)
    n = SMALL_MODEL + 50
    names = [f"w{i}" for i in range(n)]
    worlds = {w: (["p"] if rng.random() < 0.5 else []) for w in names}
    parts = {a: {w: int(rng.integers(0, n // 4)) for w in names} for a in "ab"}
    m = KripkeModel(worlds, parts, actual="w0")
    for text in ["K_a p", "C{a,b}(p, M_b p)", "[!M_a p] Kw_b p", "D{a,b} p | E{a,b} ~p"]:
        phi = parse(text)
        assert m.truth_set(phi) == _as_set(m, truth_bits(m, phi)) == _numpy_set(m, phi)
        assert m.satisfies(phi) == bool(truth_bits(m, phi) & 1)


def test_unknown_agent_is_the_same_error_on_both_paths():
    from kop.semantics.errors import ModelError

    m = KripkeModel({"w0": ["p"]}, {"a": [["w0"]]})
    for check in (lambda phi: truth_bits(m, phi), lambda phi: truth_vector(m, phi)):
        with pytest.raises(ModelError, match="names agent 'z' that the model does not have"):
            check(parse("[!p] K_z p"))


def test_empty_model_and_empty_domain():
    m = KripkeModel({"w0": ["p"], "w1": []}, {"a": [["w0", "w1"]]}, "w0")
    assert truth_bits(m, parse("[!false] K_a q")) == 0b11
    assert truth_bits(m, parse("<!false> true")) == 0
    empty = m.announce("p & ~p")
    assert empty.is_empty and empty.truth_set("K_a p") == frozenset()


@settings(max_examples=examples(800), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(), st.data())
def test_announcement_on_bit_sets_is_the_numpy_restriction(case, data):
    """A small model announces without numpy; the result (worlds, partitions, valuation, designated
    worlds, note) is the one the numpy restriction gives, and answers the same questions."""
    m, phi = case
    ann = data.draw(formulas_for(m.agents, 6))
    small = m.announce(ann)
    assert small._arrays is None
    arrays = KripkeModel._raw(m.worlds, m.agents, m._blocks, m._nblocks, m._atoms, m._actual)
    mask = arrays.truth_mask(ann)
    big = arrays._restrict(mask, small.note)
    assert small == big and small.to_json() == big.to_json() and small.actual == big.actual
    assert (small.note is None) == (bool(mask.any()) and bool(mask[m._actual].any()))
    assert small.truth_set(phi) == big.truth_set(phi) == _numpy_set(big, phi)
    again = small.announce(phi)  # announcing on the result, both ways
    assert again == big._restrict(big.truth_mask(phi), again.note)
