"""One game tree as plain Python lists: the layout Bodkin's searches run on.

The N-player searches (:mod:`kop.games.nplayer`), the chance searches (:mod:`kop.games.chance`)
and the simultaneous-move searches (:mod:`kop.games.simultaneous`) are recursive Python over
lists, several times faster than indexing numpy arrays element by element.  They share one
layout, :class:`TreeLists`, with one constructor per view:

* :meth:`TreeLists.payoffs` (and :meth:`TreeLists.uniform`): every player's payoff tuple at a
  leaf, for max^n;
* :meth:`TreeLists.signed`: one searching player's payoff times its sign (so it maximizes),
  for ``*``-minimax with chance nodes;
* :meth:`TreeLists.stages`: the two-player zero-sum matrix view: every decision or
  simultaneous node is a stage of ``rows x cols`` children in row-major order whose rows
  are the searching player's moves (a stage listing the opponent first is transposed).

Node kinds are the :class:`~kop.games.trees.tree.GameTree` codes in every view: the mover's
index (>= 0), :data:`~kop.games.trees.tree.LEAF`, :data:`~kop.games.trees.tree.CHANCE` or
:data:`~kop.games.trees.tree.SIMULTANEOUS`.

Examples
--------
>>> from kop.games.trees.tree import GameTree
>>> from kop.games.trees.lists import TreeLists
>>> t = GameTree.build(["a", "b"], ("a", [(1, 0), ("b", [(0, 1), (1, 1)])]), goals="max")
>>> f = TreeLists.payoffs(t)
>>> f.off[:3], f.kind[:3], f.pay[1]
([1, 3, 3], [0, -1, 1], (1.0, 0.0))
>>> g = TreeLists.signed(t, "b", "expectimax")
>>> g.val, g.player
([0.0, 0.0, 0.0, 1.0, 1.0], 1)
>>> TreeLists.stages(t, "a").shape
{0: (2, 1), 2: (1, 2)}
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

from kop.games.errors import StrategyError, TreeError
from kop.games.trees.checks import tree_argument
from kop.games.trees.tree import CHANCE, LEAF, SIMULTANEOUS, GameTree

__all__ = ["TreeLists", "LEAF", "CHANCE", "SIMULTANEOUS"]


@dataclass(frozen=True)
class TreeLists:
    """A tree as lists: the children of node ``i`` are ``off[i]:off[i+1]``, breadth first.

    A view fills the lists its searches read; the others stay empty.

    Parameters
    ----------
    off : list of int
        Child offsets (one more entry than nodes).
    kind : list of int
        The mover's index, ``LEAF``, ``CHANCE`` or ``SIMULTANEOUS`` (the GameTree codes).
    height : int
        The tree's height.
    pay : list
        Payoff view: every player's payoff tuple at a leaf, None elsewhere.
    val : list of float
        Signed and stage views: the searching player's payoff times :attr:`sign` at a leaf
        (0.0 elsewhere), so that it maximizes.
    prob : list of float
        Signed and stage views: the probability of the edge into each node (0.0 off chance nodes).
    n : int
        The number of players (payoff view).
    player : int
        The searching player's index (signed and stage views of a GameTree; -1 elsewhere).
    sign : int
        The searching player's sign (+1 maximizes, -1 minimizes): the searches multiply back.
    shape : dict
        Stage view: ``(rows, cols)`` of each stage (every node that is neither leaf nor chance).
    paths : list of str, optional
        Node names (``root/1/0``) for errors, where the builder knows them.
    est : list of float, optional
        Static estimates of every node's value (move ordering, as a shallower search would).

    Examples
    --------
    >>> import kop
    >>> f = TreeLists.signed(kop.figure2(), "B", "expectimax")
    >>> f.sign, f.player, f.kind[0], f.where(1)
    (-1, 1, 0, 'node 1')
    """

    off: list[int]
    kind: list[int]
    height: int
    pay: list[tuple[float, ...] | None] = field(default_factory=list)
    val: list[float] = field(default_factory=list)
    prob: list[float] = field(default_factory=list)
    n: int = 0
    player: int = -1
    sign: int = 1
    shape: dict[int, tuple[int, int]] = field(default_factory=dict)
    paths: list[str] | None = None
    est: list[float] | None = None

    def where(self, i: int) -> str:
        """Node *i*'s name for an error: its path where known, else ``node i``."""
        return self.paths[i] if self.paths else f"node {i}"

    @classmethod
    def payoffs(cls, tree: GameTree, what: str = "this search") -> TreeLists:
        """The payoff view of *tree* (max^n); a located error if it has chance or simultaneous nodes.

        Parameters
        ----------
        tree : GameTree
            Decision nodes and leaves.
        what : str
            The search, for the error message.

        Returns
        -------
        TreeLists
            ``off``, ``kind``, ``pay``, ``n``, ``height``.

        Examples
        --------
        >>> import kop
        >>> TreeLists.payoffs(kop.figure2()).pay[-1]
        (11.0, 12.0)
        """
        tree_argument(tree)
        kind = tree.kind
        tree.require_sequential(what)
        odd = np.flatnonzero(kind < LEAF)
        if len(odd):
            raise StrategyError(f"{tree.path_name(int(odd[0]))}: {what} handles decision nodes and "
                                "leaves only (this is a chance node; use expectimax, star1, star2 "
                                "or cscout)")
        pay: list[tuple[float, ...] | None] = [None] * len(kind)
        rows = tree.payoffs.tolist()
        for r, i in enumerate(np.flatnonzero(kind == LEAF).tolist()):
            pay[i] = tuple(rows[r])
        return cls(tree.offsets.tolist(), kind.tolist(), tree.height, pay=pay, n=len(tree.players))

    @classmethod
    def uniform(cls, n_players: int, branching: int, depth: int, leaves: np.ndarray) -> TreeLists:
        """The payoff view of a uniform tree whose mover at depth ``d`` is ``d mod n_players`` (Bodkin §4.6).

        Parameters
        ----------
        n_players, branching, depth : int
            The shape.
        leaves : numpy.ndarray
            One payoff row per leaf, left to right.

        Returns
        -------
        TreeLists
            As :meth:`payoffs` gives.

        Examples
        --------
        >>> import numpy as np
        >>> f = TreeLists.uniform(2, 2, 1, np.array([[1.0, 0.0], [0.0, 1.0]]))
        >>> f.off, f.kind, f.pay
        ([1, 3, 3, 3], [0, -1, -1], [None, (1.0, 0.0), (0.0, 1.0)])
        """
        b = branching
        n_inner = (b ** depth - 1) // (b - 1) if b > 1 else depth
        off = list(range(1, n_inner * b + 2, b)) + [n_inner * b + 1] * len(leaves)
        kind: list[int] = []
        for d in range(depth):
            kind += [d % n_players] * b ** d
        kind += [LEAF] * len(leaves)
        pay: list[tuple[float, ...] | None] = [None] * n_inner
        pay += map(tuple, leaves.tolist())
        return cls(off, kind, depth, pay=pay, n=n_players)

    @classmethod
    def signed(cls, tree: GameTree, player: str | None, what: str) -> TreeLists:
        """The view of searching player *player* (default the first) for ``*``-minimax: ``val`` is its
        payoff times its sign, ``prob`` the edge probabilities; the other players work against it.

        Parameters
        ----------
        tree : GameTree
            Decision nodes, chance nodes and leaves.
        player : str or None
            The searching player.
        what : str
            The search, for the error message.

        Returns
        -------
        TreeLists
            ``off``, ``kind``, ``val``, ``prob``, ``sign``, ``player``, ``height``.

        Examples
        --------
        >>> from kop.games.trees.tree import GameTree
        >>> t = GameTree.from_dict({"format": "kop-tree/1", "players": ["a", "b"], "root": {"chance": [0.25, 0.75],
        ...     "children": [{"payoff": [4, 0]}, {"payoff": [0, 4]}]}})
        >>> f = TreeLists.signed(t, None, "expectimax")
        >>> f.val[1:], f.prob[1:], f.kind[0] == CHANCE
        ([4.0, 0.0], [0.25, 0.75], True)
        """
        tree_argument(tree)
        tree.require_sequential(what)
        P = tree.player_index(player)
        sign = tree.players[P].sign
        val = _signed_leaves(tree, P, sign)
        if not np.all(np.isfinite(val)):
            raise TreeError("payoffs must be finite")
        return cls(tree.offsets.tolist(), tree.kind.tolist(), tree.height, val=val.tolist(), prob=_probs(tree),
                   player=P, sign=sign)

    @classmethod
    def stages(cls, tree: GameTree, player: str | None = None) -> TreeLists:
        """The two-player zero-sum matrix view of *tree* for *player* (default the first): every
        decision node is a stage of one row (the opponent moves) or one column (*player* moves), a
        simultaneous node a stage whose rows are *player*'s moves (transposed where the tree lists
        the opponent first).

        Parameters
        ----------
        tree : GameTree
            Simultaneous nodes of two players, decision nodes, chance nodes and leaves.
        player : str, optional
            The row player.

        Returns
        -------
        TreeLists
            ``off``, ``kind``, ``val``, ``prob``, ``shape``, ``paths``, ``sign``, ``player``, ``height``.

        Examples
        --------
        >>> import kop
        >>> t = kop.GameTree.from_dict({"format": "kop-tree/1", "players": ["A", "B"], "root": {
        ...     "simultaneous": {"players": ["B", "A"], "children": [[{"payoff": [1, -1]}, {"payoff": [2, -2]}]]}}})
        >>> f = TreeLists.stages(t, "A")
        >>> f.shape, f.val[1:], f.paths
        ({0: (2, 1)}, [1.0, 2.0], ['root', 'root/0', 'root/1'])
        """
        tree_argument(tree, "tree")
        P = tree.player_index(player)
        sign = tree.players[P].sign
        k = tree.kind.tolist()
        off = tree.offsets.tolist()
        shape: dict[int, tuple[int, int]] = {}
        sim = tree.simultaneous
        for i, ki in enumerate(k):
            if ki == LEAF or ki == CHANCE:
                continue
            if i in sim:
                who, dims = sim[i]
                if len(who) != 2:
                    raise TreeError(f"{tree.path_name(i)}: the simultaneous searches handle two-player "
                                    f"stages; this one has {len(who)} players")
                if P not in who:
                    raise TreeError(f"{tree.path_name(i)}: {tree.players[P].name} does not move at this "
                                    "stage; name the stage's row player")
                shape[i] = (dims[0], dims[1]) if who[0] == P else (-dims[0], -dims[1])
            else:
                cnt = off[i + 1] - off[i]
                shape[i] = (cnt, 1) if ki == P else (1, cnt)
        flat = cls(off, k, tree.height, val=_signed_leaves(tree, P, sign).tolist(), prob=_probs(tree), player=P,
                   sign=sign, shape=shape, paths=[tree.path_name(i) for i in range(len(k))])
        return flat._transposed() if any(s[0] < 0 for s in shape.values()) else flat

    def _transposed(self) -> TreeLists:
        """Stages marked by negative shapes (the row player is the opponent): children reordered
        column-major, so that the searching player picks rows; the nodes renumbered breadth first."""
        shape = dict(self.shape)
        kids_of: dict[int, list[int]] = {}
        for i, (r, c) in self.shape.items():
            if r < 0:
                r, c = -r, -c
                kids = list(range(self.off[i], self.off[i + 1]))
                kids_of[i] = [kids[a * c + b] for b in range(c) for a in range(r)]
                shape[i] = (c, r)
        off: list[int] = []
        order: list[int] = []
        new_shape: dict[int, tuple[int, int]] = {}
        queue = deque([0])
        nxt = 1
        while queue:
            i = queue.popleft()
            if i in shape:
                new_shape[len(order)] = shape[i]
            order.append(i)
            kids = kids_of.get(i, list(range(self.off[i], self.off[i + 1])))
            off.append(nxt)
            nxt += len(kids)
            queue.extend(kids)
        off.append(nxt)
        return TreeLists(off, [self.kind[i] for i in order], self.height, val=[self.val[i] for i in order],
                         prob=[self.prob[i] for i in order], player=self.player, sign=self.sign, shape=new_shape,
                         paths=[self.where(i) for i in order])


def _signed_leaves(tree: GameTree, P: int, sign: int) -> np.ndarray:
    """Per node, *P*'s payoff times *sign* at a leaf, 0.0 elsewhere."""
    val = np.zeros(len(tree.kind))
    val[tree.kind == LEAF] = sign * tree.payoffs[:, P]
    return val


def _probs(tree: GameTree) -> list[float]:
    """Per node, the probability of the edge into it (0.0 off chance nodes)."""
    return [0.0] * len(tree.kind) if tree.probs is None else np.nan_to_num(tree.probs).tolist()
