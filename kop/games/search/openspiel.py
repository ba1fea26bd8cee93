"""The OpenSpiel bridge: any perfect-information, sequential ``pyspiel`` game as a kop game.

``from_openspiel(game)`` wraps a loaded ``pyspiel`` game (or a name such as
``"tic_tac_toe"`` or ``"connect_four(rows=5)"``) as an implicit game
(:mod:`kop.games.search.implicit`): states are ``pyspiel.State`` values (never
mutated: moves use ``state.child``), moves are OpenSpiel actions, payoffs are
``state.returns()``, and every player maximizes its return.  Chance nodes
(``chance_outcomes``) are supported.  Imperfect-information and simultaneous-
move games are refused with a clear error: kop's strategies need perfect
information.  open-spiel is an optional dependency (``pip install open_spiel``).

Players are called ``P0``, ``P1``, ... unless *players* names them (for
example ``("x", "o")`` for tic-tac-toe).

The transposition key of a state is, by default, its action history
(``key="history"``, chance outcomes included): OpenSpiel states are determined by
it, so the search is exact in every perfect-information game, but two move orders
that reach the same position are searched twice.  ``key="string"`` keys a state by
``(current player, str(state))`` -- OpenSpiel's printed position -- which merges
transpositions and is much faster where the printout is the whole state
(tic-tac-toe, connect four), but is wrong where the printout omits what the
future depends on: pig prints the scores, not the turn counter that its
``horizon`` counts, so ``key="string"`` merges states with different futures and
gets the wrong value.  ``"state"`` is an older name of ``"string"``.

Example
-------
>>> import kop
>>> ttt = kop.from_openspiel("tic_tac_toe", players=("x", "o"), key="string")
>>> [p.name for p in ttt.players], ttt.move_name(ttt.initial_state(), 4)
(['x', 'o'], 'x(1,1)')
>>> kop.search(ttt, "alphabeta").value
(0, 0)
>>> pig = "pig(winscore=3,horizon=4,diceoutcomes=2)"
>>> kop.search(kop.from_openspiel(pig), "Mh").value                  # exact
(0.125, -0.125)
>>> kop.search(kop.from_openspiel(pig, key="string"), "Mh").value    # the printout omits the turn
(-0.125, 0.125)
"""

from __future__ import annotations

import difflib
import os
import sys
from collections.abc import Sequence
from typing import Any

from kop.games.errors import GameError
from kop.syntax import arguments
from kop.syntax.arguments import fail
from kop.games.search.implicit import CHANCE, ImplicitGame
from kop.games.trees.tree import Player

__all__ = ["from_openspiel", "OpenSpielGame", "load_openspiel", "KEYS"]

#: The transposition keys ``from_openspiel`` accepts ("state" is an older name of "string").
KEYS = ("history", "string", "state")

#: the doctests need this optional package (kop/conftest.py skips them without it)
__doctest_requires__ = ("pyspiel",)


def _pyspiel() -> Any:
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise GameError("the OpenSpiel bridge needs open-spiel: pip install open_spiel") from None
    return pyspiel


def load_openspiel(spec: str) -> Any:
    """A ``pyspiel`` game from a name with optional parameters, e.g. ``connect_four(rows=5)``."""
    pyspiel = _pyspiel()
    spec = spec.strip()
    if not spec:
        raise GameError("an OpenSpiel game name is needed, e.g. openspiel:tic_tac_toe")
    name = spec.split("(", 1)[0].strip()
    known = list(pyspiel.registered_names())
    if name not in known:
        near = difflib.get_close_matches(name, known, n=5, cutoff=0.6)
        hint = (f"; did you mean {', '.join(near)}?" if near
                else f" (it has {len(known)}, e.g. tic_tac_toe, connect_four, nim)")
        raise GameError(f"OpenSpiel has no game {name!r}{hint}")
    try:
        with _quiet_stderr():   # OpenSpiel prints its errors on stderr before raising them
            return pyspiel.load_game(spec)
    except Exception as exc:   # SpielError lists every game; keep the first line
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise GameError(f"OpenSpiel cannot load {spec!r}: {first.removeprefix('OpenSpiel exception: ')}") from None


class _quiet_stderr:
    """Send file descriptor 2 to /dev/null for the duration (C++ code writes there directly)."""

    def __enter__(self) -> None:
        try:
            sys.stderr.flush()
            self.saved: int | None = os.dup(2)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 2)
            os.close(devnull)
        except OSError:
            self.saved = None

    def __exit__(self, *exc: Any) -> None:
        if self.saved is not None:
            os.dup2(self.saved, 2)
            os.close(self.saved)


class OpenSpielGame(ImplicitGame):
    """A perfect-information sequential ``pyspiel`` game as an implicit game (see the module docstring)."""

    def __init__(self, game: Any, players: Sequence[str] | None = None, key: str = "history"):
        pyspiel = _pyspiel()
        if isinstance(game, str):
            game = load_openspiel(game)
        if not isinstance(game, pyspiel.Game):
            raise fail("game", "a pyspiel.Game or an OpenSpiel game name such as 'tic_tac_toe'", game)
        if players is not None:
            players = [arguments.text(x, "players", "a list of player names") for x in
                       arguments.items(players, "players", "a list of player names")]
        gtype = game.get_type()
        name = gtype.short_name
        if gtype.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
            raise GameError(f"OpenSpiel game {name!r} has simultaneous moves; kop's strategies handle "
                            "sequential games only (simultaneous-move nodes are not supported yet)")
        if gtype.information != pyspiel.GameType.Information.PERFECT_INFORMATION:
            raise GameError(f"OpenSpiel game {name!r} has imperfect information; kop's strategies need "
                            "perfect information (imperfect-information games are not supported yet)")
        if key not in KEYS:
            raise GameError(f"key must be 'history' (exact) or 'string' (faster, see kop.from_openspiel), "
                            f"not {key!r}")
        n = game.num_players()
        names = [f"P{i}" for i in range(n)] if players is None else list(players)
        if len(names) != n:
            raise GameError(f"OpenSpiel game {name!r} has {n} players, but {len(names)} names were given")
        self.game = game
        self.name = str(game)
        self.players = tuple(Player(str(x), "max") for x in names)
        self._by_history = key == "history"
        #: the transposition key in use ("history" or "string"; "state" reads as "string")
        self.key_name = "history" if self._by_history else "string"
        self._chance_id = int(pyspiel.PlayerId.CHANCE)

    def initial_state(self) -> Any:
        return self.game.new_initial_state()

    def to_move(self, state: Any) -> int:
        p = state.current_player()
        return CHANCE if p == self._chance_id else int(p)

    def legal_moves(self, state: Any) -> list[int]:
        return list(state.legal_actions())

    def chance_outcomes(self, state: Any) -> list[tuple[int, float]]:
        return [(int(a), float(p)) for a, p in state.chance_outcomes()]

    def apply(self, state: Any, move: Any) -> Any:
        if state.is_terminal():
            raise GameError(f"move {move!r} after the end of the game:\n{state}")
        if isinstance(move, bool) or not isinstance(move, int):
            raise GameError(f"move {move!r} is not an OpenSpiel action (an integer) in {self.name}")
        try:
            return state.child(move)
        except Exception:
            raise GameError(f"move {move!r} is not legal in {self.name} at\n{state}\n"
                            f"(legal actions: {state.legal_actions()})") from None

    def is_terminal(self, state: Any) -> bool:
        return bool(state.is_terminal())

    def payoffs(self, state: Any) -> list[float]:
        return list(state.returns())

    @property
    def key_exact(self) -> bool:
        """Whether the transposition key is exact in every game (the action history), rather than the
        printed position, which merges states whose printout omits part of the state (pig's turn).

        >>> from_openspiel("tic_tac_toe", key="string").key_exact
        False
        """
        return self._by_history

    def key(self, state: Any) -> Any:
        if self._by_history:
            return tuple(state.history())
        return (state.current_player(), str(state))

    def move_name(self, state: Any, move: Any) -> str:
        return str(state.action_to_string(state.current_player(), move))

    def __repr__(self) -> str:
        return f"OpenSpielGame({self.name!r}, players={tuple(p.name for p in self.players)})"


def from_openspiel(game: Any, players: Sequence[str] | None = None, *, key: str = "history") -> OpenSpielGame:
    """Wrap a ``pyspiel`` game (or its name) as a kop game; its players are ``game.players``.

    Parameters
    ----------
    game : a ``pyspiel.Game`` or a name like ``"tic_tac_toe"`` / ``"connect_four(rows=5)"``
    players : names of the players (default ``P0``, ``P1``, ...)
    key : ``"history"`` (the default: the action history, exact in every game) or ``"string"``
        (the player to move and the printed position: faster, exact only where the printout
        is the whole state; see the module docstring)

    Returns
    -------
    OpenSpielGame
        An implicit game for :func:`kop.search`.

    Examples
    --------
    >>> g = from_openspiel("pig(winscore=3,horizon=4,diceoutcomes=2)")
    >>> g.key(g.apply(g.initial_state(), 1))   # P0 chose to stop: one action in the history
    (1,)

    References
    ----------
    M. Lanctot et al., *OpenSpiel: A Framework for Reinforcement Learning in Games*, arXiv:1908.09453
    (2019).
    """
    return OpenSpielGame(game, players, key)
