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
>>> kop.prom(t, "A", [actual], [1]).value == kop.mstar(t, 1, "A").value
True
>>> adversarial = [a for a, _ in (t.node(int(i)).payoff for i in kop.leaf_order(t))]  # B minimizes E_A
>>> kop.prom(t, "A", [actual, adversarial], ["3/10", "7/10"]).next().label
'R'
>>> b = kop.prom_bayes(t, "A", [actual, adversarial], ["3/10", "7/10"])
>>> b.next().label, round(b.value[0], 9)
('S', 4.4)

Reference: H. H. L. M. Donkers, J. W. H. M. Uiterwijk, H. J. van den Herik,
"Probabilistic opponent-model search", *Information Sciences* 135 (2001) 123-149.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

import numpy as np

from kop.games.strategies.engine import Solution, check_tie, sweep
from kop.games.errors import StrategyError
from kop.games.strategies.minimax import minimax_rule
from kop.games.strategies.strategy import Strategy
from kop.games.trees.tree import CHANCE, LEAF, GameTree
from kop.games.trees.checks import tree_argument

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
    # leaves below each node, bottom-up; then each leaf's rank left to right, top-down:
    # a child's rank is its parent's plus the leaves below its earlier siblings
    below = (kind == LEAF).astype(np.int64)
    spans = []
    for d in range(len(levels) - 2, -1, -1):
        s, e = int(levels[d]), int(levels[d + 1])
        inner = s + np.flatnonzero(kind[s:e] != LEAF)
        if len(inner) == 0:
            continue
        c0, c1 = int(offsets[inner[0]]), int(offsets[inner[-1] + 1])
        seg = (offsets[inner] - c0).astype(np.int64)
        below[inner] = np.add.reduceat(below[c0:c1], seg)
        spans.append((inner, c0, c1, seg))
    rank = np.zeros(n, dtype=np.int64)
    for inner, c0, c1, seg in reversed(spans):
        block = below[c0:c1]
        ecs = np.cumsum(block) - block
        rank[c0:c1] = ecs + np.repeat(rank[inner] - ecs[seg], np.diff(np.append(seg, c1 - c0)))
    leaves = np.flatnonzero(kind == LEAF)
    out = np.empty(len(leaves), dtype=np.int64)
    out[rank[leaves]] = leaves
    return out


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
    cands = _candidate_list(candidates, n_leaves, what)
    order = preorder_leaves(tree)
    rows_of = tree.leaf_rows()
    out = np.empty((len(cands), n_leaves))
    labels: dict[str, int] | None = None
    for i, c in enumerate(cands):
        where = f"{what}: candidate {i + 1}"
        if isinstance(c, Mapping):
            if labels is None:
                labels = _label_rows(tree, order, rows_of)
            out[i] = _mapping_row(tree, c, labels, order, rows_of, where)
        else:
            out[i, rows_of[order]] = _listed_values(c, n_leaves, where)
    return out


def _candidate_list(candidates: Any, n_leaves: int, what: str) -> list[Any]:
    """The candidates as a non-empty list (a matrix: its rows)."""
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
    return cands


def _label_rows(tree: GameTree, order: Any, rows_of: Any) -> dict[str, int]:
    """Each leaf label's row (the first leaf with it, left to right)."""
    labels: dict[str, int] = {}
    for leaf in order:
        lab = tree.labels.get(int(leaf))
        if lab is not None:
            labels.setdefault(lab, int(rows_of[leaf]))
    return labels


def _mapping_row(tree: GameTree, c: Mapping[Any, Any], labels: dict[str, int], order: Any, rows_of: Any,
                 where: str) -> Any:
    """A candidate given as leaf label -> value: its row (every leaf must have a value)."""
    row = np.full(tree.n_leaves, np.nan)
    for lab, v in c.items():
        if lab not in labels:
            raise StrategyError(f"{where}: no leaf labelled {lab!r}")
        row[labels[lab]] = _value(v, f"{where}: the value of leaf {lab!r}")
    if np.isnan(row).any():
        missing = next(int(leaf) for leaf in order if np.isnan(row[rows_of[leaf]]))
        raise StrategyError(f"{where}: no value for the leaf {tree.path_name(missing)}")
    return row


def _listed_values(c: Any, n_leaves: int, where: str) -> Any:
    """A candidate given as one value per leaf, left to right: the values (finite numbers)."""
    if isinstance(c, (str, bytes)) or not isinstance(c, Iterable):
        raise StrategyError(f"{where} must be a list of values (one per leaf) or a mapping leaf label -> "
                            f"value, not {type(c).__name__}")
    try:
        raw = np.asarray(c)
    except (ValueError, TypeError):
        raw = np.asarray([], dtype=object)
    if raw.ndim == 1 and raw.dtype.kind in "iuf":
        vals = raw.astype(np.float64)          # plain numbers: no per-value check needed
    else:
        vals = np.asarray([_value(v, f"{where}: value {j + 1}") for j, v in enumerate(c)], dtype=np.float64)
    if len(vals) != n_leaves:
        raise StrategyError(f"{where} has {len(vals)} value{'s' if len(vals) != 1 else ''}; the tree has "
                            f"{n_leaves} leaves (one value per leaf, left to right)")
    if not np.isfinite(vals).all():
        raise StrategyError(f"{where}: values must be finite numbers")
    return vals


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


def _view(tree: GameTree, *, kind: np.ndarray | None = None, probs: np.ndarray | None = None,
          payoffs: np.ndarray | None = None) -> GameTree:
    """The same tree with some arrays replaced, sharing the rest (no checks, no recomputation).

    Internal: the engine's :func:`~kop.games.strategies.engine.sweep` reads only the arrays, so a
    type's evaluation (other payoffs) or the opponent's nodes seen as chance nodes
    (another ``kind`` and ``probs``) are searched without building a tree.
    """
    v = object.__new__(GameTree)
    for slot in GameTree.__slots__:
        object.__setattr__(v, slot, getattr(tree, slot))
    if kind is not None:
        v.kind = kind
    if probs is not None:
        v.probs = probs
    if payoffs is not None:
        v.payoffs = payoffs
    v._leaf_rows = None
    v._hash = None
    return v


def _type_choices(tree: GameTree, cand: np.ndarray, o: int, tie: str) -> np.ndarray:
    """(k, nodes) child index of each type's minimax move at O's nodes, -1 elsewhere (one engine sweep per type)."""
    comp, sign = minimax_rule(tree, o)
    mine = tree.kind == o
    out = np.full((cand.shape[0], len(tree)), -1, dtype=tree.offsets.dtype)
    for i, row in enumerate(cand):
        pay = np.array(tree.payoffs)
        pay[:, o] = row
        sol = sweep(_view(tree, payoffs=pay), comp, sign, tie=tie)
        out[i, mine] = sol.next[mine]
    return out


def _best(key: np.ndarray, seg: np.ndarray, counts: np.ndarray, tie: str) -> np.ndarray:
    """Rank of the best (largest) entry of each segment, per row of *key* (rows, children) -> (rows, parents)."""
    m = key.shape[-1]
    best = np.maximum.reduceat(key, seg, axis=-1)
    eq = key == np.repeat(best, counts, axis=-1)
    at = np.arange(m)
    if tie == "first":
        return np.asarray(np.minimum.reduceat(np.where(eq, at, m), seg, axis=-1) - seg)
    return np.asarray(np.maximum.reduceat(np.where(eq, at, -1), seg, axis=-1) - seg)


# -- the searches ------------------------------------------------------------------------

def prom(tree: GameTree, player: str | None, candidates: Any, probabilities: Iterable[Any] | None = None, *,
         opponent: str | None = None, tie: str = "first") -> Strategy:
    """P's PrOM strategy: the opponent draws one of the types at every move (see the module docstring).

    Parameters
    ----------
    tree : GameTree
    player : str or None
        P, the searching player.
    candidates : sequence
        The opponent's possible evaluations (types), each one value per leaf.
    probabilities : iterable, optional
        One per type (default uniform).
    opponent : str, optional
        The modelled opponent (default: the other player).
    tie : {"first", "last"}
        Tie-breaking, as for every strategy (:mod:`kop.games.strategies.engine`).

    Returns
    -------
    Strategy
        P's PrOM strategy at every node.

    Examples
    --------
    >>> import kop
    >>> t, cands, probs = prom_differs_example()
    >>> s = kop.prom(t, "A", cands, probs)
    >>> s.next().label, s.value_at("probe")          # B2 is worth 1/2·12 + 1/2·0, probe 1/2·6 + 1/2·0
    ('safe', (3, 3))

    References
    ----------
    H. H. L. M. Donkers, J. W. H. M. Uiterwijk, H. J. van den Herik, *Probabilistic opponent-model
    search*, Information Sciences 135 (2001).
    """
    tree_argument(tree)
    return _search(tree, player, candidates, probabilities, opponent, tie, bayes=False)


def prom_bayes(tree: GameTree, player: str | None, candidates: Any, probabilities: Iterable[Any] | None = None,
               *, opponent: str | None = None, tie: str = "first") -> Strategy:
    """P's Bayesian PrOM strategy: the opponent's type is drawn once and kept; the probabilities at an
    opponent node are conditioned on the opponent's moves so far (see the module docstring).

    Parameters
    ----------
    probabilities : iterable, optional
        The prior over the types (default uniform).
    tree, player, candidates, opponent, tie
        As for :func:`prom`.

    Returns
    -------
    Strategy
        P's Bayesian PrOM strategy at every node.

    Examples
    --------
    >>> import kop
    >>> t, cands, probs = prom_differs_example()
    >>> kop.prom(t, "A", cands, probs).next().label, kop.prom_bayes(t, "A", cands, probs).next().label
    ('safe', 'probe')

    References
    ----------
    As for :func:`prom`.
    """
    tree_argument(tree)
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


def _segments(tree: GameTree, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(children of *nodes* concatenated, segment starts, counts)."""
    starts = tree.offsets[nodes].astype(np.int64)
    counts = (tree.offsets[nodes + 1] - tree.offsets[nodes]).astype(np.int64)
    seg = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    kids = np.repeat(starts - seg, counts) + np.arange(int(counts.sum()))
    return kids, seg, counts


def _mode(tree: GameTree, nodes: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """At each of *nodes*, the child of largest *weight* (per node); ties to the first child."""
    if len(nodes) == 0:
        return np.zeros(0, dtype=np.int64)
    kids, seg, counts = _segments(tree, nodes)
    return np.asarray(kids[_best(weight[kids], seg, counts, "first") + seg])


def _p_rule(tree: GameTree, p: int) -> tuple[np.ndarray, np.ndarray]:
    """P optimizes its own component by its goal (the other movers are fixed or chance-like)."""
    n_players = len(tree.players)
    return np.full(n_players, p), np.full(n_players, tree.players[p].sign)


def _fixed_movers(tree: GameTree, p: int, o: int | None) -> np.ndarray:
    movers = np.ones(len(tree.players), dtype=bool)
    movers[p] = False
    if o is not None:
        movers[o] = False
    return movers


def _opponent_as_chance(tree: GameTree, o: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """O's nodes, and the tree's ``kind`` and ``probs`` arrays with those nodes made chance nodes whose
    children have probability 0 (the caller adds the types' mass)."""
    opp = np.flatnonzero(tree.kind == o)
    kind = np.array(tree.kind)
    kind[opp] = CHANCE
    probs = np.full(len(tree), np.nan) if tree.probs is None else np.array(tree.probs)
    if len(opp):
        kids, _, _ = _segments(tree, opp)
        probs[kids] = 0.0
    return opp, kind, probs


def _prom_sweep(tree: GameTree, p: int, o: int, prior: np.ndarray, choice: np.ndarray,
                fixed: np.ndarray | None, tie: str) -> Solution:
    comp, sign = _p_rule(tree, p)
    if len(prior) == 1:
        # one type: O's moves are fixed, exactly M^1's last sweep
        moves = choice[0] if fixed is None else np.where(tree.kind == o, choice[0], fixed)
        return sweep(tree, comp, sign, fixed=moves, fixed_movers=_fixed_movers(tree, p, None), tie=tie)
    # O's nodes become chance nodes: a child's probability is the mass of the types that choose it
    opp, kind, probs = _opponent_as_chance(tree, o)
    for i, q in enumerate(prior):
        probs[choice[i, opp]] += q
    view = _view(tree, kind=kind, probs=probs)
    sol = sweep(view, comp, sign, fixed=fixed, fixed_movers=None if fixed is None else _fixed_movers(tree, p, o),
                tie=tie)
    nxt = np.array(sol.next)
    nxt[opp] = _mode(tree, opp, probs)
    return Solution(nxt, sol.ref, sol.table)


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
    """Unnormalized: with ``w(n)`` the prior restricted to the types still possible at n and
    ``U(n) = Σ_i w_i(n) u_i(n)``, an O node sums ``U`` over the children its live types pick (a
    chance node with weight 1 on those), a leaf is ``|w| · payoff``; P compares sums, never quotients."""
    if len(prior) == 1:
        return _prom_sweep(tree, p, o, prior, choice, fixed, tie)
    comp, sign = _p_rule(tree, p)
    w = _bayes_weights(tree, o, prior, choice)
    mass = w.sum(axis=0)
    opp, kind, probs = _opponent_as_chance(tree, o)
    for i in range(len(prior)):
        live = w[i, opp] > 0
        probs[choice[i, opp[live]]] = 1.0
    leaves = np.flatnonzero(tree.kind == LEAF)
    pay = tree.payoffs * mass[leaves][:, None]
    view = _view(tree, kind=kind, probs=probs, payoffs=pay)
    sol = sweep(view, comp, sign, fixed=fixed, fixed_movers=None if fixed is None else _fixed_movers(tree, p, o),
                tie=tie)
    nxt = np.array(sol.next)
    if len(opp):
        # O's most probable move under the posterior at each of its nodes
        post = np.zeros(len(tree))
        for i in range(len(prior)):
            post[choice[i, opp]] += w[i, opp]      # one move per node and type: no repeated index
        nxt[opp] = _mode(tree, opp, post)
    vals = sol.table[sol.ref] / mass[:, None]
    return Solution(nxt, np.arange(len(tree), dtype=tree.offsets.dtype), vals)


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
    >>> kop.prom(t, "A", cands, probs).value, kop.prom_bayes(t, "A", cands, probs).value
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
