"""The statements of a theory: one frozen dataclass per kind, and :data:`Statement`, their closed union.

:func:`~kop.theory.grammar.parse_theory` reads each line of a theory into one
of these values; :mod:`kop.theory.questions` runs them, dispatching with
``match`` over :data:`Statement` (``typing.assert_never`` in the default arm,
so that a kind added here and forgotten there is a type error).

Every statement carries where it is written (``line``, and the ``pos`` of
its first word, which is not compared), and the questions, ``expect`` and
``announce`` statements the scenarios they are in (``scope``: ``()`` for the
default, every scenario or the base when there is none; ``("all",)`` for
all).  The values compare by what they state, and their ``repr`` rebuilds
them (the positions aside):

>>> import kop
>>> from kop.theory.statements import AskLevel, Know
>>> th = kop.parse_theory("agents A, B\\nknow K_A p\\nask level A\\n")
>>> th.statements[1]
Know(formula=kop.parse('K_A p'), line=2)
>>> th.statements[1] == Know(kop.parse("K_A p"), line=2)
True
>>> th.statements[2].player, keyword(th.statements[2])
('A', 'ask level')
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from fractions import Fraction
from pathlib import Path
from typing import ClassVar, Union

from kop.syntax.formula import Formula
from kop.theory.model import BeliefSpec, GameNode, ObservationSpec, PartialSpec
from kop.theory.source import Position
from kop.errors import KopError

__all__ = ["Statement", "Knowledge", "Question", "Expectation", "keyword",
           "Include", "TreeFile", "ModelFile", "ModelBlock", "Agents", "Players", "Game", "Decide", "Define",
           "Know", "Common", "Core", "KnowsEvaluation", "BelievesEvaluation", "Scenario", "Announce",
           "AskFormula", "AskPlay", "AskLevel", "AskSelect", "AskDominates", "AskDecided", "AskWorlds",
           "ExpectDominates", "ExpectPlay", "ExpectValue", "ExpectDecided", "ExpectLevel"]

#: a payoff written in a theory: whole numbers, or fractions where a value is not whole
Payoff = tuple[Union[int, Fraction], ...]


@dataclass(frozen=True, repr=False)
class _Located:
    """What every statement has: where it is written and, for questions, the scenarios it is in."""

    #: the statement's keyword(s), as error messages name it (``ask select``)
    KEYWORD: ClassVar[str] = ""

    line: int = field(kw_only=True)
    pos: Position | None = field(default=None, compare=False, repr=False, kw_only=True)
    scope: tuple[str, ...] = field(default=(), kw_only=True)
    scope_pos: tuple[Position, ...] = field(default=(), compare=False, repr=False, kw_only=True)
    #: the folder of the file that states it, when it comes from an included file
    base: Path | None = field(default=None, compare=False, repr=False, kw_only=True)

    def __repr__(self) -> str:
        """What it states first, then its line (and its scope when it has one): the call that rebuilds it."""
        shown = [f for f in fields(self) if f.repr and not f.kw_only] + [f for f in fields(self) if f.kw_only and f.repr]
        parts = [f"{f.name}={getattr(self, f.name)!r}" for f in shown if not (f.name == "scope" and not self.scope)]
        return f"{type(self).__name__}({', '.join(parts)})"

    def error(self, message: str, found: str = "", at: Position | None = None) -> Exception:
        """A located error at this statement (or at *at*, a place inside it).

        >>> str(Agents(("A", "B"), line=3).error("agent 'B' is listed twice"))
        "line 3: agent 'B' is listed twice"
        """

        where = at or self.pos
        if where is None:
            return KopError(f"line {self.line}: {message}")
        return where.error(message, found)


# -- what the theory is about --------------------------------------------------------------------

@dataclass(frozen=True, repr=False)
class Include(_Located):
    """``include "FILE"``: the statements of another theory file, in place (see :func:`~kop.theory.grammar.expand_includes`)."""

    KEYWORD = "include"
    path: str


@dataclass(frozen=True, repr=False)
class TreeFile(_Located):
    """``tree "FILE"``: the game, from a kop-tree/1 JSON or Gambit ``.efg`` file."""

    KEYWORD = "tree"
    path: str


@dataclass(frozen=True, repr=False)
class ModelFile(_Located):
    """``model "FILE"``: a Kripke model, from a kop-model/1 JSON file."""

    KEYWORD = "model"
    path: str


@dataclass(frozen=True, repr=False)
class ModelBlock(_Located):
    """``model { vocabulary ... }``: a Kripke model by observation."""

    KEYWORD = "model"
    spec: ObservationSpec


@dataclass(frozen=True, repr=False)
class Agents(_Located):
    """``agents A, B``: the agents the formulas may name."""

    KEYWORD = "agents"
    names: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class Players(_Located):
    """``players A max, B min``: the players in order, each with its goal (``None``: not given)."""

    KEYWORD = "players"
    players: tuple[tuple[str, str | None], ...]
    #: where each player's name is written
    name_pos: tuple[Position, ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True, repr=False)
class Game(_Located):
    """``game ...``: an inline game tree."""

    KEYWORD = "game"
    root: GameNode


@dataclass(frozen=True, repr=False)
class Decide(_Located):
    """``decide strict`` or ``decide agreement``: the reading of Definition 6 the questions below use."""

    KEYWORD = "decide"
    reading: str
    reading_pos: Position | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, repr=False)
class Define(_Located):
    """``define NAME = FORMULA``: a name for a formula (see :mod:`kop.theory.defines`)."""

    KEYWORD = "define"
    name: str
    formula: Formula


# -- knowledge -----------------------------------------------------------------------------------

@dataclass(frozen=True, repr=False)
class Know(_Located):
    """``know FORMULA``: the formula is true at the actual world."""

    KEYWORD = "know"
    formula: Formula


@dataclass(frozen=True, repr=False)
class Common(_Located):
    """``common FORMULA``: the formula is common knowledge among the agents."""

    KEYWORD = "common"
    formula: Formula


@dataclass(frozen=True, repr=False)
class Core(_Located):
    """``core P = d``: the core knowledge f(P, d) of player P at level d."""

    KEYWORD = "core"
    player: str
    level: int
    player_pos: Position | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, repr=False)
class KnowsEvaluation(_Located):
    """``P knows E_Q ...``: what one player knows of another's evaluation function."""

    KEYWORD = "knows"
    spec: PartialSpec


@dataclass(frozen=True, repr=False)
class BelievesEvaluation(_Located):
    """``P believes E_Q among { ... }``: a belief over candidate evaluations."""

    KEYWORD = "believes"
    spec: BeliefSpec


@dataclass(frozen=True, repr=False)
class Scenario(_Located):
    """``scenario NAME { ... }``: knowledge that holds in this scenario only."""

    KEYWORD = "scenario"
    name: str
    body: tuple[Statement, ...]
    name_pos: Position | None = field(default=None, compare=False, repr=False)


# -- announcements, questions and expectations ---------------------------------------------------

@dataclass(frozen=True, repr=False)
class Announce(_Located):
    """``[in S] announce FORMULA``: a public announcement, in the model and in the game's knowledge."""

    KEYWORD = "announce"
    formula: Formula


@dataclass(frozen=True, repr=False)
class AskFormula(_Located):
    """``ask valid|satisfiable|entails|check FORMULA``."""

    KEYWORD = "ask formula"
    verb: str
    formula: Formula


@dataclass(frozen=True, repr=False)
class AskPlay(_Located):
    """``ask play A=NAME B=NAME``: the play of the named strategies."""

    KEYWORD = "ask play"
    strategies: tuple[tuple[str, str], ...]
    #: where each (player, strategy name) pair is written
    strategy_pos: tuple[tuple[Position, Position], ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True, repr=False)
class AskLevel(_Located):
    """``ask level P``: P's level of knowledge."""

    KEYWORD = "ask level"
    player: str
    player_pos: Position | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, repr=False)
class AskSelect(_Located):
    """``ask select [P]``: the selector's report for P (default: the first mover)."""

    KEYWORD = "ask select"
    player: str | None = None
    player_pos: Position | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, repr=False)
class AskDominates(_Located):
    """``ask dominates [P]``: which strategy dominates for P (default: the first mover)."""

    KEYWORD = "ask dominates"
    player: str | None = None
    player_pos: Position | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, repr=False)
class AskDecided(_Located):
    """``ask decided``: the decided nodes and what is missing for the others."""

    KEYWORD = "ask decided"


@dataclass(frozen=True, repr=False)
class AskWorlds(_Located):
    """``ask worlds``: the model's designated worlds."""

    KEYWORD = "ask worlds"


@dataclass(frozen=True, repr=False)
class ExpectDominates(_Located):
    """``expect dominates P: STRATEGY (a, b) [communication (c, d) | none]``.

    ``communication`` is the outcome with communication (``None``: none), checked only when
    ``has_communication``.
    """

    KEYWORD = "expect dominates"
    player: str
    strategy: str
    outcome: Payoff
    communication: Payoff | None = None
    has_communication: bool = False


@dataclass(frozen=True, repr=False)
class ExpectPlay(_Located):
    """``expect play A=NAME B=NAME: (a, b)``."""

    KEYWORD = "expect play"
    strategies: tuple[tuple[str, str], ...]
    outcome: Payoff


@dataclass(frozen=True, repr=False)
class ExpectValue(_Located):
    """``expect value STRATEGY P [at NODE]: (a, b)``."""

    KEYWORD = "expect value"
    strategy: str
    player: str
    at: str | None
    value: Payoff


@dataclass(frozen=True, repr=False)
class ExpectDecided(_Located):
    """``expect decided: N1, N2``: the decided nodes."""

    KEYWORD = "expect decided"
    nodes: tuple[str, ...]


@dataclass(frozen=True, repr=False)
class ExpectLevel(_Located):
    """``expect level P: d`` (a whole number or ``inf``)."""

    KEYWORD = "expect level"
    player: str
    level: str


#: the knowledge statements (the shared base, or inside a scenario)
Knowledge = Union[Know, Common, Core, KnowsEvaluation, BelievesEvaluation]
#: the questions (``ask ...``)
Question = Union[AskFormula, AskPlay, AskLevel, AskSelect, AskDominates, AskDecided, AskWorlds]
#: the expected figures (``expect ...``)
Expectation = Union[ExpectDominates, ExpectPlay, ExpectValue, ExpectDecided, ExpectLevel]
#: every statement of a theory: a closed union, dispatched with ``match`` and ``typing.assert_never``
Statement = Union[Include, TreeFile, ModelFile, ModelBlock, Agents, Players, Game, Decide, Define, Knowledge,
                  Scenario, Announce, Question, Expectation]

#: the classes of :data:`Knowledge`, for ``isinstance``
KNOWLEDGE = (Know, Common, Core, KnowsEvaluation, BelievesEvaluation)
#: the classes of :data:`Question` and :data:`Expectation`, for ``isinstance``
QUESTIONS = (AskFormula, AskPlay, AskLevel, AskSelect, AskDominates, AskDecided, AskWorlds)
EXPECTATIONS = (ExpectDominates, ExpectPlay, ExpectValue, ExpectDecided, ExpectLevel)
#: the classes of :data:`Statement`, for ``isinstance``
STATEMENTS = (Include, TreeFile, ModelFile, ModelBlock, Agents, Players, Game, Decide, Define, Scenario, Announce,
              *KNOWLEDGE, *QUESTIONS, *EXPECTATIONS)


def keyword(st: Statement) -> str:
    """The words that start *st*, as error messages name it.

    >>> keyword(AskSelect(line=1)), keyword(ExpectLevel("A", "2", line=4))
    ('ask select', 'expect level')
    """
    return st.KEYWORD
