"""Game trees from nested data: the ``kop-tree/1`` document (:meth:`GameTree.from_dict`) and the
compact tuples of :meth:`GameTree.build`, read breadth first with located errors.

Examples
--------
>>> from kop.games.trees.build import build_layout
>>> from kop.games.trees.layout import make_players
>>> lay = build_layout(make_players(["A", "B"]), ("A", [(1, 2), (3, 0)]), compact=True)
>>> lay.offsets.tolist(), lay.kind.tolist(), lay.payoffs.tolist()
([1, 3, 3, 3], [0, -1, -1], [[1.0, 2.0], [3.0, 0.0]])
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from kop.games.errors import TreeError
from kop.games.trees.layout import (CHANCE, LEAF, MAX_EXACT_INT, PROB_TOLERANCE, SIMULTANEOUS, Layout, Player,
                                    make_players, show, type_name)

__all__ = ["build_layout", "document_players"]

_NODE_KEYS = frozenset({"player", "children", "payoff", "chance", "simultaneous", "label", "move"})


def document_players(doc: Any) -> tuple[Player, ...]:
    """The players of a ``kop-tree/1`` document, after checking its top level (not its nodes)."""
    if not isinstance(doc, Mapping):
        raise TreeError(f"a kop tree document is a JSON object, not {type_name(doc)}")
    extra = set(doc) - {"format", "players", "root", "title", "comment"}
    if extra:
        raise TreeError(f"unknown top-level key {show(sorted(map(str, extra))[0])} "
                        "(allowed: format, players, root, title, comment)")
    fmt = doc.get("format")
    if fmt != "kop-tree/1":
        raise TreeError(f"\"format\" must be \"kop-tree/1\", found {show(fmt)}")
    if "players" not in doc:
        raise TreeError("missing \"players\"")
    if "root" not in doc:
        raise TreeError("missing \"root\"")
    return make_players(doc["players"], goals="max")


def _number(x: Any, where: Callable[[], str], what: str) -> tuple[float, bool]:
    """(value, is_int) of a JSON number, or an error located by ``where()``."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TreeError(f"{where()}: {what} must be a number, found {type_name(x)} {show(x)}")
    if isinstance(x, int):
        if abs(x) > MAX_EXACT_INT:
            raise TreeError(f"{where()}: {what} {show(x)} is too large to store exactly (limit 2^53)")
        return float(x), True
    if not math.isfinite(x):
        raise TreeError(f"{where()}: {what} must be a finite number, found {x!r}")
    return float(x), False


def build_layout(players: tuple[Player, ...], root: Any, compact: bool) -> Layout:
    """The layout of nested data *root* (compact tuples when *compact*): breadth first, any depth, located errors."""
    return _Builder(players, compact).run(root)


class _Builder:
    """One breadth-first pass over nested node data, filling the layout's lists (node *i* at a time)."""

    def __init__(self, players: tuple[Player, ...], compact: bool):
        self.players = players
        self.compact = compact
        self.names = {p.name: i for i, p in enumerate(players)}
        self.kind: list[int] = []
        self.offsets: list[int] = []
        self.payoffs: list[float] = []
        self.parents: list[int] = [-1]
        self.probs: dict[int, float] = {}
        self.labels: dict[int, str] = {}
        self.moves: dict[int, str] = {}
        self.sims: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self.integral = True
        self.next_free = 1
        self.i = 0

    def run(self, root: Any) -> Layout:
        queue: deque[Any] = deque([root])
        while queue:
            spec = self.node(self.normalized(queue.popleft()))
            if spec is not None:                     # an inner node: its children join the queue
                children = spec["children"]
                self.parents.extend([self.i] * len(children))
                queue.extend(children)
                self.next_free += len(children)
            self.i += 1
        self.offsets.append(self.next_free)
        return Layout.from_lists(self.players, self.offsets, self.kind, self.payoffs, self.probs, self.labels,
                                 self.moves, self.integral, self.sims)

    # -- where a node is, for errors ------------------------------------------------------------------
    def where(self, i: int | None = None) -> str:
        i = self.i if i is None else i
        ranks = []
        while i > 0:
            p = self.parents[i]
            ranks.append(i - self.offsets[p])
            i = p
        return "/".join(["root", *map(str, reversed(ranks))])

    def players_text(self) -> str:
        return ", ".join(self.names)

    # -- one node ---------------------------------------------------------------------------------------
    def normalized(self, spec: Any) -> Mapping[str, Any]:
        """*spec* as a mapping (compact tuples expanded), its keys checked."""
        if not self.compact:
            pass
        elif isinstance(spec, tuple) and spec and isinstance(spec[0], str):
            # compact decision node: (player, children[, label])
            if len(spec) not in (2, 3):
                raise TreeError(f"{self.where()}: a compact node is (player, children) or (player, children, label)")
            spec = {"player": spec[0], "children": spec[1], **({"label": spec[2]} if len(spec) == 3 else {})}
        elif isinstance(spec, (tuple, list)):
            spec = {"payoff": list(spec)}
        if not isinstance(spec, Mapping):
            raise TreeError(f"{self.where()}: a node must be an object, found {type_name(spec)}")
        extra = set(spec) - _NODE_KEYS
        if extra:
            raise TreeError(f"{self.where()}: unknown key {show(sorted(map(str, extra))[0])} "
                            "(allowed: player, children, payoff, chance, simultaneous, label, move)")
        return spec

    def node(self, spec: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """Record node *i* from *spec*; the (possibly rewritten) spec of an inner node, None for a leaf."""
        self.names_of(spec)
        has = [k for k in ("payoff", "player", "chance", "simultaneous") if k in spec]
        if len(has) > 1:
            raise TreeError(f"{self.where()}: a node has only one of \"payoff\" (leaf), \"player\" "
                            f"(decision node), \"chance\" and \"simultaneous\"; found {' and '.join(has)}")
        if has == ["simultaneous"]:
            if "children" in spec:
                raise TreeError(f"{self.where()}: a simultaneous node's children go inside \"simultaneous\"")
            spec = dict(spec)
            who_idx, dims, flat_kids = _joint(spec.pop("simultaneous"), self.names, self.where())
            spec["children"] = flat_kids
            self.sims[self.i] = (who_idx, dims)
        if not has:
            if "children" in spec:
                raise TreeError(f"{self.where()}: an inner node needs \"player\" (who moves) or \"chance\"")
            raise TreeError(f"{self.where()}: missing payoff: a leaf needs \"payoff\" with one number "
                            f"per player ({self.players_text()})")
        self.offsets.append(self.next_free)
        if has[0] == "payoff":
            self.leaf(spec)
            return None
        self.inner(spec, has[0])
        return spec

    def names_of(self, spec: Mapping[str, Any]) -> None:
        """The node's optional "label" and "move"."""
        if "label" in spec:
            label = spec["label"]
            if not isinstance(label, str):
                raise TreeError(f"{self.where()}: \"label\" must be a string, found {type_name(label)}")
            self.labels[self.i] = label
        if "move" in spec:
            move = spec["move"]
            if not isinstance(move, str):
                raise TreeError(f"{self.where()}: \"move\" must be a string, found {type_name(move)}")
            if self.i == 0:
                raise TreeError("root: the root has no incoming move, so no \"move\" label")
            self.moves[self.i] = move

    def leaf(self, spec: Mapping[str, Any]) -> None:
        if "children" in spec:
            raise TreeError(f"{self.where()}: a leaf (with \"payoff\") cannot have \"children\"")
        pay = spec["payoff"]
        n = len(self.players)
        if not isinstance(pay, (list, tuple)):
            raise TreeError(f"{self.where()}: payoff must be a list of {n} numbers, found {type_name(pay)}")
        if len(pay) != n:
            raise TreeError(f"{self.where()}: payoff has {len(pay)} number{'s' if len(pay) != 1 else ''}, "
                            f"expected {n} (players {self.players_text()})")
        for j, x in enumerate(pay):
            v, is_int = _number(x, self.where, f"payoff of {self.players[j].name}")
            self.integral &= is_int
            self.payoffs.append(v)
        self.kind.append(LEAF)

    def inner(self, spec: Mapping[str, Any], what: str) -> None:
        children = spec.get("children")
        if children is None:
            raise TreeError(f"{self.where()}: inner node has no \"children\"")
        if not isinstance(children, (list, tuple)):
            raise TreeError(f"{self.where()}: \"children\" must be a list, found {type_name(children)}")
        if not children:
            raise TreeError(f"{self.where()}: inner node has no children")
        if what == "simultaneous":
            self.kind.append(SIMULTANEOUS)
        elif what == "player":
            self.kind.append(self.mover(spec["player"]))
        else:
            self.chance(spec["chance"], len(children))
            self.kind.append(CHANCE)

    def mover(self, who: Any) -> int:
        if not isinstance(who, str):
            raise TreeError(f"{self.where()}: \"player\" must be a player's name, found "
                            f"{type_name(who)} {show(who)} (players {self.players_text()})")
        if who not in self.names:
            raise TreeError(f"{self.where()}: unknown player {show(who)} (players {self.players_text()})")
        return self.names[who]

    def chance(self, ps: Any, n_children: int) -> None:
        """Record the probabilities of a chance node's children."""
        if not isinstance(ps, (list, tuple)):
            raise TreeError(f"{self.where()}: \"chance\" must be a list of probabilities, found {type_name(ps)}")
        if len(ps) != n_children:
            raise TreeError(f"{self.where()}: chance has {len(ps)} probabilities for {n_children} children")
        vals = []
        for j, x in enumerate(ps):
            v, _ = _number(x, self.where, f"probability {j}")
            if v < 0:
                raise TreeError(f"{self.where()}: probability {j} is negative ({show(x)})")
            vals.append(v)
        total = math.fsum(vals)
        if abs(total - 1.0) > PROB_TOLERANCE * max(1, len(vals)):
            raise TreeError(f"{self.where()}: chance probabilities sum to {total:g}, not 1")
        for j, v in enumerate(vals):
            self.probs[self.next_free + j] = v


def _joint(sim: Any, names: Mapping[str, int], where: str) -> tuple[tuple[int, ...], tuple[int, ...], list[Any]]:
    """(player indices, moves per player, children in row-major order) of a simultaneous node."""
    if not isinstance(sim, Mapping):
        raise TreeError(f"{where}: \"simultaneous\" must be an object with \"players\" and \"children\", "
                        f"found {type_name(sim)}")
    extra = set(sim) - {"players", "children"}
    if extra:
        raise TreeError(f"{where}: simultaneous: unknown key {show(sorted(map(str, extra))[0])} "
                        "(allowed: players, children)")
    who = sim.get("players")
    if not isinstance(who, (list, tuple)) or not who:
        raise TreeError(f"{where}: simultaneous: \"players\" must be a non-empty list of player names")
    idx = []
    for w in who:
        if not isinstance(w, str) or w not in names:
            raise TreeError(f"{where}: simultaneous: unknown player {show(w)} (players {', '.join(names)})")
        idx.append(names[w])
    if len(set(idx)) != len(idx):
        raise TreeError(f"{where}: simultaneous: a player is listed twice in \"players\"")
    kids = sim.get("children")
    dims: list[int] = []
    flat: list[Any] = []
    level: list[Any] = [kids]
    for depth, name in enumerate(who):
        nxt: list[Any] = []
        for k, block in enumerate(level):
            if not isinstance(block, (list, tuple)):
                raise TreeError(f"{where}: simultaneous: joint moves do not match the players: expected "
                                f"{len(who)} nested lists (one level per player: {', '.join(who)}), found "
                                f"{type_name(block)} at level {depth}")
            if not block:
                raise TreeError(f"{where}: simultaneous: {name} has no moves")
            if depth == len(dims):
                dims.append(len(block))
            elif len(block) != dims[depth]:
                raise TreeError(f"{where}: ragged simultaneous matrix: {name} has {dims[depth]} moves in the "
                                f"first list of level {depth} but {len(block)} in list {k}")
            nxt.extend(block)
        level = nxt
    for k, node in enumerate(level):
        if isinstance(node, list) and node and all(isinstance(x, list) for x in node):
            raise TreeError(f"{where}: simultaneous: joint moves do not match the players: joint move {k} "
                            f"nests deeper than the {len(who)} players {', '.join(who)}")
        flat.append(node)
    return tuple(idx), tuple(dims), flat
