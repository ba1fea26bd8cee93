"""The fast checker agrees with the naive reference on random models and formulas."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from profiles import examples

from kop.semantics.reference import naive_truth_set
from tests.semantics.sem_strategies import models_and_formulas


@settings(max_examples=examples(2500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(models_and_formulas())
def test_fast_checker_agrees_with_naive_reference(case):
    """Both fast checkers: truth_set (bit sets on small models) and truth_mask (numpy)."""
    m, phi = case
    naive = naive_truth_set(m, phi)
    assert m.truth_set(phi) == naive, phi
    assert frozenset(w for w, t in zip(m.worlds, m.truth_mask(phi).tolist()) if t) == naive, phi


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(models_and_formulas())
def test_scipy_components_fallback_agrees_with_naive_reference(monkeypatch, case):
    """Force the linear-time fallback used for long chains of worlds (C_G and relativized C_G)."""
    import kop.semantics.checker as checker

    monkeypatch.setattr(checker, "PROPAGATION_ROUNDS", -10_000)
    m, phi = case
    m = m.with_actual(None)  # a fresh model: nothing memoized
    mask = m.truth_mask(phi)  # the numpy checker (truth_set would use bit sets on a small model)
    assert frozenset(w for w, t in zip(m.worlds, mask.tolist()) if t) == naive_truth_set(m, phi), phi


def test_long_shuffled_chain_of_worlds():
    """A chain where label propagation needs many rounds: the fallback finds the one component."""
    import numpy as np

    from kop.semantics.model import KripkeModel

    n = 3000
    perm = np.random.default_rng(0).permutation(n)
    a, b = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    a[perm], b[perm] = np.arange(n) // 2, (np.arange(n) + 1) // 2
    p = np.zeros(n, dtype=bool)
    p[perm[-1]] = True        # p only at the far end of the chain
    m = KripkeModel.from_arrays(n, {"a": a, "b": b}, {"p": p})
    assert m.truth_set("C{a,b} ~p") == frozenset()
    assert m.truth_set("C{a}(~p, ~p)") == frozenset(m.worlds)
    assert m.truth_set("C{a,b}(~p, ~p)") == frozenset(m.worlds)
    assert m.truth_set("C{a,b}(~p, E{a,b} ~p)") == frozenset()   # every ~p-path reaches p's neighbour
