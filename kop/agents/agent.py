"""Agents: a name, an evaluation function and knowledge; they choose a strategy and a move at each node.

An :class:`Agent` is a knowledge-oriented player (Sang & Chen).  At each state
where it moves it

1. expands the game below that state to its search horizon (``depth``) when
   the tree is small enough (``select_limit`` nodes), and asks the strategy
   selector (:func:`kop.select`, SPEC §4) what its knowledge justifies there:
   its level and the opponent's, the decided nodes of that subtree, every
   candidate strategy with its precondition, theorem and guaranteed outcome;
2. on larger trees, ranks the strategies from the levels alone (M^h when the
   level reaches the horizon's height - 1 or is unbounded, Theorem 6; else
   HM0M^d with d = its level >= 1, Theorem 8; else minimax);
3. plays the chosen strategy by searching the implicit game (:func:`kop.search`)
   and reports the move, the predicted value, the principal variation and why.

Knowledge is a set of formulas true at the actual world, about agents by name
(``K_A E_B``: agent A knows agent B's evaluation function); ``kop.f_level``
builds the paper's levels.  ``evaluation=None`` scores states by the game's
own payoff for the agent's player.

Example
-------
>>> import kop
>>> a = kop.Agent("A", knowledge=kop.f_level("A", "B", 2))
>>> a.level("B"), a.knows("E_B")
(2, True)
>>> c = a.move(kop.figure2_game())
>>> c.move_name, c.strategy, c.value
('T', 'HM0M2', (9, 4))

Reference: Sang & Chen, *Beyond Minimax*, Theorems 5-8 and "Knowledge Update via Communication".
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from kop.games.errors import GameError, LimitError, TreeError
from kop.games.search.implicit import CHANCE, GameView, state_text
from kop.games.search.treegame import TreeGame
from kop.games.names import StrategyName
from kop.games.registry import search
from kop.games.search.result import SearchResult
from kop.games.trees.tree import GameTree, Player
from kop.selection.evaluations import EvaluationKnowledge
from kop.selection.selector import Payoff, Selection, select
from kop.syntax import arguments
from kop.syntax.arguments import fail
from kop.errors import KopError
from kop.syntax.formula import Formula
from kop.syntax.wording import plural
from kop.reasoning.knowledge import knows, level
from kop.syntax.parser import parse

__all__ = ["Agent", "StrategyChoice", "MoveChoice", "as_formulas", "split_knowledge", "level_text"]

#: kinds of partial knowledge that mean the same on every subtree (the others name the whole tree's
#: leaves or nodes, so they are used only when the agent reasons about the whole game tree)
_ANYWHERE = ("exact", "nothing", "order", "within")

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*")

#: the largest subtree handed to the selector (it model-checks and enumerates behaviours)
DEFAULT_SELECT_LIMIT = 2_000


def level_text(x: float | None) -> str:
    """A level as text, as ``kop level`` prints it: ``inf`` when unbounded, ``-1`` when not even f(P,0) follows.

    >>> level_text(-1), level_text(2), level_text(math.inf)
    ('-1', '2', 'inf')
    """
    if x is None:
        return "?"
    if x == math.inf:
        return "inf"
    return str(int(x))


def levels_line(me: str, mine: float | None, opponent: str, theirs: float | None) -> str:
    """Both levels as an agent's knowledge gives them, saying whose knowledge (the opponent's own may differ).

    >>> levels_line("A", 0, "B", -1)
    "levels by the prover from A's knowledge: A = 0, B = -1 (A's knowledge does not entail f(B,0))"
    """
    why = {me: mine, opponent: theirs}
    shown = [f"{n} = {level_text(x)}" + (f" ({me}'s knowledge does not entail f({n},0))" if x == -1 else "")
             for n, x in why.items()]
    return f"levels by the prover from {me}'s knowledge: " + ", ".join(shown)


def as_formulas(knowledge: Any) -> tuple[Formula, ...]:
    """Knowledge as a tuple of formulas: one formula or string, or any iterable of them."""
    formulas, partial = split_knowledge(knowledge)
    if partial:
        raise KopError(f"expected formulas, found partial knowledge {partial[0]!r}")
    return formulas


def split_knowledge(knowledge: Any) -> tuple[tuple[Formula, ...], tuple[EvaluationKnowledge, ...]]:
    """(formulas, partial knowledge of evaluations) from formulas, strings,
    :class:`~kop.selection.evaluations.EvaluationKnowledge` values, or iterables of them."""
    if knowledge is None:
        return (), ()
    if isinstance(knowledge, (str, Formula, EvaluationKnowledge)):
        knowledge = [knowledge]
    if not isinstance(knowledge, Iterable) or isinstance(knowledge, Mapping):
        raise fail("knowledge", "formulas, formula strings or partial knowledge of evaluations (kop.knows_order, "
                   "...), or a list of them", knowledge)
    out: list[Formula] = []
    partial: list[EvaluationKnowledge] = []
    for k in knowledge:
        if isinstance(k, Formula):
            out.append(k)
        elif isinstance(k, str):
            out.append(parse(k))
        elif isinstance(k, EvaluationKnowledge):
            partial.append(k)
        elif isinstance(k, Iterable):
            f, e = split_knowledge(k)
            out.extend(f)
            partial.extend(e)
        else:
            raise fail("knowledge", "formulas, formula strings or partial knowledge of evaluations "
                       "(kop.knows_order, ...)", k)
    return tuple(out), tuple(partial)


@dataclass(frozen=True)
class StrategyChoice:
    """The strategy an agent chose at one state, and why."""

    strategy: str
    reasons: tuple[str, ...]
    level: float | None = None
    opponent_level: float | None = None
    guaranteed: Payoff | None = None
    selection: Selection | None = None

    def explain(self) -> str:
        return "; ".join(self.reasons)

    def to_json(self) -> dict[str, Any]:
        return {"strategy": self.strategy, "reasons": list(self.reasons),
                "level": None if self.level is None else level_text(self.level),
                "opponent_level": None if self.opponent_level is None else level_text(self.opponent_level),
                "guaranteed": None if self.guaranteed is None else list(self.guaranteed)}


@dataclass(frozen=True)
class MoveChoice:
    """An agent's move at one state: the move, the strategy behind it, what it predicts, and why."""

    move: Any
    move_name: str
    strategy: str
    choice: StrategyChoice
    search: SearchResult

    @property
    def value(self) -> Payoff:
        """The value the strategy predicts (one number per player)."""
        return self.search.value

    @property
    def pv(self) -> tuple[str, ...]:
        return self.search.pv_names

    @property
    def reasons(self) -> tuple[str, ...]:
        return self.choice.reasons

    def explain(self) -> str:
        pv = " ".join(self.pv) or "-"
        return (f"{self.move_name} by {self.strategy} (predicts {self.value}, line {pv}, "
                f"{plural(self.search.nodes, 'node')}): {self.choice.explain()}")

    def __repr__(self) -> str:
        return f"MoveChoice({self.move_name!r}, strategy={self.strategy!r}, value={self.value})"


class Agent:
    """A knowledge-oriented player (see the module docstring).

    Parameters
    ----------
    name : str
        The agent's name, as it appears in knowledge formulas (``K_A``, ``E_A``).
    evaluation : function(state) -> number, optional
        The agent's evaluation function E_name; None means the game's payoff.
    knowledge : formulas, strings or partial knowledge of evaluations
        What is true at the actual world, e.g. ``kop.f_level("A", "B", 2)``;
        :class:`~kop.selection.evaluations.EvaluationKnowledge` values
        (``kop.knows_order("A", "B")``, ``kop.knows_within("A", "B", 2)``, ...)
        go to the selector as partial knowledge.  Order, interval, exact and
        empty knowledge apply at every node; candidate lists and subtree
        knowledge name the whole tree's leaves, so they are used only when the
        agent reasons about the whole game tree (at its root, with no horizon).
    strategy : str, optional
        Force a strategy (``minimax``, ``alphabeta``, ``M<d>``, ``Mh``, ``HM0M<d>``)
        instead of asking the selector.
    depth : int, optional
        Search horizon in plies (None: to the end of the game).
    select_limit : int
        Largest subtree (nodes) handed to the selector; above it the ranking uses levels only.
    timeout : float, optional
        Seconds per prover question.
    bound : float, optional
        For M^d: the bounded-sum B that makes αβ* pruning sound (see :mod:`kop.games.search.mstar`).
    max_nodes : int, optional
        Stop a search past this many states with a LimitError (None: no limit).

    Examples
    --------
    The selector picks the strategy that the agent's knowledge justifies, unless one is forced:

    >>> import kop
    >>> g = kop.figure2_game()
    >>> [(c.move_name, c.strategy, c.value) for c in (kop.Agent("A", knowledge=kop.f_level("A", "B", 2)).move(g),
    ...                                                 kop.Agent("A", strategy="minimax").move(g))]
    [('T', 'HM0M2', (9, 4)), ('R', 'minimax', (4, 7))]

    References
    ----------
    T. Sang, J.-H. Chen, *Beyond Minimax: Nonzero-Sum Game Tree Search with Knowledge Oriented
    Players*, Theorems 5-8 and "Knowledge Update via Communication".
    """

    __slots__ = ("name", "evaluation", "knowledge", "evaluation_knowledge", "strategy", "depth", "select_limit",
                 "timeout", "bound", "max_nodes")

    def __init__(self, name: str, evaluation: Callable[[Any], float] | None = None, knowledge: Any = (), *,
                 strategy: str | None = None, depth: int | None = None,
                 select_limit: int = DEFAULT_SELECT_LIMIT, timeout: float | None = 30.0,
                 bound: float | None = None, max_nodes: int | None = None):
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise KopError(f"an agent's name is a letter followed by letters or digits (it names K_{{name}}), "
                           f"not {name!r}")
        if evaluation is not None and not callable(evaluation):
            raise KopError(f"agent {name}: the evaluation must be a function of the state, not {evaluation!r}")
        if strategy is not None:
            StrategyName.parse(strategy, "kop")
        if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 0):
            raise GameError(f"agent {name}: the search depth must be an integer >= 0 or None, not {depth!r}")
        select_limit = arguments.integer(select_limit, "select_limit", minimum=1)
        if timeout is not None:
            timeout = arguments.real(timeout, "timeout", minimum=0)
        if bound is not None:
            bound = arguments.real(bound, "bound")
        if max_nodes is not None:
            max_nodes = arguments.integer(max_nodes, "max_nodes", minimum=1)
        self.name = name
        self.evaluation = evaluation
        self.knowledge, self.evaluation_knowledge = split_knowledge(knowledge)
        self.strategy = strategy
        self.depth = depth
        self.select_limit = select_limit
        self.timeout = timeout
        self.bound = bound
        self.max_nodes = max_nodes

    def __repr__(self) -> str:
        extra = f", strategy={self.strategy!r}" if self.strategy else ""
        depth = f", depth={self.depth}" if self.depth is not None else ""
        return f"Agent({self.name!r}, knowledge={len(self.knowledge)} formulas{extra}{depth})"

    def with_knowledge(self, knowledge: Any) -> Agent:
        """A copy of this agent that knows *knowledge* instead."""
        formulas, partial = split_knowledge(knowledge)
        return Agent(self.name, self.evaluation, (formulas, partial or self.evaluation_knowledge),
                     strategy=self.strategy, depth=self.depth, select_limit=self.select_limit,
                     timeout=self.timeout, bound=self.bound, max_nodes=self.max_nodes)

    # -- knowledge -----------------------------------------------------------------
    def knows(self, formula: Formula | str) -> bool:
        """Does the agent know *formula* (``K_name formula`` follows from its knowledge)?"""
        return bool(knows(self.knowledge, self.name, formula, timeout=self.timeout).holds)

    def level(self, opponent: str | Agent, max_depth: int | None = None) -> int | float:
        """The agent's knowledge level f(name, d) against *opponent* (infinity under common knowledge)."""
        other = opponent.name if isinstance(opponent, Agent) else opponent
        d: int | float = level(self.knowledge, self.name, other, max_depth, timeout=self.timeout)
        return d

    # -- decisions -----------------------------------------------------------------
    def _setup(self, game: Any, state: Any, opponent: str | Agent | None,
               evaluations: Mapping[str, Any] | None) -> tuple[GameView, Any, int, str, dict[str, Any]]:
        view = game if isinstance(game, GameView) else GameView(game)
        s = view.initial_state() if state is None else state
        if view.is_terminal(s):
            raise GameError(f"agent {self.name}: the game is over at {state_text(s)}")
        me = view.mover(s)
        if me == CHANCE:
            raise GameError(f"agent {self.name}: {state_text(s)} is a chance state; nobody chooses there")
        evs: dict[str, Any] = dict(evaluations or {})
        for k in evs:
            view.player_index(k)
        evs[view.names[me]] = self.evaluation
        if opponent is None:
            others = [n for i, n in enumerate(view.names) if i != me]
            opp = others[0] if len(others) == 1 else ""
        else:
            opp = opponent.name if isinstance(opponent, Agent) else str(opponent)
        return view.with_evaluations(evs), s, me, opp, evs

    def choose_strategy(self, game: Any, state: Any = None, *, opponent: str | Agent | None = None,
                        evaluations: Mapping[str, Any] | None = None) -> StrategyChoice:
        """The strategy the agent's knowledge justifies at *state* (default: the initial state), with reasons.

        *opponent* names the other agent in the knowledge formulas (default: the
        other player's name); *evaluations* maps the other players' names to their
        evaluation functions (default: the game's payoffs).
        """
        view, s, me, opp, _ = self._setup(game, state, opponent, evaluations)
        return self._choose(view, s, me, opp)

    def _choose(self, view: GameView, s: Any, me: int, opp: str) -> StrategyChoice:
        if self.strategy is not None:
            return StrategyChoice(self.strategy, (f"{self.name} was told to play {self.strategy}",))
        if len(view.players) != 2 or not opp:
            return StrategyChoice("minimax", (f"{len(view.players)} players: knowledge levels are defined for "
                                              "two, so the worst-case baseline minimax",))
        try:
            tree = self._tree_below(view, s)
        except LimitError:
            return self._by_levels(opp, f"the tree below exceeds {self.select_limit} nodes")
        # chance nodes too: a chance node is decided when its children are (SPEC §2.6)
        names = [self.name if i == me else opp for i in range(2)]
        renamed = GameTree(tuple(Player(n, p.goal) for n, p in zip(names, view.players)),
                           tree.offsets, tree.kind, tree.payoffs, tree.probs, tree.labels, tree.moves,
                           tree.integral)
        whole = self.depth is None and s == view.initial_state()
        partial = tuple(e for e in self.evaluation_knowledge if whole or e.kind in _ANYWHERE)
        skipped = [e.describe() for e in self.evaluation_knowledge if e not in partial]
        try:
            sel = select(renamed, self.knowledge, self.name, timeout=self.timeout, evaluations=partial or None)
        except (TreeError, LimitError) as exc:
            return self._by_levels(opp, str(exc))
        return _noted(_from_selection(sel, self.depth), partial, skipped)

    def _tree_below(self, view: GameView, s: Any) -> GameTree:
        """The tree below *s* (to the horizon) for the selector; LimitError past ``select_limit`` nodes."""
        if isinstance(view.game, TreeGame) and self.depth is None and view.plain:
            tree = view.game.tree.subtree(s)      # keeps the node labels
            if len(tree) > self.select_limit:
                raise LimitError("too large")
            return tree
        return GameTree.from_game(view, self.depth, state=s, node_limit=self.select_limit)

    def _by_levels(self, opp: str, why_not: str) -> StrategyChoice:
        lp = self.level(opp)
        lq = level(self.knowledge, opp, self.name, timeout=self.timeout)
        h = self.depth
        reasons = [levels_line(self.name, lp, opp, lq),
                   f"no selector report ({why_not}); ranking from the levels"]
        if self.evaluation_knowledge:
            reasons.append("partial knowledge of evaluations is used by the selector only: "
                           + "; ".join(e.describe() for e in self.evaluation_knowledge))
        if lp == math.inf or (h is not None and (h <= 1 or lp >= h - 1)):
            need = "common knowledge" if lp == math.inf else f"f({self.name},{max((h or 1) - 1, 0)}) ⊆ K({self.name})"
            reasons.append(f"Mh: {need} within the horizon; it K-dominates every strategy (Theorem 6)")
            name = "Mh"
        elif lp >= 1:
            name = str(StrategyName.hm0m(int(lp)))
            reasons.append(f"{name}: {self.name}'s level {level_text(lp)} >= 1; it K-dominates minimax (Theorem 8)")
        else:
            name = "minimax"
            reasons.append(f"minimax: {self.name}'s level is 0, the worst-case baseline")
        return StrategyChoice(name, tuple(reasons), lp, lq)

    def move(self, game: Any, state: Any = None, *, opponent: str | Agent | None = None,
             evaluations: Mapping[str, Any] | None = None) -> MoveChoice:
        """The agent's move at *state* (default: the initial state), the strategy behind it, and why."""
        view, s, me, opp, _ = self._setup(game, state, opponent, evaluations)
        choice = self._choose(view, s, me, opp)
        name = "alphabeta" if choice.strategy == "minimax" else choice.strategy
        res = search(view, name, state=s, depth=self.depth, player=me, bound=self.bound, max_nodes=self.max_nodes)
        if res.move is None:
            raise GameError(f"agent {self.name}: {choice.strategy} chose no move at {state_text(s)}")
        return MoveChoice(res.move, res.pv_names[0], choice.strategy, choice, res)


def _noted(choice: StrategyChoice, partial: tuple[EvaluationKnowledge, ...], skipped: list[str]) -> StrategyChoice:
    """*choice* with the partial knowledge the selector used after its first reason, and the statements
    it could not use below the root last."""
    reasons = choice.reasons
    if partial:
        reasons = reasons[:1] + ("partial knowledge: " + "; ".join(e.describe() for e in partial),) + reasons[1:]
    if skipped:
        reasons = reasons + ("not used below the root (it names the whole tree's leaves): " + "; ".join(skipped),)
    return replace(choice, reasons=reasons)


def _from_selection(sel: Selection, depth: int | None) -> StrategyChoice:
    rec = sel.recommended
    p, q = sel.player, sel.opponent
    where = "the tree below" if depth is None else f"the tree below, to the horizon {depth}"
    dec = [n.name for n in sel.decision.decided_nodes()]
    reasons = [levels_line(p, sel.level, q, sel.opponent_level),
               f"{where} has height {sel.height}, {len(dec)} of its inner nodes decided (Definition 6, by the corrected Decide)"]
    for c in sel.candidates:
        if c is rec:
            g = f"; guarantees {c.guaranteed}" if c.guaranteed is not None else ""
            reasons.append(f"{c.strategy} applies ({c.precondition}): {c.justification}{g}")
        elif not c.applicable:
            reasons.append(f"{c.strategy} does not apply ({c.precondition})")
    return StrategyChoice(rec.strategy, tuple(reasons), sel.level, sel.opponent_level, rec.guaranteed, sel)
