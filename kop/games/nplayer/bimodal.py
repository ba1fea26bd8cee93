"""Bimodal-Eval and Unimodal-Eval: deep cutoffs with floors and one ceiling (Bodkin §4.2).

Both take a floor vector ``alpha`` (the payoff each player is already sure of higher up),
a ceiling ``beta`` on one player j's payoff, and return ``(vector, cutoff)``:

* Unimodal-Eval returns a cutoff only if some floor is not met or ``u_j >= beta``;
* Bimodal-Eval tells a *high* cutoff (``u_j >= beta``: it returns ``beta`` for j) from a
  *low* one (a floor not met: it returns a vector no player prefers);
* otherwise both return the exact max^n value.

The root call ``Bimodal-Eval(root, no floors, no ceiling, mover)`` returns the exact value.
The code (:mod:`~kop.games.nplayer.deep`, shared with Lower-Eval) follows the thesis's pseudocode with the digest's fixes (the ceiling of the
mover is the *least* subset bound; ``beta < c`` sets a high ceiling), and three choices that
make it exact for any payoffs, ties and float rounding included: "no floor" is just below
the player's lowest payoff, cutoff vectors carry ``-inf`` where the thesis has 0, and the
re-search window ``(f - eps, f)`` is the next float below ``f`` (or ``(f, next float above)``
for a move after the best one, so that ties go to the first child as in max^n).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kop.games.nplayer.bounds import PayoffBounds
from kop.games.nplayer.deep import deep_search
from kop.games.nplayer.core import NPlayerResult, bounded_search
from kop.games.trees.lists import TreeLists
from kop.games.trees.tree import GameTree

__all__ = ["bimodal", "bimodal_flat"]


def bimodal(tree: GameTree, bounds: PayoffBounds | Mapping[str, Any] | None = None) -> NPlayerResult:
    """Bimodal-Unimodal evaluation of *tree* (see the module docstring).

    Parameters
    ----------
    tree, bounds
        As in :func:`~kop.games.nplayer.lower_eval.lower_eval`.

    Returns
    -------
    NPlayerResult
        Exactly the max^n value; the leaves of a re-search count again.

    Examples
    --------
    On the thesis's small check Bimodal-Eval examines 3 of the 4 leaves, as Branch-and-Bound does:

    >>> import kop
    >>> t = kop.GameTree.build(["1", "2", "3"], ("1", [
    ...     ("2", [(.7, .2, .1), (.5, .1, .4)]), ("2", [(.1, .6, .3), (.3, .3, .4)])]), goals="max")
    >>> kop.bimodal(t, kop.PayoffBounds.uniform(3, m=1, M=1))
    NPlayerResult('bimodal', value=(0.7, 0.2, 0.1), leaves=3, move=0)

    References
    ----------
    R. J. Bodkin, *Extending Computational Game Theory: Simultaneity, Multiple Agents, Chance
    and Metareasoning*, MIT (1992), §4.2.
    """
    return bounded_search(tree, bounds, "bimodal", bimodal_flat)


def bimodal_flat(flat: TreeLists, bounds: PayoffBounds) -> tuple[tuple[float, ...], int, int]:
    """(value, leaves examined, chosen root child index) on the payoff view (bounds unchecked).

    >>> import kop
    >>> t = kop.bodkin_tree(3, 2, 4, m=1, eta=1, seed=2)
    >>> bimodal_flat(TreeLists.payoffs(t), PayoffBounds.infer(t))[0] == kop.maxn(t).value
    True
    """
    return deep_search(flat, bounds, lower=False)
