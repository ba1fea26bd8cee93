"""Freudenthal's sum and product (1969).

Two integers x and y with 1 < x < y and x + y ≤ 100 are chosen.  S is told
the sum, P the product.

1. S: "I know that you don't know the numbers."  (Freudenthal's "P: I don't
   know; S: I knew you didn't", which the first part implies.)
2. P: "Now I know them."
3. S: "Now I know them too."

The unique solution is (4, 13).

The worlds are the pairs; atoms ``x0..x6`` and ``y0..y6`` hold the binary
digits of x and y, so "agent knows the numbers" is
:func:`~kop.puzzles.common.knows_which` over these fourteen atoms (SMCDEL uses
the same encoding).  S's partition groups the pairs by sum, P's by product.
The model is built directly from these partitions rather than from a law over
sum and product digits, which would be a disjunction of thousands of cubes.

Example
-------
>>> r = solve()
>>> r.counts, r.solutions
((2352, 145, 86, 1), ((4, 13),))

Reference: van Ditmarsch, Ruan & Verbrugge, *Sum and Product in Dynamic
Epistemic Logic*, J. Logic Comput. 18 (2008); SMCDEL's ``SumAndProduct``.
"""

from __future__ import annotations

from dataclasses import dataclass

from kop.puzzles.common import knows_which
from kop.semantics.errors import ModelError
from kop.semantics.model import KripkeModel
from kop.syntax.formula import Formula, Know, Not

__all__ = ["SumProductResult", "pairs", "model", "knows_numbers", "statements", "solve", "S", "P",
           "digit_atoms", "world_name", "pair_of"]

S, P = "S", "P"


def pairs(bound: int = 100) -> list[tuple[int, int]]:
    """The candidate pairs: 1 < x < y, x + y ≤ *bound*."""
    return [(x, y) for x in range(2, bound) for y in range(x + 1, bound - x + 1)]


def _digits(bound: int) -> int:
    """Binary digits enough for every x and y (both below *bound*)."""
    return max(1, bound.bit_length())


def digit_atoms(bound: int = 100) -> tuple[str, ...]:
    """The atoms of the binary digits of x then y."""
    k = _digits(bound)
    return tuple(f"x{i}" for i in range(k)) + tuple(f"y{i}" for i in range(k))


def world_name(x: int, y: int) -> str:
    """The name of the world of the pair (x, y): ``x4y13``."""
    return f"x{x}y{y}"


def model(bound: int = 100) -> KripkeModel:
    """The initial model: one world per pair; S sees the sum, P the product.

    Every world is designated, so ``satisfies`` asks whether a formula holds
    for every remaining pair.
    """
    if not isinstance(bound, int) or not 5 <= bound <= 2000:
        raise ModelError(f"the bound on x + y must be an integer from 5 to 2000, not {bound!r}")
    k = _digits(bound)
    worlds: dict[str, list[str]] = {}
    by_sum: dict[int, list[str]] = {}
    by_product: dict[int, list[str]] = {}
    for x, y in pairs(bound):
        name = world_name(x, y)
        worlds[name] = [f"x{i}" for i in range(k) if x >> i & 1] + [f"y{i}" for i in range(k) if y >> i & 1]
        by_sum.setdefault(x + y, []).append(name)
        by_product.setdefault(x * y, []).append(name)
    return KripkeModel(worlds, {S: list(by_sum.values()), P: list(by_product.values())},
                       actual=list(worlds), agents=[S, P])


def knows_numbers(agent: str, bound: int = 100) -> Formula:
    """*agent* knows x and y."""
    return knows_which(agent, digit_atoms(bound))


def statements(bound: int = 100) -> tuple[Formula, Formula, Formula]:
    """The three statements, announced one after the other."""
    return (
        Know(S, Not(knows_numbers(P, bound))),
        knows_numbers(P, bound),
        knows_numbers(S, bound),
    )


def pair_of(world: str) -> tuple[int, int]:
    """The pair of a world name made by :func:`world_name`."""
    x, y = world[1:].split("y")
    return int(x), int(y)


@dataclass(frozen=True)
class SumProductResult:
    """Pairs left at the start and after each statement, and the solutions.

    Attributes
    ----------
    bound : int
    counts : tuple of int
        Pairs at the start and after each of the three statements.
    solutions : tuple of (int, int)
        The pairs left at the end.
    """

    bound: int
    counts: tuple[int, ...]
    solutions: tuple[tuple[int, int], ...]

    def __repr__(self) -> str:
        return f"SumProductResult(bound={self.bound}, counts={self.counts}, solutions={self.solutions})"


def solve(bound: int = 100) -> SumProductResult:
    """Announce the three statements and count the pairs left after each."""
    m = model(bound)
    counts = [len(m.worlds)]
    for phi in statements(bound):
        m = m.announce(phi)
        counts.append(len(m.worlds))
    return SumProductResult(bound, tuple(counts), tuple(sorted(pair_of(w) for w in m.worlds)))
