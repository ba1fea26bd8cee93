"""Entailment among knowledge chains, decided by the subsequence rule.

A *chain* is ``K_{a1} K_{a2} ... K_{an} p`` with ``p`` an atom (n >= 0).  In
S5_n ``K_a K_a = K_a``, so a chain is written as its atom and its agent
sequence with repeats collapsed.  For a set of premises that are all chains
(or conjunctions of chains):

    premises ⊨ K_{b1} ... K_{bm} q   iff   some premise chain over the same atom q
                                          has b1 ... bm as a subsequence of its agents.

*If*: axiom T gives ``K_b φ -> φ``, so (by necessitation and K) any operator of
a chain may be dropped.  *Only if*: build the line model
``w0 -b1- w1 -b2- ... -bm- wm`` (each agent's blocks are these pairs and
singletons; adjacent labels differ, so the pairs do not merge) with q false
at wm only and every other atom true everywhere.  The query fails at w0 along
the line.  A premise chain ``K_{a1} ... K_{an} q`` fails at w0 only along a
walk w0 ~a1 ... ~an wm; the first steps that reach w1, w2, ..., wm cross the
edges b1, b2, ..., bm in order, so b is a subsequence of a.  Premises over
other atoms hold everywhere.  The rule is exact only because the atoms are
independent and every premise is positive; anything else (negation,
disjunction, C, D, non-chain premises) is left to the prover
(:func:`chains_of` returns None).

Two exact rewrites widen the fragment: ``E_G φ`` is the conjunction of
``K_a φ`` over a ∈ G, and announcing a conjunction of atoms ψ makes every
positive formula over ψ's atoms (atoms, ``true``, ``&``, K, E, C, D) true at
every remaining world, so ``<!ψ>φ`` is equivalent to ψ and ``[!ψ]φ`` to
``true``.

    >>> from kop import parse
    >>> chain_entails([parse("K_a K_b K_a p"), parse("K_b q")], parse("K_a K_a p & K_b K_a p & q"))
    True
    >>> chain_entails([parse("K_a K_b p")], parse("K_b K_a p"))
    False
    >>> chain_entails([parse("K_a p | q")], parse("p")) is None      # outside the fragment
    True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from kop import config
from kop.syntax.formula import (And, Announce, AnnounceDual, Atom, Common, Distributed, Everyone, Formula, Know,
                                Top)

if TYPE_CHECKING:  # pragma: no cover
    from kop.semantics.model import KripkeModel

__all__ = ["Chain", "collapse", "is_subsequence", "chains_of", "chain_entails", "chain_countermodel"]

#: A chain: its atom and its agent sequence with repeats collapsed.
Chain = tuple[str, tuple[str, ...]]

_MAX_DEPTH = 200        # deeper nesting (of &, E, announcements) goes to the prover; K chains are read in a loop


def collapse(agents: Iterable[str]) -> tuple[str, ...]:
    """The agent sequence with adjacent repeats collapsed (``K_a K_a = K_a`` in S5).

    >>> collapse("aabbba")
    ('a', 'b', 'a')
    """
    out: list[str] = []
    for a in agents:
        if not out or out[-1] != a:
            out.append(a)
    return tuple(out)


def is_subsequence(short: Sequence[str], long: Sequence[str]) -> bool:
    """Is *short* a (not necessarily contiguous) subsequence of *long*?

    >>> is_subsequence("ab", "aXb"), is_subsequence("ba", "ab")
    (True, False)
    """
    it = iter(long)
    return all(any(x == y for y in it) for x in short)


def _positive_over(f: Formula, atoms: frozenset[str], depth: int) -> bool:
    """Is *f* built from atoms among *atoms*, ``true``, ``&``, K, E, C, D only?"""
    if depth > _MAX_DEPTH:
        return False
    if isinstance(f, Atom):
        return f.name in atoms
    if isinstance(f, Top):
        return True
    if isinstance(f, And):
        return all(_positive_over(a, atoms, depth + 1) for a in f.args)
    if isinstance(f, (Know, Everyone, Common, Distributed)):
        return _positive_over(f.arg, atoms, depth + 1)
    return False


def _chains(f: Formula, depth: int) -> frozenset[Chain] | None:
    if depth > _MAX_DEPTH:
        return None
    if isinstance(f, Atom):
        return frozenset({(f.name, ())})
    if isinstance(f, Top):
        return frozenset()
    if isinstance(f, And):
        out: set[Chain] = set()
        for a in f.args:
            cs = _chains(a, depth + 1)
            if cs is None:
                return None
            out |= cs
        return frozenset(out)
    if isinstance(f, Know):
        prefix = [f.agent]
        g = f.arg
        while isinstance(g, Know):          # a long chain in one loop, not one call per operator
            prefix.append(g.agent)
            g = g.arg
        inner = _chains(g, depth + 1)
        if inner is None:
            return None
        return frozenset((p, collapse(prefix + list(s))) for p, s in inner)
    if isinstance(f, Everyone):
        if not f.group:
            return None
        inner = _chains(f.arg, depth + 1)
        if inner is None:
            return None
        return frozenset((p, collapse((a, *s))) for a in f.group for p, s in inner)
    if isinstance(f, (Announce, AnnounceDual)):
        ann = _chains(f.ann, depth + 1)
        if ann is None or any(s for _, s in ann):
            return None                     # only announcements of conjunctions of atoms
        if not _positive_over(f.arg, frozenset(p for p, _ in ann), depth + 1):
            return None
        return ann if isinstance(f, AnnounceDual) else frozenset()
    return None


def chains_of(f: Formula) -> frozenset[Chain] | None:
    """*f* as a set of chains whose conjunction is equivalent to it, or None outside the fragment.

    >>> from kop import parse
    >>> sorted(chains_of(parse("K_a (p & K_a K_b q) & E{a,b} r")))
    [('p', ('a',)), ('q', ('a', 'b')), ('r', ('a',)), ('r', ('b',))]
    >>> chains_of(parse("<!p & q> C{a,b} p")) == {("p", ()), ("q", ())}
    True
    >>> chains_of(parse("~K_a p")) is None
    True
    """
    return _chains(f, 0)


#: premise tuple -> its chains per atom (or None); a pure memo of immutable keys, shared (see :mod:`kop.config`)
_PREMISES = config.Memo(256)


def _premise_chains(premises: Iterable[Formula]) -> dict[str, list[tuple[str, ...]]] | None:
    """Per atom, the premise chains that no other premise chain contains (a subsequence adds nothing).

    Remembered per premise tuple: a knowledge set is asked many questions.
    """
    key = tuple(premises)
    found = _PREMISES.get(key)
    if found is not config.MISSING:
        return found  # type: ignore[no-any-return]
    by_atom: dict[str, list[tuple[str, ...]]] | None = {}
    for p in key:
        cs = chains_of(p)
        if cs is None:
            by_atom = None
            break
        for atom, agents in cs:
            by_atom.setdefault(atom, []).append(agents)  # type: ignore[union-attr]
    if by_atom is not None:
        for atom, seqs in by_atom.items():
            kept: list[tuple[str, ...]] = []
            for seq in sorted(set(seqs), key=len, reverse=True):
                if not any(is_subsequence(seq, k) for k in kept):
                    kept.append(seq)
            by_atom[atom] = kept
    _PREMISES.put(key, by_atom)
    return by_atom


def _first_missing(premises: Iterable[Formula], phi: Formula) -> tuple[bool, Chain | None] | None:
    """``(holds, a conclusion chain no premise covers)``, or None outside the fragment."""
    goal = chains_of(phi)
    if goal is None:
        return None
    have = _premise_chains(premises)
    if have is None:
        return None
    for atom, agents in sorted(goal):
        if not any(is_subsequence(agents, a) for a in have.get(atom, ())):
            return False, (atom, agents)
    return True, None


def chain_entails(premises: Iterable[Formula], phi: Formula) -> bool | None:
    """Do the chains *premises* entail the chains *phi* (subsequence rule), or None when the rule does not apply.

    Exact (see the module's docstring) when every premise and the
    conclusion are conjunctions of chains over atoms.

    >>> from kop import parse
    >>> chain_entails([parse("K_A K_B K_A E_B")], parse("K_A K_A E_B"))
    True
    >>> chain_entails([parse("K_A E_A")], parse("K_B E_A"))
    False
    """
    ans = _first_missing(premises, phi)
    return None if ans is None else ans[0]


def chain_countermodel(premises: Iterable[Formula], phi: Formula, agents: Iterable[str] = ()) -> KripkeModel | None:
    """The line model refuting *phi* where the chain *premises* hold (world ``w0``), or None.

    None when the rule does not apply or the entailment holds.  The model
    has every agent of *agents*, the premises and *phi*.

    >>> from kop import parse
    >>> m = chain_countermodel([parse("K_a p")], parse("K_a K_b p"))
    >>> len(m), m.satisfies("K_a p & ~K_a K_b p", "w0")
    (3, True)
    """
    ps = tuple(premises)
    ans = _first_missing(ps, phi)
    if ans is None or ans[0]:
        return None
    from kop.semantics.model import KripkeModel

    atom, line = ans[1]  # type: ignore[misc]
    names = [f"w{i}" for i in range(len(line) + 1)]
    every = {a for f in (*ps, phi) for a in f.agents()} | set(agents)
    atoms = sorted({x for f in (*ps, phi) for x in f.atoms()} | {atom})
    worlds = {w: [x for x in atoms if x != atom or i < len(line)] for i, w in enumerate(names)}
    partitions: dict[str, list[list[str]]] = {}
    for a in sorted(every):
        pairs = [[names[i], names[i + 1]] for i, b in enumerate(line) if b == a]
        paired = {w for pair in pairs for w in pair}
        partitions[a] = pairs + [[w] for w in names if w not in paired]
    return KripkeModel(worlds, partitions, actual="w0", agents=sorted(every))
