"""What a theory's statements have built so far: :class:`TheoryState`.

:func:`kop.theory.questions.run_statements` runs the statements in order on one
state; each question is answered from the state its statements above built.

>>> import kop
>>> from kop.theory.questions import run_statements
>>> state = run_statements(kop.parse_theory("players A max, B min\\ngame A { (1,2) (3,0) }\\ncore A = 1\\n"))
>>> state.known_agents(), len(state.base), state.tree.height
(('A', 'B'), 1, 1)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, assert_never

from kop.errors import KopError, LanguageError, source_lines
from kop.syntax.budget import OutOfTime
from kop.syntax.formula import Common, Formula
from kop.theory import statements as S
from kop.theory.knowledge import Context, Item, check_consistent, core_for
from kop.theory.model import Answer, Theory
from kop.theory.source import Position
from kop.theory.statements import Statement
from kop.selection.evaluations import knowledge_formulas
from kop.selection.evaluations import resolve_all
from kop.syntax.fragments import refuse_probability
from kop.syntax.parser import locate_token
from kop.theory.partial import build_evaluations

if TYPE_CHECKING:  # pragma: no cover
    from kop.games.trees.tree import GameTree
    from kop.selection.evaluations import EvaluationKnowledge
    from kop.semantics.model import KripkeModel
    from kop.theory.dominance import Dominance

__all__ = ["TheoryState", "DominanceKey"]

#: what a dominance report depends on (:func:`kop.theory.answers.dominance_key`)
DominanceKey = tuple[Any, ...]

@dataclass
class TheoryState:
    """What the statements above the current one have built.

    Its game (``tree``), model, agents and players; the knowledge of the shared ``base`` and of each
    scenario (the knowledge an ``announce`` adds is marked, so that :meth:`contexts` can leave it
    out: ``stated=True``); the consistency checks and dominance reports already made; and the answers.

    Examples
    --------
    >>> import kop
    >>> state = TheoryState(kop.parse_theory("agents A, B\\n"), timeout=None)
    >>> state.known_agents() is None, state.contexts()[0].label
    (True, 'the base')
    """

    theory: Theory
    timeout: float | None
    agents: tuple[str, ...] | None = None
    players: list[tuple[str, str]] | None = None
    bare_players: frozenset[str] = frozenset()   # listed without a goal: a tree file's goal stands
    tree: GameTree | None = None
    model: KripkeModel | None = None
    #: the model the theory states, before its announcements (what ``model_after(0)`` draws)
    stated_model: KripkeModel | None = None
    #: the model after each announcement, in order
    models_after: list[KripkeModel] = field(default_factory=list)
    #: the model's atoms, and whether it declares them (model { ... }) or only shows those true somewhere (a file)
    model_atoms: frozenset[str] = frozenset()
    atoms_declared: bool = False
    base: list[Item] = field(default_factory=list)
    scenarios: dict[str, list[Item]] = field(default_factory=dict)
    consistent: dict[tuple[Formula, ...], bool] = field(default_factory=dict)
    answers: list[Answer] = field(default_factory=list)
    dominance_cache: dict[DominanceKey, Dominance] = field(default_factory=dict)
    #: Decide by the stricter reading of Definition 6 (``decide strict``, or ``--strict``: forced)
    strict: bool = False
    strict_forced: bool = False

    # -- names -----------------------------------------------------------------
    def known_agents(self) -> tuple[str, ...] | None:
        if self.agents is not None:
            return self.agents
        if self.players is not None:
            return tuple(p for p, _ in self.players)
        if self.tree is not None:
            return tuple(self.tree.player_names)
        return None

    def check_agent(self, st: Statement, name: str, at: Position | None, what: str = "agent") -> None:
        names = self.known_agents()
        if names is not None and name not in names:
            raise st.error(f"unknown {what} {name!r} (declared: {', '.join(names)})", name, at)

    def check_formula(self, st: Statement, f: Formula) -> None:
        names = self.known_agents()
        if names is None:
            return
        bad = sorted(f.agents() - set(names))
        if bad:
            raise st.error(f"the formula names agent {bad[0]!r}, which is not declared "
                           f"(agents: {', '.join(names)})", bad[0], _formula_pos(st))

    def check_atoms(self, st: Statement, f: Formula) -> str:
        """A formula asked of the model names only its atoms: an unknown one is a located error when the
        model declares its atoms (``model { ... }``); for a model file, a warning (returned) that it is
        true at no world."""
        bad = sorted(f.atoms() - self.model_atoms)
        if not bad or self.model is None:
            return ""
        if self.atoms_declared:
            shown = ", ".join(sorted(self.model_atoms)[:12]) + (", ..." if len(self.model_atoms) > 12 else "")
            raise st.error(f"unknown atom {bad[0]!r}: not in the model's vocabulary ({shown})", bad[0],
                           _atom_pos(st, bad[0]))
        return "; warning: " + ", ".join(map(repr, bad)) + " true at no world of the model file (misspelt?)"

    def check_s5n(self, st: Statement, f: Formula) -> None:
        """Refuse probability in a formula that goes to the prover (it decides knowledge and belief), located in the theory."""

        try:
            refuse_probability(f, "the prover")
        except LanguageError as exc:
            at = _formula_pos(st)
            if at is not None:

                line = source_lines(at.text)[at.line - 1] if 0 < at.line <= len(source_lines(at.text)) else ""
                _, col, _ = locate_token(line[at.column - 1:], "PROB")
                at = Position(at.text, at.line, at.column + col - 1, at.file)
            raise st.error(exc.expected + " (a theory's knowledge, its announcements on a game and its "
                           "valid, satisfiable and entails "
                           "questions go to the prover)", exc.found, at) from None

    def opponent(self, st: Statement, p: str, at: Position | None) -> str:
        self.check_agent(st, p, at)
        names = self.known_agents() or ()
        rest = [a for a in names if a != p]
        if len(rest) != 1:
            raise st.error(f"cannot tell who {p}'s opponent is: declare 'agents {p}, Q', 'players {p}, Q' "
                           "or a two-player game", p, at)
        return rest[0]

    def base_path(self, st: Statement) -> Path:
        return st.base or self.theory.base

    # -- knowledge -------------------------------------------------------------
    def item(self, st: S.Knowledge) -> Item:
        """The knowledge a knowledge statement states, checked against the agents and players."""
        match st:
            case S.Know(formula=f):
                self.check_formula(st, f)
                self.check_s5n(st, f)
                return Item((f,), st)
            case S.Common(formula=f):
                self.check_formula(st, f)
                self.check_s5n(st, f)
                names = self.known_agents()
                if not names:
                    raise st.error("'common' needs the agents: declare 'agents A, B' or the players first")
                return Item((Common(tuple(names), f),), st)
            case S.Core(player=p, level=d, player_pos=at):
                q = self.opponent(st, p, at)
                try:
                    return Item(core_for(p, q, d), st)
                except OutOfTime:  # unknown within the limit: not an input error
                    raise
                except KopError as exc:
                    raise st.error(str(exc), str(d)) from None
            case S.KnowsEvaluation(spec=partial):
                self.check_agent(st, partial.knower, partial.knower_pos, "player")
                self.check_agent(st, partial.owner, partial.owner_pos, "player")
                return Item((), st, partial)
            case S.BelievesEvaluation(spec=belief):
                self.check_agent(st, belief.knower, belief.knower_pos, "player")
                self.check_agent(st, belief.owner, belief.owner_pos, "player")
                return Item((), st, None, belief)
            case _:  # pragma: no cover - the union is closed
                assert_never(st)

    def contexts(self, st: Statement | None = None, *, scope: tuple[str, ...] | None = None,
                 stated: bool = False) -> list[Context]:
        """The contexts a question runs in: its scope, or every scenario, or the base.

        Without a statement: the scenarios *scope* names, or every scenario (the base when there is
        none).  *stated* leaves out the knowledge announcements added (the theory's state before them).
        """
        agents = self.agents
        if scope is None:
            scope = st.scope if st is not None else ()
        base = tuple(it for it in self.base if not (stated and it.announced))
        if scope:
            names = list(scope)
            if "all" in names:
                names = list(self.scenarios) or ["base"]
        else:
            names = list(self.scenarios) or ["base"]
        out = []
        for i, name in enumerate(dict.fromkeys(names)):
            if name == "base":
                out.append(Context(None, base, agents))
                continue
            if name not in self.scenarios:
                known = ", ".join(self.scenarios) or "none"
                if st is None:  # pragma: no cover - names come from the scenarios
                    raise KopError(f"no scenario {name!r} (scenarios: {known})")
                at = st.scope_pos[i] if i < len(st.scope_pos) else None
                raise st.error(f"no scenario {name!r} (scenarios: {known})", name, at)
            items = tuple(it for it in self.scenarios[name] if not (stated and it.announced))
            out.append(Context(name, base + items, agents))
        return out

    def consistent_in(self, ctx: Context, st: Statement | None) -> None:
        check_consistent(ctx, st, timeout=self.timeout, cache=self.consistent)

    def evaluations(self, ctx: Context, st: Statement | None = None) -> list[EvaluationKnowledge]:
        """The partial knowledge of evaluations *ctx* states, resolved against the game and checked consistent."""
        if not ctx.partials:
            return []

        tree = self.need_tree(st)
        evs = build_evaluations(ctx.partials, tree)
        by_spec = dict(zip(ctx.partials, evs))
        try:
            resolved = resolve_all(tree, evs)
        except OutOfTime:  # unknown within the limit: not an input error
            raise
        except KopError as exc:
            raise ctx.partials[-1].pos.error(str(exc)) from None
        items = []
        for it in ctx.items:  # what each statement says in the language of E_P and S_P
            if it.partial is None:
                items.append(it)
                continue
            key = (tree.player_index(it.partial.knower), tree.player_index(it.partial.owner))
            ev = by_spec[it.partial]
            own = {k: r for k, r in resolved.items() if k == key and r.spec == ev}
            items.append(Item(knowledge_formulas(tree, own) if own else (), it.statement, it.partial))
        self.consistent_in(Context(ctx.name, tuple(items), ctx.agents), st)
        return evs

    def need_tree(self, st: Statement | None) -> GameTree:
        """The game, or a located error: *st* needs one."""
        if self.tree is None:
            if st is None:
                raise KopError("the theory states no game ('game ...' or tree \"FILE\")")
            raise st.error(f"'{st.KEYWORD}' needs a game: 'game ...' or tree \"FILE\"")
        return self.tree

    def need_model(self, st: Statement) -> KripkeModel:
        """The model, or a located error: *st* needs one."""
        if self.model is None:
            raise st.error(f"'{st.KEYWORD}' needs a model: model \"FILE\" or model {{ ... }}")
        return self.model


def _formula_pos(st: Statement) -> Position | None:
    """Where the formula of a statement starts (after its keyword)."""
    if st.pos is None:
        return None
    lines = source_lines(st.pos.text)
    src = lines[st.line - 1] if 0 < st.line <= len(lines) else ""
    words = src[st.pos.column - 1:].split(None, 1)
    if len(words) < 2:
        return st.pos
    col = st.pos.column - 1 + src[st.pos.column - 1:].index(words[1], len(words[0])) + 1
    return Position(st.pos.text, st.line, col, st.pos.file)


def _atom_pos(st: Statement, name: str) -> Position | None:
    """Where the atom *name* is written in the statement's formula (its start when it is not written there)."""
    at = _formula_pos(st)
    if at is None:
        return None
    lines = source_lines(at.text)
    src = lines[at.line - 1] if 0 < at.line <= len(lines) else ""
    m = re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", src[at.column - 1:])
    return Position(at.text, at.line, at.column + m.start(), at.file) if m else at


