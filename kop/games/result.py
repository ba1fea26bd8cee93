"""What every strategy and search answers: ``value``, ``move``, ``path``, ``nodes``.

:class:`~kop.games.strategies.strategy.Strategy` (and
:class:`~kop.games.strategies.alphabeta.AlphaBeta`) on whole trees and
:class:`~kop.games.search.result.SearchResult` on implicit games both follow
:class:`Result`: the root's value (one number per player), the root's choice,
the principal line from the root and the count of nodes the computation
evaluated.  A strategy also answers per node: ``next(n)``, ``value_at(n)``,
``path_from(n)``.

Examples
--------
>>> import kop
>>> from kop.games.result import Result
>>> t = kop.figure2()
>>> [isinstance(r, Result) for r in (kop.mh(t), kop.alphabeta(t), kop.search(t, "Mh"))]
[True, True, True]
>>> [r.value for r in (kop.mh(t), kop.search(t, "Mh"))]
[(10, 3), (10, 3)]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

__all__ = ["Result"]


@runtime_checkable
class Result(Protocol):
    """The shape every strategy and search result has (see the module docstring)."""

    @property
    def value(self) -> tuple[int | float, ...]:
        """The root's value: one number per player."""

    @property
    def move(self) -> Any:
        """The root's choice (a child :class:`~kop.games.trees.tree.Node` or a game's move); None if none."""

    @property
    def path(self) -> Sequence[Any]:
        """The principal line from the root (nodes of a tree, or moves of a game)."""

    @property
    def nodes(self) -> int:
        """Nodes (states) the computation evaluated."""
