"""The answer of the prover: :class:`Verdict`.

    >>> from kop import valid
    >>> v = valid("K_a p -> K_b p")
    >>> v.holds, len(v.countermodel) >= 2
    (False, True)
    >>> v.countermodel.satisfies("K_a p & ~K_b p")        # refuted at the designated world
    True
    >>> bool(valid("K_a p -> p"))
    True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kop.syntax.formula import Formula
from kop.syntax.wording import plural
from kop.syntax.printer import to_ascii

if TYPE_CHECKING:  # pragma: no cover
    from kop.semantics.model import KripkeModel

__all__ = ["Verdict"]


@dataclass(frozen=True, eq=False)
class Verdict:
    """A decided question: is *formula* satisfiable / valid / entailed by *premises*?

    Attributes
    ----------
    holds : bool
        The answer.  ``bool(verdict)`` is the same.
    question : str
        ``"satisfiable"``, ``"valid"`` or ``"entails"``.
    formula : Formula
        The formula asked about (the conclusion, for ``entails``).
    premises : tuple of Formula
        The premises (``entails`` only).
    model : KripkeModel or None
        A model of the formula when it is satisfiable; a countermodel when a
        validity or entailment fails (its designated world satisfies the
        premises and refutes the formula).  Always checked by the model checker.
    stats : dict
        ``time`` (wall-clock seconds), ``cpu_seconds`` (the CPU time the limit counts),
        ``limit_seconds`` (the limit, when there is one), ``method`` (``"sat"``, ``"bdd"``), ``closure``
        (subformulas in the closure), ``types`` (types built), ``sat_calls``,
        ``learned``, ``bdd_nodes``, ``rounds``, ``worlds`` (of the returned model).

    Examples
    --------
    >>> import kop
    >>> v = kop.valid("K_a p -> p")
    >>> v, bool(v), v.question
    (Verdict(valid 'K_a p -> p': holds), True, 'valid')
    >>> kop.satisfiable("K_a p & ~p").holds          # axiom T: knowledge is true
    False
    """

    holds: bool
    question: str
    formula: Formula
    premises: tuple[Formula, ...] = ()
    model: KripkeModel | None = None
    stats: dict[str, Any] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return self.holds

    @property
    def limit_used(self) -> float | None:
        """The share of the time limit (CPU time) the question used, or None without a limit.

        >>> import kop
        >>> 0 <= kop.valid("K_a p -> p", timeout=60).limit_used < 1
        True
        """
        limit, used = self.stats.get("limit_seconds"), self.stats.get("cpu_seconds")
        return None if not limit or used is None else float(used) / float(limit)

    @property
    def countermodel(self) -> KripkeModel | None:
        """The countermodel of a failed validity or entailment (None otherwise)."""
        return self.model if self.question != "satisfiable" else None

    def to_json(self) -> dict[str, Any]:
        """``{"holds": ..., "countermodel": MODEL or null, ...}`` (``"model"`` for satisfiability)."""
        out: dict[str, Any] = {"holds": self.holds, "question": self.question, "formula": to_ascii(self.formula)}
        if self.question == "entails":
            out["premises"] = [to_ascii(p) for p in self.premises]
        key = "model" if self.question == "satisfiable" else "countermodel"
        out[key] = self.model.to_json() if self.model is not None else None
        out["stats"] = {k: (round(v, 6) if isinstance(v, float) else v) for k, v in self.stats.items()}
        return out

    def __repr__(self) -> str:
        what = "holds" if self.holds else "fails"
        extra = ""
        if self.model is not None:
            kind = "model" if self.question == "satisfiable" else "countermodel"
            extra = f", {kind} with {plural(len(self.model), 'world')}"
        text = to_ascii(self.formula)
        if len(text) > 80:
            text = text[:77] + "..."
        return f"Verdict({self.question} {text!r}: {what}{extra})"
