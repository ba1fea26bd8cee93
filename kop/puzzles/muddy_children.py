"""The muddy children.

*n* children play outside; some get mud on their foreheads.  Each sees every
forehead but its own.  The father says "at least one of you is muddy" and then
asks, again and again, "do you know whether you are muddy?"; all answer at once
and everyone hears the answers.  With *k* muddy children, the muddy ones first
know at the *k*-th question, after k − 1 rounds of "nobody knows"; the clean
ones know one question later.

The model is built from observations: atom ``m<i>`` says child i is muddy, and
child ``c<i>`` observes every ``m<j>`` with j ≠ i.  Every answer is a formula
evaluated by the model checker, and every round of answers is a public
announcement of that formula.

Example
-------
>>> r = solve(4, muddy=[1, 3])
>>> r.first_knows          # question at which each child first knows
(2, 3, 2, 3)
>>> r.worlds               # worlds left after the father, then after each round of answers
(15, 11, 1)

Reference: Fagin, Halpern, Moses & Vardi, *Reasoning About Knowledge* (1995),
§1.1 and §2.3; SMCDEL's ``MuddyChildren`` example.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from kop.semantics.errors import ModelError
from kop.semantics.model import KripkeModel
from kop.syntax.formula import TRUE, Atom, Formula, KnowWhether, Not, conj, disj

__all__ = ["MuddyChildrenResult", "model", "at_least_one", "knows_own_state", "nobody_knows",
           "answers", "solve", "MAX_CHILDREN", "child", "muddy_atom"]

#: The largest number of children accepted (2^n worlds).
MAX_CHILDREN = 22


def child(i: int) -> str:
    """The agent name of child *i* (1-based): ``c<i>``."""
    return f"c{i}"


@lru_cache(maxsize=1024)
def muddy_atom(i: int) -> Atom:
    """The atom "child *i* is muddy": ``m<i>``."""
    return Atom(f"m{i}")


def _check(n: int, muddy: Iterable[int]) -> tuple[int, ...]:
    if not isinstance(n, int) or not 1 <= n <= MAX_CHILDREN:
        raise ModelError(f"the number of children must be an integer from 1 to {MAX_CHILDREN}, not {n!r}")
    out = tuple(sorted(set(muddy)))
    bad = [i for i in out if not isinstance(i, int) or not 1 <= i <= n]
    if bad:
        raise ModelError(f"muddy child {bad[0]!r} is not one of the children 1..{n}")
    return out


def model(n: int, muddy: Iterable[int] = ()) -> KripkeModel:
    """The initial model: 2^n worlds, the actual one has exactly *muddy* muddy.

    Parameters
    ----------
    n : int
        The number of children, 1 to :data:`MAX_CHILDREN`.
    muddy : iterable of int
        The muddy children, numbered from 1.
    """
    muddy = _check(n, muddy)
    vocabulary = [f"m{i}" for i in range(1, n + 1)]
    observes = {child(i): [a for j, a in enumerate(vocabulary, 1) if j != i] for i in range(1, n + 1)}
    return KripkeModel.from_observations(vocabulary, TRUE, observes, actual=[f"m{i}" for i in muddy])


@lru_cache(maxsize=1024)
def at_least_one(n: int) -> Formula:
    """The father's announcement: ``m1 | ... | mn``."""
    return disj(muddy_atom(i) for i in range(1, n + 1))


@lru_cache(maxsize=1024)
def knows_own_state(i: int) -> Formula:
    """Child *i* knows whether it is muddy: ``Kw_c<i> m<i>``."""
    return KnowWhether(child(i), muddy_atom(i))


@lru_cache(maxsize=1024)
def nobody_knows(n: int) -> Formula:
    """No child knows whether it is muddy."""
    return conj(Not(knows_own_state(i)) for i in range(1, n + 1))


def answers(n: int, knowers: Iterable[int]) -> Formula:
    """The public answers of one round: exactly the children in *knowers* know."""
    knowers = set(knowers)
    return conj(knows_own_state(i) if i in knowers else Not(knows_own_state(i)) for i in range(1, n + 1))


@dataclass(frozen=True)
class MuddyChildrenResult:
    """The outcome of asking the children until all know (or nothing changes).

    Attributes
    ----------
    n : int
    muddy : tuple of int
    first_knows : tuple
        For each child 1..n, the question at which it first knows whether it
        is muddy, or None if it never does.
    questions : int
        The number of questions asked.
    worlds : tuple of int
        Worlds left after the father's announcement (if any), then after each
        round of answers.
    """

    n: int
    muddy: tuple[int, ...]
    first_knows: tuple[int | None, ...]
    questions: int
    worlds: tuple[int, ...]

    def __repr__(self) -> str:
        return (f"MuddyChildrenResult(n={self.n}, muddy={self.muddy}, "
                f"first_knows={self.first_knows}, questions={self.questions})")


def solve(n: int, muddy: Iterable[int], *, father: bool = True) -> MuddyChildrenResult:
    """Ask the children "do you know whether you are muddy?" until everyone knows.

    Parameters
    ----------
    n : int
        The number of children.
    muddy : iterable of int
        The muddy children (1-based).
    father : bool
        Whether the father first announces "at least one of you is muddy".
        It must then be true.  Without it no child ever learns its state:
        every world stays possible.

    Each round, every child's answer ``Kw_c<i> m<i>`` is checked at the actual
    world and the conjunction of the answers is announced.  Asking stops when
    all children know or when an answer round removes no world (nothing more
    can be learnt).
    """
    muddy = _check(n, muddy)
    m = model(n, muddy)
    sizes: list[int] = []
    if father:
        if not muddy:
            raise ModelError("the father's announcement 'at least one of you is muddy' is false "
                             "when no child is muddy")
        m = m.announce(at_least_one(n))
        sizes.append(len(m.worlds))
    first: list[int | None] = [None] * n
    question = 0
    while True:
        question += 1
        knowers = [i for i in range(1, n + 1) if m.satisfies(knows_own_state(i))]
        for i in knowers:
            if first[i - 1] is None:
                first[i - 1] = question
        if len(knowers) == n:
            break
        before = len(m.worlds)
        m = m.announce(answers(n, knowers))
        sizes.append(len(m.worlds))
        if len(m.worlds) == before:
            break
    return MuddyChildrenResult(n, muddy, tuple(first), question, tuple(sizes))
