"""Random possible-worlds games: the binary trees of §2.1, the belief sets of Fig. 5, and the
imaginary card game of §3.3 (Jamroga 2001, after Frank, Basin & Matsubara 1998).

Every generator takes a seed (or a numpy ``Generator``) and is deterministic in it.

>>> g = random_game(2, 4, seed=1)
>>> g
WorldsGame(worlds=4, nodes=7, leaves=4, depth=2, first=MAX)
>>> actual, omax, omin = random_belief_sets(10, seed=1)
>>> bool(omax[actual] and omin[actual])
True
>>> c = card_game(7, 3, seed=0)
>>> c.n_worlds, c.depth, len(set(c.max_beliefs.state_ids(0)))
(140, 4, 35)
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from kop.worlds.errors import LimitError, WorldsError
from kop.worlds.game import LEAF, MAX, MIN, Beliefs, WorldsGame
from kop.syntax import arguments

__all__ = ["random_game", "random_worlds_game", "random_belief_sets", "card_game", "card_hands", "card_atoms", "binary_layout",
           "MAX_CARD_WORLDS"]

#: the largest card game (in worlds) :func:`card_game` builds
MAX_CARD_WORLDS = 200_000


def _rng(seed: Any) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def binary_layout(depth: int, first: str = "MAX") -> tuple[np.ndarray, np.ndarray]:
    """Offsets and owners of the complete binary tree of *depth*, players alternating from *first*."""
    if not isinstance(depth, (int, np.integer)) or depth < 0:
        raise WorldsError(f"the depth must be a non-negative integer, got {depth!r}")
    if depth > 24:
        raise LimitError(f"depth {depth} means {2 ** depth} leaves; the limit is depth 24")
    if first not in ("MAX", "MIN"):
        raise WorldsError(f"the first player is 'MAX' or 'MIN', not {first!r}")
    m = 2 ** (depth + 1) - 1
    internal = 2 ** depth - 1
    node = np.arange(m)
    off = np.concatenate([2 * node[:internal] + 1, np.full(m - internal + 1, m)])
    level = np.floor(np.log2(node + 1)).astype(np.int64)
    start = MAX if first == "MAX" else MIN
    owner = np.where(level % 2 == 0, start, 1 - start).astype(np.int8)
    owner[internal:] = LEAF
    return off, owner


def random_game(depth: int, n_worlds: int, seed: Any = None, first: str = "MAX", p: float = 0.5) -> WorldsGame:
    """A complete binary tree of *depth*, players alternating, and a random 0/1 payoff per (leaf, world).

    Also exported as ``kop.random_worlds_game``.

    Parameters
    ----------
    depth : int
        The tree's depth (2**depth leaves).
    n_worlds : int
        The number of worlds, >= 1.
    seed : int or numpy.random.Generator, optional
        The game is a function of it.
    first : "MAX" or "MIN"
        Who moves at the root.
    p : float
        The probability of payoff 1 at each (leaf, world).

    Returns
    -------
    WorldsGame
        The game; nobody knows anything (Ω_P(w) = Ω).

    Examples
    --------
    >>> import kop
    >>> g = kop.random_worlds_game(3, 5, seed=7)
    >>> g
    WorldsGame(worlds=5, nodes=15, leaves=8, depth=3, first=MAX)
    >>> g.payoffs[g.leaves()].tolist() == kop.random_worlds_game(3, 5, seed=7).payoffs[g.leaves()].tolist()
    True

    References
    ----------
    W. Jamroga, *A Defense Model for Games with Incomplete Information*, KI 2001, LNAI 2174, §2.1;
    I. Frank, D. Basin, H. Matsubara, *Finding Optimal Strategies for Imperfect Information Games*,
    AAAI-98.
    """
    n_worlds = arguments.integer(n_worlds, "n_worlds")
    p = arguments.real(p, "p")
    if n_worlds < 1:
        raise WorldsError(f"a game needs at least one world, got {n_worlds}")
    off, owner = binary_layout(depth, first)
    leaves = 2 ** depth
    if leaves * n_worlds > 50_000_000:
        raise LimitError(f"{leaves} leaves x {n_worlds} worlds is too large (limit 5e7 payoffs)")
    pay = np.full((len(owner), n_worlds), np.nan)
    pay[len(owner) - leaves:] = (_rng(seed).random((leaves, n_worlds)) < p).astype(np.float64)
    return WorldsGame(off, owner, pay)


def random_belief_sets(n_worlds: int, seed: Any = None, p: float = 0.5) -> tuple[int, np.ndarray, np.ndarray]:
    """Fig. 5's random belief sets: an actual world, and Ω_MAX, Ω_MIN that each hold it.

    Each set holds the actual world and every other world with probability *p*, so both are
    adequate.

    Parameters
    ----------
    n_worlds : int
        The number of worlds.
    seed : int or numpy.random.Generator, optional
        The sets are a function of it.
    p : float
        The probability that a world other than the actual one is in a set.

    Returns
    -------
    tuple of (int, numpy.ndarray, numpy.ndarray)
        The actual world and the boolean masks Ω_MAX and Ω_MIN.

    Examples
    --------
    >>> import kop
    >>> actual, omax, omin = kop.random_belief_sets(6, seed=2)
    >>> actual, omax.tolist(), bool(omin[actual])
    (5, [True, False, True, False, False, True], True)

    References
    ----------
    W. Jamroga, *A Defense Model for Games with Incomplete Information*, KI 2001, LNAI 2174, Fig. 5.
    """
    n_worlds = arguments.integer(n_worlds, "n_worlds")
    p = arguments.real(p, "p")
    if n_worlds < 1:
        raise WorldsError("at least one world is needed")
    if not 0 <= p <= 1:
        raise WorldsError(f"the inclusion probability must lie in [0, 1], got {p}")
    rng = _rng(seed)
    actual = int(rng.integers(n_worlds))
    omax = rng.random(n_worlds) < p
    omin = rng.random(n_worlds) < p
    omax[actual] = omin[actual] = True
    return actual, omax, omin


def card_hands(n: int, c: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The worlds of the card game: (MAX's hand, MIN's hand), disjoint c-card hands from cards 1..n."""
    if not (isinstance(n, int) and isinstance(c, int)) or c < 1 or n < 1:
        raise WorldsError(f"the card game needs positive integers n and c, got n={n!r}, c={c!r}")
    if 2 * c > n:
        raise WorldsError(f"impossible card game: two hands of c={c} cards need 2c = {2 * c} cards, "
                          f"but the deck has n={n}")
    worlds = math.comb(n, c) * math.comb(n - c, c)
    if worlds > MAX_CARD_WORLDS:
        raise LimitError(f"the card game n={n}, c={c} has {worlds} worlds; the limit is {MAX_CARD_WORLDS}")
    deck = range(1, n + 1)
    out = []
    for mine in itertools.combinations(deck, c):
        rest = [x for x in deck if x not in mine]
        for theirs in itertools.combinations(rest, c):
            out.append((mine, theirs))
    return out


def card_atoms(n: int, c: int) -> dict[str, np.ndarray]:
    """Atoms of the card game's worlds: ``max_k`` (MAX holds card k) and ``min_k``, per world."""
    hands = card_hands(n, c)
    atoms = {}
    for k in range(1, n + 1):
        atoms[f"max_{k}"] = np.array([k in h[0] for h in hands])
        atoms[f"min_{k}"] = np.array([k in h[1] for h in hands])
    return atoms


def card_game(n: int, c: int, seed: Any = None, first: str = "MAX", p: float = 0.5) -> WorldsGame:
    """The imaginary card game of §3.3.

    n cards, c per hand; a world is a deal (MAX's hand, MIN's hand), so there
    are N = C(n,c)·C(n−c,c) worlds.  A player may lead only his lowest or
    highest card (child 0 or 1) and the opponent sees only which, so the tree
    is binary of depth D = 2(c − 1) and the beliefs never change: Ω_MAX(w) are
    the deals where MAX holds his hand of w, Ω_MIN(w) those where MIN holds
    his.  Payoffs are random 0/1 (1 with probability *p*) per leaf and world.
    Worlds are named ``"123|456"`` (MAX's cards | MIN's cards).

    Parameters
    ----------
    n : int
        The number of cards.
    c : int
        Cards per hand (2c <= n).
    seed : int or numpy.random.Generator, optional
        The payoffs are a function of it.
    first : "MAX" or "MIN"
        Who leads.
    p : float
        The probability of payoff 1 at each (leaf, world).

    Returns
    -------
    WorldsGame
        The game, with its (static) belief functions.

    Examples
    --------
    >>> import kop
    >>> g = kop.card_game(5, 2, seed=0)
    >>> g, g.worlds[:3]
    (WorldsGame(worlds=30, nodes=7, leaves=4, depth=2, first=MAX), ('12|34', '12|35', '12|45'))

    References
    ----------
    W. Jamroga, *A Defense Model for Games with Incomplete Information*, KI 2001, LNAI 2174, §3.3;
    I. Frank, D. Basin, H. Matsubara, *Finding Optimal Strategies for Imperfect Information Games*,
    AAAI-98.
    """
    p = arguments.real(p, "p")
    hands = card_hands(n, c)
    if c < 2:
        raise WorldsError(f"with c={c} card per hand nobody moves (D = 2(c-1) = 0); use c >= 2")
    depth = 2 * (c - 1)
    off, owner = binary_layout(depth, first)
    leaves = 2 ** depth
    nw = len(hands)
    pay = np.full((len(owner), nw), np.nan)
    pay[len(owner) - leaves:] = (_rng(seed).random((leaves, nw)) < p).astype(np.float64)
    max_ids = {h: i for i, h in enumerate(dict.fromkeys(h[0] for h in hands))}
    min_ids = {h: i for i, h in enumerate(dict.fromkeys(h[1] for h in hands))}
    bmax = Beliefs.partition(np.array([max_ids[h[0]] for h in hands]))
    bmin = Beliefs.partition(np.array([min_ids[h[1]] for h in hands]))
    names = [f"{''.join(map(_card, a))}|{''.join(map(_card, b))}" for a, b in hands]
    return WorldsGame(off, owner, pay, names, bmax, bmin)


#: the name under which :func:`random_game` is exported from ``kop``
random_worlds_game = random_game


def _card(k: int) -> str:
    return str(k) if k < 10 else f"({k})"
