"""The knowledge a theory states, per scenario, and its checks.

A :class:`Context` is what one question sees: the formulas and the partial
knowledge of evaluation functions of the shared base plus one scenario.
Before a question uses it, :func:`check_consistent` proves the formulas
consistent; when they are not it names a minimal contradictory subset (found
with the prover), so "everything follows" is never concluded silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from kop.errors import KopError, LimitError
from kop.syntax.formula import (And, Atom, Bottom, Common, Distributed, Everyone, Formula, Iff, Implies, Know, Not,
                                Or, Top)
from kop.theory.model import MAX_LEVEL, PartialSpec
from kop.reasoning.entailment import consistent
from kop.syntax.levels import chain
from kop.syntax.levels import f_level
from kop.syntax.printer import to_ascii

if TYPE_CHECKING:  # pragma: no cover
    from kop.theory.statements import Statement

__all__ = ["Item", "Context", "check_consistent", "is_preserved", "compact_core", "core_for"]


@dataclass(frozen=True)
class Item:
    """One piece of stated knowledge: formulas (a ``core`` states several) and the statement stating it."""

    formulas: tuple[Formula, ...]
    statement: Statement
    partial: PartialSpec | None = None
    #: a belief over candidate evaluations (``A believes E_B among {...}``): no formulas; used by the
    #: selector under uncertainty (:mod:`kop.theory.beliefs`)
    belief: Any = None
    #: stated by an ``announce`` (left out of the theory's state before its announcements)
    announced: bool = False

    def where(self) -> str:
        pos = self.statement.pos
        file = f"{pos.file}, " if pos is not None and pos.file else ""
        return f"{file}line {self.statement.line}"


@dataclass(frozen=True)
class Context:
    """The knowledge one question sees: the base and (optionally) one scenario."""

    name: str | None
    items: tuple[Item, ...]
    agents: tuple[str, ...] | None = None
    _formulas: list[tuple[Formula, ...]] = field(default_factory=list, compare=False, repr=False)

    @property
    def formulas(self) -> tuple[Formula, ...]:
        if not self._formulas:
            self._formulas.append(tuple(dict.fromkeys(f for it in self.items for f in it.formulas)))
        return self._formulas[0]

    @property
    def partials(self) -> tuple[PartialSpec, ...]:
        return tuple(it.partial for it in self.items if it.partial is not None)

    @property
    def beliefs(self) -> tuple[Any, ...]:
        return tuple(it.belief for it in self.items if it.belief is not None)

    @property
    def label(self) -> str:
        return "the base" if self.name is None else f"scenario {self.name}"


def _sat(fs: tuple[Formula, ...], agents: Any, timeout: float | None) -> bool:

    return consistent(fs, agents=agents, timeout=timeout)


def check_consistent(ctx: Context, at: Statement | None, *, timeout: float | None = None,
                     cache: dict[Any, bool] | None = None) -> None:
    """Raise a located error naming a minimal contradictory subset when *ctx*'s knowledge is inconsistent."""
    key = ctx.formulas
    if cache is not None and key in cache:
        return
    if _sat(ctx.formulas, ctx.agents, timeout):
        if cache is not None:
            cache[key] = True
        return
    parts = [(it, f) for it in ctx.items for f in dict.fromkeys(it.formulas)]
    k = 0
    while k < len(parts):  # deletion: drop every formula the contradiction does not need
        rest = parts[:k] + parts[k + 1:]
        if not _sat(tuple(f for _, f in rest), ctx.agents, timeout):
            parts = rest
        else:
            k += 1

    items = list(dict.fromkeys(it for it, _ in parts))  # shown whole: every formula it needs, in full
    listed = "; ".join(f"{it.where()}: {' & '.join(to_ascii(f) for i, f in parts if i is it)}" for it in items)
    message = (f"the knowledge of {ctx.label} is inconsistent (so everything would follow); "
               f"a minimal contradictory subset: {listed}")
    first = items[0].statement if items else at
    raise KopError(message) if first is None else first.error(message)


def is_preserved(f: Formula) -> bool:
    """Is *f* preserved by every truthful public announcement (the positive, universal fragment)?

    Propositional formulas, and K, E, C, D, conjunction and disjunction of
    preserved formulas (a formula true in a model stays true in every
    submodel that keeps the actual world).

    >>> from kop import parse
    >>> is_preserved(parse("K_A K_B E_A & C{A,B} p")), is_preserved(parse("~K_A p"))
    (True, False)
    """
    if f.is_propositional():
        return True
    if isinstance(f, (And, Or)):
        return all(is_preserved(a) for a in f.args)
    if isinstance(f, Implies):
        return f.left.is_propositional() and is_preserved(f.right)
    if isinstance(f, (Know, Everyone, Common, Distributed)):
        return is_preserved(f.arg)
    return isinstance(f, (Atom, Top, Bottom, Not, Iff)) and f.is_propositional()


@lru_cache(maxsize=256)  # the same formulas each time: equal premises are the same objects
def compact_core(player: str, opponent: str, d: int) -> tuple[Formula, ...]:
    """f(P, d) up to equivalence in linear size: ``K_P E_P``, ``K_P S_P`` and the chains of lengths d-1, d.

    A chain of length i + 2 implies the chain of length i by axiom T, so the
    two longest chains carry all of f(P, d).

    >>> [str(f) for f in compact_core("A", "B", 3)]
    ['K_A E_A', 'K_A S_A', 'K_A K_B E_A', 'K_A K_B K_A E_B']
    """

    if d < 0:
        raise KopError(f"the level d must be >= 0, not {d}")
    base = f_level(player, opponent, 0)
    return base + tuple(chain(player, opponent, i) for i in range(max(1, d - 1), d + 1))


def core_for(player: str, opponent: str, d: str | int, *, what: str = "core") -> tuple[Formula, ...]:
    """f(P, d) as :func:`compact_core`, refusing levels deeper than the prover takes (no hang, no huge input).

    >>> core_for("A", "B", "99999999999999999999")
    Traceback (most recent call last):
    ...
    kop.errors.LimitError: core: level 99999999999... is above kop's limit 990 (the prover takes formulas nested up to 1000 deep)
    """

    text = str(d)
    if not text.isdigit() or len(text) > 6 or int(text) > MAX_LEVEL:
        shown = text if len(text) <= 12 else text[:11] + "..."
        raise LimitError(f"{what}: level {shown} is above kop's limit {MAX_LEVEL} (the prover takes formulas "
                         "nested up to 1000 deep)")
    return compact_core(player, opponent, int(text))
