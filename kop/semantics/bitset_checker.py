"""Model checking on small models in pure Python, with integers as sets of worlds.

:func:`truth_bits` computes where a formula holds as a Python integer whose
bit *i* is set iff the formula holds at ``model.worlds[i]``.  It answers the
same questions as the numpy checker (:mod:`kop.semantics.checker`) and is
used by :meth:`KripkeModel.satisfies <kop.semantics.model.KripkeModel.satisfies>`
and :meth:`~kop.semantics.model.KripkeModel.truth_set` on models of at most
:data:`SMALL_MODEL` worlds.  On such models a few integer operations per block
are cheaper than numpy's per-call overhead, and a command that checks a small
model (``kop check``) never imports numpy, which costs more CPU than the rest
of the command (see ``benchmarks/startup.py``).

How each operator is evaluated, within a *domain* (the worlds that are left
after the announcements around the subformula; the whole model at the top):

* ``K_a φ``: the union of a's blocks (cut to the domain) inside the φ-set;
  ``M_a φ`` of those meeting it; ``Kw_a φ`` of those inside it or disjoint
  from it;
* ``E_G``: the conjunction of the members' ``K``; ``D_G``: ``K`` over the
  blocks of the intersection of G's partitions;
* ``C_G φ``: ``K`` over the connected components of the union of G's
  partitions (cut to the domain); ``C_G(φ, ψ)``: ψ on the whole component of
  every φ-world reached in one G-step, components taken within the φ-worlds;
* ``[!φ]ψ``: ψ evaluated in the domain cut to the φ-worlds, so an
  announcement never builds a new model;
* ``B_a(ψ, φ)`` (and ``B_a φ``, with ψ true): the cells (cut to the domain)
  whose most plausible ψ-worlds lie inside the φ-set; ``P_a(φ) ⋈ r``: the
  cells whose weight of φ-worlds over their whole weight compares to r, in
  integers (see :mod:`kop.semantics.uncertainty`).

Subformulas are memoized per (formula, domain) on the model; evaluation is
iterative, so deep nesting does not exhaust Python's stack.

Example
-------
>>> from kop import KripkeModel, parse
>>> m = KripkeModel({"w0": ["p"], "w1": []}, {"a": [["w0", "w1"]], "b": [["w0"], ["w1"]]}, "w0")
>>> bin(truth_bits(m, parse("K_b p & ~K_a p")))
'0b1'
>>> bin(truth_bits(m, parse("[!p] K_a p")))
'0b11'

Reference: Fagin, Halpern, Moses & Vardi, *Reasoning About Knowledge* (1995),
ch. 2-3 (semantics of K, E, C, D); van Benthem, van Eijck & Kooi, *Logics of
communication and change* (2006) for relativized common knowledge.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from kop.semantics.errors import ModelError
from kop.syntax import formula as F

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from kop.semantics.model_value import ModelValue
    from kop.semantics.uncertainty import Uncertainty

__all__ = ["truth_bits", "ModelBits", "check_model_agents", "members", "SMALL_MODEL"]

#: Models of at most this many worlds are checked here rather than with numpy
#: (chosen by measurement, ``python benchmarks/checker.py --bits``: up to 128 worlds the integer
#: sets are as fast as numpy or faster, beyond it numpy wins by a growing margin).
SMALL_MODEL = 128
#: Memoized (formula, domain) entries kept per model before the memo is emptied (between questions).
MEMO_LIMIT = 20_000


def check_model_agents(model: ModelValue, phi: F.Formula) -> None:
    """Raise :class:`ModelError` if *phi* names an agent that *model* does not have.

    >>> from kop import KripkeModel, parse
    >>> check_model_agents(KripkeModel(["w"], {"a": [["w"]]}), parse("K_b p"))
    Traceback (most recent call last):
    ...
    kop.errors.ModelError: the formula names agent 'b' that the model does not have (its agents: 'a')
    """
    unknown = phi.agents() - model._agent_set
    if unknown:
        names = ", ".join(repr(a) for a in sorted(unknown))
        have = ", ".join(repr(a) for a in model.agents) or "none"
        plural = "s" if len(unknown) > 1 else ""
        raise ModelError(f"the formula names agent{plural} {names} that the model does not have "
                         f"(its agents: {have})")


class ModelBits:
    """A model's partitions and valuation in plain Python: block ids per world, atoms as bit sets.

    Parameters
    ----------
    n : int
        The number of worlds.
    ids : dict of agent to list of int
        Each agent's block id per world (equal ids: indistinguishable).
    nblocks : dict of agent to int
        A bound on each agent's block ids.
    atoms : dict of atom to int
        Each atom's set of worlds (bit *i* = world *i*).
    actual : list of int
        The designated worlds' positions.
    """

    __slots__ = ("n", "ids", "nblocks", "atoms", "actual", "memo", "_blocks", "_parts", "unc")

    def __init__(self, n: int, ids: dict[str, list[int]], nblocks: dict[str, int], atoms: dict[str, int],
                 actual: list[int]):
        self.n, self.ids, self.nblocks, self.atoms, self.actual = n, ids, nblocks, atoms, actual
        self.memo: dict[tuple[F.Formula, int], int] = {}
        self._blocks: dict[str, list[int]] = {}
        self._parts: dict[tuple[str, tuple[str, ...], int], list[int]] = {}
        self.unc: Uncertainty | None = None  # plausibility and probability (set by the model)

    @classmethod
    def from_arrays(cls, n: int, blocks: Mapping[str, np.ndarray], nblocks: dict[str, int],
                    atoms: Mapping[str, np.ndarray], actual: np.ndarray) -> ModelBits:
        """The same data from numpy arrays (block ids, boolean atom vectors, designated positions)."""
        import numpy as np

        masks = {p: int.from_bytes(np.packbits(v, bitorder="little").tobytes(), "little") for p, v in atoms.items()}
        return cls(n, {a: ids.tolist() for a, ids in blocks.items()}, dict(nblocks), masks, actual.tolist())

    def arrays(self) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], np.ndarray]:
        """The block-id arrays, boolean atom vectors and designated positions as numpy arrays."""
        import numpy as np

        size = (self.n + 7) // 8
        blocks = {a: np.array(ids, dtype=np.int64) for a, ids in self.ids.items()}
        atoms = {p: np.unpackbits(np.frombuffer(mask.to_bytes(size, "little"), dtype=np.uint8),
                                  bitorder="little")[:self.n].astype(bool) for p, mask in self.atoms.items()}
        return blocks, atoms, np.array(self.actual, dtype=np.int64)

    def blocks(self, agent: str) -> list[int]:
        """*agent*'s blocks as sets of worlds, in order of their first world."""
        hit = self._blocks.get(agent)
        if hit is None:
            masks: dict[int, int] = {}
            for i, b in enumerate(self.ids[agent]):
                masks[b] = masks.get(b, 0) | (1 << i)
            hit = self._blocks[agent] = list(masks.values())
        return hit

    def joint_blocks(self, group: tuple[str, ...]) -> list[int]:
        """The blocks of the intersection of *group*'s partitions."""
        if len(group) == 1:
            return self.blocks(group[0])
        key = ("D", group, -1)
        hit = self._parts.get(key)
        if hit is None:
            masks: dict[tuple[int, ...], int] = {}
            for i, sig in enumerate(zip(*(self.ids[a] for a in group))):
                masks[sig] = masks.get(sig, 0) | (1 << i)
            hit = self._parts[key] = list(masks.values())
        return hit

    def components(self, group: tuple[str, ...], within: int) -> list[int]:
        """The connected components of the union of *group*'s partitions, cut to the worlds *within*."""
        key = ("C", group, within)
        hit = self._parts.get(key)
        if hit is None:
            comps: list[int] = []
            for a in group:
                for b in self.blocks(a):
                    b &= within
                    if not b:
                        continue
                    rest = []
                    for c in comps:
                        if c & b:
                            b |= c
                        else:
                            rest.append(c)
                    rest.append(b)
                    comps = rest
            hit = self._parts[key] = comps
        return hit


def truth_bits(model: ModelValue, phi: F.Formula) -> int:
    """The worlds of *model* where *phi* holds, as an integer (bit *i*: ``model.worlds[i]``).

    Parameters
    ----------
    model : KripkeModel
    phi : Formula
        Every agent it names must be an agent of the model (else :class:`ModelError`).
    """
    bits = model._bitsets()
    full = (1 << bits.n) - 1
    memo = bits.memo
    hit = memo.get((phi, full))
    if hit is not None:
        return hit
    check_model_agents(model, phi)
    if len(memo) > MEMO_LIMIT:
        memo.clear()
    _evaluate(bits, phi, full)
    return memo[(phi, full)]


def _evaluate(bits: ModelBits, phi: F.Formula, domain: int) -> None:
    memo = bits.memo
    stack: list[tuple[F.Formula, int]] = [(phi, domain)]
    while stack:
        f, d = stack[-1]
        if (f, d) in memo:
            stack.pop()
            continue
        if isinstance(f, F._Announcement):
            ann = memo.get((f.ann, d))
            if ann is None:
                stack.append((f.ann, d))
                continue
            inner = memo.get((f.arg, ann))
            if inner is None:
                stack.append((f.arg, ann))
                continue
            memo[(f, d)] = ((d & ~ann) | inner) if isinstance(f, F.Announce) else inner
            stack.pop()
            continue
        missing = [(c, d) for c in f.children if (c, d) not in memo]
        if missing:
            stack.extend(reversed(missing))
            continue
        memo[(f, d)] = _apply(bits, f, d, memo)
        stack.pop()


def _apply(bits: ModelBits, f: F.Formula, d: int, memo: dict[tuple[F.Formula, int], int]) -> int:
    """The set of *f* within domain *d* from its children's (already in *memo*): the rule of *f*'s exact type."""
    rule = _RULES.get(type(f))
    if rule is None:  # pragma: no cover
        raise TypeError(f"cannot evaluate a {type(f).__name__}")
    return rule(bits, f, d, memo)


_Memo = dict[tuple[F.Formula, int], int]


def _atom(bits: ModelBits, f: F.Atom, d: int, memo: _Memo) -> int:
    return bits.atoms.get(f.name, 0) & d


def _top(bits: ModelBits, f: F.Top, d: int, memo: _Memo) -> int:
    return d


def _bottom(bits: ModelBits, f: F.Bottom, d: int, memo: _Memo) -> int:
    return 0


def _not(bits: ModelBits, f: F.Not, d: int, memo: _Memo) -> int:
    return d & ~memo[(f.arg, d)]


def _and(bits: ModelBits, f: F.And, d: int, memo: _Memo) -> int:
    out = d
    for a in f.args:
        out &= memo[(a, d)]
    return out


def _or(bits: ModelBits, f: F.Or, d: int, memo: _Memo) -> int:
    out = 0
    for a in f.args:
        out |= memo[(a, d)]
    return out


def _implies(bits: ModelBits, f: F.Implies, d: int, memo: _Memo) -> int:
    return (d & ~memo[(f.left, d)]) | memo[(f.right, d)]


def _iff(bits: ModelBits, f: F.Iff, d: int, memo: _Memo) -> int:
    return d & ~(memo[(f.left, d)] ^ memo[(f.right, d)])


def _knows(bits: ModelBits, f: F.Know, d: int, memo: _Memo) -> int:
    return _know(bits.blocks(f.agent), memo[(f.arg, d)], d)


def _possible(bits: ModelBits, f: F.Possible, d: int, memo: _Memo) -> int:
    x = memo[(f.arg, d)]
    out = 0
    for b in bits.blocks(f.agent):
        if b & x:
            out |= b
    return out & d


def _know_whether(bits: ModelBits, f: F.KnowWhether, d: int, memo: _Memo) -> int:
    x = memo[(f.arg, d)]
    out = 0
    for b in bits.blocks(f.agent):
        b &= d
        inside = b & x
        if inside == 0 or inside == b:
            out |= b
    return out


def _everyone(bits: ModelBits, f: F.Everyone, d: int, memo: _Memo) -> int:
    x = memo[(f.arg, d)]
    out = d
    for a in f.group:
        out &= _know(bits.blocks(a), x, d)
    return out


def _distributed(bits: ModelBits, f: F.Distributed, d: int, memo: _Memo) -> int:
    return _know(bits.joint_blocks(f.group), memo[(f.arg, d)], d)


def _common(bits: ModelBits, f: F.Common, d: int, memo: _Memo) -> int:
    return _know(bits.components(f.group, d), memo[(f.arg, d)], d)


def _rel_common(bits: ModelBits, f: F.RelCommon, d: int, memo: _Memo) -> int:
    cond, arg = memo[(f.cond, d)], memo[(f.arg, d)]
    good = d & ~cond
    for c in bits.components(f.group, cond):
        if not c & ~arg:
            good |= c
    out = d
    for a in f.group:
        out &= _know(bits.blocks(a), good, d)
    return out


def _belief(bits: ModelBits, f: F.Belief, d: int, memo: _Memo) -> int:
    return _believe(bits, f.agent, d, memo[(f.arg, d)], d)


def _cond_belief(bits: ModelBits, f: F.CondBelief, d: int, memo: _Memo) -> int:
    return _believe(bits, f.agent, memo[(f.cond, d)], memo[(f.arg, d)], d)


def _probable(bits: ModelBits, f: F.Probability, d: int, memo: _Memo) -> int:
    return _probability(bits, f, memo[(f.arg, d)], d)


#: The rule of each operator, by exact type (a subclass of an operator is not evaluated).
_RULES: dict[type, Callable[[ModelBits, Any, int, _Memo], int]] = {
    F.Atom: _atom, F.Top: _top, F.Bottom: _bottom, F.Not: _not, F.And: _and, F.Or: _or,
    F.Implies: _implies, F.Iff: _iff, F.Know: _knows, F.Possible: _possible, F.KnowWhether: _know_whether,
    F.Everyone: _everyone, F.Distributed: _distributed, F.Common: _common, F.RelCommon: _rel_common,
    F.Belief: _belief, F.CondBelief: _cond_belief, F.Probability: _probable,
}


def members(mask: int) -> list[int]:
    """The positions of the set bits of *mask*, in increasing order.

    >>> members(0b1010)
    [1, 3]
    """
    out = []
    for k, byte in enumerate(mask.to_bytes((mask.bit_length() + 7) // 8, "little")):
        if byte:
            base = k * 8
            for j in range(8):
                if byte >> j & 1:
                    out.append(base + j)
    return out


def _positions(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _believe(bits: ModelBits, agent: str, cond: int, x: int, d: int) -> int:
    """``B_a(cond, x)`` within domain *d*: the cells (cut to *d*) whose most plausible cond-worlds lie in *x*."""
    ranks = bits.unc.rank_list(agent) if bits.unc is not None else None
    out = 0
    for b in bits.blocks(agent):
        b &= d
        if not b:
            continue
        s = b & cond
        if s and ranks is not None:
            members = _positions(s)
            low = min(ranks[i] for i in members)
            s = 0
            for i in members:
                if ranks[i] == low:
                    s |= 1 << i
        if not s & ~x:
            out |= b
    return out


def _probability(bits: ModelBits, f: F.Probability, x: int, d: int) -> int:
    """``P_a(φ) ⋈ r`` within domain *d* (*x*: the φ-worlds): exact, cell by cell."""
    from fractions import Fraction

    weights = bits.unc.int_weights(f.agent) if bits.unc is not None else None
    out = 0
    for b in bits.blocks(f.agent):
        b &= d
        if not b:
            continue
        if weights is None:
            total, good = b.bit_count(), (b & x).bit_count()
        else:
            total = sum(weights[i] for i in _positions(b))
            good = sum(weights[i] for i in _positions(b & x))
        if not total:  # no weight left: Kooi's agent keeps its measure from before (the numpy checker has it)
            raise _KeptMeasure
        if f.holds_for(Fraction(good, total)):
            out |= b
    return out


class _KeptMeasure(Exception):
    """A cell without weight after an announcement: bit sets cannot answer, the numpy checker does.

    Kooi's agent keeps its measure from before the announcement, which only the numpy checker
    remembers; :func:`kop.semantics.evaluate.truth_set` and its siblings catch this and ask it.

    >>> issubclass(_KeptMeasure, Exception)
    True
    """


def _know(blocks: list[int], x: int, d: int) -> int:
    """The worlds of domain *d* whose block (cut to *d*) lies inside *x*."""
    out = 0
    for b in blocks:
        b &= d
        if b and not b & ~x:
            out |= b
    return out
