"""Reading ``kop-tree/1`` JSON text: a fast path for well-formed documents, located errors otherwise.

:func:`loads_tree_json` first tries a single pass: ``json.loads`` with a hook
that, as each object is parsed, files a node's facts into flat lists (its number
of children, who moves, its payoffs) and returns one shared marker in its place,
so no node survives as a Python object.  Objects complete children first, so the
lists are in post-order; numpy turns the children counts into depths and the
breadth-first arrays of :class:`~kop.games.trees.tree.GameTree`.  Any doubt about the
document (a duplicate key, an unexpected key or type, an unknown player, a
number that is not a finite float or an exact integer, nesting too deep for
``json.loads``) sends it to the careful reader instead:
:func:`kop.io.jsontext.loads_json` (strict JSON, located by line and column)
and :meth:`GameTree.from_dict <kop.games.trees.tree.GameTree.from_dict>` (located by
node path).  The careful reader is the definition: the fast path returns the
tree the careful one would, or nothing; errors always come from the careful one.

Example
-------
>>> t = loads_tree_json('{"format": "kop-tree/1", "players": ["A", "B"], '
...     '"root": {"player": "A", "children": [{"payoff": [1, 2]}, {"payoff": [3, 0]}]}}')
>>> t.root.children[1].payoff
(3, 0)
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

from kop.games.errors import TreeError
from kop.games.trees.build import document_players
from kop.games.trees.tree import CHANCE, LEAF, PROB_TOLERANCE, GameTree
from kop.errors import LimitError
from kop.io.jsontext import JsonError, loads_json, paused_gc

__all__ = ["loads_tree_json", "fast_tree"]


class _Node:
    """The marker every node object parses to (no JSON value is one)."""

    __slots__ = ()


_NODE = _Node()
_CHANCE_MARK = object()
_MAX_EXACT = 2.0**53


class _Decline(Exception):
    """The fast path is not sure: the careful reader decides."""


def loads_tree_json(text: str) -> GameTree:
    """A tree from ``kop-tree/1`` JSON text; problems raise a located :class:`TreeError`."""
    tree = fast_tree(text)
    if tree is not None:
        return tree
    try:
        doc = loads_json(text)
    except JsonError as exc:
        raise TreeError(str(exc)) from None
    except LimitError:
        raise
    return GameTree.from_dict(doc)


def fast_tree(text: str) -> GameTree | None:
    """The tree of a well-formed ``kop-tree/1`` text in one fast pass, or None (then ask the careful reader)."""
    nodes = _Nodes()
    try:
        with paused_gc():
            doc = json.loads(text, object_pairs_hook=nodes.hook(), parse_constant=_refuse)
            return nodes.tree(doc)
    except (_Decline, ValueError, TypeError, RecursionError, OverflowError, KeyError, IndexError):
        # ValueError includes json.JSONDecodeError and TreeError: the careful reader words them
        return None


def _refuse(name: str) -> Any:
    raise ValueError(name)


class _Nodes:
    """The facts of the node objects, in parse order (post-order: children before their parent)."""

    __slots__ = ("arity", "movers", "pays", "pay_lens", "chance", "named")

    def __init__(self) -> None:
        self.arity: list[int] = []       # per node: number of children (0 at a leaf)
        self.movers: list[Any] = []      # per inner node: the "player" value, or _CHANCE_MARK
        self.pays: list[Any] = []        # the payoffs of all leaves, one after another
        self.pay_lens: list[int] = []    # per leaf: the length of its payoff list
        self.chance: dict[int, Any] = {}             # chance node -> its "chance" value
        #: "label" and "move": the nodes that have one, and their names
        self.named: dict[str, tuple[list[int], list[str]]] = {"label": ([], []), "move": ([], [])}

    def hook(self) -> Any:
        """The ``object_pairs_hook``: the two common node shapes inline, the others in :meth:`_general`."""
        arity, add_mover, add_pays, add_len = self.arity.append, self.movers.append, self.pays.extend, \
            self.pay_lens.append
        general, node = self._general, _NODE

        def pairs(items: list[tuple[str, Any]]) -> Any:
            if len(items) == 1:
                k, v = items[0]
                if k == "payoff" and type(v) is list:
                    arity(0)
                    add_pays(v)
                    add_len(len(v))
                    return node
            elif len(items) == 2:
                (k0, v0), (k1, v1) = items
                if k0 == "children":  # keys written in sorted order
                    k0, v0, k1, v1 = k1, v1, k0, v0
                if k0 == "player" and k1 == "children" and type(v1) is list:
                    c = len(v1)
                    if c == 0 or v1.count(node) != c:
                        raise _Decline
                    arity(c)
                    add_mover(v0)
                    return node
            return general(items)
        return pairs

    def _general(self, items: list[tuple[str, Any]]) -> Any:
        d = dict(items)
        if len(d) != len(items):
            raise _Decline  # a duplicate key
        i = len(self.arity)
        named = ("label" in d) + ("move" in d)
        if "payoff" in d:
            pay = d["payoff"]
            if len(d) != 1 + named or type(pay) is not list:
                raise _Decline
            self.arity.append(0)
            self.pays.extend(pay)
            self.pay_lens.append(len(pay))
        elif "children" in d:
            kids = d["children"]
            if len(d) != 2 + named or type(kids) is not list or not kids or kids.count(_NODE) != len(kids):
                raise _Decline
            if "player" in d:
                self.movers.append(d["player"])
            elif "chance" in d:
                self.movers.append(_CHANCE_MARK)
                self.chance[i] = d["chance"]
            else:
                raise _Decline
            self.arity.append(len(kids))
        else:
            return d  # not a node: the document, a player, or a value inside a comment
        if named:
            for key, (where, names) in self.named.items():
                if key in d:
                    if type(d[key]) is not str:
                        raise _Decline
                    where.append(i)
                    names.append(d[key])
        return _NODE

    def tree(self, doc: Any) -> GameTree:
        """The tree, after checking that the node markers are where nodes belong."""
        if type(doc) is not dict or doc.get("root") is not _NODE:
            raise _Decline
        players = document_players(doc)  # a TreeError (a ValueError) for anything wrong at the top
        # each list of facts is dropped as soon as it is an array: the reader's memory stays a
        # small multiple of the tree's arrays
        n = len(self.arity)
        idx_t = np.int32 if n + 1 < 2**31 else np.int64
        arity: np.ndarray = np.array(self.arity, dtype=idx_t)
        self.arity.clear()
        inner = arity > 0
        codes: dict[Any, int] = {p.name: i for i, p in enumerate(players)}
        codes[_CHANCE_MARK] = CHANCE
        kind_post = np.full(n, LEAF, dtype=np.int8)
        # TypeError for an unknown or unhashable player (None from codes.get)
        kind_post[inner] = np.fromiter(map(codes.get, self.movers), np.int8, len(self.movers))
        n_inner = len(self.movers)
        self.movers.clear()
        del inner
        n_players = len(players)
        if self.pay_lens.count(n_players) != n - n_inner:
            raise _Decline  # a payoff of the wrong length
        self.pay_lens.clear()
        matrix, integral = _payoffs(self.pays, n_players)
        self.pays.clear()
        order = _breadth_first(arity).astype(idx_t, copy=False)
        kind = kind_post[order]
        offsets: np.ndarray = np.empty(n + 1, dtype=idx_t)
        offsets[0] = 1
        np.cumsum(arity[order], dtype=idx_t, out=offsets[1:])
        offsets[1:] += 1
        del arity
        leaf_row = np.cumsum(kind_post == LEAF, dtype=idx_t)
        del kind_post
        rows = leaf_row[order[kind == LEAF]]
        del leaf_row
        rows -= 1
        payoffs = matrix[rows]
        del matrix, rows
        rank = np.empty(n, dtype=idx_t)
        rank[order] = np.arange(n, dtype=idx_t)
        del order
        labels, moves = ({int(r): name for r, name in zip(rank[np.array(where, dtype=np.int64)].tolist(), names)}
                         for where, names in self.named.values())
        if n - 1 in self.named["move"][0]:
            raise _Decline  # a move into the root
        probs = None
        if self.chance:
            probs = np.full(n, np.nan)
            at = rank[np.fromiter(self.chance, np.int64, len(self.chance))]
            first = offsets[at].astype(np.int64)
            counts = offsets[at + 1] - first
            vals: list[float] = []
            for ps, count in zip(self.chance.values(), counts.tolist()):
                vals.extend(_probabilities(ps, count))
            probs[np.repeat(first - np.cumsum(counts) + counts, counts) + np.arange(len(vals))] = vals
        del rank
        return GameTree(players, offsets, kind, payoffs, probs, labels, moves, integral)


def _breadth_first(arity: np.ndarray) -> np.ndarray:
    """The nodes (post-order numbers) in breadth-first order, from the children counts in post-order.

    A post-order sequence is a stack program: node ``j`` pops its ``arity[j]`` children and
    pushes itself, so after it the stack holds ``h[j]`` subtrees.  The subtree of ``j`` starts
    just after the last ``t < j`` with ``h[t] == h[j] - 1`` (the stack grows one node at a
    time); ``j`` is an ancestor of the nodes from there to ``j - 1``, which gives every node's
    depth; and nodes of one depth are in post-order as they are left to right.
    """
    n = len(arity)
    idx_t = np.int32 if n + 1 < 2**31 else np.int64
    height = np.cumsum(1 - arity.astype(np.int64))
    # Every "children" list holds node markers only (the hook checks), one per child, and each
    # marker stands in one place: so the program ends with one tree on the stack exactly when
    # every node but the root is a child (none hidden in a comment, a payoff, a nested list, ...)
    if int(height.min()) < 1 or int(height[-1]) != 1:
        raise _Decline
    height = height.astype(idx_t)  # between 1 and n
    small = np.int16 if int(height.max()) < 2**15 else idx_t
    by_height = np.argsort(height.astype(small), kind="stable").astype(idx_t)
    keys = height[by_height].astype(np.int64)  # sorted: by height, then position
    keys *= n
    keys += by_height
    inner = np.flatnonzero(arity).astype(idx_t)
    below = height[inner] - 1
    query = below.astype(np.int64)
    query *= n
    query += inner
    at = np.searchsorted(keys, query) - 1
    del keys, query
    found = at >= 0
    np.maximum(at, 0, out=at)
    last = by_height[at]
    del at, by_height
    found &= height[last] == below
    del height, below
    start = np.where(found, last + 1, 0)
    del found
    change = np.bincount(start, minlength=n + 1)
    del start, last
    change -= np.bincount(inner, minlength=n + 1)
    del inner
    depth = np.cumsum(change[:n])
    del change
    small = np.int16 if int(depth.max()) < 2**15 else np.int64
    return np.argsort(depth.astype(small), kind="stable")


def _payoffs(pays: list[Any], n_players: int) -> tuple[np.ndarray, bool]:
    """The payoff matrix (post-order leaves) and whether it is integral; _Decline when in doubt."""
    types = set(map(type, pays))
    if not types <= {int, float}:
        raise _Decline
    matrix = np.array(pays, dtype=np.float64).reshape(-1, n_players)
    if not np.isfinite(matrix).all():
        raise _Decline
    if int in types and matrix.size and float(np.abs(matrix).max()) >= _MAX_EXACT:
        raise _Decline  # an integer beyond 2^53 (the careful reader says so) or a large float
    return matrix, float not in types


def _probabilities(ps: Any, n_children: int) -> list[float]:
    if type(ps) is not list or len(ps) != n_children:
        raise _Decline
    for x in ps:
        if type(x) not in (int, float) or not 0 <= x < math.inf:
            raise _Decline
    vals = [float(x) for x in ps]
    if abs(math.fsum(vals) - 1.0) > PROB_TOLERANCE * max(1, len(vals)):
        raise _Decline
    return vals
