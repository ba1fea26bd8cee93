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

Polarity (without distributed knowledge): a modal node that occurs only
positively needs only its "true" direction to be sound (``K_a x -> x``,
``RC -> unfolding``), one that occurs only negatively only its "false"
direction (the witness of ``~K_a x``, the unfolding's falsity and the
eventuality of ``~RC``); the value a type gives a node in the other direction
is never relied on, because the input is monotone in it.  This drops about
half the constraints and every eventuality of a ``C`` that occurs only
positively (Pan, Sattler & Vardi 2006, the "pure literal" optimization).

The steps (one per agent or D-group for its demands, one per eventuality) run
round-robin; a step is skipped when W has not changed since it last ran, and
elimination ends when every step has run on the current W without changing
it.  The BDDs are those of :mod:`kop.bdd.manager`: CUDD's when ``dd.cudd``
is available, else kop's own pure-Python package; the time limit is checked
between BDD operations.

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

from typing import Any

from kop.bdd.manager import Manager, new_manager
from kop.reasoning.core import AND, ATOM, DIST, FALSE, KNOW, NOT, OR, RC, TRUE, Closure, Core
from kop.reasoning.errors import ProverBug
from kop.reasoning.limits import Deadline
from kop.reasoning.pseudomodel import PseudoModel, TypeInfo

__all__ = ["BddEngine", "polarities"]

Who = str | tuple[str, ...]


def polarities(core: Core, closure: Closure, root: int) -> tuple[set[int], set[int]]:
    """The nodes of the closure that occur positively, and those that occur negatively, in *root*.

    ``~`` flips the polarity, ``RC_G(c, x)`` flips it for c, and an ``RC``
    node's unfolding nodes have the node's own polarities.
    """
    pos: set[int] = set()
    neg: set[int] = set()
    stack = [(root, True)]
    while stack:
        n, positive = stack.pop()
        seen = pos if positive else neg
        if n in seen:
            continue
        seen.add(n)
        o = core.op[n]
        if o == NOT:
            stack.append((core.kids[n][0], not positive))
        elif o == RC:
            c, x = core.kids[n]
            stack.append((c, not positive))
            stack.append((x, positive))
            stack.extend((k, positive) for _, k in closure.unfold[n])
        else:
            stack.extend((k, positive) for k in core.kids[n])
    return pos, neg


class BddEngine:
    """Decide satisfiability of *root* by symbolic type elimination; build a pseudo-model.

    Parameters
    ----------
    core, closure : the compiled formula and its closure.
    root : int
    deadline : Deadline, optional
    stats : dict, optional
        Counters are added to it (``bdd_nodes``, ``rounds``, ``types``, ``bdd``).
    backend : {"cudd", "python"}, optional
        The BDD package (default: CUDD when available).
    polarity : bool
        Keep only the directions of the constraints that the polarities of the
        nodes need (ignored with distributed knowledge, which keeps them all).
    """

    def __init__(self, core: Core, closure: Closure, root: int, deadline: Deadline | None = None,
                 stats: dict[str, Any] | None = None, backend: str | None = None, polarity: bool = True):
        self.core, self.cl, self.root = core, closure, root
        self.deadline = deadline or Deadline(None)
        self.stats = stats if stats is not None else {}
        # variable order: depth-first from the root, so a modal node sits near its argument
        self.vid: dict[int, int] = {}
        for n in self._dfs_order():
            if core.op[n] in (ATOM, KNOW, DIST, RC):
                self.vid[n] = len(self.vid)
        self.b: Manager[int] = new_manager(len(self.vid), backend, self.deadline.check)
        self.stats["bdd"] = self.b.name
        self.allvars = frozenset(self.vid.values())
        self.whos: list[Who] = [*closure.agents, *closure.dgroups]
        self.pnodes: dict[Who, list[int]] = {}
        for w in self.whos:
            self.deadline.check()
            self.pnodes[w] = closure.profile_nodes(w)
        self._quant: dict[Who, Any] = {}
        self._bdd: dict[int, Any] = {}
        if polarity and not closure.dgroups:
            self.pos, self.neg = polarities(core, closure, root)
        else:
            self.pos = self.neg = set(closure.nodes)

    def quant(self, who: Who) -> Any:
        """The variables outside the profile of *who*, in the manager's form."""
        q = self._quant.get(who)
        if q is None:
            self.deadline.check()
            keep = {self.vid[n] for n in self.pnodes[who]}
            q = self._quant[who] = self.b.quantifier(v for v in sorted(self.allvars) if v not in keep)
        return q

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

    def f(self, n: int) -> Any:
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
                r = b.true
            elif o == FALSE:
                r = b.false
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
    def _local(self) -> Any:
        core, cl, b = self.core, self.cl, self.b
        parts = []
        for n in cl.modal:
            self.deadline.check()
            o = core.op[n]
            v = self.f(n)
            if o in (KNOW, DIST):
                x = core.kids[n][0]
                if n in self.pos:
                    parts.append(b.IMPLIES(v, self.f(x)))
                if o == DIST:           # only with polarity off: every node has both
                    g = set(core.label[n])
                    for a in g:
                        k = core.find(KNOW, a, (x,))
                        if k is not None and k in self.vid:
                            parts.append(b.IMPLIES(self.f(k), v))
                    for m in cl.modal:
                        if core.op[m] == DIST and m != n and core.kids[m][0] == x and set(core.label[m]) < g:
                            parts.append(b.IMPLIES(self.f(m), v))
            else:
                unfold = b.conj(self.f(k) for _, k in cl.unfold[n])
                if n in self.pos:
                    parts.append(b.IMPLIES(v, unfold))
                if n in self.neg:
                    parts.append(b.IMPLIES(unfold, v))
        return b.conj(parts)

    def _goal(self, n: int, below: Any = None) -> Any:
        """``c & ~x`` of eventuality *n*, or with a layer *below*: ``c & (~x | (~RC & below))``."""
        b, core = self.b, self.core
        c, x = core.kids[n]
        goal = b.AND(self.f(c), b.NOT(self.f(x)))
        if below is not None:
            goal = b.OR(goal, b.conj((self.f(c), b.NOT(self.f(n)), below)))
        return goal

    def _fulfil(self, w: Any, n: int) -> list[Any]:
        """The layers F_0 <= F_1 <= ... of the types that fulfil the eventuality ``~RC`` of node *n*."""
        core, b = self.core, self.b
        c, _ = core.kids[n]
        group = core.label[n]
        # a step by agent a only from a type whose unfolding K_a(~c | (x & RC)) is false: then
        # it is a demand of the type, and the model read off W meets it one step closer
        unmet = {a: b.NOT(self.f(k)) for a, k in self.cl.unfold[n]}
        layer = b.disj(b.AND(unmet[a], b.exists_and(w, self._goal(n), self.quant(a))) for a in group)
        layers = [layer]
        step_base = b.AND(self.f(c), b.NOT(self.f(n)))
        while True:
            self.deadline.check()
            src = b.AND(step_base, layer)
            nxt = b.OR(layer, b.disj(b.AND(unmet[a], b.exists_and(w, src, self.quant(a))) for a in group))
            if nxt == layer:
                return layers
            layer = nxt
            layers.append(layer)

    def _demands(self, who: Who) -> list[int]:
        """The demand nodes of *who* whose falsity must be sound."""
        return [n for n in self.cl.demand_nodes(who) if n in self.neg]

    def _eventualities(self) -> list[int]:
        return [n for n in self.cl.modal if self.core.op[n] == RC and n in self.neg]

    def eliminate(self) -> Any:
        """The BDD of the surviving types (the greatest fixed point of elimination)."""
        core, b = self.core, self.b
        w = self._local()
        root = self.f(self.root)
        steps: list[tuple[str, Any]] = []
        for who in self.whos:
            ds = self._demands(who)
            if ds:
                steps.append(("demands", (who, ds)))
        steps.extend(("eventuality", n) for n in self._eventualities())
        version, last, i, quiet, runs = 0, [-1] * len(steps), 0, 0, 0
        alive = b.AND(w, root) != b.false
        while alive and quiet < len(steps):
            k = i % len(steps)
            i += 1
            if last[k] == version:
                quiet += 1
                continue
            self.deadline.check()
            runs += 1
            kind, what = steps[k]
            if kind == "demands":
                who, ds = what
                keep = b.true
                for n in ds:
                    wit = b.exists_and(w, b.NOT(self.f(core.kids[n][0])), self.quant(who))
                    keep = b.AND(keep, b.OR(self.f(n), wit))
            else:
                keep = b.OR(self.f(what), self._fulfil(w, what)[-1])
            new = b.AND(w, keep)
            if new != w:
                w, version, quiet = new, version + 1, 0
                alive = b.AND(w, root) != b.false
            else:
                quiet += 1
            last[k] = version
        self.stats["rounds"] = self.stats.get("rounds", 0) + -(-runs // max(1, len(steps)))
        self.stats["bdd_nodes"] = self.stats.get("bdd_nodes", 0) + b.size()
        return w

    # -- model extraction ----------------------------------------------------------
    def run(self) -> PseudoModel | None:
        """A pseudo-model whose root type satisfies the root node, or None when it is unsatisfiable."""
        w = self.eliminate()
        self.b.reorder(False)           # the BDDs are final: sifting would only cost now
        self._w_final = w
        self._progress: dict[tuple[int, int, str], Any] = {}
        b = self.b
        start = b.AND(w, self.f(self.root))
        if start == b.false:
            return None
        core, cl = self.core, self.cl
        layers = {n: self._fulfil(w, n) for n in self._eventualities()}
        types: list[dict[int, bool]] = []
        infos: list[TypeInfo] = []
        by_key: dict[tuple[bool, ...], int] = {}
        index: dict[tuple[Who, tuple[bool, ...]], list[int]] = {}
        demand_nodes = {who: self._demands(who) for who in self.whos}
        order = sorted(self.vid.values())

        def full(partial: dict[int, bool], like: dict[int, bool] | None = None) -> dict[int, bool]:
            like = like or {}
            return {v: partial.get(v, like.get(v, False)) for v in order}

        def keyof(t: dict[int, bool], who: Who) -> tuple[bool, ...]:
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

        def target(t: dict[int, bool], who: Who, n: int) -> Any:
            """The BDD of the acceptable witnesses for demand *n* of type *t* (those in W)."""
            want = b.NOT(self.f(core.kids[n][0]))
            ev = cl.unfold_of.get(n)
            if ev is not None and ev[0] in layers and not t[self.vid[ev[0]]]:
                r, agent = ev
                rank, best = self._rank(t, r, layers[r])
                if best == agent:
                    want = b.AND(want, self._goal(r, layers[r][rank - 1] if rank > 0 else None))
            return want

        first = b.pick(start)
        if first is None:  # pragma: no cover
            raise ProverBug("a non-empty BDD has no satisfying assignment")
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
                        pick = b.pick(b.AND(w, b.AND(tgt, cube)), prefer=t)
                        if pick is None:
                            raise ProverBug("a surviving type has a demand without a witness")
                        before = len(types)
                        found = add(full(pick, like=t))
                        if found >= before:
                            todo.append(found)
                    info.witness[(who, n)] = found
        self.stats["types"] = self.stats.get("types", 0) + len(types)
        return PseudoModel(infos, root, cl.agents, cl.dgroups, tuple(sorted(core.label[n] for n in cl.atoms)))

    def _rank(self, t: dict[int, bool], r: int, layers: list[Any]) -> tuple[int, str]:
        """The first layer of eventuality *r* containing *t*, and an agent whose class makes progress."""
        b, core = self.b, self.core
        for k, layer in enumerate(layers):
            if b.evaluate(layer, t):
                for a in core.label[r]:
                    progress = self._progress.get((r, k, a))
                    if progress is None:
                        goal = self._goal(r, layers[k - 1] if k > 0 else None)
                        unmet = b.NOT(self.f(dict(self.cl.unfold[r])[a]))
                        progress = self._progress[(r, k, a)] = b.AND(unmet, b.exists_and(self._w_final, goal,
                                                                                            self.quant(a)))
                    if b.evaluate(progress, t):
                        return k, a
                raise ProverBug("an eventuality layer has no progressing agent")
        raise ProverBug("a surviving type does not fulfil its eventuality")
