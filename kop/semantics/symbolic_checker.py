"""Symbolic model checking: the BDD of the states where a formula holds.

:class:`Translator` turns a formula into a BDD over the vocabulary of a
knowledge structure (``bddOf`` in SMCDEL), for a given state law θ:

* atoms are BDD variables, connectives are BDD operations;
* ``K_i φ`` is ``∀(V∖O_i)(θ → φ)``, ``M_i φ`` is ``∃(V∖O_i)(θ ∧ φ)``,
  ``Kw_i φ`` is ``K_i φ ∨ K_i ¬φ``, ``E_G`` the conjunction of the ``K_i``;
* ``D_G φ`` is ``∀(V∖⋃_{i∈G} O_i)(θ → φ)``;
* ``C_G φ`` is the greatest fixed point of ``X ↦ ⋀_{i∈G} ∀(V∖O_i)(θ → (φ ∧ X))``
  and relativized ``C_G(φ, ψ)`` that of ``X ↦ ⋀_{i∈G} ∀(V∖O_i)(θ → (φ → (ψ ∧ X)))``;
* ``[!φ]ψ`` is ``φ → ψ'`` and ``<!φ>ψ`` is ``φ ∧ ψ'``, where ψ' is ψ
  translated under the law ``θ ∧ φ`` (the announcement's structure);
* "announcing whether" — ``[!φ]ψ & [!~φ]ψ`` or ``<!φ>ψ | <!~φ>ψ`` — is
  translated once, under the law ``θ ∧ (k ↔ φ)`` with a fresh variable k that
  every agent observes (placed in the order just below φ's deepest variable),
  as ``ite(φ, ψ'[k:=1], ψ'[k:=0])``.  The structure
  with k is the disjoint union of the two announcements' structures, so this
  agrees with translating both conjuncts; nested n deep it needs n laws, not 2^n.

A BDD is exact only on the states that satisfy the law; outside them it is
unspecified.  Results are memoized per (law, formula), propositional
formulas per formula alone.  The translation is iterative (no recursion), so
deeply nested formulas do not exhaust Python's stack.

Example
-------
>>> from kop import KnowledgeStructure
>>> ks = KnowledgeStructure(["p", "q"], "p | q", {"a": ["p"], "b": ["q"]})
>>> ks.count("K_a p"), ks.count("K_a q"), ks.count("C{a,b} (p | q)")
(2, 1, 3)

Reference: van Benthem, van Eijck, Gattinger & Su, *Symbolic model checking
for Dynamic Epistemic Logic* (LORI 2015), Definition 2 and Theorem 2 (the
boolean translation); Gattinger, *New Directions in Model Checking Dynamic
Epistemic Logic* (PhD thesis, 2018), ch. 2; SMCDEL's ``bddOf``.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Mapping
from typing import Any, cast

from kop.semantics.errors import ModelError
from kop.bdd.manager import Function, Manager
from kop.syntax import formula as F
from kop.syntax.fragments import refuse_uncertainty

__all__ = ["Translator", "MEMO_LIMIT", "fresh_name"]

#: Memoized translations kept before the memo is emptied (between questions).
MEMO_LIMIT = 100_000

_Request = tuple[Any, int, F.Formula]            # (law, depth, formula)
_Gen = Generator[_Request, Any, Any]
_Step = tuple[F.Formula, bool, 'Callable[[Function], Function] | None']    # see Translator._plan
_Plan = tuple[list[tuple[F.Formula, F.Formula]], list[_Step]]


def fresh_name(depth: int, below: str | None) -> str:
    """The BDD variable of an announcement-whether at nesting *depth* of a formula
    whose deepest variable is *below* (never an atom name).

    Announcements at one depth are never nested in one another, so they may
    share a variable; it goes just below *below* in the variable order, next
    to what it stands for.
    """
    return f"#{depth}" if below is None else f"#{depth}@{below}"



def _push_missing(children: Iterable[F.Formula], pm: dict[F.Formula, Any], stack: list[F.Formula]) -> bool:
    """Push the children of a formula whose BDDs are not built yet (atoms need none); whether there were any."""
    missing = [c for c in children if type(c) is not F.Atom and c not in pm]
    stack.extend(missing)
    return bool(missing)


def _connective(m: Any, f: Any, get: Callable[[F.Formula], Any]) -> Any:
    """The BDD of a propositional connective *f* from its children's (*get*), in manager *m*."""
    t = type(f)
    if t is F.Not:
        return ~get(f.arg)
    if t is F.And:
        v = m.true
        for c in f.args:
            v = v & get(c)
        return v
    if t is F.Or:
        v = m.false
        for c in f.args:
            v = v | get(c)
        return v
    if t is F.Implies:
        return ~get(f.left) | get(f.right)
    if t is F.Iff:
        return m.equiv(get(f.left), get(f.right))
    if t is F.Top:
        return m.true
    if t is F.Bottom:
        return m.false
    # pragma: no cover - prepare() marks only these as propositional
    raise TypeError(f"not a propositional formula: {type(f).__name__}")  # pragma: no cover


class Translator:
    """Formulas to BDDs for one vocabulary and one assignment of observables.

    Parameters
    ----------
    mgr : Manager[str]
    vocabulary : tuple of str
    observables : mapping of agent to frozenset of str

    Every structure obtained from one another by announcements shares its
    translator (they differ only in the law), and with it the memo.
    """

    def __init__(self, mgr: Manager[str], vocabulary: tuple[str, ...], observables: Mapping[str, frozenset[str]]):
        self.mgr = mgr
        self.vocabulary = vocabulary
        self._vocab_set = frozenset(vocabulary)
        self._agent_set = frozenset(observables)
        self.observables = dict(observables)
        mgr.declare(vocabulary)
        self._hidden: dict[tuple[str, ...], frozenset[str]] = {}
        self._agents: dict[str, tuple[frozenset[str], Any]] = {}
        self._supports: dict[Any, set[str]] = {}
        self._memo: dict[tuple[Any, int, F.Formula], Any] = {}
        self._pmemo: dict[F.Formula, Any] = {}
        self._vars: dict[str, Any] = {}
        self._prop: dict[F.Formula, bool] = {}
        self._canon: dict[F.Formula, F.Formula] = {}
        self._plans: dict[int, tuple[F.Formula, _Plan]] = {}
        self._recent: dict[int, list[Any]] = {}     # see _fold

    def hidden(self, group: tuple[str, ...]) -> frozenset[str]:
        """The atoms that no agent of *group* observes (what ``D_G`` quantifies over)."""
        h = self._hidden.get(group)
        if h is None:
            seen: set[str] = set()
            for a in group:
                seen |= self.observables[a]
            h = self._hidden[group] = self._vocab_set - seen
        return h

    def _support(self, u: Any) -> set[str]:
        sup = self._supports.get(u)
        if sup is None:
            if len(self._supports) > 1000:
                self._supports.clear()
            sup = self._supports[u] = self.mgr.support(u)
        return sup

    def _quantified(self, law: Any, u: Any, hidden: frozenset[str]) -> frozenset[str] | set[str]:
        """*hidden*, or only those of its atoms that *law* or *u* depend on when
        the BDDs are much smaller than *hidden* (a shorter cube for CUDD, where
        sizes are cheap to read)."""
        # (sizes are counted only when they could be small enough: len() walks the BDD)
        if len(hidden) > 4 and self.mgr.backend == "cudd" and len(law) + len(u) < len(hidden) // 2:
            return hidden & (self._support(law) | self.mgr.support(u))
        return hidden

    def know(self, law: Any, u: Any, hidden: frozenset[str]) -> Any:
        """``∀ hidden (law → u)``."""
        q = self._quantified(law, u, hidden)
        return self.mgr.know(law, u, q) if q else ~law | u

    def possible(self, law: Any, u: Any, hidden: frozenset[str]) -> Any:
        """``∃ hidden (law ∧ u)``."""
        q = self._quantified(law, u, hidden)
        return self.mgr.possible(law, u, q) if q else law & u

    def canonical(self, phi: F.Formula) -> F.Formula:
        """The formula equal to *phi* that this translator met first (else *phi* itself).

        Formulas compare structurally, which costs a walk over both when they
        are equal but not the same object; translating the object met first
        makes every later memo lookup of it and its subformulas an identity
        check.
        """
        canon = self._canon
        c = canon.get(phi)
        if c is None:
            if len(canon) > MEMO_LIMIT:
                canon.clear()
            canon[phi] = c = phi
        return c

    # -- the driver ---------------------------------------------------------------
    def truth(self, law: Function, phi: F.Formula) -> Function:
        """The BDD of *phi* under *law* (exact on the states satisfying *law*)."""
        if len(self._memo) > MEMO_LIMIT:
            self._memo.clear()
        if len(self._pmemo) > MEMO_LIMIT:
            self._pmemo.clear()
        if len(self._prop) > MEMO_LIMIT:
            self._prop.clear()
        if self.prepare(phi):
            return cast(Function, self._propositional(phi))
        return cast(Function, self._run((law, 0, phi)))

    def _run(self, req: _Request) -> Any:
        """Evaluate a modal formula: a stack of node generators, each asking for its children."""
        memo, ready = self._memo, self._ready
        value = ready(*req)             # memoized, or a small node evaluated without a generator
        if value is not _MISSING:
            return value
        stack: list[tuple[_Request, _Gen]] = [(req, self._node(*req))]
        value = None
        while stack:
            key, gen = stack[-1]
            try:
                sub = gen.send(value)
            except StopIteration as done:
                memo[key] = value = done.value
                stack.pop()
                continue
            value = ready(*sub)
            if value is _MISSING:
                stack.append((sub, self._node(*sub)))
                value = None
        return value

    def _ready(self, law: Any, depth: int, f: F.Formula) -> Any:
        """The value of *f* if it needs no generator (propositional, memoized, or a small
        node :meth:`_direct` evaluates), else ``_MISSING``."""
        t = type(f)
        if t not in _MODAL_TYPES and self._prop.get(f, True):  # atoms are not listed: they are propositional
            return self._propositional(f)
        # a negation costs nothing on BDDs (CUDD's complement edges, the memo of kop's
        # package): look its argument up instead, and keep no entry for the negation
        neg = False
        while t is F.Not:
            f = f.arg  # type: ignore[attr-defined]
            t = type(f)
            neg = not neg
        req = (law, depth, f)
        value = self._memo.get(req)
        if value is None:
            if t not in _DIRECT:
                return _MISSING
            value = self._direct(req, 2)
            if value is _MISSING:
                return value
            self._memo[req] = value
        return ~value if neg else value

    def _direct(self, req: _Request, budget: int) -> Any:
        """The value of a negation or one-agent knowledge operator whose argument is
        propositional or already known (looking *budget* such operators deep),
        else ``_MISSING``; it saves a generator for the common small nodes."""
        law, depth, f = req
        c = f.arg  # type: ignore[attr-defined]  # a Not or a one-agent operator (_DIRECT)
        tc = type(c)
        if tc is F.Atom:
            a = self._vars.get(c.name)
            if a is None:
                a = self._var(c.name)
        elif tc not in _MODAL_TYPES and self._prop.get(c, True):
            a = self._propositional(c)
        else:
            key = (law, depth, c)
            a = self._memo.get(key)
            if a is None:
                if not budget or type(c) not in _DIRECT:
                    return _MISSING
                a = self._direct(key, budget - 1)
                if a is _MISSING:
                    return a
                self._memo[key] = a
        t = type(f)
        if t is F.Not:
            return ~a
        if t is F.KnowWhether:
            h, v = self._agents.get(f.agent) or self._agent(f.agent)  # type: ignore[attr-defined]
            if v is not None and (a is v or a == v or a == ~v):
                return self.mgr.exist(h, ~law)      # = ¬∀x θ, see _one_agent
        return self._one_agent(law, f, a)

    def _agent(self, agent: str) -> tuple[frozenset[str], Any]:
        """The atoms *agent* does not observe, and the BDD of the one atom if there is one (else None)."""
        one = self._agents.get(agent)
        if one is None:
            h = self.hidden((agent,))
            one = self._agents[agent] = (h, self._var(next(iter(h))) if len(h) == 1 else None)
        return one

    def _one_agent(self, law: Any, f: Any, a: Any) -> Any:
        """``K_i``, ``M_i`` or ``Kw_i`` of a formula whose BDD is *a*."""
        h, v = self._agent(f.agent)
        t = type(f)
        if t is F.Know:
            return self.know(law, a, h)
        if t is F.Possible:
            return self.possible(law, a, h)
        if v is not None and (a is v or a == v or a == ~v):
            # the agent sees all but x and asks whether x: K x = ¬θ[x:=0] and
            # K ¬x = ¬θ[x:=1], so Kw x = ¬(θ[x:=0] ∧ θ[x:=1]) = ¬∀x θ = ∃x ¬θ (one quantification)
            return self.mgr.exist(h, ~law)
        return self.know(law, a, h) | self.know(law, ~a, h)

    def _propositional(self, phi: F.Formula) -> Any:
        """The BDD of a propositional formula (independent of the law), memoized per formula."""
        atom, var = F.Atom, self._var
        if type(phi) is atom:
            return var(phi.name)
        pm = self._pmemo
        value = pm.get(phi)
        if value is not None:
            return value
        m = self.mgr

        def get(c: F.Formula) -> Any:
            return var(c.name) if type(c) is atom else pm[c]

        flat: dict[F.Formula, tuple[list[F.Formula], bool]] = {}
        stack = [phi]
        f: Any  # dispatched on its exact type below
        while stack:
            f = stack[-1]
            if f in pm:
                stack.pop()
                continue
            t = type(f)
            if t is F.Iff or (t is F.Not and type(f.arg) in _PARITY):
                # a chain of <-> and ~: an xor of operands, combined deepest variable first
                if f not in flat:
                    flat[f] = _parity(f, pm)
                operands, neg = flat[f]
                if _push_missing(operands, pm, stack):
                    continue
                stack.pop()
                v = m.false
                for b in sorted((get(c) for c in operands), key=m.level, reverse=True):
                    v = m.xor(v, b)
                pm[f] = ~v if neg else v
                continue
            if _push_missing(f.children, pm, stack):
                continue
            stack.pop()
            pm[f] = _connective(m, f, get)
        return pm[phi]

    def _var(self, name: str) -> Any:
        v = self._vars.get(name)
        if v is None:
            v = self._vars[name] = self.mgr.var(name)
        return v

    def prepare(self, phi: F.Formula, what: str = "the formula") -> bool:
        """Check that *phi* uses only the vocabulary and the agents, note which of
        its subformulas are propositional (visiting each new subformula once),
        and say whether *phi* is.

        Raises
        ------
        ModelError
            Naming the unknown atoms or agents.
        """
        prop = self._prop
        flag = prop.get(phi)
        if flag is not None:
            return flag
        atom, modal = F.Atom, F._Modal
        atoms: set[str] = set()
        agents: set[str] = set()
        new: list[tuple[F.Formula, bool]] = []
        # the nodes met in this walk, by identity (an int's hash is cheap, a formula's is a
        # method call): None while their children are being visited, then their flag.
        # Atoms are noted where they are met as children, never pushed (a third of the
        # steps in a long xor chain)
        local: dict[int, bool | None] = {}
        local_get, prop_get, add_atom = local.get, prop.get, atoms.add
        stack = [phi]
        push, pop = stack.append, stack.pop
        f: Any
        while stack:
            f = stack[-1]
            i = id(f)
            state = local_get(i, _MISSING)
            if state is _MISSING:                       # first visit
                if type(f) is atom:                     # (only phi itself)
                    add_atom(f.name)
                    local[i] = True
                    pop()
                    continue
                known = prop_get(f)
                if known is not None:
                    local[i] = known
                    pop()
                    continue
                local[i] = None
                for c in f.children:
                    if type(c) is atom:
                        add_atom(c.name)
                    elif id(c) not in local:
                        push(c)
                continue
            pop()
            if state is not None:                       # a second entry of a node already done
                continue
            if isinstance(f, modal):
                if isinstance(f, (F.Belief, F.CondBelief, F.Probability)):
                    refuse_uncertainty(f, "a knowledge structure (symbolic model)")
                agents.update(f._own_agents())
                flag = False
            else:
                flag = True
                for c in f.children:
                    if type(c) is not atom and not local[id(c)]:
                        flag = False
                        break
            local[i] = flag
            new.append((f, flag))
        bad_atoms = atoms - self._vocab_set
        bad_agents = agents - self._agent_set
        if bad_atoms or bad_agents:
            raise _unknown(bad_atoms, bad_agents, tuple(self.observables), what)
        prop.update(new)
        return bool(local[id(phi)])

    # -- one node -------------------------------------------------------------------
    def _node(self, law: Any, depth: int, f: F.Formula) -> _Gen:
        """The generator of a formula that is not propositional."""
        if isinstance(f, F.And):
            return self._and(law, depth, f)
        if isinstance(f, F.Or):
            return self._or(law, depth, f)
        return self._other(law, depth, f)

    def _and(self, law: Any, depth: int, f: F.And) -> _Gen:
        return (yield from self._fold(law, depth, f, True))

    def _or(self, law: Any, depth: int, f: F.Or) -> _Gen:
        return (yield from self._fold(law, depth, f, False))

    def _fold(self, law: Any, depth: int, f: F.And | F.Or, conjunction: bool) -> _Gen:
        """A conjunction (or disjunction) of the arguments of *f*, stopping at false (true).

        The arguments are read once per formula into a :meth:`_plan`; each round of
        a puzzle then walks the plan instead of the formula (most arguments are a
        child asking whether it knows its one hidden atom).
        """
        pairs, plan = self._plan(f, conjunction)
        m = self.mgr
        acc, stop = (m.true, m.false) if conjunction else (m.false, m.true)
        ready = self._ready
        # Kw_i x where i sees everything but x: ∃x ¬θ = ¬∀x θ (see _one_agent), not memoized
        # (it depends on the law alone).  All of them first, then the conjunction; and they
        # stay alive until this formula is translated again.  CUDD collects its garbage when
        # a level's nodes are nearly all dead, and a collection drops from its computed table
        # every result about a dead node: results the next round (the next law, much like
        # this one) would find there.  Kept, muddy children n = 40 takes half the time.
        quantified = [every(law) if neg else ~every(law) for _, neg, every in plan if every is not None]
        if quantified:
            self._recent[id(f)] = quantified
        k = 0
        for a, _, every in plan:
            if every is not None:
                v = quantified[k]
                k += 1
            else:
                v = ready(law, depth, a)        # (a small argument without a generator round trip)
                if v is _MISSING:
                    v = yield law, depth, a
            acc = acc & v if conjunction else acc | v
            if acc == stop:
                return acc
        for phi, psi in pairs:
            v = yield from self._whether(law, depth, phi, psi)
            acc = acc & v if conjunction else acc | v
        return acc

    def _plan(self, f: F.And | F.Or, conjunction: bool) -> _Plan:
        """The announce-whether pairs of *f*'s arguments and, for each other argument,
        ``(argument, negated, every)``: when the argument is ``Kw_i x`` under
        *negated* negations and i observes everything but x, *every* is ``u ↦ ∀x u``
        (else None).  Kept per formula object."""
        plans = self._plans
        got = plans.get(id(f))
        if got is not None and got[0] is f:
            return got[1]
        if len(plans) > MEMO_LIMIT:
            plans.clear()
            self._recent.clear()
        pairs, rest = _whether_pairs(f.args, F.Announce if conjunction else F.AnnounceDual)
        steps: list[_Step] = []
        for a in rest:
            core, neg = a, False
            while type(core) is F.Not:
                core, neg = core.arg, not neg
            every = None
            if type(core) is F.KnowWhether and type(core.arg) is F.Atom:
                h, v = self._agent(core.agent)
                if v is not None and h == {core.arg.name}:
                    every = self.mgr.quantify_by(h, forall=True)
            steps.append((a, neg, every))
        plan = (pairs, steps)
        plans[id(f)] = (f, plan)
        return plan

    def _whether(self, law: Any, depth: int, phi: F.Formula, psi: F.Formula) -> _Gen:
        """``[!φ]ψ & [!~φ]ψ`` (= ``<!φ>ψ | <!~φ>ψ``): ψ after announcing whether φ."""
        m = self.mgr
        a = yield law, depth, phi
        k = fresh_name(depth, m.deepest(a))
        kv = m.fresh(k, a)
        r = yield law & m.equiv(kv, a), depth + 1, psi
        return m.ite(a, m.cofactor(r, k, True), m.cofactor(r, k, False))

    def _other(self, law: Any, depth: int, f: F.Formula) -> _Gen:
        m = self.mgr
        if isinstance(f, F.Not):
            return ~(yield law, depth, f.arg)
        if isinstance(f, F.Implies):
            a = yield law, depth, f.left
            if a == m.false:
                return m.true
            return ~a | (yield law, depth, f.right)
        if isinstance(f, F.Iff):
            a = yield law, depth, f.left
            return m.equiv(a, (yield law, depth, f.right))
        if isinstance(f, (F.Know, F.Possible, F.KnowWhether)):
            a = yield law, depth, f.arg
            return self._one_agent(law, f, a)
        if isinstance(f, F.Everyone):
            a = yield law, depth, f.arg
            return _conj(m, (self.know(law, a, self.hidden((i,))) for i in f.group))
        if isinstance(f, F.Distributed):
            a = yield law, depth, f.arg
            return self.know(law, a, self.hidden(f.group))
        if isinstance(f, F.Common):
            a = yield law, depth, f.arg
            return self._gfp(law, f.group, lambda x: a & x)
        if isinstance(f, F.RelCommon):
            c = yield law, depth, f.cond
            a = yield law, depth, f.arg
            return self._gfp(law, f.group, lambda x: ~c | (a & x))
        if isinstance(f, F.Announce):
            a = yield law, depth, f.ann
            if a == m.false:
                return m.true
            return ~a | (yield law & a, depth, f.arg)
        if isinstance(f, F.AnnounceDual):
            a = yield law, depth, f.ann
            if a == m.false:
                return m.false
            return a & (yield law & a, depth, f.arg)
        raise TypeError(f"unknown formula type {type(f).__name__}")

    def _gfp(self, law: Any, group: tuple[str, ...], body: Any) -> Any:
        """The greatest fixed point of ``X ↦ ⋀_{i∈G} ∀(V∖O_i)(θ → body(X))``."""
        m = self.mgr
        hidden = [self.hidden((i,)) for i in group]
        x = m.true
        while True:
            b = body(x)
            nxt = _conj(m, (self.know(law, b, h) for h in hidden))
            if nxt == x:
                return x
            x = nxt


def _unknown(atoms: set[str], agents: set[str], have: tuple[str, ...], what: str) -> ModelError:
    if agents:
        names = ", ".join(repr(a) for a in sorted(agents))
        plural = "s" if len(agents) > 1 else ""
        return ModelError(f"{what} names agent{plural} {names} that the structure does not have "
                          f"(its agents: {', '.join(map(repr, have)) or 'none'})")
    names = ", ".join(repr(a) for a in sorted(atoms))
    return ModelError(f"{what} mentions atom(s) {names} outside the vocabulary")


_PARITY = (F.Iff, F.Not)
#: Node types :meth:`Translator._direct` evaluates without a generator.
_DIRECT = frozenset({F.Not, F.Know, F.Possible, F.KnowWhether})
_MISSING: Any = object()
#: The formula types that are never propositional (no need to look them up).
_MODAL_TYPES = frozenset(t for t in vars(F).values() if isinstance(t, type) and issubclass(t, F._Modal))


def _parity(f: F.Formula, known: Mapping[F.Formula, Any]) -> tuple[list[F.Formula], bool]:
    """*f*, a tree of ``<->`` and ``~``, as ``o1 xor o2 xor ... xor neg``.

    ``a <-> b`` is ``a xor b xor 1`` and ``~a`` is ``a xor 1``; operands that
    occur an even number of times cancel.  Each node is expanded once: a node
    met again (shared in a DAG), or one already translated (in *known*), is
    kept as an operand.
    """
    neg = False
    odd: dict[F.Formula, bool] = {}
    expanded: set[int] = set()      # by identity: an int's hash is cheap, a formula's a method call
    stack = [f]
    g: Any  # dispatched on its exact type below
    while stack:
        g = stack.pop()
        t = type(g)
        if t in _PARITY and id(g) not in expanded and (g is f or g not in known):
            expanded.add(id(g))
            neg = not neg
            if t is F.Not:
                stack.append(g.arg)
            else:
                stack.append(g.right)
                stack.append(g.left)
        elif g in odd:
            del odd[g]
        else:
            odd[g] = True
    return list(odd), neg


def _conj(m: Manager[str], parts: Iterable[Any]) -> Any:
    acc = m.true
    for p in parts:
        acc = acc & p
        if acc == m.false:
            break
    return acc


def _whether_pairs(args: tuple[F.Formula, ...], kind: type[F.Announce] | type[F.AnnounceDual]) -> tuple[list[tuple[F.Formula, F.Formula]], list[F.Formula]]:
    """Split *args* into announce-whether pairs ``(φ, ψ)`` — ``kind(φ, ψ)`` beside
    ``kind(~φ, ψ)`` — and the other arguments."""
    found: dict[tuple[F.Formula, F.Formula], int] = {}
    for i, a in enumerate(args):
        if type(a) is kind:
            found.setdefault((a.ann, a.arg), i)
    if len(found) < 2:
        return [], list(args)
    used: set[int] = set()
    pairs = []
    for (ann, arg), i in found.items():
        if i in used or type(ann) is not F.Not:
            continue
        j = found.get((ann.arg, arg))
        if j is not None and j not in used:
            used.update((i, j))
            pairs.append((ann.arg, arg))
    if not pairs:
        return [], list(args)
    return pairs, [a for i, a in enumerate(args) if i not in used]
