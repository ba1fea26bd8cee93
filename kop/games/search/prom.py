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

Vector = tuple[float, ...]
#: what the search gives at a state: (the unnormalized vector U = mass · value, the pv from it)
Found = tuple[Vector, tuple[Any, ...]]


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
    o = _opponent(view, name, p, opponent)
    prior = _prior(name, types, probabilities, view.names[o])
    type_ctx, picks = _type_moves(view, types, o, max_nodes, tie)
    value = _make_prom(ctx, name, p, o, prior, picks, bayes, tie)
    support = tuple(q > 0 for q in prior)  # the types possible at the start (a type of probability 0 never is)
    vec, pv = recursion_guard(lambda: value(s, dk, support), s)
    ctx.nodes += sum(tc.nodes for tc in type_ctx)
    return ctx.result(name, view.names[p], s, list(vec), pv, dk)


def _opponent(view: GameView, name: str, p: int, opponent: str | int | None) -> int:
    """The index of the opponent O whose types are given (the other player of two by default)."""
    n = len(view.players)
    if opponent is None:
        if n != 2:
            raise GameError(f"{name}: with {n} players, name the opponent whose types are given (opponent=...)")
        return 1 - p
    o = view.player_index(opponent)
    if o == p:
        raise GameError(f"{name}: the opponent must be another player than {view.names[p]}")
    return o


def _prior(name: str, types: Any, probabilities: Any, o_name: str) -> list[float]:
    """The types' probabilities (one each, summing to 1), after checking the types are a
    non-empty list of evaluation functions or None."""
    if isinstance(types, (str, bytes)) or not isinstance(types, Sequence) or not types:
        raise GameError(f"{name}: types must be a non-empty list of evaluation functions for "
                        f"{o_name} (or None for its own)")
    for i, f in enumerate(types):
        if f is not None and not callable(f):
            raise GameError(f"{name}: type {i + 1} must be an evaluation function state -> number or None, "
                            f"not {type(f).__name__}")
    try:
        return [float(x) for x in parse_probabilities(probabilities, len(types), name)]
    except Exception as exc:
        raise GameError(str(exc)) from None


def _type_moves(view: GameView, types: Sequence[Callable[[Any], float] | None], o: int, max_nodes: int | None,
                tie: str) -> tuple[list[SearchContext], Callable[[Any, int], list[Any]]]:
    """(each type's search context, ``picks(state, depth)``: each type's move at O's *state*).

    Type i plays O's minimax with its evaluation (O's own where it is None), by alpha-beta in
    a context of its own.
    """
    contexts: list[SearchContext] = []
    searches = []
    for f in types:
        evals = list(view.evals)
        if f is not None:
            evals[o] = f
        tc = SearchContext(GameView(view.game, evals), max_nodes)
        contexts.append(tc)
        searches.append(make_alphabeta(tc, o, tie=tie))

    def picks(st: Any, dpt: int) -> list[Any]:
        return [ab(st, dpt, -_INF, _INF)[2][0] for ab in searches]

    return contexts, picks


def _make_prom(ctx: SearchContext, name: str, p: int, o: int, prior: list[float],
               picks: Callable[[Any, int], list[Any]], bayes: bool, tie: str
               ) -> Callable[[Any, int, tuple[bool, ...]], Found]:
    """``V(state, depth, alive) -> (U, pv)``: P's PrOM from *state* (*alive*: the types still
    possible, for the Bayesian variant; U = the live types' mass times P's expected vector)."""
    view = ctx.view
    sp = view.signs[p]
    rev = tie == "last"
    others = {q: make_alphabeta(ctx, q, tie=tie) for q in range(len(view.players)) if q not in (p, o)}
    memo = ctx.table((name, tie))

    def V(st: Any, dpt: int, alive: tuple[bool, ...]) -> Found:
        ctx.nodes += 1
        terminal = view.is_terminal(st)
        if terminal or dpt == 0:
            mass = math.fsum(q for q, a in zip(prior, alive) if a) if bayes else 1.0
            return tuple(mass * x for x in ctx.leaf(st, terminal, (p,))), ()
        key = (view.key(st), dpt, alive)
        if (hit := ctx.recall(memo, key)) is not None:
            return hit
        who, moves, probs, cd = ctx.step(st, dpt)
        if who == CHANCE:
            assert probs is not None
            out: Found = (_weighted([V(view.child(st, m), cd, alive)[0] for m in moves], probs), ())
        elif who == p:
            out = own(st, moves, cd, alive)
        elif who == o:
            out = opponents(st, dpt, cd, alive)
        else:
            _, _, qpv = others[who](st, dpt, -_INF, _INF)  # another player: its own minimax move
            vec, pv = V(view.child(st, qpv[0]), cd, alive)
            out = (vec, (qpv[0],) + pv)
        memo[key] = out
        return out

    def own(st: Any, moves: list[Any], cd: int, alive: tuple[bool, ...]) -> Found:
        """P's node: the move with P's best expectation (ties to the first in *tie*'s order)."""
        best: Found | None = None
        bm = None
        for m in (reversed(moves) if rev else moves):
            r = V(view.child(st, m), cd, alive)
            if best is None or sp * r[0][p] > sp * best[0][p]:
                best, bm = r, m
        assert best is not None
        return best[0], (bm,) + best[1]

    def opponents(st: Any, dpt: int, cd: int, alive: tuple[bool, ...]) -> Found:
        """O's node: the expectation over the types' moves; the pv goes on by the likeliest."""
        moves = picks(st, dpt)
        index = [view.check_move(st, m) for m in moves]
        if bayes:
            vec = posterior(st, moves, index, cd, alive)
            weight = [q if a else 0.0 for q, a in zip(prior, alive)]
        else:
            vec = _weighted([V(view.child(st, m), cd, alive)[0] for m in moves], prior)
            weight = prior
        mi = _likeliest(index, weight)
        m = moves[index.index(mi)]
        nxt = _narrowed(alive, index, mi) if bayes else alive
        return vec, (m,) + V(view.child(st, m), cd, nxt)[1]

    def posterior(st: Any, moves: list[Any], index: list[int], cd: int, alive: tuple[bool, ...]) -> Vector:
        """U at O's node (Bayesian): the sum over the live types' distinct moves of U there, each
        with the types that make it."""
        vecs = []
        seen: set[int] = set()
        for i, a in enumerate(alive):
            if a and index[i] not in seen:
                seen.add(index[i])
                vecs.append(V(view.child(st, moves[i]), cd, _narrowed(alive, index, index[i]))[0])
        return _weighted(vecs, None)

    return V


def _weighted(vecs: Sequence[Vector], weights: Sequence[float] | None) -> Vector:
    """``Σ_i weights[i] · vecs[i]`` (the plain sum with None), component by component, in turn.

    >>> _weighted([(1.0, 2.0), (3.0, 4.0)], [0.25, 0.75]), _weighted([(1.0, 2.0), (3.0, 4.0)], None)
    ((2.5, 3.5), (4.0, 6.0))
    """
    assert vecs
    if weights is None:
        acc = list(vecs[0])
        for vec in vecs[1:]:
            acc = [a + x for a, x in zip(acc, vec)]
    else:
        acc = [weights[0] * x for x in vecs[0]]
        for w, vec in zip(weights[1:], vecs[1:]):
            acc = [a + w * x for a, x in zip(acc, vec)]
    return tuple(acc)


def _likeliest(index: list[int], weight: Sequence[float]) -> int:
    """The move the types make with the most probability in all (*index*: each type's move,
    *weight*: its probability); ties to the first move.

    >>> _likeliest([2, 0, 2], [0.25, 0.5, 0.25])
    0
    """
    mass_of: dict[int, float] = {}
    for i, w in zip(index, weight):
        mass_of[i] = mass_of.get(i, 0.0) + w
    top = max(mass_of.values())
    return min(j for j, w in mass_of.items() if w == top)


def _narrowed(alive: tuple[bool, ...], index: list[int], move: int) -> tuple[bool, ...]:
    """The live types that make *move* (*index*: each type's move)."""
    return tuple(a and index[j] == move for j, a in enumerate(alive))
