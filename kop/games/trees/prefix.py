"""A game tree from per-node arrays in prefix (file) order: what a streaming reader produces.

The ``.efg`` fast path (:mod:`kop.io.efgscan`) and OpenSpiel's converter
(:mod:`kop.io.openspiel`) both walk a game depth first and hand the arrays here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kop.games.trees.tree import LEAF, GameTree, Player

__all__ = ["tree_from_prefix"]


def tree_from_prefix(players: Sequence[Player], depth: np.ndarray, kinds: np.ndarray, n_kids: np.ndarray,
                     leaf_matrix: np.ndarray, integral: bool, labels: dict[int, str],
                     moves: list[tuple[int, int, str]], chance_nodes: np.ndarray,
                     chance_probs: np.ndarray) -> GameTree:
    """A :class:`GameTree` from per-node arrays in prefix order.

    *leaf_matrix* holds the payoffs of the terminal nodes in file order, as Gambit gives them
    (players maximize; those of ``min`` players are negated here); *moves* lists
    (parent, rank, name) of labelled moves; *chance_probs* the probabilities of the children
    of each of *chance_nodes* in turn.  The temporaries are a few bytes a node.

    >>> tree_from_prefix((Player("A"),), np.array([0, 1, 1]), np.array([0, LEAF, LEAF]),
    ...                  np.array([2, 0, 0]), np.array([[1.0], [2.0]]), True, {0: "r"}, [(0, 1, "x")],
    ...                  np.zeros(0, dtype=np.int64), np.zeros(0))
    GameTree(players=(A:max), nodes=3, leaves=2, height=1)
    """
    n = len(kinds)
    idx_t = np.int32 if n + 1 < 2**31 else np.int64
    # breadth-first order: by depth, then prefix order (within one depth both order by path)
    order = np.argsort(np.asarray(depth), kind="stable").astype(idx_t, copy=False)
    kind_pre = np.asarray(kinds, dtype=np.int8)
    kind = kind_pre[order]
    offsets: np.ndarray = np.empty(n + 1, dtype=idx_t)
    offsets[0] = 1
    np.cumsum(np.asarray(n_kids)[order], dtype=idx_t, out=offsets[1:])
    offsets[1:] += 1
    # the leaves' rows, breadth first
    leaf_row = np.cumsum(kind_pre == LEAF, dtype=idx_t)
    del kind_pre
    rows = leaf_row[order[kind == LEAF]]
    del leaf_row
    rows -= 1
    payoffs = np.asarray(leaf_matrix, dtype=np.float64).reshape(-1, len(players))[rows]
    del rows
    for j, p in enumerate(players):
        if p.sign < 0:
            np.negative(payoffs[:, j], out=payoffs[:, j])
    np.add(payoffs, 0.0, out=payoffs)  # no negative zeros (-0.0 + 0.0 is 0.0)
    prob_arr = None
    lab: dict[int, str] = {}
    mv: dict[int, str] = {}
    if len(chance_nodes) or labels or moves:
        rank = np.empty(n, dtype=idx_t)
        rank[order] = np.arange(n, dtype=idx_t)
        del order
        if len(chance_nodes):
            counts = np.asarray(n_kids, dtype=np.int64)[chance_nodes]
            before = np.cumsum(counts) - counts
            child = (np.repeat(offsets[rank[chance_nodes]].astype(np.int64) - before, counts)
                     + np.arange(int(counts.sum())))
            prob_arr = np.full(n, np.nan)
            prob_arr[child] = chance_probs
        if labels:
            at = rank[np.fromiter(labels, dtype=np.int64, count=len(labels))].tolist()
            lab = dict(zip(at, labels.values()))
        if moves:
            parents = np.array([p for p, _, _ in moves], dtype=np.int64)
            first = offsets[rank[parents]].tolist()
            mv = {f + r: s for f, (_, r, s) in zip(first, moves)}
        del rank
    return GameTree(players, offsets, kind, payoffs, prob_arr, lab, mv, integral)
