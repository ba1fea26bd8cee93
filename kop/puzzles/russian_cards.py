"""The Russian cards problem (Moscow Math Olympiad 2000; van Ditmarsch 2003).

Seven cards 0..6 are dealt: three to Alice, three to Bob, one to Cath (the
actual deal is 012|345|6).  Alice and Bob want to learn each other's cards by
public announcements without Cath learning any card's owner.  Alice announces
a set of hands ("my hand is one of these"), then Bob announces Cath's card.

The model is built from observations: atom ``a<k>`` (``b<k>``, ``c<k>``) says
Alice (Bob, Cath) holds card k; the law says every card has exactly one owner
and the hands have sizes 3, 3 and 1 (140 deals); each player observes its own
atoms.

:func:`solve` enumerates Alice's candidate announcements as SMCDEL does: every
set of 5, 6 or 7 three-card hands in which no two hands share two cards (1290
sets, 192 of them containing 012).  An announcement is *safe* when all of
these hold at the actual deal (SMCDEL's ``checkSet``):

1. Alice's announcement is true: ``K_Alice (one of the hands)``;
2. after it, Bob knows Alice's hand;
3. after it, that is common knowledge of Alice and Bob;
4. after it, it is common knowledge of all three that Cath knows no card's
   owner: for no card k does Cath know ``a<k>`` or know ``b<k>``;
5. after it and Bob's "Cath holds card 6" (``K_Bob c6``), it is common
   knowledge of Alice and Bob that each knows the other's hand;
6. after both announcements, it is common knowledge of all three that Cath
   knows no card's owner.

Example
-------
>>> r = solve()
>>> r.candidates, r.with_actual_hand, len(r.safe), r.safe_by_size
(1290, 192, 102, {5: 60, 6: 36, 7: 6})

Reference: van Ditmarsch, *The Russian cards problem*, Studia Logica 75
(2003); SMCDEL's ``RussianCards`` example.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

from kop.semantics.model import KripkeModel
from kop.syntax.formula import Announce, Atom, Common, Formula, Know, KnowWhether, Not, conj, disj

__all__ = ["RussianCardsResult", "model", "hand_lists", "alice_says", "bob_says", "conditions",
           "is_safe", "solve", "ALICE", "BOB", "CATH", "DEAL", "has", "knows_hand", "cath_ignorant"]

ALICE, BOB, CATH = "Alice", "Bob", "Cath"
PLAYERS = (ALICE, BOB, CATH)
CARDS = tuple(range(7))
#: The actual deal: Alice, Bob, Cath.
DEAL = ((0, 1, 2), (3, 4, 5), (6,))
_PREFIX = {ALICE: "a", BOB: "b", CATH: "c"}

Hand = tuple[int, ...]


@lru_cache(maxsize=None)
def has(player: str, card: int) -> Atom:
    """The atom "*player* holds *card*"."""
    return Atom(f"{_PREFIX[player]}{card}")


def _exactly(atoms: Sequence[Atom], k: int) -> Formula:
    return disj(conj(a if i in chosen else Not(a) for i, a in enumerate(atoms))
                for chosen in map(set, combinations(range(len(atoms)), k)))


def model() -> KripkeModel:
    """The 140 deals of 3, 3 and 1 cards; the actual deal is 012|345|6."""
    vocabulary = [has(p, k).name for p in PLAYERS for k in CARDS]
    one_owner = conj(_exactly([has(p, k) for p in PLAYERS], 1) for k in CARDS)
    sizes = conj(_exactly([has(p, k) for k in CARDS], n) for p, n in zip(PLAYERS, (3, 3, 1)))
    observes = {p: [has(p, k).name for k in CARDS] for p in PLAYERS}
    actual = [has(p, k).name for p, hand in zip(PLAYERS, DEAL) for k in hand]
    return KripkeModel.from_observations(vocabulary, conj([one_owner, sizes]), observes, actual=actual)


def hand_lists(sizes: Iterable[int] = (5, 6, 7)) -> list[tuple[Hand, ...]]:
    """Every set of *sizes* three-card hands in which no two hands share two cards.

    Hands and sets are sorted; the order is SMCDEL's (by size, then
    lexicographic).
    """
    hands: list[Hand] = list(combinations(CARDS, 3))

    def pick(unused: list[Hand], n: int) -> list[tuple[Hand, ...]]:
        if n == 0:
            return [()]
        out: list[tuple[Hand, ...]] = []
        for i, h in enumerate(unused):
            rest = [x for x in unused[i + 1:] if len(set(h) & set(x)) < 2]
            out.extend((h, *tail) for tail in pick(rest, n - 1))
        return out

    return [hs for n in sizes for hs in pick(hands, n)]


@lru_cache(maxsize=None)
def holds_hand(player: str, hand: Hand) -> Formula:
    """*player* holds every card of *hand*."""
    return conj(has(player, k) for k in hand)


def alice_says(hands: Iterable[Hand]) -> Formula:
    """Alice's announcement "my hand is one of *hands*": ``K_Alice (h1 | h2 | ...)``."""
    return Know(ALICE, disj(holds_hand(ALICE, tuple(h)) for h in hands))


@lru_cache(maxsize=None)
def bob_says() -> Formula:
    """Bob's announcement "Cath holds card 6": ``K_Bob c6``."""
    return Know(BOB, has(CATH, 6))


@lru_cache(maxsize=None)
def knows_hand(knower: str, owner: str) -> Formula:
    """*knower* knows which cards *owner* holds."""
    return conj(KnowWhether(knower, has(owner, k)) for k in CARDS)


@lru_cache(maxsize=None)
def cath_ignorant() -> Formula:
    """Cath knows the owner of no card: no ``K_Cath a<k>`` and no ``K_Cath b<k>``."""
    return conj(Not(Know(CATH, has(p, k))) for k in CARDS for p in (ALICE, BOB))


@lru_cache(maxsize=None)
def _goals() -> tuple[Formula, ...]:
    """What must hold after Alice's announcement (conditions 2 to 6, without the announcement)."""
    b, ab, abc = bob_says(), (ALICE, BOB), PLAYERS
    b_knows_a = knows_hand(BOB, ALICE)
    both_know = conj([knows_hand(ALICE, BOB), b_knows_a])
    return (
        b_knows_a,
        Common(ab, b_knows_a),
        Common(abc, cath_ignorant()),
        Announce(b, Common(ab, both_know)),
        Announce(b, Common(abc, cath_ignorant())),
    )


def conditions(hands: Iterable[Hand]) -> tuple[Formula, ...]:
    """The six safety conditions of the module docstring, for Alice announcing *hands*."""
    a = alice_says(hands)
    return (a, *(Announce(a, goal) for goal in _goals()))


def is_safe(hands: Iterable[Hand], m: KripkeModel | None = None) -> bool:
    """Whether all six conditions hold at the actual deal (checked in order, stopping at a failure)."""
    m = model() if m is None else m
    a = alice_says(tuple(hands))
    return m.satisfies(a) and all(m.satisfies(Announce(a, goal)) for goal in _goals())


@dataclass(frozen=True)
class RussianCardsResult:
    """The outcome of filtering Alice's candidate announcements.

    Attributes
    ----------
    candidates : int
        Sets of 5 to 7 hands, no two sharing two cards.
    with_actual_hand : int
        Those containing Alice's hand 012 (the others are false, so unsafe).
    safe : tuple
        The safe announcements, each a tuple of hands.
    safe_by_size : dict
        Number of hands -> number of safe announcements of that size.
    """

    candidates: int
    with_actual_hand: int
    safe: tuple[tuple[Hand, ...], ...] = field(repr=False)
    safe_by_size: dict[int, int]

    def __repr__(self) -> str:
        return (f"RussianCardsResult(candidates={self.candidates}, with_actual_hand={self.with_actual_hand}, "
                f"safe={len(self.safe)}, safe_by_size={self.safe_by_size})")


def solve(sizes: Iterable[int] = (5, 6, 7)) -> RussianCardsResult:
    """Check every candidate announcement of Alice and keep the safe ones."""
    m = model()
    lists = hand_lists(sizes)
    safe = tuple(hs for hs in lists if is_safe(hs, m))
    by_size: dict[int, int] = {}
    for hs in safe:
        by_size[len(hs)] = by_size.get(len(hs), 0) + 1
    with_actual = sum(1 for hs in lists if DEAL[0] in hs)
    return RussianCardsResult(len(lists), with_actual, safe, by_size)
