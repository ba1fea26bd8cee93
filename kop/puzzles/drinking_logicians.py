"""Three (or n) logicians walk into a bar.

The bartender asks "does everyone want beer?".  Each logician knows only
whether they want one.  In turn, each answers "yes", "no" or "I don't know";
every answer is heard by all.  A logician who does not want beer knows the
answer is "no"; one who wants beer does not know, unless everyone before them
said "I don't know" and they are the last.  So "yes" is said only when all
want beer, and then only by the last logician.

The model is built from observations: atom ``b<i>`` says logician ``l<i>``
wants beer; the law is ``true`` (2^n worlds); logician i observes ``b<i>``.
Each answer is the model checker's verdict on ``K_l<i> all``, ``K_l<i> ~all``
at the actual world; "I don't know" is announced as ``~Kw_l<i> all``.
:func:`model` builds it explicitly (n up to 24), :func:`structure` as a
knowledge structure for the symbolic engine (SMCDEL's ``thirstyScene``; n in
the hundreds).

Example
-------
>>> ask(3, thirsty=[1, 2, 3]).answers
("I don't know", "I don't know", 'yes')
>>> ask(3, thirsty=[1, 3]).answers
("I don't know", 'no')
>>> ask(100, thirsty=range(1, 101), symbolic=True).answer
'yes'

Reference: the "Three logicians walk into a bar" cartoon (Spiked Math, 2011);
SMCDEL's ``DrinkLogic`` example, whose check formula is :func:`smcdel_formula`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from kop.semantics.errors import ModelError
from kop.semantics.model import KripkeModel
from kop.semantics.symbolic import KnowledgeStructure
from kop.syntax.formula import TRUE, Announce, Atom, Formula, Know, KnowWhether, Not, conj

__all__ = ["DrinkingResult", "model", "structure", "everyone_wants_beer", "ask", "smcdel_formula",
           "MAX_LOGICIANS", "MAX_SYMBOLIC_LOGICIANS", "logician", "wants_beer", "does_not_know"]

#: The largest number of logicians accepted by the explicit model (2^n worlds).
MAX_LOGICIANS = 24
#: The largest number of logicians accepted by the knowledge structure.
MAX_SYMBOLIC_LOGICIANS = 5000


def logician(i: int) -> str:
    """The agent name of logician *i* (1-based): ``l<i>``."""
    return f"l{i}"


def wants_beer(i: int) -> Atom:
    """The atom "logician *i* wants beer": ``b<i>``."""
    return Atom(f"b{i}")


def _check(n: int, thirsty: Iterable[int] | None, limit: int = MAX_LOGICIANS) -> tuple[int, ...]:
    if not isinstance(n, int) or not 1 <= n <= limit:
        raise ModelError(f"the number of logicians must be an integer from 1 to {limit}, not {n!r}")
    if thirsty is None:
        return tuple(range(1, n + 1))
    out = tuple(sorted(set(thirsty)))
    bad = [i for i in out if not isinstance(i, int) or not 1 <= i <= n]
    if bad:
        raise ModelError(f"thirsty logician {bad[0]!r} is not one of the logicians 1..{n}")
    return out


def model(n: int, thirsty: Iterable[int] | None = None) -> KripkeModel:
    """2^n worlds; the actual one has exactly *thirsty* wanting beer (default: all)."""
    thirsty = _check(n, thirsty)
    vocabulary = [wants_beer(i).name for i in range(1, n + 1)]
    observes = {logician(i): [wants_beer(i).name] for i in range(1, n + 1)}
    return KripkeModel.from_observations(vocabulary, TRUE, observes,
                                         actual=[wants_beer(i).name for i in thirsty], max_worlds=1 << n)


def structure(n: int, thirsty: Iterable[int] | None = None) -> KnowledgeStructure:
    """The same model as a knowledge structure (SMCDEL's ``thirstyScene``): 2^n
    states, never listed; the actual one has exactly *thirsty* wanting beer (default: all)."""
    thirsty = _check(n, thirsty, MAX_SYMBOLIC_LOGICIANS)
    vocabulary = [wants_beer(i).name for i in range(1, n + 1)]
    observes = {logician(i): [wants_beer(i).name] for i in range(1, n + 1)}
    return KnowledgeStructure(vocabulary, TRUE, observes, actual=[wants_beer(i).name for i in thirsty])


@lru_cache(maxsize=32)
def everyone_wants_beer(n: int) -> Formula:
    """``b1 & ... & bn`` (one shared object per n, so formulas built from it stay cheap to compare)."""
    return conj(wants_beer(i) for i in range(1, n + 1))


def does_not_know(i: int, n: int) -> Formula:
    """Logician *i* does not know whether everyone wants beer."""
    return Not(KnowWhether(logician(i), everyone_wants_beer(n)))


def smcdel_formula(n: int) -> Formula:
    """SMCDEL's ``thirstyF n``: nobody knows at first, and after the first n − 1
    say "I don't know", the last knows that everyone wants beer."""
    inner: Formula = Know(logician(n), everyone_wants_beer(n))
    for i in range(n - 1, 0, -1):
        inner = Announce(does_not_know(i, n), inner)
    return conj([*(does_not_know(i, n) for i in range(1, n + 1)), inner])


@dataclass(frozen=True)
class DrinkingResult:
    """The answers given, in turn, until someone says yes or no.

    Attributes
    ----------
    n : int
    thirsty : tuple of int
    answers : tuple of str
        "I don't know", then the final "yes" or "no".
    answer : str
        The final answer, "yes" or "no".
    """

    n: int
    thirsty: tuple[int, ...]
    answers: tuple[str, ...]

    @property
    def answer(self) -> str:
        return self.answers[-1]

    def __repr__(self) -> str:
        return f"DrinkingResult(n={self.n}, thirsty={self.thirsty}, answers={self.answers})"


def ask(n: int, thirsty: Iterable[int] | None = None, *, symbolic: bool = False) -> DrinkingResult:
    """Ask the logicians in turn until one knows the answer.

    With ``symbolic=True`` the questions are put to the knowledge structure
    (:func:`structure`) instead of the explicit model, which allows n up to
    :data:`MAX_SYMBOLIC_LOGICIANS`.
    """
    thirsty = _check(n, thirsty, MAX_SYMBOLIC_LOGICIANS if symbolic else MAX_LOGICIANS)
    m: KripkeModel | KnowledgeStructure = structure(n, thirsty) if symbolic else model(n, thirsty)
    everyone = everyone_wants_beer(n)
    said: list[str] = []
    for i in range(1, n + 1):
        if m.satisfies(Know(logician(i), everyone)):
            said.append("yes")
            break
        if m.satisfies(Know(logician(i), Not(everyone))):
            said.append("no")
            break
        said.append("I don't know")
        m = m.announce(does_not_know(i, n))
    else:  # pragma: no cover - the last logician always knows
        raise AssertionError("no logician knew the answer")
    return DrinkingResult(n, thirsty, tuple(said))
