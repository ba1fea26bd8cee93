"""Dining cryptographers: the parity reveals whether a cryptographer paid, but not which."""

from __future__ import annotations

from itertools import combinations

import pytest

from kop.puzzles import dining_cryptographers as dc
from kop.semantics.errors import ModelError
from kop.syntax.formula import Common, Not, Or


def coin_sets(pairs):
    for k in range(len(pairs) + 1):
        yield from combinations(pairs, k)


@pytest.mark.parametrize("n, topology", [(3, "complete"), (4, "complete"), (3, "ring"), (4, "ring"), (5, "ring")])
def test_every_dinner(n, topology):
    pairs = dc.coins(n, topology)
    for payer in range(n + 1):
        for heads in coin_sets(pairs):
            r = dc.dine(n, payer, heads, topology)
            # the announced bits, computed by hand
            bits = tuple((int(payer == i) + sum(1 for c in heads if i in c)) % 2 for i in range(1, n + 1))
            assert r.bits == bits
            assert r.someone_at_table_paid == (payer != 0)
            assert r.nsa_common_knowledge
            if payer == 0:
                assert r.knowers_of_payer == tuple(range(1, n + 1))
                assert all(s == () for s in r.suspects.values())
            else:
                assert r.knowers_of_payer == (payer,)
                assert r.suspects == {i: tuple(j for j in range(1, n + 1) if j != i)
                                      for i in range(1, n + 1) if i != payer}


@pytest.mark.parametrize("n, topology", [(3, "complete"), (4, "complete"), (5, "complete"),
                                         (3, "ring"), (6, "ring"), (8, "ring")])
def test_smcdel_check_formula_is_valid(n, topology):
    m = dc.model(n, topology=topology)
    assert m.actual == m.worlds
    assert m.satisfies(dc.smcdel_formula(n, topology))


def test_common_knowledge_of_whether_the_nsa_paid_after_announcing_all_bits():
    n = 4
    m = dc.model(n)
    group = [dc.cryptographer(i) for i in range(1, n + 1)]
    ck = Or(Common(group, dc.paid(0)), Common(group, Not(dc.paid(0))))
    # announcing the true bits, world by world: group worlds by their bit vector
    bitvec = {w: tuple(m.satisfies(dc.reveal(i, n), world=w) for i in range(1, n + 1)) for w in m.worlds}
    for vec in set(bitvec.values()):
        sub = m.restrict([w for w, v in bitvec.items() if v == vec])
        assert sub.satisfies(ck)
        # and the parity tells: odd iff a cryptographer paid
        assert sub.satisfies(Common(group, Not(dc.paid(0))) if sum(vec) % 2 else Common(group, dc.paid(0)))


def test_model_sizes_and_limits():
    assert len(dc.model(3)) == 4 * 2 ** 3
    assert len(dc.model(5, topology="ring")) == 6 * 2 ** 5
    with pytest.raises(ModelError, match="more than the limit"):
        dc.model(8)
    with pytest.raises(ModelError, match="share no coin"):
        dc.model(4, payer=1, heads=[(1, 3)], topology="ring")
    with pytest.raises(ModelError, match="payer"):
        dc.model(3, payer=7)
    with pytest.raises(ModelError, match="topology"):
        dc.model(3, topology="star")
