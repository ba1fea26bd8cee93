"""Search on implicit games: minimax, alpha-beta, M^d (M*), M^h, HM0M^d and PrOM, depth-limited.

The games themselves (:mod:`~kop.games.search.implicit`: :class:`ImplicitGame`,
:class:`TreeGame`, :class:`Nim`; :mod:`~kop.games.search.openspiel`), their
expansion into a tree (:mod:`~kop.games.search.expand`) and one module per
algorithm.  :func:`kop.search` (:mod:`kop.games.registry`) runs them by name.
Every search returns a :class:`SearchResult` (value, move, principal variation,
node count) and makes exactly the choices the array engine makes on the
expanded tree (:func:`kop.games.search.expand.expand`), ties to the first move.

Example
-------
>>> from kop.games.search import alphabeta_search
>>> from kop.games.search.implicit import nim
>>> alphabeta_search(nim()).value
(-1, -1)
"""

from __future__ import annotations

from kop.games.search.mh import hm0m_search, mh_search
from kop.games.search.minimax import alphabeta_search, minimax_search
from kop.games.search.mstar import mstar_search
from kop.games.search.result import SearchResult

__all__ = ["SearchResult", "minimax_search", "alphabeta_search", "mstar_search", "mh_search", "hm0m_search"]
