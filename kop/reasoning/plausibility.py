"""Belief in the prover: plausibility models reduced to S5_n with level atoms.

In a plausibility model (Baltag & Smets 2008; ``docs/uncertainty.md``) ``K_a``
is S5 over a's cell and each agent ranks the worlds of each of its cells;
``B_a(ψ, φ)`` holds when φ holds at the most plausible ψ-worlds of a's cell
(vacuously when the cell has no ψ-world), and ``B_a φ`` is ``B_a(true, φ)``.

**The reduction.**  Give agent a fresh atoms ``g_1 ... g_m``, one per distinct
condition ψ_1 ... ψ_m of a's conditional beliefs in the formula (``true`` for
plain ``B_a``); a world's *level* for a is the number of leading ``g``'s true
there (0 ... m), ``GE_k = g_1 ∧ ... ∧ g_k`` says "level ≥ k" and
``at_k = GE_k ∧ ¬g_{k+1}`` "level = k".  A world is a *most plausible
ψ-world* of its a-cell when it is a ψ-world at some level k and no ψ-world
of the cell lies below k::

    best_a(ψ)  =  ∨_{k=0..m} ( at_k ∧ K_a(ψ → GE_k) )
    B_a(ψ, φ)  ↦  K_a( ψ ∧ best_a(ψ) → φ )

exactly the semantics when the level is the rank (and vacuously true when
the cell has no ψ-world).  One ``K_a`` per belief, and one
``K_a(ψ → GE_k)`` per condition and level, shared by all the beliefs with
that condition.  The translation is **satisfiability-preserving in both
directions**:

* a Kripke model of the translation is a plausibility model of the formula,
  with rank = level (the translation is the definition of ``B`` on these ranks);
* a plausibility model of the formula gives one of the translation after its
  ranks are collapsed to m + 1 levels per cell: let R_1 < ... < R_t (t ≤ m) be
  the ranks of the most plausible ψ_i-worlds of the cell, and send a rank ρ to
  level j − 1 for the least j with R_j ≥ ρ (level t above R_t).  A ψ_i-world
  has rank ≥ R(ψ_i), so it lands on R(ψ_i)'s level exactly when its rank is
  R(ψ_i): every set of most
  plausible ψ_i-worlds is unchanged, hence (by induction on the formula, the
  collapse being fixed once from the original extensions) so is every truth
  value.

So only the most plausible ψ-worlds of each cell matter; for plain belief that
is one non-empty subset of each cell, and ``B_a`` is a KD45 modality whose
accessible set is fixed per a-cell: ``K_a φ → B_a φ``, ``B_a φ → K_a B_a φ``,
``¬B_a φ → K_a ¬B_a φ`` are valid, ``B_a φ → φ`` and ``B_a φ → B_a K_a φ`` are
not.  The S5_n prover (with C, D, E, relativized C) then decides the
translation, and :func:`plausibility_model` turns its model back into a
plausibility model, which the caller checks on the original formula.

Announcements are reduced first (:mod:`kop.reasoning.announcements`):
``[!χ]B_a(ψ, φ) ↔ (χ → B_a(χ ∧ [!χ]ψ, [!χ]φ))``, so announcements over belief
become conditional belief.  Probability (``P_a``) is not decided: see
:func:`kop.syntax.fragments.refuse_probability`.

    >>> from kop import parse, to_ascii
    >>> t = to_knowledge(parse("B_a p"))
    >>> to_ascii(t.formula)
    'K_a (~lv_a_1 | lv_a_1 & K_a lv_a_1 -> p)'
    >>> t.levels
    {'a': ('lv_a_1',)}

References: A. Baltag, S. Smets, *A qualitative theory of dynamic interactive
belief revision*, LOFT 7 (2008); O. Board, *Dynamic interactive epistemology*,
Games and Economic Behavior 49 (2004) (conditional belief and its logic);
J. Y. Halpern, Y. Moses, *A guide to completeness and complexity for modal
logics of knowledge and belief*, AIJ 54 (1992) (KD45 belief).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kop.syntax import formula as F
from kop.syntax.fragments import has_belief

from kop.semantics.model import KripkeModel
from kop.reasoning.announcements import rebuild
from kop.reasoning.errors import ProverBug

__all__ = ["Translation", "to_knowledge", "plausibility_model", "LEVEL_PREFIX"]

#: The prefix of the level atoms (lengthened with underscores until no atom of the formula starts with it).
LEVEL_PREFIX = "lv"


@dataclass(frozen=True)
class Translation:
    """A belief-free formula equisatisfiable with a formula of knowledge and belief.

    ``formula`` is the translation, ``levels[a]`` the names of a's level atoms
    ``g_1 ... g_m`` (an agent without belief in the formula has none), and
    ``atoms`` the atoms of the original formula.

    >>> from kop import parse
    >>> to_knowledge(parse("K_a p")).levels
    {}
    """

    formula: F.Formula
    levels: dict[str, tuple[str, ...]]
    atoms: frozenset[str]


def _prefix(phi: F.Formula) -> str:
    prefix = LEVEL_PREFIX + "_"
    atoms = phi.atoms()
    while any(p.startswith(prefix) for p in atoms):
        prefix += "_"
    return prefix


def to_knowledge(phi: F.Formula, max_levels: int | None = None) -> Translation:
    """The translation of an announcement-free *phi* (see the module docstring).

    Parameters
    ----------
    phi : Formula
        A formula without announcements and probability (``B_a``, ``B_a(ψ, φ)``,
        knowledge, E, C, D, relativized C).
    max_levels : int, optional
        At most this many level atoms per agent.  The translation is still exact
        on the ranks it can express, so a model of it is a plausibility model of
        *phi* (sound for "satisfiable"); only the full count (the default) makes
        "unsatisfiable" sound too.

    Returns
    -------
    Translation

    Examples
    --------
    >>> from kop import parse, valid
    >>> t = to_knowledge(parse("~(K_a p -> B_a p)"))
    >>> valid(F.Not(t.formula)).holds
    True
    """
    if not has_belief(phi):
        return Translation(phi, {}, phi.atoms())
    prefix = _prefix(phi)
    out: dict[F.Formula, F.Formula] = {}
    subs = list(phi.subformulas())        # post-order: children first
    # at most one level per distinct condition of the agent (an upper bound: two conditions may
    # translate alike)
    count: dict[str, set[F.Formula]] = {}
    for f in subs:
        if isinstance(f, F.Belief):
            count.setdefault(f.agent, set()).add(F.TRUE)
        elif isinstance(f, F.CondBelief):
            count.setdefault(f.agent, set()).add(F.TRUE if isinstance(f.cond, F.Top) else f.cond)
    cap = {a: len(count[a]) if max_levels is None else min(len(count[a]), max_levels) for a in count}
    levels = {a: tuple(f"{prefix}{a}_{k}" for k in range(1, cap[a] + 1)) for a in sorted(count)}
    ge = {a: [F.conj([F.Atom(g) for g in levels[a][:k]]) for k in range(len(levels[a]) + 1)] for a in levels}

    def at(a: str, k: int) -> F.Formula:
        gs = levels[a]
        if k == len(gs):
            return ge[a][k]
        return F.Not(F.Atom(gs[k])) if k == 0 else F.And(ge[a][k], F.Not(F.Atom(gs[k])))

    def best(a: str, cond: F.Formula) -> F.Formula:
        # a most plausible cond-world: at level k, and no cond-world of a's cell lies below level k
        parts: list[F.Formula] = []
        for k in range(len(levels[a]) + 1):
            if k == 0:
                parts.append(at(a, 0))
            else:
                floor = F.Know(a, ge[a][k] if isinstance(cond, F.Top) else F.Implies(cond, ge[a][k]))
                parts.append(F.And(at(a, k), floor))
        return F.disj(parts)

    def belief(a: str, cond: F.Formula, arg: F.Formula) -> F.Formula:
        here = best(a, cond) if isinstance(cond, F.Top) else F.And(cond, best(a, cond))
        return F.Know(a, F.Implies(here, arg))

    for f in subs:
        if f in out:
            continue
        kids = tuple(out[c] for c in f.children)
        if isinstance(f, F.Belief):
            out[f] = belief(f.agent, F.TRUE, kids[0])
        elif isinstance(f, F.CondBelief):
            out[f] = belief(f.agent, kids[0], kids[1])
        elif isinstance(f, (F.Announce, F.AnnounceDual, F.Probability)):
            raise ProverBug("to_knowledge needs a formula without announcements and probability")
        else:
            out[f] = rebuild(f, kids)
    return Translation(out[phi], levels, phi.atoms())


def plausibility_model(model: KripkeModel, translation: Translation) -> KripkeModel:
    """The plausibility model of a Kripke model of ``translation.formula``.

    Each world's rank for agent a is its level (the number of leading level
    atoms of a true there); the level atoms leave the valuation.

    Examples
    --------
    >>> from kop import parse, satisfiable
    >>> t = to_knowledge(parse("B_a p & ~p"))
    >>> m = plausibility_model(satisfiable(t.formula).model, t)
    >>> m.satisfies("B_a p & ~p"), sorted(m.atoms)
    (True, ['p'])
    """
    worlds = model.worlds
    n = len(worlds)
    truth = {p: np.array([p in model.valuation(w) for w in worlds], dtype=bool)
             for p in model.atoms}
    valuation = {p: v for p, v in truth.items() if p in translation.atoms}
    ranks: dict[str, np.ndarray] = {}
    for a, gs in translation.levels.items():
        level = np.zeros(n, dtype=np.int64)
        alive = np.ones(n, dtype=bool)
        for g in gs:
            alive &= truth.get(g, np.zeros(n, dtype=bool))
            level += alive
        ranks[a] = level
    partitions = {a: model.block_ids(a) for a in model.agents}
    return KripkeModel.from_arrays(list(worlds), partitions, valuation, actual=list(model.actual),
                                   agents=model.agents, plausibility=ranks)
