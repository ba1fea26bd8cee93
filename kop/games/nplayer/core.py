"""What the N-player searches share: a flat list layout of a tree, the result value, deep recursion.

The searches are recursive Python over plain lists (``off``, ``kind``, ``pay``), which is
several times faster than indexing numpy arrays element by element.

Examples
--------
>>> from kop.games.trees.tree import GameTree
>>> from kop.games.nplayer.core import Flat
>>> t = GameTree.build(["a", "b"], ("a", [(1, 0), ("b", [(0, 1), (1, 1)])]), goals="max")
>>> f = Flat.of(t)
>>> f.off[:3], f.kind[:3], f.pay[1]
([1, 3, 3], [0, -1, 1], (1.0, 0.0))
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from kop.games.errors import LimitError, StrategyError
from kop.games.trees.tree import LEAF, GameTree
from kop.games.trees.checks import tree_argument
from kop.games.nplayer.bounds import PayoffBounds, as_bounds

__all__ = ["Flat", "NPlayerResult", "run_deep", "bounded_search", "require_maximizers"]

T = TypeVar("T")

#: trees up to this height run on the caller's stack; deeper ones on a thread with a large stack
_SHALLOW = 400
#: the deepest tree the recursive searches accept
MAX_HEIGHT = 50_000


@dataclass(frozen=True)
class Flat:
    """A perfect-information tree as lists: children of ``i`` are ``off[i]:off[i+1]``.

    ``kind[i]`` is the mover (player index) or -1 at a leaf; ``pay[i]`` is the payoff
    tuple at a leaf and None elsewhere; ``n`` is the number of players.
    """

    off: list[int]
    kind: list[int]
    pay: list[tuple[float, ...] | None]
    n: int
    height: int

    @classmethod
    def of(cls, tree: GameTree, what: str = "this search") -> Flat:
        """The list layout of *tree*; a located error if it has chance or simultaneous nodes."""
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
        return cls(tree.offsets.tolist(), kind.tolist(), pay, len(tree.players), tree.height)

    @classmethod
    def uniform(cls, n_players: int, branching: int, depth: int, leaves: np.ndarray) -> Flat:
        """A uniform tree whose mover at depth ``d`` is ``d mod n_players`` (Bodkin §4.6)."""
        b = branching
        n_inner = (b ** depth - 1) // (b - 1) if b > 1 else depth
        off = list(range(1, n_inner * b + 2, b)) + [n_inner * b + 1] * len(leaves)
        kind: list[int] = []
        for d in range(depth):
            kind += [d % n_players] * b ** d
        kind += [LEAF] * len(leaves)
        pay: list[tuple[float, ...] | None] = [None] * n_inner
        pay += map(tuple, leaves.tolist())
        return cls(off, kind, pay, n_players, depth)


@dataclass(frozen=True)
class NPlayerResult:
    """The value of a search: one payoff per player, the leaves examined, the chosen root move.

    ``move`` is the rank of the root child the root player picks (None at a leaf root).

    Parameters
    ----------
    algorithm : str
        The search's name.
    value : tuple
        One payoff per player.
    leaves : int
        Leaves examined.
    move : int or None
        The root player's child rank.

    Examples
    --------
    >>> import kop
    >>> t = kop.GameTree.build(["1", "2", "3"], ("1", [
    ...     ("2", [(.7, .2, .1), (.5, .1, .4)]), ("2", [(.1, .6, .3), (.3, .3, .4)])]), goals="max")
    >>> r = kop.maxn(t)
    >>> r.value, r.leaves, r.move
    ((0.7, 0.2, 0.1), 4, 0)
    """

    algorithm: str
    value: tuple[int | float, ...]
    leaves: int
    move: int | None

    def __repr__(self) -> str:
        return f"NPlayerResult({self.algorithm!r}, value={self.value}, leaves={self.leaves}, move={self.move})"

    def to_dict(self) -> dict[str, Any]:
        return {"algorithm": self.algorithm, "value": list(self.value), "leaves": self.leaves,
                "move": self.move}

    @classmethod
    def of(cls, tree: GameTree, flat: Flat, algorithm: str, value: tuple[float, ...], leaves: int,
           child: int) -> NPlayerResult:
        """The result of a search on *flat* (the layout of *tree*) that chose root child index *child*."""
        return cls(algorithm, tree.value_of(value), leaves, None if child < 0 else child - flat.off[0])


def bounded_search(tree: GameTree, bounds: PayoffBounds | Mapping[str, Any] | None, algorithm: str,
                   run: Callable[[Flat, PayoffBounds], tuple[tuple[float, ...], int, int]]) -> NPlayerResult:
    """Run a pruning search ``run(flat, bounds) -> (value, leaves, root child)`` on *tree*: every player must
    maximize, the *bounds* are checked on every leaf (None: inferred), deep trees get a large stack.

    >>> import kop
    >>> from kop.games.nplayer.lower_eval import lower_eval_flat
    >>> t = kop.bodkin_tree(3, 2, 4, m=1, eta=1, seed=2)
    >>> bounded_search(t, None, "lower_eval", lower_eval_flat).value == kop.maxn(t).value
    True
    """
    require_maximizers(tree, algorithm)
    b = as_bounds(tree, bounds)
    flat = Flat.of(tree, algorithm)
    value, leaves, child = run_deep(lambda: run(flat, b), flat.height)
    return NPlayerResult.of(tree, flat, algorithm, value, leaves, child)


def run_deep(fn: Callable[[], T], height: int) -> T:
    """``fn()`` with room for a recursion *height* deep (a thread with a large stack if needed)."""
    if height > MAX_HEIGHT:
        raise LimitError(f"tree of height {height} is deeper than the recursive searches' limit {MAX_HEIGHT}")
    if height <= _SHALLOW:
        return fn()
    out: list[T] = []
    err: list[BaseException] = []

    def target() -> None:
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 4 * height + 1000))
        try:
            out.append(fn())
        except BaseException as exc:  # re-raised in the caller
            err.append(exc)
        finally:
            sys.setrecursionlimit(old)

    old_size = threading.stack_size()
    threading.stack_size(min(1 << 30, max(64 << 20, height * 2048)))
    try:
        th = threading.Thread(target=target)
        th.start()
        th.join()
    finally:
        threading.stack_size(old_size)
    if err:
        raise err[0]
    return out[0]


def require_maximizers(tree: GameTree, what: str) -> None:
    """A located error unless every player maximizes (Bodkin's searches assume max^n)."""
    tree_argument(tree)
    for p in tree.players:
        if p.goal != "max":
            raise StrategyError(f"{what} assumes every player maximizes its own payoff (max^n); "
                                f"player {p.name} minimizes: negate its payoffs or use maxn")
