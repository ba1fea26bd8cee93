"""A fast first try for formulas with common knowledge: SAT-driven search for a model of types.

Type elimination (:mod:`kop.reasoning.bddengine`) decides every question
with ``C`` but works on all types at once.  Most questions are settled by
far fewer: this search builds the types of one candidate model explicitly,
one SAT call at a time, over the abstraction of
:mod:`kop.reasoning.abstraction` (``K_a x -> x`` and the fixed point of every
``RC``).  A type is a satisfying assignment; in S5 agent a's classes are the
types with equal ``K_a`` values (the a-profile), so a demand ``~K_a x`` is a
demand of the whole class, met once by a type with the same profile and
``~x`` (an existing one if there is one, else one SAT call).  The demand
``~K_a(~c | (x & RC_G(c, x)))`` that unfolds an eventuality ``~RC_G(c, x)`` is
met, when the class allows it, by a type with ``c & ~x``: the eventuality's
goal, reached at once.

The pure-literal rule of type elimination holds here too: a node's value in a
type is relied on only in the direction in which it occurs in the input, so
the abstraction keeps ``K_a x -> x`` and ``RC -> unfolding`` only for nodes
that occur positively, ``~RC -> ~unfolding`` only for those that occur
negatively, and a ``K_a x`` that occurs only positively makes no demand.  Far
fewer demands, far fewer classes: most questions with three agents are settled
with a few dozen types.

The outcomes:

* every demand of every reached class is met: the types are a candidate model
  (a :class:`~kop.reasoning.pseudomodel.PseudoModel`).  An eventuality may
  still be unfulfilled (a ``~C`` that only loops), so the caller *model
  checks* the candidate and keeps it only when the formula holds at its root;
* a demand has no witness: the SAT solver's unsatisfiable core L (a set of
  a-profile literals) gives the clause ``~L | K_a x``, valid in S5_n because L
  holds throughout an a-class.  It removes every type that violates it, and
  the search starts again from the root.  When the root itself becomes
  unsatisfiable, the input is unsatisfiable: only valid clauses refuted it;
* the search gives up after :data:`MAX_SEARCH_TYPES` types (``UNKNOWN``);
  then type elimination decides.

Distributed knowledge is not handled (type elimination takes it).

    >>> from kop import parse
    >>> from kop.reasoning.core import Core, Closure
    >>> core = Core(); root = core.compile(parse("~C{a,b} p & p & M_a q"))
    >>> pm = TypeSearch(core, Closure(core, [root]), root).run()
    >>> len(pm.types) >= 2
    True
    >>> root = core.compile(parse("C{a,b} p & M_b ~p"))
    >>> TypeSearch(core, Closure(core, [root]), root).run() is None
    True

References: R. Goré, L. A. Nguyen, *Sound global state caching for ALC with
inverse roles*, TABLEAUX 2009 (caching); T. Caridroit et al., *A SAT-based
approach for solving the modal logic S5-satisfiability problem*, AAAI 2017;
J. Y. Halpern, Y. Moses, *A guide to completeness and complexity for modal
logics of knowledge and belief*, AIJ 54 (1992) (types and eventualities).
"""

from __future__ import annotations

import random
from typing import Any

from kop.reasoning.abstraction import Abstraction, TimedSolver
from kop.reasoning.core import Closure, Core
from kop.reasoning.errors import ProverBug
from kop.reasoning.limits import Deadline
from kop.reasoning.pseudomodel import PseudoModel, TypeInfo
from kop.reasoning.bddengine import polarities

__all__ = ["TypeSearch", "UNKNOWN", "MAX_SEARCH_TYPES"]

#: The most types the search builds before it leaves the question to type elimination.
MAX_SEARCH_TYPES = 6000
#: How many existing classes of an agent a new witness tries to join (:meth:`TypeSearch._settle`).
SETTLE_TRIES = 8


class _Unknown:
    """The search gave up (see :data:`UNKNOWN`)."""

    def __repr__(self) -> str:
        return "UNKNOWN"


#: What :meth:`TypeSearch.run` returns when it gives up.
UNKNOWN = _Unknown()


class TypeSearch:
    """Search for a model of *root* made of types; see the module docstring.

    Parameters
    ----------
    core, closure : the compiled formula and its closure (no distributed knowledge).
    root : int
    deadline : Deadline, optional
    stats : dict, optional
        Counters are added to it (``sat_calls``, ``search_types``, ``learned``).
    max_types : int
        Give up (``UNKNOWN``) after building this many types.
    know_first : bool
        Have the SAT solver try ``K`` and ``RC`` variables true first (MiniSat's
        phases, a preference only): a type then has fewer demands.  It settles
        some questions the default order does not, and loses others, so the
        prover tries it second.
    settle : bool
        A witness that must leave the demanding type's class for some agents tries
        to join one of their existing classes (:meth:`_settle`): fewer classes, so
        fewer demands; again it settles some questions and loses others.
    phase_seed : int, optional
        Draw the preferred polarity of every ``K`` and ``RC`` variable from this
        seed (a restart of the search in another part of the space; overrides
        *know_first*).
    """

    def __init__(self, core: Core, closure: Closure, root: int, deadline: Deadline | None = None,
                 stats: dict[str, Any] | None = None, max_types: int = MAX_SEARCH_TYPES,
                 know_first: bool = False, settle: bool = False, phase_seed: int | None = None) -> None:
        if closure.dgroups:
            raise ProverBug("the type search does not handle distributed knowledge")
        self.core, self.cl, self.root = core, closure, root
        self.deadline = deadline or Deadline(None)
        self.stats = stats if stats is not None else {}
        self.max_types = max_types
        self.know_first = know_first
        self.settle = settle
        self.phase_seed = phase_seed
        # the polarities: a node's value in a type is relied on only in the direction in which
        # it occurs (the pure-literal rule, as in :mod:`kop.reasoning.bddengine`), so the
        # abstraction keeps only those directions, and a K node that occurs only positively
        # has no demand

        pos, negative = polarities(core, closure, root)
        self.ab = ab = Abstraction(core, closure, (pos, negative))
        self.agents = closure.agents
        # per agent: (variable, literal of the argument, node) of its K nodes
        self.kn = {a: [(ab.var[n], ab.lit(core.kids[n][0]), n) for n in closure.demand_nodes(a)]
                   for a in self.agents}
        self.kvars = {a: [v for v, _, _ in self.kn[a]] for a in self.agents}
        self.dn = {a: [t for t in self.kn[a] if t[2] in negative] for a in self.agents}   # the demands
        # an unfolding node's variable -> the literals of its eventuality's goal, c & ~x
        self.goal: dict[int, list[int]] = {}
        for k, (r, _) in closure.unfold_of.items():
            c, x = core.kids[r]
            self.goal[ab.var[k]] = [lit for lit in (ab.lit(c), -ab.lit(x)) if lit != 1]

    def run(self) -> PseudoModel | None | _Unknown:
        """A candidate model (to be model checked), None (unsatisfiable) or ``UNKNOWN``."""
        root_lit = self.ab.lit(self.root)
        if root_lit == -1:
            return None
        with TimedSolver(self.ab.clauses, self.deadline, self.stats) as ts:
            self.ts = ts
            if self.phase_seed is not None:
                rng = random.Random(self.phase_seed)
                ts.set_phases([rng.choice((1, -1)) * self.ab.var[n] for n in self.cl.modal])
            elif self.know_first:          # K and RC true first: fewer demands per type
                ts.set_phases([self.ab.var[n] for n in self.cl.modal])
            return self._run(root_lit)

    # -- types ------------------------------------------------------------------
    def _new_type(self) -> int:
        val = bytes([0]) + bytes(1 if lit > 0 else 0 for lit in self.ts.model(self.ab.nvars))
        i = self.by_val.get(val)
        if i is not None:
            self.alive[i] = True
            return i
        i = len(self.vals)
        self.vals.append(val)
        self.alive.append(True)
        self.by_val[val] = i
        for a in self.agents:
            key = self._key(i, a)
            if (a, key) not in self.members:
                self.classes.setdefault(a, []).append(key)
            self.members.setdefault((a, key), []).append(i)
        self.stats["search_types"] = self.stats.get("search_types", 0) + 1
        return i

    def _key(self, i: int, a: str) -> bytes:
        val = self.vals[i]
        return bytes(val[v] for v in self.kvars[a])

    def _holds(self, i: int, lit: int) -> bool:
        return bool(self.vals[i][lit]) if lit > 0 else not self.vals[i][-lit]

    def _profile(self, i: int, a: str) -> list[int]:
        val = self.vals[i]
        return [v if val[v] else -v for v in self.kvars[a]]

    def _witness(self, i: int, a: str, key: bytes, var: int, want: int) -> int | None:
        """A live type in i's a-class with ``want`` (preferring an eventuality's goal); None after learning."""
        members = self.members.get((a, key), [])
        goal = self.goal.get(var)
        profile = self._profile(i, a)
        for lits in ([goal] if goal else []) + [[want]]:
            for j in members:
                if self.alive[j] and all(self._holds(j, lit) for lit in lits):
                    return j
            # a type that also shares as many of i's classes for the other agents as it can:
            # the agents whose profile literals are in the unsatisfiable core leave, one round each
            others = {b: self._profile(i, b) for b in self.agents if b != a}
            while True:
                base = profile + lits + [lit for b in others for lit in others[b]]
                if self.ts.solve(base):
                    if self.settle and len(others) < len(self.agents) - 1:
                        return self._settle(base, [b for b in self.agents if b != a and b not in others])
                    return self._new_type()
                if not others:
                    break
                core = set(self.ts.core())
                out = [b for b in others if core.intersection(others[b])]
                if not out:
                    others = {}
                for b in out:
                    del others[b]
        self._learn(want, var)
        return None

    def _settle(self, base: list[int], free: list[str]) -> int:
        """A new type under *base* that joins existing classes of the *free* agents where it can.

        A witness that cannot stay in the demanding type's class for an agent b would
        otherwise open a class of b with the SAT solver's choice of ``K_b`` values, and
        each new class brings demands of its own: the search then grows without end.
        The last satisfying call was under *base*; each free agent's existing classes
        are tried in turn (the most recent first, at most :data:`SETTLE_TRIES`).
        """
        fixed, last_sat = list(base), True
        for b in free:
            for key in self.classes.get(b, [])[::-1][:SETTLE_TRIES]:
                prof = [v if key[j] else -v for j, v in enumerate(self.kvars[b])]
                last_sat = self.ts.solve(fixed + prof)
                if last_sat:
                    fixed += prof
                    break
        if not last_sat and not self.ts.solve(fixed):   # the model must be the last call's
            raise ProverBug("a witness query that was satisfiable no longer is")
        return self._new_type()

    def _learn(self, want: int, var: int) -> None:
        """After a failed witness query: learn ``~L | K_a x`` from the unsatisfiable core L."""
        core = self.ts.core()
        if want not in core:
            raise ProverBug("a witness query failed without its demand in the core")
        clause = sorted({-lit for lit in core if lit != want} | {var})
        self.stats["learned"] = self.stats.get("learned", 0) + 1
        self.ts.add_clause(clause)
        killed = 0
        for j, val in enumerate(self.vals):
            if self.alive[j] and not any(self._holds(j, lit) for lit in clause):
                self.alive[j] = False
                killed += 1
        if not killed:
            raise ProverBug("a learned clause removed no type")

    # -- the search -----------------------------------------------------------------
    def _run(self, root_lit: int) -> PseudoModel | None | _Unknown:
        self.vals: list[bytes] = []
        self.alive: list[bool] = []
        self.by_val: dict[bytes, int] = {}
        self.members: dict[tuple[str, bytes], list[int]] = {}
        self.classes: dict[str, list[bytes]] = {}
        wit: dict[tuple[str, bytes, int], int] = {}
        root: int | None = None
        while True:
            self.deadline.check()
            if len(self.vals) > self.max_types:
                return UNKNOWN
            if root is None or not self.alive[root]:
                if not self.ts.solve([root_lit]):
                    return None
                root = self._new_type()
            order = [root]
            pos = {root: 0}
            done: set[tuple[str, bytes]] = set()
            failed = False
            k = 0
            while k < len(order) and not failed:
                i = order[k]
                k += 1
                val = self.vals[i]
                for a in self.agents:
                    key = self._key(i, a)
                    if (a, key) in done:
                        continue
                    done.add((a, key))
                    for var, arg, _ in self.dn[a]:
                        if val[var]:
                            continue
                        w = wit.get((a, key, var))
                        if w is None or not self.alive[w]:
                            w = self._witness(i, a, key, var, -arg)
                            if w is None:
                                failed = True
                                break
                            wit[(a, key, var)] = w
                        if w not in pos:
                            pos[w] = len(order)
                            order.append(w)
                    if failed:
                        break
            if not failed:
                return self._model(order, pos, wit)

    def _model(self, order: list[int], pos: dict[int, int], wit: dict[tuple[str, bytes, int], int]) -> PseudoModel:
        core, cl = self.core, self.cl
        atom_vars = [(core.label[n], self.ab.var[n]) for n in cl.atoms]
        infos = []
        for i in order:
            val = self.vals[i]
            keys: dict[Any, Any] = {a: self._key(i, a) for a in self.agents}
            demands: dict[Any, Any] = {a: [n for v, _, n in self.dn[a] if not val[v]] for a in self.agents}
            witness: dict[Any, Any] = {(a, n): pos[wit[(a, keys[a], v)]]
                                       for a in self.agents for v, _, n in self.dn[a] if not val[v]}
            atoms = frozenset(name for name, v in atom_vars if val[v])
            infos.append(TypeInfo(atoms, keys, demands, witness))
        self.stats["types"] = self.stats.get("types", 0) + len(order)
        return PseudoModel(infos, 0, cl.agents, (), tuple(sorted(core.label[n] for n in cl.atoms)))
