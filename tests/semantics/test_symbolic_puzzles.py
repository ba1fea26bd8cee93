"""Known answers of the classic puzzles on the symbolic engine, far past the explicit engine's sizes."""

from __future__ import annotations

from itertools import combinations

import pytest

from kop.puzzles import dining_cryptographers as dc
from kop.puzzles import drinking_logicians as dl
from kop.puzzles import muddy_children as mc
from kop.semantics.errors import ModelError
from kop.semantics.symbolic import KnowledgeStructure
from kop.syntax.formula import TRUE, Common, Know, Not, Or, Possible


# -- muddy children ---------------------------------------------------------------------

def muddy_structure(n, muddy):
    vocab = [mc.muddy_atom(i).name for i in range(1, n + 1)]
    observes = {mc.child(i): [p for j, p in enumerate(vocab, 1) if j != i] for i in range(1, n + 1)}
    return KnowledgeStructure(vocab, TRUE, observes, actual=[mc.muddy_atom(i).name for i in muddy])


def muddy_symbolic(n, muddy):
    """``muddy_children.solve`` on a knowledge structure: first question each child knows, states left."""
    ks = muddy_structure(n, muddy).announce(mc.at_least_one(n))
    first, sizes, question = [None] * n, [ks.count()], 0
    while True:
        question += 1
        knowers = [i for i in range(1, n + 1) if ks.satisfies(mc.knows_own_state(i))]
        for i in knowers:
            if first[i - 1] is None:
                first[i - 1] = question
        if len(knowers) == n:
            break
        before = ks.count()
        ks = ks.announce(mc.answers(n, knowers))
        sizes.append(ks.count())
        if sizes[-1] == before:
            break
    return tuple(first), tuple(sizes)


@pytest.mark.parametrize("n", range(1, 7))
def test_muddy_children_symbolic_matches_explicit_for_every_muddy_set(n):
    for k in range(1, n + 1):
        for muddy in combinations(range(1, n + 1), k):
            explicit = mc.solve(n, muddy)
            assert muddy_symbolic(n, muddy) == (explicit.first_knows, explicit.worlds)


@pytest.mark.parametrize("n, k", [(10, 1), (10, 10), (14, 5), (20, 1), (20, 7), (20, 20), (40, 40)])
def test_muddy_children_know_at_question_k(n, k):
    muddy = range(1, k + 1)
    first, sizes = muddy_symbolic(n, muddy)
    assert first == tuple(k if i <= k else k + 1 for i in range(1, n + 1))
    assert sizes[0] == 2 ** n - 1
    # after r rounds of "nobody knows", the states with at least r + 1 muddy children remain
    for r in range(1, k):
        assert sizes[r] == sum(_binom(n, j) for j in range(r + 1, n + 1))


def _binom(n, k):
    from math import comb

    return comb(n, k)


# -- drinking logicians ------------------------------------------------------------------

def test_drinking_logicians_400_yes_only_if_all_thirsty():
    n = 400
    ks = dl.structure(n)
    phi = dl.smcdel_formula(n)
    assert ks.satisfies(phi)                       # SMCDEL's thirstyCheck
    assert ks.count(phi) == 1                      # nowhere else: "yes" only if all want beer
    everyone = frozenset(f"b{i}" for i in range(1, n + 1))
    assert list(ks.states(phi)) == [everyone]
    assert not ks.satisfies(phi, everyone - {"b400"})
    assert not ks.satisfies(phi, everyone - {"b1"})
    assert ks.count() == 2 ** 400


@pytest.mark.parametrize("n", range(1, 6))
def test_drinking_logicians_symbolic_answers_match_explicit(n):
    for k in range(n + 1):
        for thirsty in combinations(range(1, n + 1), k):
            assert dl.ask(n, thirsty, symbolic=True) == dl.ask(n, thirsty)


def test_drinking_logicians_symbolic_answers_at_400():
    n = 400
    assert dl.ask(n, symbolic=True).answers == ("I don't know",) * (n - 1) + ("yes",)
    r = dl.ask(n, [i for i in range(1, n + 1) if i != 123], symbolic=True)
    assert r.answers == ("I don't know",) * 122 + ("no",)
    with pytest.raises(ModelError, match="number of logicians"):
        dl.structure(dl.MAX_SYMBOLIC_LOGICIANS + 1)


# -- dining cryptographers -------------------------------------------------------------------

def test_dining_cryptographers_90_smcdel_benchmark_formula_is_valid():
    ks = dc.structure(90)
    assert len(ks.vocabulary) == 91 + 90 * 89 // 2
    assert ks.count() == 91 * 2 ** (90 * 89 // 2)
    assert ks.valid(dc.smcdel_benchmark_formula(90))
    # and the formula says something: without the announcement, cryptographer 1 knows nothing of the kind
    body = dc.smcdel_benchmark_formula(90).args[0].arg
    assert not ks.valid(body)


@pytest.mark.parametrize("n, topology", [(3, "complete"), (4, "complete"), (5, "complete"), (8, "complete"),
                                         (3, "ring"), (8, "ring"), (30, "ring")])
def test_dining_cryptographers_announcement_by_announcement_is_valid(n, topology):
    """SMCDEL's ``genDcCheckForm``: n nested announcements of whether each xor holds."""
    assert dc.structure(n, topology=topology).valid(dc.smcdel_formula(n, topology))


@pytest.mark.parametrize("n, topology", [(3, "complete"), (4, "complete"), (4, "ring"), (5, "ring")])
def test_dining_cryptographers_symbolic_matches_explicit(n, topology):
    ks, m = dc.structure(n, topology=topology), dc.model(n, topology=topology)
    group = [dc.cryptographer(i) for i in range(1, n + 1)]
    formulas = [dc.smcdel_formula(n, topology), dc.smcdel_benchmark_formula(n, topology),
                Know("c1", dc.paid(2)), Possible("c2", dc.paid(1)), Or(Common(group, dc.paid(0)), dc.paid(1)),
                dc.everyone_knows_whether_nsa_paid(n), dc.nobody_knows_who_paid(n)]
    for phi in formulas:
        assert ks.count(phi) == len(m.truth_set(phi)), phi
    if topology == "complete":  # the ring's structure orders its vocabulary differently
        assert ks.to_kripke() == m
    else:  # the same worlds under other names: compare by valuation
        k = ks.to_kripke()
        for phi in formulas:
            assert {k.valuation(w) for w in k.truth_set(phi)} == {m.valuation(w) for w in m.truth_set(phi)}


def test_dining_cryptographers_what_the_bits_reveal():
    n = 12
    ks = dc.structure(n, payer=5, heads=[(1, 5), (5, 9), (2, 3)])
    for i in range(1, n + 1):
        r = dc.reveal(i, n)
        ks = ks.announce(r if ks.satisfies(r) else Not(r))
    group = [dc.cryptographer(i) for i in range(1, n + 1)]
    assert ks.satisfies(Common(group, Not(dc.paid(0))))          # everyone knows a cryptographer paid
    assert ks.satisfies(Know("c5", dc.paid(5)))
    for i in range(1, n + 1):
        if i != 5:
            assert not ks.satisfies(Know(dc.cryptographer(i), dc.paid(5)))
            assert all(ks.satisfies(Possible(dc.cryptographer(i), dc.paid(j))) for j in range(1, n + 1) if j != i)


def test_dining_cryptographers_structure_limits():
    with pytest.raises(ModelError, match="at most"):
        dc.structure(dc.MAX_SYMBOLIC_CRYPTOGRAPHERS + 1)
    with pytest.raises(ModelError, match="share no coin"):
        dc.structure(4, payer=1, heads=[(1, 3)], topology="ring")
