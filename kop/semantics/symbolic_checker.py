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
  every agent observes, as ``ite(φ, ψ'[k:=1], ψ'[k:=0])``.  The structure
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
(2, 0, 3)

Reference: van Benthem, van Eijck, Gattinger & Su, *Symbolic model checking
for Dynamic Epistemic Logic* (LORI 2015), Definition 2 and Theorem 2 (the
boolean translation); Gattinger, *New Directions in Model Checking Dynamic
Epistemic Logic* (PhD thesis, 2018), ch. 2; SMCDEL's ``bddOf``.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping
from typing import Any

from kop.semantics.symbolic_bdd import BDDManager
from kop.syntax import formula as F

__all__ = ["Translator", "MEMO_LIMIT", "fresh_name"]

#: Memoized translations kept before the memo is emptied (between questions).
MEMO_LIMIT = 100_000

_Request = tuple[Any, int, F.Formula]            # (law, depth, formula)
_Gen = Generator[_Request, Any, Any]


def fresh_name(depth: int) -> str:
    """The BDD variable of the announcement-whether at nesting *depth* (never an atom name)."""
    return f"#{depth}"


class Translator:
    """Formulas to BDDs for one vocabulary and one assignment of observables.

    Parameters
    ----------
    mgr : BDDManager
    vocabulary : tuple of str
    observables : mapping of agent to frozenset of str

    Every structure obtained from one another by announcements shares its
    translator (they differ only in the law), and with it the memo.
    """

    def __init__(self, mgr: BDDManager, vocabulary: tuple[str, ...], observables: Mapping[str, frozenset[str]]):
        self.mgr = mgr
        self.vocabulary = vocabulary
        self.observables = dict(observables)
        mgr.declare(vocabulary)
        self._hidden: dict[tuple[str, ...], tuple[str, ...]] = {}
        self._memo: dict[tuple[Any, int, F.Formula], Any] = {}
        self._prop: dict[F.Formula, bool] = {}

    def hidden(self, group: tuple[str, ...]) -> tuple[str, ...]:
        """The atoms that no agent of *group* observes (what ``D_G`` quantifies over)."""
        h = self._hidden.get(group)
        if h is None:
            seen: set[str] = set()
            for a in group:
                seen |= self.observables[a]
            h = self._hidden[group] = tuple(p for p in self.vocabulary if p not in seen)
        return h

    # -- the driver ---------------------------------------------------------------
    def truth(self, law: Any, phi: F.Formula) -> Any:
        """The BDD of *phi* under *law* (exact on the states satisfying *law*)."""
        if len(self._memo) > MEMO_LIMIT:
            self._memo.clear()
        self._mark_propositional(phi)
        return self._run((law, 0, phi))

    def _key(self, req: _Request) -> tuple[Any, int, F.Formula]:
        law, depth, phi = req
        return (None, 0, phi) if self._prop[phi] else req

    def _run(self, req: _Request) -> Any:
        memo = self._memo
        key = self._key(req)
        if key in memo:
            return memo[key]
        stack: list[tuple[tuple, _Gen]] = [(key, self._node(*req))]
        value: Any = None
        while stack:
            key, gen = stack[-1]
            try:
                sub = gen.send(value)
            except StopIteration as done:
                memo[key] = value = done.value
                stack.pop()
                continue
            k2 = self._key(sub)
            if k2 in memo:
                value = memo[k2]
            else:
                stack.append((k2, self._node(*sub)))
                value = None
        return value

    def _mark_propositional(self, phi: F.Formula) -> None:
        prop = self._prop
        if phi in prop:
            return
        for f in phi.subformulas():
            if f not in prop:
                prop[f] = not isinstance(f, F._Modal) and all(prop[c] for c in f.children)

    # -- one node -------------------------------------------------------------------
    def _node(self, law: Any, depth: int, f: F.Formula) -> _Gen:
        m = self.mgr
        if isinstance(f, F.Atom):
            return _const(m.var(f.name))
        if isinstance(f, F.Top):
            return _const(m.true)
        if isinstance(f, F.Bottom):
            return _const(m.false)
        if isinstance(f, F.And):
            return self._and(law, depth, f)
        if isinstance(f, F.Or):
            return self._or(law, depth, f)
        return self._other(law, depth, f)

    def _and(self, law: Any, depth: int, f: F.And) -> _Gen:
        pairs, rest = _whether_pairs(f.args, F.Announce)
        acc = self.mgr.true
        for a in rest:
            acc = acc & (yield law, depth, a)
            if acc == self.mgr.false:
                return acc
        for phi, psi in pairs:
            acc = acc & (yield from self._whether(law, depth, phi, psi))
        return acc

    def _or(self, law: Any, depth: int, f: F.Or) -> _Gen:
        pairs, rest = _whether_pairs(f.args, F.AnnounceDual)
        acc = self.mgr.false
        for a in rest:
            acc = acc | (yield law, depth, a)
            if acc == self.mgr.true:
                return acc
        for phi, psi in pairs:
            acc = acc | (yield from self._whether(law, depth, phi, psi))
        return acc

    def _whether(self, law: Any, depth: int, phi: F.Formula, psi: F.Formula) -> _Gen:
        """``[!φ]ψ & [!~φ]ψ`` (= ``<!φ>ψ | <!~φ>ψ``): ψ after announcing whether φ."""
        m = self.mgr
        a = yield law, depth, phi
        k = fresh_name(depth)
        kv = m.var(k)
        r = yield law & kv.equiv(a), depth + 1, psi
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
            return a.equiv((yield law, depth, f.right))
        if isinstance(f, F.Know):
            a = yield law, depth, f.arg
            return m.know(law, a, self.hidden((f.agent,)))
        if isinstance(f, F.Possible):
            a = yield law, depth, f.arg
            return m.possible(law, a, self.hidden((f.agent,)))
        if isinstance(f, F.KnowWhether):
            a = yield law, depth, f.arg
            h = self.hidden((f.agent,))
            return m.know(law, a, h) | m.know(law, ~a, h)
        if isinstance(f, F.Everyone):
            a = yield law, depth, f.arg
            return _conj(m, (m.know(law, a, self.hidden((i,))) for i in f.group))
        if isinstance(f, F.Distributed):
            a = yield law, depth, f.arg
            return m.know(law, a, self.hidden(f.group))
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
            nxt = _conj(m, (m.know(law, b, h) for h in hidden))
            if nxt == x:
                return x
            x = nxt


def _const(value: Any) -> _Gen:
    return value
    yield  # pragma: no cover - makes this a generator


def _conj(m: BDDManager, parts: Iterable[Any]) -> Any:
    acc = m.true
    for p in parts:
        acc = acc & p
        if acc == m.false:
            break
    return acc


def _whether_pairs(args: tuple[F.Formula, ...], kind: type) -> tuple[list[tuple[F.Formula, F.Formula]], list[F.Formula]]:
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
