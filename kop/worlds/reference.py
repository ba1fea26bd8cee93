"""Small, literal reference implementations, to cross-check the vectorized algorithms.

:func:`gvm_ref` is Jamroga's Fig. 10 written as printed: a recursion that, at
every child and for every world and every possible opponent belief, simulates
the opponent's own gvm.  It is exponential and for tiny games only.
:func:`best_defense_ref` evaluates a MAX strategy against an omniscient MIN by
walking every MIN strategy.  Payoffs must be defined everywhere.

>>> from kop.worlds.game import WorldsGame
>>> g = WorldsGame.build(("MAX", [("MIN", [[1, 0], [1, 1]]), ("MIN", [[0, 1], [1, 1]])]))
>>> gvm_ref(g, 0, [1.0, 1.0])[0]
0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kop.worlds.game import LEAF, MAX, WorldsGame

__all__ = ["gvm_ref", "best_defense_ref"]


def _opponent_states(game: WorldsGame, node: int, world: int) -> list[tuple[float, np.ndarray]]:
    """(probability, belief weights) of the belief states the mover at *node* may hold in *world*."""
    bel = game.beliefs(int(game.owner[node]))
    if bel.model is not None:
        assert bel.states is not None
        return [(float(p), bel.states[j]) for j, p in enumerate(bel.model[world]) if p > 0]
    return [(1.0, bel.weights(node, world))]


def gvm_ref(game: WorldsGame, node: int, belief: Any) -> tuple[int, np.ndarray]:
    """(chosen child position, evaluation vector) of the mover at *node* holding *belief* (weights)."""
    b = np.asarray(belief, dtype=np.float64)
    if game.owner[node] == LEAF:
        return -1, game.payoffs[node].copy()
    kids = list(game.children(node))
    evals = []
    for c in kids:
        if game.owner[c] == LEAF:
            evals.append(game.payoffs[c].copy())
            continue
        e = np.zeros(game.n_worlds)
        for w in range(game.n_worlds):
            for p, oblf in _opponent_states(game, c, w):
                e[w] += p * gvm_ref(game, c, oblf)[1][w]
        evals.append(e)
    scores = [float(b @ e) for e in evals]
    best = 0
    for i, sc in enumerate(scores):
        if (sc > scores[best]) if game.owner[node] == MAX else (sc < scores[best]):
            best = i
    return best, evals[best]


def best_defense_ref(game: WorldsGame, max_choices: np.ndarray) -> np.ndarray:
    """MAX's payoff per world when MAX plays *max_choices* and MIN, knowing the world and the
    strategy, steers to the worst leaf for MAX."""
    def walk(s: int) -> np.ndarray:
        if game.owner[s] == LEAF:
            return game.payoff(s)
        if game.owner[s] == MAX:
            return walk(int(game.offsets[s]) + int(max_choices[s]))
        worst: np.ndarray = np.min([walk(c) for c in game.children(s)], axis=0)
        return worst

    return walk(0)
