"""The prover's core language: a hash-consed DAG of integer nodes.

Formulas (announcement-free, see :mod:`kop.reasoning.announcements`) are
compiled into nine node kinds: atoms, true, false, not, and, or, ``K_a``,
``D_G`` (|G| >= 2) and relativized common knowledge ``RC_G(c, x)`` (plain
``C_G x`` is ``RC_G(true, x)``).  ``M``, ``Kw``, ``E``, ``->`` and ``<->`` are
rewritten by their definitions.  Construction applies S5_n-valid
simplifications (``K_a K_a x = K_a x``, ``K_a ~K_a x = ~K_a x``,
``K_a false = false``, ``D_{a} = K_a``, ``RC_{a}(c, x) = K_a(c -> x)``, flat
sorted n-ary and/or, ``K_a(x & y) = K_a x & K_a y``, ``K_a(x | y) = x | K_a y`` when
x is a boolean combination of ``K_a`` formulas, ...), so equal subformulas
share one node and nested knowledge of one agent is flattened.

:func:`closure` computes the Fischer-Ladner-style closure used by the
decision procedures: the nodes below the roots plus, for every ``RC_G(c, x)``,
its unfolding ``K_a(~c | (x & RC_G(c, x)))`` for each a in G
(``RC_G(c, x) <-> AND_a K_a(~c | (x & RC_G(c, x)))``).

    >>> from kop import parse
    >>> core = Core()
    >>> n = core.compile(parse("M_a p -> Kw_a p"))
    >>> core.show(n)
    '(K_a ~p | K_a p)'

Reference: M. J. Fischer, R. E. Ladner, *Propositional dynamic logic of regular
programs*, JCSS 18 (1979) (the closure); J. Y. Halpern, Y. Moses, *A guide to
completeness and complexity for modal logics of knowledge and belief*, AIJ 54
(1992) (S5_n with C).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from kop.syntax import formula as F

__all__ = ["Core", "ATOM", "TRUE", "FALSE", "NOT", "AND", "OR", "KNOW", "DIST", "RC",
           "closure", "Closure"]

ATOM, TRUE, FALSE, NOT, AND, OR, KNOW, DIST, RC = range(9)
_NAMES = ["atom", "true", "false", "not", "and", "or", "K", "D", "RC"]
#: node kinds that are variables of the propositional abstraction
MODAL = (KNOW, DIST, RC)


class Core:
    """A hash-consed DAG of core-language nodes (ids are small integers)."""

    def __init__(self, check: Callable[[], None] | None = None) -> None:
        self.check = check                 # called every 4096 new nodes (a deadline's check)
        self.op: list[int] = []
        self.kids: list[tuple[int, ...]] = []
        self.label: list[Any] = []         # atom name (str), agent (str), group (tuple of str) or None
        self._table: dict[tuple[int, object, tuple[int, ...]], int] = {}
        self._det: dict[tuple[str, int], bool] = {}
        self.true = self._mk(TRUE, None, ())
        self.false = self._mk(FALSE, None, ())

    def __len__(self) -> int:
        return len(self.op)

    def _mk(self, op: int, label: object, kids: tuple[int, ...]) -> int:
        key = (op, label, kids)
        n = self._table.get(key)
        if n is None:
            n = len(self.op)
            if n & 0xFFF == 0 and self.check is not None:
                self.check()
            self.op.append(op)
            self.kids.append(kids)
            self.label.append(label)
            self._table[key] = n
        return n

    def find(self, op: int, label: object, kids: tuple[int, ...]) -> int | None:
        """The node with this shape if it exists (never creates one)."""
        return self._table.get((op, label, kids))

    # -- constructors with simplification --------------------------------------
    def atom(self, name: str) -> int:
        return self._mk(ATOM, name, ())

    def neg(self, x: int) -> int:
        o = self.op[x]
        if o == NOT:
            return self.kids[x][0]
        if o == TRUE:
            return self.false
        if o == FALSE:
            return self.true
        return self._mk(NOT, None, (x,))

    def _junction(self, op: int, xs: Iterable[int], unit: int, zero: int) -> int:
        seen: set[int] = set()
        stack = list(xs)
        while stack:
            x = stack.pop()
            if self.op[x] == op:
                stack.extend(self.kids[x])
            elif x == zero:
                return zero
            elif x != unit:
                seen.add(x)
        for x in seen:
            if self.neg(x) in seen:
                return zero
        if not seen:
            return unit
        if len(seen) == 1:
            return next(iter(seen))
        return self._mk(op, None, tuple(sorted(seen)))

    def conj(self, xs: Iterable[int]) -> int:
        return self._junction(AND, xs, self.true, self.false)

    def disj(self, xs: Iterable[int]) -> int:
        return self._junction(OR, xs, self.false, self.true)

    def know(self, agent: str, x: int) -> int:
        """``K_agent x``, simplified by S5 laws: ``K(x & y) = K x & K y``; for an x that
        only depends on the agent's own knowledge (a boolean combination of ``K_agent``
        formulas), ``K x = x`` and ``K(x | y) = x | K y``."""
        if self.determined(agent, x):                # K K x = K x, K ~K x = ~K x, K true = true
            return x
        o = self.op[x]
        if o == FALSE:
            return x
        if o == AND:
            return self.conj(self.know(agent, k) for k in self.kids[x])
        if o == OR:
            det = [k for k in self.kids[x] if self.determined(agent, k)]
            if det:
                rest = [k for k in self.kids[x] if not self.determined(agent, k)]
                return self.disj(det + [self.know(agent, self.disj(rest))])
        return self._mk(KNOW, agent, (x,))

    def raw_know(self, agent: str, x: int) -> int:
        """``K_agent x`` exactly as written (no simplification)."""
        return self._mk(KNOW, agent, (x,))

    def determined(self, agent: str, x: int) -> bool:
        """True when x is a boolean combination of ``K_agent`` formulas (constant on agent's classes)."""
        key = (agent, x)
        hit = self._det.get(key)
        if hit is not None:
            return hit
        todo = [x]
        while todo:                                   # children before parents, without recursion
            n = todo[-1]
            if (agent, n) in self._det:
                todo.pop()
                continue
            o = self.op[n]
            if o in (NOT, AND, OR):
                pending = [k for k in self.kids[n] if (agent, k) not in self._det]
                if pending:
                    todo.extend(pending)
                    continue
                val = all(self._det[(agent, k)] for k in self.kids[n])
            else:
                val = o in (TRUE, FALSE) or (o == KNOW and self.label[n] == agent)
            self._det[(agent, n)] = val
            todo.pop()
        return self._det[key]

    def dist(self, group: tuple[str, ...], x: int) -> int:
        if len(group) == 1:
            return self.know(group[0], x)
        if self.op[x] in (TRUE, FALSE):
            return x
        return self._mk(DIST, tuple(group), (x,))

    def relc(self, group: tuple[str, ...], cond: int, x: int) -> int:
        if self.op[x] == TRUE or self.op[cond] == FALSE:
            return self.true
        if len(group) == 1:
            return self.know(group[0], self.disj((self.neg(cond), x)))
        if self.op[x] == FALSE:                 # no G-neighbour satisfies cond
            return self.conj(self.know(a, self.neg(cond)) for a in group)
        return self._mk(RC, tuple(group), (cond, x))

    # -- compilation ------------------------------------------------------------
    def compile(self, phi: F.Formula) -> int:
        """The node of an announcement-free formula (iterative, so deep formulas are fine)."""
        memo: dict[F.Formula, int] = {}
        for f in phi.subformulas():
            k = [memo[c] for c in f.children]
            memo[f] = self._compile_one(f, k)
        return memo[phi]

    def _compile_one(self, f: F.Formula, k: list[int]) -> int:
        f_: Any = f  # dispatched on its exact type below
        t = type(f)
        if t is F.Atom:
            return self.atom(f_.name)
        if t is F.Top:
            return self.true
        if t is F.Bottom:
            return self.false
        if t is F.Not:
            return self.neg(k[0])
        if t is F.And:
            return self.conj(k)
        if t is F.Or:
            return self.disj(k)
        if t is F.Implies:
            return self.disj((self.neg(k[0]), k[1]))
        if t is F.Iff:
            a, b = k
            return self.conj((self.disj((self.neg(a), b)), self.disj((a, self.neg(b)))))
        if t is F.Know:
            return self.know(f_.agent, k[0])
        if t is F.Possible:
            return self.neg(self.know(f_.agent, self.neg(k[0])))
        if t is F.KnowWhether:
            return self.disj((self.know(f_.agent, k[0]), self.know(f_.agent, self.neg(k[0]))))
        if t is F.Everyone:
            return self.conj(self.know(a, k[0]) for a in f_.group)
        if t is F.Common:
            return self.relc(f_.group, self.true, k[0])
        if t is F.Distributed:
            return self.dist(f_.group, k[0])
        if t is F.RelCommon:
            return self.relc(f_.group, k[0], k[1])
        raise TypeError(f"the core language has no {t.__name__}; eliminate announcements first")

    # -- inspection -------------------------------------------------------------
    def show(self, n: int) -> str:
        """A readable rendering of node *n* (for debugging and messages)."""
        out: dict[int, str] = {}
        for m in self.below([n]):
            o, kids, lab = self.op[m], self.kids[m], self.label[m]
            if o == ATOM:
                s = str(lab)
            elif o == TRUE:
                s = "true"
            elif o == FALSE:
                s = "false"
            elif o == NOT:
                s = "~" + out[kids[0]]
            elif o in (AND, OR):
                s = "(" + (" & " if o == AND else " | ").join(out[c] for c in kids) + ")"
            elif o == KNOW:
                s = f"K_{lab} {out[kids[0]]}"
            elif o == DIST:
                s = f"D{{{','.join(lab)}}} {out[kids[0]]}"
            else:
                s = f"C{{{','.join(lab)}}}({out[kids[0]]}, {out[kids[1]]})"
            out[m] = s
        return out[n]

    def below(self, roots: Iterable[int]) -> list[int]:
        """Every node reachable from *roots*, children before parents."""
        order: list[int] = []
        seen: set[int] = set()
        for r in roots:
            stack = [(r, False)]
            while stack:
                n, done = stack.pop()
                if done:
                    order.append(n)
                    continue
                if n in seen:
                    continue
                seen.add(n)
                stack.append((n, True))
                stack.extend((c, False) for c in self.kids[n] if c not in seen)
        return order

    def agents(self, nodes: Iterable[int]) -> set[str]:
        out: set[str] = set()
        for n in nodes:
            if self.op[n] == KNOW:
                out.add(self.label[n])
            elif self.op[n] in (DIST, RC):
                out.update(self.label[n])
        return out


class Closure:
    """The closure of some root nodes.

    Attributes
    ----------
    nodes : list of int
        Every node of the closure, children before parents.
    unfold : dict
        ``RC`` node -> tuple of (agent, its ``K_a(~c | (x & RC))`` node).
    unfold_of : dict
        ``K`` node -> the (``RC`` node, agent) it unfolds, for unfolding nodes.
    atoms, modal : list of int
        The atom nodes and the ``K``/``D``/``RC`` nodes (the variables of a type).
    agents : tuple of str
    """

    def __init__(self, core: Core, roots: Iterable[int], check: Callable[[], None] | None = None) -> None:
        self.core = core
        self.unfold: dict[int, tuple[tuple[str, int], ...]] = {}
        self.unfold_of: dict[int, tuple[int, str]] = {}
        pending = list(roots)
        done: set[int] = set()
        order: list[int] = []
        while pending:
            new = [n for n in core.below(pending) if n not in done]
            pending = []
            for n in new:
                if check is not None and not len(done) & 0xFFF:
                    check()
                done.add(n)
                order.append(n)
                if core.op[n] == RC:
                    c, x = core.kids[n]
                    body = core.disj((core.neg(c), core.conj((x, n))))
                    pairs = tuple((a, core.raw_know(a, body)) for a in core.label[n])
                    self.unfold[n] = pairs
                    for a, k in pairs:
                        if k not in self.unfold_of:
                            self.unfold_of[k] = (n, a)
                        if k not in done:
                            pending.append(k)
        self.nodes = order
        self.atoms = [n for n in order if core.op[n] == ATOM]
        self.modal = [n for n in order if core.op[n] in MODAL]
        self.agents = tuple(sorted(core.agents(order)))
        #: groups of two or more agents that occur in D
        self.dgroups = tuple(sorted({core.label[n] for n in order if core.op[n] == DIST},
                                    key=lambda g: (len(g), g)))
        self.has_rc = any(core.op[n] == RC for n in order)
        self._know_of: dict[str, list[int]] = {}
        for n in self.modal:
            if core.op[n] == KNOW:
                self._know_of.setdefault(core.label[n], []).append(n)

    def profile_nodes(self, who: str | tuple[str, ...]) -> list[int]:
        """The modal nodes whose truth an a-class (or a D_G-class) shares: its ``K_a``
        nodes, and for a group G the ``K_a`` (a in G) and ``D_H`` (H a subset of G) nodes."""
        core = self.core
        if isinstance(who, str):
            return list(self._know_of.get(who, ()))
        g = set(who)
        return [n for n in self.modal
                if (core.op[n] == KNOW and core.label[n] in g)
                or (core.op[n] == DIST and set(core.label[n]) <= g)]

    def demand_nodes(self, who: str | tuple[str, ...]) -> list[int]:
        """The modal nodes whose falsity is a demand on the class of *who* (its K_a or D_G nodes)."""
        core = self.core
        if isinstance(who, str):
            return list(self._know_of.get(who, ()))
        return [n for n in self.modal if core.op[n] == DIST and core.label[n] == who]
