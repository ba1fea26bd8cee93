"""A match: agents play a game move by move, each choosing its strategy at each of its states.

``Match(game, agents, communication=False).play()`` starts at the initial state
and asks the agent of the player to move for its move (:meth:`Agent.move`): the
selector's recommendation for the subtree below, with the knowledge the agent
has at that point of the play, searched on the implicit game.  Chance states
are sampled (``seed``).  Every move is checked against the rules.

With ``communication=True`` the communication scheme I of Sang & Chen (SPEC §4)
is carried out: when the agent to move has level d >= 1 and E_P, E_Q are not yet
common knowledge, it announces E_P ∧ E_Q.  The announcement is checked in the
logic (``<!E_P ∧ E_Q> C{P,Q}(E_P ∧ E_Q)`` must follow from its knowledge), and
every agent's knowledge is updated: it keeps each formula ψ with
``[!E_P ∧ E_Q] ψ`` entailed, and learns the common knowledge.  From then on
every level is unbounded and both agents play M^h (Corollary 3).

Example
-------
>>> import kop
>>> a = kop.Agent("A", knowledge=kop.f_level("A", "B", 2))
>>> b = kop.Agent("B", knowledge=kop.f_level("B", "A", 1))
>>> g = kop.figure2_game()
>>> kop.Match(g, [a, b]).play().outcome, kop.Match(g, [a, b], communication=True).play().outcome
((9, 4), (10, 3))
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kop.agents.agent import Agent, MoveChoice, level_text
from kop.games.errors import LimitError
from kop.games.search.implicit import CHANCE, GameView
from kop.games.search.result import number
from kop.errors import KopError
from kop.selection.selector import Payoff
from kop.syntax.formula import And, Announce, AnnounceDual, Common, Formula
from kop.syntax.levels import evaluation
from kop.syntax.printer import to_ascii
from kop.games.search.treegame import TreeGame
from kop.games.trees.tree import GameTree

if TYPE_CHECKING:  # pragma: no cover
    from kop.agents.learning import LearningAgent

__all__ = ["Match", "MatchResult", "LogEntry", "announce"]

#: the longest match played before giving up
DEFAULT_MAX_MOVES = 10_000


@dataclass(frozen=True)
class LogEntry:
    """One event of a match: a move, a chance outcome or an announcement."""

    ply: int
    kind: str                      # "move", "chance" or "announcement"
    player: str | None
    agent: str | None
    text: str
    move: Any = None
    move_name: str | None = None
    strategy: str | None = None
    reasons: tuple[str, ...] = ()
    predicted: Payoff | None = None
    pv: tuple[str, ...] = ()
    nodes: int = 0
    announcement: str | None = None
    #: after a move, the beliefs of each learning agent (:class:`kop.LearningAgent`):
    #: ``((agent, ((type, probability), ...)), ...)``; empty when no agent learns
    beliefs: tuple[tuple[str, tuple[tuple[str, float], ...]], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ply": self.ply, "kind": self.kind, "player": self.player, "agent": self.agent,
                               "text": self.text}
        if self.kind == "move":
            out.update({"move": self.move_name, "strategy": self.strategy, "reasons": list(self.reasons),
                        "predicted": None if self.predicted is None else list(self.predicted),
                        "pv": list(self.pv), "nodes": self.nodes})
        elif self.kind == "chance":
            out["move"] = self.move_name
        else:
            out["announcement"] = self.announcement
        if self.beliefs:
            out["beliefs"] = {a: dict(b) for a, b in self.beliefs}
        return out

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class MatchResult:
    """What happened in a match: the outcome, the moves and the per-move log.

    Attributes
    ----------
    outcome : tuple
        The payoff vector at the end.
    moves : tuple of str
        The moves, by name, in order.
    log : tuple of LogEntry
        One entry per move, chance outcome or announcement: who moved, by which strategy, what
    it predicted and why.
    players, agents : tuple of str
        The game's players and the agent seated at each.
    final_state : object
        The game state the match ended in.

    Examples
    --------
    >>> import kop
    >>> a = kop.Agent("A", knowledge=kop.f_level("A", "B", 2))
    >>> b = kop.Agent("B", knowledge=kop.f_level("B", "A", 1))
    >>> r = kop.Match(kop.figure2_game(), [a, b]).play()
    >>> r.outcome, r.moves, r.agents
    ((9, 4), ('T', '0'), ('A', 'B'))
    >>> r.log[0].strategy
    'HM0M2'
    """

    outcome: Payoff
    moves: tuple[str, ...]
    log: tuple[LogEntry, ...]
    players: tuple[str, ...]
    agents: tuple[str, ...]
    final_state: Any = field(repr=False, compare=False, default=None)

    @property
    def strategies(self) -> tuple[tuple[str, str], ...]:
        """(agent, strategy) at each of the agents' moves, in order."""
        return tuple((e.agent or "", e.strategy or "") for e in self.log if e.kind == "move")

    @property
    def announcements(self) -> tuple[LogEntry, ...]:
        return tuple(e for e in self.log if e.kind == "announcement")

    def explain(self) -> str:
        roles = ", ".join(f"{a} plays {p}" for p, a in zip(self.players, self.agents))
        lines = [f"{roles}."]
        lines += [f"{e.ply:>3}. {e.text}" for e in self.log]
        lines.append(f"outcome: {self.outcome}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "agents": list(self.agents), "outcome": list(self.outcome),
                "moves": list(self.moves), "log": [e.to_json() for e in self.log]}

    def __repr__(self) -> str:
        return f"MatchResult(outcome={self.outcome}, moves={list(self.moves)})"


def _count(n: int, noun: str) -> str:
    """``1 agent``, ``2 agents``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def announce(knowledge: Mapping[str, tuple[Formula, ...]], phi: Formula, group: Sequence[str], *,
             timeout: float | None = None) -> dict[str, tuple[Formula, ...]]:
    """Every agent's knowledge after the truthful public announcement of *phi* (true at the actual world).

    An agent keeps each formula ψ of its knowledge for which ``phi ∧ knowledge ⊨ [!phi] ψ``
    (so nothing the announcement falsifies survives), and learns ``C_group phi``
    when *phi* is propositional (it stays true once announced).
    """
    from kop.reasoning.prover import entails

    learned = Common(tuple(group), phi)
    out = {}
    for name, ks in knowledge.items():
        premises = (*ks, phi)
        kept = tuple(psi for psi in ks if entails(premises, Announce(phi, psi), timeout=timeout).holds)
        out[name] = kept + ((learned,) if learned not in kept else ())
    return out


def _seat(agents: Sequence[Agent] | Mapping[str, Agent], names: Sequence[str]) -> list[Agent]:
    """The agents in the players' order: by the mapping player -> agent, or by the agents' names."""
    players = f"{_count(len(names), 'player')} {', '.join(names)}"
    seats = _seat_by_player(agents, names, players) if isinstance(agents, Mapping) else \
        _seat_by_name(agents, names, players)
    for a in seats:
        if not isinstance(a, Agent):
            raise KopError(f"a match is played by kop.Agent values, not {type(a).__name__}")
    agent_names = [a.name for a in seats]
    if len(set(agent_names)) != len(agent_names):
        raise KopError(f"two agents share a name ({', '.join(agent_names)}): knowledge names agents, so "
                       "each needs its own")
    return seats


def _seat_by_player(agents: Mapping[str, Agent], names: Sequence[str], players: str) -> list[Agent]:
    unknown = [str(p) for p in agents if p not in names]
    if unknown:
        raise KopError(f"{', '.join(unknown)} {'is' if len(unknown) == 1 else 'are'} not a player of the "
                       f"game: the mapping seats {_count(len(agents), 'player')} "
                       f"{', '.join(map(str, agents))}; the game has the {players}")
    missing = [p for p in names if p not in agents]
    if missing:
        raise KopError(f"no agent plays {', '.join(missing)} (the game has the {players})")
    return [agents[p] for p in names]


def _seat_by_name(agents: Sequence[Agent], names: Sequence[str], players: str) -> list[Agent]:
    seats = list(agents)
    for a in seats:
        if not isinstance(a, Agent):
            raise KopError(f"a match is played by kop.Agent values, not {type(a).__name__}")
    given = [a.name for a in seats]
    agents_text = f"{_count(len(given), 'agent')} {', '.join(given) or '(none)'}"
    if len(seats) != len(names):
        raise KopError(f"{agents_text} for the {players} of the game")
    strangers = [n for n in given if n not in names]
    if strangers:
        raise KopError(f"{', '.join(strangers)} {'is' if len(strangers) == 1 else 'are'} not the name "
                       f"of a player: {agents_text}, the game has the {players}; name each agent "
                       "after its player, or seat them with a mapping {player: agent}")
    if sorted(given) == sorted(names):
        seats = sorted(seats, key=lambda a: names.index(a.name))
    return seats


@dataclass
class _Run:
    """What a match in play keeps: the ply, the log and moves so far, every agent's knowledge (it changes
    with announcements) and the learning agents' beliefs."""

    evaluations: dict[str, Any]
    knowledge: dict[str, tuple[Formula, ...]]
    learners: dict[int, LearningAgent]
    beliefs: dict[int, tuple[float, ...]]
    ply: int = 0
    log: list[LogEntry] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)


class Match:
    """A match of *agents* on *game* (see the module docstring).

    Parameters
    ----------
    game : an implicit game (:mod:`kop.games.search.implicit`) or a :class:`~kop.games.trees.tree.GameTree`
        (played as ``kop.TreeGame(tree)``, as :func:`kop.search` does)
    agents : a sequence of agents named after the players (each takes its player's seat,
        whatever the order), or a mapping player name -> agent, which seats any agent
        at any player (as a tournament swaps roles).  A sequence with an agent whose name
        is not one of the game's players is refused: knowledge names agents, and a
        silently chosen seat would give it to the wrong player.
    communication : carry out communication scheme I when an agent's knowledge allows it
    state : where the match starts (default: the initial state)
    seed : seed of the chance moves
    max_moves : stop with an error past this many moves

    Examples
    --------
    >>> import kop
    >>> a = kop.Agent("A", knowledge=kop.f_level("A", "B", 2))
    >>> b = kop.Agent("B", knowledge=kop.f_level("B", "A", 1))
    >>> r = kop.Match(kop.figure2_game(), [a, b], communication=True).play()   # scheme I, then M^h
    >>> r.outcome, r.strategies[:2], r.log[0].kind
    ((10, 3), (('A', 'Mh'), ('B', 'Mh')), 'announcement')

    References
    ----------
    T. Sang, J.-H. Chen, *Beyond Minimax: Nonzero-Sum Game Tree Search with Knowledge Oriented
    Players*, communication scheme I and Corollary 3.
    """

    def __init__(self, game: Any, agents: Sequence[Agent] | Mapping[str, Agent], communication: bool = False, *,
                 state: Any = None, seed: int | None = 0, max_moves: int = DEFAULT_MAX_MOVES):
        if isinstance(game, GameTree):
            game = TreeGame(game)
        self.view = game if isinstance(game, GameView) else GameView(game)
        self.agents = tuple(_seat(agents, self.view.names))
        self.communication = bool(communication)
        self.state = state
        self.seed = seed
        self.max_moves = max_moves

    def play(self) -> MatchResult:
        """Play the match to the end and return the outcome, the moves and the log."""
        from kop.agents.learning import LearningAgent

        view = self.view
        rng = random.Random(self.seed)
        s = view.initial_state() if self.state is None else self.state
        learners = {i: a for i, a in enumerate(self.agents) if isinstance(a, LearningAgent)}
        run = _Run(evaluations={p: a.evaluation for p, a in zip(view.names, self.agents)},
                   knowledge={a.name: a.knowledge for a in self.agents}, learners=learners,
                   beliefs={i: a.prior for i, a in learners.items()})
        while not view.is_terminal(s):
            if run.ply >= self.max_moves:
                raise LimitError(f"the match did not end within {self.max_moves} moves")
            run.ply += 1
            who = view.mover(s)
            move = self._chance_move(s, rng, run) if who == CHANCE else self._agent_move(s, who, run)
            s = view.child(s, move)
        outcome = tuple(number(x) for x in view.payoff_vector(s))
        return MatchResult(outcome, tuple(run.moves), tuple(run.log), view.names,
                           tuple(a.name for a in self.agents), s)

    def _chance_move(self, s: Any, rng: random.Random, run: _Run) -> Any:
        """A chance move at *s*, sampled and logged."""
        pairs = self.view.chance(s)
        m = rng.choices([m for m, _ in pairs], weights=[p for _, p in pairs])[0]
        name = self.view.move_name(s, m)
        run.log.append(LogEntry(run.ply, "chance", None, None, f"chance: {name}", m, name))
        run.moves.append(name)
        return m

    def _agent_move(self, s: Any, who: int, run: _Run) -> Any:
        """The move of the agent of player *who* at *s* (after its announcement, if scheme I applies), checked
        against the rules and logged; the learning agents update their beliefs on it."""
        view, agents = self.view, self.agents
        agent = agents[who]
        others = [a for i, a in enumerate(agents) if i != who]
        opponent = others[0].name if len(others) == 1 else None
        if self.communication and opponent is not None:
            entry = self._scheme_one(agent, opponent, run.knowledge, run.ply, view.names[who])
            if entry is not None:
                run.knowledge = announce(run.knowledge, _ev(agent.name, opponent), [a.name for a in agents],
                                         timeout=agent.timeout)
                run.log.append(entry)
        if who in run.learners:
            choice: MoveChoice = run.learners[who].move(view, s, opponent=opponent, evaluations=run.evaluations,
                                                        beliefs=run.beliefs[who])
        else:
            current = agent.with_knowledge(run.knowledge[agent.name])
            choice = current.move(view, s, opponent=opponent, evaluations=run.evaluations)
        view.check_move(s, choice.move)
        for i, a in run.learners.items():
            if i != who:
                run.beliefs[i] = a.update(run.beliefs[i], view, s, choice.move, run.evaluations)
        seen = tuple((a.name, a.beliefs_text(run.beliefs[i])) for i, a in run.learners.items())
        text = (f"{agent.name} ({view.names[who]}) plays {choice.move_name} by {choice.strategy}, "
                f"predicting {choice.value}: {choice.choice.explain()}")
        run.log.append(LogEntry(run.ply, "move", view.names[who], agent.name, text, choice.move, choice.move_name,
                                choice.strategy, choice.reasons, choice.value, choice.pv, choice.search.nodes,
                                beliefs=seen))
        run.moves.append(choice.move_name)
        return choice.move

    def _scheme_one(self, agent: Agent, opponent: str, knowledge: Mapping[str, tuple[Formula, ...]],
                    ply: int, player: str) -> LogEntry | None:
        """Scheme I, if it applies now: the announcement's log entry (None when it does not apply)."""
        from kop.reasoning.knowledge import level
        from kop.reasoning.prover import entails

        ks = knowledge[agent.name]
        phi = _ev(agent.name, opponent)
        ck = Common(tuple(a.name for a in self.agents), phi)
        if entails(ks, ck, timeout=agent.timeout).holds:
            return None
        d = level(ks, agent.name, opponent, timeout=agent.timeout)
        if d < 1:
            return None
        if not entails(ks, AnnounceDual(phi, ck), timeout=agent.timeout).holds:
            return None
        text = (f"{agent.name} announces {to_ascii(phi)} (scheme I: its level {level_text(d)} >= 1; "
                f"<!{to_ascii(phi)}> {to_ascii(ck)} follows from its knowledge); now {to_ascii(ck)}, "
                "and M^h K-dominates for both (Corollary 3)")
        return LogEntry(ply, "announcement", player, agent.name, text, announcement=to_ascii(phi))


def _ev(p: str, q: str) -> Formula:
    return And(evaluation(p), evaluation(q))

