"""Expand an implicit game into kop's array tree (``GameTree.from_game``), when it fits.

The tree is built breadth first from *state* (default: the initial state) to
*depth* plies (None: to the end).  Children keep the order of the legal moves
(so ties break alike), edges carry the move names, leaves carry the evaluation
vector (each player's evaluation function, else the game's payoff at terminal
states).  Past *node_limit* nodes the expansion stops with a
:class:`~kop.games.errors.LimitError`; search the game instead
(:func:`kop.search`).  Transpositions are expanded once per path: the tree is a
tree.

Examples
--------
>>> import kop
>>> t = kop.GameTree.from_game(kop.nim())
>>> t, kop.minimax(t).value
(GameTree(players=(MAX:max, MIN:min), nodes=15, leaves=6, height=4), (-1, -1))
"""

from __future__ import annotations

from collections import deque
from typing import Any

from kop.games.errors import LimitError
from kop.games.search.implicit import CHANCE, Evaluations, GameView, state_text
from kop.games.search.result import depth_key
from kop.games.trees.layout import CHANCE as TREE_CHANCE
from kop.games.trees.layout import LEAF, Layout

__all__ = ["expand_layout", "DEFAULT_NODE_LIMIT"]

#: the default largest tree ``from_game`` builds
DEFAULT_NODE_LIMIT = 2_000_000


def expand_layout(game: Any, depth: int | None = None, *, state: Any = None, evaluations: Evaluations = None,
                  node_limit: int = DEFAULT_NODE_LIMIT) -> Layout:
    """The layout of the game tree of *game* below *state*, to *depth* plies (see the module docstring).

    :meth:`kop.GameTree.from_game` wraps it in a tree.

    Examples
    --------
    >>> import kop
    >>> lay = expand_layout(kop.nim())
    >>> len(lay.kind), lay.moves[1]
    (15, 'take 1 from pile of 2')
    """
    view = game if isinstance(game, GameView) else GameView(game, evaluations)
    d = depth_key(depth)
    if isinstance(node_limit, bool) or not isinstance(node_limit, int) or node_limit < 1:
        raise LimitError(f"node_limit must be a positive integer, not {node_limit!r}")
    root = view.initial_state() if state is None else state
    kind: list[int] = []
    offsets: list[int] = []
    payoffs: list[float] = []
    probs: dict[int, float] = {}
    moves: dict[int, str] = {}
    queue: deque[tuple[Any, int]] = deque([(root, d)])
    next_free = 1
    while queue:
        s, left = queue.popleft()
        offsets.append(next_free)
        terminal = view.is_terminal(s)
        if terminal or left == 0:
            payoffs.extend(view.leaf(s, terminal))
            kind.append(LEAF)
            continue
        who = view.mover(s)
        if who == CHANCE:
            pairs = view.chance(s)
            ms = [m for m, _ in pairs]
            for j, (_, p) in enumerate(pairs):
                probs[next_free + j] = p
            kind.append(TREE_CHANCE)
        else:
            ms = view.moves(s)
            kind.append(who)
        if next_free + len(ms) > node_limit:
            raise LimitError(f"the game from {state_text(root)} has more than {node_limit} nodes"
                             f"{'' if d < 0 else f' to depth {d}'}; use kop.search, a smaller depth "
                             "or a larger node_limit")
        cd = left - 1 if left > 0 else left
        for j, m in enumerate(ms):
            moves[next_free + j] = view.move_name(s, m)
            queue.append((view.child(s, m), cd))
        next_free += len(ms)
    offsets.append(next_free)
    return Layout.from_lists(tuple(view.players), offsets, kind, payoffs, probs, None, moves)
