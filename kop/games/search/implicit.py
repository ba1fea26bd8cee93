"""Implicit games: a state, whose turn it is, the legal moves, what a move does, when it ends.

Real game trees are far too large to write out.  An *implicit game* gives the
rules instead, and kop searches it move by move (:func:`kop.search`) or expands
it into an array tree when it fits (:meth:`kop.GameTree.from_game`).  A game is
any object with

* ``players``: a sequence of :class:`~kop.games.trees.tree.Player` (a name and a goal,
  ``"max"`` or ``"min"`` of its own payoff component) or bare names;
* ``initial_state()``;
* ``to_move(state)``: the index or name of the player who moves, or
  :data:`CHANCE` at a chance node;
* ``legal_moves(state)``: the moves, in order (the order breaks ties: the first
  best move wins, SPEC §3.1);
* ``apply(state, move)``: the state after *move* (a new state; *state* is not changed);
* ``is_terminal(state)`` and ``payoffs(state)``: one number per player at the end;

and optionally ``chance_outcomes(state)`` (pairs (move, probability)),
``key(state)`` (a hashable transposition-table key; by default the state itself
when it hashes by value, else ``str(state)``) and ``move_name(state, move)``.
Subclass :class:`ImplicitGame` to get those defaults.

*Evaluation functions* score any state for one player (Sang & Chen's E_A,
E_B); searches use them at the horizon and at the leaves.  A player without one
is scored by the game's own payoff at terminal states.

Shipped games: :func:`nim` (the lecture notes' m,p-Nim; 2,2-Nim by default),
:class:`~kop.games.search.treegame.TreeGame` (any :class:`~kop.games.trees.tree.GameTree` as an implicit game,
e.g. Figure 2), and :func:`kop.from_openspiel` for OpenSpiel games.

Example
-------
>>> g = nim()
>>> s = g.initial_state()
>>> s, g.to_move(s), g.legal_moves(s)
(((2, 2), 'MAX'), 'MAX', [(0, 1), (0, 2)])
>>> g.apply(s, (0, 2))
((2, 0), 'MIN')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from kop.games.errors import GameError
from kop.games.trees.layout import Player, make_players
from kop.syntax import arguments

__all__ = ["CHANCE", "Game", "ImplicitGame", "GameView", "Nim", "nim",
           "Evaluations", "state_text"]

#: what ``to_move`` returns at a chance node
CHANCE = -2

#: evaluation functions: one per player (by name or position), or None for the game's payoffs
Evaluations = Mapping[str, Callable[[Any], float] | None] | Sequence[Callable[[Any], float] | None] | None


@runtime_checkable
class Game(Protocol):
    """The protocol of an implicit game (see the module docstring)."""

    players: Sequence[Any]

    def initial_state(self) -> Any: ...

    def to_move(self, state: Any) -> int | str: ...

    def legal_moves(self, state: Any) -> Sequence[Any]: ...

    def apply(self, state: Any, move: Any) -> Any: ...

    def is_terminal(self, state: Any) -> bool: ...

    def payoffs(self, state: Any) -> Sequence[float]: ...


class ImplicitGame:
    """A base class for implicit games: defaults for the optional methods.

    Subclasses set ``players`` and define ``initial_state``, ``to_move``,
    ``legal_moves``, ``apply``, ``is_terminal`` and ``payoffs``.

    Examples
    --------
    A game defined by its rules; :func:`kop.search` explores it state by state:

    >>> import kop
    >>> class Race(kop.ImplicitGame):
    ...     # say 1 or 2 in turn, adding to a total; whoever reaches 4 wins
    ...     players = (kop.Player("A", "max"), kop.Player("B", "min"))
    ...     def initial_state(self): return (0, 0)
    ...     def to_move(self, s): return s[1]
    ...     def legal_moves(self, s): return [1, 2]
    ...     def apply(self, s, m): return (s[0] + m, 1 - s[1])
    ...     def is_terminal(self, s): return s[0] >= 4
    ...     def payoffs(self, s): return (1, 1) if s[1] == 1 else (-1, -1)
    >>> kop.search(Race(), "minimax").value
    (1, 1)
    """

    players: Sequence[Any] = ()

    def initial_state(self) -> Any:
        raise NotImplementedError

    def to_move(self, state: Any) -> int | str:
        raise NotImplementedError

    def legal_moves(self, state: Any) -> Sequence[Any]:
        raise NotImplementedError

    def apply(self, state: Any, move: Any) -> Any:
        raise NotImplementedError

    def is_terminal(self, state: Any) -> bool:
        raise NotImplementedError

    def payoffs(self, state: Any) -> Sequence[float]:
        raise NotImplementedError

    def chance_outcomes(self, state: Any) -> Sequence[tuple[Any, float]]:
        raise GameError(f"{type(self).__name__} has no chance nodes, but to_move({state_text(state)}) "
                        "returned CHANCE")

    def move_name(self, state: Any, move: Any) -> str:
        return str(move)

    def __repr__(self) -> str:
        names = ", ".join(str(p) for p in make_players(list(self.players)))
        return f"{type(self).__name__}(players=({names}))"


def state_text(state: Any, limit: int = 80) -> str:
    """A short printable form of a state, for error messages and logs."""
    try:
        text = repr(state)
    except Exception:  # a user's __repr__ failing must not hide the real error
        text = f"<{type(state).__name__}>"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def state_drawing(state: Any, max_lines: int = 30, width: int = 100) -> str:
    """The state as the game draws it (``str(state)``, line breaks kept), indented, within a size limit.

    >>> print(state_drawing("x.o\\n.x.\\n..o"))
        x.o
        .x.
        ..o
    """
    try:
        text = str(state)
    except Exception:  # a user's __str__ failing must not hide the real error
        return "    " + state_text(state)
    lines = text.splitlines() or [""]
    if len(lines) > max_lines or any(len(line) > width for line in lines):
        return "    " + state_text(state)
    return "\n".join("    " + line for line in lines)


def _identity_hashed(state: Any) -> bool:
    method: object = type(state).__hash__
    return method is object.__hash__


class GameView:
    """A checked, normalized view of a user's game, shared by every search.

    Each method validates what the game returns and raises :class:`GameError`
    naming the state (and the move) at fault.  ``evaluations`` are resolved to
    one callable (or None) per player.
    """

    __slots__ = ("game", "players", "names", "_key", "_move_name", "_chance", "evals", "signs", "_plain")

    game: Any

    def __init__(self, game: Any, evaluations: Evaluations = None):
        if isinstance(game, GameView):
            game = game.game
        for name in ("initial_state", "to_move", "legal_moves", "apply", "is_terminal", "payoffs"):
            if not callable(getattr(game, name, None)):
                raise GameError(f"{type(game).__name__} is not an implicit game: it has no method {name}()")
        players = getattr(game, "players", None)
        if players is None:
            raise GameError(f"{type(game).__name__} is not an implicit game: it has no players")
        try:
            self.players: tuple[Player, ...] = make_players(list(players), goals="paper")
        except Exception as exc:
            raise GameError(f"{type(game).__name__}.players: {exc}") from None
        self.game = game
        self.names = tuple(p.name for p in self.players)
        self.signs = tuple(float(p.sign) for p in self.players)
        self._key = getattr(game, "key", None)
        self._move_name = getattr(game, "move_name", None)
        self._chance = getattr(game, "chance_outcomes", None)
        self.evals = self._resolve(evaluations)
        self._plain = all(f is None for f in self.evals)

    def _resolve(self, evaluations: Evaluations) -> tuple[Callable[[Any], float] | None, ...]:
        n = len(self.players)
        if evaluations is None:
            return (None,) * n
        if isinstance(evaluations, Mapping):
            out: list[Callable[[Any], float] | None] = [None] * n
            for name, f in evaluations.items():
                if name not in self.names:
                    raise GameError(f"evaluation for unknown player {name!r} (players {', '.join(self.names)})")
                out[self.names.index(name)] = f
        elif isinstance(evaluations, Sequence) and not isinstance(evaluations, str):
            if len(evaluations) != n:
                raise GameError(f"{len(evaluations)} evaluation functions for {n} players")
            out = list(evaluations)
        else:
            raise GameError("evaluations must map player names to functions (or list one per player)")
        for name, f in zip(self.names, out):
            if f is not None and not callable(f):
                raise GameError(f"the evaluation of {name} is not a function: {f!r}")
        return tuple(out)

    def with_evaluations(self, evaluations: Evaluations) -> GameView:
        """The same game with other evaluation functions."""
        return GameView(self.game, evaluations)

    def player_index(self, who: str | int | None) -> int:
        if who is None:
            return 0
        if isinstance(who, int) and not isinstance(who, bool):
            if 0 <= who < len(self.players):
                return who
        elif isinstance(who, Player) and who.name in self.names:
            return self.names.index(who.name)
        elif who in self.names:
            return self.names.index(who)
        raise GameError(f"unknown player {who!r} (players {', '.join(self.names)})")

    # -- the rules, checked ----------------------------------------------------
    def initial_state(self) -> Any:
        return self.game.initial_state()

    def is_terminal(self, state: Any) -> bool:
        return bool(self.game.is_terminal(state))

    def mover(self, state: Any) -> int:
        """Index of the player to move, or CHANCE."""
        who = self.game.to_move(state)
        if type(who) is int and 0 <= who < len(self.names):
            return who
        if isinstance(who, bool):
            raise GameError(f"to_move({state_text(state)}) returned {who!r}, not a player")
        if isinstance(who, int):
            if who == CHANCE or 0 <= who < len(self.players):
                return who
        elif isinstance(who, str) and who in self.names:
            return self.names.index(who)
        raise GameError(f"to_move({state_text(state)}) returned {who!r}: not a player "
                        f"({', '.join(self.names)}) nor CHANCE")

    def moves(self, state: Any) -> list[Any]:
        """The legal moves of a non-terminal decision state (never empty)."""
        ms = self.game.legal_moves(state)
        try:
            ms = list(ms)
        except TypeError:
            raise GameError(f"legal_moves({state_text(state)}) returned {ms!r}, not a sequence") from None
        if not ms:
            raise GameError(f"state {state_text(state)} is not terminal but has no legal moves")
        return ms

    def chance(self, state: Any) -> list[tuple[Any, float]]:
        """(move, probability) pairs at a chance state, checked (non-negative, sum 1)."""
        if self._chance is None:
            raise GameError(f"to_move({state_text(state)}) returned CHANCE but the game has no chance_outcomes()")
        out = []
        for pair in self._chance(state):
            try:
                move, p = pair
                p = float(p)
            except (TypeError, ValueError):
                raise GameError(f"chance_outcomes({state_text(state)}): {pair!r} is not (move, probability)") from None
            if not (p >= 0.0) or math.isinf(p):
                raise GameError(f"chance_outcomes({state_text(state)}): probability {p!r} of move "
                                f"{move!r} is not a finite non-negative number")
            out.append((move, p))
        if not out:
            raise GameError(f"chance state {state_text(state)} has no outcomes")
        total = math.fsum(p for _, p in out)
        if abs(total - 1.0) > 1e-9 * len(out):
            raise GameError(f"chance_outcomes({state_text(state)}): probabilities sum to {total:g}, not 1")
        return out

    def child(self, state: Any, move: Any) -> Any:
        try:
            return self.game.apply(state, move)
        except GameError:
            raise
        except Exception as exc:
            raise GameError(f"apply({state_text(state)}, {move!r}) failed: {type(exc).__name__}: {exc}") from exc

    def key(self, state: Any) -> Hashable:
        """The transposition-table key of *state* (hashable, checked)."""
        if self._key is not None:
            k = self._key(state)
            try:
                hash(k)
            except TypeError:
                raise GameError(f"key({state_text(state)}) returned an unhashable {type(k).__name__}: "
                                f"{state_text(k)}") from None
            checked: Hashable = k
            return checked
        if _identity_hashed(state):
            return str(state)
        try:
            hash(state)
        except TypeError:
            return str(state)
        hashable: Hashable = state
        return hashable

    def move_name(self, state: Any, move: Any) -> str:
        if self._move_name is not None:
            return str(self._move_name(state, move))
        return str(move)

    def check_move(self, state: Any, move: Any) -> int:
        """The index of *move* among the legal moves of *state*, or a GameError."""
        if self.is_terminal(state):
            raise GameError(f"move {move!r} at {state_text(state)}: the game is over")
        ms = self.moves(state) if self.mover(state) != CHANCE else [m for m, _ in self.chance(state)]
        for i, m in enumerate(ms):
            try:
                if m == move:
                    return i
            except Exception:
                continue
        raise GameError(f"move {move!r} is not legal at {state_text(state)} "
                        f"(legal: {', '.join(self.move_name(state, m) for m in ms[:12])}"
                        f"{', ...' if len(ms) > 12 else ''})")

    # -- values ------------------------------------------------------------------
    def payoff_vector(self, state: Any) -> tuple[float, ...]:
        pay = self.game.payoffs(state)
        try:
            vals = list(pay)
        except TypeError:
            raise GameError(f"payoffs({state_text(state)}) returned {pay!r}, not one number per player") from None
        if len(vals) != len(self.players):
            raise GameError(f"payoffs({state_text(state)}) has {len(vals)} numbers for "
                            f"{len(self.players)} players")
        return tuple(_number(v, f"payoff of {n} at {state_text(state)}") for v, n in zip(vals, self.names))

    def evaluate(self, state: Any, i: int, terminal: bool, payoffs: tuple[float, ...] | None = None) -> float:
        """Player i's score of *state*: its evaluation, else the payoff at a terminal state, else NaN."""
        f = self.evals[i]
        if f is None:
            if terminal:
                return (payoffs if payoffs is not None else self.payoff_vector(state))[i]
            return math.nan
        try:
            v = f(state)
        except GameError:
            raise
        except Exception as exc:
            raise GameError(f"the evaluation of {self.names[i]} failed at {state_text(state)}: "
                            f"{type(exc).__name__}: {exc}") from exc
        return _number(v, f"the evaluation of {self.names[i]} at {state_text(state)}")

    def leaf(self, state: Any, terminal: bool, need: Sequence[int] | None = None) -> tuple[float, ...]:
        """The value vector of a leaf (terminal or at the horizon).

        Components in *need* (default: all) must be known: at the horizon a
        player without an evaluation function is an error.
        """
        if terminal and self._plain:
            return self.payoff_vector(state)
        vec = self.scores(state, terminal)
        self.check_known(state, vec, need)
        return vec

    @property
    def plain(self) -> bool:
        """True when no player has an evaluation function (leaves are scored by payoffs only)."""
        return self._plain

    def scores(self, state: Any, terminal: bool) -> tuple[float, ...]:
        """Every player's score of a leaf; NaN for a player without evaluation at the horizon."""
        pay = None
        if terminal and any(f is None for f in self.evals):
            pay = self.payoff_vector(state)
        return tuple(self.evaluate(state, i, terminal, pay) for i in range(len(self.players)))

    def check_known(self, state: Any, vec: tuple[float, ...], need: Sequence[int] | None) -> None:
        """A GameError when a component in *need* (default: all) is unknown (NaN) at *state*."""
        for i in (range(len(vec)) if need is None else need):
            if math.isnan(vec[i]):
                raise GameError(f"the search horizon ends at a state that is not terminal, and {self.names[i]} "
                                "has no evaluation function to score it: give the search an evaluation, or score "
                                "the horizon 0 (on the command line: kop solve ... --eval zero; kop match: "
                                f"eval:zero in the agent, e.g. -a {self.names[i]}=depth:2;eval:zero).  The state:\n"
                                f"{state_drawing(state)}")


def _number(v: Any, what: str) -> float:
    t = type(v)
    if t is float:
        if v != v:
            raise GameError(f"{what} is NaN")
        return float(v)
    if t is int:
        return float(v)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        try:
            if isinstance(v, np.generic) and np.issubdtype(type(v), np.number):
                v = float(v)
            else:
                raise TypeError
        except TypeError:
            raise GameError(f"{what} is {v!r}, not a number") from None
    x = float(v)
    if math.isnan(x):
        raise GameError(f"{what} is NaN")
    return x


# -- adapters and shipped games ------------------------------------------------

class Nim(ImplicitGame):
    """m,p-Nim of the lecture notes (seed 003): take any number of matches from one pile.

    States are ``(piles, player)`` with the piles sorted largest first (the
    notes' canonical form), players ``MAX`` (goal max) and ``MIN`` (goal min).
    A move ``(i, k)`` takes k matches from pile i.  Whoever takes the last match
    loses (``misere=True``, the notes' rule) or wins.  The payoff is a single
    value shown to both players, ``v((0,0), MAX) = (+1, +1)``: MAX, to move at
    the empty position, won because MIN took the last match.

    Parameters
    ----------
    piles : sequence of int
        The matches in each pile.
    misere : bool
        Whoever takes the last match loses (the notes' rule), else wins.

    Examples
    --------
    >>> from kop.games.registry import search
    >>> search(nim(), "minimax").value
    (-1, -1)

    References
    ----------
    Lecture notes *Adversarial Search* (m,p-Nim).
    """

    def __init__(self, piles: Sequence[int] = (2, 2), misere: bool = True):
        piles = arguments.items(piles, "piles", "a list of pile sizes (integers >= 0)")
        misere = arguments.flag(misere, "misere")
        if not piles or any(isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in piles):
            raise GameError(f"Nim piles must be non-negative integers, not {piles!r}")
        self.piles = tuple(sorted(piles, reverse=True))
        self.misere = misere
        self.players = (Player("MAX", "max"), Player("MIN", "min"))

    def initial_state(self) -> tuple[tuple[int, ...], str]:
        return (self.piles, "MAX")

    def to_move(self, state: tuple[tuple[int, ...], str]) -> str:
        return state[1]

    def legal_moves(self, state: tuple[tuple[int, ...], str]) -> list[tuple[int, int]]:
        piles = state[0]
        return [(i, k) for i, p in enumerate(piles) if p and (i == 0 or p != piles[i - 1])
                for k in range(1, p + 1)]

    def apply(self, state: tuple[tuple[int, ...], str], move: tuple[int, int]) -> tuple[tuple[int, ...], str]:
        piles, who = state
        try:
            i, k = move
            ok = 0 <= i < len(piles) and 1 <= k <= piles[i]
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise GameError(f"move {move!r} is not legal at {state!r}: take k >= 1 matches from a pile i")
        rest = list(piles)
        rest[i] -= k
        return (tuple(sorted(rest, reverse=True)), "MIN" if who == "MAX" else "MAX")

    def is_terminal(self, state: tuple[tuple[int, ...], str]) -> bool:
        return not any(state[0])

    def payoffs(self, state: tuple[tuple[int, ...], str]) -> tuple[int, int]:
        # the player to move at the empty position did not take the last match
        mover_wins = self.misere
        v = 1 if (state[1] == "MAX") == mover_wins else -1
        return (v, v)

    def move_name(self, state: tuple[tuple[int, ...], str], move: tuple[int, int]) -> str:
        i, k = move
        return f"take {k} from pile of {state[0][i]}"

    def __repr__(self) -> str:
        return f"Nim(piles={self.piles}, misere={self.misere})"


def nim(piles: Sequence[int] = (2, 2), misere: bool = True) -> Nim:
    """m,p-Nim (2,2-Nim by default): whoever takes the last match loses (``misere``).

    Parameters
    ----------
    piles : sequence of int
        The matches in each pile.
    misere : bool
        Whoever takes the last match loses, else wins.

    Returns
    -------
    Nim
        The game.

    Examples
    --------
    >>> import kop
    >>> kop.nim(), kop.search(kop.nim(), "minimax").value
    (Nim(piles=(2, 2), misere=True), (-1, -1))

    References
    ----------
    Lecture notes *Adversarial Search* (2,2-Nim).
    """
    return Nim(piles, misere)
