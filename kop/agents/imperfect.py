"""Matches on OpenSpiel's imperfect-information games, each move chosen from the mover's knowledge cell.

:func:`play_openspiel` seats one possible-worlds algorithm per player (``mc``, ``vm`` or ``gvm``,
Jamroga 2001) on a two-player zero-sum OpenSpiel game with imperfect information (Kuhn poker, Leduc
poker, Liar's dice, turn-based goofspiel, ``coordinated_mp``) and plays it: chance moves are drawn
with the seed, and at each of its turns a player moves by :func:`kop.decide_openspiel`, which sees
the true state only through the player's information state.  The result is a
:class:`~kop.agents.match.MatchResult`, as for perfect-information games; each move's reasons say
how many worlds the player considered and whether its knowledge cell was enumerated (exact) or
sampled by OpenSpiel's ``resample_from_infostate`` (the game is too big; every sample checked to lie
in the cell).

Example
-------
>>> import kop
>>> r = kop.play_openspiel("kuhn_poker", ["gvm", "vm"], names=["A", "B"], seed=3)
>>> r.agents, r.moves
(('A', 'B'), ('Deal:0', 'Deal:2', 'Pass', 'Pass'))
>>> r.outcome
(-1.0, 1.0)
>>> r.log[2].reasons[0]
"A knows only its information state '0': its knowledge cell holds 2 histories (exact: ...)"

(The examples need open_spiel; the doctest run skips them without it.)

Reference: W. Jamroga, *A Defense Model for Games with Incomplete Information*, KI 2001.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from kop.agents.match import LogEntry, MatchResult
from kop.errors import KopError, LimitError
from kop.worlds.infostates import ALGORITHMS, MAX_HISTORIES, SAMPLES, decide_openspiel, openspiel_game

#: the doctests need this optional package (kop/conftest.py skips them without it)
__doctest_requires__ = ("pyspiel",)

__all__ = ["play_openspiel", "is_imperfect"]


def is_imperfect(game: Any) -> bool:
    """Is *game* (a pyspiel game or name) a game with imperfect information?

    >>> is_imperfect("kuhn_poker"), is_imperfect("tic_tac_toe")
    (True, False)
    """
    import pyspiel  # type: ignore[import-not-found,unused-ignore]

    g = openspiel_game(game)
    return bool(g.get_type().information != pyspiel.GameType.Information.PERFECT_INFORMATION)


def play_openspiel(game: Any, algorithms: Sequence[str] = ("gvm", "gvm"), *, names: Sequence[str] | None = None,
                   seed: int | None = 0, cells: str = "auto", samples: int = SAMPLES,
                   max_histories: int = MAX_HISTORIES, max_moves: int = 10_000) -> MatchResult:
    """Play *game* with one possible-worlds algorithm per player, each move from the mover's knowledge cell.

    Parameters
    ----------
    game : pyspiel.Game or str
        A two-player zero-sum sequential OpenSpiel game (imperfect information; a perfect-information
        game plays too, each cell then holding the true history alone).
    algorithms : two of "mc", "vm", "gvm"
        The algorithm of player 0 and of player 1.
    names : two str, optional
        The agents' names (default: the algorithms).
    seed : int
        Seed of the chance moves (and of sampled cells).
    cells, samples, max_histories
        As :func:`kop.knowledge_cell`: exact cells when the game has at most *max_histories* histories,
        else sampled.
    max_moves : int
        Stop with a LimitError past this many actions.

    Returns
    -------
    MatchResult
        Players ``P0``, ``P1``; per move, the algorithm and its reasons (the cell, the worlds).

    Examples
    --------
    >>> r = play_openspiel("leduc_poker", ["gvm", "mc"], seed=1)
    >>> r.agents, len(r.moves) > 3, sum(r.outcome)
    (('gvm', 'mc'), True, 0.0)
    """
    g = openspiel_game(game)
    algs = list(algorithms)
    if len(algs) != g.num_players() or any(a not in ALGORITHMS for a in algs):
        raise KopError(f"one algorithm per player ({g.num_players()}), each of {', '.join(ALGORITHMS)}; "
                       f"got {algs}")
    agents = tuple(names) if names is not None else tuple(algs)
    if len(agents) != len(algs):
        raise KopError(f"{len(agents)} names for {len(algs)} players")
    players = tuple(f"P{i}" for i in range(g.num_players()))
    rng = random.Random(seed)
    state = g.new_initial_state()
    log: list[LogEntry] = []
    moves: list[str] = []
    ply = 0
    while not state.is_terminal():
        if ply >= max_moves:
            raise LimitError(f"the match did not end within {max_moves} moves")
        ply += 1
        if state.is_chance_node():
            acts, probs = zip(*state.chance_outcomes())
            a = rng.choices(acts, weights=probs)[0]
            name = state.action_to_string(state.current_player(), a)
            log.append(LogEntry(ply, "chance", None, None, f"chance: {name}", a, name))
        else:
            p = int(state.current_player())
            d = decide_openspiel(g, state, algs[p], cells=cells, samples=samples, seed=0 if seed is None else seed,
                                 max_histories=max_histories)
            a, name = d.action, d.move
            cell = d.cell
            reasons = (f"{agents[p]} knows only its information state {cell.key!r}: its knowledge cell holds "
                       f"{len(cell.histories)} histor{'y' if len(cell.histories) == 1 else 'ies'} ({cell.note})",
                       f"{d.algorithm} over the {d.worlds} worlds of that cell (each cell history with the chance "
                       f"that can follow it), value {d.value:g} for {players[p]}")
            predicted = tuple(d.value if i == p else -d.value for i in range(len(players)))
            text = (f"{agents[p]} ({players[p]}) plays {name} by {d.algorithm} over {d.worlds} worlds "
                    f"({'exact' if cell.exact else 'sampled'} knowledge cell of {len(cell.histories)} "
                    f"histor{'y' if len(cell.histories) == 1 else 'ies'}), value {d.value:g}")
            log.append(LogEntry(ply, "move", players[p], agents[p], text, a, name, d.algorithm, reasons,
                                predicted, (), d.worlds))
        moves.append(name)
        state.apply_action(a)
    outcome = tuple(float(x) for x in state.returns())
    return MatchResult(outcome, tuple(moves), tuple(log), players, agents, state)
