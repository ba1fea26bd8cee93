"""Drinking logicians: "yes" is possible only if all want beer."""

from __future__ import annotations

from itertools import combinations

import pytest

from kop.puzzles import drinking_logicians as dl
from kop.semantics.errors import ModelError


def expected_answers(n: int, thirsty: tuple[int, ...]) -> tuple[str, ...]:
    for i in range(1, n + 1):
        if i not in thirsty:
            return ("I don't know",) * (i - 1) + ("no",)
    return ("I don't know",) * (n - 1) + ("yes",)


@pytest.mark.parametrize("n", range(1, 7))
def test_every_set_of_thirsty_logicians(n):
    for k in range(n + 1):
        for thirsty in combinations(range(1, n + 1), k):
            r = dl.ask(n, thirsty)
            assert r.answers == expected_answers(n, thirsty)
            assert (r.answer == "yes") == (len(thirsty) == n)


@pytest.mark.parametrize("n", range(1, 9))
def test_smcdel_formula_holds_exactly_where_all_want_beer(n):
    m = dl.model(n, thirsty=[])  # designated world irrelevant: ask where the formula holds
    holds = m.truth_set(dl.smcdel_formula(n))
    if n == 1:
        # a lone logician knows at once, so "nobody knows at first" fails
        assert holds == frozenset()
    else:
        assert holds == {"w" + "1" * n}


def test_yes_is_never_said_when_someone_is_not_thirsty():
    # as a validity: if the first n - 1 can truthfully say "I don't know" and the last then
    # knows that all want beer, all want beer; and where all want beer, that is what happens
    from kop.syntax.formula import AnnounceDual, Iff, Know

    for n in range(2, 8):
        phi = dl.everyone_wants_beer(n)
        says_yes = Know(dl.logician(n), phi)
        for i in range(n - 1, 0, -1):
            says_yes = AnnounceDual(dl.does_not_know(i, n), says_yes)
        everywhere = dl.model(n).with_actual(None)
        assert everywhere.satisfies(Iff(says_yes, phi))


def test_bad_input():
    with pytest.raises(ModelError, match="number of logicians"):
        dl.model(0)
    with pytest.raises(ModelError, match="not one of the logicians"):
        dl.ask(3, [5])
