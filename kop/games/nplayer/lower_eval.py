"""Lower-Eval: deep cutoffs from lower bounds only (Bodkin §4.2.2, "Alternatives in the algorithm").

Unimodal-Eval without a ceiling: each node receives a floor ``alpha_i`` for every player
(the best payoff i is already sure of higher up).  A line whose value leaves some floor
unmet will not be played, so the node may return a *cutoff* instead of its value.  In
"ancestral" mode the full floor vector goes down; otherwise only the mover's own floor,
with the ceiling ``M - sum of the other floors``.  Moves that returned a cutoff but might
be best are kept and re-searched with the window just below the best value (here the
window is exact: the next float below the best value, or the value itself when the move
comes after the best one, so ties go to the first child as in max^n).  The code is
Unimodal-Eval's (:mod:`~kop.games.nplayer.deep`) with no ceiling.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kop.games.nplayer.bounds import PayoffBounds
from kop.games.nplayer.deep import deep_search
from kop.games.nplayer.core import NPlayerResult, bounded_search
from kop.games.trees.lists import TreeLists
from kop.games.trees.tree import GameTree

__all__ = ["lower_eval", "lower_eval_flat"]


def lower_eval(tree: GameTree, bounds: PayoffBounds | Mapping[str, Any] | None = None) -> NPlayerResult:
    """Lower-Eval on *tree* (see the module docstring).

    Parameters
    ----------
    tree, bounds
        As in :func:`~kop.games.nplayer.bnb.bnb`.

    Returns
    -------
    NPlayerResult
        Exactly the max^n value (the move too); the leaves of a re-search count again.

    Examples
    --------
    >>> import kop
    >>> t = kop.bodkin_tree(3, 2, 4, m=1, eta=1, seed=2)
    >>> r = kop.lower_eval(t)
    >>> (r.value, r.move) == (kop.maxn(t).value, kop.maxn(t).move), r.leaves <= kop.maxn(t).leaves
    (True, True)

    References
    ----------
    R. J. Bodkin, *Extending Computational Game Theory: Simultaneity, Multiple Agents, Chance
    and Metareasoning*, MIT (1992), §4.2.2.
    """
    return bounded_search(tree, bounds, "lower_eval", lower_eval_flat)


def lower_eval_flat(flat: TreeLists, bounds: PayoffBounds) -> tuple[tuple[float, ...], int, int]:
    """Lower-Eval on the payoff view *flat*: (value, leaves examined, chosen root child index); the
    *bounds* are not checked against the leaves here (:func:`lower_eval` checks them).

    >>> import numpy as np
    >>> from kop.games.nplayer.random_trees import bodkin_arrays
    >>> leaves, value = bodkin_arrays(3, 2, 6, 1.0, 1.0, np.random.default_rng(0))
    >>> got, n, _ = lower_eval_flat(TreeLists.uniform(3, 2, 6, leaves), PayoffBounds.uniform(3, m=1, M=1))
    >>> got == tuple(value.tolist()), n < 2 ** 6
    (True, True)
    """
    return deep_search(flat, bounds, lower=True)
