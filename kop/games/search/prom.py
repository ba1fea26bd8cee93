"""PrOM and its Bayesian variant on implicit games, depth-limited (see :mod:`kop.games.strategies.prom` for the definitions).

An opponent type is an evaluation function for the opponent O (``state -> number``,
scoring terminal states and the horizon), or None for O's own scores (its
evaluation in *evaluations*, else the game's payoffs).  Type i plays O's minimax
with its function, searched by alpha-beta (it makes minimax's choices);
P's value at O's states is the expectation over the types' moves with the prior
(PrOM: a type drawn at every move) or with the prior conditioned on O's moves so
far (``bayes=True``: a type drawn once).  P's leaves are scored by P's own
evaluation; O's component of the value vector is O's own score where known, else NaN.

The choices are exactly those of :func:`kop.prom` / :func:`kop.prom_bayes` on the
expanded tree (:meth:`kop.GameTree.from_game` with the same depth), ties to the first move.

Example
-------
>>> import kop
>>> from kop.games.strategies.prom import prom_differs_example
>>> t, cands, probs = prom_differs_example()
>>> leaf_value = [dict(zip(kop.leaf_order(t).tolist(), c)) for c in cands]
>>> types = [lambda s, v=v: v[s] for v in leaf_value]
>>> g = kop.TreeGame(t)
>>> kop.search(g, "PrOM", types=types, probabilities=probs).pv_names
('safe',)
>>> kop.search(g, "PrOM-Bayes", types=types, probabilities=probs).pv_names
('probe', 'left', 'good')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from kop.games.errors import GameError
from kop.games.search.implicit import CHANCE, Evaluations, GameView
from kop.games.strategies.prom import parse_probabilities
from kop.games.search.minimax import make_alphabeta
from kop.games.search.result import SearchContext, SearchResult, recursion_guard, setup

__all__ = ["prom_search"]

_INF = math.inf


def prom_search(game: Any, types: Sequence[Callable[[Any], float] | None], probabilities: Any = None,
                state: Any = None, depth: int | None = None, player: str | int | None = None,
                evaluations: Evaluations = None, *, opponent: str | int | None = None, bayes: bool = False,
                tie: str = "first", max_nodes: int | None = None) -> SearchResult:
    """P's PrOM (or, with ``bayes=True``, Bayesian PrOM) on *game* from *state* to *depth* plies.

    >>> import kop
    >>> g = kop.TreeGame(kop.figure2())
    >>> adversarial = lambda s: kop.figure2().node(s).payoff[0] if kop.figure2().node(s).is_leaf else 0
    >>> prom_search(g, [None, adversarial], ["3/10", "7/10"]).move_name   # None: B's own payoffs
    'R'
    >>> prom_search(g, [None, adversarial], ["3/10", "7/10"], bayes=True).move_name
    'S'
    """
    name = "PrOM-Bayes" if bayes else "PrOM"
    ctx, s, dk, p = setup(game, evaluations, state, depth, player, max_nodes)
    view = ctx.view
    n = len(view.players)
    if opponent is None:
        if n != 2:
            raise GameError(f"{name}: with {n} players, name the opponent whose types are given (opponent=...)")
        o = 1 - p
    else:
        o = view.player_index(opponent)
        if o == p:
            raise GameError(f"{name}: the opponent must be another player than {view.names[p]}")
    if isinstance(types, (str, bytes)) or not isinstance(types, Sequence) or not types:
        raise GameError(f"{name}: types must be a non-empty list of evaluation functions for "
                        f"{view.names[o]} (or None for its own)")
    for i, f in enumerate(types):
        if f is not None and not callable(f):
            raise GameError(f"{name}: type {i + 1} must be an evaluation function state -> number or None, "
                            f"not {type(f).__name__}")
    try:
        prior = [float(x) for x in parse_probabilities(probabilities, len(types), name)]
    except Exception as exc:
        raise GameError(str(exc)) from None
    k = len(types)
    sp = view.signs[p]
    rev = tie == "last"
    # each type: O's minimax with the type's evaluation, by alpha-beta in its own context
    type_ctx: list[SearchContext] = []
    type_ab = []
    for f in types:
        evals = list(view.evals)
        if f is not None:
            evals[o] = f
        tc = SearchContext(GameView(view.game, evals), max_nodes)
        type_ctx.append(tc)
        type_ab.append(make_alphabeta(tc, o, tie=tie))
    others = {q: make_alphabeta(ctx, q, tie=tie) for q in range(n) if q not in (p, o)}
    memo = ctx.table((name, tie))
    full = (True,) * k

    def type_move(i: int, st: Any, dpt: int) -> Any:
        _, _, pv = type_ab[i](st, dpt, -_INF, _INF)
        return pv[0]

    def V(st: Any, dpt: int, alive: tuple[bool, ...]) -> tuple[Any, ...]:
        """(unnormalized vector U = mass · value, pv) at *st*; *alive*: the types still possible."""
        ctx.nodes += 1
        mass = math.fsum(q for q, a in zip(prior, alive) if a) if bayes else 1.0
        terminal = view.is_terminal(st)
        if terminal or dpt == 0:
            vec = ctx.leaf(st, terminal, (p,))
            return tuple(mass * x for x in vec), ()
        key = (view.key(st), dpt, alive)
        if (hit := ctx.recall(memo, key)) is not None:
            return hit
        who, moves, probs, cd = ctx.step(st, dpt)
        if who == CHANCE:
            assert probs is not None
            acc: list[float] | None = None
            for m, pr in zip(moves, probs):
                vec = V(view.child(st, m), cd, alive)[0]
                acc = [pr * x for x in vec] if acc is None else [a + pr * x for a, x in zip(acc, vec)]
            assert acc is not None
            out: tuple[Any, ...] = (tuple(acc), ())
        elif who == p:
            best: tuple[Any, ...] | None = None
            bm = None
            for m in (reversed(moves) if rev else moves):
                r = V(view.child(st, m), cd, alive)
                if best is None or sp * r[0][p] > sp * best[0][p]:
                    best, bm = r, m
            assert best is not None
            out = (best[0], (bm,) + best[1])
        elif who == o:
            picks = [type_move(i, st, dpt) for i in range(k)]
            index = [view.check_move(st, m) for m in picks]
            weight = [q if a else 0.0 for q, a in zip(prior, alive)] if bayes else prior
            if bayes:
                # U(n) = sum over the distinct moves of the live types of U(child)
                acc = None
                seen: set[int] = set()
                for i in range(k):
                    if not alive[i] or index[i] in seen:
                        continue
                    seen.add(index[i])
                    nxt = tuple(a and index[j] == index[i] for j, a in enumerate(alive))
                    vec = V(view.child(st, picks[i]), cd, nxt)[0]
                    acc = list(vec) if acc is None else [a + x for a, x in zip(acc, vec)]
            else:
                acc = None
                for i in range(k):
                    vec = V(view.child(st, picks[i]), cd, alive)[0]
                    acc = [prior[i] * x for x in vec] if acc is None else \
                        [a + prior[i] * x for a, x in zip(acc, vec)]
            assert acc is not None
            mass_of: dict[int, float] = {}
            for i in range(k):
                mass_of[index[i]] = mass_of.get(index[i], 0.0) + weight[i]
            top = max(mass_of.values())
            mi = min(j for j, w in mass_of.items() if w == top)
            m = picks[index.index(mi)]
            child = view.child(st, m)
            nxt = tuple(a and index[j] == mi for j, a in enumerate(alive)) if bayes else alive
            out = (tuple(acc), (m,) + V(child, cd, nxt)[1])
        else:
            _, _, qpv = others[who](st, dpt, -_INF, _INF)
            m = qpv[0]
            vec, pv = V(view.child(st, m), cd, alive)
            out = (vec, (m,) + pv)
        memo[key] = out
        return out

    def run() -> tuple[Any, ...]:
        return V(s, dk, full)

    vec, pv = recursion_guard(run, s)
    ctx.nodes += sum(tc.nodes for tc in type_ctx)
    return ctx.result(name, view.names[p], s, list(vec), pv, dk)
