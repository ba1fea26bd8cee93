"""Realisation probabilities and beliefs in a game of imperfect information, under a behaviour profile.

:func:`reach_probabilities` gives each node's probability of being reached when every information
set plays its actions with the profile's probabilities (chance as in the game); :func:`beliefs`
gives the conditional probabilities of the nodes of one set, and the probability that the set is
visited at least once (for absent-minded players, gambitproject/gambit#826).

Example
-------
>>> import kop
>>> reach_probabilities(kop.absent_minded_driver()).tolist()
[1.0, 0.5, 0.5, 0.25, 0.25]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from kop.games.errors import TreeError
from kop.games.imperfect.game import InfoGame, InfoSet, game_argument

__all__ = ["reach_probabilities", "beliefs"]


def reach_probabilities(game: Any, profile: Mapping[Any, Sequence[float]] | None = None) -> np.ndarray:
    """Per node, its realisation probability under a behaviour *profile* (chance as in the game).

    Parameters
    ----------
    game : InfoGame or as :func:`perfect_recall`
        The game.
    profile : mapping, optional
        Information set (an :class:`InfoSet`, its index, or ``(player, number)``) -> the
        probabilities of its actions; a set left out plays its actions uniformly.

    Returns
    -------
    numpy.ndarray of float

    Examples
    --------
    >>> import kop
    >>> g = kop.absent_minded_driver()
    >>> reach_probabilities(g, {("Driver", 1): [0.75, 0.25]}).round(4).tolist()
    [1.0, 0.75, 0.25, 0.1875, 0.0625]
    """
    g = game_argument(game)
    probs = _behaviour(g, profile)
    tree = g.tree
    n = len(tree)
    step = np.ones(n)
    parent, rank = g.parents, g.ranks
    for k in range(1, n):
        p = int(parent[k])
        s = int(g.node_set[p])
        if s >= 0:
            step[k] = probs[s][int(rank[k])]
        elif tree.probs is not None and not np.isnan(tree.probs[k]):
            step[k] = float(tree.probs[k])
    reach = np.ones(n)
    levels = tree.levels
    for d in range(1, len(levels) - 1):
        s, e = int(levels[d]), int(levels[d + 1])
        reach[s:e] = reach[parent[s:e]] * step[s:e]
    return reach


def _behaviour(game: InfoGame, profile: Mapping[Any, Sequence[float]] | None) -> list[list[float]]:
    out = [[1 / len(s.actions)] * len(s.actions) for s in game.sets]
    by_key = {(s.player, s.number): s.index for s in game.sets}
    for key, ps in (profile or {}).items():
        if isinstance(key, InfoSet):
            j = key.index
        elif isinstance(key, tuple) and key in by_key:
            j = by_key[key]
        elif isinstance(key, int) and 0 <= key < len(game.sets):
            j = key
        else:
            raise TreeError(f"the profile names no information set {key!r} (use an InfoSet, its index, or "
                            "(player, number))")
        ps = [float(p) for p in ps]
        if len(ps) != len(game.sets[j].actions) or min(ps) < 0 or abs(sum(ps) - 1) > 1e-9:
            raise TreeError(f"information set {game.sets[j].label} of {game.sets[j].player}: the profile gives "
                            f"{ps}, not {len(game.sets[j].actions)} probabilities summing to 1")
        out[j] = ps
    return out


def beliefs(game: Any, infoset: Any, profile: Mapping[Any, Sequence[float]] | None = None
            ) -> tuple[dict[int, float], float]:
    """The beliefs at an information set under a behaviour profile, and the set's reach probability.

    Parameters
    ----------
    game : InfoGame or as :func:`perfect_recall`
        The game.
    infoset : InfoSet, int or tuple
        The information set: an InfoSet, its index, or a (player, number) pair.
    profile : mapping, optional
        As for :func:`reach_probabilities`.

    Returns
    -------
    (dict, float)
        Node -> belief (its realisation probability over the sum over the set's nodes; empty
        when the set is reached with probability 0), and the probability that the set is
        visited at least once (gambitproject/gambit#826).

    Examples
    --------
    >>> import kop
    >>> g = kop.absent_minded_driver()
    >>> b, reached = kop.beliefs(g, ("Driver", 1), {("Driver", 1): [0.5, 0.5]})
    >>> {g.node_name(x): round(p, 4) for x, p in b.items()}, reached
    ({'root': 0.6667, 'Continue': 0.3333}, 1.0)
    """
    g = game_argument(game)
    if isinstance(infoset, InfoSet):
        h = g.sets[infoset.index]
    else:
        h = g.sets[_behaviour_key(g, infoset)]
    reach = reach_probabilities(g, profile)
    total = float(sum(reach[x] for x in h.nodes))
    members = set(h.nodes)
    first = [x for x in h.nodes if not any(a in members for a in g.history(x)[:-1])]
    visited = float(sum(reach[x] for x in first))
    if total <= 0:
        return {}, visited
    return {x: float(reach[x]) / total for x in h.nodes}, visited


def _behaviour_key(game: InfoGame, key: Any) -> int:
    for s in game.sets:
        if key == s.index or key == (s.player, s.number):
            return s.index
    raise TreeError(f"no information set {key!r} (use an InfoSet, its index, or (player, number))")
