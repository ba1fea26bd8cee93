"""An agent that holds probabilities over its opponent's types and learns them from the moves it sees.

A :class:`LearningAgent` does not know its opponent's evaluation function; it
holds a probability over a few *types* (one evaluation function each, as in
:mod:`kop.games.strategies.prom`: a type plays minimax on its own evaluation).  At each of
its moves it searches the game with PrOM under its current beliefs.  After each
move of the opponent it updates them: a type that would not have made the
observed move (its minimax move at that state, to the agent's horizon) is ruled
out, and the rest are renormalized -- Kooi's update of the probabilities by the
public announcement of the move.  If the move rules out every type (none would
have made it: the agent's model was wrong), the beliefs fall back to the prior.

With ``learn=True`` (default) the agent searches with the Bayesian variant
(``PrOM-Bayes``: it also foresees learning from the opponent's later moves);
with ``learn=False`` it never updates and searches with PrOM under the prior at
every move -- the baseline the learner is compared against.  :class:`kop.Match`
logs the beliefs after every move (``LogEntry.beliefs``).

Example
-------
>>> import kop
>>> from kop.agents.learning import learning_example
>>> game, types, prior, fixed = learning_example()
>>> learner = kop.LearningAgent("A", types, prior, names=["careful", "greedy"])
>>> stubborn = kop.LearningAgent("A", types, prior, names=["careful", "greedy"], learn=False)
>>> [kop.Match(game, [a, fixed]).play().outcome[0] for a in (learner, stubborn)]
[10, 6]
>>> print(kop.Match(game, [learner, fixed]).play().log[0].beliefs)
(('A', (('careful', 1.0), ('greedy', 0.0))),)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kop.agents.agent import Agent, MoveChoice, StrategyChoice
from kop.games.errors import GameError
from kop.games.search.implicit import GameView
from kop.games.search.treegame import TreeGame
from kop.games.strategies.prom import parse_probabilities, preorder_leaves
from kop.games.registry import search
from kop.games.trees.tree import GameTree
from kop.errors import KopError

__all__ = ["LearningAgent", "learning_example"]


class LearningAgent(Agent):
    """A PrOM player that learns its opponent's type from the opponent's moves (see the module docstring).

    Parameters
    ----------
    name : str
    types : sequence of functions state -> number
        The opponent's possible evaluation functions (None: the game's payoffs).
    probabilities : sequence of numbers, optional
        The prior over the types (default uniform; renormalized).
    learn : bool
        Update the beliefs from the opponent's moves (default True).
    names : sequence of str, optional
        Names of the types for the log (default ``type1``, ``type2``, ...).
    evaluation, depth, max_nodes : as for :class:`kop.Agent`

    Examples
    --------
    >>> import kop
    >>> from kop.agents.learning import learning_example
    >>> game, types, prior, fixed = learning_example()
    >>> learner = kop.LearningAgent("A", types, prior, names=["careful", "greedy"])
    >>> result = kop.Match(game, [learner, fixed]).play()
    >>> result.outcome[0], result.log[-1].beliefs          # it has learned the opponent is careful
    (10, (('A', (('careful', 1.0), ('greedy', 0.0))),))

    References
    ----------
    H. H. L. M. Donkers, J. W. H. M. Uiterwijk, H. J. van den Herik, *Probabilistic opponent-model
    search*, Information Sciences 135 (2001).
    """

    __slots__ = ("types", "prior", "learn", "type_names")

    def __init__(self, name: str, types: Sequence[Callable[[Any], float] | None], probabilities: Any = None, *,
                 learn: bool = True, names: Sequence[str] | None = None,
                 evaluation: Callable[[Any], float] | None = None, depth: int | None = None,
                 max_nodes: int | None = None):
        super().__init__(name, evaluation, (), depth=depth, max_nodes=max_nodes)
        if isinstance(types, (str, bytes)) or not isinstance(types, Sequence) or not types:
            raise KopError(f"agent {name}: types must be a non-empty list of the opponent's evaluation functions")
        for i, f in enumerate(types):
            if f is not None and not callable(f):
                raise KopError(f"agent {name}: type {i + 1} must be a function state -> number or None")
        self.types = tuple(types)
        self.prior = tuple(float(x) for x in parse_probabilities(probabilities, len(types), f"agent {name}"))
        self.learn = bool(learn)
        if names is None:
            names = [f"type{i + 1}" for i in range(len(types))]
        names = [str(x) for x in names]
        if len(names) != len(types):
            raise KopError(f"agent {name}: {len(names)} names for {len(types)} types")
        self.type_names = tuple(names)

    def __repr__(self) -> str:
        return f"LearningAgent({self.name!r}, types={list(self.type_names)}, learn={self.learn})"

    @property
    def strategy_name(self) -> str:
        return "PrOM-Bayes" if self.learn else "PrOM"

    def with_knowledge(self, knowledge: Any) -> Agent:
        """The agent itself: its knowledge of the opponent is its probabilities, not formulas."""
        return self

    def move(self, game: Any, state: Any = None, *, opponent: Any = None,
             evaluations: Mapping[str, Any] | None = None,
             beliefs: Sequence[float] | None = None) -> MoveChoice:
        """The agent's move at *state* under *beliefs* (default: its prior).

        >>> game, types, prior, _ = learning_example()
        >>> a = LearningAgent("A", types, prior)
        >>> a.move(game, 1).move_name, a.move(game, 1, beliefs=(1.0, 0.0)).move_name
        ('safe', 'risky')
        """
        view, s, me, opp, _ = self._setup(game, state, opponent, evaluations)
        if len(view.players) != 2:
            raise GameError(f"agent {self.name}: a learning agent plays two-player games")
        probs = self.prior if beliefs is None else tuple(beliefs)
        res = search(view, self.strategy_name, state=s, depth=self.depth, player=me, types=list(self.types),
                     probabilities=probs, max_nodes=self.max_nodes)
        if res.move is None:
            raise GameError(f"agent {self.name}: {self.strategy_name} chose no move")
        why = (f"{self.strategy_name} under its beliefs over {view.names[1 - me]}'s types: "
               + ", ".join(f"{n} {p:.3g}" for n, p in zip(self.type_names, probs)))
        return MoveChoice(res.move, res.pv_names[0], self.strategy_name,
                          StrategyChoice(self.strategy_name, (why,)), res)

    def update(self, beliefs: Sequence[float], game: Any, state: Any, move: Any,
               evaluations: Mapping[str, Any] | None = None) -> tuple[float, ...]:
        """The beliefs after the opponent played *move* at *state*: the types that would not have played
        it ruled out, the rest renormalized (the prior again if none is left; unchanged if not learning)."""
        if not self.learn:
            return tuple(beliefs)
        view = game if isinstance(game, GameView) else GameView(game)
        who = view.mover(state)
        index = view.check_move(state, move)
        evs = dict(evaluations or {})
        kept = []
        for f, b in zip(self.types, beliefs):
            if b <= 0:
                kept.append(0.0)
                continue
            e = dict(evs)
            e[view.names[who]] = f
            r = search(view.with_evaluations(e), "alphabeta", state=state, depth=self.depth, player=who,
                       max_nodes=self.max_nodes)
            same = r.move is not None and view.check_move(state, r.move) == index
            kept.append(b if same else 0.0)
        total = sum(kept)
        if total <= 0:
            return self.prior
        return tuple(x / total for x in kept)

    def beliefs_text(self, beliefs: Sequence[float]) -> tuple[tuple[str, float], ...]:
        return tuple((n, float(p)) for n, p in zip(self.type_names, beliefs))


def learning_example() -> tuple[TreeGame, list[Callable[[Any], float]], list[str], Agent]:
    """A game where learning pays: B's first move shows its type, and A's best reply depends on it.

    B moves first (``l`` or ``r``); after ``l`` A may stop (``safe``: 6) or go on
    (``risky``), where B moves again: ``good`` (10 for A) or ``bad`` (0).  The
    ``careful`` type goes ``l`` and then ``good``; the ``greedy`` type goes ``r``
    and would go ``bad``.  B is in fact ``careful`` (its actual evaluation).  A
    learner who saw ``l`` knows that and goes on (10); an agent who never learns
    values ``risky`` at 1/2·10 + 1/2·0 = 5 < 6 and stops.

    Returns (the game, the two types as evaluation functions, the prior, the fixed B agent).
    """
    tree = GameTree.build(["A", "B"], ("B", [
        {"move": "l", "player": "A", "children": [
            {"move": "safe", "payoff": [6, 6]},
            {"move": "risky", "player": "B", "children": [
                {"move": "good", "payoff": [10, 0]},
                {"move": "bad", "payoff": [0, 1]}]}]},
        {"move": "r", "payoff": [3, 3]}]))

    leaves = [int(i) for i in preorder_leaves(tree)]        # safe, good, bad, r
    # each type is B's minimax on its evaluation (B minimizes; A is assumed to maximize it)
    careful = dict(zip(leaves, [0, 0, 1, 3]))                # risky: good (0); l (worth 0) < r (3)
    greedy = dict(zip(leaves, [0, 1, 0, -1]))                # risky: bad (0); r (-1) < l (0)
    def scorer(values: dict[int, int]) -> Callable[[Any], float]:
        return lambda state: float(values.get(state, 0))

    types = [scorer(careful), scorer(greedy)]
    game = TreeGame(tree)
    fixed = Agent("B", evaluation=types[0], strategy="minimax")
    return game, types, ["1/2", "1/2"], fixed
