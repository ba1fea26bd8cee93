"""OpenSpiel games as games with information sets, with each player's information state everywhere.

:func:`game_from_openspiel` enumerates every history of a ``pyspiel`` game (up to *max_nodes*;
beyond, a :class:`kop.errors.LimitError`: the limit is explicit).  Player i's information sets are the
classes of ``information_state_string(i)`` at i's own histories; :attr:`InfoGame.states` keeps
i's information state at every history (chance and terminal ones too), so that in
:func:`kop.game_model` i's knowledge is defined everywhere.  Simultaneous-move games are read
through ``pyspiel.convert_to_turn_based``.  Players are ``P0``, ``P1``, ...; action names are
``action_to_string``; payoffs are ``returns()``.

The histories are numbered breadth first, as kop's trees (:attr:`InfoGame.histories` gives
the action ids from the root of each), so another module can map a ``pyspiel`` state to its
node with :meth:`OpenSpielGame.node_of`.

Example
-------
>>> import kop
>>> kuhn = kop.game_from_openspiel("kuhn_poker")
>>> kuhn
InfoGame(players=('P0', 'P1'), nodes=58, sets=12, perfect_information=False)
>>> kop.perfect_recall(kuhn)
True
>>> m = kop.game_model(kuhn)
>>> m.satisfies("K_P0 ~chance_Deal_0")     # at the root, P0 knows nothing; no card is dealt yet
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kop.syntax import arguments
from kop.errors import LimitError
from kop.games.errors import TreeError
from kop.games.imperfect.game import InfoGame, InfoSet
from kop.games.trees.prefix import tree_from_prefix
from kop.games.trees.tree import CHANCE, LEAF, Player
from kop.games.search.openspiel import _pyspiel, load_openspiel

#: the doctests need this optional package (kop/conftest.py skips them without it)
__doctest_requires__ = ("pyspiel",)

__all__ = ["game_from_openspiel", "OpenSpielGame", "MAX_NODES"]

#: the most histories read unless told otherwise
MAX_NODES = 1_000_000


class OpenSpielGame(InfoGame):
    """An :class:`InfoGame` read from OpenSpiel, with the action ids of every history.

    Examples
    --------
    >>> import kop, pyspiel
    >>> g = kop.game_from_openspiel("kuhn_poker")
    >>> state = pyspiel.load_game("kuhn_poker").new_initial_state().child(0).child(1)
    >>> g.node_of(state), g.histories[g.node_of(state)]
    (4, (0, 1))
    """

    __slots__ = ("histories", "_index")
    histories: tuple[tuple[int, ...], ...]
    _index: dict[tuple[int, ...], int]

    def node_of(self, state: Any) -> int:
        """The node (breadth first) of a ``pyspiel`` state of this game."""
        key = tuple(int(a) for a in state.history())
        if key not in self._index:
            raise TreeError(f"history {list(key)} is not a node of {self.name}")
        return int(self._index[key])


def game_from_openspiel(game: Any, *, max_nodes: int = MAX_NODES) -> OpenSpielGame:
    """Every history of an OpenSpiel game, with information sets and information states.

    Parameters
    ----------
    game : str or pyspiel.Game
        A game or its name with parameters (``"leduc_poker"``, ``"liars_dice(dice_sides=3)"``).
    max_nodes : int
        The most histories to read; beyond, :class:`kop.errors.LimitError`.

    Returns
    -------
    OpenSpielGame

    Examples
    --------
    >>> import kop
    >>> g = kop.game_from_openspiel("leduc_poker")
    >>> len(g), len(g.sets)
    (9457, 936)
    >>> try:
    ...     kop.game_from_openspiel("leduc_poker", max_nodes=1000)
    ... except kop.KopError as err:
    ...     print(err)
    leduc_poker has more than 1000 histories (max_nodes=1000)
    """
    pyspiel = _pyspiel()
    if not isinstance(game, (str, pyspiel.Game)):
        raise arguments.fail("game", "an OpenSpiel game name or a pyspiel.Game", game)
    name = game if isinstance(game, str) else str(game)
    g = load_openspiel(game) if isinstance(game, str) else game
    if g.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        g = pyspiel.convert_to_turn_based(g)
    if not g.get_type().provides_information_state_string:
        raise TreeError(f"{name} does not provide information_state_string: kop cannot read its information sets")
    walk = _Walk(name, g.num_players(), pyspiel.PlayerId.CHANCE)
    stack: list[tuple[Any, int]] = [(g.new_initial_state(), 0)]
    while stack:
        s, d = stack.pop()
        if len(walk.kinds) >= max_nodes:
            raise LimitError(f"{name} has more than {max_nodes} histories (max_nodes={max_nodes})")
        acts = walk.visit(s, d)
        for a in reversed(acts):
            stack.append((s.child(a), d + 1))
    return walk.game()


class _Walk:
    """The histories of an OpenSpiel game met depth first (prefix order), as :func:`tree_from_prefix` and
    the information sets need them."""

    def __init__(self, name: str, n_players: int, chance: int) -> None:
        self.name, self.n_players, self.chance = name, n_players, chance
        self.depth: list[int] = []
        self.kinds: list[int] = []
        self.n_kids: list[int] = []
        self.leaves: list[list[float]] = []
        self.chance_nodes: list[int] = []
        self.probs: list[float] = []
        self.moves: list[tuple[int, int, str]] = []
        self.hist: list[tuple[int, ...]] = []
        self.state_ids: list[dict[str, int]] = [{} for _ in range(n_players)]
        self.states: list[list[int]] = [[] for _ in range(n_players)]
        self.set_of: dict[tuple[int, str], int] = {}
        self.set_actions: list[tuple[str, ...]] = []
        self.set_player: list[int] = []
        self.set_label: list[str] = []
        self.node_set: list[int] = []

    def visit(self, s: Any, d: int) -> list[int]:
        """Note state *s* at depth *d*; its actions (none at a leaf)."""
        i = len(self.kinds)
        self.depth.append(d)
        self.hist.append(tuple(int(a) for a in s.history()))
        for p in range(self.n_players):
            try:
                key = s.information_state_string(p)
            except Exception:  # noqa: BLE001 - a state without it: a cell of its own
                key = f"\0{i}"
            self.states[p].append(self.state_ids[p].setdefault(key, len(self.state_ids[p])))
        if s.is_terminal():
            self.kinds.append(LEAF)
            self.n_kids.append(0)
            self.leaves.append([float(x) for x in s.returns()])
            self.node_set.append(-1)
            return []
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            acts = [a for a, _ in outcomes]
            self.kinds.append(CHANCE)
            self.chance_nodes.append(i)
            self.probs.extend(float(p) for _, p in outcomes)
            self.node_set.append(-1)
            who = self.chance
        else:
            who = s.current_player()
            acts = list(s.legal_actions())
            self.kinds.append(who)
            self.node_set.append(self.info_set(s, who, acts))
        self.n_kids.append(len(acts))
        for r, a in enumerate(acts):
            self.moves.append((i, r, s.action_to_string(who, a)))
        return acts

    def info_set(self, s: Any, who: int, acts: list[int]) -> int:
        """The number of *who*'s information set at *s* (new if its information state is new)."""
        names = tuple(s.action_to_string(who, a) for a in acts)
        info = s.information_state_string(who)
        k = self.set_of.get((who, info))
        if k is None:
            k = self.set_of[(who, info)] = len(self.set_actions)
            self.set_actions.append(names)
            self.set_player.append(who)
            self.set_label.append(info)
        elif self.set_actions[k] != names:
            raise TreeError(f"{self.name}: information state {info!r} of P{who} has actions {self.set_actions[k]} "
                            f"at one history and {names} at history {list(self.hist[-1])}")
        return k

    def game(self) -> OpenSpielGame:
        """The game of the histories met."""
        n_players = self.n_players
        players = tuple(Player(f"P{i}", "max") for i in range(n_players))
        payoffs = np.array(self.leaves, dtype=np.float64).reshape(-1, n_players)
        integral = bool(np.all(payoffs == np.round(payoffs)))
        depth_arr = np.asarray(self.depth, dtype=np.int64)
        tree = tree_from_prefix(players, depth_arr, np.asarray(self.kinds, dtype=np.int64),
                                np.asarray(self.n_kids, dtype=np.int64), payoffs, integral, {}, self.moves,
                                np.asarray(self.chance_nodes, dtype=np.int64), np.asarray(self.probs, dtype=np.float64))
        order = np.argsort(depth_arr, kind="stable")  # breadth first, as tree_from_prefix lays the tree out
        node_set_bfs = np.asarray(self.node_set, dtype=np.int64)[order]
        members: list[list[int]] = [[] for _ in self.set_actions]
        for i, k in enumerate(node_set_bfs.tolist()):
            if k >= 0:
                members[k].append(i)
        numbers = [0] * n_players
        sets = []
        for k, acts_k in enumerate(self.set_actions):
            p = self.set_player[k]
            numbers[p] += 1
            sets.append(InfoSet(k, f"P{p}", numbers[p], acts_k, tuple(members[k]), self.set_label[k]))
        st = {f"P{p}": np.asarray(self.states[p], dtype=np.int64)[order] for p in range(n_players)}
        out = OpenSpielGame(tree, node_set_bfs, sets, st, name=f"openspiel:{self.name}")
        out.histories = tuple(self.hist[j] for j in order.tolist())
        out._index = {h: j for j, h in enumerate(out.histories)}
        return out
