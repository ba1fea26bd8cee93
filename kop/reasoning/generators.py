"""Benchmark formulas: random modal 3-CNF and LWB-style families that are S5 theorems.

* :func:`random_3cnf` -- Patel-Schneider & Sebastiani's 3CNF_□m generator with
  ``K_a`` for □_a: a conjunction of clauses of three distinct literals; at
  modal depth > 0 each literal is propositional with probability ``p_prop``,
  otherwise ``K_a`` (random agent) of a clause one level shallower; each
  literal is negated with probability 1/2.
* :func:`random_formula` -- a random formula with exactly n operators over
  the whole language, in the families of :data:`RANDOM_FAMILIES` (common
  knowledge; relativized common knowledge; announcements; distributed knowledge);
* :func:`k_branch_p`, :func:`k_ph_p`, :func:`s4_s5_p` -- provable families of
  the Logics Workbench benchmark (theorems of K, K and S4, hence of S5) with
  one agent's ``K_a`` for □.

    >>> import random
    >>> f = random_3cnf(random.Random(0), atoms=3, agents=2, depth=1, clauses=2)
    >>> f.modal_depth() <= 1, len(f.atoms()) <= 3
    (True, True)
    >>> from kop import to_ascii
    >>> to_ascii(random_formula(random.Random(1), 4, ["a", "b"], ["p", "q"], "RC"))
    'C{a,b}(E{a,b} p, q) & M_a p'
    >>> from kop import valid
    >>> valid(k_branch_p(2)).holds, valid(k_ph_p(2)).holds, valid(s4_s5_p(2)).holds
    (True, True, True)

References: P. F. Patel-Schneider, R. Sebastiani, *A new general method to
generate random modal formulae for testing decision procedures*, JAIR 18
(2003); P. Balsiger, A. Heuerding, S. Schwendimann, *A benchmark method for
the propositional modal logics K, KT, S4*, J. Automated Reasoning 24 (2000).
"""

from __future__ import annotations

import random

from kop.syntax.formula import (FALSE, And, Announce, AnnounceDual, Atom, Belief, Common, CondBelief, Distributed,
                                Everyone, Formula, Iff, Implies, Know, Not, Or, Possible, RelCommon, conj, disj)

__all__ = ["random_3cnf", "random_formula", "RANDOM_FAMILIES", "k_branch_p", "k_ph_p", "s4_s5_p", "LWB_FAMILIES"]

#: The families of :func:`random_formula`: the operators drawn besides ``~ & | -> K M E C``.
#: Family "B" (knowledge and belief) adds ``B_a`` (unary, twice as often); "Bc" also conditional belief ``B_a(ψ, φ)``.
RANDOM_FAMILIES = {"C": (), "RC": ("RC",), "ann": ("[!]", "<!>"), "D": ("D",), "B": ("B",), "Bc": ("B", "Bc")}


def random_formula(rng: random.Random, operators: int, agents: list[str], atoms: list[str],
                   family: str = "C") -> Formula:
    """A random formula with exactly *operators* operators (connectives and modalities).

    At each node with n operators left: a leaf (an atom) when n = 0; else,
    when n >= 2, with probability 1/2 a binary operator (``&``, ``|``, ``->``,
    and ``C_G(φ, ψ)`` for family "RC", ``[!φ]ψ``, ``<!φ>ψ`` for "ann",
    ``B_a(φ, ψ)`` for "Bc") whose two sides share the other n - 1 operators at
    a uniformly drawn split; otherwise a unary one (``~``, ``K_a``, ``M_a``,
    ``E_G``, ``C_G``, and ``D_G`` for family "D", ``B_a`` for "B" and "Bc").  A group G has 2 or more agents.

    Parameters
    ----------
    rng : random.Random
    operators : int
    agents : list of str
        At least two.
    atoms : list of str
    family : {"C", "RC", "ann", "D", "B", "Bc"}
        (The formula may nest as deep as *operators*, at most 900.)
    """
    if family not in RANDOM_FAMILIES:
        raise ValueError(f"unknown family {family!r}: use one of {', '.join(RANDOM_FAMILIES)}")
    if len(agents) < 2:
        raise ValueError("random_formula needs two agents or more")
    if not 0 <= operators <= 900:
        raise ValueError(f"the number of operators must be between 0 and 900, not {operators}")
    unary = ["~", "K", "M", "E", "C"] + (["D", "D"] if family == "D" else []) + (["B", "B"] if "B" in RANDOM_FAMILIES[family] else [])
    binary = ["&", "|", "->"] + 2 * [op for op in RANDOM_FAMILIES[family] if op not in ("D", "B")]

    def group() -> tuple[str, ...]:
        return tuple(sorted(rng.sample(agents, rng.randint(2, len(agents)))))

    def build(n: int) -> Formula:
        if n == 0:
            return Atom(rng.choice(atoms))
        if n >= 2 and rng.random() < 0.5:
            op = rng.choice(binary)
            k = rng.randint(0, n - 1)
            a, b = build(k), build(n - 1 - k)
            if op == "&":
                return And(a, b)
            if op == "|":
                return Or(a, b)
            if op == "->":
                return Implies(a, b)
            if op == "RC":
                return RelCommon(group(), a, b)
            if op == "Bc":
                return CondBelief(rng.choice(agents), a, b)
            return Announce(a, b) if op == "[!]" else AnnounceDual(a, b)
        op = rng.choice(unary)
        a = build(n - 1)
        if op == "~":
            return Not(a)
        if op in ("K", "M"):
            return (Know if op == "K" else Possible)(rng.choice(agents), a)
        if op == "B":
            return Belief(rng.choice(agents), a)
        return {"E": Everyone, "C": Common, "D": Distributed}[op](group(), a)

    return build(operators)


def random_3cnf(rng: random.Random, atoms: int, agents: int, depth: int, clauses: int,
                p_prop: float = 0.5, width: int = 3) -> Formula:
    """A random 3CNF_□m formula (Patel-Schneider & Sebastiani) over atoms p0.. and agents a0..

    Parameters
    ----------
    rng : random.Random
    atoms, agents : int
        How many atoms (>= *width*) and agents.
    depth : int
        Modal depth.
    clauses : int
        Clauses of the top conjunction.
    p_prop : float
        Probability that a literal below the top level of modal depth is propositional.
    width : int
        Literals per clause.
    """
    if atoms < width:
        raise ValueError(f"need at least {width} atoms for clauses of {width} distinct literals")

    def clause(d: int) -> Formula:
        names = rng.sample(range(atoms), width)
        lits = []
        for i in range(width):
            if d == 0 or rng.random() < p_prop:
                lit: Formula = Atom(f"p{names[i]}")
            else:
                lit = Know(f"a{rng.randrange(agents)}", clause(d - 1))
            lits.append(Not(lit) if rng.random() < 0.5 else lit)
        return disj(lits)

    return conj(clause(depth) for _ in range(clauses))


def _p(i: int) -> Atom:
    return Atom(f"p{i}")


def _box(n: int, f: Formula, agent: str) -> Formula:
    for _ in range(n):
        f = Know(agent, f)
    return f


def k_branch_p(n: int, agent: str = "a") -> Formula:
    """LWB ``k_branch_p(n)``: a binary tree of depth n of ``M`` successors forced, made provable."""
    depth_ok = conj(Implies(_p(101 + i), _p(100 + i)) for i in range(n + 1))
    determined = conj(
        Implies(_p(100 + i), conj((Implies(_p(i), Know(agent, Implies(_p(100 + i), _p(i)))),
                                   Implies(Not(_p(i)), Know(agent, Implies(_p(100 + i), Not(_p(i))))))))
        for i in range(n + 1))
    branching = conj(
        Implies(conj((_p(100 + i), Not(_p(101 + i)))),
                conj((Possible(agent, conj((_p(101 + i), Not(_p(102 + i)), _p(i + 1)))),
                      Possible(agent, conj((_p(101 + i), Not(_p(102 + i)), Not(_p(i + 1))))))))
        for i in range(n))
    body = conj((depth_ok, determined, branching))
    nested = [body]                      # K^i body, each built on the last (shared, not copied)
    for _ in range(n):
        nested.append(Know(agent, nested[-1]))
    boxes = conj(nested)
    return disj((Not(conj((_p(100), Not(_p(101)), boxes))), Not(_box(n, _p(n // 3 + 1), agent))))


def k_ph_p(n: int, agent: str = "a") -> Formula:
    """LWB ``k_ph_p(n)``: the pigeonhole principle (n+1 pigeons, n holes) inside ``M``."""
    def lit(i: int, j: int) -> Formula:
        return Know(agent, _p(100 * i + j)) if i < j else _p(100 * i + j)

    left = conj(disj(lit(i, j) for j in range(1, n + 1)) for i in range(1, n + 2))
    right = disj(conj((lit(i1, j), lit(i2, j)))
                 for j in range(1, n + 1) for i1 in range(1, n + 2) for i2 in range(i1 + 1, n + 2))
    return Implies(Possible(agent, left), Possible(agent, right))


def s4_s5_p(n: int, agent: str = "a") -> Formula:
    """LWB ``s4_s5_p(n)``: an S4 theorem built around the S5 axiom on a chain of 3n atoms."""
    def f(i: int, top: int) -> Formula:
        if i == top:
            return FALSE
        diff = disj((conj((_p(i), Not(_p(i + 1)))), conj((Not(_p(i)), _p(i + 1)))))
        return disj((Possible(agent, diff), Know(agent, f(i + 1, top))))

    chain = disj(Iff(_p(i), _p(i + 1)) for i in range(1, 3 * n - 1))
    inner = disj((Know(agent, chain), Know(agent, _p(3 * n)), f(1, 3 * n - 1)))
    return disj((Know(agent, Possible(agent, inner)),
                 Know(agent, Implies(Possible(agent, _p(1)), Not(_p(3 * n))))))


#: The LWB-style provable families, by name.
LWB_FAMILIES = {"k_branch_p": k_branch_p, "k_ph_p": k_ph_p, "s4_s5_p": s4_s5_p}
