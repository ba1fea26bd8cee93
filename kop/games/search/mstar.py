"""M^d (M*) on implicit games: Carmel & Markovitch's recursive opponent-model search.

P's M^d: at P's states P optimizes its own component over the children's M^d
values; at an opponent Q's state it follows Q's M^(d-1) choice there; M^0 is
P's minimax (the base case of Sang & Chen's Algorithm 2 with its erratum fixed,
SPEC §3.2).  Leaves are scored by every player's evaluation function.

Two implementations, which make the same choices:

* ``prune=False``: the plain recursion with a memo keyed by (state key,
  remaining depth, d, player) -- the reference, O(d · size) like the array engine;
* ``prune=True`` (default): the M^0 models are searched by alpha-beta (always
  sound: it gives minimax's choices).  With ``bound=B`` and two players, the
  M^1 levels are also pruned as in Carmel & Markovitch's αβ* ("Pruning
  algorithms for multi-model adversary search"), which is **sound only when the
  sum of the players' evaluations is bounded at every leaf**:
  ``|u_P + u_Q| <= B`` where ``u`` is a payoff signed by its player's goal
  (``|E_A - E_B| <= B`` in the paper's convention, A max and B min;
  ``|E_0 + E_1| <= B`` when both maximize, as in OpenSpiel; B = 0 is zero-sum).
  Then at a Q state, with w Q's minimax value there, P's M^1 value lies in
  ``[-w - B, -w + B]``, so a Q move whose value reaches ``B - alpha`` already
  fails low for P.  The bound is checked at every leaf the M^1 search scores
  and a violation there is an error; a leaf that the pruning skipped is never
  scored, so a violation there cannot be seen -- the bound is the caller's
  promise, and a game that breaks it at unscored leaves can get a wrong value.

Without such an assumption no pruning of M^d (d >= 1) can be sound in general:
Sang & Chen, Corollary 2.

Example
-------
>>> from kop.games.search.treegame import TreeGame
>>> from kop.selection.examples import figure2
>>> g = TreeGame(figure2())
>>> [mstar_search(g, d).value for d in range(3)]
[(4, 7), (10, 3), (9, 4)]
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from kop.games.names import StrategyName
from kop.games.errors import GameError
from kop.games.search.implicit import CHANCE, Evaluations, state_text
from kop.games.search.minimax import make_alphabeta, make_minimax
from kop.games.search.result import (EXACT, LOWER, UPPER, SearchContext, SearchResult, expectation, recursion_guard,
                                     setup)

__all__ = ["mstar_search", "make_mstar"]

_INF = math.inf


def make_mstar(ctx: SearchContext, prune: bool = True, bound: float | None = None,
               tie: str = "first") -> Callable[[Any, int, int, int], tuple[Any, ...]]:
    """``M(state, depth, d, player) -> (vector, pv)``: the player's M^d at *state*."""
    view = ctx.view
    n_players = len(view.players)
    rev = tie == "last"
    memo = ctx.table(("mstar", prune, bound, tie))
    minimax: dict[int, Callable[..., tuple[Any, ...]]] = {}
    m1s: dict[int, Callable[..., tuple[Any, ...]]] = {}
    if bound is not None:
        if isinstance(bound, bool) or not isinstance(bound, (int, float)) or not bound >= 0:
            raise GameError(f"the bounded-sum bound B must be a number >= 0, not {bound!r}")
        if n_players != 2:
            raise GameError("bounded-sum pruning (αβ*) is defined for two players")

    def base(state: Any, depth: int, r: int) -> tuple[Any, ...]:
        if prune:
            f = minimax.get(r)
            if f is None:
                f = minimax[r] = make_alphabeta(ctx, r, tie=tie)
            _, vec, pv = f(state, depth, -_INF, _INF)
        else:
            f = minimax.get(r)
            if f is None:
                f = minimax[r] = make_minimax(ctx, r, tie)
            _, vec, pv = f(state, depth)
        return vec, pv

    def M(state: Any, depth: int, d: int, r: int) -> tuple[Any, ...]:
        if d == 0:
            return base(state, depth, r)
        if bound is not None and d == 1:
            f = m1s.get(r)
            if f is None:
                f = m1s[r] = _make_m1(ctx, r, float(bound), tie)
            _, vec, pv = f(state, depth, -_INF, _INF)
            return vec, pv
        ctx.nodes += 1
        terminal = view.is_terminal(state)
        if terminal or depth == 0:
            return ctx.leaf(state, terminal, None), ()
        key = (view.key(state), depth, d, r)
        if (hit := ctx.recall(memo, key)) is not None:
            return hit
        who, moves, probs, cd = ctx.step(state, depth)
        if who == CHANCE:
            assert probs is not None
            kids = [(0.0, M(view.child(state, m), cd, d, r)[0]) for m in moves]
            out: tuple[Any, ...] = (expectation(kids, probs)[1], ())
        elif who == r:
            sign = view.signs[r]
            best: tuple[Any, ...] | None = None
            bm = None
            for m in (reversed(moves) if rev else moves):
                res = M(view.child(state, m), cd, d, r)
                if best is None or sign * res[0][r] > sign * best[0][r]:
                    best, bm = res, m
            assert best is not None
            out = (best[0], (bm,) + best[1])
        else:
            _, qpv = M(state, depth, d - 1, who)
            m = qpv[0]
            vec, pv = M(view.child(state, m), cd, d, r)
            out = (vec, (m,) + pv)
        memo[key] = out
        return out

    return M


def _make_m1(ctx: SearchContext, r: int, B: float, tie: str) -> Callable[[Any, int, float, float], tuple[Any, ...]]:
    """R's M^1 by αβ* under the bounded-sum assumption ``|u_R + u_O| <= B`` (two players)."""
    view = ctx.view
    o = 1 - r
    sr, so = view.signs[r], view.signs[o]
    ab_o = make_alphabeta(ctx, o, tie=tie)
    tt = ctx.table(("m1", r, B, tie))
    rev = tie == "last"
    nextafter = math.nextafter
    slack = 1e-9 * max(1.0, B)

    def m1(state: Any, depth: int, alpha: float, beta: float) -> tuple[Any, ...]:
        ctx.nodes += 1
        terminal = view.is_terminal(state)
        if terminal or depth == 0:
            vec = ctx.leaf(state, terminal, None)
            ur, uo = sr * vec[r], so * vec[o]
            if abs(ur + uo) > B + slack * max(1.0, abs(ur), abs(uo)):
                raise GameError(f"bounded-sum pruning assumes |u_{view.names[r]} + u_{view.names[o]}| <= {B:g} "
                                f"at every leaf, but at {state_text(state)} it is {abs(ur + uo):g}; "
                                "search without the bound")
            return ur, vec, ()
        key = (view.key(state), depth)
        if (hit := ctx.probe(tt, key, alpha, beta)) is not None:
            return hit
        who, moves, probs, cd = ctx.step(state, depth)
        best_vec: Any = None
        pv_tail: tuple[Any, ...] = ()
        best_move: Any = None
        if who == CHANCE:
            assert probs is not None
            out = (*expectation([m1(view.child(state, m), cd, -_INF, _INF) for m in moves], probs), ())
            tt[key] = (EXACT, *out)
            return out
        if who == r:
            if rev:
                moves = moves[::-1]
            best_u, best_i = 0.0, -1
            for i, m in enumerate(moves):
                if best_i < 0 or best_u < alpha:
                    a = alpha
                else:
                    a = best_u if i > best_i else nextafter(best_u, -_INF)
                u, vec, pv = m1(view.child(state, m), cd, a, beta)
                if best_i < 0 or u > best_u:
                    best_u, best_i, best_vec, pv_tail, best_move = u, i, vec, pv, m
                    if best_u >= beta:
                        break
            u = best_u
        else:
            top = B - alpha           # Q's minimax value w >= top means P's value <= -w + B <= alpha
            w, _, qpv = ab_o(state, depth, -_INF, top)
            if w >= top:
                u = -w + B
            elif -w - B >= beta:      # P's value >= -w - B >= beta
                u = -w - B
            else:
                best_move = qpv[0]
                u, best_vec, pv_tail = m1(view.child(state, best_move), cd, alpha, beta)
        flag = LOWER if u >= beta else UPPER if u <= alpha else EXACT
        pv_out = (best_move,) + pv_tail if flag == EXACT else ()
        tt[key] = (flag, u, best_vec, pv_out)
        return u, best_vec, pv_out

    return m1


def mstar_search(game: Any, d: int, state: Any = None, depth: int | None = None,
                 player: str | int | None = None, evaluations: Evaluations = None, *,
                 prune: bool = True, bound: float | None = None, tie: str = "first", max_nodes: int | None = None) -> SearchResult:
    """P's M^d on *game* from *state* to *depth* plies (see the module docstring).

    Parameters
    ----------
    game : an implicit game
    d : int >= 0
    state, depth, player, evaluations : as in :func:`kop.search`
    prune : search the M^0 models by alpha-beta (sound; default) or by plain recursion
    bound : B for αβ* on the M^1 levels (two players; sound only under ``|u_P + u_Q| <= B``)
    tie : "first" or "last"
    """
    if isinstance(d, bool) or not isinstance(d, int) or d < 0:
        raise GameError(f"M^d needs an integer d >= 0, not {d!r}")
    ctx, s, dk, p = setup(game, evaluations, state, depth, player, max_nodes)
    view = ctx.view
    M = make_mstar(ctx, prune, bound, tie)
    vec, pv = recursion_guard(lambda: M(s, dk, d, p), s)
    return ctx.result("minimax" if d == 0 else str(StrategyName.mstar(d)), view.names[p], s, vec, pv, dk)
