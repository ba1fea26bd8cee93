"""The vectorized bottom-up sweep behind every strategy (minimax, M^h, HM0M^d, M^d, play).

The paper's algorithms (Sang & Chen, Algorithms 1, 2, 4, 5) visit the nodes of
one height at a time and set ``next(n)`` to the best child by some component
of ``value``.  This module does the same with numpy over the breadth-first
layout of :class:`~kop.games.trees.tree.GameTree`: it sweeps the depths from the
deepest up (a node's value depends only on its children, so any children-first
order gives the paper's results) and handles all nodes of a depth at once, in
chunks of at most ``CHUNK`` children so that scratch memory stays bounded.

A *rule* says, for the player moving at a node, which payoff component it
optimizes and in which direction (+1 max, -1 min).  A second rule may apply
above a height (HM0M^d), and some movers may have their choice fixed in advance
(M^d follows the opponent's M^(d-1); :func:`~kop.games.strategies.play.play` follows both
strategies).  Chance nodes take the probability-weighted mean of their
children's values.

``value(n)`` is stored as a row index into a value table: the leaf payoffs,
followed by one row per chance node.  So a solution costs two ``int32`` per node.

Parameters shared by the strategies
-----------------------------------
Every strategy function (:func:`~kop.games.strategies.minimax.minimax`, ``mh``, ``hm0m``,
``mstar``, ``alphabeta``, ``prom``, ...) takes *tree*, the :class:`GameTree` searched, and
``tie="first"`` or ``"last"``: which of several equally good children is chosen; *player*,
where taken, is P (default: the player at the root).  It returns a
:class:`~kop.games.strategies.strategy.Strategy` with ``next(n)`` and ``value(n)`` at every
node, whose ``repr`` shows its value at the root.

Parameters of :func:`sweep`
---------------------------
tree : GameTree
comp, sign : int arrays indexed by mover (player index)
    the component optimized and its direction at nodes of height <= *split*
comp_hi, sign_hi : same, for nodes of height > *split* (when *split* is given)
fixed : int array or None
    a child index per node, followed at nodes whose mover has ``fixed_movers`` set
tie : "first" or "last"
    which of several equally good children is chosen (SPEC 3.1; default first)

Example
-------
>>> from kop.games.trees.tree import GameTree
>>> import numpy as np
>>> t = GameTree.build(["A", "B"], ("A", [("B", [(4, 7), (8, 9)]), ("B", [(9, 4), (1, 5)])]))
>>> s = sweep(t, comp=np.array([0, 1]), sign=np.array([1, -1]))   # M^h
>>> t.value_of(s.table[s.ref[0]])
(9, 4)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from kop.games.errors import StrategyError
from kop.games.trees.tree import CHANCE, LEAF, GameTree

__all__ = ["Solution", "sweep", "remembered", "known", "CHUNK", "TIES", "MEMO_NODES", "MEMO_ENTRIES"]

#: at most this many children are handled by one vector step
CHUNK = 1 << 18
#: block size of whole-array scratch work
BLOCK = 1 << 20
_T = TypeVar("_T")

#: the tie-break rules
TIES = ("first", "last")
#: trees of at most this many nodes remember their strategies' solutions (:func:`remembered`)
MEMO_NODES = 1 << 16
#: the most solutions one tree remembers (the oldest go first)
MEMO_ENTRIES = 64


@dataclass(frozen=True, eq=False)
class Solution:
    """``next`` (child index or -1) and ``ref`` (row of ``table``) for every node."""

    next: np.ndarray
    ref: np.ndarray
    table: np.ndarray

    def nbytes(self) -> int:
        extra = self.table.nbytes if self.table.base is None and len(self.table) else 0
        return self.next.nbytes + self.ref.nbytes + extra


def check_tie(tie: str) -> str:
    if tie not in TIES:
        raise StrategyError(f"tie-break must be 'first' or 'last', not {tie!r}")
    return tie


def sweep(tree: GameTree, comp: np.ndarray, sign: np.ndarray, *,
          split: int | None = None, comp_hi: np.ndarray | None = None,
          sign_hi: np.ndarray | None = None, fixed: np.ndarray | None = None,
          fixed_movers: np.ndarray | None = None, tie: str = "first") -> Solution:
    """Compute ``next`` and ``value`` of every node bottom-up (see the module docstring)."""
    tree.require_sequential("this strategy")
    check_tie(tie)
    kind, offsets, levels = tree.kind, tree.offsets, tree.levels
    n, P = len(kind), len(tree.players)
    idx_t = offsets.dtype
    comp = np.asarray(comp, dtype=np.int64)
    sign = np.asarray(sign, dtype=np.float64)
    if split is not None:
        comp_hi = np.asarray(comp_hi, dtype=np.int64)
        sign_hi = np.asarray(sign_hi, dtype=np.float64)
    if fixed is not None:
        fixed_movers = np.asarray(fixed_movers, dtype=bool)
    nxt = np.full(n, -1, dtype=idx_t)
    ref = np.empty(n, dtype=idx_t)
    n_leaves = tree.n_leaves
    n_chance = int(np.count_nonzero(kind == CHANCE)) if tree.probs is not None else 0
    if n_chance:
        table = np.empty((n_leaves + n_chance, P))
        table[:n_leaves] = tree.payoffs
    else:
        table = tree.payoffs
    flat = table.reshape(-1)
    # leaves are numbered breadth first (inner nodes' entries are overwritten below);
    # done in blocks so that the scratch memory stays small
    base = 0
    for a in range(0, n, BLOCK):
        b = min(a + BLOCK, n)
        np.cumsum(kind[a:b] == LEAF, dtype=idx_t, out=ref[a:b])
        ref[a:b] += base - 1
        base += int(np.count_nonzero(kind[a:b] == LEAF))
    chance_row = n_leaves
    for d in range(len(levels) - 2, -1, -1):
        s = int(levels[d])
        inner = (s + np.flatnonzero(kind[s:int(levels[d + 1])] != LEAF)).astype(idx_t)
        if len(inner) == 0:
            continue
        c_end = int(offsets[inner[-1] + 1])
        if c_end - int(offsets[inner[0]]) <= CHUNK:
            chance_row = _chunk(tree, inner, nxt, ref, table, flat, comp, sign, split, comp_hi,
                                sign_hi, fixed, fixed_movers, tie, chance_row, P)
            continue
        # split the parents of this depth into chunks of about CHUNK children
        starts = offsets[inner]
        cut = np.searchsorted(starts, np.arange(int(starts[0]), c_end, CHUNK)[1:])
        for par in np.split(inner, cut):
            if len(par):
                chance_row = _chunk(tree, par, nxt, ref, table, flat, comp, sign, split, comp_hi,
                                    sign_hi, fixed, fixed_movers, tie, chance_row, P)
    for arr in (nxt, ref) if table is tree.payoffs else (nxt, ref, table):  # (a tree's payoffs are its own)
        arr.flags.writeable = False   # a solution may be remembered and shared: nobody may change it
    return Solution(nxt, ref, table)


def _arrays(tree: GameTree) -> tuple[object, ...]:
    """What a sweep reads of *tree*: a remembered solution holds while these are the same objects."""
    return (tree.players, tree.offsets, tree.kind, tree.payoffs, tree.probs, tree.simultaneous)


def remembered(tree: GameTree, key: Hashable, compute: Callable[[], _T]) -> _T:
    """The solution *compute* gives on *tree*, remembered on the tree under *key*.

    (Any immutable answer on a tree may be remembered so, under a key of its own.)

    The strategies (minimax, M^h, HM0M^d, M^d) ask for the same solution many
    times over (the selector, the dominance report and a theory's questions
    each ask for P's minimax); a tree is immutable, so its solutions are kept on
    it, under a key naming the rule (``("minimax", p, tie)``, ...), and live as
    long as the tree.  Only trees of at most :data:`MEMO_NODES` nodes keep them,
    at most :data:`MEMO_ENTRIES` each; a solution's arrays are read-only.
    A tree whose arrays were replaced (a view sharing the rest) starts afresh.

    >>> import kop, numpy as np
    >>> t = kop.figure2()
    >>> a = remembered(t, "Mh", lambda: sweep(t, np.array([0, 1]), np.array([1, -1])))
    >>> b = remembered(t, "Mh", lambda: sweep(t, np.array([0, 0]), np.array([1, 1])))  # not called
    >>> a is b, a.next.flags.writeable
    (True, False)
    """
    table = _memo(tree)
    if table is None:
        return compute()
    sol: _T | None = table.get(key)
    if sol is None:
        sol = compute()
        while len(table) >= MEMO_ENTRIES:
            del table[next(iter(table))]
        table[key] = sol
    return sol


def known(tree: GameTree, key: Hashable) -> Solution | None:
    """The solution remembered on *tree* under *key* (:func:`remembered`), or None.

    >>> import kop
    >>> t = kop.figure2()
    >>> known(t, ("Mh", "first")) is None
    True
    >>> s = kop.mh(t); known(t, ("Mh", "first")) is s._sol
    True
    """
    table = _memo(tree)
    if table is None:
        return None
    sol: Solution | None = table.get(key)
    return sol


def _memo(tree: GameTree) -> dict[Hashable, Any] | None:
    """*tree*'s table of remembered solutions (made if need be), or None for a large tree."""
    if len(tree) > MEMO_NODES:
        return None
    arrays = _arrays(tree)
    memo = tree._solutions
    if memo is None or any(x is not y for x, y in zip(memo[0], arrays)):
        memo = tree._solutions = (arrays, {})
    table: dict[Hashable, Any] = memo[1]
    return table


def _chunk(tree: GameTree, par: np.ndarray, nxt: np.ndarray, ref: np.ndarray, table: np.ndarray,
           flat: np.ndarray, comp: np.ndarray, sign: np.ndarray, split: int | None,
           comp_hi: np.ndarray | None, sign_hi: np.ndarray | None, fixed: np.ndarray | None,
           fixed_movers: np.ndarray | None, tie: str, chance_row: int, P: int) -> int:
    """Choose at the parents *par* (one depth's slice) and fill their rows; the next free chance row."""
    offsets, kind = tree.offsets, tree.kind
    st = offsets[par]
    c0, c1 = int(st[0]), int(offsets[par[-1] + 1])
    seg = st - c0
    counts = offsets[par + 1] - st
    pk = kind[par].astype(np.int64)
    is_ch = pk == CHANCE
    mover = np.where(is_ch, 0, pk)
    opt = ~is_ch
    is_fixed = np.zeros(len(par), dtype=bool)
    if fixed is not None:
        assert fixed_movers is not None
        is_fixed = fixed_movers[mover] & opt
        opt &= ~is_fixed
    choice = np.full(len(par), -1, dtype=np.int64)
    if opt.any():
        pc, ps = comp[mover], sign[mover]
        if split is not None:
            assert comp_hi is not None and sign_hi is not None
            hi = tree.heights[par] > split
            pc = np.where(hi, comp_hi[mover], pc)
            ps = np.where(hi, sign_hi[mover], ps)
        k = int(counts[0])
        if (counts == k).all():
            pos = _uniform_best(table, ref[c0:c1].reshape(-1, k), pc, ps, tie) + seg
        else:
            pos = _ragged_best(flat, ref[c0:c1], pc, ps, counts, seg, P, tie)
        choice = np.where(opt, pos + c0, -1)
    if fixed is not None:
        choice = np.where(is_fixed, fixed[par], choice)
    nxt[par] = choice
    dec = ~is_ch
    ref[par[dec]] = ref[choice[dec]]
    if is_ch.any():
        assert tree.probs is not None
        w = np.nan_to_num(tree.probs[c0:c1])
        sums = np.add.reduceat(table[ref[c0:c1]] * w[:, None], seg, axis=0)[is_ch]
        rows = np.arange(chance_row, chance_row + len(sums))
        table[rows] = sums
        ref[par[is_ch]] = rows
        chance_row += len(sums)
    return chance_row


def _uniform_best(table: np.ndarray, cr: np.ndarray, pc: np.ndarray, ps: np.ndarray, tie: str) -> np.ndarray:
    """Best child rank per row of *cr* (every parent has the same number of children)."""
    if (pc == pc[0]).all() and (ps == ps[0]).all():
        vals = table[cr, pc[0]]
        pick = np.argmax if ps[0] > 0 else np.argmin   # both return the first best
    else:
        vals = table[cr, pc[:, None]] * ps[:, None]
        pick = np.argmax
    if tie == "first":
        return np.asarray(pick(vals, axis=1))
    return np.asarray(cr.shape[1] - 1 - pick(vals[:, ::-1], axis=1))


def _ragged_best(flat: np.ndarray, cr: np.ndarray, pc: np.ndarray, ps: np.ndarray, counts: np.ndarray,
                 seg: np.ndarray, P: int, tie: str) -> np.ndarray:
    """Best child offset (from the chunk start) per parent, any numbers of children."""
    key = flat[cr.astype(np.int64) * P + np.repeat(pc, counts)]
    key *= np.repeat(ps, counts)
    best = np.maximum.reduceat(key, seg)
    m = len(cr)
    eq = key == np.repeat(best, counts)
    if tie == "first":
        return np.asarray(np.minimum.reduceat(np.where(eq, np.arange(m), m), seg))
    return np.asarray(np.maximum.reduceat(np.where(eq, np.arange(m), -1), seg))
