"""What a search on an implicit game returns, and the bookkeeping every search shares.

Example
-------
>>> from kop.games.search.implicit import nim
>>> from kop.games.registry import search
>>> r = search(nim(), "alphabeta")
>>> r
SearchResult('alphabeta', player='MAX', value=(-1, -1), move='take 1 from pile of 2', nodes=...)
>>> r.pv_names
('take 1 from pile of 2', 'take 2 from pile of 2', 'take 1 from pile of 1')
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kop.games.errors import GameError, LimitError
from kop.games.search.implicit import CHANCE, Evaluations, GameView, state_text

#: the kinds of an alpha-beta table entry: the exact value, a lower bound, an upper bound
EXACT, LOWER, UPPER = 0, 1, 2

__all__ = ["SearchResult", "SearchContext", "number", "depth_key", "NO_LIMIT", "recursion_guard", "setup",
           "expectation"]

#: the depth key used for "search to the end"
NO_LIMIT = -1


def number(x: float) -> int | float:
    """*x* as an ``int`` when it is whole (payoffs read back as written), else a float."""
    if isinstance(x, float) and x.is_integer() and abs(x) < 2**53:
        return int(x)
    return x


def depth_key(depth: Any) -> int:
    """The depth key: a non-negative int, or NO_LIMIT for None."""
    if depth is None:
        return NO_LIMIT
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise GameError(f"the search depth must be an integer >= 0 or None, not {depth!r}")
    if depth < 0:
        raise GameError(f"the search depth must be >= 0, not {depth}")
    return depth


@dataclass(frozen=True)
class SearchResult:
    """The outcome of a search from one state.

    Attributes
    ----------
    strategy : str
        The strategy's name (``minimax``, ``alphabeta``, ``M2``, ``Mh``, ``HM0M1``, ...).
    player : str or None
        Whose strategy (None for M^h, which models every player alike).
    value : tuple
        The value the strategy predicts: one number per player (the payoff or
        evaluation vector of the leaf its principal variation reaches; an
        expectation through chance nodes).  A component is NaN when minimax or
        alpha-beta had no evaluation for that player at the horizon.
    move : object or None
        The move chosen at the root (None at a terminal or chance state).
    pv : tuple
        The principal variation: the moves the strategy expects, from the root
        to a leaf, the horizon or a chance state.
    nodes : int
        States visited (transposition-table hits included).

    Examples
    --------
    >>> import kop
    >>> r = kop.search(kop.nim(), "alphabeta")
    >>> r.strategy, r.value, r.nodes
    ('alphabeta', (-1, -1), 11)
    """

    strategy: str
    player: str | None
    value: tuple[int | float, ...]
    move: Any
    pv: tuple[Any, ...]
    nodes: int
    pv_names: tuple[str, ...] = ()
    depth: int | None = None
    tt_hits: int = 0
    raw: tuple[float, ...] = field(default=(), repr=False, compare=False)

    @property
    def path(self) -> tuple[Any, ...]:
        """The principal variation (:attr:`pv`): the moves from the root."""
        return self.pv

    @property
    def move_name(self) -> str | None:
        return self.pv_names[0] if self.pv_names and self.move is not None else None

    def to_json(self) -> dict[str, Any]:
        return {"strategy": self.strategy, "player": self.player,
                "value": [None if isinstance(v, float) and math.isnan(v) else v for v in self.value],
                "move": self.move_name, "pv": list(self.pv_names), "nodes": self.nodes, "depth": self.depth}

    def __repr__(self) -> str:
        who = f", player={self.player!r}" if self.player else ""
        return (f"SearchResult({self.strategy!r}{who}, value={self.value}, move={self.move_name!r}, "
                f"nodes={self.nodes})")


class SearchContext:
    """Per-search state: the checked game view, the node counter and the transposition tables."""

    __slots__ = ("view", "nodes", "hits", "tables", "leaf", "max_nodes")

    def __init__(self, view: GameView, max_nodes: int | None = None):
        if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int)
                                      or max_nodes < 1):
            raise LimitError(f"max_nodes must be a positive integer or None, not {max_nodes!r}")
        self.view = view
        self.max_nodes = max_nodes
        self.nodes = 0
        self.hits = 0
        self.tables: dict[Hashable, dict[Hashable, Any]] = {}
        #: ``leaf(state, terminal, need) -> vector``: the leaf scores, cached by state key when
        #: evaluation functions are involved (they are usually the costly part of a search)
        self.leaf: Callable[[Any, bool, Sequence[int] | None], tuple[float, ...]] = (
            view.leaf if view.plain else self._cached_leaf())

    def _cached_leaf(self) -> Callable[[Any, bool, Sequence[int] | None], tuple[float, ...]]:
        view = self.view
        cache: dict[Hashable, tuple[float, ...]] = {}
        key_of, scores, check = view.key, view.scores, view.check_known

        def leaf(state: Any, terminal: bool, need: Sequence[int] | None = None) -> tuple[float, ...]:
            k = (terminal, key_of(state))
            vec = cache.get(k)
            if vec is None:
                vec = cache[k] = scores(state, terminal)
            check(state, vec, need)
            return vec
        return leaf

    def table(self, name: Hashable) -> dict[Hashable, Any]:
        t = self.tables.get(name)
        if t is None:
            t = self.tables[name] = {}
        return t

    def recall(self, memo: dict[Hashable, Any], key: Hashable) -> tuple[Any, ...] | None:
        """The entry of *memo* at *key* (counted as a hit), or None."""
        hit: tuple[Any, ...] | None = memo.get(key)
        if hit is not None:
            self.hits += 1
        return hit

    def probe(self, tt: dict[Hashable, Any], key: Hashable, alpha: float, beta: float) -> tuple[Any, ...] | None:
        """``(u, vector, pv)`` from an alpha-beta table entry ``(flag, u, vector, pv)`` at *key* when it
        decides the window (alpha, beta) (counted as a hit), else None."""
        hit = tt.get(key)
        if hit is not None:
            flag, u = hit[0], hit[1]
            if flag == EXACT or (flag == LOWER and u >= beta) or (flag == UPPER and u <= alpha):
                self.hits += 1
                return u, hit[2], hit[3]
        return None

    def step(self, state: Any, depth: int) -> tuple[int, list[Any], list[float] | None, int]:
        """:meth:`expand`, and the depth left for the children (a negative depth means no limit)."""
        who, moves, probs = self.expand(state, depth)
        return who, moves, probs, depth - 1 if depth > 0 else depth

    def expand(self, state: Any, depth: int) -> tuple[int, list[Any], list[float] | None]:
        """(mover, moves, probabilities or None) of a non-leaf state; mover is CHANCE at chance states."""
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise LimitError(f"the search visited more than {self.max_nodes} states (at {state_text(state)}); "
                             "give a smaller depth or a larger max_nodes")
        view = self.view
        who = view.mover(state)
        if who == CHANCE:
            pairs = view.chance(state)
            return CHANCE, [m for m, _ in pairs], [p for _, p in pairs]
        return who, view.moves(state), None

    def result(self, strategy: str, player: str | None, state: Any, vec: Sequence[float],
               pv: Sequence[Any], depth: int) -> SearchResult:
        names = []
        s = state
        view = self.view
        for m in pv:
            names.append(view.move_name(s, m))
            s = view.child(s, m)
        raw = tuple(float(x) for x in vec)
        return SearchResult(strategy, player, tuple(number(x) for x in raw), pv[0] if pv else None,
                            tuple(pv), self.nodes, tuple(names), None if depth == NO_LIMIT else depth,
                            self.hits, raw)


def recursion_guard(run: Callable[[], Any], state: Any) -> Any:
    """Run a recursive search; a game deeper than Python's stack allows becomes a LimitError."""
    old = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(max(old, 10_000))
        return run()
    except RecursionError:
        raise LimitError(f"the game from {state_text(state)} is deeper than kop's recursion limit; "
                         "give a depth limit") from None
    finally:
        sys.setrecursionlimit(old)


def setup(game: Any, evaluations: Evaluations, state: Any, depth: Any,
          player: str | int | None, max_nodes: int | None = None) -> tuple[SearchContext, Any, int, int]:
    """(context, root state, depth key, player index) of a search, every argument checked."""
    view = game if isinstance(game, GameView) else GameView(game, evaluations)
    d = depth_key(depth)
    s = view.initial_state() if state is None else state
    return SearchContext(view, max_nodes), s, d, view.player_index(player)


def expectation(kids: Sequence[Sequence[Any]], probs: Sequence[float]) -> tuple[float, tuple[float, ...]]:
    """(Σ p·u, Σ p·vector) over the children ``(u, vector, ...)`` of a chance state, in child order."""
    u = 0.0
    acc = [0.0] * len(kids[0][1])
    for k, pr in zip(kids, probs):
        u += pr * k[0]
        acc = [a + pr * x for a, x in zip(acc, k[1])]
    return u, tuple(acc)
