"""The array layout of a game tree, below every builder: node kinds, players, the :class:`Layout` tuple.

Builders (:mod:`~kop.games.trees.build` from nested data, :mod:`~kop.games.search.expand`
from an implicit game) produce a :class:`Layout`; :class:`~kop.games.trees.tree.GameTree`
wraps one.  Nothing here imports the tree, so no builder has to.

Examples
--------
>>> from kop.games.trees.layout import make_players
>>> make_players(["A", "B"]), make_players(["A", "B"], goals="max")[1].goal
((Player('A', 'max'), Player('B', 'min')), 'max')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from kop.games.errors import TreeError

__all__ = ["Player", "make_players", "format_number", "Layout", "LEAF", "CHANCE", "SIMULTANEOUS", "GOALS",
           "PROB_TOLERANCE", "SIMULTANEOUS_HANDLED_BY", "MAX_EXACT_INT", "show", "type_name"]

#: ``kind`` code of a leaf
LEAF = -1
#: ``kind`` code of a chance node
CHANCE = -2
#: ``kind`` code of a simultaneous-move node (its players and the shape of its joint moves
#: are in :attr:`GameTree.simultaneous`; children in row-major order of the joint moves)
SIMULTANEOUS = -3
#: what a refusal of a simultaneous-move tree tells the user to use instead
SIMULTANEOUS_HANDLED_BY = ("Trees with simultaneous moves are handled by kop solve -s naive, substructure or "
                           "dominating (the equilibrium value of two-player stages; Python: kop.search) and kop draw")
#: the goals a player may have
GOALS = ("max", "min")
#: tolerance on the sum of chance probabilities
PROB_TOLERANCE = 1e-9
#: integers beyond this cannot be stored exactly as payoffs
MAX_EXACT_INT = 2**53


@dataclass(frozen=True)
class Player:
    """A player: a name and a goal, ``"max"`` or ``"min"`` of its own payoff component.

    Parameters
    ----------
    name : str
        The player's name (``A``, ``B``, ...).
    goal : {"max", "min"}
        Whether it maximizes or minimizes its own payoff component.

    Examples
    --------
    >>> import kop
    >>> kop.Player("B", "min"), kop.figure2().players
    (Player('B', 'min'), (Player('A', 'max'), Player('B', 'min')))
    """

    name: str
    goal: str = "max"

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise TreeError(f"player name must be a non-empty string, not {show(self.name)}")
        if self.goal not in GOALS:
            raise TreeError(f"player {self.name}: goal must be 'max' or 'min', not {show(self.goal)}")

    @property
    def sign(self) -> int:
        """+1 for a maximizer, -1 for a minimizer."""
        return 1 if self.goal == "max" else -1

    def __repr__(self) -> str:
        return f"Player({self.name!r}, {self.goal!r})"

    def __str__(self) -> str:
        return f"{self.name}:{self.goal}"


def make_players(players: Sequence[Player | str | Mapping[str, Any]] | None,
                 goals: str = "paper") -> tuple[Player, ...]:
    """Players from names, dicts or :class:`Player` values.

    Bare names get goals by *goals*: ``"paper"`` (the first player max, the second
    min, any others max) or ``"max"`` (every player maximizes).
    """
    if goals not in ("paper", "max"):
        raise TreeError(f"goals must be 'paper' or 'max', not {goals!r}")
    if players is None:
        players = ["A", "B"]
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence) or not players:
        raise TreeError("players must be a non-empty list")
    out: list[Player] = []
    for i, p in enumerate(players):
        if isinstance(p, Player):
            out.append(p)
        elif isinstance(p, str):
            goal = "min" if (goals == "paper" and i == 1) else "max"
            out.append(Player(p, goal))
        elif isinstance(p, Mapping):
            extra = set(p) - {"name", "goal"}
            if extra:
                raise TreeError(f"players[{i}]: unknown key {show(sorted(map(str, extra))[0])} (allowed: name, goal)")
            if "name" not in p:
                raise TreeError(f"players[{i}]: missing \"name\"")
            try:
                out.append(Player(p["name"], p.get("goal", "max")))
            except TreeError as exc:
                raise TreeError(f"players[{i}]: {exc}") from None
        else:
            raise TreeError(f"players[{i}]: expected a name or an object, found {type(p).__name__}")
    seen: set[str] = set()
    for p in out:
        if p.name in seen:
            raise TreeError(f"player {p.name!r} is listed twice")
        seen.add(p.name)
    return tuple(out)


def format_number(x: float, integral: bool) -> int | float:
    """*x* as an ``int`` when the tree's payoffs are integers and *x* is whole, else a float."""
    x = float(x)
    if integral and x.is_integer():
        return int(x)
    return x


def type_name(x: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            type(None): "null"}.get(type(x), type(x).__name__)


def show(x: Any, limit: int = 60) -> str:
    """A short printable form of a value for an error message (never a huge integer's digits)."""
    if isinstance(x, int) and not isinstance(x, bool) and x.bit_length() > 200:
        return f"an integer of about {int(x.bit_length() * 0.30103) + 1} digits"
    try:
        text = repr(x)
    except (ValueError, RecursionError):
        return f"a {type(x).__name__}"
    return text if len(text) <= limit else text[:limit - 3] + "..."


class Layout(NamedTuple):
    """What a builder hands to :class:`~kop.games.trees.tree.GameTree`: its constructor's arguments.

    ``offsets``, ``kind``, ``payoffs`` and ``probs`` in breadth-first order (see
    :mod:`kop.games.trees.tree`); ``labels`` and ``moves`` by node index; ``simultaneous``
    maps each simultaneous node to (its players' indices, the number of moves of each).
    """

    players: tuple[Player, ...]
    offsets: np.ndarray
    kind: np.ndarray
    payoffs: np.ndarray
    probs: np.ndarray | None = None
    labels: Mapping[int, str] | None = None
    moves: Mapping[int, str] | None = None
    integral: bool = False
    simultaneous: Mapping[int, tuple[tuple[int, ...], tuple[int, ...]]] | None = None

    @classmethod
    def from_lists(cls, players: tuple[Player, ...], offsets: list[int], kind: list[int], payoffs: list[float],
                   probs: Mapping[int, float], labels: Mapping[int, str] | None, moves: Mapping[int, str] | None,
                   integral: bool | None = None,
                   simultaneous: Mapping[int, tuple[tuple[int, ...], tuple[int, ...]]] | None = None) -> Layout:
        """The layout of lists a breadth-first builder filled: *payoffs* row after row, *probs* by node
        (NaN elsewhere); *integral* None: whether every payoff is a whole number below 2^53.

        >>> lay = Layout.from_lists((Player("A"),), [1, 3, 3, 3], [CHANCE, LEAF, LEAF], [1.0, 2.0],
        ...                         {1: 0.5, 2: 0.5}, None, None)
        >>> lay.probs.tolist(), lay.payoffs.tolist(), lay.integral
        ([nan, 0.5, 0.5], [[1.0], [2.0]], True)
        """
        prob_arr = None
        if probs:
            prob_arr = np.full(len(kind), np.nan)
            prob_arr[list(probs)] = list(probs.values())
        pay = np.asarray(payoffs, dtype=np.float64).reshape(-1, len(players))
        if integral is None:
            integral = bool(np.all(np.isfinite(pay)) and np.all(pay == np.round(pay))
                            and np.all(np.abs(pay) < MAX_EXACT_INT))
        return cls(players, np.asarray(offsets), np.asarray(kind), pay, prob_arr, labels, moves, integral,
                   simultaneous)
