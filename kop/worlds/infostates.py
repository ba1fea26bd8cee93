"""Play from a player's information state: its knowledge cell and the possible-worlds game rooted at it.

In an OpenSpiel game with imperfect information, player i's **knowledge cell** at a history h
where i is to move is the set of histories h' where i is to move with the same information state:
``information_state_string(i)`` where the game provides it, else ``observation_string(i)`` (see
:func:`cell_key`).  Being asked to move is itself something i observes, so the cell holds only
histories where i moves.  This is SPEC §6 "Information sets": i's information state partitions the
histories, and i knows exactly what holds in every history of its cell.

:func:`decide_openspiel` chooses i's move at h from the cell alone, never from h itself:

* the cell is computed from i's information state (:func:`knowledge_cell`): **exactly**, by
  enumerating the game's histories once (:class:`HistoryIndex`, cached per game) when there are at
  most ``max_histories`` of them, or else **sampled** by OpenSpiel's
  ``resample_from_infostate`` (every sample checked to lie in the cell, as
  :func:`kop.check_resampling` does), which the result says;
* the worlds of a :class:`~kop.worlds.game.WorldsGame` are the histories of the cell's **component**
  (the histories linked to the cell by "some player cannot tell them apart", where the same player
  moves: Kuhn poker, all six deals), sorted, each continued by the chance outcomes that can follow
  it; its tree is the tree of the players' moves from there (the union of the moves legal in each
  world; a world that cannot make a move does not reach the node, and its payoff there is
  undefined: Jamroga's partial payoffs); each player's belief at a node is the partition of the
  worlds by its information state there, so gvm models the opponent by what the opponent knows;
  with a sampled cell, or a component of more than ``max_component`` histories, the worlds are the
  cell's alone;
* i's belief is its cell: the worlds whose history lies in the cell, weighted by their chance
  probabilities (and nothing else); i plays the move that kop's possible-worlds algorithm (``mc``,
  ``vm`` or ``gvm``) chooses at the root under that belief.

So i's move is a function of its information state: changing the hidden part of the true history
(the opponent's cards, dice or hidden moves) never changes it (tested over every history of Kuhn
poker, Leduc poker, small Liar's dice and small Goofspiel).  Within one decision's look-ahead the
tree of moves is shared by the worlds, so a later mover is modelled as seeing the moves of the
look-ahead: that is the definition of the opponent in MC and vm (omniscient: the "best defense"),
and an over-estimate of the opponent's knowledge in gvm where moves are hidden (turn-based
goofspiel, ``coordinated_mp``); the moves actually played are always chosen from the mover's own
cell.  The opponent's earlier hidden moves count as equally likely (weight 1), chance outcomes by
their probabilities.

Example
-------
>>> import kop, pyspiel
>>> game = pyspiel.load_game("kuhn_poker")
>>> state = game.new_initial_state()
>>> for a in (2, 0):            # chance deals the king to player 0, the jack to player 1
...     state.apply_action(a)
>>> cell = kop.knowledge_cell(game, state)
>>> cell
Cell(player=0, key='2', histories=2, exact)
>>> cell.histories
((2, 0), (2, 1))
>>> d = kop.decide_openspiel(game, state, "gvm")
>>> d.move, d.worlds
('Bet', 2)

(The examples need open_spiel; the doctest run skips them without it.)

References
----------
H. W. Kuhn, *Extensive games and the problem of information* (1953); W. Jamroga, *A Defense Model for
Games with Incomplete Information*, KI 2001; M. Lanctot et al., *OpenSpiel* (2019), ``ResampleFromInfostate``.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kop import config
from kop.errors import LimitError
from kop.worlds.errors import WorldsError
from kop.games.search.openspiel import load_openspiel
from kop.syntax import arguments
from kop.worlds.gvm import gvm
from kop.worlds.mc import mc
from kop.worlds.openspiel import _Builder
from kop.worlds.vm import vm

#: the doctests need this optional package (kop/conftest.py skips them without it)
__doctest_requires__ = ("pyspiel",)

__all__ = ["Cell", "HistoryIndex", "InfoDecision", "knowledge_cell", "decide_openspiel", "cell_key",
           "history_index", "openspiel_game", "ALGORITHMS", "MAX_HISTORIES", "SAMPLES"]

#: the possible-worlds algorithms a player can decide with
ALGORITHMS = ("mc", "vm", "gvm")
#: the most histories enumerated for exact cells (beyond: sampled cells, or a LimitError)
MAX_HISTORIES = 300_000
#: how many draws a sampled cell takes
SAMPLES = 64
#: the most histories of the worlds of one decision (the cell and those the opponent cannot tell from it)
MAX_COMPONENT = 2_000
#: the most worlds (cell histories times the chance that follows) of one decision's game
MAX_DECISION_WORLDS = 20_000


def openspiel_game(game: Any) -> Any:
    """A ``pyspiel.Game`` from a game or a name with parameters (``"liars_dice(dice_sides=3)"``).

    >>> openspiel_game("kuhn_poker").get_type().short_name
    'kuhn_poker'
    """
    if isinstance(game, str):
        try:
            return load_openspiel(game)
        except Exception as exc:
            raise WorldsError(str(exc)) from None
    if not hasattr(game, "new_initial_state"):
        raise arguments.fail("game", "a pyspiel.Game or an OpenSpiel game name such as 'kuhn_poker'", game)
    return game


def cell_key(state: Any, player: int) -> str:
    """What *player* knows at *state*: ``information_state_string(player)`` where the game provides it,
    else ``observation_string(player)`` (a game without perfect-recall information states).

    >>> import pyspiel
    >>> s = pyspiel.load_game("kuhn_poker").new_initial_state()
    >>> s.apply_action(2); s.apply_action(0); s.apply_action(1)    # K, J dealt; player 0 bets
    >>> cell_key(s, 0), cell_key(s, 1)
    ('2b', '0b')
    """
    if state.get_game().get_type().provides_information_state_string:
        return str(state.information_state_string(player))
    return str(state.observation_string(player))


class HistoryIndex:
    """Every history of a game where a player moves, grouped by each player's information state there.

    ``cells[(player, key)]`` lists the histories where *player* moves with information state *key*
    (its knowledge cells); ``groups[(player, key)]`` the histories, whoever moves, where *player* has
    information state *key*; ``prob[h]`` is the chance probability of history h and ``mover[h]`` who moves
    there.  Built once per game by a depth-first walk, refused past *limit* histories (a :class:`LimitError`).

    >>> idx = history_index(openspiel_game("kuhn_poker"))
    >>> idx
    HistoryIndex('kuhn_poker', histories=58, cells=12)
    >>> sorted(idx.cells[(1, '0p')])
    [(1, 0, 0), (2, 0, 0)]
    """

    __slots__ = ("name", "histories", "cells", "groups", "prob", "mover", "players", "keys")

    def __init__(self, game: Any, limit: int = MAX_HISTORIES):
        self.name = str(game.get_type().short_name)
        self.players = int(game.num_players())
        self.cells: dict[tuple[int, str], list[tuple[int, ...]]] = {}
        self.groups: dict[tuple[int, str], list[tuple[int, ...]]] = {}
        self.prob: dict[tuple[int, ...], float] = {}
        self.mover: dict[tuple[int, ...], int] = {}
        self.keys: dict[tuple[int, ...], tuple[str, ...]] = {}
        stack: list[tuple[Any, float]] = [(game.new_initial_state(), 1.0)]
        count = 0
        while stack:
            state, p = stack.pop()
            count += 1
            if count > limit:
                raise LimitError(f"{self.name}: more than {limit} histories, too many for exact knowledge cells")
            if state.is_terminal():
                continue
            if state.is_chance_node():
                stack.extend((state.child(a), p * q) for a, q in state.chance_outcomes() if q > 0)
                continue
            if state.is_simultaneous_node():
                raise WorldsError(f"{self.name}: simultaneous moves; load its turn-based version "
                                  f"turn_based_simultaneous_game(game={self.name}(...))")
            h = tuple(state.history())
            mover = int(state.current_player())
            self.prob[h], self.mover[h] = p, mover
            self.keys[h] = tuple(cell_key(state, player) for player in range(self.players))
            for player, key in enumerate(self.keys[h]):
                self.groups.setdefault((player, key), []).append(h)
                if player == mover:
                    self.cells.setdefault((player, key), []).append(h)
            stack.extend((state.child(a), p) for a in state.legal_actions())
        self.histories = count

    def component(self, cell: Sequence[tuple[int, ...]], limit: int) -> tuple[list[tuple[int, ...]], bool]:
        """The histories linked to *cell* by "some player cannot tell them apart" (with the same mover),
        sorted: the worlds that the players' beliefs about each other's beliefs range over.  Past *limit*
        histories, (the cell alone, False)."""
        mover = self.mover[cell[0]]
        seen = set(cell)
        todo = list(cell)
        while todo:
            h = todo.pop()
            for player, key in enumerate(self.keys[h]):
                for other in self.groups[(player, key)]:
                    if other not in seen and self.mover[other] == mover:
                        seen.add(other)
                        todo.append(other)
                        if len(seen) > limit:
                            return sorted(cell), False
        return sorted(seen), True

    def __repr__(self) -> str:
        return f"HistoryIndex({self.name!r}, histories={self.histories}, cells={len(self.cells)})"


#: (game, limit) -> its index, or the LimitError it raised: a pure memo, shared (see :mod:`kop.config`)
_INDEXES = config.Memo(32)


def history_index(game: Any, limit: int = MAX_HISTORIES) -> HistoryIndex:
    """The :class:`HistoryIndex` of *game* (cached per game and limit; a LimitError past *limit*)."""
    key = (str(game), limit)
    found: HistoryIndex | LimitError = _INDEXES.get(key)
    if found is config.MISSING:
        try:
            found = HistoryIndex(game, limit)
        except LimitError as exc:
            found = exc
        _INDEXES.put(key, found)
    if isinstance(found, LimitError):
        raise LimitError(str(found))
    return found


@dataclass(frozen=True)
class Cell:
    """A player's knowledge cell: the histories it cannot tell from the true one.

    Attributes
    ----------
    player : int
        The player (OpenSpiel's number).
    key : str
        Its information state (or observation, see :func:`cell_key`) in every history of the cell.
    histories : tuple of tuples
        The histories (OpenSpiel action ids from the start), sorted.
    weights : tuple of float
        Their weights: chance probabilities (exact cells) or how often each was drawn (sampled cells).
    exact : bool
        True when the cell was enumerated; False when it was sampled.
    note : str
        How it was obtained, for the output.

    Examples
    --------
    >>> Cell(1, '0p', ((0, 1, 0), (0, 2, 0)), (1/6, 1/6), True, "exact")
    Cell(player=1, key='0p', histories=2, exact)
    """

    player: int
    key: str
    histories: tuple[tuple[int, ...], ...]
    weights: tuple[float, ...] = field(repr=False)
    exact: bool
    note: str = field(repr=False, default="")

    def __repr__(self) -> str:
        return (f"Cell(player={self.player}, key={self.key!r}, histories={len(self.histories)}, "
                f"{'exact' if self.exact else 'sampled'})")


def knowledge_cell(game: Any, state: Any, player: int | None = None, *, cells: str = "auto",
                   max_histories: int = MAX_HISTORIES, samples: int = SAMPLES, seed: int = 0) -> Cell:
    """The knowledge cell of *player* (default: the mover) at *state*, computed from its information state only.

    Parameters
    ----------
    game : pyspiel.Game or str
    state : pyspiel.State
        The true state; only ``cell_key(state, player)`` is read from it (and, for a sampled cell,
        OpenSpiel's ``resample_from_infostate``, whose samples are checked to lie in the cell).
    player : int, optional
        Default: the player to move at *state*.
    cells : {"auto", "exact", "sampled"}
        ``auto``: exact when the game has at most *max_histories* histories, else sampled.
    max_histories, samples, seed : int
        The enumeration limit; the number of draws of a sampled cell and the seed of its random
        numbers (mixed with the information state, so the draws do not depend on the true state).

    Returns
    -------
    Cell

    Raises
    ------
    WorldsError
        *player* is not to move at *state*, or a resampled history lies outside the cell.
    LimitError
        The game is too big for exact cells and OpenSpiel does not resample it.

    Examples
    --------
    >>> import pyspiel
    >>> game = pyspiel.load_game("leduc_poker")
    >>> s = game.new_initial_state()
    >>> s.apply_action(0); s.apply_action(5)     # player 0 holds card 0
    >>> knowledge_cell(game, s)
    Cell(player=0, key=..., histories=5, exact)
    >>> knowledge_cell(game, s, cells="sampled", samples=200).histories[:2]
    ((0, 1), (0, 2))
    """
    game = openspiel_game(game)
    if cells not in ("auto", "exact", "sampled"):
        raise arguments.fail("cells", "'auto', 'exact' or 'sampled'", cells)
    mover = int(state.current_player())
    who = mover if player is None else int(player)
    if state.is_terminal() or state.is_chance_node() or who != mover:
        raise WorldsError(f"player {who} is not to move at {list(state.history())}: a knowledge cell here is "
                          "taken at the player's own decisions")
    key = cell_key(state, who)
    if cells != "sampled":
        try:
            index = history_index(game, max_histories)
        except LimitError:
            if cells == "exact":
                raise
        else:
            hs = tuple(sorted(index.cells.get((who, key), ())))
            return Cell(who, key, hs, tuple(index.prob[h] for h in hs), True,
                        f"exact: the {len(hs)} histories with player {who}'s information state "
                        f"(of {index.histories} in the game)")
    return _sampled_cell(state, who, key, samples, seed)


def _sampled_cell(state: Any, who: int, key: str, samples: int, seed: int) -> Cell:
    rng = random.Random(zlib.crc32(f"{seed}\x00{who}\x00{key}".encode()))
    counts: dict[tuple[int, ...], int] = {}
    for _ in range(samples):
        try:
            s = state.resample_from_infostate(who, rng.random)
        except Exception as exc:
            raise LimitError(f"{state.get_game().get_type().short_name}: too big for exact knowledge cells and "
                             f"OpenSpiel cannot resample it ({str(exc).strip().splitlines()[0]})") from None
        if int(s.current_player()) != who or cell_key(s, who) != key:
            raise WorldsError(f"OpenSpiel's resample_from_infostate left player {who}'s cell: from "
                              f"{list(state.history())} it drew {list(s.history())}, where the player's "
                              f"information state is {cell_key(s, who)!r}, not {key!r}")
        h = tuple(s.history())
        counts[h] = counts.get(h, 0) + 1
    hs = tuple(sorted(counts))
    return Cell(who, key, hs, tuple(counts[h] / samples for h in hs), False,
                f"sampled: {samples} draws of OpenSpiel's resample_from_infostate, each checked to lie in the "
                f"cell, gave {len(hs)} distinct histories (the game is too big for exact cells)")


@dataclass(frozen=True)
class InfoDecision:
    """A move chosen from a knowledge cell by a possible-worlds algorithm.

    Attributes
    ----------
    player : int
        The mover (OpenSpiel's number).
    action : int
        The chosen OpenSpiel action.
    move : str
        Its name as OpenSpiel prints it.
    algorithm : str
        ``mc``, ``vm`` or ``gvm``.
    value : float
        The algorithm's value of the root for the mover, averaged over its worlds by their weights.
    worlds : int
        How many worlds the mover considered (the cell's histories, each continued by the chance after
        it); the decision's game may hold more, where the opponent's beliefs reach outside the cell.
    cell : Cell
        The knowledge cell.
    considered : tuple of tuples
        The cell histories of the worlds the mover gives positive weight, sorted (exactly
        ``cell.histories``).

    Examples
    --------
    >>> c = Cell(0, '2', ((2, 0), (2, 1)), (1/6, 1/6), True)
    >>> InfoDecision(0, 1, "Bet", "gvm", 1.5, 2, c, ((2, 0), (2, 1)))
    InfoDecision(player=0, move='Bet', algorithm='gvm', worlds=2, exact)
    """

    player: int
    action: int
    move: str
    algorithm: str
    value: float
    worlds: int
    cell: Cell
    considered: tuple[tuple[int, ...], ...] = field(repr=False, default=())

    def __repr__(self) -> str:
        return (f"InfoDecision(player={self.player}, move={self.move!r}, algorithm={self.algorithm!r}, "
                f"worlds={self.worlds}, {'exact' if self.cell.exact else 'sampled'})")


def decide_openspiel(game: Any, state: Any, algorithm: str = "gvm", *, cells: str = "auto",
                     max_histories: int = MAX_HISTORIES, samples: int = SAMPLES, seed: int = 0,
                     max_worlds: int = MAX_DECISION_WORLDS, max_nodes: int = 200_000,
                     max_component: int = MAX_COMPONENT) -> InfoDecision:
    """The mover's move at *state*, chosen by *algorithm* over its knowledge cell (module docstring).

    Parameters
    ----------
    game : pyspiel.Game or str
        A two-player zero-sum sequential OpenSpiel game.
    state : pyspiel.State
        The true state (only the mover's information state is used).
    algorithm : {"mc", "vm", "gvm"}
    cells, max_histories, samples, seed
        As :func:`knowledge_cell`.
    max_worlds, max_nodes : int
        Limits on the decision's possible-worlds game (a LimitError past them).

    Returns
    -------
    InfoDecision

    Examples
    --------
    >>> import pyspiel
    >>> game = pyspiel.load_game("kuhn_poker")
    >>> s = game.new_initial_state()
    >>> for a in (0, 2, 1):    # J to player 0, K to player 1, player 0 bets
    ...     s.apply_action(a)
    >>> d = decide_openspiel(game, s, "vm")
    >>> d, d.cell.histories
    (InfoDecision(player=1, move='Bet', algorithm='vm', worlds=2, exact), ((0, 2, 1), (1, 2, 1)))
    """
    game = openspiel_game(game)
    if algorithm not in ALGORITHMS:
        raise arguments.fail("algorithm", f"one of {', '.join(ALGORITHMS)}", algorithm)
    _check_game(game)
    cell = knowledge_cell(game, state, cells=cells, max_histories=max_histories, samples=samples, seed=seed)
    histories, weights = list(cell.histories), list(cell.weights)
    if cell.exact:   # the opponent's beliefs range over the histories it cannot tell from the cell's
        index = history_index(game, max_histories)
        histories, _ = index.component(cell.histories, max_component)
        weights = [index.prob[h] for h in histories]
    roots = [(_replay(game, h), w) for h, w in zip(histories, weights)]
    built = _Builder(game, str(game.get_type().short_name), max_nodes, max_worlds, LimitError,
                     roots=roots, union=True).build()
    g = built.game
    who = "MAX" if cell.player == 0 else "MIN"
    mine = set(cell.histories)
    root_of = [histories[seq[0]] for seq in built.chances]
    prior = built.probabilities * np.array([h in mine for h in root_of], dtype=np.float64)
    prior = prior / prior.sum()
    if algorithm == "mc":
        plan = mc(g, prior, who)
    elif algorithm == "vm":
        plan = vm(g, prior, who, min_beliefs=None)
    else:
        plan = gvm(g, prior, who)
    child = plan.move(g, 0)
    action = built.histories[child][0]
    value = float(np.nansum(np.asarray(plan.value) * prior)) if plan.value is not None else float("nan")
    if cell.player == 1:
        value = -value
    value += 0.0    # no -0
    considered = tuple(sorted({h for h, p in zip(root_of, prior) if p > 0}))
    return InfoDecision(cell.player, int(action), state.action_to_string(cell.player, action), algorithm, value,
                        int((prior > 0).sum()), cell, considered)


def _check_game(game: Any) -> None:
    import pyspiel  # type: ignore[import-not-found,unused-ignore]

    gtype = game.get_type()
    name = gtype.short_name
    if game.num_players() != 2:
        raise WorldsError(f"{name}: kop's possible-worlds algorithms play two-player games; this one has "
                          f"{game.num_players()}")
    if gtype.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise WorldsError(f"{name}: simultaneous moves; load its turn-based version "
                          f"turn_based_simultaneous_game(game={name}(...))")
    if gtype.utility not in (pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.CONSTANT_SUM):
        raise WorldsError(f"{name}: kop's possible-worlds algorithms play zero-sum games")


def _replay(game: Any, history: Sequence[int]) -> Any:
    state = game.new_initial_state()
    for a in history:
        state.apply_action(a)
    return state
