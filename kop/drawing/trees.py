"""Pictures of game trees: payoffs at the leaves, decided nodes marked, a play highlighted.

Every internal node is a circle with the name of the player who moves there
(chance nodes are grey diamonds with their edge probabilities; a simultaneous-move
node is a square naming its players, ``A|B``, its edges the joint moves ``0,1``); its label, when
it has one, stands beside it, and move labels sit on the edges.  Leaves show
their payoff vector.  Decided nodes (Definition 6, by the corrected Decide) are filled green, and
a play (``play=``: an :class:`~kop.games.strategies.play.Outcome` or any root-first path) is drawn
as thick red edges ending at a bold payoff.

The layout is the classic layered one: leaves evenly spaced in order, each
parent centred over its children, one row per depth.

Drawing uses matplotlib, an optional extra: ``pip install '.[draw]'`` in kop's source folder
(or ``pip install matplotlib``).

Example
-------
>>> import kop
>>> from kop.drawing.trees import tree_svg
>>> t = kop.figure2()
>>> svg = tree_svg(t, play=kop.play(t, {"A": "M2", "B": "M1"}))
>>> "</svg>" in svg
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from kop.games.trees.layout import CHANCE, LEAF, SIMULTANEOUS
from kop.drawing.models import figure_svg, require_matplotlib
from kop.errors import LimitError

if TYPE_CHECKING:  # pragma: no cover
    from kop.games.trees.tree import GameTree, Node
    from matplotlib.figure import Figure

__all__ = ["draw_tree", "tree_svg", "tree_layout", "MAX_DRAWN_NODES"]

#: the doctests need this optional package (kop/conftest.py skips them without it)
__doctest_requires__ = ("matplotlib",)

#: trees with more nodes are refused: draw a subtree or a shallower expansion
MAX_DRAWN_NODES = 2_000
_DECIDED = "#b7e4b0"
_PATH = "#c0392b"


def tree_layout(tree: GameTree) -> np.ndarray:
    """``(nodes, 2)`` coordinates: leaves at x = 0, 1, 2, ... in order, parents centred, y = -depth.

    Example
    -------
    >>> import kop
    >>> tree_layout(kop.GameTree.build(["A", "B"], ("A", [(1, 2), (3, 4)]))).tolist()
    [[0.5, 0.0], [0.0, -1.0], [1.0, -1.0]]
    """
    n = len(tree)
    xy = np.zeros((n, 2))
    offsets = tree.offsets
    # breadth-first storage: parents come before children, leaves of one depth are in order,
    # so numbering leaves by a depth-first walk gives the left-to-right order
    order: list[int] = []
    stack = [0]
    while stack:
        i = stack.pop()
        order.append(i)
        stack.extend(range(int(offsets[i + 1]) - 1, int(offsets[i]) - 1, -1))
    depth = np.zeros(n)
    for i in order:
        lo, hi = int(offsets[i]), int(offsets[i + 1])
        depth[lo:hi] = depth[i] + 1
    x = 0.0
    for i in order:
        if offsets[i + 1] == offsets[i]:
            xy[i, 0] = x
            x += 1.0
    for i in reversed(order):
        lo, hi = int(offsets[i]), int(offsets[i + 1])
        if hi > lo:
            xy[i, 0] = (xy[lo, 0] + xy[hi - 1, 0]) / 2
    xy[:, 1] = 0.0 - depth  # 0.0 - 0 is 0.0, where -0 would print as -0.0
    return xy


def _indices(tree: GameTree, nodes: Any) -> set[int]:
    """Node indices from a Decision, a bool per node, or node references."""
    if nodes is None:
        return set()
    flags = getattr(nodes, "decided", None)
    if flags is not None:
        nodes = flags
    items = list(nodes)
    if items and all(isinstance(b, (bool, np.bool_)) for b in items):
        if len(items) != len(tree):
            raise LimitError(f"decided: {len(items)} flags for a tree of {len(tree)} nodes")
        return {i for i, b in enumerate(items) if b}
    return {tree.node(r).index for r in items}


def _path(tree: GameTree, path: Any) -> list[int]:
    if path is None:
        return []
    nodes: Iterable[Any] = getattr(path, "path", path)
    out = [tree.node(r).index for r in nodes]
    for a, b in zip(out, out[1:]):
        if tree.parent_index(b) != a:
            raise LimitError(f"the path to highlight is not a path of the tree: {tree.path_name(b)} "
                             f"is not a child of {tree.path_name(a)}")
    return out


def _payoff_text(node: Node) -> str:
    return "(" + ",".join(f"{v:g}" if isinstance(v, float) else str(v) for v in node.payoff or ()) + ")"


def draw_tree(tree: GameTree, *, decided: Any = None, play: Any = None, title: str | None = None,
              caption: str | None = None) -> Figure:
    """Draw *tree* with its payoffs, the *decided* nodes filled and the play *path* highlighted.

    Parameters
    ----------
    tree : GameTree
        At most :data:`MAX_DRAWN_NODES` nodes.
    decided : Decision, sequence of bool, or node references, optional
        The nodes to mark as decided (a :class:`~kop.selection.decide.Decision` works as is).
    play : Outcome or sequence of node references, optional
        A root-first play to highlight, e.g. ``kop.play(tree, {...})`` or ``strategy.path``.
    title, caption : str, optional
        Text above and below the picture.

    Returns
    -------
    matplotlib.figure.Figure
        Each node's mark has the SVG id ``kop-node-I`` (I its index in the tree).

    Example
    -------
    >>> import kop
    >>> t = kop.figure2()
    >>> fig = draw_tree(t, decided=["R", "T"], play=kop.strategy(t, "Mh").path, title="M^h")
    >>> fig.axes[0].get_title()
    'M^h'
    """
    figure_class = require_matplotlib()
    if len(tree) > MAX_DRAWN_NODES:
        raise LimitError(f"the tree has {len(tree)} nodes; kop draws at most {MAX_DRAWN_NODES} "
                         "(draw a subtree, or expand the game less deeply)")
    xy = tree_layout(tree)
    marked = _indices(tree, decided)
    line = _path(tree, play)
    on_path = set(zip(line, line[1:]))
    width = max(4.0, min(40.0, 0.85 * tree.n_leaves + 1.5))
    height = max(2.5, min(20.0, 1.15 * (tree.height + 1) + 0.6))
    fig: Figure = figure_class(figsize=(width, height))
    ax = fig.add_subplot()
    ax.set_axis_off()
    _draw_edges(ax, tree, xy, on_path)
    for i in range(len(tree)):
        _draw_node(ax, tree, i, xy[i], marked, line)
    from matplotlib.lines import Line2D

    handles = []
    if marked:
        handles.append(Line2D([0], [0], marker="o", color="white", markerfacecolor=_DECIDED,
                              markeredgecolor="black", markersize=10, lw=0, label="decided"))
    if line:
        handles.append(Line2D([0], [0], color=_PATH, lw=3, label="play"))
    if handles:
        ax.legend(handles=handles, loc="upper right", frameon=False, fontsize=8)
    ax.margins(x=0.06, y=0.18)
    if title:
        ax.set_title(title)
    if caption:
        fig.text(0.5, 0.01, caption, ha="center", va="bottom", fontsize=9)
    return fig


def _draw_edges(ax: Any, tree: GameTree, xy: Any, on_path: set[tuple[int, int]]) -> None:
    """Every edge, thick on the play's path, with its move (and a chance move's probability) half-way."""
    kinds = tree.kind
    offsets = tree.offsets
    for i in range(len(tree)):
        lo, hi = int(offsets[i]), int(offsets[i + 1])
        for c in range(lo, hi):
            hot = (i, c) in on_path
            ax.plot([xy[i, 0], xy[c, 0]], [xy[i, 1], xy[c, 1]], color=_PATH if hot else "#888888",
                    linewidth=3.2 if hot else 1.0, zorder=1 if not hot else 2, solid_capstyle="round")
            text = tree.node(c).move
            if kinds[i] == CHANCE and tree.probs is not None:
                p = float(tree.probs[c])
                text = f"{text} {p:.3g}" if text else f"{p:.3g}"
            elif kinds[i] == SIMULTANEOUS and not text:
                text = _joint_move(tree, i, c - lo)
            if text:
                mx, my = (xy[i, 0] + xy[c, 0]) / 2, (xy[i, 1] + xy[c, 1]) / 2
                ax.text(mx, my, text, fontsize=7, ha="center", va="center", color="#333333", zorder=4,
                        bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.85})


def _draw_node(ax: Any, tree: GameTree, i: int, at: Any, marked: set[int], line: list[int]) -> None:
    """Node *i* at *at*: a leaf's payoffs (bold at the play's end), a chance node's diamond, a mover's
    circle (a square for simultaneous moves; filled where *marked* decided), and its label."""
    x, y = at
    node = tree.node(i)
    k = int(tree.kind[i])
    players = tree.player_names
    if k == LEAF:
        bold = bool(line) and i == line[-1]
        ax.text(x, y - 0.08, _payoff_text(node), ha="center", va="top", fontsize=8, zorder=3,
                fontweight="bold" if bold else "normal", color=_PATH if bold else "black")
        ax.plot([x], [y], marker="s", markersize=4, color=_PATH if bold else "#555555", zorder=3,
                gid=f"kop-node-{i}")
    elif k == CHANCE:
        ax.plot([x], [y], marker="D", markersize=13, color="#d0d0d0", markeredgecolor="black", zorder=3,
                gid=f"kop-node-{i}")
        ax.text(x, y, "c", ha="center", va="center", fontsize=8, zorder=4)
    elif k == SIMULTANEOUS:
        face = _DECIDED if i in marked else "white"
        who = "|".join(players[j] for j in tree.simultaneous[i][0])
        ax.plot([x], [y], marker="s", markersize=19, color=face, markeredgecolor="#333333",
                markeredgewidth=1.5, zorder=3, gid=f"kop-node-{i}")
        ax.text(x, y, who, ha="center", va="center", fontsize=7, fontweight="bold", zorder=4)
    else:
        face = _DECIDED if i in marked else "white"
        ax.plot([x], [y], marker="o", markersize=17, color=face, markeredgecolor="#333333",
                markeredgewidth=1.5, zorder=3, gid=f"kop-node-{i}")
        ax.text(x, y, players[k], ha="center", va="center", fontsize=8, fontweight="bold", zorder=4)
    if node.label and k != LEAF:
        ax.text(x + 0.17, y + 0.14, node.label, ha="left", va="bottom", fontsize=8, style="italic",
                color="#222222", zorder=4)


def _joint_move(tree: GameTree, i: int, rank: int) -> str:
    """The joint move of child *rank* of simultaneous node *i*: each player's move index, e.g. ``"1,0"``."""
    dims = tree.simultaneous[i][1]
    picks = []
    for d in reversed(dims):
        rank, r = divmod(rank, d)
        picks.append(r)
    return ",".join(map(str, reversed(picks)))


def tree_svg(tree: GameTree, **options: Any) -> str:
    """SVG text of :func:`draw_tree` (same options)."""
    return figure_svg(draw_tree(tree, **options))
