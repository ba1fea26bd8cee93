"""Seedable random game trees, built level by level with numpy (millions of nodes in a second).

Parameters of :func:`random_tree`
---------------------------------
depth : int
    the deepest level; nodes there are leaves
branching : int or (lo, hi)
    children per inner node: fixed, or uniform on lo..hi
players : names or Player values (default A max, B min: the paper's convention)
goals : "paper" or "max"
    goals of bare player names (see :func:`kop.games.trees.tree.make_players`)
payoffs : "int" or "real"
    integers uniform on ``low..high`` or reals uniform on ``[low, high)``
low, high : numbers
distinct : bool
    every player's payoffs are pairwise distinct (a permutation; needs ints)
correlation : None, +1 or -1
    E_B = correlation * E_A + noise (two or more players; every player after the first)
noise : float
    the noise scale: integers uniform on -noise..noise, or reals N(0, noise)
leaf_prob : float
    probability that a node above the deepest level is a leaf anyway (the root never is)
chance_prob : float
    probability that an inner node is a chance node; probabilities are multiples
    of 1/1024, so sums and expectations of integer payoffs are exact
movers : "alternate" or "random"
    who moves: players in turn by depth, or uniformly at random
max_nodes : int, optional
    stop growing once this many nodes exist (the last level becomes leaves)
seed : int, optional

Example
-------
>>> from kop.games.trees.random_trees import random_tree
>>> random_tree(depth=3, branching=2, seed=1)
GameTree(players=(A:max, B:min), nodes=15, leaves=8, height=3)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kop.syntax import arguments
from kop.games.errors import TreeError
from kop.games.trees.tree import CHANCE, LEAF, GameTree, Player, make_players

__all__ = ["random_tree", "random_strategy_choices"]

_PROB_UNITS = 1024


def random_tree(depth: int = 4, branching: int | tuple[int, int] = 2, *,
                players: Sequence[Player | str] | None = None, goals: str = "paper",
                payoffs: str = "int", low: float = 0, high: float = 100, distinct: bool = False,
                correlation: int | None = None, noise: float = 0, leaf_prob: float = 0.0,
                chance_prob: float = 0.0, movers: str = "alternate", max_nodes: int | None = None,
                seed: int | None = None) -> GameTree:
    """A random tree (see the module docstring for the parameters).

    Parameters
    ----------
    depth, branching, players, goals, payoffs, low, high, distinct, correlation, noise, leaf_prob, chance_prob, movers, max_nodes, seed
        As listed in the module docstring (:mod:`kop.games.random_trees`).

    Returns
    -------
    GameTree
        The tree, a function of the arguments and *seed*.

    Examples
    --------
    >>> import kop
    >>> kop.random_tree(depth=3, branching=2, seed=1)
    GameTree(players=(A:max, B:min), nodes=15, leaves=8, height=3)
    >>> kop.random_tree(depth=3, seed=1) == kop.random_tree(depth=3, seed=1)
    True
    """
    depth = arguments.integer(depth, "depth")
    if isinstance(branching, (tuple, list)) and len(branching) == 2:
        branching = (arguments.integer(branching[0], "branching"), arguments.integer(branching[1], "branching"))
    elif not isinstance(branching, int) or isinstance(branching, bool):
        raise arguments.fail("branching", "an integer or a pair (low, high) of integers", branching)
    low, high = arguments.real(low, "low"), arguments.real(high, "high")
    arguments.flag(distinct, "distinct")
    noise = arguments.real(noise, "noise")
    leaf_prob, chance_prob = arguments.real(leaf_prob, "leaf_prob"), arguments.real(chance_prob, "chance_prob")
    if max_nodes is not None:
        max_nodes = arguments.integer(max_nodes, "max_nodes")
    rng = np.random.default_rng(arguments.seed(seed))
    ps = make_players(players, goals)
    n_players = len(ps)
    lo, hi = (branching, branching) if isinstance(branching, int) else tuple(branching)
    if not 1 <= lo <= hi:
        raise TreeError(f"branching must be >= 1 (lo <= hi), not {branching!r}")
    if depth < 0:
        raise TreeError("depth must be >= 0")
    if payoffs not in ("int", "real"):
        raise TreeError(f"payoffs must be 'int' or 'real', not {payoffs!r}")
    if movers not in ("alternate", "random"):
        raise TreeError(f"movers must be 'alternate' or 'random', not {movers!r}")
    if correlation not in (None, 1, -1):
        raise TreeError("correlation must be None, +1 or -1")
    counts_per_level: list[np.ndarray] = []
    kinds_per_level: list[np.ndarray] = []
    width, total = 1, 1
    for d in range(depth + 1):
        last = d == depth or (max_nodes is not None and total >= max_nodes)
        if last:
            inner = np.zeros(width, dtype=bool)
        elif d == 0:
            inner = np.ones(1, dtype=bool)
        else:
            inner = rng.random(width) >= leaf_prob
        counts = np.where(inner, rng.integers(lo, hi + 1, size=width), 0)
        if movers == "alternate":
            kind = np.full(width, d % n_players, dtype=np.int8)
        else:
            kind = rng.integers(0, n_players, size=width).astype(np.int8)
        if chance_prob > 0:
            kind = np.where(rng.random(width) < chance_prob, CHANCE, kind).astype(np.int8)
        kind[~inner] = LEAF
        counts_per_level.append(counts)
        kinds_per_level.append(kind)
        width = int(counts.sum())
        total += width
        if width == 0:
            break
    counts = np.concatenate(counts_per_level)
    kind = np.concatenate(kinds_per_level)
    n = len(kind)
    idx_t = np.int32 if n + 1 < 2**31 else np.int64
    offsets: np.ndarray = np.empty(n + 1, dtype=idx_t)
    offsets[0] = 1
    np.cumsum(counts, out=offsets[1:])
    offsets[1:] += 1
    n_leaves = int(np.count_nonzero(kind == LEAF))
    pay = _payoffs(rng, n_leaves, n_players, payoffs, low, high, distinct, correlation, noise)
    probs = None
    if np.any(kind == CHANCE):
        probs = np.full(n, np.nan)
        for i in np.flatnonzero(kind == CHANCE):
            a, b = int(offsets[i]), int(offsets[i + 1])
            units = 1 + rng.multinomial(_PROB_UNITS - (b - a), np.full(b - a, 1.0 / (b - a)))
            probs[a:b] = units / _PROB_UNITS
    return GameTree(ps, offsets, kind, pay, probs, integral=payoffs == "int")


def _payoffs(rng: np.random.Generator, n_leaves: int, n_players: int, kind: str, low: float, high: float,
             distinct: bool, correlation: float | None, noise: float) -> np.ndarray:
    pay: np.ndarray
    eps: np.ndarray | int
    if distinct:
        if kind != "int":
            raise TreeError("distinct payoffs need payoffs='int'")
        span = max(int(high) - int(low) + 1, n_leaves)
        pay = np.stack([int(low) + rng.permutation(span)[:n_leaves] for _ in range(n_players)], axis=1)
        pay = pay.astype(np.float64)
    elif kind == "int":
        pay = rng.integers(int(low), int(high) + 1, size=(n_leaves, n_players)).astype(np.float64)
    else:
        pay = rng.uniform(low, high, size=(n_leaves, n_players))
    if correlation is not None and n_players > 1:
        for j in range(1, n_players):
            if kind == "int":
                eps = rng.integers(-int(noise), int(noise) + 1, size=n_leaves) if noise else 0
            else:
                eps = rng.normal(0.0, noise, size=n_leaves) if noise else 0
            pay[:, j] = correlation * pay[:, 0] + eps
    return pay


def random_strategy_choices(tree: GameTree, seed: int | None = None) -> np.ndarray:
    """A uniformly random child at every decision node (-1 elsewhere): an arbitrary strategy."""
    rng = np.random.default_rng(seed)
    counts = (tree.offsets[1:] - tree.offsets[:-1]).astype(np.int64)
    pick = (rng.random(len(tree)) * np.maximum(counts, 1)).astype(np.int64)
    out = np.where(tree.kind >= 0, tree.offsets[:-1] + pick, -1)
    return out.astype(tree.offsets.dtype)

