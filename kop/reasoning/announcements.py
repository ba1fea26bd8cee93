"""Public announcements eliminated by the reduction axioms.

``reduce_announcements(phi)`` returns an announcement-free formula equivalent
to *phi* in every S5_n model.  Common knowledge after an announcement needs
relativized common knowledge, so the result may contain ``C_G(φ, ψ)``::

    >>> from kop import parse, to_ascii
    >>> to_ascii(reduce_announcements(parse("[!p] K_a q")))
    'p -> K_a (p -> q)'
    >>> to_ascii(reduce_announcements(parse("[!p] C{a,b} q")))
    'p -> C{a,b}(p, q)'

The axioms, with ``t(ψ)`` for "ψ holds after announcing φ" at a φ-world
(``[!φ]ψ ↔ (φ → t(ψ))`` and ``<!φ>ψ ↔ (φ ∧ t(ψ))``)::

    t(p) = p                     t(¬ψ) = ¬t(ψ)        t(ψ ∧ χ) = t(ψ) ∧ t(χ)   (and ∨, →, ↔)
    t(K_a ψ) = K_a(φ → t(ψ))     t(M_a ψ) = M_a(φ ∧ t(ψ))
    t(D_G ψ) = D_G(φ → t(ψ))     t(E_G ψ) = E_G(φ → t(ψ))
    t(C_G ψ) = C_G(φ, t(ψ))      t(C_G(χ, ψ)) = C_G(φ ∧ t(χ), t(ψ))
    t(B_a ψ) = B_a(φ, t(ψ))      t(B_a(χ, ψ)) = B_a(φ ∧ t(χ), t(ψ))    (plausibility models)

Nested announcements are eliminated innermost first, and ``t`` is memoized
per (announcement, subformula), so the result is built as a DAG whose
number of distinct subformulas grows with the product of the nesting, not
exponentially.  :data:`MAX_REDUCED_NODES` bounds it (a :class:`LimitError`
names the limit).

Reference: J. van Benthem, J. van Eijck, B. Kooi, *Logics of communication and
change*, Information and Computation 204 (2006), §4 (relativized common
knowledge and the reduction axiom ``[!φ]C_G(ψ, χ) ↔ (φ → C_G(φ ∧ [!φ]ψ, [!φ]χ))``);
H. van Ditmarsch, W. van der Hoek, B. Kooi, *Dynamic Epistemic Logic* (2007), ch. 4 and 7.
"""

from __future__ import annotations

from kop.syntax import arguments
from kop.syntax import formula as F
from kop.errors import LimitError, KopError

__all__ = ["reduce_announcements", "MAX_REDUCED_NODES", "has_announcements"]

#: The most distinct subformulas the reduction may build before giving up.
MAX_REDUCED_NODES = 200_000


def has_announcements(phi: F.Formula) -> bool:
    """True when *phi* contains ``[!ψ]`` or ``<!ψ>``."""
    return any(isinstance(f, (F.Announce, F.AnnounceDual)) for f in phi.subformulas())


class _Budget:
    def __init__(self, limit: int):
        self.left = limit
        self.limit = limit

    def spend(self, n: int = 1) -> None:
        self.left -= n
        if self.left < 0:
            raise LimitError(
                f"eliminating the announcements builds more than {self.limit} distinct subformulas "
                "(kop's limit; nested announcements multiply the formula's size)")


def reduce_announcements(phi: F.Formula, limit: int = MAX_REDUCED_NODES) -> F.Formula:
    """An announcement-free formula equivalent to *phi* (see the module docstring).

    Parameters
    ----------
    phi : Formula
        Any formula of the language.
    limit : int
        The most distinct subformulas the result may need.

    Returns
    -------
    Formula
        A formula without announcements, equivalent to *phi* in every S5_n model; it may use
        relativized common knowledge ``C_G(φ, ψ)``.

    Raises
    ------
    LimitError
        When the reduction grows beyond *limit*.

    Examples
    --------
    >>> import kop
    >>> kop.to_ascii(kop.reduce_announcements(kop.parse("[!p] K_a p")))
    'p -> K_a (p -> p)'
    >>> kop.to_ascii(kop.reduce_announcements(kop.parse("<!q> C{a,b} p")))
    'q & C{a,b}(q, p)'

    References
    ----------
    J. van Benthem, J. van Eijck, B. Kooi, *Logics of communication and change*, Information and
    Computation 204 (2006), §4; H. van Ditmarsch, W. van der Hoek, B. Kooi, *Dynamic Epistemic
    Logic* (2007), ch. 4 and 7.
    """
    phi = arguments.formula(phi, "phi")
    if not has_announcements(phi):
        return phi
    budget = _Budget(limit)
    out: dict[F.Formula, F.Formula] = {}
    translations: dict[F.Formula, dict[F.Formula, F.Formula]] = {}
    for f in phi.subformulas():                     # post-order: children first
        kids = tuple(out[c] for c in f.children)
        if isinstance(f, F.Announce):
            ann, arg = kids
            out[f] = F.Implies(ann, _after(ann, arg, translations, budget))
        elif isinstance(f, F.AnnounceDual):
            ann, arg = kids
            out[f] = F.And(ann, _after(ann, arg, translations, budget))
        else:
            out[f] = rebuild(f, kids)
        budget.spend()
    return out[phi]


def rebuild(f: F.Formula, kids: tuple[F.Formula, ...]) -> F.Formula:
    """*f* with its children replaced by *kids* (returns *f* itself when nothing changed)."""
    if kids == f.children and all(k is c for k, c in zip(kids, f.children)):
        return f
    if isinstance(f, (F.And, F.Or)):
        return type(f)(*kids)
    if isinstance(f, (F.Not,)):
        return F.Not(kids[0])
    if isinstance(f, (F.Implies, F.Iff)):
        return type(f)(kids[0], kids[1])
    if isinstance(f, (F.Know, F.Possible, F.KnowWhether)):
        return type(f)(f.agent, kids[0])
    if isinstance(f, (F.Everyone, F.Common, F.Distributed)):
        return type(f)(f.group, kids[0])
    if isinstance(f, F.RelCommon):
        return F.RelCommon(f.group, kids[0], kids[1])
    if isinstance(f, (F.Announce, F.AnnounceDual)):
        return type(f)(kids[0], kids[1])
    if isinstance(f, F.Belief):
        return F.Belief(f.agent, kids[0])
    if isinstance(f, F.CondBelief):
        return F.CondBelief(f.agent, kids[0], kids[1])
    if isinstance(f, (F.Atom, F.Top, F.Bottom)):
        return f

    raise KopError(f"announcements over {type(f).__name__} formulas have no reduction axiom in kop "
                   "(probability after an announcement is conditional probability, which the language lacks)")


def _after(ann: F.Formula, psi: F.Formula, translations: dict[F.Formula, dict[F.Formula, F.Formula]],
           budget: _Budget) -> F.Formula:
    """``t(ψ)``: an announcement-free formula true at a φ-world iff ψ holds there after announcing φ."""
    memo = translations.setdefault(ann, {})
    for f in psi.subformulas():
        if f in memo:
            continue
        t = [memo[c] for c in f.children]
        r: F.Formula
        if isinstance(f, (F.Atom, F.Top, F.Bottom)):
            r = f
        elif isinstance(f, F.Know):
            r = F.Know(f.agent, F.Implies(ann, t[0]))
        elif isinstance(f, F.Possible):
            r = F.Possible(f.agent, F.And(ann, t[0]))
        elif isinstance(f, F.KnowWhether):
            r = F.Or(F.Know(f.agent, F.Implies(ann, t[0])), F.Know(f.agent, F.Implies(ann, F.Not(t[0]))))
        elif isinstance(f, F.Everyone):
            r = F.Everyone(f.group, F.Implies(ann, t[0]))
        elif isinstance(f, F.Distributed):
            r = F.Distributed(f.group, F.Implies(ann, t[0]))
        elif isinstance(f, F.Common):
            r = F.RelCommon(f.group, ann, t[0])
        elif isinstance(f, F.RelCommon):
            r = F.RelCommon(f.group, F.And(ann, t[0]), t[1])
        elif isinstance(f, F.Belief):          # the most plausible worlds that remain
            r = F.CondBelief(f.agent, ann, t[0])
        elif isinstance(f, F.CondBelief):
            r = F.CondBelief(f.agent, F.And(ann, t[0]), t[1])
        elif isinstance(f, (F.Announce, F.AnnounceDual)):  # pragma: no cover - inner ones are gone
            raise AssertionError("announcements must be eliminated innermost first")
        else:
            r = rebuild(f, tuple(t))
        memo[f] = r
        budget.spend()
    return memo[psi]
