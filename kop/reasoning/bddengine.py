"""Satisfiability in S5_n with common, relativized common and distributed knowledge: symbolic type elimination.

The complete procedure for the whole (announcement-free) language, EXPTIME as
the logic requires.  The variables are the atoms and modal subformulas of the
closure (:class:`~kop.reasoning.core.Closure`); the set W of candidate types
is a BDD over them, initially the types that satisfy the local constraints::

    K_a x -> x     D_G x -> x     K_a x -> D_G x (a in G)     D_H x -> D_G x (H in G)
    C_G(c, x) <-> AND_{a in G} K_a(~c | (x & C_G(c, x)))      (the fixed point)

Because a's relation in S5 is "agrees on every K_a formula", the types that
can witness a demand of an a-class are found by quantifying away every
variable outside the a-profile P_a: a type with ``~K_a x`` survives iff
``exists (V - P_a) . (W & ~x)`` holds of it.  Type elimination repeats, until
nothing changes, W := W & (K_a x | exists(V - P_a).(W & ~x)) for every
``K_a x``, the same with the G-profile for every ``D_G x``, and for every
eventuality ``~C_G(c, x)`` it keeps only the types in the least fixed point
F = mu Z . OR_{a in G} exists(V - P_a).(W & c & (~x | (~C_G(c, x) & Z))),
the types from which a ``c``-path reaches ``c & ~x`` (Pratt 1979; Halpern &
Moses 1992, §6, for S5_n with C; Pan, Sattler & Vardi 2006 for the BDD
formulation).  The input is satisfiable iff W & input is not empty.

A pseudo-model is then read off W: a type of the input, and for every demand
a witness type picked from W, eventualities along the layers of F so that
every ``~C`` reaches its goal.

    >>> from kop import parse
    >>> from kop.reasoning.core import Core, Closure
    >>> core = Core(); root = core.compile(parse("~C{a,b} p & p & C{a,b}(p -> E{a,b} p)"))
    >>> BddEngine(core, Closure(core, [root]), root).run() is None     # induction axiom
    True

References: V. R. Pratt, *Models of program logics*, FOCS 1979; J. Y. Halpern,
Y. Moses, *A guide to completeness and complexity for modal logics of
knowledge and belief*, AIJ 54 (1992); G. Pan, U. Sattler, M. Y. Vardi,
*BDD-based decision procedures for the modal logic K*, J. Applied
Non-Classical Logics 16 (2006); R. Fagin, J. Y. Halpern, M. Y. Vardi, *What
can machines know?*, JACM 39 (1992) (distributed knowledge).
"""

from __future__ import annotations

from kop.reasoning.bdd import BDD
from kop.reasoning.core import AND, ATOM, DIST, FALSE, KNOW, NOT, OR, RC, TRUE, Closure, Core
from kop.reasoning.errors import ProverBug
from kop.reasoning.limits import Deadline
from kop.reasoning.pseudomodel import PseudoModel, TypeInfo

__all__ = ["BddEngine"]


class BddEngine:
    """Decide satisfiability of *root* by symbolic type elimination; build a pseudo-model.

    Parameters
    ----------
    core, closure : the compiled formula and its closure.
    root : int
    deadline : Deadline, optional
    stats : dict, optional
        Counters are added to it (``bdd_nodes``, ``rounds``, ``types``).
    """

    def __init__(self, core: Core, closure: Closure, root: int, deadline: Deadline | None = None,
                 stats: dict | None = None):
        self.core, self.cl, self.root = core, closure, root
        self.deadline = deadline or Deadline(None)
        self.stats = stats if stats is not None else {}
        self.b = BDD(check=self.deadline.check)
        # variable order: depth-first from the root, so a modal node sits near its argument
        self.vid: dict[int, int] = {}
        for n in self._dfs_order():
            if core.op[n] in (ATOM, KNOW, DIST, RC):
                self.vid[n] = len(self.vid)
        self.allvars = frozenset(self.vid.values())
        BDD.reserve_depth(len(self.vid))
        self.whos: list = list(closure.agents) + list(closure.dgroups)
        self.pnodes = {w: closure.profile_nodes(w) for w in self.whos}
        self.quant = {w: self.allvars - {self.vid[n] for n in self.pnodes[w]} for w in self.whos}
        self._bdd: dict[int, int] = {}

    def _dfs_order(self) -> list[int]:
        core = self.core
        seen: set[int] = set()
        out: list[int] = []
        roots = [self.root] + [n for n in self.cl.nodes if n != self.root]
        for r in roots:
            stack = [r]
            while stack:
                n = stack.pop()
                if n in seen:
                    continue
                seen.add(n)
                out.append(n)
                stack.extend(reversed(core.kids[n]))
                if core.op[n] == RC:
                    stack.extend(k for _, k in reversed(self.cl.unfold[n]))
        return out

    def f(self, n: int) -> int:
        """The BDD of node *n* over the type variables."""
        hit = self._bdd.get(n)
        if hit is not None:
            return hit
        core, b = self.core, self.b
        for m in core.below([n]):
            if m in self._bdd:
                continue
            o = core.op[m]
            if o in (ATOM, KNOW, DIST, RC):
                r = b.var(self.vid[m])
            elif o == TRUE:
                r = 1
            elif o == FALSE:
                r = 0
            elif o == NOT:
                r = b.NOT(self._bdd[core.kids[m][0]])
            elif o == AND:
                r = b.conj(self._bdd[k] for k in core.kids[m])
            elif o == OR:
                r = b.disj(self._bdd[k] for k in core.kids[m])
            else:  # pragma: no cover
                raise ProverBug(f"unknown node kind {o}")
            self._bdd[m] = r
        return self._bdd[n]

    # -- elimination --------------------------------------------------------------
    def _local(self) -> int:
        core, cl, b = self.core, self.cl, self.b
        parts = []
        for n in cl.modal:
            o = core.op[n]
            v = self.f(n)
            if o in (KNOW, DIST):
                x = core.kids[n][0]
                parts.append(b.IMPLIES(v, self.f(x)))
                if o == DIST:
                    g = set(core.label[n])
                    for a in g:
                        k = core.find(KNOW, a, (x,))
                        if k is not None and k in self.vid:
                            parts.append(b.IMPLIES(self.f(k), v))
                    for m in cl.modal:
                        if core.op[m] == DIST and m != n and core.kids[m][0] == x and set(core.label[m]) < g:
                            parts.append(b.IMPLIES(self.f(m), v))
            else:
                parts.append(b.IFF(v, b.conj(self.f(k) for _, k in cl.unfold[n])))
        return b.conj(parts)

    def _fulfil(self, w: int, n: int) -> list[int]:
        """The layers F_0 <= F_1 <= ... of the types that fulfil the eventuality ``~RC`` of node *n*."""
        core, b = self.core, self.b
        c, x = core.kids[n]
        fc, fx, fr = self.f(c), self.f(x), self.f(n)
        group = core.label[n]
        goal = b.AND(fc, b.NOT(fx))
        layer = b.disj(b.exists_and(w, goal, self.quant[a]) for a in group)
        layers = [layer]
        step_base = b.AND(fc, b.NOT(fr))
        while True:
            self.deadline.check()
            src = b.AND(step_base, layer)
            nxt = b.OR(layer, b.disj(b.exists_and(w, src, self.quant[a]) for a in group))
            if nxt == layer:
                return layers
            layer = nxt
            layers.append(layer)

    def eliminate(self) -> int:
        """The BDD of the surviving types (the greatest fixed point of elimination)."""
        core, cl, b = self.core, self.cl, self.b
        w = self._local()
        root = self.f(self.root)
        rounds = 0
        demands = [(n, a) for a in self.whos for n in cl.demand_nodes(a)]
        while True:
            rounds += 1
            self.deadline.check()
            before = w
            for n, who in demands:
                v = self.f(n)
                wit = b.exists_and(w, b.NOT(self.f(core.kids[n][0])), self.quant[who])
                w = b.AND(w, b.OR(v, wit))
            for n in cl.modal:
                if core.op[n] == RC:
                    w = b.AND(w, b.OR(self.f(n), self._fulfil(w, n)[-1]))
            if w == before or b.AND(w, root) == 0:
                break
        self.stats["rounds"] = self.stats.get("rounds", 0) + rounds
        self.stats["bdd_nodes"] = self.stats.get("bdd_nodes", 0) + len(b)
        return w

    # -- model extraction ----------------------------------------------------------
    def run(self) -> PseudoModel | None:
        """A pseudo-model whose root type satisfies the root node, or None when it is unsatisfiable."""
        w = self.eliminate()
        self._w_final = w
        b = self.b
        start = b.AND(w, self.f(self.root))
        if start == 0:
            return None
        core, cl = self.core, self.cl
        layers = {n: self._fulfil(w, n) for n in cl.modal if core.op[n] == RC}
        types: list[dict[int, bool]] = []
        infos: list[TypeInfo] = []
        by_key: dict[tuple, int] = {}
        index: dict[tuple, list[int]] = {}
        demand_nodes = {who: cl.demand_nodes(who) for who in self.whos}
        order = sorted(self.vid.values())

        def full(partial: dict[int, bool], like: dict[int, bool] | None = None) -> dict[int, bool]:
            like = like or {}
            return {v: partial.get(v, like.get(v, False)) for v in order}

        def keyof(t: dict[int, bool], who) -> tuple:
            return tuple(t[self.vid[n]] for n in self.pnodes[who])

        def add(t: dict[int, bool]) -> int:
            key = tuple(t[v] for v in order)
            i = by_key.get(key)
            if i is not None:
                return i
            if not b.evaluate(w, t):
                raise ProverBug("a picked type is not among the surviving types")
            i = len(types)
            types.append(t)
            by_key[key] = i
            keys = {who: keyof(t, who) for who in self.whos}
            for who in self.whos:
                index.setdefault((who, keys[who]), []).append(i)
            demands = {who: [n for n in demand_nodes[who] if not t[self.vid[n]]] for who in self.whos}
            atoms = frozenset(core.label[n] for n in cl.atoms if t[self.vid[n]])
            infos.append(TypeInfo(atoms, keys, demands))
            return i

        def target(t: dict[int, bool], who, n: int) -> int:
            """The BDD of the acceptable witnesses for demand *n* of type *t*."""
            want = b.NOT(self.f(core.kids[n][0]))
            ev = cl.unfold_of.get(n)
            if ev is not None and not t[self.vid[ev[0]]]:
                r, agent = ev
                rank, best = self._rank(t, r, layers[r])
                if best == agent:
                    c, x = core.kids[r]
                    goal = b.AND(self.f(c), b.NOT(self.f(x)))
                    if rank > 0:
                        goal = b.OR(goal, b.conj((self.f(c), b.NOT(self.f(r)), layers[r][rank - 1])))
                    want = b.AND(want, goal)
            return b.AND(w, want)

        first = b.pick(start)
        assert first is not None, "the start set is satisfiable here"
        root = add(full(first))
        todo = [root]
        while todo:
            self.deadline.check()
            i = todo.pop()
            t = types[i]
            info = infos[i]
            for who in self.whos:
                for n in info.demands[who]:
                    tgt = target(t, who, n)
                    found = None
                    for j in index.get((who, info.keys[who]), ()):
                        if b.evaluate(tgt, types[j]):
                            found = j
                            break
                    if found is None:
                        cube = b.cube({self.vid[m]: t[self.vid[m]] for m in self.pnodes[who]})
                        # as like the demanding type as possible: then it shares the other
                        # agents' classes, whose demands are already met
                        pick = b.pick(b.AND(tgt, cube), prefer=t)
                        if pick is None:
                            raise ProverBug("a surviving type has a demand without a witness")
                        before = len(types)
                        found = add(full(pick, like=t))
                        if found >= before:
                            todo.append(found)
                    info.witness[(who, n)] = found
        self.stats["types"] = self.stats.get("types", 0) + len(types)
        return PseudoModel(infos, root, cl.agents, cl.dgroups, tuple(sorted(core.label[n] for n in cl.atoms)))

    def _rank(self, t: dict[int, bool], r: int, layers: list[int]) -> tuple[int, str]:
        """The first layer of eventuality *r* containing *t*, and an agent whose class makes progress."""
        b, core = self.b, self.core
        for k, layer in enumerate(layers):
            if b.evaluate(layer, t):
                c, x = core.kids[r]
                goal = b.AND(self.f(c), b.NOT(self.f(x)))
                if k > 0:
                    goal = b.OR(goal, b.conj((self.f(c), b.NOT(self.f(r)), layers[k - 1])))
                for a in core.label[r]:
                    if b.evaluate(b.exists_and(self._w_final, goal, self.quant[a]), t):
                        return k, a
                raise ProverBug("an eventuality layer has no progressing agent")
        raise ProverBug("a surviving type does not fulfil its eventuality")
