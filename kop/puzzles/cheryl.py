"""Cheryl's birthday (Singapore and Asian Schools Math Olympiad, 2015).

Cheryl gives Albert and Bernard ten candidate dates and then tells Albert the
month and Bernard the day.

1. Albert: "I don't know when Cheryl's birthday is, but I know that Bernard
   doesn't know either."
2. Bernard: "At first I didn't know when Cheryl's birthday is, but I know now."
3. Albert: "Then I also know when Cheryl's birthday is."

The model is built from observations: atoms ``may`` ... ``august`` for the
month and ``d14`` ... ``d19`` for the day; the law allows exactly the ten
dates; Albert observes the month atoms and Bernard the day atoms.  "Agent knows
the birthday" is :func:`~kop.puzzles.common.knows_which` over all atoms.

Bernard's "at first I didn't know" is already implied by Albert's first
statement (Albert knew it), so statement 2 is announced as "Bernard knows";
:func:`solve` checks separately that Bernard did not know at the start.

Example
-------
>>> r = solve()
>>> r.birthday, r.counts
(('July', 16), (10, 5, 3, 1))

Reference: SMCDEL's ``Cheryl`` example (Gattinger); van Ditmarsch, Hartley,
Kooi, Welton & Yeo, *Cheryl's Birthday* (TARK 2017).
"""

from __future__ import annotations

from dataclasses import dataclass

from kop.puzzles.common import knows_which
from kop.semantics.model import KripkeModel
from kop.syntax.formula import Atom, Formula, Know, Not, conj, disj

__all__ = ["DATES", "CherylResult", "model", "knows_birthday", "statements", "solve", "date_of",
           "ALBERT", "BERNARD", "VOCABULARY"]

#: The ten candidate dates, (month, day).
DATES: tuple[tuple[str, int], ...] = (
    ("May", 15), ("May", 16), ("May", 19),
    ("June", 17), ("June", 18),
    ("July", 14), ("July", 16),
    ("August", 14), ("August", 15), ("August", 17),
)

ALBERT, BERNARD = "Albert", "Bernard"
_MONTHS = tuple(dict.fromkeys(m for m, _ in DATES))
_DAYS = tuple(sorted({d for _, d in DATES}))


def _month_atom(month: str) -> str:
    return month.lower()


def _day_atom(day: int) -> str:
    return f"d{day}"


VOCABULARY: tuple[str, ...] = tuple(_month_atom(m) for m in _MONTHS) + tuple(_day_atom(d) for d in _DAYS)


def _date_formula(month: str, day: int) -> Formula:
    """The world of this date: its month and day atoms true, every other atom false."""
    on = {_month_atom(month), _day_atom(day)}
    return conj(Atom(a) if a in on else Not(Atom(a)) for a in VOCABULARY)


def model(actual: tuple[str, int] | None = None) -> KripkeModel:
    """The initial model: ten worlds, Albert sees the month, Bernard the day.

    *actual* is the designated date; None designates every date.
    """
    law = disj(_date_formula(m, d) for m, d in DATES)
    observes = {ALBERT: [_month_atom(m) for m in _MONTHS], BERNARD: [_day_atom(d) for d in _DAYS]}
    act = None if actual is None else [_month_atom(actual[0]), _day_atom(actual[1])]
    return KripkeModel.from_observations(VOCABULARY, law, observes, actual=act)


def knows_birthday(agent: str) -> Formula:
    """*agent* knows Cheryl's birthday."""
    return knows_which(agent, VOCABULARY)


def statements() -> tuple[Formula, Formula, Formula]:
    """The three statements, as formulas announced one after the other."""
    return (
        conj([Not(knows_birthday(ALBERT)), Know(ALBERT, Not(knows_birthday(BERNARD)))]),
        knows_birthday(BERNARD),
        knows_birthday(ALBERT),
    )


def date_of(m: KripkeModel, world: str) -> tuple[str, int]:
    """The (month, day) of a world of the model."""
    val = m.valuation(world)
    for month, day in DATES:
        if _month_atom(month) in val and _day_atom(day) in val:
            return month, day
    raise AssertionError(f"world {world!r} is not a date")  # pragma: no cover


@dataclass(frozen=True)
class CherylResult:
    """Candidate dates left before and after each statement, and the answer.

    Attributes
    ----------
    counts : tuple of int
        Candidates before the first statement and after each statement.
    candidates : tuple of tuple
        The dates left after each statement.
    birthday : (str, int) or None
        The date, if exactly one is left.
    bernard_did_not_know_at_first : bool
        Bernard's "at first I didn't know", checked at every remaining date in
        the initial model.
    """

    counts: tuple[int, ...]
    candidates: tuple[tuple[tuple[str, int], ...], ...]
    birthday: tuple[str, int] | None
    bernard_did_not_know_at_first: bool

    def __repr__(self) -> str:
        return f"CherylResult(birthday={self.birthday}, counts={self.counts})"


def solve() -> CherylResult:
    """Announce the three statements and return the candidates after each."""
    m = model()
    start = m
    counts = [len(m.worlds)]
    left: list[tuple[tuple[str, int], ...]] = []
    for phi in statements():
        m = m.announce(phi)
        counts.append(len(m.worlds))
        left.append(tuple(sorted((date_of(m, w) for w in m.worlds), key=DATES.index)))
    birthday = left[-1][0] if len(left[-1]) == 1 else None
    did_not_know = all(not start.satisfies(knows_birthday(BERNARD), world=w) for w in m.worlds)
    return CherylResult(tuple(counts), tuple(left), birthday, did_not_know)
