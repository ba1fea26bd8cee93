"""The opponent behaviours the definitions allow, and K-dominance checked by playing them.

From P's point of view (Definition 8), the opponent Q uses a strategy S_Q
(Definition 1: a next(n) at *every* node, its own moves and its predictions of
P's) that is *selfish* (Definition 5: at each of its nodes it takes a child
that is best for it over the values S_Q itself computes) and *informed*
(Definition 7: at every decided node it computes the agreed next(n)), with an
evaluation E_Q that P considers possible.  The *allowed behaviours* are the
moves such strategies make at Q's nodes:

* at a node where Q moves and that the knowledge decides, Q takes the agreed
  (M^h) child;
* Q's prediction of P's move at a node where P moves is the agreed (M^h) child
  where P knows that the node is decided (``K_P D(n)``), and free elsewhere;
* at every other node where Q moves, Q takes its first best child by E_Q over
  the values of the children under its own later moves and its predictions.
  A child that is worse for Q than another under every prediction is never
  taken: Q is free only where what it does not know leaves the comparison open.

When P knows E_Q exactly, E_Q is Q's actual evaluation; with partial knowledge
it ranges over the candidates P allows (:class:`Behaviours.types`); when P does
not know E_Q, every evaluation is possible and Q is free at every node that is
not decided (every move is the best one for some evaluation).

A strategy S *K-dominates* S' for P when, for every allowed behaviour of Q,
``play(S, Q).P >= play(S', Q).P`` by P's goal.

The computation is exact and needs no enumeration of whole behaviours: bottom
up, each node gets the set of its *summaries* -- Q's predicted value of the
node under an allowed (behaviour, prediction) pair of its subtree, with the
outcome each strategy of P reaches from the node against that behaviour.  The
subtrees below a node are independent, so at a node of Q a child can be the
first best one exactly when one of its summaries beats the worst prediction of
each other child.  It stops with :class:`~kop.errors.LimitError` past
``limit`` summaries at one node.  :mod:`kop.selection.reference_claims`
enumerates whole strategy profiles instead, straight from the definitions; the
tests check the two against each other.

Reference: Sang & Chen, *Beyond Minimax*, Definitions 1, 5-8.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING
from dataclasses import dataclass, field

import numpy as np

from kop.games.trees.tree import CHANCE, LEAF, GameTree
from kop.errors import LimitError

if TYPE_CHECKING:  # pragma: no cover
    from kop.games.strategies.strategy import Strategy

__all__ = ["Behaviours", "outcomes_against_allowed", "outcomes_by_type", "DEFAULT_LIMIT"]

#: the most summaries kept at one node before giving up
DEFAULT_LIMIT = 100_000

_TIE = 1e-9

#: (Q's predicted value or None when Q is free, one outcome vector per strategy)
_Summary = tuple[float | None, tuple[tuple[float, ...], ...]]


@dataclass(frozen=True)
class Behaviours:
    """What P's knowledge allows the opponent to do (see the module docstring).

    Attributes
    ----------
    tree : GameTree
    opponent : str
        Q.
    fixed : dict
        Node index -> child index: the decided nodes where Q moves, and Q's agreed move there.
    predicted : dict
        Node index -> child index: the nodes where P moves whose agreed move Q predicts (P knows
        that they are decided).
    types : tuple of arrays, or None
        The evaluations of Q that P considers possible (Q's values per leaf row of
        ``tree.payoffs``); Q is selfish by one of them.  None: every evaluation is possible,
        and Q is free wherever it is not fixed.

    Example
    -------
    >>> import kop
    >>> t = kop.GameTree.build(["A", "B"], ("A", [("B", [(1, 0), (5, 3)]), (0, 0)]), goals="paper")
    >>> Behaviours(t, "B", {})
    Behaviours(opponent='B', fixed={}, predicted={}, types=None)
    """

    tree: GameTree
    opponent: str
    fixed: dict[int, int]
    predicted: dict[int, int] = field(default_factory=dict)
    types: tuple[np.ndarray, ...] | None = None

    def __repr__(self) -> str:
        types = None if self.types is None else f"{len(self.types)} type(s)"
        return (f"Behaviours(opponent={self.opponent!r}, fixed={self.fixed!r}, predicted={self.predicted!r}, "
                f"types={types})")


def outcomes_by_type(behaviours: Behaviours, strategies: Sequence[Strategy], player: str,
                     limit: int = DEFAULT_LIMIT) -> list[np.ndarray]:
    """Per evaluation of Q that P considers possible (one entry when Q is free): the outcomes of every
    strategy of *player* against every allowed behaviour of Q with that evaluation.

    Each entry has shape ``(rows, len(strategies), players)``: row k holds the
    outcomes of all the strategies against the same behaviour (behaviours with
    the same outcomes for every strategy share a row).  At a chance node the
    outcome is the expectation over its children.

    >>> import kop
    >>> t = kop.GameTree.build(["A", "B"], ("A", [("B", [(1, 0), (5, 3)]), (0, 0)]), goals="paper")
    >>> [tab[:, 0, 0].tolist() for tab in outcomes_by_type(Behaviours(t, "B", {}), [kop.mh(t)], "A")]
    [[1.0, 5.0]]
    >>> b = Behaviours(t, "B", {}, types=(t.payoffs[:, 1].astype(float),))   # B's own evaluation: it minimizes b
    >>> [tab[:, 0, 0].tolist() for tab in outcomes_by_type(b, [kop.mh(t)], "A")]
    [[1.0]]
    """
    types: Sequence[np.ndarray | None] = [None] if behaviours.types is None else behaviours.types
    return [_table(behaviours, strategies, player, ev, limit) for ev in types]


def outcomes_against_allowed(behaviours: Behaviours, strategies: Sequence[Strategy], player: str,
                             limit: int = DEFAULT_LIMIT) -> np.ndarray:
    """Play every strategy of *player* against every allowed opponent behaviour (every type together).

    Returns an array of shape ``(rows, len(strategies), players)``: row k holds
    the outcomes of all the strategies against the same behaviour.

    >>> import kop
    >>> t = kop.GameTree.build(["A", "B"], ("A", [("B", [(1, 0), (5, 0)]), (0, 0)]))
    >>> outcomes_against_allowed(Behaviours(t, "B", {}), [kop.mh(t)], "A")[:, 0, 0].tolist()
    [1.0, 5.0]
    """
    tables = outcomes_by_type(behaviours, strategies, player, limit)
    rows = {tuple(map(tuple, r.tolist())): r for tab in tables for r in tab}
    return np.array(list(rows.values()), dtype=float)


def _table(b: Behaviours, strategies: Sequence[Strategy], player: str, ev: np.ndarray | None,
           limit: int) -> np.ndarray:
    tree = b.tree
    nexts = [s.next_array.tolist() for s in strategies]
    kind, offsets = tree.kind.tolist(), tree.offsets.tolist()
    probs = tree.probs
    payoffs = np.asarray(tree.payoffs, dtype=float).tolist()
    rows_of = tree.leaf_rows().tolist()
    me = tree.player_index(player)
    q = tree.player_index(b.opponent)
    sign_q = tree.players[q].sign
    n_strat = len(strategies)
    sets: dict[int, list[_Summary]] = {}

    def capped(out: dict[_Summary, None], node: int) -> list[_Summary]:
        if len(out) > limit:
            raise LimitError(f"more than {limit} opponent behaviours to tell apart at node {tree.path_name(node)}")
        return list(out)

    for i in np.argsort(tree.heights, kind="stable").tolist():
        k = kind[i]
        if k == LEAF:
            row = tuple(payoffs[rows_of[i]])
            sets[i] = [(None if ev is None else float(ev[rows_of[i]]), (row,) * n_strat)]
            continue
        kids = list(range(offsets[i], offsets[i + 1]))
        if k == CHANCE:
            assert probs is not None
            out: dict[_Summary, None] = {}
            for combo in itertools.product(*(sets[c] for c in kids)):
                p = [float(probs[c]) for c in kids]
                pred = None if ev is None else sum(pi * float(s[0] or 0.0) for pi, s in zip(p, combo))
                acts = tuple(tuple(sum(pi * s[1][j][x] for pi, s in zip(p, combo)) for x in range(len(combo[0][1][j])))
                             for j in range(n_strat))
                out[(pred, acts)] = None
            sets[i] = capped(out, i)
        elif len(kids) == 1:
            sets[i] = sets[kids[0]]
        elif k == me:
            sets[i] = capped(_at_player(i, kids, b, ev, nexts, sets), i)
        elif k == q:
            if i in b.fixed:
                sets[i] = sets[b.fixed[i]]
            elif ev is None:
                sets[i] = capped(dict.fromkeys(s for c in kids for s in sets[c]), i)
            else:
                sets[i] = capped(_selfish(kids, sign_q, sets), i)
        else:
            raise LimitError(f"node {tree.path_name(i)}: the allowed behaviours are defined for two players")
    return np.array([acts for _, acts in sets[0]], dtype=float)


def _at_player(i: int, kids: list[int], b: Behaviours, ev: np.ndarray | None, nexts: list[list[int]],
               sets: dict[int, list[_Summary]]) -> dict[_Summary, None]:
    """P's node: each strategy plays its own move; Q's prediction is the agreed move or any (one behaviour)."""
    moves = [nx[i] for nx in nexts]
    preds: list[int | None] = [None] if ev is None else ([b.predicted[i]] if i in b.predicted else list(kids))
    out: dict[_Summary, None] = {}
    for pc in preds:
        involved = sorted(set(moves) | ({pc} if pc is not None else set()))
        for combo in itertools.product(*(sets[c] for c in involved)):
            pick = dict(zip(involved, combo))
            pred = None if pc is None else pick[pc][0]
            out[(pred, tuple(pick[m][1][j] for j, m in enumerate(moves)))] = None
    return out


def _selfish(kids: list[int], sign: int, sets: dict[int, list[_Summary]]) -> dict[_Summary, None]:
    """Q's node: the summaries of a child that is Q's first best one when each other child is at its worst."""
    worst = [min(sign * s[0] for s in sets[c]) for c in kids]  # type: ignore[operator]
    out: dict[_Summary, None] = {}
    for pos, c in enumerate(kids):
        for s in sets[c]:
            g = sign * s[0]  # type: ignore[operator]
            if all(worst[j] < g - _TIE for j in range(pos)) and all(worst[j] <= g + _TIE for j in range(pos + 1, len(kids))):
                out[s] = None
    return out
