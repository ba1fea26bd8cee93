"""Freudenthal's sum and product: 2352, 145, 86, 1 pairs; the answer is (4, 13)."""

from __future__ import annotations

from collections import Counter

import pytest

from kop.puzzles import sum_product as sp
from kop.semantics.errors import ModelError


def reference(bound: int) -> list[set[tuple[int, int]]]:
    """Counting pairs per sum and product, independent of the model checker."""
    pairs = set(sp.pairs(bound))

    def p_knows(ps):
        c = Counter(x * y for x, y in ps)
        return {q for q in ps if c[q[0] * q[1]] == 1}

    def s_knows(ps):
        c = Counter(x + y for x, y in ps)
        return {q for q in ps if c[q[0] + q[1]] == 1}

    p0 = p_knows(pairs)
    bad_sums = {x + y for x, y in p0}
    s1 = {q for q in pairs if sum(q) not in bad_sums}
    s2 = p_knows(s1)
    s3 = s_knows(s2)
    return [pairs, s1, s2, s3]


def test_freudenthal_counts_and_answer():
    r = sp.solve()
    assert len(sp.pairs(100)) == 2352
    assert r.counts == (2352, 145, 86, 1)
    assert r.solutions == ((4, 13),)


@pytest.mark.parametrize("bound", [10, 30, 50, 62, 65, 80, 100, 150])
def test_matches_set_arithmetic(bound):
    r = sp.solve(bound)
    ref = reference(bound)
    assert list(r.counts) == [len(s) for s in ref]
    assert set(r.solutions) == ref[-1]


def test_the_first_statement_implies_p_did_not_know():
    m = sp.model()
    first = sp.statements()[0]
    from kop.syntax.formula import Implies, Not

    assert m.satisfies(Implies(first, Not(sp.knows_numbers(sp.P))))


def test_bad_bound():
    with pytest.raises(ModelError):
        sp.model(3)
