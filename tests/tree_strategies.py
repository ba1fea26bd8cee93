"""Hypothesis strategies that draw game trees themselves (not a seed), so failures shrink to small trees.

:func:`game_trees` draws the nested structure that :meth:`kop.GameTree.build` reads: a leaf is a
tuple of integer payoffs, a decision node ``{"player": P, "children": [...]}``, a chance node
``{"chance": [...], "children": [...]}`` with probabilities that are multiples of 1/1024 (so
expectations are exact and ties are real ties).  Every choice shrinks towards a smaller tree:
fewer levels, fewer children, leaves instead of inner nodes, no chance nodes, small payoffs.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

import kop

NAMES = ("A", "B", "C")
#: is this node a leaf?  Three times in ten; shrinks to True (a smaller tree)
_LEAF = st.sampled_from([True, False, True, False, False, True, False, False, False, False])


@st.composite
def tree_specs(draw: st.DrawFn, n_players: int = 2, *, max_depth: int = 5, max_branching: int = 3,
               chance: bool = False, movers: str = "alternate", inner_root: bool = False,
               max_nodes: int = 200, simultaneous: bool = False) -> Any:
    """The nested structure of a game tree with placeholder leaves ``None`` (payoffs come later).

    With *simultaneous*, a node (the root too) may be a simultaneous-move node
    ``{"simultaneous": (player indices, moves per player), "children": [...]}`` of two or more
    players (one when there is one player), its children the joint moves in row-major order.
    """
    names = NAMES[:n_players]
    count = [0]

    def node(depth: int, mover: int) -> Any:
        count[0] += 1
        must_branch = inner_root and depth == 0
        if not must_branch and (depth >= max_depth or count[0] >= max_nodes or draw(_LEAF)):
            return None
        if simultaneous and draw(st.integers(0, 3)) == 3:
            m = draw(st.integers(min(2, n_players), n_players))
            who = tuple(draw(st.permutations(range(n_players)))[:m])
            dims = tuple(draw(st.integers(1, max_branching if m <= 2 else 2)) for _ in who)
            return {"simultaneous": (who, dims),
                    "children": [node(depth + 1, mover) for _ in range(math.prod(dims))]}
        k = draw(st.integers(1, max_branching))
        if chance and depth > 0 and draw(st.integers(0, 3)) == 3:
            cuts = sorted(draw(st.sets(st.integers(1, 1023), min_size=k - 1, max_size=k - 1)))
            bounds = [0, *cuts, 1024]
            probs = [float(Fraction(b - a, 1024)) for a, b in zip(bounds, bounds[1:])]
            return {"chance": probs, "children": [node(depth + 1, mover) for _ in range(k)]}
        who = mover if movers == "alternate" else draw(st.integers(0, n_players - 1))
        nxt = (who + 1) % n_players
        return {"player": names[who], "children": [node(depth + 1, nxt) for _ in range(k)]}

    return node(0, 0)


def _leaves(spec: Any) -> int:
    if spec is None:
        return 1
    return sum(_leaves(c) for c in spec["children"])


def _fill(spec: Any, payoffs: list[tuple[int, ...]]) -> Any:
    if spec is None:
        return payoffs.pop()
    kids = [_fill(c, payoffs) for c in spec["children"]]
    if "simultaneous" in spec:
        who, dims = spec["simultaneous"]
        for d in reversed(dims[1:]):  # nest the joint moves, one level per player
            kids = [kids[j:j + d] for j in range(0, len(kids), d)]
        return {"simultaneous": {"players": [NAMES[k] for k in who], "children": kids}}
    return {**spec, "children": kids}


@st.composite
def game_trees(draw: st.DrawFn, players: int | tuple[int, ...] = 2, *, chance: bool = True,
               distinct: bool = False, goals: str | None = None, movers: str | None = None,
               max_depth: int = 5, max_branching: int = 3, inner_root: bool = False,
               simultaneous: bool = False) -> kop.GameTree:
    """A :class:`kop.GameTree` drawn node by node.

    Parameters
    ----------
    players : int or tuple of int
        The number of players (A, B, C), or the choices for it.
    chance : bool
        Whether chance nodes may appear (never at the root).
    distinct : bool
        Every player's payoffs pairwise distinct (no ties).
    goals : "paper" or "max", optional
        The players' goals (drawn when not given).
    movers : "alternate" or "random", optional
        Who moves: by turns down the tree, or anyone at each node (drawn when not given).
    inner_root : bool
        The root is a decision node (never a bare leaf).
    simultaneous : bool
        Whether simultaneous-move nodes may appear (the root too).
    """
    n = players if isinstance(players, int) else draw(st.sampled_from(players))
    movers = movers or draw(st.sampled_from(["alternate", "random"]))
    goals = goals or draw(st.sampled_from(["paper", "max"]))
    spec = draw(tree_specs(n, max_depth=max_depth, max_branching=max_branching, chance=chance,
                           movers=movers, inner_root=inner_root, simultaneous=simultaneous))
    n_leaves = _leaves(spec)
    if distinct:
        columns = [draw(st.lists(st.integers(0, 1000), min_size=n_leaves, max_size=n_leaves, unique=True))
                   for _ in range(n)]
    else:
        high = draw(st.sampled_from([2, 5, 100]))
        columns = [draw(st.lists(st.integers(0, high), min_size=n_leaves, max_size=n_leaves)) for _ in range(n)]
    payoffs = [tuple(col[i] for col in columns) for i in range(n_leaves)]
    root = _fill(spec, payoffs[::-1])
    return kop.GameTree.build(list(NAMES[:n]), root, goals=goals)


def arbitrary_strategy(data: st.DataObject, tree: kop.GameTree, player: str | None = None) -> Any:
    """A strategy choosing a drawn child at every decision node (shrinks towards the first child).

    *data* is hypothesis' ``st.data()`` object; the strategy is built as
    :func:`kop.games.strategies.random_strategy.random_strategy` builds its random one.
    """
    import numpy as np

    from kop.games.strategies.engine import sweep
    from kop.games.strategies.strategy import Strategy

    counts = (tree.offsets[1:] - tree.offsets[:-1]).astype(np.int64)
    picks = np.array([data.draw(st.integers(0, int(c) - 1)) if k >= 0 and c > 0 else 0
                      for k, c in zip(tree.kind.tolist(), counts.tolist())], dtype=np.int64)
    fixed = np.where(tree.kind >= 0, tree.offsets[:-1] + picks, -1).astype(tree.offsets.dtype)
    k = len(tree.players)
    sol = sweep(tree, np.zeros(k), np.ones(k), fixed=fixed, fixed_movers=np.ones(k, dtype=bool))
    return Strategy(tree, "arbitrary", player, sol)
