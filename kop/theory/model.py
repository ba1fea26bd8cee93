"""The model of a theory: its statements, scenarios and the answers to its questions.

These are small immutable values; :mod:`kop.theory.grammar` builds them from
text and :mod:`kop.theory.questions` answers them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kop.theory.source import Position

__all__ = ["Statement", "Theory", "Answer"]


@dataclass(frozen=True)
class Statement:
    """One statement of a theory: its kind, arguments, and where it is written.

    ``scope`` names the scenarios a question runs in (``()`` for the default:
    every scenario, or the base when there is none; ``("all",)`` for all).
    """

    kind: str
    args: tuple[Any, ...]
    line: int
    pos: Position | None = field(default=None, compare=False, repr=False)
    scope: tuple[str, ...] = ()

    def error(self, message: str, found: str = "") -> Exception:
        """A located error at this statement."""
        from kop.syntax.errors import KopError

        if self.pos is None:
            return KopError(f"line {self.line}: {message}")
        return self.pos.error(message, found)


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

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"line": self.line, "question": self.question}
        if self.scenario is not None:
            out["scenario"] = self.scenario
        out["result"] = self.result
        return out
