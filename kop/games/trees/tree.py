"""Game trees: players with goals, decision, chance and leaf nodes, and an array layout.

A :class:`GameTree` is an immutable value.  Internal nodes name who moves and have
ordered children; leaves carry one payoff per player; chance nodes carry one
probability per child.  Every player has a goal: ``"max"`` (maximize its own
payoff component) or ``"min"`` (minimize it).  The paper's convention (Sang &
Chen, *Beyond Minimax*, Section "Minimax and M* Algorithms") is A ``max`` and B
``min``; Poole & Mackworth's n-player convention is every player ``max``.

Nodes are stored breadth first, so the children of a node, and the nodes of one
depth, are contiguous.  The layout (numpy arrays) is what the vectorized
strategies in :mod:`kop.games.strategies.engine` sweep, one level at a time:

* ``offsets[i]:offsets[i+1]`` are the children of node ``i`` (empty for a leaf);
* ``kind[i]`` is the index of the player moving at ``i``, :data:`LEAF` or :data:`CHANCE`;
* ``heights[i]`` is the height of ``i`` (0 at leaves);
* ``payoffs`` is a ``(leaves, players)`` float matrix, leaves in breadth-first order;
* ``probs[i]`` is the probability of the edge into ``i`` when its parent is a chance node.

:class:`Node` is a light view (tree, index) with the domain API: ``children``,
``player``, ``payoff``, ``label``, ``move``, ``height``, ``path``.

Example
-------
>>> from kop.games.trees.tree import GameTree
>>> t = GameTree.build(["A", "B"], ("A", [("B", [(4, 7), (8, 9)]), (9, 4)]))
>>> t
GameTree(players=(A:max, B:min), nodes=5, leaves=3, height=2)
>>> t.root.children[0].children[1].payoff
(8, 9)
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Union

import numpy as np

from kop.games.errors import StrategyError, TreeError
from kop.games.search.expand import DEFAULT_NODE_LIMIT, expand_layout
from kop.games.trees.build import build_layout, document_players
from kop.games.trees.layout import (CHANCE, GOALS, LEAF, PROB_TOLERANCE, SIMULTANEOUS, SIMULTANEOUS_HANDLED_BY, Player,
                                    format_number, make_players)

__all__ = ["Player", "GameTree", "Node", "NodeRef", "LEAF", "CHANCE", "SIMULTANEOUS", "GOALS", "PROB_TOLERANCE",
           "SIMULTANEOUS_HANDLED_BY", "format_number", "make_players"]

NodeRef = Union["Node", int, str, Sequence[int]]


class GameTree:
    """An immutable finite game tree (see the module docstring).

    Build one with :meth:`from_dict` (the ``kop-tree/1`` JSON document as Python
    data), :meth:`build` (compact nested tuples), :func:`kop.io.trees.load_tree`
    or :func:`kop.games.trees.random_trees.random_tree`.

    Parameters
    ----------
    players, offsets, kind, payoffs, probs, labels, moves, integral, simultaneous
        The breadth-first arrays of the module docstring; build trees with the class methods
        or the readers instead, which check them.

    Examples
    --------
    >>> import kop
    >>> t = kop.GameTree.build(["A", "B"], ("A", [(1, 2), ("B", [(3, 4), (5, 6)], "X")]))
    >>> t
    GameTree(players=(A:max, B:min), nodes=5, leaves=3, height=2)
    >>> t.root, t.node("X").player
    (Node(root, player='A'), 'B')

    References
    ----------
    T. Sang, J.-H. Chen, *Beyond Minimax: Nonzero-Sum Game Tree Search with Knowledge Oriented
    Players*, §2 (game trees, E_A and E_B).
    """

    __slots__ = ("players", "offsets", "kind", "heights", "payoffs", "probs", "labels",
                 "moves", "levels", "integral", "simultaneous", "_leaf_rows", "_hash", "_label_index",
                 "_solutions")

    def __init__(self, players: Sequence[Player], offsets: np.ndarray, kind: np.ndarray,
                 payoffs: np.ndarray, probs: np.ndarray | None = None,
                 labels: Mapping[int, str] | None = None, moves: Mapping[int, str] | None = None,
                 integral: bool = False,
                 simultaneous: Mapping[int, tuple[tuple[int, ...], tuple[int, ...]]] | None = None):
        """Wrap arrays in breadth-first layout (internal; use the builders).

        *simultaneous* maps each simultaneous node to (its players' indices, the number of
        moves of each); its children are the joint moves in row-major order.
        """
        n = len(kind)
        idx_t = np.int32 if n + 1 < 2**31 else np.int64
        self.players = tuple(players)
        self.offsets = _frozen(np.asarray(offsets, dtype=idx_t))
        self.kind = _frozen(np.asarray(kind, dtype=np.int8))
        self.payoffs = _frozen(np.asarray(payoffs, dtype=np.float64).reshape(-1, len(self.players)))
        self.probs = None if probs is None else _frozen(np.asarray(probs, dtype=np.float64))
        self.labels = dict(labels or {})
        self.moves = dict(moves or {})
        self.integral = bool(integral)
        #: node -> (player indices, moves per player) of each simultaneous-move node
        self.simultaneous: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = dict(simultaneous or {})
        self._leaf_rows: np.ndarray | None = None
        self._hash: int | None = None
        self._label_index: dict[str, int] | None = None
        #: the strategies' solutions remembered on this tree (kop.games.strategies.engine.remembered)
        self._solutions: Any = None
        if n == 0 or len(self.offsets) != n + 1:
            raise TreeError("a tree needs at least one node and n+1 child offsets")
        if int(np.count_nonzero(self.kind == LEAF)) != len(self.payoffs):
            raise TreeError("the payoff matrix needs one row per leaf")
        self.levels = _levels(self.offsets, n)
        self.heights = _frozen(_heights(self.offsets, self.kind, self.levels))

    # -- construction ---------------------------------------------------------
    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> GameTree:
        """A tree from a ``.json`` (kop-tree/1) or ``.efg`` (Gambit) file (:func:`kop.io.trees.load_tree`).

        >>> import pathlib, tempfile, kop
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "figure2.json"
        >>> kop.save_tree(kop.figure2(), path)
        >>> GameTree.load(path).player_names
        ('A', 'B')
        """
        from kop.io.trees import load_tree

        return load_tree(path)

    @classmethod
    def from_dict(cls, doc: Any) -> GameTree:
        """A tree from a ``kop-tree/1`` document given as Python data.

        >>> GameTree.from_dict({"format": "kop-tree/1",
        ...     "players": [{"name": "A", "goal": "max"}, {"name": "B", "goal": "min"}],
        ...     "root": {"player": "A", "children": [{"payoff": [1, 2]}, {"payoff": [3, 0]}]}})
        GameTree(players=(A:max, B:min), nodes=3, leaves=2, height=1)
        """
        return cls(*build_layout(document_players(doc), doc["root"], compact=False))

    @classmethod
    def build(cls, players: Sequence[Player | str | Mapping[str, Any]], root: Any,
              goals: str = "paper") -> GameTree:
        """A tree from compact nested data.

        A leaf is a tuple of numbers ``(4, 7)``; a decision node is ``(player,
        [children])`` or ``(player, [children], label)``; any node may also be a dict of
        the JSON format.  Bare player names get goals by *goals* (see :func:`make_players`).
        """
        return cls(*build_layout(make_players(players, goals), root, compact=True))

    @classmethod
    def from_game(cls, game: Any, depth: int | None = None, *, state: Any = None, evaluations: Any = None,
                  node_limit: int | None = None) -> GameTree:
        """The tree of an implicit game below *state* to *depth* plies (see :mod:`kop.games.search.expand`).

        >>> import kop
        >>> GameTree.from_game(kop.nim())
        GameTree(players=(MAX:max, MIN:min), nodes=15, leaves=6, height=4)
        """
        return cls(*expand_layout(game, depth, state=state, evaluations=evaluations,
                                  node_limit=DEFAULT_NODE_LIMIT if node_limit is None else node_limit))

    def subtree(self, node: NodeRef) -> GameTree:
        """The subtree rooted at *node*, as a tree of its own (labels and move names kept).

        >>> t = GameTree.build(["A", "B"], ("A", [("B", [(4, 7), (8, 9)], "R"), (9, 4)]))
        >>> t.subtree("R")
        GameTree(players=(A:max, B:min), nodes=3, leaves=2, height=1)
        """
        start = self.node(node).index
        if start == 0:
            return self
        order = [start]
        k = 0
        while k < len(order):
            i = order[k]
            order.extend(range(int(self.offsets[i]), int(self.offsets[i + 1])))
            k += 1
        idx = np.asarray(order)
        counts = self.offsets[idx + 1] - self.offsets[idx]
        offs = np.concatenate([[1], 1 + np.cumsum(counts)])
        kind = self.kind[idx]
        rows = self.leaf_rows()[idx]
        pay = self.payoffs[rows[kind == LEAF]]
        probs = None if self.probs is None else self.probs[idx]
        if probs is not None:
            probs = probs.copy()
            probs[0] = np.nan
        pos = {int(old): new for new, old in enumerate(order)}
        labels = {pos[i]: lab for i, lab in self.labels.items() if i in pos}
        moves = {pos[i]: m for i, m in self.moves.items() if i in pos and pos[i] != 0}
        sims = {pos[i]: v for i, v in self.simultaneous.items() if i in pos}
        return GameTree(self.players, offs, kind, pay, probs, labels, moves, self.integral, sims)

    # -- basic facts ----------------------------------------------------------
    @property
    def player_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def player(self, name: str) -> Player:
        """The player called *name*."""
        for p in self.players:
            if p.name == name:
                return p
        raise TreeError(f"unknown player {name!r} (players {', '.join(self.player_names)})")

    def player_index(self, name: str | Player | None) -> int:
        """Index of a player (the first player when *name* is None)."""
        if name is None:
            return 0
        if isinstance(name, Player):
            name = name.name
        return self.player_names.index(self.player(name).name)

    @property
    def size(self) -> int:
        """Number of nodes."""
        return len(self.kind)

    def __len__(self) -> int:
        return len(self.kind)

    @property
    def n_leaves(self) -> int:
        return len(self.payoffs)

    @property
    def height(self) -> int:
        return int(self.heights[0])

    @property
    def has_chance(self) -> bool:
        return bool(np.any(self.kind == CHANCE))

    @property
    def root(self) -> Node:
        return Node(self, 0)

    def node(self, ref: NodeRef) -> Node:
        """A node by :class:`Node`, index, path (``"root/1/0"`` or ``(1, 0)``) or label."""
        if isinstance(ref, Node):
            if ref.tree is not self and ref.tree != self:
                raise TreeError(f"{ref!r} belongs to another tree")
            return Node(self, ref.index)
        if isinstance(ref, (int, np.integer)) and not isinstance(ref, bool):
            if not 0 <= ref < len(self):
                raise TreeError(f"node index {ref} out of range 0..{len(self) - 1}")
            return Node(self, int(ref))
        if isinstance(ref, str):
            if ref == "root" or ref.startswith("root/"):
                parts = ref.split("/")[1:]
                if not all(p.isdigit() for p in parts):
                    raise TreeError(f"bad node path {ref!r}: use root/i/j with child indices")
                return self._walk([int(p) for p in parts], ref)
            index = self._labels_to_index().get(ref)
            if index is None:
                raise TreeError(f"no node labelled {ref!r}")
            return Node(self, index)
        if isinstance(ref, Sequence) and not isinstance(ref, str):
            return self._walk(list(ref), f"root/{'/'.join(map(str, ref))}")
        raise TreeError(f"cannot find a node from {ref!r}")

    def _walk(self, ranks: list[int], text: str) -> Node:
        i = 0
        for r in ranks:
            lo, hi = int(self.offsets[i]), int(self.offsets[i + 1])
            if not 0 <= r < hi - lo:
                raise TreeError(f"no node at {text}: a node there has {hi - lo} children")
            i = lo + r
        return Node(self, i)

    def _labels_to_index(self) -> dict[str, int]:
        if self._label_index is None:
            index: dict[str, int] = {}
            for i, lab in sorted(self.labels.items()):
                index.setdefault(lab, i)
            self._label_index = index
        return self._label_index

    def find(self, label: str) -> Node:
        """The first node (breadth first) labelled *label*."""
        return self.node(label)

    def nodes(self) -> Iterator[Node]:
        """All nodes, breadth first."""
        return (Node(self, i) for i in range(len(self)))

    def leaves(self) -> Iterator[Node]:
        """All leaves, breadth first."""
        return (Node(self, int(i)) for i in np.flatnonzero(self.kind == LEAF))

    def leaf_rows(self) -> np.ndarray:
        """Per node, its row in :attr:`payoffs` (-1 for inner nodes)."""
        if self._leaf_rows is None:
            is_leaf = self.kind == LEAF
            rows = np.cumsum(is_leaf, dtype=np.int64) - 1
            rows[~is_leaf] = -1
            self._leaf_rows = _frozen(rows.astype(self.offsets.dtype))
        return self._leaf_rows

    def parent_index(self, i: int) -> int:
        """Index of the parent of node *i* (-1 for the root)."""
        return int(np.searchsorted(self.offsets, i, side="right")) - 1 if i else -1

    def path_of(self, i: int) -> tuple[int, ...]:
        """Child ranks from the root to node *i*."""
        ranks = []
        while i:
            p = self.parent_index(i)
            ranks.append(i - int(self.offsets[p]))
            i = p
        return tuple(reversed(ranks))

    def path_name(self, i: int) -> str:
        """``root/1/0``-style name of node *i*."""
        return "/".join(["root", *map(str, self.path_of(i))])

    def value_of(self, row: Sequence[float]) -> tuple[int | float, ...]:
        """A payoff row as a tuple of numbers (ints for integer trees)."""
        return tuple(format_number(x, self.integral) for x in row)

    # -- value semantics ------------------------------------------------------
    def _key(self) -> tuple[Any, ...]:
        return (self.players, self.offsets.tobytes(), self.kind.tobytes(), self.payoffs.tobytes(),
                None if self.probs is None else self.probs.tobytes(),
                tuple(sorted(self.labels.items())), tuple(sorted(self.moves.items())),
                tuple(sorted(self.simultaneous.items())))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, GameTree):
            return NotImplemented
        return len(self) == len(other) and self._key() == other._key()

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._key())
        return self._hash

    def _repr_svg_(self) -> str | None:
        """The picture in Jupyter (:func:`kop.drawing.trees.draw_tree`); None without matplotlib."""
        from kop.drawing.models import repr_svg
        from kop.drawing.trees import draw_tree

        return repr_svg(draw_tree, self)

    def draw(self, file: str | Any = None, **options: Any) -> Any:
        """Draw the tree (:func:`kop.drawing.trees.draw_tree`: ``decided=``, ``play=``, ``title=``);
        save it to *file* (``.svg``, ``.png``, ``.pdf``) when given.  Returns the matplotlib Figure.
        Needs the ``draw`` extra (matplotlib)."""
        from kop.drawing.models import save_figure
        from kop.drawing.trees import draw_tree

        fig = draw_tree(self, **options)
        if file is not None:
            save_figure(fig, file)
        return fig

    def __repr__(self) -> str:
        players = ", ".join(map(str, self.players))
        return (f"GameTree(players=({players}), nodes={len(self)}, leaves={self.n_leaves}, "
                f"height={self.height})")

    def require_sequential(self, what: str) -> None:
        """A located error if the tree has a simultaneous-move node (*what* cannot search it)."""
        if self.simultaneous:
            i = min(self.simultaneous)
            who = ", ".join(self.players[k].name for k in self.simultaneous[i][0])
            raise StrategyError(f"{self.path_name(i)}: {what} needs sequential moves; this is a simultaneous-move "
                                f"node ({who} move at once). {SIMULTANEOUS_HANDLED_BY}")

    def nbytes(self) -> int:
        """Bytes held by the array layout."""
        arrays = [self.offsets, self.kind, self.heights, self.payoffs, self.levels]
        if self.probs is not None:
            arrays.append(self.probs)
        return sum(a.nbytes for a in arrays)


class Node:
    """A node of a :class:`GameTree` (a light view: the tree and a breadth-first index).

    Parameters
    ----------
    tree : GameTree
        The tree.
    index : int
        The node's breadth-first index.

    Examples
    --------
    >>> import kop
    >>> n = kop.figure2().node("S")
    >>> n, n.player, n.children[0]
    (Node(root/1 'S', player='B'), 'B', Node(root/1/0 'U', player='A'))
    """

    __slots__ = ("tree", "index")

    def __init__(self, tree: GameTree, index: int):
        self.tree = tree
        self.index = index

    @property
    def is_leaf(self) -> bool:
        return int(self.tree.kind[self.index]) == LEAF

    @property
    def is_chance(self) -> bool:
        return int(self.tree.kind[self.index]) == CHANCE

    @property
    def is_simultaneous(self) -> bool:
        return int(self.tree.kind[self.index]) == SIMULTANEOUS

    @property
    def joint(self) -> tuple[tuple[str, ...], tuple[int, ...]] | None:
        """(players, moves per player) at a simultaneous node, else None."""
        got = self.tree.simultaneous.get(self.index)
        if got is None:
            return None
        return tuple(self.tree.players[k].name for k in got[0]), got[1]

    @property
    def player(self) -> str | None:
        """Name of the player who moves here (None at leaves and chance nodes)."""
        k = int(self.tree.kind[self.index])
        return self.tree.players[k].name if k >= 0 else None

    @property
    def children(self) -> tuple[Node, ...]:
        lo, hi = int(self.tree.offsets[self.index]), int(self.tree.offsets[self.index + 1])
        return tuple(Node(self.tree, i) for i in range(lo, hi))

    @property
    def probabilities(self) -> tuple[float, ...] | None:
        """Child probabilities at a chance node, else None."""
        if not self.is_chance:
            return None
        lo, hi = int(self.tree.offsets[self.index]), int(self.tree.offsets[self.index + 1])
        probs = self.tree.probs
        assert probs is not None  # a tree with a chance node has probabilities
        return tuple(float(p) for p in probs[lo:hi])

    @property
    def payoff(self) -> tuple[int | float, ...] | None:
        """One number per player at a leaf, else None."""
        if not self.is_leaf:
            return None
        return self.tree.value_of(self.tree.payoffs[self.tree.leaf_rows()[self.index]])

    @property
    def label(self) -> str | None:
        return self.tree.labels.get(self.index)

    @property
    def move(self) -> str | None:
        """Label of the edge from the parent to this node, if any."""
        return self.tree.moves.get(self.index)

    @property
    def height(self) -> int:
        return int(self.tree.heights[self.index])

    @property
    def depth(self) -> int:
        return int(np.searchsorted(self.tree.levels, self.index, side="right")) - 1

    @property
    def parent(self) -> Node | None:
        p = self.tree.parent_index(self.index)
        return None if p < 0 else Node(self.tree, p)

    @property
    def rank(self) -> int:
        """Position of this node among its parent's children (0 for the root)."""
        p = self.tree.parent_index(self.index)
        return 0 if p < 0 else self.index - int(self.tree.offsets[p])

    @property
    def path(self) -> tuple[int, ...]:
        """Child ranks from the root to this node."""
        return self.tree.path_of(self.index)

    @property
    def name(self) -> str:
        """The label, or the ``root/i/j`` path."""
        return self.label or self.tree.path_name(self.index)

    @property
    def step(self) -> str | int:
        """How a path names the move into this node: move label, node label, or child rank."""
        return self.move or self.label or self.rank

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Node) and other.index == self.index and other.tree is self.tree

    def __hash__(self) -> int:
        return hash((id(self.tree), self.index))

    def __repr__(self) -> str:
        where = self.tree.path_name(self.index)
        lab = f" {self.label!r}" if self.label else ""
        if self.is_leaf:
            return f"Node({where}{lab}, payoff={self.payoff})"
        if self.is_chance:
            return f"Node({where}{lab}, chance={self.probabilities})"
        if self.is_simultaneous:
            who, dims = self.joint or ((), ())
            return f"Node({where}{lab}, simultaneous={who}, moves={dims})"
        return f"Node({where}{lab}, player={self.player!r})"


# -- helpers -------------------------------------------------------------------

def _frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def _levels(offsets: np.ndarray, n: int) -> np.ndarray:
    """Start index of each depth (and n at the end)."""
    levels = [0, 1]
    while levels[-1] < n:
        nxt = int(offsets[levels[-1]])
        if nxt <= levels[-1]:
            raise TreeError("child offsets are not in breadth-first layout")
        levels.append(nxt)
    return _frozen(np.asarray(levels, dtype=np.int64))


def _heights(offsets: np.ndarray, kind: np.ndarray, levels: np.ndarray) -> np.ndarray:
    dtype = np.int16 if len(levels) < 2**15 else np.int32
    heights = np.zeros(len(kind), dtype=dtype)
    for d in range(len(levels) - 3, -1, -1):
        s, e = int(levels[d]), int(levels[d + 1])
        inner = s + np.flatnonzero(kind[s:e] != LEAF)
        if len(inner) == 0:
            continue
        starts = offsets[inner] - e
        heights[inner] = np.maximum.reduceat(heights[e:int(levels[d + 2])], starts) + 1
    return heights


