"""A theory run once, and what its callers ask of it: :class:`TheoryRun`.

The command line, the playground and the agents ask a theory the same few
things: its game, its scenarios as stated (before any ``announce``), what a
player knows in a scenario, the partial knowledge of evaluations, the model
after some announcements, the dominance report per scenario, and the
answers to its own questions.  :class:`TheoryRun` runs the statements once
and answers each of these from that run; the dominance reports are
remembered, so the theory's own ``ask dominates`` questions and the report
per scenario are computed once between them.

>>> import kop
>>> from kop.theory import TheoryRun
>>> run = TheoryRun(kop.parse_theory('''
... players A max, B min
... game A { L: B { (1,5) (3,2) }  R: B { (2,1) (0,0) } }
... scenario blind { core A = 0 }
... scenario sighted {
...   core A = 1
...   know K_B E_A
... }
... ask dominates A
... '''))
>>> [c.name for c in run.scenarios()], run.dominance("sighted", "A").recommended
(['blind', 'sighted'], 'Mh')
>>> [a.text.splitlines()[0] for a in run.answers][1] == run.dominance("sighted", "A").explain().splitlines()[0]
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kop.errors import KopError
from kop.syntax.budget import check_timeout
from kop.syntax.formula import Common, Everyone, Formula, Know
from kop.theory import statements as S
from kop.theory.answers import decision_report, dominance_key
from kop.theory.knowledge import Context
from kop.theory.model import Answer, Theory
from kop.theory.questions import prepared, run_statements
from kop.theory.state import TheoryState
from kop.selection.decide import two_players
from kop.syntax.arguments import fail
from kop.theory.beliefs import belief_tables
import kop.theory.dominance as dominance_module  # looked up at call time (tests count the calls)

if TYPE_CHECKING:  # pragma: no cover
    from kop.games.trees.tree import GameTree
    from kop.selection.evaluations import EvaluationKnowledge
    from kop.selection.missing import Gap
    from kop.semantics.model import KripkeModel
    from kop.theory.dominance import Dominance

__all__ = ["TheoryRun", "belongs"]


def belongs(f: Formula, player: str) -> bool:
    """Is *f* part of what *player* knows: ``K_player ...``, or E or C over a group with *player*?

    The rule by which a theory's knowledge is handed to one player (an agent that plays the game).

    >>> import kop
    >>> [belongs(kop.parse(t), "A") for t in ("K_A p", "K_B p", "C{A,B} p", "E{B} p", "p")]
    [True, False, True, False, False]
    """
    if isinstance(f, Know):
        return bool(f.agent == player)
    if isinstance(f, (Common, Everyone)):
        return player in f.group
    return False


def _first_mover(tree: GameTree) -> str | None:
    """The player a dominance report is for by default (None where the tree has no such player)."""

    try:
        return two_players(tree)[0]
    except KopError:
        return None


class TheoryRun:
    """A theory run once: its final state, its answers, and the queries its callers make.

    Parameters
    ----------
    theory : Theory
        From :func:`kop.parse_theory` or :func:`kop.load_theory`.
    timeout : float, optional
        Seconds for each prover question.
    scenario : str, optional
        Only this scenario: the questions are answered in it alone, and :meth:`scenarios` holds it alone.
    strict : bool
        Decide by the stricter reading of Definition 6 throughout.
    questions : bool
        Answer the theory's questions and make its announcements (default); without, the run
        only builds what the theory states (its game, model, knowledge and scenarios).

    Examples
    --------
    >>> import kop
    >>> run = TheoryRun(kop.parse_theory("agents A, B\\nmodel {\\n vocabulary p\\n observes A: p\\n actual p\\n}\\n"
    ...                                  "announce p\\nask worlds\\n"))
    >>> len(run.model_after(0)), len(run.model_after(1)), run.announcements
    (2, 1, 1)
    >>> [a.text for a in run.answers]
    ['announced p: 1 world remains', 'worlds: w1 (p)']
    """

    def __init__(self, theory: Theory, *, timeout: float | None = 60.0, scenario: str | None = None,
                 strict: bool = False, questions: bool = True) -> None:
        if not isinstance(theory, Theory):

            raise fail("theory", "a Theory (from kop.load_theory(path) or kop.parse_theory(text))", theory)
        self.theory = theory
        self.timeout = check_timeout(timeout)
        self.scenario = scenario
        self.questions = questions
        self.state: TheoryState = run_statements(theory, timeout=self.timeout, scenario=scenario, strict=strict,
                                                 questions=questions, check_scenario=False)
        self._statements: tuple[S.Statement, ...] | None = None

    def __repr__(self) -> str:
        return f"TheoryRun({self.theory!r}, {len(self.answers)} answers)"

    # -- what the theory states ------------------------------------------------------------------
    @property
    def answers(self) -> list[Answer]:
        """The answers to the theory's questions, in order (none when run without questions)."""
        return self.state.answers

    @property
    def expectations(self) -> list[Answer]:
        """The answers of the ``expect`` statements (``result["ok"]``: does the figure match?)."""
        return [a for a in self.answers if a.question.startswith("expect")]

    @property
    def tree(self) -> GameTree | None:
        """The game the theory states, or None."""
        return self.state.tree

    @property
    def model(self) -> KripkeModel | None:
        """The model the theory states (before its announcements), or None."""
        return self.state.stated_model

    @property
    def strict(self) -> bool:
        """Does the theory decide by the stricter reading of Definition 6 (``decide strict`` or ``strict=True``)?"""
        return self.state.strict

    def scenarios(self) -> list[Context]:
        """The knowledge of each scenario as stated, before any announcement: every scenario (or the base
        when there is none), or the one scenario the run was asked for."""
        name = self.scenario
        if name is not None and name != "base" and name not in self.state.scenarios:
            raise KopError(f"no scenario {name!r} (scenarios: {', '.join(self.state.scenarios) or 'none'})")
        return self.state.contexts(scope=(name,) if name else (), stated=True)

    def context(self, scenario: str | None) -> Context:
        """The knowledge of one scenario as stated (None or ``"base"``: the shared base alone)."""
        if scenario is None or scenario == "base":
            return self.state.contexts(scope=("base",), stated=True)[0]
        if scenario not in self.state.scenarios:
            raise KopError(f"no scenario {scenario!r} (scenarios: {', '.join(self.state.scenarios) or 'none'})")
        return self.state.contexts(scope=(scenario,), stated=True)[0]

    def knowledge(self, scenario: str | None, player: str) -> tuple[Formula, ...]:
        """What *player* knows in *scenario*: the stated formulas that are its own (see :func:`belongs`)."""
        return tuple(f for f in self.context(scenario).formulas if belongs(f, player))

    def evaluations(self, scenario: str | None) -> list[EvaluationKnowledge]:
        """The partial knowledge of evaluations *scenario* states, resolved against the game."""
        return self.state.evaluations(self.context(scenario))

    # -- the model after announcements ----------------------------------------------------------
    def _prepared(self) -> tuple[S.Statement, ...]:
        if self._statements is None:
            self._statements = prepared(self.theory)
        return self._statements

    @property
    def announcements(self) -> int:
        """How many ``announce`` statements the theory makes."""
        return sum(isinstance(s, S.Announce) for s in self._prepared())

    def model_after(self, step: int) -> KripkeModel | None:
        """The model after the first *step* announcements (0: the model as stated)."""
        if not 0 <= step <= self.announcements:
            raise KopError(f"step {step}: the theory makes {self.announcements} announcements")
        if step == 0:
            return self.model
        if self.questions and step <= len(self.state.models_after):
            return self.state.models_after[step - 1]
        statements = self._prepared()
        last = [i for i, s in enumerate(statements) if isinstance(s, S.Announce)][step - 1]
        kept = tuple(s for i, s in enumerate(statements)
                     if i <= last and not isinstance(s, (*S.QUESTIONS, *S.EXPECTATIONS)))
        th = Theory(kept, self.theory.base, self.theory.text, self.theory.allow_outside)
        return run_statements(th, timeout=self.timeout).model

    # -- reports ---------------------------------------------------------------------------------
    def dominance(self, scenario: str | None, player: str | None = None) -> Dominance:
        """The dominance report for *player* (default: the root's mover) in *scenario*, computed once."""

        ctx = self._scenario(scenario)
        state = self.state
        tree = state.need_tree(None)
        key = dominance_key(ctx, player, tree, state.strict)
        if key not in state.dominance_cache and player is None:   # the root's mover's report, when known
            first = _first_mover(tree)
            known = None if first is None else state.dominance_cache.get(dominance_key(ctx, first, tree, state.strict))
            if known is not None:
                state.dominance_cache[key] = known
        if key not in state.dominance_cache:
            state.consistent_in(ctx, None)
            evs = state.evaluations(ctx)
            r = dominance_module.dominance(tree, ctx.formulas, player, scenario=ctx.name, timeout=self.timeout,
                                           evaluations=evs, strict=state.strict)
            state.dominance_cache[key] = r
            state.dominance_cache.setdefault(dominance_key(ctx, r.player, tree, state.strict), r)
        return state.dominance_cache[key]

    def uncertainty(self, scenario: str | None, player: str | None = None) -> list[dict[str, Any]]:
        """The selector under uncertainty for each belief *scenario* states (JSON tables; empty without beliefs)."""

        ctx = self._scenario(scenario)
        if not ctx.beliefs:
            return []
        return belief_tables(self.state.need_tree(None), ctx.beliefs, self.dominance(scenario, player).player)

    def decision(self, scenario: str | None) -> tuple[list[str], list[str] | None, list[Gap]]:
        """(decided nodes, nodes decided by partial knowledge only or None, gaps of the undecided nodes)."""
        return decision_report(self.state, None, self._scenario(scenario))

    def _scenario(self, scenario: str | None) -> Context:
        """The stated context named *scenario* (None: the base), as :meth:`scenarios` lists it."""
        for ctx in self.scenarios():
            if ctx.name == scenario:
                return ctx
        return self.context(scenario)
