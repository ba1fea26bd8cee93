"""Competitions between algorithms, as in Jamroga 2001, §2.1.

A *round* is one game played twice: A as MAX against B as MIN, then B as MAX
against A as MIN.  Each play is scored by MAX's expected payoff over the
worlds that count; the round's difference is A's payoff as MAX minus B's as
MAX.  Over many rounds:

* **triumph supremacy** of A: rounds A won minus rounds A lost, in percent of all rounds;
* **payoff supremacy** of A: the payoff difference summed per 1000 rounds (1000 × the mean).

Three settings (the paper's figures):

* ``"common"`` (Fig. 4): both players consider every world possible; the
  payoff is averaged over Ω;
* ``"sets"`` (Fig. 5): each player has his own random belief set; the payoff
  is averaged over Ω_MAX ∩ Ω_MIN (adequate knowledge);
* ``"worlds"`` (Fig. 8): the game is played in every world w, MAX believing
  Ω_MAX(w) and MIN believing Ω_MIN(w); the payoff is averaged over all worlds.

Algorithms are named ``"MC"``, ``"vm"``, ``"prm"``, ``"opt-bd"`` and ``"gvm"``.
MC, vm, prm and opt-bd model the opponent as omniscient (MC: in every world
separately); gvm models him through the game's belief functions.

>>> from kop.worlds.generators import random_game
>>> g = random_game(4, 50, seed=3)
>>> a, b = play_round(g, "MC", "vm")
>>> 0 <= a <= 1 and 0 <= b <= 1
True
>>> supremacy([0.1, -0.05, 0.0, 0.2])
(25.0, 62.5)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from kop.syntax import arguments
from kop.worlds.errors import WorldsError
from kop.worlds.game import LEAF, MAX, WorldsGame
from kop.worlds.gvm import gvm_values
from kop.worlds.mc import mc_choices
from kop.worlds.optbd import optbd_choices
from kop.worlds.prm import prm_choices
from kop.worlds.vm import vm_choices
from kop.worlds.checks import game_argument

__all__ = ["ALGORITHMS", "choices_for", "play_in_worlds", "play_round", "supremacy"]


def _vm(g: WorldsGame, w: np.ndarray) -> np.ndarray:
    return vm_choices(g, w)[0]


def _optbd(g: WorldsGame, w: np.ndarray) -> np.ndarray:
    return optbd_choices(g, w)[0]


def _gvm(g: WorldsGame, w: np.ndarray) -> np.ndarray:
    return gvm_values(g).plan_choices(MAX, w)


#: name -> MAX's choices (K, nodes) for K beliefs (rows of weights)
ALGORITHMS: dict[str, Callable[[WorldsGame, np.ndarray], np.ndarray]] = {
    "MC": mc_choices,
    "vm": _vm,
    "prm": prm_choices,
    "opt-bd": _optbd,
    "gvm": _gvm,
}


def choices_for(game: WorldsGame, algorithm: str, player: str, beliefs: np.ndarray) -> np.ndarray:
    """(K, nodes) *player*'s choices by *algorithm* for K actual beliefs."""
    try:
        fn = ALGORITHMS[algorithm]
    except KeyError:
        raise WorldsError(f"unknown algorithm {algorithm!r} (known: {', '.join(ALGORITHMS)})") from None
    g = game if player == "MAX" else game.mirrored()
    return fn(g, np.atleast_2d(np.asarray(beliefs, dtype=np.float64)))


def play_in_worlds(game: WorldsGame, max_choices: np.ndarray, max_state: np.ndarray, min_choices: np.ndarray,
                   min_state: np.ndarray) -> np.ndarray:
    """MAX's payoff in every world w when MAX plays ``max_choices[max_state[w]]`` and MIN
    ``min_choices[min_state[w]]`` (vectorized over worlds)."""
    n = game.n_worlds
    cur = np.zeros(n, dtype=np.int64)
    for _ in range(game.depth + 1):
        own = game.owner[cur]
        if (own == LEAF).all():
            break
        c = np.where(own == MAX, max_choices[max_state, cur], min_choices[min_state, cur])
        if ((own != LEAF) & (c < 0)).any():
            raise WorldsError("a plan has no move at a node it reaches")
        cur = np.where(own == LEAF, cur, game.offsets[cur] + c)
    return game.payoffs[cur, np.arange(n)]


def _mean(pay: np.ndarray, mask: np.ndarray) -> float:
    ok = mask & ~np.isnan(pay)
    if not ok.any():
        raise WorldsError("no world to score the play in (empty intersection of the belief sets?)")
    return float(pay[ok].mean())


def play_round(game: WorldsGame, a: str, b: str, setting: str = "common", max_set: Any = None,
               min_set: Any = None, cache: dict[tuple[str, str], np.ndarray] | None = None) -> tuple[float, float]:
    """One round: (MAX's payoff with A as MAX and B as MIN, MAX's payoff with B as MAX and A as MIN).

    Parameters
    ----------
    game : WorldsGame
        The game of this round.
    a, b : str
        The algorithms: ``"MC"``, ``"vm"``, ``"prm"``, ``"opt-bd"`` or ``"gvm"``.
    setting : {"common", "sets", "worlds"}
        Who believes what (the module docstring): every world possible (Fig. 4), a belief set
        each (Fig. 5), or the game's belief functions in every world (Fig. 8).
    max_set, min_set : numpy.ndarray, optional
        The belief sets (boolean masks) of the ``"sets"`` setting.
    cache : dict, optional
        Keeps each (algorithm, player)'s choices between rounds on the same game.

    Returns
    -------
    tuple of (float, float)
        MAX's payoff in each of the two plays, averaged over the setting's worlds.

    Examples
    --------
    >>> import kop
    >>> kop.play_round(kop.random_worlds_game(4, 20, seed=3), "vm", "gvm")
    (0.4, 0.5)

    References
    ----------
    W. Jamroga, *A Defense Model for Games with Incomplete Information*, KI 2001, LNAI 2174, §3 (the
    competitions of Figs. 4, 5 and 8).
    """
    game_argument(game)
    n = game.n_worlds
    cache = {} if cache is None else cache
    if setting == "common":
        wmax = wmin = np.ones((1, n))
        smax = smin = np.zeros(n, dtype=np.int64)
        mask = np.ones(n, dtype=bool)
    elif setting == "sets":
        if max_set is None or min_set is None:
            raise WorldsError("the 'sets' setting needs max_set and min_set")
        omax, omin = np.asarray(max_set, dtype=bool), np.asarray(min_set, dtype=bool)
        if omax.shape != (n,) or omin.shape != (n,):
            raise WorldsError(f"belief sets need one entry per world ({n})")
        wmax, wmin = omax[None].astype(np.float64), omin[None].astype(np.float64)
        smax = smin = np.zeros(n, dtype=np.int64)
        mask = omax & omin
        if not mask.any():
            raise WorldsError("Ω_MAX ∩ Ω_MIN is empty: the players' knowledge cannot both be adequate")
    elif setting == "worlds":
        if not (game.max_beliefs.static and game.min_beliefs.static):
            raise WorldsError("the 'worlds' setting needs beliefs that do not depend on the node")
        wmax, wmin = game.max_beliefs.state_weights(0), game.min_beliefs.state_weights(0)
        smax, smin = game.max_beliefs.state_ids(0), game.min_beliefs.state_ids(0)
        mask = np.ones(n, dtype=bool)
    else:
        raise WorldsError(f"unknown setting {setting!r} (common, sets, worlds)")

    def get(alg: str, player: str) -> np.ndarray:
        key = (alg, player)
        if key not in cache:
            cache[key] = choices_for(game, alg, player, wmax if player == "MAX" else wmin)
        return cache[key]

    first = _mean(play_in_worlds(game, get(a, "MAX"), smax, get(b, "MIN"), smin), mask)
    second = _mean(play_in_worlds(game, get(b, "MAX"), smax, get(a, "MIN"), smin), mask)
    return first, second


def supremacy(differences: Sequence[float]) -> tuple[float, float]:
    """A's triumph supremacy and payoff supremacy over B, from each round's difference.

    Parameters
    ----------
    differences : sequence of float
        Per round, A's payoff as MAX minus B's payoff as MAX.

    Returns
    -------
    tuple of (float, float)
        (triumph supremacy: rounds A won minus rounds A lost, in percent of all rounds; payoff
        supremacy: the differences summed per 1000 rounds, 1000 times the mean).

    Examples
    --------
    >>> import kop
    >>> kop.supremacy([0.1, -0.05, 0.0, 0.2])
    (25.0, 62.5)

    References
    ----------
    W. Jamroga, *A Defense Model for Games with Incomplete Information*, KI 2001, LNAI 2174, §3.
    """
    values = arguments.items(differences, "differences", "a list of numbers (one per round)")
    try:
        d = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise arguments.fail("differences", "a list of numbers (one per round)", differences) from None
    if d.ndim != 1:
        raise arguments.fail("differences", "a flat list of numbers (one per round)", differences)
    if d.size == 0:
        raise WorldsError("no rounds to score")
    triumph = 100.0 * (np.count_nonzero(d > 0) - np.count_nonzero(d < 0)) / d.size
    return float(triumph), float(1000.0 * d.mean())



