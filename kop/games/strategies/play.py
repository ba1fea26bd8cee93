"""play (Definition 2 of Sang & Chen) and the global optimum (Definition 9).

``play(t, {"A": S_A, "B": S_B})`` starts at the root and follows S_A's
``next`` at A's nodes and S_B's at B's nodes.  It returns the :class:`Outcome`:
the value reached (at a chance node, the expectation over its children under
the same strategies) and the path.  A strategy may be given by name
(``"M2"``, ``"Mh"``, ...; see :func:`kop.games.registry.strategy`).

Example
-------
>>> import kop
>>> t = kop.figure2()
>>> kop.play(t, {"A": "M2", "B": "M1"})
Outcome(value=(9, 4), path=['T', 0])
>>> kop.global_optimum(t) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from kop.games.strategies.engine import sweep
from kop.games.errors import StrategyError
from kop.games.strategies.strategy import Strategy, path_steps
from kop.games.trees.tree import CHANCE, LEAF, GameTree, Node
from kop.games.trees.checks import tree_argument
from kop.games.registry import strategy as by_name

__all__ = ["Outcome", "play", "global_optimum"]


@dataclass(frozen=True)
class Outcome:
    """The value a play reaches and its path (root first; it ends at a leaf or chance node).

    Parameters
    ----------
    value : tuple
        The payoff vector reached.
    path : tuple of Node
        Root first.

    Examples
    --------
    >>> import kop
    >>> o = kop.play(kop.figure2(), {"A": "M2", "B": "M1"})
    >>> o, o.value
    (Outcome(value=(9, 4), path=['T', 0]), (9, 4))
    """

    value: tuple[int | float, ...]
    path: tuple[Node, ...]

    @property
    def leaf(self) -> Node | None:
        last = self.path[-1]
        return last if last.is_leaf else None

    @property
    def steps(self) -> list[str | int]:
        """The moves: move labels, else node labels, else child indices."""
        return path_steps(self.path)

    def __repr__(self) -> str:
        return f"Outcome(value={self.value}, path={self.steps})"


def play(tree: GameTree, strategies: Mapping[str, Any], *, tie: str = "first") -> Outcome:
    """Play *strategies* (player name -> strategy or strategy name) against each other on *tree*.

    Parameters
    ----------
    tree : GameTree
    strategies : mapping of player name to Strategy or str
        Each player's strategy, or its name (:func:`kop.strategy`).
    tie : {"first", "last"}
        Tie-breaking, as for every strategy (:mod:`kop.games.strategies.engine`).

    Returns
    -------
    Outcome
        The leaf value reached and the path to it.

    Examples
    --------
    >>> import kop
    >>> t = kop.figure2()
    >>> kop.play(t, {"A": "M2", "B": "M1"}), kop.play(t, {"A": kop.mh(t), "B": "Mh"}).value
    (Outcome(value=(9, 4), path=['T', 0]), (10, 3))

    References
    ----------
    T. Sang, J.-H. Chen, *Beyond Minimax: Nonzero-Sum Game Tree Search with Knowledge Oriented
    Players*, Definition 2.
    """
    tree_argument(tree)
    if not isinstance(strategies, Mapping):
        raise StrategyError("play needs a mapping from player names to strategies")
    for name in strategies:
        tree.player(name)
    tree.require_sequential("play")
    movers = {k for k in set(tree.kind.tolist()) if k >= 0}   # not np.unique: it imports numpy.ma
    chosen: dict[int, Any] = {}
    for k in sorted(movers):
        name = tree.players[k].name
        if name not in strategies:
            raise StrategyError(f"no strategy for player {name}, who moves in this tree")
        s = strategies[name]
        if isinstance(s, str):
            s = by_name(tree, s, name, tie=tie)
        if getattr(s, "tree", tree) is not tree and getattr(s, "tree", tree) != tree:
            raise StrategyError(f"the strategy for {name} was computed on another tree")
        chosen[k] = s
    if not tree.has_chance:
        n = tree.root
        path = [n]
        while not n.is_leaf:
            c = chosen[int(tree.kind[n.index])].next(n)
            lo, hi = int(tree.offsets[n.index]), int(tree.offsets[n.index + 1])
            if c is None or not lo <= c.index < hi:
                raise StrategyError(f"{n.name}: the strategy of {n.player} gives no child")
            n = Node(tree, c.index)
            path.append(n)
        assert n.payoff is not None  # a leaf
        return Outcome(n.payoff, tuple(path))
    fixed = np.full(len(tree), -1, dtype=tree.offsets.dtype)
    for k, s in chosen.items():
        mask = tree.kind == k
        if isinstance(s, Strategy):
            fixed[mask] = s.next_array[mask]
        else:
            for i in np.flatnonzero(mask):
                c = s.next(Node(tree, int(i)))
                fixed[i] = -1 if c is None else c.index
    bad = np.flatnonzero((tree.kind >= 0) & (fixed < 0))
    if len(bad):
        raise StrategyError(f"{tree.path_name(int(bad[0]))}: a strategy gives no child")
    n_players = len(tree.players)
    sol = sweep(tree, np.zeros(n_players), np.ones(n_players), fixed=fixed,
                fixed_movers=np.ones(n_players, dtype=bool), tie=tie)
    visited = [0]
    while tree.kind[visited[-1]] not in (LEAF, CHANCE):
        visited.append(int(sol.next[visited[-1]]))
    return Outcome(tree.value_of(sol.table[sol.ref[0]]), tuple(Node(tree, i) for i in visited))


def global_optimum(tree: GameTree) -> Node | None:
    """The leaf strictly best for every player by its goal (Definition 9), or None.

    Parameters
    ----------
    tree : GameTree

    Returns
    -------
    Node or None
        The leaf, or None when no leaf is best for everyone.

    Examples
    --------
    >>> import kop
    >>> kop.global_optimum(kop.figure2()) is None
    True
    >>> kop.global_optimum(kop.GameTree.build(["A", "B"], ("A", [(1, 5), (3, 2)])))
    Node(root/1, payoff=(3, 2))

    References
    ----------
    T. Sang, J.-H. Chen, *Beyond Minimax: Nonzero-Sum Game Tree Search with Knowledge Oriented
    Players*, Definition 9 and Theorem 4.
    """
    tree_argument(tree)
    keys = tree.payoffs * np.array([p.sign for p in tree.players])
    row = None
    for j in range(keys.shape[1]):
        best = np.flatnonzero(keys[:, j] == keys[:, j].max())
        if len(best) != 1 or (row is not None and best[0] != row):
            return None
        row = int(best[0])
    return Node(tree, int(np.flatnonzero(tree.kind == LEAF)[row]))
