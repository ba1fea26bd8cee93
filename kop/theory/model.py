"""The model of a theory: its statements, scenarios and the answers to its questions.

These are small immutable values; :mod:`kop.theory.grammar` builds them from
text (the statements are in :mod:`kop.theory.statements`) and
:mod:`kop.theory.questions` answers them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kop.theory.source import Position

if TYPE_CHECKING:  # pragma: no cover
    from kop.theory.statements import Statement

__all__ = ["Theory", "Answer", "GameNode", "ObservationSpec", "PartialSpec", "BeliefSpec", "MAX_LEVEL"]

#: The largest level d a theory may state (``core P = d``): its chains must stay within the
#: prover's nesting limit (:data:`kop.syntax.parser.MAX_DEPTH`, 1000).
MAX_LEVEL = 990


@dataclass(frozen=True)
class GameNode:
    """A node of an inline game: a leaf (payoff) or a mover with (move, probability, child) triples."""

    label: str | None
    mover: str | None
    children: tuple[tuple[str | None, Any, GameNode], ...]
    payoff: tuple[Any, ...]
    pos: Position = field(default=Position(), compare=False, repr=False)
    mover_pos: Position | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class ObservationSpec:
    """A Kripke model by observation: vocabulary, laws, exactly-k constraints, observations, actual world."""

    vocabulary: tuple[str, ...]
    laws: tuple[tuple[Any, Position], ...]
    counts: tuple[tuple[int, tuple[str, ...], Position], ...]
    observes: tuple[tuple[str, tuple[str, ...], Position], ...]
    actual: tuple[str, ...] | None
    pos: Position = field(default=Position(), compare=False, repr=False)
    numbers: tuple[tuple[str, Any, Any, Position], ...] = ()
    wheres: tuple[tuple[str, Position], ...] = ()
    observes_values: tuple[tuple[str, str, Position], ...] = ()


@dataclass(frozen=True)
class BeliefSpec:
    """``KNOWER believes E_OWNER among { [p:] candidate ... }``: a belief over candidate evaluations.

    ``candidates`` holds, per candidate, (values in leaf order or a mapping leaf label -> value,
    its probability or None, its position); the probabilities are all given or all omitted.
    """

    knower: str
    owner: str
    candidates: tuple[tuple[Any, Any, Position], ...]
    pos: Position = field(default=Position(), compare=False, repr=False)
    knower_pos: Position = field(default=Position(), compare=False, repr=False)
    owner_pos: Position = field(default=Position(), compare=False, repr=False)

    def describe(self) -> str:
        return f"{self.knower} believes E_{self.owner} among {len(self.candidates)} candidates"


@dataclass(frozen=True)
class PartialSpec:
    """``KNOWER knows E_OWNER ...``: what one player knows of another's evaluation function.

    ``kind`` is ``exactly``, ``nothing``, ``order``, ``within`` (data: k),
    ``subtree`` (data: a node label) or ``among`` (data: candidates, each a
    tuple of values in leaf order or a mapping leaf label -> value, with its position).
    """

    knower: str
    kind: str
    owner: str
    data: Any = field(hash=False)  # compared, not hashed: a candidate by leaf label is a dict
    pos: Position = field(default=Position(), compare=False, repr=False)
    knower_pos: Position = field(default=Position(), compare=False, repr=False)
    owner_pos: Position = field(default=Position(), compare=False, repr=False)

    def describe(self) -> str:
        if self.kind == "exactly":
            return f"{self.knower} knows E_{self.owner} exactly"
        if self.kind == "nothing":
            return f"{self.knower} knows nothing of E_{self.owner}"
        if self.kind == "order":
            return f"{self.knower} knows the order of E_{self.owner}"
        if self.kind == "within":
            return f"{self.knower} knows E_{self.owner} within {self.data}"
        if self.kind == "subtree":
            return f"{self.knower} knows E_{self.owner} on {self.data}"
        return f"{self.knower} knows E_{self.owner} among {len(self.data)} candidates"


@dataclass(frozen=True)
class Theory:
    """A parsed theory: its statements in order and the folder its files are read from."""

    statements: tuple[Statement, ...]
    base: Path = field(default=Path("."))
    text: str = field(default="", repr=False, compare=False)
    allow_outside: bool = field(default=False, compare=False)

    def __repr__(self) -> str:
        return f"Theory({len(self.statements)} statements)"


@dataclass(frozen=True)
class Answer:
    """The answer to one question (or the effect of an ``announce``), in one scenario."""

    line: int
    question: str
    result: Any
    text: str
    scenario: str | None = None
    file: str = ""

    @property
    def where(self) -> str:
        """``line N`` or, for a question from an included file, ``FILE, line N``."""
        return f"{self.file}, line {self.line}" if self.file else f"line {self.line}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"line": self.line, "question": self.question}
        if self.file:
            out["file"] = self.file
        if self.scenario is not None:
            out["scenario"] = self.scenario
        out["result"] = self.result
        return out
