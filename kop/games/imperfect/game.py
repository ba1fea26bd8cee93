"""Extensive-form games with information sets: a game tree and, per player, a partition of its nodes.

An :class:`InfoGame` is a :class:`~kop.games.trees.tree.GameTree` (the moves, chance and payoffs)
with the players' personal information sets: each set belongs to one player, holds some of that
player's nodes, and all its nodes have the same actions, in the same order, with the same names.
A player cannot tell the nodes of one of its sets apart: the sets are the cells of the player's
knowledge partition at its own nodes (SPEC §6).  A game of perfect information has one node in
every set.

Three sources:

* a Gambit ``.efg`` file or text (:func:`kop.io.infogame.load_game`, :meth:`InfoGame.load`): Gambit numbers the sets
  of each player, so a set never mixes players there; the reader checks that every node of a set
  lists the same actions (the first error names its line);
* a pygambit game (:func:`kop.io.gambit.from_pygambit`, through its ``.efg`` text);
* a tree and a mapping from nodes to set labels (:meth:`InfoGame.from_tree`), which checks that a
  set does not mix players and that its nodes have the same number and names of actions.

OpenSpiel games are read by :mod:`kop.io.openspiel`, which also keeps each player's
information state at every history (:attr:`InfoGame.states`).

Example
-------
>>> import kop
>>> g = kop.loads_game('EFG 2 R "" { "A" "B" } p "" 1 1 "" { "x" "y" } 0 '
...                    'p "" 2 1 "" { "l" "r" } 0 t "" 1 "" { 1 0 } t "" 0 '
...                    'p "" 2 1 "" { "l" "r" } 0 t "" 0 t "" 1')
>>> g
InfoGame(players=('A', 'B'), nodes=7, sets=2, perfect_information=False)
>>> g.sets[1]
InfoSet(index=1, player='B', number=1, actions=('l', 'r'), nodes=(1, 2), label='1')
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from kop.syntax import arguments
from kop.games.errors import EfgError, TreeError
from kop.games.trees.tree import CHANCE, LEAF as LEAF_KIND, GameTree
from kop.games.trees.checks import tree_argument

__all__ = ["InfoSet", "InfoGame", "numbered_sets", "game_argument"]


@dataclass(frozen=True)
class InfoSet:
    """One personal information set: its player, its actions and its nodes (breadth-first indices).

    Attributes
    ----------
    index : int
        Its position in :attr:`InfoGame.sets`.
    player : str
        The player who moves at its nodes.
    number : int
        Its number among the player's sets (Gambit's number in an ``.efg``; else from 1 in
        order of first appearance).
    actions : tuple of str
        The names of its actions, in order.
    nodes : tuple of int
        Its nodes, in breadth-first order.
    label : str
        Its name: the number as text, or OpenSpiel's information state string.
    line : int or None
        The line of the ``.efg`` where it first appears.

    Examples
    --------
    >>> InfoSet(0, "A", 1, ("x", "y"), (0,))
    InfoSet(index=0, player='A', number=1, actions=('x', 'y'), nodes=(0,), label='1')
    """

    index: int
    player: str
    number: int
    actions: tuple[str, ...]
    nodes: tuple[int, ...]
    label: str = ""
    line: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not self.label:
            object.__setattr__(self, "label", str(self.number))

    def __repr__(self) -> str:
        return (f"InfoSet(index={self.index}, player={self.player!r}, number={self.number}, "
                f"actions={self.actions!r}, nodes={self.nodes!r}, label={self.label!r})")


class InfoGame:
    """A game tree with information sets (see the module docstring).

    Use :func:`loads_game`, :func:`load_game` or :meth:`from_tree` rather than the constructor,
    which checks nothing.

    Parameters
    ----------
    tree : GameTree
        The moves, chance and payoffs (no simultaneous-move nodes).
    node_set : array of int
        Per node (breadth first), the index of its information set in *sets*, or -1 (chance and
        terminal nodes).
    sets : sequence of InfoSet
        The personal information sets.
    states : mapping of player name to array of int, optional
        Each player's information state at every node (equal numbers: the player cannot tell
        the nodes apart), where the source defines it everywhere (OpenSpiel).
    name : str
        Where the game comes from (a file, ``openspiel:NAME``).

    Examples
    --------
    >>> import kop
    >>> t = kop.GameTree.build(["A", "B"], ("A", [("B", [(1, 0), (0, 1)]), ("B", [(0, 1), (1, 0)])]))
    >>> g = kop.InfoGame.from_tree(t, {1: "h", 2: "h"})
    >>> [(s.player, s.nodes) for s in g.sets]
    [('A', (0,)), ('B', (1, 2))]
    >>> g.player_sets("B")[0].label
    'h'
    """

    __slots__ = ("tree", "node_set", "sets", "states", "name", "_parent", "_rank")

    def __init__(self, tree: GameTree, node_set: np.ndarray, sets: Sequence[InfoSet],
                 states: Mapping[str, np.ndarray] | None = None, name: str = ""):
        self.tree = tree
        self.node_set = np.array(node_set, dtype=np.int64)
        self.node_set.setflags(write=False)
        self.sets = tuple(sets)
        self.states = None if states is None else {k: np.asarray(v, dtype=np.int64) for k, v in states.items()}
        self.name = name
        n = len(tree)
        counts: np.ndarray = np.asarray(np.diff(np.asarray(tree.offsets, dtype=np.int64)), dtype=np.int64)
        parent = np.full(n, -1, dtype=np.int64)
        parent[1:] = np.repeat(np.arange(n, dtype=np.int64), counts)
        rank = np.zeros(n, dtype=np.int64)
        rank[1:] = np.arange(1, n, dtype=np.int64) - np.repeat(tree.offsets[:-1].astype(np.int64), counts)
        self._parent, self._rank = parent, rank

    # -- reading ---------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> InfoGame:
        """A game from a Gambit ``.efg`` file (:func:`kop.io.infogame.load_game`).

        >>> from kop.games.imperfect.examples import example_path
        >>> InfoGame.load(example_path("driver"))
        InfoGame(players=('Driver',), nodes=5, sets=1, perfect_information=False)
        """
        from kop.io.infogame import load_game

        return load_game(path)

    @classmethod
    def loads(cls, text: str, name: str = "") -> InfoGame:
        """A game from the text of a Gambit ``.efg`` file (:func:`kop.io.infogame.loads_game`).

        >>> InfoGame.loads('EFG 2 R "" { "A" } p "" 1 1 "" { "x" "y" } 0 t "" 1 "" { 1 } t "" 2 "" { 0 }')
        InfoGame(players=('A',), nodes=3, sets=1, perfect_information=True)
        """
        from kop.io.infogame import loads_game

        return loads_game(text, name)

    @classmethod
    def from_pygambit(cls, game: Any) -> InfoGame:
        """A game from a pygambit game, through its ``.efg`` text (:func:`kop.io.gambit.from_pygambit`)."""
        from kop.io.gambit import from_pygambit

        return from_pygambit(game)

    @classmethod
    def from_tree(cls, tree: GameTree, sets: Mapping[Any, Hashable] | None = None, name: str = "") -> InfoGame:
        """A game from a tree and the information sets of some nodes (label -> one set).

        Parameters
        ----------
        tree : GameTree
            The game tree (sequential: no simultaneous-move nodes).
        sets : mapping of node reference to hashable, optional
            Node (a label, a ``root/i/j`` path or an index) -> the label of its set; nodes given
            the same label are one set.  A personal node left out is a set of its own.

        Returns
        -------
        InfoGame

        Raises
        ------
        TreeError
            A set that mixes players, or whose nodes differ in their number or names of
            actions, or a chance or terminal node given a set; the message names the nodes.

        Examples
        --------
        >>> import kop
        >>> t = kop.GameTree.build(["A", "B"], ("A", [("B", [(1, 0), (0, 1)]), (1, 1)]))
        >>> try:
        ...     kop.InfoGame.from_tree(t, {0: "h", 1: "h"})
        ... except kop.TreeError as err:
        ...     print(err)
        information set 'h' mixes players: root is A's node, root/0 is B's
        """
        tree_argument(tree)
        tree.require_sequential("a game with information sets")
        kind = tree.kind
        n = len(tree)
        groups: dict[Hashable, list[int]] = {}
        given: dict[int, Hashable] = {}
        for ref, lab in (sets or {}).items():
            i = tree.node(ref).index
            if int(kind[i]) < 0:
                raise TreeError(f"{tree.path_name(i)}: a {'chance' if int(kind[i]) == CHANCE else 'terminal'} "
                                f"node has no information set (given {lab!r})")
            given[i] = lab
        for i in np.flatnonzero(kind >= 0).tolist():
            groups.setdefault(given[i] if i in given else ("#node", i), []).append(i)
        offsets = tree.offsets
        node_set = np.full(n, -1, dtype=np.int64)
        out: list[InfoSet] = []
        numbers: dict[int, int] = {}
        for lab, nodes in sorted(groups.items(), key=lambda kv: kv[1][0]):
            first = nodes[0]
            pl = int(kind[first])
            names = _action_names(tree, first)
            for j in nodes[1:]:
                if int(kind[j]) != pl:
                    raise TreeError(f"information set {lab!r} mixes players: {tree.path_name(first)} is "
                                    f"{tree.players[pl].name}'s node, {tree.path_name(j)} is "
                                    f"{tree.players[int(kind[j])].name}'s")
                if int(offsets[j + 1] - offsets[j]) != len(names):
                    raise TreeError(f"information set {lab!r}: {tree.path_name(first)} has {len(names)} actions, "
                                    f"{tree.path_name(j)} has {int(offsets[j + 1] - offsets[j])}")
                if _action_names(tree, j) != names:
                    raise TreeError(f"information set {lab!r}: {tree.path_name(first)} has actions {names}, "
                                    f"{tree.path_name(j)} has {_action_names(tree, j)}")
            numbers[pl] = numbers.get(pl, 0) + 1
            label = str(lab) if not isinstance(lab, tuple) else str(numbers[pl])
            node_set[nodes] = len(out)
            out.append(InfoSet(len(out), tree.players[pl].name, numbers[pl], names, tuple(nodes), label))
        return cls(tree, node_set, out, name=name)

    # -- questions -------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        """The players' names, in the game's order."""
        return self.tree.player_names

    @property
    def perfect_information(self) -> bool:
        """Whether every information set has one node."""
        return all(len(s.nodes) == 1 for s in self.sets)

    def player_sets(self, player: str | int) -> tuple[InfoSet, ...]:
        """The information sets of *player* (a name or an index), in order."""
        name = self.players[self.player_index(player)]
        return tuple(s for s in self.sets if s.player == name)

    def player_index(self, player: str | int) -> int:
        """The index of *player* (a name, or an index already); a located error if unknown."""
        if isinstance(player, (int, np.integer)) and not isinstance(player, bool):
            if not 0 <= int(player) < len(self.players):
                raise TreeError(f"no player {player}: the players are 0..{len(self.players) - 1} "
                                f"({', '.join(self.players)})")
            return int(player)
        if player not in self.players:
            raise TreeError(f"no player {player!r}: the players are {', '.join(self.players)}")
        return self.players.index(str(player))

    def set_of(self, node: int) -> InfoSet | None:
        """The information set of *node* (breadth-first index), or None at chance and terminal nodes."""
        k = int(self.node_set[node])
        return None if k < 0 else self.sets[k]

    def cell(self, player: str | int, node: int) -> tuple[int, ...]:
        """The nodes *player* cannot tell apart from *node*: its knowledge cell there.

        With information states (:attr:`states`, OpenSpiel) the nodes with the player's state;
        else, at the player's own nodes, its information set; elsewhere the node alone (as in
        :func:`kop.game_model`).

        >>> import kop
        >>> g = kop.forgetful_cards()
        >>> g.cell("Bob", 3), g.cell("Ann", 3)
        ((3, 5), (3,))
        """
        k = self.player_index(player)
        if self.states is not None:
            st = self.states[self.players[k]]
            return tuple(np.flatnonzero(st == st[node]).tolist())
        if int(self.tree.kind[node]) == k:
            return self.sets[int(self.node_set[node])].nodes
        return (int(node),)

    def parent(self, node: int) -> int:
        """The parent of *node* (-1 for the root)."""
        return int(self._parent[node])

    @property
    def parents(self) -> np.ndarray:
        """Per node, its parent (-1 for the root)."""
        return self._parent

    @property
    def ranks(self) -> np.ndarray:
        """Per node, its position among its parent's children (the action taken to reach it)."""
        return self._rank

    def action_name(self, node: int) -> str:
        """The name of the action that leads to *node* (its parent's set's action, or the move label)."""
        p = int(self._parent[node])
        if p < 0:
            return ""
        r = int(self._rank[node])
        k = int(self.node_set[p])
        if k >= 0:
            return self.sets[k].actions[r]
        return self.tree.moves.get(node) or str(r)

    def history(self, node: int) -> tuple[int, ...]:
        """The nodes from the root to *node*, both included."""
        out = []
        while node >= 0:
            out.append(node)
            node = int(self._parent[node])
        return tuple(reversed(out))

    def node_name(self, node: int) -> str:
        """A readable name of *node*: its label, else its path of action names from the root."""
        lab = self.tree.labels.get(node)
        if lab:
            return lab
        steps = [self._step(i) for i in self.history(node)[1:]]
        return "root" if not steps else "/".join(steps)

    def _step(self, node: int) -> str:
        """The action name leading to *node*, or ``#r`` (its position) if a sibling has that name too."""
        p = int(self._parent[node])
        names = [self.action_name(c) for c in range(int(self.tree.offsets[p]), int(self.tree.offsets[p + 1]))]
        name = self.action_name(node)
        return name if names.count(name) == 1 and "/" not in name else f"#{int(self._rank[node])}"

    def __len__(self) -> int:
        return len(self.tree)

    def __repr__(self) -> str:
        return (f"InfoGame(players={self.players!r}, nodes={len(self.tree)}, sets={len(self.sets)}, "
                f"perfect_information={self.perfect_information})")


def _action_names(tree: GameTree, i: int) -> tuple[str, ...]:
    lo, hi = int(tree.offsets[i]), int(tree.offsets[i + 1])
    return tuple(tree.moves.get(j) or str(j - lo) for j in range(lo, hi))


def game_argument(game: Any) -> InfoGame:
    """*game* as an :class:`InfoGame`: an InfoGame, a GameTree (perfect information), a pygambit
    game, a ``.efg`` path (a ``.json`` kop-tree/1 path: perfect information), or
    ``openspiel:NAME`` / a pyspiel game.

    >>> import kop
    >>> game_argument(kop.figure2())
    InfoGame(players=('A', 'B'), nodes=22, sets=10, perfect_information=True)
    """
    if isinstance(game, InfoGame):
        return game
    if isinstance(game, GameTree):
        return InfoGame.from_tree(game)
    if isinstance(game, (str, os.PathLike)):
        s = os.fspath(game)
        if s.startswith("openspiel:"):
            from kop.io.openspiel import game_from_openspiel

            return game_from_openspiel(s[len("openspiel:"):])
        if s.lower().endswith(".json"):  # a kop-tree/1 file: perfect information
            return InfoGame.from_tree(GameTree.load(s), name=s)
        return InfoGame.load(s)
    mod = type(game).__module__ or ""
    if mod.startswith("pygambit"):
        return InfoGame.from_pygambit(game)
    if mod.startswith("pyspiel"):
        from kop.io.openspiel import game_from_openspiel

        return game_from_openspiel(game)
    raise TreeError(f"expected a game (an InfoGame, a GameTree, a .efg path, openspiel:NAME, a pygambit or "
                    f"pyspiel game), not {type(game).__name__}")


def numbered_sets(tree: GameTree, node_set: np.ndarray, keys: Sequence[tuple[int, int]],
                  lines: Sequence[int | None]) -> list[InfoSet]:
    """The InfoSet values of sets numbered by *node_set* (keys: (player number, set number) each).

    Node ``i`` is in set ``node_set[i]`` (``-1``: in none); *keys* gives each set's player (from 1)
    and its number in the file, *lines* the line that opened it (None when unknown).  The actions of a
    set are those of its first node.

    >>> import numpy as np, kop
    >>> tree = kop.absent_minded_driver().tree
    >>> [h.nodes for h in numbered_sets(tree, np.array([0, 0, -1, -1, -1]), [(1, 1)], [None])]
    [(0, 1)]
    """
    inside = np.flatnonzero(node_set >= 0)
    order = inside[np.argsort(node_set[inside], kind="stable")]
    bounds = np.searchsorted(node_set[order], np.arange(len(keys) + 1)).tolist()
    flat = order.tolist()
    members = [flat[bounds[j]:bounds[j + 1]] for j in range(len(keys))]
    offsets = tree.offsets
    moves = tree.moves
    plain: dict[int, tuple[str, ...]] = {}
    out = []
    names = tree.player_names
    for j, ((pl, num), nodes) in enumerate(zip(keys, members)):
        first = nodes[0]
        lo, hi = int(offsets[first]), int(offsets[first + 1])
        if moves and any(c in moves for c in range(lo, hi)):
            acts = _action_names(tree, first)
        else:
            acts = plain.get(hi - lo) or plain.setdefault(hi - lo, tuple(map(str, range(hi - lo))))
        out.append(InfoSet(j, names[pl - 1], num, acts, tuple(nodes), str(num), lines[j]))
    return out
