"""Cheryl's birthday: July 16, with 10, 5, 3 and 1 candidates."""

from __future__ import annotations

from kop.puzzles import cheryl


def reference() -> list[set[tuple[str, int]]]:
    """Set arithmetic on the dates, independent of the model checker."""
    dates = set(cheryl.DATES)

    def albert_knows(d, ds):
        return sum(1 for x in ds if x[0] == d[0]) == 1

    def bernard_knows(d, ds):
        return sum(1 for x in ds if x[1] == d[1]) == 1

    s1 = {d for d in dates if not albert_knows(d, dates)
          and all(not bernard_knows(x, dates) for x in dates if x[0] == d[0])}
    s2 = {d for d in s1 if bernard_knows(d, s1)}
    s3 = {d for d in s2 if albert_knows(d, s2)}
    return [dates, s1, s2, s3]


def test_july_16_with_the_standard_counts():
    r = cheryl.solve()
    assert r.birthday == ("July", 16)
    assert r.counts == (10, 5, 3, 1)
    assert set(r.candidates[0]) == {("July", 14), ("July", 16), ("August", 14), ("August", 15), ("August", 17)}
    assert set(r.candidates[1]) == {("July", 16), ("August", 15), ("August", 17)}
    assert r.bernard_did_not_know_at_first


def test_matches_set_arithmetic():
    r = cheryl.solve()
    ref = reference()
    assert list(r.counts) == [len(s) for s in ref]
    assert [set(c) for c in r.candidates] == ref[1:]


def test_statements_hold_at_the_actual_date_in_sequence():
    m = cheryl.model(actual=("July", 16))
    for phi in cheryl.statements():
        assert m.satisfies(phi)
        m = m.announce(phi)
    assert m.satisfies(cheryl.knows_birthday("Albert") & cheryl.knows_birthday("Bernard"))
    # and at another date the first statement is already false
    assert not cheryl.model(actual=("May", 19)).satisfies(cheryl.statements()[0])
