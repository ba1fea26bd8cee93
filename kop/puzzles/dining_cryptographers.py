"""The dining cryptographers (Chaum 1988).

*n* cryptographers have dinner; either one of them paid or the NSA did.  Each
pair of cryptographers that share a coin flips it where only those two can
see.  Each cryptographer announces the parity (xor) of the coins they see,
flipped if they paid.  Every coin is counted twice, so the parity of all
announcements is odd exactly when a cryptographer paid: everyone learns
whether the NSA paid, but a cryptographer who did not pay cannot tell which
of the others did.

The model is built from observations: atom ``p0`` says the NSA paid, ``p<i>``
that cryptographer ``c<i>`` paid, and ``s<i>_<j>`` is the coin shared by
cryptographers i < j.  The law says exactly one of ``p0 .. pn`` holds; ``c<i>``
observes ``p<i>`` and its coins.  Coins are shared by every pair (SMCDEL's
general version, n(n − 1)/2 coins) or, with ``coins="ring"``, by neighbours
around the table (Chaum's original, n coins).  :func:`model` builds the
model explicitly ((n + 1)·2^coins worlds), :func:`structure` as a knowledge
structure for the symbolic engine (SMCDEL's ``genDcKnsInit``; n up to
:data:`MAX_SYMBOLIC_CRYPTOGRAPHERS`).

Example
-------
>>> r = dine(3, payer=2, heads=[(1, 2)])
>>> r.bits, r.someone_at_table_paid, r.nsa_common_knowledge, r.knowers_of_payer
((1, 0, 0), True, True, (2,))
>>> structure(40).valid(smcdel_benchmark_formula(40))     # 821 atoms
True

Reference: Chaum, *The dining cryptographers problem*, J. Cryptology 1 (1988);
SMCDEL's ``DiningCrypto`` example, whose check formula is
:func:`smcdel_formula`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from kop.puzzles.common import xor
from kop.semantics.errors import ModelError
from kop.semantics.model import KripkeModel
from kop.semantics.symbolic import KnowledgeStructure
from kop.syntax.formula import (
    And, Announce, Atom, Common, Formula, Implies, Know, KnowWhether, Not, Or, Possible, conj, disj,
)

__all__ = ["DiningResult", "model", "structure", "coins", "reveal", "smcdel_formula", "smcdel_benchmark_formula",
           "dine", "MAX_WORLDS", "MAX_SYMBOLIC_CRYPTOGRAPHERS", "cryptographer", "paid", "coin_atom",
           "everyone_knows_whether_nsa_paid", "nobody_knows_who_paid"]

#: The largest model built, in worlds.
MAX_WORLDS = 1 << 22
#: The most cryptographers :func:`structure` accepts (n(n - 1)/2 coins for a complete table).
MAX_SYMBOLIC_CRYPTOGRAPHERS = 300
_TOPOLOGIES = ("complete", "ring")


def cryptographer(i: int) -> str:
    """The agent name of cryptographer *i* (1-based): ``c<i>``."""
    return f"c{i}"


@lru_cache(maxsize=4096)
def paid(i: int) -> Atom:
    """``p0``: the NSA paid; ``p<i>``: cryptographer *i* paid."""
    return Atom(f"p{i}")


def coin_atom(i: int, j: int) -> Atom:
    """The coin shared by cryptographers *i* and *j*."""
    return _coin_atom(min(i, j), max(i, j))


@lru_cache(maxsize=1 << 16)
def _coin_atom(i: int, j: int) -> Atom:
    return Atom(f"s{i}_{j}")


def coins(n: int, topology: str = "complete") -> list[tuple[int, int]]:
    """The pairs of cryptographers that share a coin."""
    if topology not in _TOPOLOGIES:
        raise ModelError(f"unknown coin topology {topology!r}: use 'complete' or 'ring'")
    if topology == "complete":
        return [(i, j) for i in range(1, n + 1) for j in range(i + 1, n + 1)]
    return sorted({(min(i, i % n + 1), max(i, i % n + 1)) for i in range(1, n + 1) if n > 1})


@lru_cache(maxsize=16)
def _seen_by(n: int, topology: str) -> dict[int, tuple[Atom, ...]]:
    """The coins each cryptographer sees (in the order of :func:`coins`)."""
    seen: dict[int, list[Atom]] = {i: [] for i in range(1, n + 1)}
    for a, b in coins(n, topology):
        c = _coin_atom(a, b)                # (coins() gives each pair in order)
        seen[a].append(c)
        seen[b].append(c)
    return {i: tuple(cs) for i, cs in seen.items()}


def _check(n: int, topology: str, symbolic: bool = False) -> list[tuple[int, int]]:
    if not isinstance(n, int) or n < 2:
        raise ModelError(f"the number of cryptographers must be an integer of at least 2, not {n!r}")
    if symbolic:
        if n > MAX_SYMBOLIC_CRYPTOGRAPHERS:
            raise ModelError(f"at most {MAX_SYMBOLIC_CRYPTOGRAPHERS} cryptographers, not {n}")
        return coins(n, topology)
    pairs = coins(n, topology)
    worlds = (n + 1) << len(pairs)
    if worlds > MAX_WORLDS:
        raise ModelError(f"{n} cryptographers with {topology} coins need {worlds} worlds, "
                         f"more than the limit {MAX_WORLDS}")
    return pairs


def model(n: int, payer: int | None = None, heads: Iterable[tuple[int, int]] = (),
          topology: str = "complete") -> KripkeModel:
    """The initial model.

    Parameters
    ----------
    n : int
        The number of cryptographers.
    payer : int or None
        0 for the NSA, i for cryptographer i; None designates every world.
    heads : iterable of (int, int)
        The coins that came up heads, by the pair sharing them.
    topology : {"complete", "ring"}
        Who shares coins.
    """
    pairs = _check(n, topology)
    vocabulary, law, observes, actual = _parts(n, topology, pairs, payer, heads)
    return KripkeModel.from_observations(vocabulary, law, observes, actual=actual)


def structure(n: int, payer: int | None = None, heads: Iterable[tuple[int, int]] = (),
              topology: str = "complete") -> KnowledgeStructure:
    """The same model as a knowledge structure (SMCDEL's ``genDcKnsInit``): the
    states are never listed.  Parameters as for :func:`model`.

    The vocabulary order (the BDD variable order) is SMCDEL's for the complete
    table: ``p0 .. pn`` and then the coins.  Around a ring, each ``p<j>`` comes
    just before the coins it shares with earlier cryptographers, which keeps
    the BDDs of the announcement-by-announcement :func:`smcdel_formula` small
    (n = 30 in half a second, against minutes with SMCDEL's order).
    """
    pairs = _check(n, topology, symbolic=True)
    vocabulary, law, observes, actual = _parts(n, topology, pairs, payer, heads)
    if topology == "ring":
        later = {j: [coin_atom(a, b).name for a, b in pairs if b == j] for j in range(n + 1)}
        vocabulary = [x for j in range(n + 1) for x in (paid(j).name, *later[j])]
    return KnowledgeStructure(vocabulary, law, observes, actual=actual)


def _parts(n: int, topology: str, pairs: list[tuple[int, int]], payer: int | None,
           heads: Iterable[tuple[int, int]]) -> tuple[list[str], Formula, dict[str, list[str]], list[str] | None]:
    """Vocabulary, law, observables and actual state of the dinner."""
    vocabulary = [paid(i).name for i in range(n + 1)] + [_coin_atom(a, b).name for a, b in pairs]   # (in order)
    someone = disj(paid(i) for i in range(n + 1))
    no_two = _no_two(n)
    seen = _seen_by(n, topology)
    observes = {cryptographer(i): [paid(i).name, *(c.name for c in seen[i])] for i in range(1, n + 1)}
    actual = None
    if payer is not None:
        if not isinstance(payer, int) or not 0 <= payer <= n:
            raise ModelError(f"the payer must be 0 (the NSA) or a cryptographer 1..{n}, not {payer!r}")
        up = set()
        for a, b in heads:
            if (min(a, b), max(a, b)) not in pairs:
                raise ModelError(f"cryptographers {a} and {b} share no coin")
            up.add(coin_atom(a, b).name)
        actual = [paid(payer).name, *sorted(up)]
    return vocabulary, conj([someone, no_two]), observes, actual


def _no_two(n: int) -> Formula:
    """No two of ``p0 .. pn`` hold: each ``p<i>`` excludes every later one, through
    one shared chain "none of ``p<i+1> .. pn``" (n + 1 clauses and O(n)
    subformulas, where listing the pairs takes n(n + 1)/2).

    >>> print(_no_two(2))
    (p0 -> ~p1 & ~p2) & (p1 -> ~p2)
    """
    none_after: Formula = Not(paid(n))
    clauses = []
    for i in range(n - 1, -1, -1):
        clauses.append(Implies(paid(i), none_after))
        none_after = And(Not(paid(i)), none_after)
    return conj(reversed(clauses))


def reveal(i: int, n: int, topology: str = "complete") -> Formula:
    """What cryptographer *i* announces: the xor of ``p<i>`` and the coins it sees."""
    return _reveal(i, n, topology)


@lru_cache(maxsize=1024)
def _reveal(i: int, n: int, topology: str) -> Formula:
    return xor([paid(i), *_seen_by(n, topology).get(i, ())])


def everyone_knows_whether_nsa_paid(n: int) -> Formula:
    return conj(KnowWhether(cryptographer(i), paid(0)) for i in range(1, n + 1))


def nobody_knows_who_paid(n: int) -> Formula:
    """If cryptographer i paid, no other cryptographer knows it (SMCDEL's formula)."""
    return conj(Implies(paid(i), conj(Not(Know(cryptographer(k), paid(i))) for k in range(1, n + 1) if k != i))
                for i in range(1, n + 1))


def _announce_whether(phi: Formula, psi: Formula) -> Formula:
    """``[?phi] psi``: psi holds after announcing whether phi (which of phi, ~phi is true)."""
    return conj([Announce(phi, psi), Announce(Not(phi), psi)])


def smcdel_formula(n: int, topology: str = "complete") -> Formula:
    """SMCDEL's ``genDcCheckForm n``: after every cryptographer announces whether
    its reveal formula holds, everyone knows whether the NSA paid and nobody
    knows which cryptographer paid.  It is valid: true at every world."""
    inner = conj([everyone_knows_whether_nsa_paid(n), nobody_knows_who_paid(n)])
    for i in range(n, 0, -1):
        inner = _announce_whether(reveal(i, n, topology), inner)
    return inner


def smcdel_benchmark_formula(n: int, topology: str = "complete") -> Formula:
    """SMCDEL's ``benchDcCheckForm n``, the formula of its dining cryptographers benchmark.

    After announcing whether the xor of all the announcements is true (which
    tells whether a cryptographer paid), cryptographer 1, if it did not pay,
    either knows that no cryptographer paid, or knows that one of the others
    did without knowing which.  It is valid.  (SMCDEL times this formula; its
    own comment calls the announcement-by-announcement :func:`smcdel_formula`
    "slow!".)
    """
    everything = xor([reveal(i, n, topology) for i in range(1, n + 1)])
    c1 = cryptographer(1)
    body = Implies(Not(paid(1)), disj([
        Know(c1, conj(Not(paid(k)) for k in range(1, n + 1))),
        conj([Know(c1, disj(paid(k) for k in range(2, n + 1))),
              conj(Not(Know(c1, paid(k))) for k in range(2, n + 1))]),
    ]))
    return _announce_whether(everything, body)


@dataclass(frozen=True)
class DiningResult:
    """What the announcements reveal at one dinner.

    Attributes
    ----------
    bits : tuple of int
        The announced bits, cryptographer 1 first.
    someone_at_table_paid : bool
        The parity of the bits (odd: a cryptographer paid).
    nsa_common_knowledge : bool
        Whether it is then common knowledge whether the NSA paid.
    knowers_of_payer : tuple of int
        The cryptographers who then know who paid (the payer itself, or
        everyone when the NSA paid).
    suspects : dict
        For each cryptographer who did not pay, the others it considers
        possible payers.
    """

    n: int
    payer: int
    bits: tuple[int, ...]
    someone_at_table_paid: bool
    nsa_common_knowledge: bool
    knowers_of_payer: tuple[int, ...]
    suspects: dict[int, tuple[int, ...]]

    def __repr__(self) -> str:
        return (f"DiningResult(n={self.n}, payer={self.payer}, bits={self.bits}, "
                f"someone_at_table_paid={self.someone_at_table_paid}, "
                f"knowers_of_payer={self.knowers_of_payer})")


def dine(n: int, payer: int, heads: Iterable[tuple[int, int]] = (), topology: str = "complete") -> DiningResult:
    """Run one dinner: each cryptographer in turn announces its bit."""
    m = model(n, payer, heads, topology)
    bits = []
    for i in range(1, n + 1):
        r = reveal(i, n, topology)
        bit = m.satisfies(r)
        bits.append(int(bit))
        m = m.announce(r if bit else Not(r))
    everyone = tuple(cryptographer(i) for i in range(1, n + 1))
    ck = m.satisfies(Or(Common(everyone, paid(0)), Common(everyone, Not(paid(0)))))
    knowers = tuple(i for i in range(1, n + 1) if m.satisfies(Know(cryptographer(i), paid(payer))))
    suspects = {
        i: tuple(j for j in range(1, n + 1) if j != i and m.satisfies(Possible(cryptographer(i), paid(j))))
        for i in range(1, n + 1) if i != payer
    }
    return DiningResult(n, payer, tuple(bits), sum(bits) % 2 == 1, ck, knowers, suspects)
