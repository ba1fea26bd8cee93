"""The random trees of Bodkin's simulations (§4.6): uniform N-player trees with U_m leaves.

* The tree is uniform with branching ``b`` and depth ``d``; the player to move at depth
  ``n`` is ``n mod N``.
* Leaves are drawn uniformly from ``U_m = {x in [0,1]^N : m <= sum(x) <= 1}``: the sum s
  has density proportional to ``s^(N-1)`` on ``[m, 1]`` (drawn by inverting its CDF) and
  ``x/s`` is uniform on the simplex (a flat Dirichlet).  ``m = 1`` is the simplex itself.
* Ordering ``eta``: 1 sorts each node's children by descending backed-up (max^n) payoff for
  the mover; ``eta > 1`` sorts by that payoff times ``eta^(1 - 2r)`` with r ~ U[0, 1]
  (semi-ordered); ``eta = inf`` keeps the random order.

Parameters of :func:`bodkin_tree`
--------------------------------
n_players, branching, depth : int
m : float in [0, 1]
eta : float >= 1 or ``math.inf``
seed : int or numpy Generator
leaves : "uniform" (default) or "normalized" (see :data:`LEAF_DISTRIBUTIONS`)

Example
-------
>>> from kop.games.nplayer.random_trees import bodkin_tree
>>> t = bodkin_tree(3, 2, 4, m=1, eta=1, seed=7)
>>> t
GameTree(players=(1:max, 2:max, 3:max), nodes=31, leaves=16, height=4)
>>> abs(float(t.payoffs.sum(axis=1).max()) - 1) < 1e-12
True
"""

from __future__ import annotations

import math

import numpy as np

from kop.syntax import arguments
from kop.games.errors import TreeError
from kop.games.trees.tree import LEAF, GameTree, Player

__all__ = ["bodkin_tree", "bodkin_leaves", "bodkin_arrays", "LEAF_DISTRIBUTIONS"]

#: "uniform": uniform on U_m (the thesis's stated distribution); "normalized": a uniform point of
#: the cube scaled onto the sum (x / sum(x)), which is not uniform on the simplex
LEAF_DISTRIBUTIONS = ("uniform", "normalized")

#: the most leaves :func:`bodkin_arrays` builds
MAX_LEAVES = 20_000_000


def bodkin_leaves(rng: np.random.Generator, count: int, n_players: int, m: float,
                  leaves: str = "uniform") -> np.ndarray:
    """*count* points on ``U_m`` (shape ``(count, n_players)``), uniform or "normalized"."""
    if not 0 <= m <= 1:
        raise TreeError(f"m must be in [0, 1], not {m}")
    if leaves == "uniform":
        x = rng.dirichlet(np.ones(n_players), size=count)
    elif leaves == "normalized":
        x = rng.random((count, n_players))
        x /= x.sum(axis=1, keepdims=True)
    else:
        raise TreeError(f"leaves must be one of {', '.join(LEAF_DISTRIBUTIONS)}, not {leaves!r}")
    if m < 1:
        lo = m ** n_players
        s = (lo + rng.random(count) * (1 - lo)) ** (1.0 / n_players)
        x *= s[:, None]
    return x


def _check(n_players: int, branching: int, depth: int, eta: float) -> None:
    if n_players < 1 or branching < 2 or depth < 1:
        raise TreeError("need n_players >= 1, branching >= 2 and depth >= 1")
    if not eta >= 1:
        raise TreeError(f"eta must be >= 1 (1 sorted, inf random), not {eta}")
    if branching ** depth > MAX_LEAVES:
        raise TreeError(f"{branching}^{depth} leaves is above the limit {MAX_LEAVES}")


def bodkin_arrays(n_players: int, branching: int, depth: int, m: float, eta: float,
                  rng: np.random.Generator, leaves: str = "uniform") -> tuple[np.ndarray, np.ndarray]:
    """(leaves in tree order, max^n root value) of one random tree (see the module docstring)."""
    _check(n_players, branching, depth, eta)
    b, N = branching, n_players
    pay = bodkin_leaves(rng, b ** depth, N, m, leaves)
    orders: list[np.ndarray | None] = [None] * depth
    vals = pay
    for k in range(depth - 1, -1, -1):
        ch = vals.reshape(-1, b, N)
        key = ch[:, :, k % N]
        if eta != math.inf:
            if eta != 1:
                key = key * eta ** (1 - 2 * rng.random(key.shape))
            orders[k] = np.argsort(-key, axis=1, kind="stable")
        pick = np.argmax(ch[:, :, k % N], axis=1)
        vals = ch[np.arange(len(ch)), pick]
    if eta == math.inf:
        return pay, vals[0]
    ids = np.zeros(1, dtype=np.int64)
    for k in range(depth):
        order = orders[k]
        assert order is not None
        ids = (ids[:, None] * b + order[ids]).ravel()
    pay = pay[ids]
    return pay, root_value(pay, N, b, depth)


def root_value(leaves: np.ndarray, n_players: int, branching: int, depth: int) -> np.ndarray:
    """max^n value (first child on ties) of the uniform tree with these leaves, vectorized."""
    vals = leaves
    for k in range(depth - 1, -1, -1):
        ch = vals.reshape(-1, branching, n_players)
        vals = ch[np.arange(len(ch)), np.argmax(ch[:, :, k % n_players], axis=1)]
    return np.asarray(vals[0])


def bodkin_tree(n_players: int = 3, branching: int = 2, depth: int = 6, *, m: float = 1.0,
                eta: float = 1.0, seed: int | np.random.Generator | None = None,
                leaves: str = "uniform") -> GameTree:
    """One random tree of the thesis's simulations as a :class:`GameTree` (players "1".."N").

    Parameters
    ----------
    n_players, branching, depth : int
        The tree's shape; players ``1``..``N`` move in turn.
    m : float
        In [0, 1]: the leaves' payoffs sum to between m and 1.
    eta : float
        >= 1 or ``math.inf`` (see the module docstring).
    seed : int or numpy.random.Generator, optional
        The tree is a function of it.
    leaves : {"uniform", "normalized"}
        The leaf distribution.

    Returns
    -------
    GameTree
        The tree; every player maximizes.

    Examples
    --------
    >>> import kop
    >>> kop.bodkin_tree(3, 2, 4, seed=7)
    GameTree(players=(1:max, 2:max, 3:max), nodes=31, leaves=16, height=4)

    References
    ----------
    R. J. Bodkin, *Extending Computational Game Theory: Simultaneity, Multiple Agents, Chance
    and Metareasoning*, MIT (1992), §4.6.
    """
    n_players, branching = arguments.integer(n_players, "n_players"), arguments.integer(branching, "branching")
    depth = arguments.integer(depth, "depth")
    m, eta = arguments.real(m, "m"), arguments.real(eta, "eta", finite=False)
    seed = arguments.seed(seed)
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    pay, _ = bodkin_arrays(n_players, branching, depth, m, eta, rng, leaves)
    b = branching
    n_inner = (b ** depth - 1) // (b - 1)
    n = n_inner + len(pay)
    offsets = np.empty(n + 1, dtype=np.int64)
    offsets[:n_inner + 1] = np.arange(n_inner + 1) * b + 1
    offsets[n_inner + 1:] = offsets[n_inner]
    kind = np.concatenate([np.full(b ** d, d % n_players, dtype=np.int8) for d in range(depth)]
                          + [np.full(len(pay), LEAF, dtype=np.int8)])
    players = [Player(str(i + 1), "max") for i in range(n_players)]
    return GameTree(players, offsets, kind, pay)
