"""PrOM: probabilistic opponent-model search (Donkers, Uiterwijk & van den Herik 2001), and its Bayesian variant.

The player P does not know which evaluation function its opponent O uses; it
holds a probability over a few *opponent types* ω_1..ω_k.  Type ω_i has its own
evaluation of the leaves (a *candidate* for O's payoff component) and is
modelled as in M^1: it plays O's minimax on that evaluation (O optimizes the
candidate by O's goal at O's nodes and assumes the opposite of everyone else).
So at every node of O, type ω_i's move ``c_i(n)`` is fixed in advance.

:func:`prom` -- PrOM as Donkers et al. define it: at *every* move the opponent
draws a type independently with the given probabilities, so the value of an
opponent node is ``Σ_i p_i · v(c_i(n))``.  P maximizes the expectation of its own
payoff component at its nodes; chance nodes take the expectation.

:func:`prom_bayes` -- the *Bayesian* variant, for an opponent whose type is
drawn **once**, before the game, and kept: at an opponent node the types'
probabilities are the prior conditioned on O's moves along the path so far (a
type that would not have made one of them is ruled out, the rest are
renormalized), so ``v(n) = Σ_i q_i(n) · v(c_i(n))`` with ``q(n)`` the posterior
at n.  It maximizes P's expectation against a type drawn once; PrOM maximizes it
against a type drawn at every move.  The two differ as soon as one of O's
moves tells a type apart and a later O node is reached (see
:func:`prom_differs_example`).  Where O's moves along the path rule out every
type (a move no type would make: the belief was refuted), the posterior falls
back to the prior.

With one type equal to O's actual evaluation and probability 1 both are exactly
``kop.mstar(tree, 1, P)``.  With more than two players, the other opponents play
their own minimax (as in M^1).

The strategy's ``next(n)`` is P's choice at P's nodes, O's most probable move at
O's nodes (under the probabilities used there; ties to the first child), and the
minimax move of any other player.  ``value(n)`` is P's expected payoff vector
from n: at O's nodes it is the expectation over the types' moves, not the value
of ``next(n)``.

Arithmetic is in floats.  Choices are exact when every sum involved is (integer
payoffs and probabilities that are multiples of a power of two, e.g. 1/2, 3/8,
0.25); otherwise rounding can turn an exact tie into a near-tie or back.  The
Bayesian variant compares unnormalized sums (no division) at P's nodes.

Parameters
----------
tree : GameTree
player : str, optional
    P (default: the first player)
candidates : sequence of candidate evaluations
    each one value per leaf (the opponent's payoff at the leaves, left to right
    as :func:`kop.leaf_order` lists them), or a mapping leaf label -> value
probabilities : sequence of numbers, optional
    one per candidate, >= 0 with a positive sum (renormalized); numbers,
    fractions or strings such as ``"1/3"``; default uniform
opponent : str, optional
    whose types these are (default: the other player of a two-player tree)
tie : "first" or "last"

Example
-------
>>> import kop
>>> t = kop.figure2()
>>> actual = [b for _, b in (t.node(int(i)).payoff for i in kop.leaf_order(t))]
>>> kop.prom(t, "A", [actual], [1]).value() == kop.mstar(t, 1, "A").value()
True
>>> adversarial = [a for a, _ in (t.node(int(i)).payoff for i in kop.leaf_order(t))]  # B minimizes E_A
>>> kop.prom(t, "A", [actual, adversarial], ["3/10", "7/10"]).next().label
'R'
>>> b = kop.prom_bayes(t, "A", [actual, adversarial], ["3/10", "7/10"])
>>> b.next().label, round(b.value()[0], 9)
('S', 4.4)

Reference: H. H. L. M. Donkers, J. W. H. M. Uiterwijk, H. J. van den Herik,
"Probabilistic opponent-model search", *Information Sciences* 135 (2001) 123-149.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from kop.games.engine import Solution, check_tie, sweep
from kop.games.errors import StrategyError
from kop.games.minimax import minimax_rule
from kop.games.strategy import Strategy
from kop.games.tree import CHANCE, LEAF, GameTree

__all__ = ["prom", "prom_bayes", "type_choices", "candidate_rows", "parse_probabilities", "preorder_leaves",
           "prom_differs_example"]


# -- input -------------------------------------------------------------------------

def parse_probabilities(probabilities: Iterable[Any] | None, k: int, what: str = "PrOM") -> np.ndarray:
    """*k* probabilities as floats summing to 1 (renormalized), or a located error.

    >>> parse_probabilities(["1/4", 0.5, 1], 3).tolist()
    [0.14285714285714285, 0.2857142857142857, 0.5714285714285714]
    >>> parse_probabilities(None, 2).tolist()
    [0.5, 0.5]
    """
    if probabilities is None:
        return np.full(k, 1.0 / k)
    if isinstance(probabilities, (str, bytes, Mapping)) or not isinstance(probabilities, Iterable):
        raise StrategyError(f"{what}: probabilities must be a list of numbers, one per candidate, "
                            f"not {type(probabilities).__name__}")
    vals = []
    for j, x in enumerate(probabilities):
        where = f"{what}: probability {j + 1}"
        if isinstance(x, bool):
            raise StrategyError(f"{where} must be a number, found {x!r}")
        try:
            v = Fraction(x.strip()) if isinstance(x, str) else (Fraction(x) if isinstance(x, (int, Fraction))
                                                                 else float(x))
        except (ValueError, ZeroDivisionError, TypeError):
            raise StrategyError(f"{where}: cannot read {x!r} as a number (use a decimal or a fraction "
                                "such as 1/3)") from None
        f = float(v)
        if not math.isfinite(f):
            raise StrategyError(f"{where} must be finite, found {x!r}")
        if f < 0:
            raise StrategyError(f"{where} is negative ({x!r})")
        vals.append(f)
    if len(vals) != k:
        raise StrategyError(f"{what}: {len(vals)} probabilities for {k} candidate{'s' if k != 1 else ''}")
    total = math.fsum(vals)
    if total <= 0:
        raise StrategyError(f"{what}: the probabilities sum to 0 (at least one must be positive)")
    out = np.asarray(vals, dtype=np.float64)
    return out if total == 1.0 else out / total


def preorder_leaves(tree: GameTree) -> np.ndarray:
    """Node indices of the leaves left to right (depth first), vectorized over the levels.

    The same order as :func:`kop.leaf_order`.

    >>> import kop
    >>> t = kop.figure2()
    >>> preorder_leaves(t).tolist() == kop.leaf_order(t).tolist()
    True
    """
    offsets, kind, levels = tree.offsets, tree.kind, tree.levels
    n = len(kind)
    size = np.ones(n, dtype=np.int64)
    for d in range(len(levels) - 2, -1, -1):
        s, e = int(levels[d]), int(levels[d + 1])
        inner = s + np.flatnonzero(kind[s:e] != LEAF)
        if len(inner):
            c0 = int(offsets[inner[0]])
            seg = (offsets[inner] - c0).astype(np.int64)
            size[inner] += np.add.reduceat(size[c0:int(offsets[inner[-1] + 1])], seg)
    pre = np.zeros(n, dtype=np.int64)
    parent = _parents(tree)
    if n > 1:
        # preorder rank: parent's rank + 1 + sizes of the earlier siblings
        cs = np.cumsum(size[1:]) - size[1:]                  # exclusive cumsum over nodes 1..n-1
        first = offsets[parent].astype(np.int64) - 1         # position (in 1..n-1 numbering) of the first sibling
        before = cs - cs[first]
        for d in range(1, len(levels) - 1):
            s, e = int(levels[d]), int(levels[d + 1])
            pre[s:e] = pre[parent[s - 1:e - 1]] + 1 + before[s - 1:e - 1]
    leaves = np.flatnonzero(kind == LEAF)
    return leaves[np.argsort(pre[leaves], kind="stable")]


def _parents(tree: GameTree) -> np.ndarray:
    """Parent index of nodes 1..n-1 (breadth-first layout: children are contiguous)."""
    counts = np.diff(tree.offsets).astype(np.int64)
    return np.repeat(np.arange(len(tree), dtype=np.int64), counts)


def candidate_rows(tree: GameTree, candidates: Any, what: str = "PrOM") -> np.ndarray:
    """Candidates as a ``(k, leaves)`` float matrix in the tree's leaf-row order (breadth first).

    Each candidate is one value per leaf, left to right, or a mapping leaf label -> value.

    >>> import kop
    >>> t = kop.GameTree.build(["A", "B"], ("A", [("B", [(1, 2), (3, 4)]), (5, 6)]))
    >>> candidate_rows(t, [[20, 40, 60]]).tolist()       # leaf rows: (5,6) first (breadth first)
    [[60.0, 20.0, 40.0]]
    """
    n_leaves = tree.n_leaves
    if isinstance(candidates, np.ndarray):
        arr = np.asarray(candidates, dtype=np.float64)
        if arr.ndim != 2 or arr.shape[1] != n_leaves:
            raise StrategyError(f"{what}: a candidate matrix must have shape (k, {n_leaves}), not {arr.shape}")
        candidates = list(arr)
    if isinstance(candidates, (str, bytes, Mapping)) or not isinstance(candidates, Iterable):
        raise StrategyError(f"{what}: candidates must be a list of candidate evaluations, "
                            f"not {type(candidates).__name__}")
    cands = list(candidates)
    if not cands:
        raise StrategyError(f"{what}: no candidates (give at least one opponent type)")
    order = preorder_leaves(tree)
    rows_of = tree.leaf_rows()
    out = np.empty((len(cands), n_leaves))
    labels: dict[str, int] | None = None
    for i, c in enumerate(cands):
        where = f"{what}: candidate {i + 1}"
        if isinstance(c, Mapping):
            if labels is None:
                labels = {}
                for leaf in order:
                    lab = tree.labels.get(int(leaf))
                    if lab is not None:
                        labels.setdefault(lab, int(rows_of[leaf]))
            row = np.full(n_leaves, np.nan)
            for lab, v in c.items():
                if lab not in labels:
                    raise StrategyError(f"{where}: no leaf labelled {lab!r}")
                row[labels[lab]] = _value(v, f"{where}: the value of leaf {lab!r}")
            if np.isnan(row).any():
                missing = next(int(leaf) for leaf in order if np.isnan(row[rows_of[leaf]]))
                raise StrategyError(f"{where}: no value for the leaf {tree.path_name(missing)}")
            out[i] = row
            continue
        if isinstance(c, (str, bytes)) or not isinstance(c, Iterable):
            raise StrategyError(f"{where} must be a list of values (one per leaf) or a mapping leaf label -> "
                                f"value, not {type(c).__name__}")
        vals = np.asarray([_value(v, f"{where}: value {j + 1}") for j, v in enumerate(c)], dtype=np.float64) \
            if not isinstance(c, np.ndarray) else np.asarray(c, dtype=np.float64)
        if len(vals) != n_leaves:
            raise StrategyError(f"{where} has {len(vals)} value{'s' if len(vals) != 1 else ''}; the tree has "
                                f"{n_leaves} leaves (one value per leaf, left to right)")
        if not np.isfinite(vals).all():
            raise StrategyError(f"{where}: values must be finite numbers")
        out[i, rows_of[order]] = vals
    return out


def _value(x: Any, where: str) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float, Fraction, np.integer, np.floating)):
        raise StrategyError(f"{where} must be a number, found {type(x).__name__} {x!r}")
    v = float(x)
    if not math.isfinite(v):
        raise StrategyError(f"{where} must be a finite number, found {x!r}")
    return v


def _players(tree: GameTree, player: str | None, opponent: str | None, what: str) -> tuple[int, int]:
    tree.require_sequential(what)
    p = tree.player_index(player)
    if opponent is None:
        if len(tree.players) != 2:
            raise StrategyError(f"{what}: with {len(tree.players)} players, name the opponent whose types "
                                "are given (opponent=...)")
        return p, 1 - p
    o = tree.player_index(opponent)
    if o == p:
        raise StrategyError(f"{what}: the opponent must be another player than {tree.players[p].name}")
    return p, o


# -- the types' moves ---------------------------------------------------------------

def type_choices(tree: GameTree, candidates: Any, opponent: str | None = None, *, tie: str = "first",
                 player: str | None = None) -> np.ndarray:
    """Each type's move at every node of the opponent: a ``(k, nodes)`` array of child indices (-1 elsewhere).

    Type i plays the opponent's minimax on candidate i (the opponent optimizes the
    candidate by its goal at its own nodes, every other mover is assumed to do the
    opposite; chance nodes take the expectation), ties by *tie*.

    >>> import kop
    >>> t = kop.GameTree.build(["A", "B"], ("A", [("B", [(1, 2), (3, 4)]), (5, 6)]))
    >>> type_choices(t, [[2, 4, 6], [4, 2, 6]])[:, 1].tolist()      # node 1 is B's; B minimizes
    [3, 4]
    """
    check_tie(tie)
    p, o = _players(tree, player, opponent, "PrOM")
    return _type_choices(tree, candidate_rows(tree, candidates), o, tie)


def _type_choices(tree: GameTree, cand: np.ndarray, o: int, tie: str) -> np.ndarray:
    kind, offsets, levels = tree.kind, tree.offsets, tree.levels
    n = len(kind)
    k = cand.shape[0]
    so = tree.players[o].sign
    vals = np.empty((k, n))
    leaves = np.flatnonzero(kind == LEAF)
    vals[:, leaves] = cand[:, tree.leaf_rows()[leaves]]
    choice = np.full((k, n), -1, dtype=np.int64)
    probs = tree.probs
    for d in range(len(levels) - 2, -1, -1):
        s, e = int(levels[d]), int(levels[d + 1])
        inner = s + np.flatnonzero(kind[s:e] != LEAF)
        if len(inner) == 0:
            continue
        c0, c1 = int(offsets[inner[0]]), int(offsets[inner[-1] + 1])
        seg = (offsets[inner] - c0).astype(np.int64)
        counts = (offsets[inner + 1] - offsets[inner]).astype(np.int64)
        pk = kind[inner]
        is_ch = pk == CHANCE
        kids = vals[:, c0:c1]
        dec = ~is_ch
        if dec.any():
            sgn = np.where(pk == o, so, -so).astype(np.float64)
            pos = _best(kids * np.repeat(sgn, counts), seg, counts, tie)     # (k, parents)
            pick = pos + seg + c0
            rows = np.arange(k)[:, None]
            vals[:, inner[dec]] = vals[rows, pick[:, dec]]
            mine = pk == o
            if mine.any():
                choice[:, inner[mine]] = pick[:, mine]
        if is_ch.any():
            assert probs is not None
            w = np.nan_to_num(probs[c0:c1])
            vals[:, inner[is_ch]] = np.add.reduceat(kids * w, seg, axis=1)[:, is_ch]
    return choice


def _best(key: np.ndarray, seg: np.ndarray, counts: np.ndarray, tie: str) -> np.ndarray:
    """Rank of the best (largest) entry of each segment, per row of *key* (rows, children) -> (rows, parents)."""
    m = key.shape[-1]
    best = np.maximum.reduceat(key, seg, axis=-1)
    eq = key == np.repeat(best, counts, axis=-1)
    at = np.arange(m)
    if tie == "first":
        return np.minimum.reduceat(np.where(eq, at, m), seg, axis=-1) - seg
    return np.maximum.reduceat(np.where(eq, at, -1), seg, axis=-1) - seg


# -- the searches ------------------------------------------------------------------------

def prom(tree: GameTree, player: str | None, candidates: Any, probabilities: Iterable[Any] | None = None, *,
         opponent: str | None = None, tie: str = "first") -> Strategy:
    """P's PrOM strategy: the opponent draws one of the types at every move (see the module docstring)."""
    return _search(tree, player, candidates, probabilities, opponent, tie, bayes=False)


def prom_bayes(tree: GameTree, player: str | None, candidates: Any, probabilities: Iterable[Any] | None = None,
               *, opponent: str | None = None, tie: str = "first") -> Strategy:
    """P's Bayesian PrOM strategy: the opponent's type is drawn once and kept; the probabilities at an
    opponent node are conditioned on the opponent's moves so far (see the module docstring).

    >>> import kop
    >>> t, cands, probs = prom_differs_example()
    >>> kop.prom(t, "A", cands, probs).next().label, kop.prom_bayes(t, "A", cands, probs).next().label
    ('safe', 'probe')
    """
    return _search(tree, player, candidates, probabilities, opponent, tie, bayes=True)


def _search(tree: GameTree, player: str | None, candidates: Any, probabilities: Any, opponent: str | None,
            tie: str, bayes: bool) -> Strategy:
    name = "PrOM-Bayes" if bayes else "PrOM"
    check_tie(tie)
    p, o = _players(tree, player, opponent, name)
    cand = candidate_rows(tree, candidates, name)
    prior = parse_probabilities(probabilities, cand.shape[0], name)
    choice = _type_choices(tree, cand, o, tie)
    fixed = _others(tree, p, o, tie)
    if bayes:
        sol = _bayes_sweep(tree, p, o, prior, choice, fixed, tie)
    else:
        sol = _prom_sweep(tree, p, o, prior, choice, fixed, tie)
    return Strategy(tree, name, tree.players[p].name, sol)


def _others(tree: GameTree, p: int, o: int, tie: str) -> np.ndarray | None:
    """The minimax moves of every player other than P and O (as in M^1), or None with two players."""
    others = [q for q in range(len(tree.players)) if q not in (p, o)]
    if not others:
        return None
    fixed = np.full(len(tree), -1, dtype=np.int64)
    for q in others:
        comp, sign = minimax_rule(tree, q)
        sol = sweep(tree, comp, sign, tie=tie)
        mask = tree.kind == q
        fixed[mask] = sol.next[mask]
    return fixed


def _leaf_values(tree: GameTree) -> np.ndarray:
    vals = np.empty((len(tree), len(tree.players)))
    leaves = np.flatnonzero(tree.kind == LEAF)
    vals[leaves] = tree.payoffs[tree.leaf_rows()[leaves]]
    return vals


def _mode_choice(choice: np.ndarray, weights: np.ndarray, c0: int, m: int, seg: np.ndarray) -> np.ndarray:
    """At each parent, the child with the largest total weight of the types choosing it (ties: first)."""
    k = choice.shape[0]
    mass = np.zeros(m)
    for i in range(k):
        np.add.at(mass, choice[i] - c0, weights[i])
    best = np.maximum.reduceat(mass, seg)
    counts = np.diff(np.append(seg, m))
    eq = mass == np.repeat(best, counts)
    return np.minimum.reduceat(np.where(eq, np.arange(m), m), seg) + c0


def _prom_sweep(tree: GameTree, p: int, o: int, prior: np.ndarray, choice: np.ndarray,
                fixed: np.ndarray | None, tie: str) -> Solution:
    kind, offsets, levels = tree.kind, tree.offsets, tree.levels
    n = len(kind)
    sp = tree.players[p].sign
    vals = _leaf_values(tree)
    nxt = np.full(n, -1, dtype=offsets.dtype)
    probs = tree.probs
    for d in range(len(levels) - 2, -1, -1):
        s, e = int(levels[d]), int(levels[d + 1])
        inner = s + np.flatnonzero(kind[s:e] != LEAF)
        if len(inner) == 0:
            continue
        c0, c1 = int(offsets[inner[0]]), int(offsets[inner[-1] + 1])
        seg = (offsets[inner] - c0).astype(np.int64)
        counts = (offsets[inner + 1] - offsets[inner]).astype(np.int64)
        pk = kind[inner]
        mine = pk == p
        if mine.any():
            pos = _best(sp * vals[c0:c1, p], seg, counts, tie)[mine] + seg[mine] + c0
            nxt[inner[mine]] = pos
            vals[inner[mine]] = vals[pos]
        opp = pk == o
        if opp.any():
            ns = inner[opp]
            ch = choice[:, ns]                                      # (k, m)
            acc = prior[0] * vals[ch[0]]
            for i in range(1, len(prior)):
                acc += prior[i] * vals[ch[i]]
            vals[ns] = acc
            nxt[ns] = _mode_choice(ch, np.broadcast_to(prior[:, None], ch.shape), c0, c1 - c0, seg)[opp] \
                if len(prior) > 1 else ch[0]
        if fixed is not None:
            rest = (pk >= 0) & ~mine & ~opp
            if rest.any():
                ns = inner[rest]
                nxt[ns] = fixed[ns]
                vals[ns] = vals[fixed[ns]]
        is_ch = pk == CHANCE
        if is_ch.any():
            assert probs is not None
            w = np.nan_to_num(probs[c0:c1])
            vals[inner[is_ch]] = np.add.reduceat(vals[c0:c1] * w[:, None], seg, axis=0)[is_ch]
    return Solution(nxt, np.arange(n, dtype=offsets.dtype), vals)


def _bayes_weights(tree: GameTree, o: int, prior: np.ndarray, choice: np.ndarray) -> np.ndarray:
    """Per node, the prior restricted to the types consistent with O's moves on the path ((k, n); the
    prior again where no type is)."""
    kind, levels = tree.kind, tree.levels
    n = len(kind)
    k = len(prior)
    w = np.empty((k, n))
    w[:, 0] = prior
    parent = _parents(tree)
    for d in range(1, len(levels) - 1):
        s, e = int(levels[d]), int(levels[d + 1])
        par = parent[s - 1:e - 1]
        block = w[:, par]
        opp = kind[par] == o
        if opp.any():
            here = np.arange(s, e)[opp]
            block[:, opp] *= choice[:, par[opp]] == here
            dead = ~block.any(axis=0)
            if dead.any():
                block[:, dead] = prior[:, None]
        w[:, s:e] = block
    return w


def _bayes_sweep(tree: GameTree, p: int, o: int, prior: np.ndarray, choice: np.ndarray,
                 fixed: np.ndarray | None, tie: str) -> Solution:
    """Unnormalized: ``U(n) = Σ_i w_i(n) u_i(n)`` so that P compares sums, never quotients."""
    kind, offsets, levels = tree.kind, tree.offsets, tree.levels
    n = len(kind)
    sp = tree.players[p].sign
    w = _bayes_weights(tree, o, prior, choice)
    mass = w.sum(axis=0)
    vals = _leaf_values(tree) * mass[:, None]
    nxt = np.full(n, -1, dtype=offsets.dtype)
    probs = tree.probs
    k = len(prior)
    for d in range(len(levels) - 2, -1, -1):
        s, e = int(levels[d]), int(levels[d + 1])
        inner = s + np.flatnonzero(kind[s:e] != LEAF)
        if len(inner) == 0:
            continue
        c0, c1 = int(offsets[inner[0]]), int(offsets[inner[-1] + 1])
        seg = (offsets[inner] - c0).astype(np.int64)
        counts = (offsets[inner + 1] - offsets[inner]).astype(np.int64)
        pk = kind[inner]
        mine = pk == p
        if mine.any():
            pos = _best(sp * vals[c0:c1, p], seg, counts, tie)[mine] + seg[mine] + c0
            nxt[inner[mine]] = pos
            vals[inner[mine]] = vals[pos]
        opp = pk == o
        if opp.any():
            ns = inner[opp]
            ch = choice[:, ns]
            wn = w[:, ns]
            picked = np.zeros(c1 - c0, dtype=bool)
            for i in range(k):
                live = wn[i] > 0
                picked[ch[i][live] - c0] = True
            sums = np.add.reduceat(vals[c0:c1] * picked[:, None], seg, axis=0)
            vals[ns] = sums[opp]
            nxt[ns] = _mode_choice(ch, wn, c0, c1 - c0, seg)[opp] if k > 1 else ch[0]
        if fixed is not None:
            rest = (pk >= 0) & ~mine & ~opp
            if rest.any():
                ns = inner[rest]
                nxt[ns] = fixed[ns]
                vals[ns] = vals[fixed[ns]]
        is_ch = pk == CHANCE
        if is_ch.any():
            assert probs is not None
            pr = np.nan_to_num(probs[c0:c1])
            vals[inner[is_ch]] = np.add.reduceat(vals[c0:c1] * pr[:, None], seg, axis=0)[is_ch]
    vals /= mass[:, None]
    return Solution(nxt, np.arange(n, dtype=offsets.dtype), vals)


# -- an example where the two differ ---------------------------------------------------------------

def prom_differs_example() -> tuple[GameTree, list[list[int]], list[str]]:
    """A tree, two opponent types and a prior on which PrOM and its Bayesian variant choose differently.

    A either takes ``safe`` (5 for A) or plays ``probe``: B moves at ``probe``
    (``left`` to ``B2``, or ``right``: 0 for A), and at ``B2`` B moves again
    (``good``: 12 for A, or ``bad``: 0).  Type 1 (probability 1/2) goes ``left``
    and then ``good``; type 2 goes ``right`` and would go ``bad`` at ``B2``.

    * A type drawn *once*: at ``B2`` only type 1 is left (type 2 would have gone
      ``right``), so ``B2`` is worth 12 and ``probe`` 1/2·12 + 1/2·0 = 6 > 5:
      the Bayesian variant probes.
    * A type drawn at *every* move: at ``B2`` either type may move, so ``B2`` is
      worth 1/2·12 + 1/2·0 = 6 and ``probe`` 1/2·6 + 1/2·0 = 3 < 5: PrOM is safe.

    >>> t, cands, probs = prom_differs_example()
    >>> import kop
    >>> kop.prom(t, "A", cands, probs).value(), kop.prom_bayes(t, "A", cands, probs).value()
    ((5, 5), (6, 6))
    """
    tree = GameTree.build(["A", "B"], ("A", [
        {"label": "safe", "move": "safe", "payoff": [5, 5]},
        {"label": "probe", "move": "probe", "player": "B", "children": [
            {"label": "B2", "move": "left", "player": "B", "children": [
                {"move": "good", "payoff": [12, 12]},
                {"move": "bad", "payoff": [0, 0]}]},
            {"move": "right", "payoff": [0, 0]}]}]))
    # leaves left to right: safe, good, bad, right.  B minimizes its candidate.
    type1 = [5, 0, 1, 1]      # B2: good (0) < bad (1); probe: left (0) < right (1)
    type2 = [5, 1, 0, -1]     # B2: bad (0) < good (1); probe: right (-1) < left (0)
    return tree, [type1, type2], ["1/2", "1/2"]
