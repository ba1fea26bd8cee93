"""The fast checker agrees with the naive reference on random models and formulas."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from kop.semantics.reference import naive_truth_set
from sem_strategies import models_and_formulas


@settings(max_examples=2500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(models_and_formulas())
def test_fast_checker_agrees_with_naive_reference(case):
    m, phi = case
    assert m.truth_set(phi) == naive_truth_set(m, phi), phi
