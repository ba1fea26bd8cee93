"""What every strategy and search answers: ``value``, ``move``, ``path``, ``nodes``.

:class:`~kop.games.strategies.strategy.Strategy` (and
:class:`~kop.games.strategies.alphabeta.AlphaBeta`) on whole trees and
:class:`~kop.games.search.result.SearchResult` on implicit games both follow
:class:`Result`: the root's value (one number per player), the root's choice,
the principal line from the root and the count of nodes the computation
evaluated.  A strategy also answers per node: ``next(n)``, ``value_at(n)``,
``path_from(n)``.

Bodkin's searches on list layouts (:class:`~kop.games.nplayer.core.NPlayerResult`,
:class:`~kop.games.chance.core.ChanceResult`, :class:`~kop.games.simultaneous.core.SimResult`)
follow it through :class:`RootMoveResult`: their ``move`` is a child rank (an int), their
``path`` the root move alone, their ``nodes`` the leaves they examined (the count the thesis
reports); the two-player zero-sum ones (chance, simultaneous) give as ``value`` the searching
player's payoff, one float.

Examples
--------
>>> import kop
>>> from kop.games.result import Result
>>> t = kop.figure2()
>>> [isinstance(r, Result) for r in (kop.mh(t), kop.alphabeta(t), kop.search(t, "Mh"))]
[True, True, True]
>>> [r.value for r in (kop.mh(t), kop.search(t, "Mh"))]
[(10, 3), (10, 3)]
>>> r = kop.bnb(kop.bodkin_tree(3, 2, 3, seed=1))
>>> isinstance(r, Result), r.path == (r.move,), r.nodes == r.leaves
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

__all__ = ["Result", "RootMoveResult"]


@runtime_checkable
class Result(Protocol):
    """The shape every strategy and search result has (see the module docstring)."""

    @property
    def value(self) -> tuple[int | float, ...] | float:
        """The root's value: one number per player (a zero-sum search: the searching player's, a float)."""

    @property
    def move(self) -> Any:
        """The root's choice (a child :class:`~kop.games.trees.tree.Node`, a game's move, or a child
        rank on a list layout); None if none."""

    @property
    def path(self) -> Sequence[Any]:
        """The principal line from the root (nodes of a tree, or moves of a game)."""

    @property
    def nodes(self) -> int:
        """Nodes (states) the computation evaluated."""


class _MoveAndLeaves(Protocol):
    @property
    def move(self) -> int | None: ...

    @property
    def leaves(self) -> int: ...


class RootMoveResult:
    """``path`` and ``nodes`` of a result that knows its root move (a child rank) and its leaves examined.

    ``path`` is ``(move,)``, or ``()`` when there is no move: the searches on list layouts keep
    no principal line below the root.  ``nodes`` is ``leaves``: they count the leaves they examine.

    Examples
    --------
    >>> import kop
    >>> r = kop.expectimax(kop.figure2(), "A")
    >>> r.path, r.nodes
    ((0,), 12)
    """

    __slots__ = ()

    @property
    def path(self: _MoveAndLeaves) -> tuple[int, ...]:
        """The principal line from the root as child ranks, as far as the search keeps it: the root move."""
        return () if self.move is None else (self.move,)

    @property
    def nodes(self: _MoveAndLeaves) -> int:
        """The leaves examined (the searches count leaves, as the thesis does)."""
        return self.leaves
