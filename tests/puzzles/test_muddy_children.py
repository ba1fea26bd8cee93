"""Muddy children: with k muddy, the muddy children first know at question k.

Checked with the model checker (kop.puzzles.muddy_children) for every n ≤ 8
and every k, and against an independent set-arithmetic simulation.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from kop.puzzles import muddy_children as mc
from kop.semantics.errors import ModelError


def reference(n: int, muddy: set[int], father: bool = True) -> tuple[list[int | None], int]:
    """Worlds as bitmasks; child i knows at w iff flipping bit i leaves the worlds."""
    worlds = set(range(1 << n))
    if father:
        worlds.discard(0)
    actual = sum(1 << (i - 1) for i in muddy)
    first: list[int | None] = [None] * n

    def knows(i: int, w: int, ws: set[int]) -> bool:
        return (w ^ (1 << (i - 1))) not in ws

    q = 0
    while True:
        q += 1
        now = [i for i in range(1, n + 1) if knows(i, actual, worlds)]
        for i in now:
            if first[i - 1] is None:
                first[i - 1] = q
        if len(now) == n:
            return first, q
        same = {w for w in worlds if [i for i in range(1, n + 1) if knows(i, w, worlds)] == now}
        if same == worlds:
            return first, q
        worlds = same


def expected_first(n: int, muddy: tuple[int, ...]) -> tuple[int, ...]:
    k = len(muddy)
    return tuple(k if i in muddy else k + 1 for i in range(1, n + 1))


@pytest.mark.parametrize("n", range(1, 9))
def test_every_muddy_set_up_to_eight_children(n):
    """All 2^n - 1 nonempty muddy sets: the muddy know first at question k, the clean at k + 1."""
    for k in range(1, n + 1):
        for muddy in combinations(range(1, n + 1), k):
            r = mc.solve(n, muddy)
            assert r.first_knows == expected_first(n, muddy), muddy
            assert all(r.first_knows[i - 1] == k for i in muddy)
            assert r.questions == (k if k == n else k + 1)


@pytest.mark.parametrize("n", range(1, 9))
def test_matches_set_arithmetic(n):
    rng = random.Random(n)
    for k in range(1, n + 1):
        sets = {tuple(range(1, k + 1)), tuple(range(n - k + 1, n + 1)),
                tuple(sorted(rng.sample(range(1, n + 1), k)))}
        for muddy in sets:
            r = mc.solve(n, muddy)
            assert (list(r.first_knows), r.questions) == reference(n, set(muddy))


def test_worlds_shrink_as_in_the_textbook():
    # after the father, 2^n - 1 worlds; after "nobody knows" j times, the worlds with > j muddy
    from math import comb

    r = mc.solve(6, range(1, 7))
    assert r.worlds[0] == 63
    for j, size in enumerate(r.worlds[1:], 1):
        assert size == sum(comb(6, m) for m in range(j + 1, 7))


def test_nobody_ever_knows_without_the_father():
    for n in range(1, 6):
        for k in range(1, n + 1):
            r = mc.solve(n, range(1, k + 1), father=False)
            assert r.first_knows == (None,) * n
            assert (list(r.first_knows), r.questions) == reference(n, set(range(1, k + 1)), father=False)


def test_the_announcements_are_epistemic_formulas():
    assert str(mc.nobody_knows(2)) == "~Kw_c1 m1 & ~Kw_c2 m2"
    m = mc.model(3, [1, 2]).announce(mc.at_least_one(3))
    assert m.satisfies(mc.nobody_knows(3))
    m = m.announce(mc.nobody_knows(3))
    assert m.satisfies("Kw_c1 m1 & Kw_c2 m2 & ~Kw_c3 m3")


def test_bad_input():
    with pytest.raises(ModelError, match="false"):
        mc.solve(3, [])
    with pytest.raises(ModelError, match="not one of the children"):
        mc.solve(3, [4])
    with pytest.raises(ModelError, match="number of children"):
        mc.model(0)
    with pytest.raises(ModelError, match="number of children"):
        mc.model(mc.MAX_CHILDREN + 1)
