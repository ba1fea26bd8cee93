"""Fast model checking of S5_n formulas on an explicit Kripke model.

:func:`truth_vector` computes the set of worlds where a formula holds as a
boolean numpy vector, one entry per world, in time linear in the size of the
formula times the size of the model:

* every distinct subformula is evaluated once, bottom-up, and memoized on the
  model (so repeated questions about the same model are cheap);
* ``K_a φ`` holds in a block of a's partition iff no world of the block falsifies
  φ, a count per block (``numpy.bincount`` over the block-id array);
* ``E_G`` is the conjunction of the members' ``K``; ``D_G`` is ``K`` over the
  intersection of G's partitions (block ids paired);
* ``C_G φ`` is ``K`` over the connected components of the union of G's
  partitions; relativized ``C_G(φ, ψ)`` uses the components of that union
  restricted to the φ-worlds;
* ``[!φ]ψ`` and ``<!φ>ψ`` evaluate ψ on the model restricted to the φ-worlds
  (itself memoized per restriction);
* ``B_a(ψ, φ)``: ``K`` over the most plausible ψ-worlds of each block (the
  least rank per block by ``numpy.minimum.at``; cached for plain ``B_a``);
  ``P_a(φ) ⋈ r``: per block, the weight of the φ-worlds times r's denominator
  against the block's weight times r's numerator, in integers (exact).

The evaluation is iterative, so deeply nested formulas do not exhaust Python's
stack.  :mod:`kop.semantics.reference` holds a deliberately naive checker that
the tests compare this one with.

Example
-------
>>> from kop import KripkeModel, parse
>>> m = KripkeModel({"w0": ["p"], "w1": []}, {"a": [["w0", "w1"]], "b": [["w0"], ["w1"]]}, "w0")
>>> truth_vector(m, parse("K_b p & ~K_a p")).tolist()
[True, False]

Reference: Fagin, Halpern, Moses & Vardi, *Reasoning About Knowledge* (1995),
ch. 2-3 (semantics of K, E, C, D); van Benthem, van Eijck & Kooi, *Logics of
communication and change* (2006) for relativized common knowledge.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from kop.semantics.bitset_checker import check_model_agents
from kop.semantics.checks import model_argument
from kop.semantics.model_value import ModelValue
from kop.syntax import arguments
from kop.syntax import formula as F

__all__ = ["truth_vector", "components", "joint_blocks", "check_model_agents"]

#: Memoized truth vectors kept per model before the memo is emptied (between questions) ...
MEMO_LIMIT = 20_000
#: ... or once they hold this many bytes.
MEMO_BYTES = 1 << 28
#: Restricted models (for announcements) kept per model before that cache is emptied.
SUBMODEL_LIMIT = 256


def truth_vector(model: ModelValue, phi: F.Formula | str) -> np.ndarray:
    """The worlds of *model* where *phi* holds, as a read-only boolean vector.

    Parameters
    ----------
    model : KripkeModel
    phi : Formula or str
        Every agent it names must be an agent of the model (a string is parsed).

    Returns
    -------
    numpy.ndarray
        ``result[i]`` is True iff *phi* holds at ``model.worlds[i]`` (read-only,
        memoized on the model).

    Raises
    ------
    ArgumentError
        If *model* is not a KripkeModel.
    ParseError
        If *phi* is a string that does not parse.
    ModelError
        If *phi* names an agent the model lacks.

    Examples
    --------
    >>> from kop import KripkeModel
    >>> m = KripkeModel({"u": ["p"], "v": [], "x": ["p"]}, {"a": [["u", "v"], ["x"]], "b": [["u"], ["v", "x"]]})
    >>> truth_vector(m, "K_a p").tolist(), truth_vector(m, "C{a,b} (p | ~p)").tolist()
    ([False, False, True], [True, True, True])
    >>> truth_vector(m, "[!p] K_a p").tolist()
    [True, True, True]

    References
    ----------
    Fagin, Halpern, Moses & Vardi, *Reasoning About Knowledge* (1995), ch. 2-3;
    van Benthem, van Eijck & Kooi, "Logics of communication and change" (2006).
    """
    f: F.Formula = phi if isinstance(phi, F.Formula) else arguments.formula(phi, "phi")  # a string is parsed
    if not hasattr(model, "_memo"):
        model_argument(model)
    memo = model._memo
    hit = memo.get(f)
    if hit is not None:
        return hit
    if len(memo) > MEMO_LIMIT or len(memo) * model._n > MEMO_BYTES:
        memo.clear()
    if len(model._submodels) > SUBMODEL_LIMIT:
        model._submodels.clear()
    try:
        _evaluate(model, f)
    except _UnknownAgent:
        check_model_agents(model, f)
        raise  # pragma: no cover - check_model_agents raises
    return model._memo[f]


class _UnknownAgent(Exception):
    pass


def _ids(m: ModelValue, agent: str) -> tuple[np.ndarray, int]:
    """*agent*'s block ids in *m* and their bound."""
    try:
        return m._blocks[agent], m._nblocks[agent]
    except KeyError:
        raise _UnknownAgent(agent) from None


def _evaluate(model: ModelValue, phi: F.Formula) -> None:
    # An explicit stack of (model, formula, stage): announcements move the
    # evaluation of their argument to a restricted model.
    stack: list[tuple[ModelValue, F.Formula, int]] = [(model, phi, 0)]
    while stack:
        m, f, stage = stack.pop()
        memo = m._memo
        if stage == 0 and f in memo:
            continue
        if isinstance(f, F._Announcement):
            if stage == 0:
                stack.append((m, f, 1))
                if f.ann not in memo:
                    stack.append((m, f.ann, 0))
                continue
            mask = memo[f.ann]
            sub = m._submodel(mask)
            if f.arg not in sub._memo:
                if stage == 2:  # pragma: no cover - defensive
                    raise AssertionError("announcement argument was not evaluated")
                stack.append((m, f, 2))
                stack.append((sub, f.arg, 0))
                continue
            inner = sub._memo[f.arg]
            if sub is m:
                lifted = inner
            else:
                lifted = np.zeros(m._n, dtype=bool)
                lifted[mask] = inner
            out = (~mask | lifted) if isinstance(f, F.Announce) else (mask & lifted)
            _store(memo, f, out)
            continue
        children = f.children
        if stage == 0 and children:
            missing = [c for c in children if c not in memo]
            if missing:
                stack.append((m, f, 1))
                stack.extend((m, c, 0) for c in reversed(missing))
                continue
        _store(memo, f, _apply(m, f, memo))


def _store(memo: dict[F.Formula, np.ndarray], f: F.Formula, vec: np.ndarray) -> None:
    vec = np.asarray(vec, dtype=bool)
    vec.flags.writeable = False
    memo[f] = vec


def _apply(m: ModelValue, f: F.Formula, memo: dict[F.Formula, np.ndarray]) -> np.ndarray:
    """The truth vector of *f* from its children's (already in *memo*)."""
    f_: Any = f  # dispatched on its exact type below
    out: np.ndarray  # (numpy types its operators and fancy indexing as Any)
    n = m._n
    t = type(f)
    if t is F.Atom:
        vec = m._atoms.get(f_.name)
        return vec.copy() if vec is not None else np.zeros(n, dtype=bool)
    if t is F.Top:
        return np.ones(n, dtype=bool)
    if t is F.Bottom:
        return np.zeros(n, dtype=bool)
    if t is F.Not:
        return ~memo[f_.arg]
    if t is F.And:
        out = memo[f_.args[0]] & memo[f_.args[1]]
        for a in f_.args[2:]:
            out &= memo[a]
        return out
    if t is F.Or:
        out = memo[f_.args[0]] | memo[f_.args[1]]
        for a in f_.args[2:]:
            out |= memo[a]
        return out
    if t is F.Implies:
        out = ~memo[f_.left] | memo[f_.right]
        return out
    if t is F.Iff:
        out = memo[f_.left] == memo[f_.right]
        return out
    if t is F.Know:
        return _know(*_ids(m, f_.agent), memo[f_.arg])
    if t is F.Possible:
        return _possible(*_ids(m, f_.agent), memo[f_.arg])
    if t is F.KnowWhether:
        return _know_whether(*_ids(m, f_.agent), memo[f_.arg], _block_sizes(m, f_.agent))
    if t is F.Everyone:
        x = memo[f_.arg]
        out = np.ones(n, dtype=bool)
        for a in f_.group:
            out &= _know(*_ids(m, a), x)
        return out
    if t is F.Distributed:
        ids, nb = joint_blocks(m, f_.group)
        return _know(ids, nb, memo[f_.arg])
    if t is F.Common:
        labels = components(m, f_.group)
        return _know(labels, n, memo[f_.arg])
    if t is F.RelCommon:
        return _rel_common(m, f_.group, memo[f_.cond], memo[f_.arg])
    if t is F.Belief:
        return _believe(m, f_.agent, None, memo[f_.arg])
    if t is F.CondBelief:
        return _believe(m, f_.agent, memo[f_.cond], memo[f_.arg])
    if t is F.Probability:
        return _probability(m, f_, memo[f_.arg])
    raise TypeError(f"cannot evaluate a {t.__name__}")  # pragma: no cover


# -- belief and probability (see kop.semantics.uncertainty) --------------------------

def _best(ids: np.ndarray, nb: int, ranks: np.ndarray, among: np.ndarray | None) -> np.ndarray:
    """The most plausible worlds of each block (of the worlds *among*, when given)."""
    top = np.iinfo(np.int64).max
    mins = np.full(nb, top, dtype=np.int64)
    out: np.ndarray  # (numpy types its operators and fancy indexing as Any)
    if among is None:
        np.minimum.at(mins, ids, ranks)
        out = ranks == mins[ids]
        return out
    np.minimum.at(mins, ids, np.where(among, ranks, top))  # full-length: faster than gathering ids[among]
    out = among & (ranks == mins[ids])
    return out


def _believe(m: ModelValue, agent: str, cond: np.ndarray | None, x: np.ndarray) -> np.ndarray:
    """``B_a(cond, x)`` (``B_a x`` when *cond* is None): x at the most plausible cond-worlds of each block."""
    ids, nb = _ids(m, agent)
    ranks = m._unc.np_ranks(agent) if m._unc else None
    if ranks is None:
        if cond is None:
            return _know(ids, nb, x)
        best = cond
    elif cond is None:
        key = ("B", agent)
        hit = m._partition_cache.get(key)
        if hit is None:
            hit = m._partition_cache[key] = _best(ids, nb, ranks, None)
        best = hit
    else:
        best = _best(ids, nb, ranks, cond)
    bad = np.bincount(ids, weights=best & ~x, minlength=nb)   # full-length: faster than ids[best & ~x]
    out: np.ndarray = (bad == 0)[ids]  # (numpy types this as Any)
    return out


def _python_sums(ids: np.ndarray, nb: int, w: np.ndarray) -> np.ndarray:
    """The sum of the integer weights *w* per block id, as Python integers (exact for any size)."""
    out = np.zeros(nb, dtype=object)
    for b, x in zip(ids.tolist(), w.tolist()):
        out[b] += x
    return out


def _probability(m: ModelValue, f: F.Probability, x: np.ndarray) -> np.ndarray:
    """``P_a(φ) ⋈ r``: compare, per block, (weight of x-worlds) * den(r) with num(r) * (weight of the block).

    The weights are integers (see :mod:`kop.semantics.uncertainty`); their sums
    and these products are computed in float64 when they stay below 2**53, where
    float64 is exact on integers, and in Python integers otherwise.
    """
    ids, nb = _ids(m, f.agent)
    unc = m._unc
    r = f.bound
    big = max(r.numerator, r.denominator)
    fw = unc.float_weights(f.agent) if unc else None
    total: Any
    if unc is None or not unc._has("weights", f.agent):
        total = _block_sizes(m, f.agent)
        good = np.bincount(ids, weights=x, minlength=nb)
        exact = m._n * big < 2 ** 53
    elif fw is not None:
        w, whole = fw
        key = ("W", f.agent)
        total = m._partition_cache.get(key)
        if total is None:
            total = m._partition_cache[key] = np.bincount(ids, weights=w, minlength=nb)
        good = np.bincount(ids, weights=w * x, minlength=nb)     # exact: integers below 2**53
        exact = whole * big < 2 ** 53
    else:
        iw = unc.np_weights(f.agent)
        assert iw is not None
        total, good = _python_sums(ids, nb, iw), _python_sums(ids[x], nb, iw[x])
        exact = True
    if not exact:   # products could leave float64's exact integers: Python integers
        total = np.array([int(v) for v in total.tolist()], dtype=object)
        good = np.array([int(v) for v in good.tolist()], dtype=object)
    lhs, rhs = good * r.denominator, total * r.numerator
    rel = f.relation
    if rel == ">=":
        ok = lhs >= rhs
    elif rel == ">":
        ok = lhs > rhs
    elif rel == "<":
        ok = lhs < rhs
    elif rel == "<=":
        ok = lhs <= rhs
    else:
        ok = lhs == rhs
    ok = np.asarray(ok, dtype=bool)
    empty = (total == 0) & (np.bincount(ids, minlength=nb) > 0)
    if empty.any():  # no weight left in the block: Kooi's agent keeps its measure from before (kept_probability)
        ok = ok.copy()
        first = np.full(nb, -1, dtype=np.int64)
        first[ids[::-1]] = np.arange(len(ids) - 1, -1, -1)
        for b in np.flatnonzero(empty).tolist():
            ok[b] = f.holds_for(kept_probability(m, f.agent, int(first[b]), f.arg))
    out: np.ndarray = ok[ids]  # (numpy types this as Any)
    return out


# -- the per-block primitives -----------------------------------------------------

def _know(ids: np.ndarray, nb: int, x: np.ndarray) -> np.ndarray:
    """True at w iff x holds throughout w's block (block ids *ids* < *nb*)."""
    if x.all():
        return np.ones(len(ids), dtype=bool)
    bad = np.bincount(ids[~x], minlength=nb)
    out: np.ndarray = (bad == 0)[ids]  # (numpy types this as Any)
    return out


def _possible(ids: np.ndarray, nb: int, x: np.ndarray) -> np.ndarray:
    """True at w iff x holds somewhere in w's block."""
    if not x.any():
        return np.zeros(len(ids), dtype=bool)
    good = np.bincount(ids[x], minlength=nb)
    out: np.ndarray = (good > 0)[ids]  # (numpy types this as Any)
    return out


def _know_whether(ids: np.ndarray, nb: int, x: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """True at w iff x is constant on w's block (*sizes*: the number of worlds per block id)."""
    pos = np.bincount(ids[x], minlength=nb)
    out: np.ndarray = ((pos == 0) | (pos == sizes))[ids]  # (numpy types this as Any)
    return out


def _block_sizes(m: ModelValue, agent: str) -> np.ndarray:
    key = ("S", agent)
    hit = m._partition_cache.get(key)
    if hit is None:
        ids, nb = _ids(m, agent)
        hit = m._partition_cache[key] = np.bincount(ids, minlength=nb)
    return hit


def joint_blocks(m: ModelValue, group: tuple[str, ...]) -> tuple[np.ndarray, int]:
    """Block ids of the intersection of the partitions of *group* (memoized), and their bound."""
    hit = m._joint_cache.get(group)
    if hit is not None:
        return hit
    if len(group) == 1:
        res = _ids(m, group[0])
    else:
        stacked = np.stack([_ids(m, a)[0] for a in group], axis=1)
        if len(stacked):
            _, inv = np.unique(stacked, axis=0, return_inverse=True)
            inv = inv.reshape(-1).astype(np.int64)
            res = (inv, int(inv.max()) + 1)
        else:
            res = (np.zeros(0, dtype=np.int64), 0)
    m._joint_cache[group] = res
    return res


def components(m: ModelValue, group: tuple[str, ...]) -> np.ndarray:
    """For each world, the least index of a world in its component of the union of *group*'s partitions.

    Two worlds get the same label iff a chain of G-indistinguishability links
    them.  Memoized per model and group.
    """
    key = ("C", group)
    hit = m._partition_cache.get(key)
    if hit is None:
        pairs = [_ids(m, a) for a in group]
        hit = component_labels([p[0] for p in pairs], [p[1] for p in pairs], None)
        m._partition_cache[key] = hit
    return hit


def component_labels(ids_list: list[np.ndarray], nb_list: list[int], active: np.ndarray | None) -> np.ndarray:
    """Connected components of the union of partitions, restricted to the *active* worlds.

    Returns, for each active world, the least index of an active world in its
    component; inactive worlds get the label ``n`` (one past the last index).

    Min-label propagation over blocks with pointer jumping: each round lowers
    every label to the least label in each of its blocks, then replaces each
    label by its label's label; it stops when nothing changes.  That takes a
    handful of rounds on the models of epistemic puzzles but can take many on
    long chains of worlds, so after :data:`PROPAGATION_ROUNDS` (plus log n)
    rounds it hands over to scipy's linear-time connected components.
    """
    n = len(ids_list[0]) if ids_list else 0
    if active is None:
        labels = np.arange(n, dtype=np.int64)
    else:
        labels = np.where(active, np.arange(n, dtype=np.int64), n)
    if n == 0:
        return labels
    ext = np.empty(n + 1, dtype=np.int64)
    budget = PROPAGATION_ROUNDS + n.bit_length()
    for _ in range(budget):
        before = labels
        for ids, nb in zip(ids_list, nb_list):
            mins = np.full(nb, n, dtype=np.int64)
            np.minimum.at(mins, ids, labels)
            new = mins[ids]
            labels = new if active is None else np.where(active, new, n)
        ext[:n] = labels
        ext[n] = n
        labels = ext[labels]
        if np.array_equal(labels, before):
            return labels
    return _component_labels_scipy(ids_list, nb_list, active)


#: Rounds of label propagation tried (plus log2 of the number of worlds) before scipy takes over.
PROPAGATION_ROUNDS = 8


def _component_labels_scipy(ids_list: list[np.ndarray], nb_list: list[int], active: np.ndarray | None) -> np.ndarray:
    """:func:`component_labels` by scipy's connected components of the world-block graph."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    n = len(ids_list[0])
    worlds = np.arange(n, dtype=np.int64) if active is None else np.flatnonzero(active)
    rows, cols, offset = [], [], n
    for ids, nb in zip(ids_list, nb_list):
        rows.append(worlds)
        cols.append(ids[worlds] + offset)
        offset += nb
    r, c = np.concatenate(rows), np.concatenate(cols)
    graph = coo_matrix((np.ones(len(r), dtype=np.int8), (r, c)), shape=(offset, offset)).tocsr()
    _, comp = connected_components(graph, directed=False)
    least = np.full(int(comp.max()) + 1, n, dtype=np.int64)
    np.minimum.at(least, comp[worlds], worlds)
    labels = np.full(n, n, dtype=np.int64)
    labels[worlds] = least[comp[worlds]]
    return labels


def _rel_common(m: ModelValue, group: tuple[str, ...], cond: np.ndarray, arg: np.ndarray) -> np.ndarray:
    """``C_G(cond, arg)``: arg holds wherever a non-empty G-path through cond-worlds leads."""
    n = m._n
    pairs = [_ids(m, a) for a in group]
    ids_list = [p[0] for p in pairs]
    nb_list = [p[1] for p in pairs]
    labels = component_labels(ids_list, nb_list, cond)
    # a cond-world is "good" if its whole cond-component satisfies arg
    bad_comp = np.zeros(n + 1, dtype=bool)
    bad_comp[labels[cond & ~arg]] = True
    good = ~bad_comp[labels]
    good[~cond] = True
    out = np.ones(n, dtype=bool)
    for ids, nb in zip(ids_list, nb_list):
        out &= _know(ids, nb, good)
    return out


def kept_probability(model: ModelValue, agent: str, i: int, arg: F.Formula) -> Fraction:
    """*agent*'s probability of *arg* at world position *i*, where its cell has no weight left.

    Kooi's update: an agent that gave an announcement probability 0 ignores it and keeps
    its measure as it was, over the worlds it weighed before (the announcement removed
    them here).  So the measure is read in the model before the announcement (or the one
    before that, should the agent have given that one probability 0 too), and *arg* is
    evaluated there.  For *arg* without modal operators this is Kooi's value exactly
    (``[!p] P_a(true) = 1`` is valid); a modal *arg* is evaluated as it was before the
    announcement (Kooi evaluates it in the updated model: a departure, docs/uncertainty.md).

    >>> from kop import KripkeModel, parse
    >>> m = KripkeModel({"u": ["p"], "v": []}, {"a": [["u", "v"]]}, "u", probability={"a": {"v": 1}})
    >>> kept_probability(m.announce("p"), "a", 0, parse("~p"))
    Fraction(1, 1)
    """
    m: ModelValue = model
    j = i
    origin = m._origin
    while origin is not None:
        m, keep = origin
        origin = m._origin
        j = int(keep[j])
        ids = m._blocks[agent]
        cell = np.flatnonzero(ids == ids[j]).tolist()
        ints = m._unc.int_weights(agent) if m._unc else None
        weight = [1] * len(cell) if ints is None else [ints[k] for k in cell]
        total = sum(weight)
        if total:
            x = truth_vector(m, arg)
            return Fraction(sum(w for k, w in zip(cell, weight) if x[k]), total)
    return Fraction(0)  # never weighed (a cell of weight 0 is refused when a model is built)
