"""Minimax and alpha-beta on implicit games, depth-limited, with a transposition table.

``minimax``: P optimizes its own component by its goal and every other player is
assumed to do the opposite (Algorithm 1 of Sang & Chen; the paranoid assumption
for n players), by plain recursion with a memo -- the reference.

``alphabeta``: the same choices by alpha-beta pruning (Poole & Mackworth,
Figure 14.13; the lecture notes' recursive MINIMAX(Γ, α, β)), with

* a transposition table keyed by ``(state key, remaining depth)``: a stored
  value is reused only at the same remaining depth, so the answer is exactly the
  depth-limited tree's;
* move ordering: the table's best move first, then an optional hook
  ``order(state, move) -> score`` (higher first);
* optional iterative deepening (depths 1, 2, ..., depth), whose shallower
  searches only order the moves of the deeper ones.

Ties go to the first legal move whatever the search order: a child searched
out of order must *beat* the current best (strictly better, or equal and
earlier), and its window is set so that equality is seen exactly.  Chance
states take the expectation, searched with a full window.

Example
-------
>>> from kop.games.search.implicit import nim
>>> r = alphabeta_search(nim())
>>> r.value, r.pv_names[0], r.nodes < minimax_search(nim()).nodes + 1
((-1, -1), 'take 1 from pile of 2', True)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from kop.games.search.implicit import CHANCE, Evaluations
from kop.games.search.result import (EXACT, LOWER, UPPER, SearchContext, SearchResult, expectation, recursion_guard,
                                     setup)

__all__ = ["minimax_search", "alphabeta_search", "make_minimax", "make_alphabeta", "Order"]

_INF = math.inf

#: a move-ordering hook: a score per (state, move); higher scores are searched first
Order = Callable[[Any, Any], float]


def _reorder(n: int, first: int | None, order: Order | None, state: Any, moves: list[Any]) -> list[int]:
    idx = list(range(n))
    if order is not None:
        scores = [float(order(state, m)) for m in moves]
        idx.sort(key=lambda i: -scores[i])
    if first is not None and 0 < n and first in idx and idx[0] != first:
        idx.remove(first)
        idx.insert(0, first)
    return idx


def make_minimax(ctx: SearchContext, p: int, tie: str = "first") -> Callable[[Any, int], tuple[Any, ...]]:
    """P's minimax by plain memoized recursion: ``mm(state, depth) -> (u, vector, pv)``."""
    view = ctx.view
    sign = view.signs[p]
    memo = ctx.table(("minimax", p, tie))
    need = (p,)
    rev = tie == "last"

    def mm(state: Any, depth: int) -> tuple[Any, ...]:
        ctx.nodes += 1
        terminal = view.is_terminal(state)
        if terminal or depth == 0:
            vec = ctx.leaf(state, terminal, need)
            return sign * vec[p], vec, ()
        key = (view.key(state), depth)
        if (hit := ctx.recall(memo, key)) is not None:
            return hit
        who, moves, probs, cd = ctx.step(state, depth)
        if who == CHANCE:
            assert probs is not None
            out: tuple[Any, ...] = (*expectation([mm(view.child(state, m), cd) for m in moves], probs), ())
        else:
            mode = 1.0 if who == p else -1.0
            best: tuple[Any, ...] | None = None
            bm = None
            for m in (reversed(moves) if rev else moves):
                r = mm(view.child(state, m), cd)
                if best is None or mode * r[0] > mode * best[0]:
                    best, bm = r, m
            assert best is not None
            out = (best[0], best[1], (bm,) + best[2])
        memo[key] = out
        return out

    return mm


def make_alphabeta(ctx: SearchContext, p: int, order: Order | None = None,
                   tie: str = "first") -> Callable[[Any, int, float, float], tuple[Any, ...]]:
    """P's minimax by fail-soft alpha-beta: ``ab(state, depth, alpha, beta) -> (u, vector, pv)``.

    The value ``u`` (P's payoff signed by its goal) is exact when
    ``alpha < u < beta``; else an upper bound (``u <= alpha``) or a lower bound
    (``u >= beta``), and then the vector and pv mean nothing.
    """
    view = ctx.view
    sign = view.signs[p]
    tt = ctx.table(("alphabeta", p, tie))
    best_moves = ctx.table(("alphabeta-order", p, tie))
    need = (p,)
    rev = tie == "last"
    nextafter = math.nextafter

    is_terminal = view.game.is_terminal
    key_of = view.key
    child = view.child
    leaf = ctx.leaf

    def maximize(state: Any, moves: Any, idx: Any, cd: int, alpha: float, beta: float) -> tuple[Any, ...]:
        """The best child for the maximizer, (u, i, vector, pv), searching each with a window narrowed by the
        best so far (a tie goes to the earlier move), until one reaches *beta*."""
        best_u = 0.0
        best_i = -1
        best_vec: Any = None
        best_pv: tuple[Any, ...] = ()
        for i in idx:
            if best_i < 0 or best_u < alpha:
                a = alpha
            else:
                a = best_u if i > best_i else nextafter(best_u, -_INF)
            u, vec, pv = ab(child(state, moves[i]), cd, a, beta)
            if best_i < 0 or u > best_u or (u == best_u and i < best_i):
                best_u, best_i, best_vec, best_pv = u, i, vec, pv
                if best_u >= beta:
                    break
        return best_u, best_i, best_vec, best_pv

    def minimize(state: Any, moves: Any, idx: Any, cd: int, alpha: float, beta: float) -> tuple[Any, ...]:
        """The best child for the minimizer, as :func:`maximize` with the order reversed."""
        best_u = 0.0
        best_i = -1
        best_vec: Any = None
        best_pv: tuple[Any, ...] = ()
        for i in idx:
            if best_i < 0 or best_u > beta:
                b = beta
            else:
                b = best_u if i > best_i else nextafter(best_u, _INF)
            u, vec, pv = ab(child(state, moves[i]), cd, alpha, b)
            if best_i < 0 or u < best_u or (u == best_u and i < best_i):
                best_u, best_i, best_vec, best_pv = u, i, vec, pv
                if best_u <= alpha:
                    break
        return best_u, best_i, best_vec, best_pv

    def ab(state: Any, depth: int, alpha: float, beta: float) -> tuple[Any, ...]:
        ctx.nodes += 1
        terminal = is_terminal(state)
        if terminal or depth == 0:
            vec = leaf(state, terminal, need)
            return sign * vec[p], vec, ()
        skey = key_of(state)
        key = (skey, depth)
        if (hit := ctx.probe(tt, key, alpha, beta)) is not None:
            return hit
        who, moves, probs, cd = ctx.step(state, depth)
        if who == CHANCE:
            assert probs is not None
            u, vec = expectation([ab(child(state, m), cd, -_INF, _INF) for m in moves], probs)
            tt[key] = (EXACT, u, vec, ())
            return u, vec, ()
        if rev:
            moves = moves[::-1]
        n = len(moves)
        first = best_moves.get(skey)
        idx: Any = range(n) if order is None and not first else _reorder(n, first, order, state, moves)
        best_u, best_i, best_vec, best_pv = (maximize if who == p else minimize)(state, moves, idx, cd, alpha, beta)
        flag = LOWER if best_u >= beta else UPPER if best_u <= alpha else EXACT
        pv_out = (moves[best_i],) + best_pv if flag == EXACT else ()
        tt[key] = (flag, best_u, best_vec, pv_out)
        if flag == EXACT or best_i >= 0:
            best_moves[skey] = best_i
        return best_u, best_vec, pv_out

    return ab


def minimax_search(game: Any, state: Any = None, depth: int | None = None, player: str | int | None = None,
                   evaluations: Evaluations = None, *, tie: str = "first", max_nodes: int | None = None) -> SearchResult:
    """P's minimax on *game* from *state* (default: the initial state) to *depth* plies (default: the end)."""
    ctx, s, d, p = setup(game, evaluations, state, depth, player, max_nodes)
    view = ctx.view
    mm = make_minimax(ctx, p, tie)
    _, vec, pv = recursion_guard(lambda: mm(s, d), s)
    return ctx.result("minimax", view.names[p], s, vec, pv, d)


def alphabeta_search(game: Any, state: Any = None, depth: int | None = None, player: str | int | None = None,
                     evaluations: Evaluations = None, *, order: Order | None = None, iterative: bool = False,
                     tie: str = "first", max_nodes: int | None = None) -> SearchResult:
    """P's minimax by alpha-beta with a transposition table (see the module docstring).

    Parameters
    ----------
    game : an implicit game
    state : the root (default: the initial state)
    depth : int >= 0 or None
        Plies to search; None searches to the end.
    player : name or index of P (default: the first player)
    evaluations : per-player evaluation functions; P's is needed at the horizon
    order : optional move-ordering hook ``order(state, move) -> score``
    iterative : search depths 1..depth in turn (iterative deepening)
    tie : "first" or "last"
    """
    ctx, s, d, p = setup(game, evaluations, state, depth, player, max_nodes)
    view = ctx.view
    ab = make_alphabeta(ctx, p, order, tie)

    def run() -> tuple[Any, ...]:
        if iterative and d > 1:
            for k in range(1, d):
                ab(s, k, -_INF, _INF)
        return ab(s, d, -_INF, _INF)

    _, vec, pv = recursion_guard(run, s)
    return ctx.result("alphabeta", view.names[p], s, vec, pv, d)

