"""Plain recursive reference implementations of every strategy, for cross-checking.

These follow the papers' definitions as directly as possible, node by node,
through the :class:`~kop.games.trees.tree.Node` API; they are slow, recurse once per
tree level (keep trees shallow) and exist so that tests can compare them with
the vectorized engine.  Each returns a :class:`RefStrategy` with the same
``next(n)`` / ``value(n)`` / ``path()`` interface as
:class:`~kop.games.strategies.strategy.Strategy`, so :func:`ref_play` and
:func:`kop.games.strategies.play.play` accept both.

* :func:`ref_minimax` -- Algorithm 1 as a recursion (paranoid for n players);
* :func:`ref_mh` -- Algorithm 4 / Poole & Mackworth's GameTreeSearch;
* :func:`ref_hm0m` -- Algorithm 5;
* :func:`ref_mstar` -- M^d by its recursive definition (Carmel & Markovitch 1996);
* :func:`ref_mstar_algorithm2` -- Algorithm 2 bottom-up by heights, with the
  erratum fixed (XNOR) or as printed (``printed=True``, XOR);
* :func:`ref_play` -- Definition 2.

Example
-------
>>> import kop
>>> from kop.games.strategies.reference import ref_mstar
>>> ref_mstar(kop.figure2(), 2, "A").value
(9, 4)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kop.games.names import StrategyName
from kop.games.strategies.strategy import TreeStrategy
from kop.games.trees.tree import GameTree, Node, NodeRef

__all__ = ["RefStrategy", "ref_minimax", "ref_mh", "ref_hm0m", "ref_mstar",
           "ref_mstar_algorithm2", "ref_play", "ref_expectation"]

Value = tuple[float, ...]


class RefStrategy(TreeStrategy):
    """``next`` and ``value`` per node index, in plain dictionaries."""

    def __init__(self, tree: GameTree, name: str, nxt: dict[int, int | None], val: dict[int, Value]):
        self.tree, self.name, self._next, self._val = tree, name, nxt, val

    def next(self, node: Any = None) -> Node | None:
        n = self.tree.node(0 if node is None else node)
        c = self._next[n.index]
        return None if c is None else Node(self.tree, c)

    def value_at(self, node: NodeRef) -> tuple[int | float, ...]:
        n = self.tree.node(node)
        return self.tree.value_of(self._val[n.index])

    @property
    def nodes(self) -> int:
        return len(self._val)


def ref_expectation(node: Node, values: list[Value]) -> Value:
    """Probability-weighted mean of the children's values, summed in child order."""
    probs = node.probabilities
    assert probs is not None, "a chance node"
    total = [0.0] * len(values[0])
    for p, v in zip(probs, values):
        total = [t + p * x for t, x in zip(total, v)]
    return tuple(total)


def _best(children: list[Node], values: list[Value], comp: int, sign: int, tie: str) -> int:
    """Index (among *children*) of the best by ``sign * value[comp]``; ties by *tie*."""
    order = range(len(children)) if tie == "first" else range(len(children) - 1, -1, -1)
    best = None
    for k in order:
        key = sign * values[k][comp]
        if best is None or key > best_key:
            best, best_key = k, key
    assert best is not None, "a node with children"
    return best


def _solve(tree: GameTree, name: str, rule: Callable[[Node], tuple[int, int] | int], tie: str) -> RefStrategy:
    """Recursive bottom-up evaluation; *rule(node)* gives (component, sign) or a fixed child index."""
    nxt: dict[int, int | None] = {}
    val: dict[int, Value] = {}
    rows = tree.leaf_rows()

    def visit(n: Node) -> Value:
        if n.is_leaf:
            nxt[n.index] = None
            val[n.index] = tuple(float(x) for x in tree.payoffs[rows[n.index]])
            return val[n.index]
        children = list(n.children)
        values = [visit(c) for c in children]
        if n.is_chance:
            nxt[n.index] = None
            val[n.index] = ref_expectation(n, values)
            return val[n.index]
        r = rule(n)
        if isinstance(r, tuple):
            k = _best(children, values, r[0], r[1], tie)
        else:
            k = [c.index for c in children].index(r)
        nxt[n.index] = children[k].index
        val[n.index] = values[k]
        return values[k]

    visit(tree.root)
    return RefStrategy(tree, name, nxt, val)


def _pidx(tree: GameTree, player: str | None) -> int:
    return tree.player_index(player)


def ref_minimax(tree: GameTree, player: str | None = None, tie: str = "first") -> RefStrategy:
    """P maximizes (by its goal) its component; every other mover does the opposite."""
    p = _pidx(tree, player)
    s = tree.players[p].sign
    return _solve(tree, "minimax", lambda n: (p, s if n.player == tree.players[p].name else -s), tie)


def ref_mh(tree: GameTree, tie: str = "first") -> RefStrategy:
    """Each mover optimizes its own component by its own goal."""
    def rule(n: Node) -> tuple[int, int]:
        q = tree.player_index(n.player)
        return q, tree.players[q].sign
    return _solve(tree, "Mh", rule, tie)


def ref_hm0m(tree: GameTree, d: int, player: str | None = None, tie: str = "first") -> RefStrategy:
    """M^h at height <= d, P's minimax above."""
    p = _pidx(tree, player)
    s = tree.players[p].sign

    def rule(n: Node) -> tuple[int, int]:
        if n.height <= d:
            q = tree.player_index(n.player)
            return q, tree.players[q].sign
        return p, (s if n.player == tree.players[p].name else -s)
    return _solve(tree, str(StrategyName.hm0m(d)), rule, tie)


def ref_mstar(tree: GameTree, d: int, player: str | None = None, tie: str = "first") -> RefStrategy:
    """M^d by the recursive definition: own nodes optimized, opponents follow their M^(d-1)."""
    memo: dict[tuple[int, int], RefStrategy] = {}

    def strat(k: int, p: int) -> RefStrategy:
        if (k, p) not in memo:
            if k == 0:
                memo[k, p] = ref_minimax(tree, tree.players[p].name, tie)
            else:
                def rule(n: Node) -> tuple[int, int] | int:
                    q = tree.player_index(n.player)
                    if q == p:
                        return p, tree.players[p].sign
                    reply = strat(k - 1, q).next(n)
                    assert reply is not None
                    return reply.index
                memo[k, p] = _solve(tree, str(StrategyName.mstar(k)), rule, tie)
        return memo[k, p]

    return strat(d, _pidx(tree, player))


def ref_mstar_algorithm2(tree: GameTree, d: int, caller: str | None = None, tie: str = "first",
                         printed: bool = False) -> RefStrategy:
    """Algorithm 2 of Sang & Chen bottom-up by heights (two players).

    ``printed=False`` uses the corrected base case ``(caller = A) XNOR (d is
    even)``; ``printed=True`` the paper's ``XOR``.
    """
    if len(tree.players) != 2:
        raise ValueError("Algorithm 2 is defined for two players")
    a_name = tree.players[0].name
    is_a = (caller is None) or caller == a_name
    base_a = (is_a != (d % 2 == 0)) if printed else (is_a == (d % 2 == 0))
    base = ref_minimax(tree, a_name if base_a else tree.players[1].name, tie)
    nxt = {i: base._next[i] for i in base._next}
    val = {i: base._val[i] for i in base._val}
    by_height: dict[int, list[Node]] = {}
    for n in tree.nodes():
        by_height.setdefault(n.height, []).append(n)
    for i in range(1, d + 1):
        for h in range(i, tree.height + 1):
            for n in by_height.get(h, []):
                children = list(n.children)
                values = [val[c.index] for c in children]
                if n.is_chance:
                    val[n.index] = ref_expectation(n, values)
                    continue
                if n.player == a_name and ((i % 2 == 1) != base_a):
                    k = _best(children, values, 0, tree.players[0].sign, tie)
                    nxt[n.index] = children[k].index
                elif n.player != a_name and ((i % 2 == 0) != base_a):
                    k = _best(children, values, 1, tree.players[1].sign, tie)
                    nxt[n.index] = children[k].index
                j = nxt[n.index]
                assert j is not None  # a decision node has its child
                val[n.index] = val[j]
    return RefStrategy(tree, str(StrategyName.mstar(d)), nxt, val)


def ref_play(tree: GameTree, strategies: Mapping[str, Any]) -> Value:
    """Definition 2, recursively: the value reached (expectation at chance nodes)."""
    rows = tree.leaf_rows()

    def go(n: Node) -> Value:
        if n.is_leaf:
            return tuple(float(x) for x in tree.payoffs[rows[n.index]])
        if n.is_chance:
            children = list(n.children)
            return ref_expectation(n, [go(c) for c in children])
        assert n.player is not None
        reply = strategies[n.player].next(n)
        return go(reply)

    return go(tree.root)
