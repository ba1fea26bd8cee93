"""Satisfiability in S5_n (knowledge, no C or D): a SAT-driven tableau with learned clauses.

A *node* is a truth assignment, found by an incremental SAT solver, to the
atoms and ``K_a`` subformulas of the closure that satisfies the propositional
abstraction and the local constraints ``K_a x -> x``.  A node at level j
(distance from the root) has the *budget* ``b = md - j`` (md the modal depth of
the input): only subformulas of modal depth <= b have to be right there,
exactly as in Ladner's and Halpern & Moses's tableaux.

A node meets its demand ``~K_a x`` (depth <= b) with a witness at level j+1,
found by one SAT call whose assumptions are the node's ``K_a`` literals of
depth <= b (the witness shares a's class) and ``~x``.  Nodes already built are
reused first, and a class is identified by (level, agent, the ``K_a`` literals
up to the budget), so equal classes are built once (global caching).  When a
demand has no witness, the unsatisfiable core L (a subset of the ``K_a``
literals) yields the clause ``~L | K_a x``.  It is valid in S5_n (L holds
throughout an a-class), so it stays for good and removes every node that
shares the failing part of the profile; the search goes on from the root.

The loop ends with either an unsatisfiable root (refuted by valid clauses
only) or a finished graph of nodes, which *is* a Kripke model: agent a
cannot tell apart the nodes of one class.  Each round adds a node or learns a
clause that forbids an assignment at a level forever, so it terminates; no
bound on model size is guessed.  With one agent this is the NP procedure for
S5 (one world per ``~K`` subformula, Ladner 1977) driven by SAT.

    >>> from kop import parse
    >>> from kop.reasoning.core import Core, Closure
    >>> core = Core(); root = core.compile(parse("M_a p & M_a ~p & K_b q"))
    >>> pm = SatEngine(core, Closure(core, [root]), root).run()
    >>> len(pm.types)
    3

References: R. E. Ladner, *The computational complexity of provability in
systems of modal propositional logic*, SIAM J. Comput. 6 (1977); J. Y.
Halpern, Y. Moses, *A guide to completeness and complexity for modal logics
of knowledge and belief*, AIJ 54 (1992); T. Caridroit, J.-M. Lagniez, D. Le
Berre, T. de Lima, V. Montmirail, *A SAT-based approach for solving the modal
logic S5-satisfiability problem*, AAAI 2017; R. Goré, L. A. Nguyen, *Sound
global state caching for ALC with inverse roles*, TABLEAUX 2009 (caching).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kop.reasoning.abstraction import SOLVER, Abstraction, TimedSolver
from kop.reasoning.core import KNOW, Closure, Core
from kop.reasoning.errors import ProverBug
from kop.reasoning.limits import Deadline
from kop.reasoning.pseudomodel import PseudoModel, TypeInfo, Who

__all__ = ["SatEngine", "SOLVER"]


class _Node:
    __slots__ = ("val", "alive", "level", "creator", "pkey", "witness", "index", "profiles", "joined")

    def __init__(self, val: bytes, level: int, creator: str | None, pkey: bytes | None, index: int,
                 joined: dict[str, bytes]):
        self.val = val            # val[v] == 1 iff variable v is true (v >= 1); bytes
        self.alive = True
        self.level = level
        self.creator = creator    # the agent whose demand created it (None at the root)
        self.pkey = pkey          # the creator's class: the parent's K_creator literals up to its budget
        self.witness: dict[tuple[str, int], _Node] = {}
        self.index = index
        self.profiles: dict[str, tuple[list[int], bytes]] = {}
        self.joined = joined      # agent -> key of the parent's class it joined (besides the creator's)


class SatEngine:
    """Decide satisfiability of *root* (a core node without ``C`` and ``D``); build a model.

    Parameters
    ----------
    core, closure : the compiled formula and its closure.
    root : int
    deadline : Deadline, optional
    stats : dict, optional
        Counters are added to it (``sat_calls``, ``types``, ``learned``).
    """

    def __init__(self, core: Core, closure: Closure, root: int, deadline: Deadline | None = None,
                 stats: dict[str, Any] | None = None) -> None:
        if closure.has_rc or closure.dgroups:
            raise ProverBug("the SAT engine handles neither common nor distributed knowledge")
        self.core, self.cl, self.root = core, closure, root
        self.deadline = deadline or Deadline(None)
        self.stats = stats if stats is not None else {}
        self.ab = Abstraction(core, closure)
        self.var, self.nvars, self.lit = self.ab.var, self.ab.nvars, self.ab.lit
        self.depth: dict[int, int] = {}
        for n in closure.nodes:                  # children first
            d = max((self.depth[k] for k in core.kids[n]), default=0)
            self.depth[n] = d + (1 if core.op[n] == KNOW else 0)
        self.md = self.depth.get(root, 0)
        self.agents = closure.agents
        # per agent: (depth, var, argument literal) of its K nodes, shallow first
        self.kn = {a: sorted((self.depth[n], self.var[n], self.lit(core.kids[n][0]))
                             for n in closure.demand_nodes(a)) for a in self.agents}
        self.tvars = sorted((self.depth[n], self.var[n]) for n in closure.atoms + closure.modal)
        # per budget: the type variables, and per agent the K variables, that matter there
        self._bvars = {b: [v for d, v in self.tvars if d <= b] for b in range(self.md + 1)}
        self._kvars = {(a, b): [v for d, v, _ in self.kn[a] if d <= b]
                       for a in self.agents for b in range(self.md + 1)}

    # -- the procedure ------------------------------------------------------------
    def run(self) -> PseudoModel | None:
        """A model (as a pseudo-model whose types are its worlds) of the root, or None when unsatisfiable."""
        root_lit = self.lit(self.root)
        if root_lit == -1:
            return None
        with TimedSolver(self.ab.clauses, self.deadline, self.stats) as ts:
            self.ts = ts
            return self._run(root_lit)

    def _solve(self, assumptions: list[int]) -> bool:
        return self.ts.solve(assumptions)

    def _budget_key(self, val: bytes, budget: int) -> bytes:
        return bytes([val[v] for v in self._bvars[budget]])

    def _profile(self, node: _Node, agent: str) -> tuple[list[int], bytes]:
        """The node's ``K_agent`` literals up to its budget, and their values as a key."""
        hit = node.profiles.get(agent)
        if hit is None:
            val = node.val
            vs = self._kvars[(agent, self.md - node.level)]
            hit = ([v if val[v] else -v for v in vs], bytes([val[v] for v in vs]))
            node.profiles[agent] = hit
        return hit

    def _new_node(self, level: int, creator: str | None, pkey: bytes | None,
                  joined: dict[str, bytes] | None = None) -> _Node:
        val = b"\x00" + bytes(map((0).__lt__, self.ts.model(self.nvars)))   # val[v] == 1 iff v is true
        joined = joined or {}
        key = (level, creator, pkey, tuple(sorted(joined.items())), self._budget_key(val, self.md - level))
        old = self.nodes.get(key)
        if old is not None:
            old.val, old.alive, old.witness, old.profiles = val, True, {}, {}
            node = old
        else:
            node = _Node(val, level, creator, pkey, len(self.nodes), joined)
            self.nodes[key] = node
            self.stats["types"] = self.stats.get("types", 0) + 1
        if creator is not None:
            self.index.setdefault((level, creator, pkey), []).append(node)
        return node

    @staticmethod
    def holds(node: _Node, lit: int) -> bool:
        return bool(node.val[lit]) if lit > 0 else not node.val[-lit]

    def _learn(self, clause: list[int], must_kill: bool = True) -> None:
        self.stats["learned"] = self.stats.get("learned", 0) + 1
        self.ts.add_clause(clause)
        holds = self.holds
        killed = 0
        for node in self.nodes.values():
            if node.alive and not any(holds(node, lit) for lit in clause):
                node.alive = False
                killed += 1
        if not killed and must_kill:
            raise ProverBug("a learned clause removed no node")

    def _witness(self, node: _Node, agent: str, var: int, want: int) -> _Node | None:
        """A live witness for the demand ``~K_agent x`` (*want* is ``~x``), or None after learning."""
        profile, pkey = self._profile(node, agent)
        level = node.level + 1
        # the classes this node opened, which a witness may join (then it has no demands there)
        opened = {b: self._profile(node, b) for b in self.agents
                  if b != agent and b != node.creator and b not in node.joined}
        for w in self.index.get((level, agent, pkey), ()):
            if w.alive and self.holds(w, want) and \
                    all(b in opened and opened[b][1] == k for b, k in w.joined.items()):
                return w
        if opened:
            extra = [lit for b in opened for lit in opened[b][0]]
            if self._solve(profile + extra + [want]):
                return self._new_node(level, agent, pkey, {b: opened[b][1] for b in opened})
        if self._solve(profile + [want]):
            return self._new_node(level, agent, pkey)
        self._learn_from_core(want, var)
        return None

    def _learn_from_core(self, want: int, var: int, must_kill: bool = True) -> None:
        """After a failed witness query: learn ``~L | K x`` from a (shrunk) unsatisfiable core L."""
        core = self.ts.core()
        if want not in core:
            raise ProverBug("a witness query failed without its demand in the core")
        for _ in range(3):                      # re-solving under the core often shrinks it
            if len(core) <= 2 or self._solve([want] + [c for c in core if c != want]):
                break
            smaller = self.ts.core() or core
            if len(smaller) >= len(core) or want not in smaller:
                break
            core = smaller
        self._learn(sorted({-lit for lit in core if lit != want} | {var}), must_kill)

    def _more_lessons(self, node: _Node, agent: str, demands: Iterable[tuple[int, int]]) -> None:
        """The node just died on one demand: learn from its other failing demands of *agent* too."""
        profile, _ = self._profile(node, agent)
        # drop the literals of the demands already refuted, or the profile itself is now refuted
        failed = {-v for v in self._failed}
        profile = [lit for lit in profile if lit not in failed]
        for var, want in demands:
            if not self._solve(profile + [want]):
                if want not in self.ts.core():
                    return
                self._learn_from_core(want, var, must_kill=False)
                profile.remove(-var)

    def _run(self, root_lit: int) -> PseudoModel | None:
        self.nodes: dict[tuple[object, ...], _Node] = {}
        self.index: dict[tuple[int, str | None, bytes | None], list[_Node]] = {}
        root: _Node | None = None
        while True:
            self.deadline.check()
            if root is None or not root.alive:
                if not self._solve([root_lit]):
                    return None
                root = self._new_node(0, None, None)
            seen = {id(root)}
            order = [root]
            failed = False
            i = 0
            while i < len(order) and not failed:
                node = order[i]
                i += 1
                b = self.md - node.level
                for agent in self.agents:
                    if agent == node.creator or agent in node.joined:
                        continue            # the class it joined meets these demands
                    for d, var, arg in self.kn[agent]:
                        if d > b:
                            break
                        if node.val[var]:
                            continue
                        w = node.witness.get((agent, var))
                        if w is None or not w.alive:
                            w = self._witness(node, agent, var, -arg)
                            if w is None:
                                failed = True
                                self._failed = [var]
                                rest = [(v2, -a2) for d2, v2, a2 in self.kn[agent]
                                        if d2 <= b and v2 != var and not node.val[v2]]
                                self._more_lessons(node, agent, rest)
                                break
                            node.witness[(agent, var)] = w
                        if id(w) not in seen:
                            seen.add(id(w))
                            order.append(w)
                    if failed:
                        break
            if not failed:
                return self._model(order)

    def _model(self, order: list[_Node]) -> PseudoModel:
        """The finished graph as a pseudo-model whose types are the worlds (one class key per agent)."""
        core, cl = self.core, self.cl
        pos = {id(n): i for i, n in enumerate(order)}
        atom_vars = [(core.label[n], self.var[n]) for n in cl.atoms]
        infos = []
        for node in order:
            keys: dict[Who, tuple[int, bytes | None]] = {}
            for a in self.agents:
                if a == node.creator:
                    keys[a] = (node.level - 1, node.pkey)
                elif a in node.joined:
                    keys[a] = (node.level - 1, node.joined[a])
                else:
                    keys[a] = (node.level, self._profile(node, a)[1])
            witness: dict[tuple[Who, int], int] = {(a, var): pos[id(w)] for (a, var), w in node.witness.items()}
            demands: dict[Who, list[int]] = {a: [var for (b, var) in node.witness if b == a] for a in self.agents}
            infos.append(TypeInfo(frozenset(name for name, v in atom_vars if node.val[v]), keys, demands, witness))
        return PseudoModel(infos, 0, cl.agents, (), tuple(sorted(core.label[n] for n in cl.atoms)))
