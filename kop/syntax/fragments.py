"""Which operators a formula uses, for the tools that handle only part of the language.

The model checker evaluates belief (``B_a``, ``B_a(ψ, φ)``) and probability
(``P_a(φ) >= r``) on models that have plausibility and probability; the prover
decides S5_n (with common and distributed knowledge and announcements) and has
no semantics for them.  :func:`refuse_uncertainty` turns such a formula away
with an error located at the operator:

>>> from kop import parse
>>> refuse_uncertainty(parse("K_a p -> B_a p"), "the prover", "K_a p -> B_a p")
Traceback (most recent call last):
...
kop.errors.LanguageError: line 1, column 10: the prover handles S5_n only: B_a (belief) is for the model checker on models with plausibility (kop check); found 'B_a'
"""

from __future__ import annotations

from functools import lru_cache

from kop.syntax import formula as F
from kop.errors import LanguageError
from kop.syntax.printer import to_ascii

__all__ = ["UNCERTAIN", "uncertain_subformula", "refuse_uncertainty", "has_belief", "refuse_probability"]

#: The formula classes of belief and probability.
UNCERTAIN = (F.Belief, F.CondBelief, F.Probability)


def uncertain_subformula(phi: F.Formula) -> F.Formula | None:
    """A subformula of *phi* that is a belief or probability formula, or None.

    Remembered per formula (the prover checks the same premises at every question).

    >>> from kop import parse
    >>> uncertain_subformula(parse("K_a p & B_a q")), uncertain_subformula(parse("K_a p"))
    (kop.parse('B_a q'), None)
    """
    if not F.uncertainty_built():   # no B_a or P_a formula exists yet: none can be inside phi
        return None
    return _uncertain(phi)


@lru_cache(maxsize=4096)
def _uncertain(phi: F.Formula) -> F.Formula | None:
    for g in phi.subformulas():
        if isinstance(g, UNCERTAIN):
            return g
    return None


def refuse_uncertainty(phi: F.Formula, tool: str, text: str | None = None) -> None:
    """Raise :class:`LanguageError` if *phi* uses ``B_a`` or ``P_a``, located in *text* (default: *phi* printed)."""
    bad = uncertain_subformula(phi)
    if bad is None:
        return
    from kop.syntax.parser import locate_token

    source = text if text is not None else to_ascii(phi)
    kind = "PROB" if isinstance(bad, F.Probability) else "BELIEF"
    line, column, found = locate_token(source, kind)
    if kind == "PROB":
        what = "P_a (probability) is for the model checker on models with probabilities"
    else:
        what = "B_a (belief) is for the model checker on models with plausibility"
    raise LanguageError(source, line, column, found, f"{tool} handles S5_n only: {what} (kop check)")


def has_belief(phi: F.Formula) -> bool:
    """True when *phi* contains ``B_a`` or ``B_a(ψ, φ)``.

    >>> from kop import parse
    >>> has_belief(parse("K_a B_b p")), has_belief(parse("K_a p"))
    (True, False)
    """
    if not F.uncertainty_built():
        return False
    return _has_belief(phi)


@lru_cache(maxsize=4096)
def _has_belief(phi: F.Formula) -> bool:
    return any(isinstance(g, (F.Belief, F.CondBelief)) for g in phi.subformulas())


def refuse_probability(phi: F.Formula, tool: str, text: str | None = None) -> None:
    """Raise :class:`LanguageError` if *phi* uses ``P_a``, located in *text* (default: *phi* printed).

    The prover decides knowledge and belief (plausibility models) but not
    probability: ``P_a`` needs linear inequalities over each cell (Fagin,
    Halpern & Megiddo 1990), which kop does not have.

    >>> from kop import parse
    >>> refuse_probability(parse("B_a p"), "the prover")
    >>> refuse_probability(parse("P_a(p) >= 1/2"), "the prover", "P_a(p) >= 1/2")
    Traceback (most recent call last):
    ...
    kop.errors.LanguageError: line 1, column 1: the prover decides knowledge and belief, not probability: P_a (probability) is for the model checker on models with probabilities (kop check); found 'P_a'
    """
    if not F.uncertainty_built():
        return
    bad = next((g for g in phi.subformulas() if isinstance(g, F.Probability)), None)
    if bad is None:
        return
    from kop.syntax.parser import locate_token

    source = text if text is not None else to_ascii(phi)
    line, column, found = locate_token(source, "PROB")
    raise LanguageError(source, line, column, found,
                        f"{tool} decides knowledge and belief, not probability: P_a (probability) is for "
                        "the model checker on models with probabilities (kop check)")
