"""CSCOUT: SCOUT for two-player zero-sum games with chance nodes (Bodkin §3.10.1).

EVAL evaluates the first move of a decision node, then only *tests* the others: at P's
node, "is this move worth at most the best so far?" (TEST-<=), at an opponent's node
"at least?" (TEST->=); a move is evaluated only when its test fails.  A test at a chance
node splits the bound b into per-child bounds z_i with sum d_i z_i = b and needs every
child's test to succeed; at a decision node, one child suffices for the mover's side and
all are needed for the other.  A test can fail although the bound holds, so the best value
is kept as max (P) or min (opponent) of the old one and the evaluation.

The thesis chooses ``z_i = mu_i + sigma_i t`` from a normal model of each child's value;
without such estimates all ``z_i = b`` (what the model gives when the children look
alike).  The printed pseudocode evaluates ``V_1`` at a chance node; it is ``V_i`` (digest fix).

Best case (thesis §3.10.1): on a best-ordered uniform tree of depth 4k whose levels are
P, chance, opponent, chance, ... with b moves and c chance outcomes, CSCOUT examines
``f(4k) = c^(2k) (1 + 2 (b^k - 1))`` leaves (:func:`cscout_best_case`) against (bc)^(2k).

Example
-------
>>> from kop.games.chance.cscout import cscout, cscout_best_case
>>> [cscout_best_case(2, 2, k) for k in (1, 2)], [cscout_best_case(3, 2, k) for k in (1, 2)]
([12, 112], [20, 272])
>>> import kop
>>> from kop.games.chance.expectimax import expectimax
>>> t = kop.random_tree(depth=6, branching=3, chance_prob=0.3, seed=4)
>>> abs(cscout(t, "A").value - expectimax(t, "A").value) < 1e-9
True
>>> cscout(cscout_best_case_tree(2, 2, 2), "P").leaves
112
"""

from __future__ import annotations

import numpy as np

from kop.games.chance.core import ChanceResult, chance_result
from kop.games.trees.lists import TreeLists
from kop.games.nplayer.core import run_deep
from kop.games.trees.tree import CHANCE, LEAF, GameTree, Player

__all__ = ["cscout", "cscout_best_case", "cscout_best_case_tree"]


def cscout_best_case(branching: int, chance: int, k: int) -> int:
    """Leaves CSCOUT examines on a best-ordered tree of depth 4k: ``c^(2k) (1 + 2 (b^k - 1))``."""
    return int(chance ** (2 * k) * (1 + 2 * (branching ** k - 1)))


def cscout_best_case_tree(branching: int, chance: int, k: int, value: float = 0.5) -> GameTree:
    """A uniform tree of depth 4k (levels P, chance, opponent, chance, ...) on which CSCOUT's
    tests all succeed: every leaf is worth *value* to both players, so every order is best."""
    if branching < 1 or chance < 1 or not 0 <= k <= 4 or (branching * chance) ** (2 * k) > 2_000_000:
        raise ValueError("cscout_best_case_tree: b, c >= 1, 0 <= k <= 4, at most 2,000,000 leaves")
    widths, kinds = [1], []
    for d in range(4 * k):
        kinds.append(np.full(widths[-1], (0, CHANCE, 1, CHANCE)[d % 4], dtype=np.int8))
        widths.append(widths[-1] * (branching if d % 2 == 0 else chance))
    kinds.append(np.full(widths[-1], LEAF, dtype=np.int8))
    kind = np.concatenate(kinds)
    counts = np.concatenate([np.full(w, branching if d % 2 == 0 else chance) for d, w in enumerate(widths[:-1])]
                            + [np.zeros(widths[-1], dtype=np.int64)]).astype(np.int64)
    offsets = np.concatenate([[1], 1 + np.cumsum(counts)])
    probs = np.full(len(kind), np.nan)
    for d in range(1, 4 * k + 1):
        if (d - 1) % 2 == 1:   # children of a chance level
            start = int(sum(widths[:d]))
            probs[start:start + widths[d]] = 1.0 / chance
    pay = np.full((widths[-1], 2), float(value))
    return GameTree((Player("P", "max"), Player("Q", "max")), offsets, kind, pay,
                    probs if k else None)


def cscout(tree: GameTree, player: str | None = None) -> ChanceResult:
    """P's ``*``-minimax value by CSCOUT (see the module docstring).

    Parameters
    ----------
    tree, player
        As in :func:`~kop.games.chance.expectimax.expectimax`.

    Returns
    -------
    ChanceResult
        The expectimax value (relative tolerance 1e-9); a test counts the leaves it examines.

    Examples
    --------
    >>> import kop
    >>> kop.cscout(kop.figure2(), "A")     # expectimax examines all 12 leaves
    ChanceResult('cscout', player='A', value=4, leaves=8, move=0)

    References
    ----------
    R. J. Bodkin, *Extending Computational Game Theory: Simultaneity, Multiple Agents, Chance
    and Metareasoning*, MIT (1992), §3.10.1.
    """
    f = TreeLists.signed(tree, player, "cscout")
    off, kind, val, prob, P = f.off, f.kind, f.val, f.prob, f.player
    count = 0
    root_child = -1

    def test(v: int, b: float, ge: bool) -> bool:
        """TEST->= (*ge*) or TEST-<=: True proves value(v) >= b (or <= b); False proves nothing.

        One child suffices at a node whose mover wants the tested side (P for >=, the opponent
        for <=); every child is needed elsewhere.
        """
        nonlocal count
        k = kind[v]
        if k == LEAF:
            count += 1
            return val[v] >= b if ge else val[v] <= b
        kids = range(off[v], off[v + 1])
        if k == CHANCE:
            return all(test(c, b, ge) for c in kids if prob[c] > 0)
        if (k == P) == ge:
            return any(test(c, b, ge) for c in kids)
        return all(test(c, b, ge) for c in kids)

    def evaluate(v: int) -> float:
        nonlocal count, root_child
        k = kind[v]
        if k == CHANCE:
            return sum(prob[c] * evaluate(c) for c in range(off[v], off[v + 1]) if prob[c] > 0)
        if k == LEAF:
            count += 1
            return val[v]
        first = off[v]
        b = evaluate(first)
        bi = first
        for c in range(first + 1, off[v + 1]):
            if k == P:
                if not test(c, b, False):
                    u = evaluate(c)
                    if u > b:
                        b, bi = u, c
            elif not test(c, b, True):
                u = evaluate(c)
                if u < b:
                    b, bi = u, c
        if v == 0:
            root_child = bi
        return b

    value = run_deep(lambda: evaluate(0), f.height)
    return chance_result(tree, f, "cscout", value, count, root_child)
