"""The strategy value (Definition 1 of Sang & Chen): ``next(n)`` and ``value(n)`` at every node.

A :class:`Strategy` wraps one solution of the vectorized engine.  Its
invariant is the paper's: at every decision node ``next(n)`` is a child and
``value(n) = value(next(n))``; at a chance node ``next(n)`` is None and
``value(n)`` is the expectation of its children's values; at a leaf
``next(n)`` is None and ``value(n)`` is the payoff.

Examples
--------
>>> import kop
>>> t = kop.figure2()
>>> s = kop.minimax(t, "A")
>>> s
Strategy('minimax', player='A', value=(4, 7))
>>> s.next(t.root).label, s.value_at("S"), s.move.label, s.nodes == len(t)
('R', (2, 2), 'R', True)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

import numpy as np

from kop.games.strategies.engine import Solution
from kop.games.trees.tree import GameTree, Node, NodeRef

__all__ = ["TreeStrategy", "Strategy", "path_steps"]


class TreeStrategy(ABC):
    """What every strategy on a whole tree answers: ``next(n)`` and ``value_at(n)`` at every node, and at
    the root the :class:`~kop.games.result.Result` shape (``value``, ``move``, ``path``, ``nodes``).

    A subclass gives ``tree``, :meth:`next`, :meth:`value_at` and :attr:`nodes`; the rest follows.

    Examples
    --------
    >>> import kop
    >>> s = kop.mh(kop.figure2())
    >>> isinstance(s, TreeStrategy), s.value == s.value_at(s.path[-1])
    (True, True)
    """

    __slots__ = ()
    tree: GameTree

    @abstractmethod
    def next(self, node: NodeRef | None = None) -> Node | None:
        """The child chosen at *node* (the root by default); None at leaves and chance nodes."""

    @abstractmethod
    def value_at(self, node: NodeRef) -> tuple[int | float, ...]:
        """The value of *node*: one number per player."""

    @property
    @abstractmethod
    def nodes(self) -> int:
        """Nodes the computation evaluated."""

    def path_from(self, node: NodeRef) -> list[Node]:
        """Nodes from *node* following ``next`` to a leaf or chance node."""
        out = [self.tree.node(node)]
        while (c := self.next(out[-1])) is not None:
            out.append(c)
        return out

    @property
    def value(self) -> tuple[int | float, ...]:
        """The value of the root: one number per player."""
        return self.value_at(0)

    @property
    def move(self) -> Node | None:
        """The child chosen at the root (None at a leaf or chance root)."""
        return self.next()

    @property
    def path(self) -> list[Node]:
        """Nodes from the root following ``next`` to a leaf or chance node."""
        return self.path_from(0)


class Strategy(TreeStrategy):
    """A strategy computed on one tree: ``next(n)``, ``value(n)``, the principal ``path()``.

    Attributes
    ----------
    tree : GameTree
    name : str
        ``minimax``, ``M2``, ``Mh``, ``HM0M1``, ... (the CLI spelling)
    player : str or None
        whose strategy it is (None for M^h, which models every player alike)

    Examples
    --------
    >>> import kop
    >>> s = kop.minimax(kop.figure2(), "A")
    >>> s, s.name, s.player, s.next().label
    (Strategy('minimax', player='A', value=(4, 7)), 'minimax', 'A', 'R')

    References
    ----------
    T. Sang, J.-H. Chen, *Beyond Minimax: Nonzero-Sum Game Tree Search with Knowledge Oriented
    Players*, Definition 1.
    """

    __slots__ = ("tree", "name", "player", "_sol")

    def __init__(self, tree: GameTree, name: str, player: str | None, solution: Solution):
        self.tree = tree
        self.name = name
        self.player = player
        self._sol = solution

    def next(self, node: NodeRef | None = None) -> Node | None:
        """The child chosen at *node* (the root by default); None at leaves and chance nodes."""
        n = self.tree.node(0 if node is None else node)
        c = int(self._sol.next[n.index])
        return None if c < 0 else Node(self.tree, c)

    def value_at(self, node: NodeRef) -> tuple[int | float, ...]:
        """The value of *node*: one number per player."""
        n = self.tree.node(node)
        return self.tree.value_of(self._sol.table[self._sol.ref[n.index]])

    @property
    def nodes(self) -> int:
        """Nodes the computation evaluated: every node of the tree (the engine sweeps them all)."""
        return len(self.tree)

    @property
    def next_array(self) -> np.ndarray:
        """``next`` of every node as child indices (-1 at leaves and chance nodes)."""
        return self._sol.next

    def value_array(self) -> np.ndarray:
        """``value`` of every node as a ``(nodes, players)`` float array."""
        return np.asarray(self._sol.table[self._sol.ref])

    def nbytes(self) -> int:
        return self._sol.nbytes()

    def __repr__(self) -> str:
        who = f", player={self.player!r}" if self.player else ""
        return f"Strategy({self.name!r}{who}, value={self.value})"


def path_steps(path: Sequence[Node]) -> list[str | int]:
    """A path in JSON (the ``path`` field): per move, the move label, else the node label, else the child index."""
    return [n.step for n in path[1:]]


def path_words(path: Sequence[Node]) -> list[str]:
    """A path as text, every step a word: the move label, else the node label, else -- for a leaf -- its
    payoffs ``(4, 7)``, else the node's name (``root/0/1``), so leaves are named alike everywhere.

    >>> import kop
    >>> t = kop.figure2()
    >>> path_words(kop.play(t, {"A": "minimax", "B": "minimax"}).path)
    ['R', '(4, 7)']
    """
    out = []
    for n in path[1:]:
        if n.move or n.label:
            out.append(str(n.move or n.label))
        elif n.is_leaf:
            out.append("(" + ", ".join(str(v) for v in n.payoff or ()) + ")")
        else:
            out.append(n.name)
    return out
