"""M^h and HM0M^d on implicit games (Algorithms 4 and 5 of Sang & Chen).

M^h: every mover optimizes its own component by its own goal (backward
induction; the subgame-perfect choice).  HM0M^d: M^h at states whose subtree
(to the horizon) has height <= d, and P's minimax above.  Both need every
player's evaluation at the horizon.  Neither can be pruned soundly in general
(Sang & Chen, Corollary 2: a leaf left unexamined could be the global optimum),
so both visit every state once, with a transposition table keyed by (state key,
remaining depth).

Example
-------
>>> from kop.games.search.treegame import TreeGame
>>> from kop.selection.examples import figure2
>>> g = TreeGame(figure2())
>>> mh_search(g).value, [hm0m_search(g, d).value for d in range(5)]
((10, 3), [(4, 7), (9, 4), (9, 4), (10, 3), (10, 3)])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kop.games.names import StrategyName
from kop.games.errors import GameError
from kop.games.search.implicit import CHANCE, Evaluations
from kop.games.search.result import SearchContext, SearchResult, expectation, recursion_guard, setup

__all__ = ["mh_search", "hm0m_search", "make_hm0m"]


def make_hm0m(ctx: SearchContext, d: int | None, p: int, tie: str = "first") -> Callable[[Any, int], tuple[Any, ...]]:
    """``H(state, depth) -> (vector, pv, height)``: HM0M^d for P (M^h when d is None)."""
    view = ctx.view
    memo = ctx.table(("hm0m", d, p, tie))
    signs = view.signs
    rev = tie == "last"

    def H(state: Any, depth: int) -> tuple[Any, ...]:
        ctx.nodes += 1
        terminal = view.is_terminal(state)
        if terminal or depth == 0:
            return ctx.leaf(state, terminal, None), (), 0
        key = (view.key(state), depth)
        if (hit := ctx.recall(memo, key)) is not None:
            return hit
        who, moves, probs, cd = ctx.step(state, depth)
        kids = [H(view.child(state, m), cd) for m in moves]
        height = 1 + max(k[2] for k in kids)
        if who == CHANCE:
            assert probs is not None
            out: tuple[Any, ...] = (expectation([(0.0, k[0]) for k in kids], probs)[1], (), height)
        else:
            if d is not None and height > d:       # P's minimax above height d
                comp, sign = p, (signs[p] if who == p else -signs[p])
            else:                                   # M^h: the mover's own component
                comp, sign = who, signs[who]
            order = range(len(kids) - 1, -1, -1) if rev else range(len(kids))
            bi = -1
            for i in order:
                if bi < 0 or sign * kids[i][0][comp] > sign * kids[bi][0][comp]:
                    bi = i
            out = (kids[bi][0], (moves[bi],) + kids[bi][1], height)
        memo[key] = out
        return out

    return H


def mh_search(game: Any, state: Any = None, depth: int | None = None, evaluations: Evaluations = None, *,
              tie: str = "first", max_nodes: int | None = None) -> SearchResult:
    """M^h on *game* from *state* to *depth* plies."""
    ctx, s, dk, _ = setup(game, evaluations, state, depth, None, max_nodes)
    H = make_hm0m(ctx, None, 0, tie)
    vec, pv, _ = recursion_guard(lambda: H(s, dk), s)
    return ctx.result("Mh", None, s, vec, pv, dk)


def hm0m_search(game: Any, d: int, state: Any = None, depth: int | None = None,
                player: str | int | None = None, evaluations: Evaluations = None, *,
                tie: str = "first", max_nodes: int | None = None) -> SearchResult:
    """P's HM0M^d on *game* from *state* to *depth* plies."""
    if isinstance(d, bool) or not isinstance(d, int) or d < 0:
        raise GameError(f"HM0M^d needs an integer d >= 0, not {d!r}")
    ctx, s, dk, p = setup(game, evaluations, state, depth, player, max_nodes)
    view = ctx.view
    H = make_hm0m(ctx, d, p, tie)
    vec, pv, _ = recursion_guard(lambda: H(s, dk), s)
    return ctx.result(str(StrategyName.hm0m(d)), view.names[p], s, vec, pv, dk)
