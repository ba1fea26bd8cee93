"""What the N-player searches share: the result value, running a pruning search, deep recursion.

The searches are recursive Python over the payoff view of
:class:`~kop.games.trees.lists.TreeLists` (``off``, ``kind``, ``pay``), which is several
times faster than indexing numpy arrays element by element.

Examples
--------
>>> import kop
>>> from kop.games.nplayer.lower_eval import lower_eval_flat
>>> t = kop.bodkin_tree(3, 2, 4, m=1, eta=1, seed=2)
>>> bounded_search(t, None, "lower_eval", lower_eval_flat) == kop.lower_eval(t)
True
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from kop.games.errors import LimitError, StrategyError
from kop.games.result import RootMoveResult
from kop.games.trees.lists import TreeLists
from kop.games.trees.tree import GameTree
from kop.games.trees.checks import tree_argument
from kop.games.nplayer.bounds import PayoffBounds, as_bounds

__all__ = ["NPlayerResult", "run_deep", "bounded_search", "require_maximizers"]

T = TypeVar("T")

#: trees up to this height run on the caller's stack; deeper ones on a thread with a large stack
_SHALLOW = 400
#: the deepest tree the recursive searches accept
MAX_HEIGHT = 50_000


@dataclass(frozen=True)
class NPlayerResult(RootMoveResult):
    """The value of a search: one payoff per player, the leaves examined, the chosen root move.

    ``move`` is the rank of the root child the root player picks (None at a leaf root);
    ``path`` is ``(move,)`` (or ``()``), ``nodes`` the leaves examined
    (:class:`~kop.games.result.RootMoveResult`).

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
    >>> r.value, r.leaves, r.move, r.path, r.nodes
    ((0.7, 0.2, 0.1), 4, 0, (0,), 4)
    """

    algorithm: str
    value: tuple[int | float, ...]
    leaves: int
    move: int | None

    def __repr__(self) -> str:
        return f"NPlayerResult({self.algorithm!r}, value={self.value}, leaves={self.leaves}, move={self.move})"

    def to_dict(self) -> dict[str, Any]:
        return {"algorithm": self.algorithm, "value": list(self.value), "leaves": self.leaves,
                "move": self.move, "path": list(self.path), "nodes": self.nodes}

    @classmethod
    def of(cls, tree: GameTree, flat: TreeLists, algorithm: str, value: tuple[float, ...], leaves: int,
           child: int) -> NPlayerResult:
        """The result of a search on *flat* (the layout of *tree*) that chose root child index *child*."""
        return cls(algorithm, tree.value_of(value), leaves, None if child < 0 else child - flat.off[0])


def bounded_search(tree: GameTree, bounds: PayoffBounds | Mapping[str, Any] | None, algorithm: str,
                   run: Callable[[TreeLists, PayoffBounds], tuple[tuple[float, ...], int, int]]) -> NPlayerResult:
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
    flat = TreeLists.payoffs(tree, algorithm)
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
