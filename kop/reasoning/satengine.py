"""Satisfiability in S5_n with distributed knowledge: lazy type elimination on a SAT solver.

For formulas without common knowledge.  A *type* is an assignment to the atoms
and modal subformulas (``K_a x``, ``D_G x``) of the closure that satisfies the
propositional abstraction and the local constraints ``K_a x -> x``,
``D_G x -> x``, ``K_a x -> D_G x`` (a in G) and ``D_H x -> D_G x`` (H a subset
of G).  In S5_n two worlds are a-related iff they agree on every ``K_a``
formula, so a type's demand ``~K_a x`` is met by any type with the same
``K_a``-profile and ``~x`` (and ``~D_G x`` by one with the same G-profile).

The procedure builds, from a type of the input, the types its demands need,
each found by one incremental SAT call whose assumptions are the profile and
``~x``; types already built are reused first.  When a demand has no witness,
the solver's unsatisfiable core L (a subset of the profile) gives the clause
``~L | K_a x``, which is valid in S5_n (L holds throughout the a-class), so it
is added for good: it removes the failing type and every type that shares the
failing part of its profile.  The loop ends with either an unsatisfiable input
(valid clauses refute it) or a set of types closed under witnesses, which is a
pseudo-model (:mod:`kop.reasoning.pseudomodel`).  Every round adds a new type
or removes one, so it terminates; no bound on model size is guessed.

With one agent this is the NP procedure for S5 (models of at most one world
per ``~K`` subformula plus one, Ladner 1977) driven by SAT, as in S5Cheetah.

    >>> from kop import parse
    >>> from kop.reasoning.core import Core, Closure
    >>> core = Core(); root = core.compile(parse("M_a p & M_a ~p & K_b q"))
    >>> pm = SatEngine(core, Closure(core, [root]), root).run()
    >>> len(pm.types) >= 2
    True

References: R. E. Ladner, *The computational complexity of provability in
systems of modal propositional logic*, SIAM J. Comput. 6 (1977); V. R. Pratt,
*Models of program logics*, FOCS 1979 (type elimination); T. Caridroit,
J.-M. Lagniez, D. Le Berre, T. de Lima, V. Montmirail, *A SAT-based approach
for solving the modal logic S5-satisfiability problem*, AAAI 2017; R. Fagin,
J. Y. Halpern, M. Y. Vardi, *What can machines know?*, JACM 39 (1992)
(distributed knowledge).
"""

from __future__ import annotations

import threading

from pysat.solvers import Solver

from kop.reasoning.core import AND, ATOM, DIST, FALSE, KNOW, NOT, OR, RC, TRUE, Closure, Core
from kop.reasoning.errors import ProverBug
from kop.reasoning.limits import Deadline
from kop.reasoning.pseudomodel import PseudoModel, TypeInfo

__all__ = ["SatEngine"]

#: the SAT solver used (python-sat name)
SOLVER = "minisat22"


class _Type:
    __slots__ = ("val", "alive", "index")

    def __init__(self, val: bytearray, index: int):
        self.val = val          # val[v] == 1 iff variable v is true (v >= 1)
        self.alive = True
        self.index = index


class SatEngine:
    """Decide satisfiability of *root* (a C-free core node) and build a pseudo-model.

    Parameters
    ----------
    core, closure : the compiled formula and its closure.
    root : int
        The node to satisfy.
    deadline : Deadline, optional
    stats : dict, optional
        Counters are added to it (``sat_calls``, ``types``, ``learned``).
    """

    def __init__(self, core: Core, closure: Closure, root: int, deadline: Deadline | None = None,
                 stats: dict | None = None):
        if closure.has_rc:
            raise ProverBug("the SAT engine does not handle common knowledge")
        self.core, self.cl, self.root = core, closure, root
        self.deadline = deadline or Deadline(None)
        self.stats = stats if stats is not None else {}
        self.var: dict[int, int] = {}
        self.clauses: list[list[int]] = []
        self._encode()
        self.whos: list = list(closure.agents) + list(closure.dgroups)
        self.pvars = {w: [self.var[n] for n in closure.profile_nodes(w)] for w in self.whos}
        self.dem = {w: [(n, self.var[n], self.lit(core.kids[n][0])) for n in closure.demand_nodes(w)]
                    for w in self.whos}
        self.typevars = [self.var[n] for n in closure.atoms + closure.modal]

    # -- encoding ---------------------------------------------------------------
    def lit(self, n: int) -> int:
        o = self.core.op[n]
        if o == NOT:
            return -self.lit(self.core.kids[n][0])
        if o == TRUE:
            return self._true
        if o == FALSE:
            return -self._true
        return self.var[n]

    def _encode(self) -> None:
        core, cl = self.core, self.cl
        nv = 1
        self._true = 1
        self.clauses.append([1])
        for n in cl.nodes:
            if core.op[n] in (ATOM, KNOW, DIST, AND, OR):
                nv += 1
                self.var[n] = nv
        self.nvars = nv
        for n in cl.nodes:
            o = core.op[n]
            if o in (AND, OR):
                v = self.var[n]
                ks = [self.lit(k) for k in core.kids[n]]
                if o == AND:
                    self.clauses.extend([-v, k] for k in ks)
                    self.clauses.append([v] + [-k for k in ks])
                else:
                    self.clauses.extend([v, -k] for k in ks)
                    self.clauses.append([-v] + ks)
            elif o in (KNOW, DIST):
                x = core.kids[n][0]
                self.clauses.append([-self.var[n], self.lit(x)])       # T: K x -> x, D x -> x
                if o == DIST:
                    g = core.label[n]
                    for a in g:                                          # K_a x -> D_G x
                        k = core.find(KNOW, a, (x,))
                        if k is not None and k in self.var:
                            self.clauses.append([-self.var[k], self.var[n]])
                    for m in cl.modal:                                   # D_H x -> D_G x
                        if core.op[m] == DIST and core.kids[m][0] == x and m != n \
                                and set(core.label[m]) < set(g):
                            self.clauses.append([-self.var[m], self.var[n]])
            elif o == RC:  # pragma: no cover - excluded in __init__
                raise ProverBug("RC node in the SAT engine")

    # -- the procedure ------------------------------------------------------------
    def run(self) -> PseudoModel | None:
        """A pseudo-model whose root type satisfies the root node, or None when it is unsatisfiable."""
        root_lit = self.lit(self.root)
        if root_lit == -self._true:
            return None
        self.solver = Solver(name=SOLVER, bootstrap_with=self.clauses)
        timer = None
        rem = self.deadline.remaining()
        self._interrupted = False
        if rem is not None:
            def _stop() -> None:
                self._interrupted = True
                self.solver.interrupt()
            timer = threading.Timer(max(rem, 0.0), _stop)
            timer.daemon = True
            timer.start()
        try:
            return self._run(root_lit)
        finally:
            if timer is not None:
                timer.cancel()
            self.solver.delete()

    def _solve(self, assumptions: list[int]) -> bool:
        self.stats["sat_calls"] = self.stats.get("sat_calls", 0) + 1
        if self.deadline.end is None:
            return self.solver.solve(assumptions=assumptions)
        res = self.solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        if res is None or self._interrupted:
            raise self.deadline.timeout()
        return res

    def _new_type(self) -> _Type:
        model = self.solver.get_model()
        val = bytearray(self.nvars + 1)
        for lit in model:
            if lit > 0 and lit <= self.nvars:
                val[lit] = 1
        key = bytes(val[v] for v in self.typevars)
        old = self.by_key.get(key)
        if old is not None and old.alive:
            return old
        t = _Type(val, len(self.types))
        self.types.append(t)
        self.by_key[key] = t
        for w in self.whos:
            self.index.setdefault((w, self.pkey(t, w)), []).append(t)
        self.stats["types"] = self.stats.get("types", 0) + 1
        return t

    def pkey(self, t: _Type, who) -> bytes:
        val = t.val
        return bytes(val[v] for v in self.pvars[who])

    @staticmethod
    def holds(t: _Type, lit: int) -> bool:
        return bool(t.val[lit]) if lit > 0 else not t.val[-lit]

    def _learn(self, clause: list[int]) -> None:
        self.stats["learned"] = self.stats.get("learned", 0) + 1
        self.solver.add_clause(clause)
        holds = self.holds
        killed = 0
        for t in self.types:
            if t.alive and not any(holds(t, lit) for lit in clause):
                t.alive = False
                killed += 1
        if not killed:
            raise ProverBug("a learned clause removed no type")
        for key, lst in self.index.items():
            if any(not t.alive for t in lst):
                self.index[key] = [t for t in lst if t.alive]

    def _witness(self, t: _Type, who, var: int, want: int) -> _Type | None:
        """A live type in *t*'s *who*-class satisfying literal *want*, or None after learning why not."""
        for s in self.index.get((who, self.pkey(t, who)), ()):
            if s.alive and self.holds(s, want):
                return s
        profile = [v if t.val[v] else -v for v in self.pvars[who]]
        if self._solve(profile + [want]):
            return self._new_type()
        core = self.solver.get_core() or []
        if want not in core:
            raise ProverBug("a witness query failed without its demand in the core")
        clause = sorted({-lit for lit in core if lit != want} | {var})
        self._learn(clause)
        return None

    def _run(self, root_lit: int) -> PseudoModel | None:
        self.types: list[_Type] = []
        self.by_key: dict[bytes, _Type] = {}
        self.index: dict[tuple, list[_Type]] = {}
        clusters: dict[tuple, dict[int, _Type]] = {}
        root: _Type | None = None
        while True:
            self.deadline.check()
            if root is None or not root.alive:
                if not self._solve([root_lit]):
                    return None
                root = self._new_type()
            seen = {root.index: root}
            stack = [root]
            failed = False
            while stack and not failed:
                t = stack.pop()
                for who in self.whos:
                    chosen = clusters.setdefault((who, self.pkey(t, who)), {})
                    for node, var, arg in self.dem[who]:
                        if t.val[var]:
                            continue
                        w = chosen.get(var)
                        if w is None or not w.alive:
                            w = self._witness(t, who, var, -arg)
                            if w is None:
                                failed = True
                                break
                            chosen[var] = w
                        if w.index not in seen:
                            seen[w.index] = w
                            stack.append(w)
                    if failed:
                        break
            if not failed:
                return self._pseudo(root, seen, clusters)

    def _pseudo(self, root: _Type, seen: dict[int, _Type], clusters: dict) -> PseudoModel:
        core, cl = self.core, self.cl
        order = sorted(seen.values(), key=lambda t: (t is not root, t.index))
        pos = {t.index: i for i, t in enumerate(order)}
        atom_vars = [(core.label[n], self.var[n]) for n in cl.atoms]
        infos = []
        for t in order:
            keys = {w: self.pkey(t, w) for w in self.whos}
            demands, witness = {}, {}
            for w in self.whos:
                chosen = clusters[(w, keys[w])]
                ds = [node for node, var, _ in self.dem[w] if not t.val[var]]
                demands[w] = ds
                for node, var, _ in self.dem[w]:
                    if not t.val[var]:
                        witness[(w, node)] = pos[chosen[var].index]
            infos.append(TypeInfo(frozenset(name for name, v in atom_vars if t.val[v]), keys, demands, witness))
        return PseudoModel(infos, 0, cl.agents, cl.dgroups, tuple(sorted(core.label[n] for n in cl.atoms)))
