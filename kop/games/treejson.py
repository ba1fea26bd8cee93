"""Reading ``kop-tree/1`` JSON text: a fast path for well-formed documents, located errors otherwise.

:func:`loads_tree_json` first tries a single pass: ``json.loads`` with a hook
that files every node object, as it is parsed, into flat lists (post-order),
and numpy turns those into the breadth-first arrays of
:class:`~kop.games.tree.GameTree`.  Any doubt about the document (a duplicate
key, an unexpected key or type, an unknown player, a number that is not a finite
float or an exact integer, chance probabilities, nesting too deep for
``json.loads``) sends it to the careful reader instead:
:func:`kop.syntax.jsontext.loads_json` (strict JSON, located by line and column)
and :meth:`GameTree.from_dict <kop.games.tree.GameTree.from_dict>` (located by
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
from itertools import chain
from typing import Any

import numpy as np

from kop.games.errors import TreeError
from kop.games.tree import CHANCE, LEAF, PROB_TOLERANCE, GameTree, document_players
from kop.syntax.errors import LimitError
from kop.syntax.jsontext import JsonError, loads_json, paused_gc

__all__ = ["loads_tree_json", "fast_tree"]

_NO_KIDS: tuple[()] = ()
#: a node object parses to ``id + _MARK``: a complex number whose imaginary part is NaN, which no
#: JSON value becomes (JSON numbers become ints and floats; NaN and Infinity are refused)
_MARK = complex(0.0, math.nan)
_LEAF_MARK = object()
_CHANCE_MARK = object()
_EXTRA_KEYS = ("label", "move")
_MAX_EXACT = 2.0**53


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


class _Nodes:
    """Node objects filed in parse order (post-order: children before their parent)."""

    __slots__ = ("who", "kids", "pays", "chance", "extras", "odd")

    def __init__(self) -> None:
        self.who: list[Any] = []       # player name, _LEAF_MARK or _CHANCE_MARK
        self.kids: list[Any] = []      # children list (of node marks), () at leaves
        self.pays: list[Any] = []      # payoff lists of the leaves, in post-order
        self.chance: dict[int, Any] = {}
        self.extras: list[tuple[int, dict[str, Any]]] = []  # nodes with label/move or odd keys
        self.odd = False               # a duplicate key, or a node-like object that does not fit

    def hook(self) -> Any:
        who, kids, pays = self.who, self.kids, self.pays
        wa, ka, pa = who.append, kids.append, pays.append
        mark = _MARK

        def pairs(items: list[tuple[str, Any]]) -> Any:
            n = len(who)
            if len(items) == 1:
                k, v = items[0]
                if k == "payoff":
                    wa(_LEAF_MARK)
                    ka(_NO_KIDS)
                    pa(v)
                    return n + mark
            elif len(items) == 2:
                (k0, v0), (k1, v1) = items
                if k1 == "children" and k0 == "player":
                    wa(v0)
                    ka(v1)
                    return n + mark
            return self._general(items)
        return pairs

    def _general(self, items: list[tuple[str, Any]]) -> Any:
        d = dict(items)
        if len(d) != len(items):
            self.odd = True
            return d
        if "payoff" not in d and "children" not in d:
            return d  # not a node (the document, a player, or a value inside a comment)
        n = len(self.who)
        if "payoff" in d:
            self.who.append(_LEAF_MARK)
            self.kids.append(d.get("children", _NO_KIDS))
            self.pays.append(d["payoff"])
            core = {"payoff"}
        elif "player" in d:
            self.who.append(d["player"])
            self.kids.append(d["children"])
            core = {"player", "children"}
        elif "chance" in d:
            self.who.append(_CHANCE_MARK)
            self.kids.append(d["children"])
            self.chance[n] = d["chance"]
            core = {"chance", "children"}
        else:
            self.odd = True
            return d
        if len(d) != len(core):
            self.extras.append((n, d))
            if not set(d) - core <= set(_EXTRA_KEYS):
                self.odd = True
        return n + _MARK


def fast_tree(text: str) -> GameTree | None:
    """The tree of a well-formed ``kop-tree/1`` text in one fast pass, or None (then ask the careful reader)."""
    nodes = _Nodes()
    try:
        with paused_gc():
            doc = json.loads(text, object_pairs_hook=nodes.hook(), parse_constant=_refuse)
            return _arrays(doc, nodes)
    except (ValueError, TypeError, RecursionError, OverflowError, KeyError, IndexError):
        # ValueError includes json.JSONDecodeError and TreeError: the careful reader words them
        return None


def _refuse(name: str) -> Any:
    raise ValueError(name)


def _arrays(doc: Any, nodes: _Nodes) -> GameTree | None:
    n = len(nodes.who)
    if nodes.odd or type(doc) is not dict or n == 0:
        return None
    root = doc.get("root")
    if type(root) is not complex or root.real != n - 1 or not math.isnan(root.imag):
        return None
    players = document_players(doc)
    # children: n - 1 node marks (each node object appears once in the text, so then every node
    # but the root is a child of exactly one node, and all are below the root)
    kids = nodes.kids
    n_kids = np.fromiter(map(len, kids), np.int64, n)
    if int(n_kids.sum()) != n - 1:
        return None
    marks = np.fromiter(chain.from_iterable(kids), np.complex128, n - 1)
    if not np.isnan(marks.imag).all():
        return None
    child_flat = marks.real.astype(np.int64)
    codes: dict[Any, int] = {p.name: i for i, p in enumerate(players)}
    codes[_LEAF_MARK] = LEAF
    codes[_CHANCE_MARK] = CHANCE
    # TypeError for an unhashable or unknown player (None): the careful reader words it
    kind_post = np.fromiter(map(codes.get, nodes.who), np.int8, n)
    is_leaf_post = kind_post == LEAF
    if np.any((n_kids == 0) != is_leaf_post):
        return None  # an inner node without children, or a leaf with "children"
    pays = _payoffs(nodes.pays, len(players))
    if pays is None:
        return None
    matrix, integral = pays
    # breadth-first order: level by level (json.loads nests at most about a thousand levels)
    child_start = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(n_kids, out=child_start[1:])
    frontier = np.array([n - 1], dtype=np.int64)
    levels = [frontier]
    while True:
        counts = n_kids[frontier]
        total = int(counts.sum())
        if total == 0:
            break
        starts = np.repeat(child_start[frontier] - np.cumsum(counts) + counts, counts)
        frontier = child_flat[starts + np.arange(total)]
        levels.append(frontier)
    order = np.concatenate(levels)  # breadth-first position -> post-order id
    if len(order) != n:
        return None
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n)
    kind = kind_post[order]
    offsets = np.empty(n + 1, dtype=np.int64)
    offsets[0] = 1
    np.cumsum(n_kids[order], out=offsets[1:])
    offsets[1:] += 1
    leaf_row = np.cumsum(is_leaf_post) - 1
    payoffs = matrix[leaf_row[order[kind == LEAF]]]
    labels: dict[int, str] = {}
    moves: dict[int, str] = {}
    for i, d in nodes.extras:
        for key, into in (("label", labels), ("move", moves)):
            if key in d:
                if type(d[key]) is not str or (key == "move" and i == n - 1):
                    return None
                into[int(rank[i])] = d[key]
    probs = None
    if nodes.chance:
        probs = np.full(n, np.nan)
        for i, ps in nodes.chance.items():
            lo, hi = int(child_start[i]), int(child_start[i + 1])
            vals = _probabilities(ps, hi - lo)
            if vals is None:
                return None
            probs[rank[child_flat[lo:hi]]] = vals
    return GameTree(players, offsets, kind, payoffs, probs, labels, moves, integral)


def _payoffs(pays: list[Any], n_players: int) -> tuple[np.ndarray, bool] | None:
    """The payoff matrix (post-order leaves) and whether it is integral, or None when in doubt."""
    if set(map(type, pays)) != {list}:
        return None
    types = set(map(type, chain.from_iterable(pays)))
    if not types <= {int, float}:
        return None
    if set(map(len, pays)) != {n_players}:
        return None
    matrix = np.fromiter(chain.from_iterable(pays), np.float64, len(pays) * n_players)
    matrix = matrix.reshape(-1, n_players)
    if not np.isfinite(matrix).all():
        return None
    if int in types and matrix.size and float(np.abs(matrix).max()) >= _MAX_EXACT:
        return None  # an integer beyond 2^53 (the careful reader says so) or a large float
    return matrix, float not in types


def _probabilities(ps: Any, n_children: int) -> list[float] | None:
    if type(ps) is not list or len(ps) != n_children:
        return None
    for x in ps:
        if type(x) not in (int, float) or not 0 <= x < math.inf:
            return None
    vals = [float(x) for x in ps]
    if abs(math.fsum(vals) - 1.0) > PROB_TOLERANCE * max(1, len(vals)):
        return None
    return vals
