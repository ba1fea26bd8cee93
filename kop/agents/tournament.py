"""Tournaments: repeated matches with swapped roles.

``tournament(game, agents, rounds, seed)`` plays, in each round, one match per
seating of the agents (for two agents: A first, then B first), from the same
start: the initial state, or a position reached by ``opening`` random legal
moves drawn with the round's seed (so that deterministic agents meet varied
positions).  Each agent's score is the mean over its matches of its utility:
its payoff component signed by its player's goal (``+x`` for a max player,
``-x`` for a min player), so higher is better for every agent.

Example
-------
>>> import kop
>>> a = kop.Agent("A", knowledge=kop.f_level("A", "B", 2))
>>> b = kop.Agent("B", knowledge=kop.f_level("B", "A", 1))
>>> t = kop.tournament(kop.nim((2, 2)), [a, b], rounds=1, seed=0)
>>> [m.outcome for m in t.matches], t.scores
([(-1, -1), (-1, -1)], {'A': 0.0, 'B': 0.0})
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kop.agents.agent import Agent
from kop.agents.match import Match, MatchResult
from kop.games.search.implicit import CHANCE, GameView
from kop.errors import KopError

__all__ = ["tournament", "TournamentResult"]


@dataclass(frozen=True)
class TournamentResult:
    """Every match played, and each agent's mean utility (payoff signed by goal)."""

    matches: tuple[MatchResult, ...]
    scores: dict[str, float]
    openings: tuple[tuple[str, ...], ...]

    def table(self) -> str:
        """One line per agent: matches played and mean utility."""
        counts = {a: sum(a in m.agents for m in self.matches) for a in self.scores}
        return "\n".join(f"{a:<12} {counts[a]:>3} matches, mean utility {s:.4g}" for a, s in self.scores.items())

    def to_json(self) -> dict:
        return {"scores": self.scores, "openings": [list(o) for o in self.openings],
                "matches": [m.to_json() for m in self.matches]}


def _opening(view: GameView, plies: int, rng: random.Random) -> tuple[Any, tuple[str, ...]]:
    s = view.initial_state()
    names: list[str] = []
    for _ in range(plies):
        if view.is_terminal(s):
            break
        who = view.mover(s)
        if who == CHANCE:
            pairs = view.chance(s)
            m = rng.choices([m for m, _ in pairs], weights=[p for _, p in pairs])[0]
        else:
            m = rng.choice(view.moves(s))
        names.append(view.move_name(s, m))
        s = view.child(s, m)
    return s, tuple(names)


def tournament(game: Any, agents: Sequence[Agent], rounds: int = 1, seed: int = 0, *, opening: int = 0,
               communication: bool = False) -> TournamentResult:
    """Play *rounds* rounds of matches with every seating of *agents* (see the module docstring).

    Parameters
    ----------
    game : an implicit game
    agents : one agent per player
    rounds : number of rounds (each plays every seating once)
    seed : seed of the openings and the chance moves
    opening : random legal moves played before the agents take over (0: the initial state)
    communication : as in :class:`Match`

    Returns
    -------
    TournamentResult
        The ``matches`` played, their ``openings``, and each agent's mean utility (``scores``:
        the payoff signed by the agent's goal, so higher is better for every agent).

    Examples
    --------
    >>> import kop
    >>> a = kop.Agent("A", knowledge=kop.f_level("A", "B", 2))
    >>> b = kop.Agent("B", knowledge=kop.f_level("B", "A", 1))
    >>> t = kop.tournament(kop.figure2_game(), [a, b])      # each agent in each seat once
    >>> print(t.table())
    A              2 matches, mean utility 2.5
    B              2 matches, mean utility 2.5
    """
    view = game if isinstance(game, GameView) else GameView(game)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise KopError(f"rounds must be a positive integer, not {rounds!r}")
    if isinstance(opening, bool) or not isinstance(opening, int) or opening < 0:
        raise KopError(f"opening must be an integer >= 0, not {opening!r}")
    agents = list(agents)
    if len(agents) != len(view.players):
        raise KopError(f"{len(agents)} agents for the {len(view.players)} players of the game")
    matches: list[MatchResult] = []
    openings: list[tuple[str, ...]] = []
    totals = {a.name: 0.0 for a in agents}
    counts = {a.name: 0 for a in agents}
    for r in range(rounds):
        rng = random.Random(f"{seed}:{r}")
        start, names = _opening(view, opening, rng)
        openings.append(names)
        for seating in itertools.permutations(agents):
            seats = dict(zip(view.names, seating))   # any agent at any seat: a mapping says so
            res = Match(view, seats, communication, state=start, seed=rng.randrange(2**32)).play()
            matches.append(res)
            for i, a in enumerate(seating):
                totals[a.name] += view.signs[i] * float(res.outcome[i])
                counts[a.name] += 1
    scores = {a: totals[a] / counts[a] for a in totals}
    return TournamentResult(tuple(matches), scores, tuple(openings))
