"""Formula builders shared by the puzzles."""

from __future__ import annotations

from collections.abc import Iterable

from kop.syntax.formula import FALSE, Atom, Formula, Iff, KnowWhether, Not, conj

__all__ = ["knows_which", "xor"]


def knows_which(agent: str, atoms: Iterable[str]) -> Formula:
    """``agent`` knows the truth value of every one of *atoms*.

    When the worlds are told apart by these atoms, this says the agent knows
    which world is the actual one (SMCDEL writes it as a disjunction of
    ``K_agent (this world)``; the two agree on such models).

    >>> print(knows_which("a", ["p", "q"]))
    Kw_a p & Kw_a q
    """
    return conj(KnowWhether(agent, Atom(a)) for a in atoms)


def xor(formulas: Iterable[Formula]) -> Formula:
    """True iff an odd number of *formulas* are true (``false`` for none).

    >>> print(xor([Atom("p"), Atom("q")]))
    ~(p <-> q)
    """
    fs = list(formulas)
    if not fs:
        return FALSE
    out = fs[0]
    for f in fs[1:]:
        out = Not(Iff(out, f))
    return out
