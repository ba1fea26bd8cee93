"""Plausibility and probability on a Kripke model: what ``B_a`` and ``P_a`` are evaluated on.

Each agent keeps its knowledge partition and may gain, within each of its cells,

* a **plausibility order** (Baltag & Smets, *A qualitative theory of dynamic
  interactive belief revision*, 2008): an integer rank per world, lower is
  more plausible, compared only within the agent's cells.  ``B_a φ`` holds at
  w when φ holds at the most plausible worlds of a's cell of w; the
  conditional ``B_a(ψ, φ)`` when φ holds at the most plausible ψ-worlds of
  the cell (true when the cell has none).  An agent without an order finds
  all worlds equally plausible, and then ``B_a`` is ``K_a``.  A world left
  out of an agent's order is less plausible than every world in it.
* a **probability** (Kooi, *Probabilistic dynamic epistemic logic*, 2003): a
  non-negative weight per world, renormalized within each cell, so that
  ``P_a(φ)`` at w is the weight of the φ-worlds of a's cell of w divided by
  the weight of the cell, an exact fraction.  An agent without weights gives
  every world weight 1 (uniform within each cell); a world left out of an
  agent's weights has weight 0; a cell of total weight 0 is an error.

A public announcement restricts the model, and with it the ranks and the
weights: the ranks of the surviving worlds stay as they were (belief revision
by restriction), and the probabilities are conditioned on the announcement
(Kooi's update: the weights of the surviving worlds, renormalized within the
surviving part of each cell).  If an agent gave the announcement probability 0
in a cell, Kooi's agent ignores it and keeps its measure as it was: kop reads that
measure in the model before the announcement (``kop.semantics.checker.kept_probability``),
so ``[!p] P_a(true) = 1`` is valid (docs/uncertainty.md).

Values are kept per world, in the model's world order:

>>> from fractions import Fraction
>>> u = Uncertainty({"a": (0, 1, 1)}, {"a": (Fraction(1), Fraction(0), Fraction(2))})
>>> u.select([0, 2]).ranks, u.select([0, 2]).weights
({'a': (0, 1)}, {'a': (Fraction(1, 1), Fraction(2, 1))})
>>> u.int_weights("a")
[1, 0, 2]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from kop.semantics.errors import ModelError
from kop.syntax.formula import parse_fraction
from kop.syntax.wording import json_path

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

__all__ = ["Uncertainty", "read_uncertainty", "read_probability"]


class Uncertainty:
    """Per-agent plausibility ranks and probability weights, one per world (read-only).

    Parameters
    ----------
    ranks : dict of agent to tuple of int
        The agents with a plausibility order (the others find all worlds equally plausible).
    weights : dict of agent to tuple of Fraction
        The agents with probabilities (the others weigh every world 1).
    """

    __slots__ = ("_ranks", "_weights", "_cache", "_parent", "_keep")

    def __init__(self, ranks: dict[str, tuple[int, ...]], weights: dict[str, tuple[Fraction, ...]]):
        self._ranks: dict[str, tuple[int, ...]] | None = ranks
        self._weights: dict[str, tuple[Fraction, ...]] | None = weights
        self._cache: dict[tuple[str, str], Any] = {}
        self._parent: Uncertainty | None = None
        self._keep: Any = None

    @classmethod
    def view(cls, parent: Uncertainty, keep: np.ndarray) -> Uncertainty:
        """The values at the positions *keep* (an int array), read from *parent* only when asked for.

        A restriction of a large model (an announcement) then costs one array
        index per agent that a question looks at.
        """
        if parent._parent is not None:
            parent, keep = parent._parent, parent._keep[keep]
        self = cls.__new__(cls)
        self._ranks = self._weights = None
        self._cache = {}
        self._parent, self._keep = parent, keep
        return self

    @property
    def ranks(self) -> dict[str, tuple[int, ...]]:
        """Each agent's rank per world (only the agents with an order)."""
        if self._ranks is None:
            assert self._parent is not None
            keep = self._keep.tolist()
            self._ranks = {a: tuple(r[i] for i in keep) for a, r in self._parent.ranks.items()}
        return self._ranks

    @property
    def weights(self) -> dict[str, tuple[Fraction, ...]]:
        """Each agent's weight per world (only the agents with probabilities)."""
        if self._weights is None:
            assert self._parent is not None
            keep = self._keep.tolist()
            self._weights = {a: tuple(w[i] for i in keep) for a, w in self._parent.weights.items()}
        return self._weights

    def _has(self, field: str, agent: str) -> bool:
        root = self._parent if self._parent is not None else self
        return agent in (root.ranks if field == "ranks" else root.weights)

    def __bool__(self) -> bool:
        root = self._parent if self._parent is not None else self
        return bool(root.ranks or root.weights)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Uncertainty):
            return NotImplemented
        return (self.ranks, self.weights) == (other.ranks, other.weights)

    __hash__ = None  # type: ignore[assignment]

    def select(self, positions: Sequence[int]) -> Uncertainty:
        """The values at *positions* (the worlds kept by a restriction), in that order."""
        return Uncertainty({a: tuple(r[i] for i in positions) for a, r in self.ranks.items()},
                           {a: tuple(w[i] for i in positions) for a, w in self.weights.items()})

    def with_ranks(self, agent: str, ranks: tuple[int, ...]) -> Uncertainty:
        """A copy with *agent*'s ranks replaced."""
        return Uncertainty({**self.ranks, agent: ranks}, dict(self.weights))

    # -- the values the checkers use (cached) --------------------------------------
    def rank_list(self, agent: str) -> list[int] | None:
        """*agent*'s ranks, or None when all its worlds are equally plausible."""
        if not self._has("ranks", agent):
            return None
        return list(self.ranks[agent])

    def int_weights(self, agent: str) -> list[int] | None:
        """*agent*'s weights as integers in the same ratios (None: uniform); exact."""
        key = ("int", agent)
        if key not in self._cache:
            if not self._has("weights", agent):
                self._cache[key] = None
            elif self._parent is not None:
                whole = self._parent.int_weights(agent)
                assert whole is not None
                self._cache[key] = [whole[i] for i in self._keep.tolist()]
            else:
                w = self.weights[agent]
                scale = math.lcm(*(x.denominator for x in w)) if w else 1
                self._cache[key] = [x.numerator * (scale // x.denominator) for x in w]
        out: list[int] | None = self._cache[key]
        return out

    def float_weights(self, agent: str) -> tuple[np.ndarray, int] | None:
        """*agent*'s integer weights as float64, and their total, when every sum of them is exact in float64.

        None for uniform weights or when the total reaches 2**53 (then use :meth:`np_weights`).
        """
        key = ("flt", agent)
        if key not in self._cache:
            import numpy as np

            if self._parent is not None:
                whole = self._parent.float_weights(agent)
                out = None if whole is None else (whole[0][self._keep], whole[1])
            else:
                w = self.int_weights(agent)
                total = sum(w) if w is not None else 0
                out = None if w is None or total >= 2 ** 53 else (np.array(w, dtype=np.float64), total)
            self._cache[key] = out
        got: tuple[np.ndarray, int] | None = self._cache[key]
        return got

    def np_ranks(self, agent: str) -> np.ndarray | None:
        """*agent*'s ranks as an int64 array (None: all equal)."""
        key = ("npr", agent)
        if key not in self._cache and self._parent is not None:
            whole = self._parent.np_ranks(agent)
            self._cache[key] = None if whole is None else whole[self._keep]
        if key not in self._cache:
            import numpy as np

            r = self.ranks.get(agent)
            arr = None if r is None else _int_array(np, r)
            if r is not None and arr is not None and arr.dtype == object:  # huge ranks: the same order, small
                order = {v: i for i, v in enumerate(sorted(set(r)))}
                arr = np.array([order[v] for v in r], dtype=np.int64)
            self._cache[key] = arr
        out: np.ndarray | None = self._cache[key]
        return out

    def np_weights(self, agent: str) -> np.ndarray | None:
        """*agent*'s integer weights as an int64 array, or an object array of Python ints when too large."""
        key = ("npw", agent)
        if key not in self._cache and self._parent is not None:
            whole = self._parent.np_weights(agent)
            self._cache[key] = None if whole is None else whole[self._keep]
        if key not in self._cache:
            import numpy as np

            w = self.int_weights(agent)
            self._cache[key] = None if w is None else _int_array(np, w)
        out: np.ndarray | None = self._cache[key]
        return out

    def to_json(self, worlds: Sequence[str]) -> dict[str, Any]:
        """The ``plausibility`` and ``probability`` fields of ``kop-model/1`` (only those that are set)."""
        out: dict[str, Any] = {}
        if self.ranks:
            out["plausibility"] = {a: dict(zip(worlds, r)) for a, r in self.ranks.items()}
        if self.weights:
            out["probability"] = {a: {w: _fraction_text(x) for w, x in zip(worlds, ws)}
                                  for a, ws in self.weights.items()}
        return out


def _int_array(np: Any, values: Sequence[int]) -> Any:
    if not values:
        return np.zeros(0, dtype=np.int64)
    if max(values) < 2 ** 62 and min(values) > -2 ** 62:
        return np.array(values, dtype=np.int64)
    return np.array(values, dtype=object)


def _fraction_text(x: Fraction) -> str | int:
    return x.numerator if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


# -- reading -------------------------------------------------------------------------------

def read_probability(value: Any) -> Fraction:
    """A probability weight from JSON or Python: a number, or a string such as ``"1/3"`` or ``"0.25"``.

    Floats are read as the decimal they print as (``0.1`` is 1/10).  Raises
    ``ValueError`` saying what is wrong (negative, not a number).

    >>> read_probability("2/6"), read_probability(0.1), read_probability(3)
    (Fraction(1, 3), Fraction(1, 10), Fraction(3, 1))
    """
    if isinstance(value, bool):
        raise ValueError(f"expected a number or a fraction such as \"1/3\", not {str(value).lower()}")
    if isinstance(value, Fraction):
        x = value
    elif isinstance(value, int):
        x = Fraction(value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"expected a finite number, not {value!r}")
        x = Fraction(repr(value))
    elif isinstance(value, str):
        x = parse_fraction(value)
    else:
        try:
            x = Fraction(value)
        except (TypeError, ValueError):
            raise ValueError(f"expected a number or a fraction such as \"1/3\", not {type(value).__name__}") from None
    if x < 0:
        raise ValueError(f"a probability must not be negative, not {_fraction_text(x)}")
    return x


def read_uncertainty(plausibility: Any, probability: Any, names: Sequence[str], index: Mapping[str, int],
                     agents: Sequence[str], ids: Mapping[str, Sequence[int]]) -> Uncertainty | None:
    """Check and read the ``plausibility`` and ``probability`` fields; None when both are absent.

    Errors are :class:`ModelError` naming the JSON path (``$.probability.a.w1``).
    *ids*: each agent's block id per world (to check that no cell has total weight 0).
    """
    if plausibility is None and probability is None:
        return None
    n = len(names)
    ranks: dict[str, tuple[int, ...]] = {}
    for agent, order in _per_agent(plausibility, "plausibility", agents):
        got: list[int | None] = [None] * n
        for w, r in _per_world(order, ["plausibility", agent], index):
            if isinstance(r, bool) or not isinstance(r, int):
                raise ModelError(f"{json_path(['plausibility', agent, w])}: a plausibility rank must be an "
                                 f"integer (lower is more plausible), not {r!r}")
            got[index[w]] = r
        known = [r for r in got if r is not None]
        least = (max(known) + 1) if known else 0
        ranks[agent] = tuple(least if r is None else r for r in got)
    weights: dict[str, tuple[Fraction, ...]] = {}
    for agent, dist in _per_agent(probability, "probability", agents):
        vals = [Fraction(0)] * n
        for w, x in _per_world(dist, ["probability", agent], index):
            try:
                vals[index[w]] = read_probability(x)
            except ValueError as exc:
                raise ModelError(f"{json_path(['probability', agent, w])}: {exc}") from None
        totals: dict[int, Fraction] = {}
        for b, x in zip(ids[agent], vals):
            totals[b] = totals.get(b, Fraction(0)) + x
        for b, total in totals.items():
            if total == 0:
                cell = [w for w, c in zip(names, ids[agent]) if c == b]
                shown = ", ".join(cell[:5]) + (", ..." if len(cell) > 5 else "")
                raise ModelError(f"{json_path(['probability', agent])}: agent {agent!r} gives no weight to its "
                                 f"cell {{{shown}}} (total 0); give some world of every cell a positive weight")
        weights[agent] = tuple(vals)
    return Uncertainty(ranks, weights)


def _per_agent(field: Any, name: str, agents: Sequence[str]) -> list[tuple[str, Any]]:
    if field is None:
        return []
    if not isinstance(field, Mapping):
        raise ModelError(f"{json_path([name])}: expected an object mapping each agent to its "
                         f"{'ranks' if name == 'plausibility' else 'weights'} per world, not {type(field).__name__}")
    out = []
    for agent, value in field.items():
        if agent not in agents:
            have = ", ".join(repr(a) for a in agents) or "none"
            raise ModelError(f"{json_path([name, str(agent)])}: unknown agent {agent!r} (the model's agents: {have})")
        out.append((agent, value))
    return out


def _per_world(values: Any, path: list[str | int], index: Mapping[str, int]) -> list[tuple[str, Any]]:
    if _is_sequence(values):
        if len(values) != len(index):
            raise ModelError(f"{json_path(path)}: expected {len(index)} values, one per world, got {len(values)}")
        names = list(index)
        return [(names[i], v.item() if hasattr(v, "item") else v) for i, v in enumerate(values)]
    if not isinstance(values, Mapping):
        raise ModelError(f"{json_path(path)}: expected an object mapping world names to values, "
                         f"not {type(values).__name__}")
    for w in values:
        if not isinstance(w, str) or w not in index:
            shown = ", ".join(repr(x) for x in list(index)[:5]) + (", ..." if len(index) > 5 else "")
            raise ModelError(f"{json_path([*path, str(w)])}: unknown world {w!r} (worlds: {shown or 'none'})")
    return list(values.items())


def _is_sequence(x: Any) -> bool:
    return not isinstance(x, (str, bytes, Mapping)) and hasattr(x, "__len__") and hasattr(x, "__getitem__")
