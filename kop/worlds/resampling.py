"""Checking a sampler of histories against a player's knowledge cell (issue 27, item 3).

A search that samples "worlds consistent with what player i knows" (IS-MCTS, PIMC, kop's own
:func:`~kop.worlds.infostates.decide_openspiel` with sampled cells) calls a **sampler**: from the true
state s and a player i it draws a history s' that i cannot tell from s.  OpenSpiel's sampler is
``state.resample_from_infostate(i, rng)``.  :func:`check_resampling` plays random histories and, at
every state where a player moves, asks the sampler for ``draws`` samples for each checked player,
then reports two kinds of violation:

``outside``
    a sample lies outside i's cell: i's information state there (``information_state_string(i)``,
    or ``observation_string(i)`` for a game that provides no information state, :func:`cell_key`)
    differs from the true one.  What leaked is what i would know differently: the two information
    states are shown from where they differ.
``copied``
    every one of the ``draws`` samples is the true history although i's cell holds another history
    of the same length (found by enumerating the cell when the game is small enough, else among the
    samples drawn at the same state for the other players and the true histories of the run; a
    history of another length is not a witness, since an information state that forgets, as in
    colored trails, can lump histories of different lengths that the player itself made differ, nor
    is a history that differs from the true one in nothing but the order of its actions, with the
    same printout and every player's information state the same): the
    sampler hands i the hidden part of the true state (OpenSpiel's gin rummy in the layoff phase,
    google-deepmind/open_spiel#1613).  What leaked is the hidden part: the positions where the true
    history and another history of the cell differ, with the actions' names.  With a cell of two
    equally likely histories, a correct sampler draws the true one ``draws`` = 24 times in a row with
    probability 6e-8; where the cell was enumerated the report gives that probability.

Example
-------
>>> import kop
>>> r = kop.check_resampling("kuhn_poker", histories=20)
>>> r
ResamplingReport('kuhn_poker()', sampler='openspiel', histories=20, checks=..., violations=0)
>>> r.first is None
True

A sampler that returns the true state is caught, with the opponent's card named:

>>> copy = lambda state, player, rng: state.clone()
>>> r = kop.check_resampling("kuhn_poker", sampler=copy, histories=5)
>>> r.first.kind, r.first.leaked
('copied', "the hidden part of the true history: at position 1, 'Deal:1' instead of 'Deal:0' (a sampler drawing
by chance probability repeats the true history 24 times with probability 6.0e-08)")

(The examples need open_spiel; the doctest run skips them without it.)

References
----------
M. Lanctot et al., *OpenSpiel* (2019), ``State::ResampleFromInfostate``; google-deepmind/open_spiel
#1604 and #1613 (resampling that reveals the opponent's cards).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kop.errors import LimitError
from kop.syntax import arguments
from kop.worlds.infostates import cell_key, history_index, openspiel_game

#: the doctests need this optional package (kop/conftest.py skips them without it)
__doctest_requires__ = ("pyspiel",)

__all__ = ["check_resampling", "ResamplingReport", "Violation", "exact_sampler", "openspiel_sampler", "DRAWS"]

#: samples drawn per (state, player) checked
DRAWS = 24
#: the largest game whose cells are enumerated to find another member of a cell
EXACT_LIMIT = 100_000

Sampler = Callable[[Any, int, random.Random], Any]


def openspiel_sampler(state: Any, player: int, rng: random.Random) -> Any:
    """OpenSpiel's own: ``state.resample_from_infostate(player, rng.random)``.

    >>> import pyspiel
    >>> s = pyspiel.load_game("kuhn_poker").new_initial_state()
    >>> s.apply_action(2); s.apply_action(0)
    >>> openspiel_sampler(s, 0, random.Random(1)).history()[0]
    2
    """
    return state.resample_from_infostate(player, rng.random)


def exact_sampler(game: Any, limit: int = EXACT_LIMIT) -> Sampler:
    """kop's possible-worlds sampler: a history of the player's enumerated cell, drawn by chance probability.

    The cell of player i at s is every history where someone moves and i's information state
    is i's at s (:class:`~kop.worlds.infostates.HistoryIndex`).

    Parameters
    ----------
    game : pyspiel.Game or str
    limit : int
        The most histories enumerated (a LimitError past it).

    Returns
    -------
    function(state, player, rng) -> state
        A sampler for :func:`check_resampling` (or any search that samples worlds).

    Examples
    --------
    >>> import pyspiel
    >>> game = pyspiel.load_game("kuhn_poker")
    >>> s = game.new_initial_state()
    >>> s.apply_action(2); s.apply_action(0)
    >>> draw, rng = exact_sampler(game), random.Random(3)
    >>> sorted({tuple(draw(s, 0, rng).history()) for _ in range(20)})
    [(2, 0), (2, 1)]
    """
    game = openspiel_game(game)
    index = history_index(game, limit)

    def sample(state: Any, player: int, rng: random.Random) -> Any:
        cell = sorted(index.groups[(player, cell_key(state, player))])
        h = rng.choices(cell, weights=[index.prob[x] for x in cell])[0]
        out = game.new_initial_state()
        for a in h:
            out.apply_action(a)
        return out

    return sample


@dataclass(frozen=True)
class Violation:
    """One sample that a player's knowledge does not allow.

    Attributes
    ----------
    kind : str
        ``outside`` (the sample lies outside the player's cell) or ``copied`` (every sample was the
        true history though the cell holds others).
    player : int
        The player the sample was drawn for.
    history, sample : tuple of int
        The true history and the offending sample (for ``copied``: another history of the cell).
    leaked : str
        What leaked (module docstring).

    Examples
    --------
    >>> Violation("outside", 1, (0, 1), (0, 2), "player 1's information state: ...")
    Violation('outside', player=1, history=[0, 1])
    """

    kind: str
    player: int
    history: tuple[int, ...]
    sample: tuple[int, ...]
    leaked: str

    def __repr__(self) -> str:
        return f"Violation({self.kind!r}, player={self.player}, history={list(self.history)})"


@dataclass(frozen=True)
class ResamplingReport:
    """What :func:`check_resampling` found.

    Attributes
    ----------
    game : str
        The game (OpenSpiel's name with its parameters).
    sampler : str
        ``openspiel``, ``exact`` or the sampler function's name.
    histories : int
        Random histories played.
    checks : int
        (state, player) pairs checked.
    samples : int
        Samples drawn.
    violations : int
        Checks with a violation (``outside`` or ``copied``).
    kinds : dict
        Kind -> number of checks with it.
    first : Violation or None
        The first violation met.

    Examples
    --------
    >>> ResamplingReport("kuhn_poker()", "openspiel", 10, 30, 720, 0, {}, None)
    ResamplingReport('kuhn_poker()', sampler='openspiel', histories=10, checks=30, violations=0)
    """

    game: str
    sampler: str
    histories: int
    checks: int
    samples: int
    violations: int
    kinds: dict[str, int] = field(repr=False)
    first: Violation | None = field(repr=False)

    def to_json(self) -> dict[str, Any]:
        f = self.first
        return {"game": self.game, "sampler": self.sampler, "histories": self.histories, "checks": self.checks,
                "samples": self.samples, "violations": self.violations, "kinds": dict(self.kinds),
                "first": None if f is None else {"kind": f.kind, "player": f.player, "history": list(f.history),
                                                 "sample": list(f.sample), "leaked": f.leaked}}

    def __repr__(self) -> str:
        return (f"ResamplingReport({self.game!r}, sampler={self.sampler!r}, histories={self.histories}, "
                f"checks={self.checks}, violations={self.violations})")


def check_resampling(game: Any, player: int | None = None, sampler: Sampler | str = "openspiel",
                     histories: int = 100, *, draws: int = DRAWS, seed: int = 0, max_moves: int = 1_000,
                     exact_limit: int = EXACT_LIMIT, cpu_limit: float | None = None) -> ResamplingReport:
    """Check that every sample of *sampler* lies in the player's knowledge cell and does not copy the hidden state.

    Parameters
    ----------
    game : pyspiel.Game or str
    player : int, optional
        The player to check; default: every player, at every state where someone moves.
    sampler : "openspiel", "exact" or callable
        OpenSpiel's ``resample_from_infostate`` (:func:`openspiel_sampler`), kop's
        :func:`exact_sampler`, or any function ``(state, player, rng) -> state``.
    histories : int
        How many random histories to play (uniform legal moves, chance by its probabilities).
    draws : int
        Samples per (state, player).
    seed : int
        Seed of the histories and of the sampler's random numbers.
    max_moves : int
        Stop a history after this many actions (a long game is checked on its first moves).
    exact_limit : int
        Enumerate the cells (to find the other members of a cell) of games with at most this many
        histories; larger games find them among the histories and samples of the run.  Where the cell
        is enumerated, a ``copied`` violation needs the chance of repeating the true history ``draws``
        times to be below 1e-6 (else there is not enough evidence and it is not reported).
    cpu_limit : float, optional
        Stop starting new histories after this many CPU seconds; the report's ``histories`` counts
        those checked.

    Returns
    -------
    ResamplingReport

    Examples
    --------
    >>> r = check_resampling("leduc_poker", sampler="exact", histories=10)
    >>> r.violations, r.sampler
    (0, 'exact')
    """
    g = openspiel_game(game)
    histories = arguments.integer(histories, "histories", minimum=1)
    draws = arguments.integer(draws, "draws", minimum=1)
    players = _players(g, player)
    name, fn = _sampler(g, sampler, exact_limit)
    try:
        index = history_index(g, exact_limit)
    except LimitError:
        index = None
    run = _Run(fn, players, draws, random.Random(seed))
    start = time.process_time()
    played = 0
    for _ in range(histories):
        if cpu_limit is not None and time.process_time() - start > cpu_limit:
            break
        played += 1
        run.play(g.new_initial_state(), max_moves)
    for state, p, key, witness in run.suspects:
        run.judge(g, index, state, p, key, witness)
    violations = sum(run.kinds.values())
    return ResamplingReport(str(g), name, played, run.checks, run.samples, violations, run.kinds, run.first)


def _players(g: Any, player: int | None) -> tuple[int, ...]:
    """The players to check: *player* (validated), or every player of *g*."""
    if player is None:
        return tuple(range(g.num_players()))
    player = arguments.integer(player, "player", minimum=0)
    if player >= g.num_players():
        raise arguments.fail("player", f"a player of the game, 0..{g.num_players() - 1}", player)
    return (int(player),)


def _sampler(g: Any, sampler: Sampler | str, exact_limit: int) -> tuple[str, Sampler]:
    """The sampler's name and function."""
    expected = "'openspiel', 'exact' or a function(state, player, rng)"
    if isinstance(sampler, str):
        if sampler not in ("openspiel", "exact"):
            raise arguments.fail("sampler", expected, sampler)
        return sampler, openspiel_sampler if sampler == "openspiel" else exact_sampler(g, exact_limit)
    if callable(sampler):
        return getattr(sampler, "__name__", "sampler"), sampler
    raise arguments.fail("sampler", expected, sampler)


class _Run:
    """One run of :func:`check_resampling`: the random histories played, the checks and what they found."""

    def __init__(self, fn: Sampler, players: tuple[int, ...], draws: int, rng: random.Random) -> None:
        self.fn, self.players, self.draws, self.rng = fn, players, draws, rng
        self.known: dict[tuple[int, str], set[tuple[int, ...]]] = {}   # the true histories met, by information state
        self.checks = self.samples = 0
        self.kinds: dict[str, int] = {}
        self.first: Violation | None = None
        self.suspects: list[tuple[Any, int, str, Any]] = []   # every draw was the truth: (state, p, key, witness state)

    def found(self, kind: str, violation: Callable[[], Violation]) -> None:
        """Count a violation of *kind*; keep the first one met (built only then)."""
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        if self.first is None:
            self.first = violation()

    def play(self, state: Any, max_moves: int) -> None:
        """Play one random history from *state*, checking the sampler at every state where someone moves."""
        moves = 0
        earlier: dict[int, tuple[int, list[Any]]] = {}   # p -> (ply, p's samples there), last state they varied
        while not state.is_terminal() and moves < max_moves:
            moves += 1
            if state.is_chance_node():
                acts, probs = zip(*state.chance_outcomes())
                state.apply_action(self.rng.choices(acts, weights=probs)[0])
                continue
            if state.is_simultaneous_node():
                n = state.get_game().num_players()
                state.apply_actions([self.rng.choice(state.legal_actions(p)) for p in range(n)])
                continue
            self.check(state, earlier)
            state.apply_action(self.rng.choice(state.legal_actions()))

    def check(self, state: Any, earlier: dict[int, tuple[int, list[Any]]]) -> None:
        """Draw samples at *state* for each player; note those outside the cell and those that copy the truth."""
        truth = tuple(state.history())
        drawn: dict[int, list[Any]] = {}
        keys: dict[int, str] = {}
        for p in self.players:
            keys[p] = self.draw(state, p, truth, drawn)
        me = _ident(state)
        for p, ds in drawn.items():
            if ds and all(_ident(s) == me for s in ds):
                # a witness among the samples drawn here for the other players, if one lies in p's cell
                witness = next((s for q, qs in drawn.items() if q != p for s in qs
                                if _ident(s) != me and not s.is_terminal() and cell_key(s, p) == keys[p]), None)
                if witness is None and p in earlier:
                    witness = _continued(earlier[p], truth, p, keys[p], me)
                self.suspects.append((state.clone(), p, keys[p], witness))
            elif ds:
                earlier[p] = (len(truth), [s for s in ds if _ident(s) != me][:4])

    def draw(self, state: Any, p: int, truth: tuple[int, ...], drawn: dict[int, list[Any]]) -> str:
        """Draw *p*'s samples at *state* into *drawn* (none if one lies outside *p*'s cell); *p*'s cell key."""
        self.checks += 1
        key = cell_key(state, p)
        self.known.setdefault((p, key), set()).add(truth)
        drawn[p] = [self.fn(state, p, self.rng) for _ in range(self.draws)]
        self.samples += self.draws
        bad = next((s for s in drawn[p] if s.is_terminal() or cell_key(s, p) != key), None)
        if bad is not None:
            self.found("outside", lambda: Violation("outside", p, truth, tuple(bad.history()), _outside(p, key, bad)))
            drawn[p] = []
        return key

    def judge(self, g: Any, index: Any, state: Any, p: int, key: str, witness: Any) -> None:
        """Report a suspect (every draw was the truth) as ``copied`` when another state of the cell was likely."""
        truth = tuple(state.history())
        if witness is None and index is not None:
            witness = next((_replay(g, h) for h in sorted(index.groups.get((p, key), []))
                            if h != truth and len(h) == len(truth)), None)
        if witness is None:
            witness = next((_replay(g, h) for h in sorted(self.known.get((p, key), ()))
                            if h != truth and len(h) == len(truth)), None)
        if witness is None or _likely(index, truth, p, key, self.draws) or not _material(state, witness):
            return
        self.found("copied", lambda: Violation("copied", p, truth, tuple(witness.history()),
                                               _copied(state, witness, self.draws, index, p, key)))


def _likely(index: Any, truth: tuple[int, ...], player: int, key: str, draws: int) -> bool:
    """Could a sampler that draws the cell by chance probability repeat *truth* *draws* times (>= 1e-6)?"""
    if index is None or truth not in index.prob:
        return False
    cell = index.groups[(player, key)]
    total = sum(index.prob[h] for h in cell)
    return bool(total > 0 and (index.prob[truth] / total) ** draws >= 1e-6)


def _material(state: Any, witness: Any) -> bool:
    """Do *state* and *witness* differ in something: the printout of the state or some player's information
    state?  (Oh hell's histories that deal a player its own cards in another order differ in nothing else.)"""
    if str(state) != str(witness):
        return True
    return any(cell_key(state, q) != cell_key(witness, q) for q in range(state.get_game().num_players()))


def _ident(state: Any) -> tuple[tuple[int, ...], str]:
    """A state's identity: its history and its printout (a resampled gin rummy state keeps the true history
    and changes the hands, so the history alone does not tell samples apart)."""
    return tuple(state.history()), str(state)


def _replay(game: Any, history: tuple[int, ...]) -> Any:
    s = game.new_initial_state()
    for a in history:
        s.apply_action(a)
    return s


def _continued(earlier: tuple[int, list[Any]], truth: tuple[int, ...], player: int, key: str,
               me: tuple[tuple[int, ...], str]) -> Any:
    """A state of *player*'s cell other than the true one: one of its samples at an earlier state, continued
    by the actions played since, when they are legal there and lead to the same information state."""
    ply, drawn = earlier
    for sample in drawn:
        s = sample.clone()
        ok = True
        for a in truth[ply:]:
            legal = [o for o, _ in s.chance_outcomes()] if s.is_chance_node() else \
                ([] if s.is_terminal() else s.legal_actions())
            if a not in legal:
                ok = False
                break
            s.apply_action(a)
        if ok and not s.is_terminal() and _ident(s) != me and cell_key(s, player) == key:
            return s
    return None


def _outside(player: int, key: str, sample: Any) -> str:
    if sample.is_terminal():
        return f"the sample is a finished game {list(sample.history())}"
    other = cell_key(sample, player)
    i = next((j for j, (a, b) in enumerate(zip(key, other)) if a != b), min(len(key), len(other)))
    start = max(0, key.rfind("\n", 0, i) + 1)
    return (f"player {player}'s information state differs from character {i}: true {key[start:start + 80]!r}, "
            f"sample {other[start:start + 80]!r}")


def _copied(state: Any, witness: Any, draws: int, index: Any, player: int, key: str) -> str:
    game = state.get_game()
    truth, other = tuple(state.history()), tuple(witness.history())
    s = game.new_initial_state()
    t = game.new_initial_state()
    diffs = []
    for i, (a, b) in enumerate(zip(truth, other)):
        if a != b:
            diffs.append(f"at position {i}, {s.action_to_string(s.current_player(), a)!r} instead of "
                         f"{t.action_to_string(t.current_player(), b)!r}")
            if len(diffs) == 3:
                break
        s.apply_action(a)
        t.apply_action(b)
    if not diffs:   # the same history, other hidden cards (gin rummy): the printouts' first differing lines
        lines = [(x, y) for x, y in zip(str(state).splitlines(), str(witness).splitlines()) if x != y]
        diffs = [f"{x.strip()!r} instead of {y.strip()!r}" for x, y in lines[:3]] or ["the states differ"]
    text = "the hidden part of the true history: " + "; ".join(diffs)
    if index is not None and truth in index.prob:
        cell = index.groups[(player, key)]
        total = sum(index.prob[h] for h in cell)
        q = index.prob[truth] / total if total > 0 else 1.0
        if q < 1:
            text += (f" (a sampler drawing by chance probability repeats the true history {draws} times "
                     f"with probability {q ** draws:.1e})")
    return text
