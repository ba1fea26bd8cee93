"""Payoff bounds for N-player pruning (Bodkin §4.1.1): per-player ranges and payoff-sum bounds.

Each player's payoff lies in ``[low_i, high_i]`` and the payoffs of every leaf sum to
between ``m`` and ``M``; optionally a subset ``I`` of players has its own sum bounds
``m_I <= sum_{i in I} u_i <= M_I``.  Branch-and-Bound, Lower-Eval and Bimodal-Eval cut off
only by reasoning from these bounds, so :func:`check_bounds` verifies every leaf of the tree
first (one vectorized pass) and names the leaf and the bound it breaks.

Example
-------
>>> from kop.games.trees.tree import GameTree
>>> from kop.games.nplayer.bounds import PayoffBounds, check_bounds
>>> t = GameTree.build(["a", "b", "c"], ("a", [(0.7, 0.2, 0.1), (0.5, 0.1, 0.4)]), goals="max")
>>> b = PayoffBounds.uniform(3, low=0, high=1, m=1, M=1)
>>> check_bounds(t, b) is b
True
>>> PayoffBounds.infer(t).M
1.0
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any
from dataclasses import dataclass, field

import numpy as np

from kop.games.errors import TreeError
from kop.games.trees.tree import LEAF, GameTree
from kop.syntax import arguments
from kop.errors import BoundsError

__all__ = ["PayoffBounds", "BoundsError", "check_bounds", "exact_slack"]

#: relative tolerance of the bound reasoning (the leaves are checked to half of it)
REL_TOL = 1e-9


@dataclass(frozen=True)
class PayoffBounds:
    """Declared bounds: per-player ``low``/``high``, global sum ``m``/``M``, optional subset sums.

    ``subsets`` maps a tuple of player indices to ``(m_I, M_I)`` (use ``-inf``/``inf`` for
    no bound on one side).

    Parameters
    ----------
    low, high : tuple of float
        Each player's least and greatest payoff.
    m, M : float
        Bounds on the sum of all payoffs.
    subsets : mapping, optional
        Player-index tuple -> (m_I, M_I), bounds on that subset's sum.

    Examples
    --------
    >>> import kop
    >>> kop.PayoffBounds.uniform(3, low=0, high=1, m=1, M=1)
    PayoffBounds(low=(0.0, 0.0, 0.0), high=(1.0, 1.0, 1.0), m=1.0, M=1.0, subsets={})

    References
    ----------
    R. J. Bodkin, *Extending Computational Game Theory: Simultaneity, Multiple Agents, Chance
    and Metareasoning*, MIT (1992), §4.1.1.
    """

    low: tuple[float, ...]
    high: tuple[float, ...]
    m: float
    M: float
    subsets: Mapping[tuple[int, ...], tuple[float, float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("low", "high"):
            values = getattr(self, name)
            items = arguments.items(values, name, "a list of numbers, one per player")
            object.__setattr__(self, name, tuple(arguments.real(x, f"{name}[{i}]", finite=False, nan=True)
                                                 for i, x in enumerate(items)))
        for name in ("m", "M"):
            object.__setattr__(self, name, arguments.real(getattr(self, name), name, finite=False, nan=True))
        if not isinstance(self.subsets, Mapping):
            raise arguments.fail("subsets", "a dict {(player indices): (m_I, M_I)}", self.subsets)
        n = len(self.low)
        if n == 0 or len(self.high) != n:
            raise BoundsError("bounds need one low and one high value per player")
        vals = [*self.low, *self.high, self.m, self.M]
        if any(isinstance(x, float) and math.isnan(x) for x in vals):
            raise BoundsError("bounds must not be NaN")
        for i, (lo, hi) in enumerate(zip(self.low, self.high)):
            if not (math.isfinite(lo) and math.isfinite(hi)) or lo > hi:
                raise BoundsError(f"payoff bounds of player {i}: need finite low <= high, got [{lo}, {hi}]")
        if not (math.isfinite(self.m) and math.isfinite(self.M)) or self.m > self.M:
            raise BoundsError(f"sum bounds: need finite m <= M, got m={self.m}, M={self.M}")
        for key, (mi, Mi) in self.subsets.items():
            if not key or len(set(key)) != len(key) or not all(0 <= k < n for k in key):
                raise BoundsError(f"subset bound {key!r}: players must be distinct indices 0..{n - 1}")
            if math.isnan(mi) or math.isnan(Mi) or mi > Mi:
                raise BoundsError(f"subset bound {key!r}: need m_I <= M_I, got ({mi}, {Mi})")

    @classmethod
    def uniform(cls, n: int, *, low: float = 0.0, high: float = 1.0, m: float | None = None,
                M: float | None = None) -> PayoffBounds:
        """Every player in ``[low, high]``; the sum in ``[m, M]`` (default: what the ranges imply)."""
        return cls((float(low),) * n, (float(high),) * n,
                   float(n * low if m is None else m), float(n * high if M is None else M))

    @classmethod
    def infer(cls, tree: GameTree) -> PayoffBounds:
        """The tightest global bounds of *tree*'s own payoffs (one vectorized pass)."""
        pay = tree.payoffs
        _check_finite(tree)
        s = pay.sum(axis=1)
        return cls(tuple(map(float, pay.min(axis=0))), tuple(map(float, pay.max(axis=0))),
                   float(s.min()), float(s.max()))

    @property
    def n(self) -> int:
        return len(self.low)

    @property
    def tol(self) -> float:
        """The slack of the bound reasoning (rounding of float sums)."""
        scale = max(1.0, abs(self.m), abs(self.M), *map(abs, self.low), *map(abs, self.high))
        return REL_TOL * scale

    def all_sets(self) -> list[tuple[tuple[int, ...], float, float]]:
        """Every sum bound as ``(players, m_I, M_I)``, the global one first."""
        out = [(tuple(range(self.n)), self.m, self.M)]
        out += [(tuple(sorted(k)), float(v[0]), float(v[1])) for k, v in self.subsets.items()]
        return out

    def pair_upper(self) -> list[list[float]]:
        """``M_{p,q}`` for each pair: the tightest upper bound on ``u_p + u_q`` the bounds imply."""
        return self._pair_bounds(upper=True)

    def pair_lower(self) -> list[list[float]]:
        """``m_{j,p}`` for each pair: the tightest lower bound on ``u_j + u_p`` the bounds imply."""
        return self._pair_bounds(upper=False)

    def _pair_bounds(self, upper: bool) -> list[list[float]]:
        """The tightest upper (or lower) bound on each ``u_p + u_q``: the players' own high (low) bounds
        summed, or a sum bound ``M_I`` (``m_I``) less the low (high) bounds of I's other players."""
        n = self.n
        own, other = (self.high, self.low) if upper else (self.low, self.high)
        out = [[own[p] + own[q] for q in range(n)] for p in range(n)]
        for players, mi, Mi in self.all_sets():
            bound = Mi if upper else mi
            for p in players:
                for q in players:
                    if p != q:
                        rest = sum(other[k] for k in players if k not in (p, q))
                        out[p][q] = min(out[p][q], bound - rest) if upper else max(out[p][q], bound - rest)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"low": list(self.low), "high": list(self.high), "m": self.m, "M": self.M,
                "subsets": {",".join(map(str, k)): list(v) for k, v in self.subsets.items()}}


def _check_finite(tree: GameTree) -> None:
    bad = ~np.isfinite(tree.payoffs)
    if bad.any():
        row = int(np.flatnonzero(bad.any(axis=1))[0])
        leaf = int(np.flatnonzero(tree.kind == LEAF)[row])
        raise BoundsError(f"{tree.path_name(leaf)}: payoff {list(tree.payoffs[row])} is not finite")


def check_bounds(tree: GameTree, bounds: PayoffBounds, slack: float | None = None) -> PayoffBounds:
    """*bounds* if every leaf of *tree* keeps them, else a :class:`BoundsError` naming leaf and bound.

    A leaf may break a bound by *slack* (default: half of ``bounds.tol``, the rounding of
    float sums).
    """
    if bounds.n != len(tree.players):
        raise BoundsError(f"bounds are for {bounds.n} players, the tree has {len(tree.players)}")
    _check_finite(tree)
    pay = tree.payoffs
    if slack is None:
        slack = bounds.tol / 2
    leaves = None

    def fail(row: int, what: str) -> None:
        nonlocal leaves
        if leaves is None:
            leaves = np.flatnonzero(tree.kind == LEAF)
        where = tree.path_name(int(leaves[row]))
        vals = ", ".join(f"{x:g}" for x in pay[row])
        raise BoundsError(f"{where}: payoff ({vals}) breaks the declared bound {what}, which the "
                          "pruning relies on; declare looser bounds or use maxn")

    low, high = np.asarray(bounds.low), np.asarray(bounds.high)
    for k, name in enumerate(tree.player_names):
        below = np.flatnonzero(pay[:, k] < low[k] - slack)
        if len(below):
            fail(int(below[0]), f"{name} >= {bounds.low[k]:g}")
        above = np.flatnonzero(pay[:, k] > high[k] + slack)
        if len(above):
            fail(int(above[0]), f"{name} <= {bounds.high[k]:g}")
    for players, mi, Mi in bounds.all_sets():
        s = pay[:, list(players)].sum(axis=1)
        who = "+".join(tree.player_names[k] for k in players)
        if math.isfinite(mi):
            bad = np.flatnonzero(s < mi - slack)
            if len(bad):
                fail(int(bad[0]), f"{who} >= {mi:g} (sum lower bound m)")
        if math.isfinite(Mi):
            bad = np.flatnonzero(s > Mi + slack)
            if len(bad):
                fail(int(bad[0]), f"{who} <= {Mi:g} (sum upper bound M)")
    return bounds


#: payoffs and bounds on the grid 2^-k, for one of these k, are added exactly by floats
_GRIDS = (0, 30)


def exact_slack(tree: GameTree, bounds: PayoffBounds) -> float:
    """The slack the sum-bound cutoffs need on *tree*: 0 where float arithmetic is exact, else ``bounds.tol``.

    It is exact when every payoff and every bound is a multiple of ``2**-k`` (integers, or
    dyadic fractions such as 0.25) small enough that every sum the searches form is
    represented exactly, and every leaf keeps the bounds exactly.  Then a cutoff at
    equality is sound, as in the thesis.  Otherwise (payoffs like 0.1, whose sums round)
    the cutoffs keep the slack ``bounds.tol``.

    Example
    -------
    >>> from kop.games.trees.tree import GameTree
    >>> t = GameTree.build(["a", "b"], ("a", [(3, 1), (2, 2)]), goals="max")
    >>> exact_slack(t, PayoffBounds.uniform(2, low=0, high=4, m=0, M=4))
    0.0
    >>> u = GameTree.build(["a", "b"], ("a", [(0.3, 0.1), (0.2, 0.2)]), goals="max")
    >>> exact_slack(u, PayoffBounds.uniform(2, low=0, high=1, m=0, M=1)) > 0
    True
    """
    finite = [x for _, lo, hi in bounds.all_sets() for x in (lo, hi) if math.isfinite(x)]
    values = np.concatenate([np.asarray(tree.payoffs, dtype=float).ravel(),
                             np.asarray([*bounds.low, *bounds.high, *finite], dtype=float)])
    terms = bounds.n + 2
    for k in _GRIDS:
        scaled = values * 2.0 ** k            # exact: a power of two
        if np.all(scaled == np.floor(scaled)) and float(np.max(np.abs(scaled), initial=0.0)) * terms < 2.0 ** 53:
            try:
                check_bounds(tree, bounds, slack=0.0)
            except BoundsError:
                return bounds.tol
            return 0.0
    return bounds.tol


def as_bounds(tree: GameTree, bounds: PayoffBounds | Mapping[str, Any] | Sequence[Any] | None) -> PayoffBounds:
    """Checked bounds from a :class:`PayoffBounds`, a dict of its fields, or None (inferred)."""
    if bounds is None:
        return PayoffBounds.infer(tree)
    if isinstance(bounds, PayoffBounds):
        return check_bounds(tree, bounds)
    if isinstance(bounds, Mapping):
        n = len(tree.players)
        try:
            low = bounds.get("low", 0.0)
            high = bounds.get("high", 1.0)
            lo = tuple(map(float, low)) if isinstance(low, Sequence) else (float(low),) * n
            hi = tuple(map(float, high)) if isinstance(high, Sequence) else (float(high),) * n
            subsets = {tuple(int(x) for x in k): (float(v[0]), float(v[1]))
                       for k, v in dict(bounds.get("subsets", {})).items()}
            b = PayoffBounds(lo, hi, float(bounds.get("m", sum(lo))), float(bounds.get("M", sum(hi))),
                             subsets)
        except (TypeError, ValueError) as exc:
            raise BoundsError(f"bounds: {exc}") from None
        return check_bounds(tree, b)
    raise BoundsError(f"bounds must be PayoffBounds, a dict or None, not {type(bounds).__name__}")


class DeepBounds:
    """The quantities Lower-Eval and Bimodal/Unimodal-Eval use, with the rounding slack built in.

    * ``none[i]``: the floor that every payoff of player i meets (``low_i - tol``);
    * ``ceiling(p, alpha)``: ``min_{I ∋ p} (M_I - sum_{i in I-p} alpha_i)`` (+ slack): if p
      gets this much, some floor in *alpha* is not met (the thesis prints max; the
      tightest bound is the least one);
    * ``mlow[j][p]``: ``m_{j,p}`` (- slack): the least ``u_j + u_p``;
    * ``mup[j][p]``: ``M_{j,p}`` (+ slack): the greatest ``u_j + u_p``.
    """

    __slots__ = ("none", "mlow", "mup", "Mt", "sets", "global_only", "n")

    def __init__(self, bounds: PayoffBounds):
        tol = bounds.tol
        self.n = bounds.n
        self.none = tuple(x - tol for x in bounds.low)
        self.mlow = [[x - tol for x in row] for row in bounds.pair_lower()]
        self.mup = [[x + tol for x in row] for row in bounds.pair_upper()]
        self.Mt = bounds.M + tol
        self.global_only = not bounds.subsets
        self.sets = [[(tuple(k for k in players if k != p), Mi + tol)
                      for players, _, Mi in bounds.all_sets() if p in players and Mi != math.inf]
                     for p in range(bounds.n)]

    def own_floor(self, p: int, x: float) -> list[float]:
        """The floor vector that holds only player p, to *x* (every other floor is ``none``)."""
        out = list(self.none)
        out[p] = x
        return out

    def ceiling(self, p: int, alpha: Sequence[float]) -> float:
        if self.global_only:
            return self.Mt - (sum(alpha) - alpha[p])
        return min(Mi - sum(alpha[k] for k in rest) for rest, Mi in self.sets[p])
