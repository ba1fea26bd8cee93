"""The paper's worked example: the game tree of Figure 2 of Sang & Chen, built in code.

The figure is not in the paper's text; this reconstruction reproduces every
number the paper states (the leaves (5,6), (6,10) and (11,12) are chosen
within the stated inequalities).  ``theories/figure2.json``, ``.efg`` and
``.kop`` hold the same tree (the suite checks them against this one).

Example
-------
>>> from kop.games.trees.examples import figure2
>>> t = figure2()
>>> t
GameTree(players=(A:max, B:min), nodes=22, leaves=12, height=4)
>>> t.find("X").children[0].payoff
(10, 3)
"""

from __future__ import annotations

from typing import Any

from kop.games.trees.tree import GameTree

__all__ = ["figure2"]


def figure2() -> GameTree:
    """The game tree of Figure 2: A maximizes E_A, B minimizes E_B.

    Returns
    -------
    GameTree
        22 nodes labelled ``root``, ``R``, ``S``, ``T``, ``U``, ``V``, ``W``, ``X``, ``Y``, ``Z``
        and twelve leaves.

    References
    ----------
    Sang & Chen, *Beyond Minimax*, Figure 2 and Section "Examples".

    Examples
    --------
    >>> import kop
    >>> kop.mh(figure2()).value
    (10, 3)
    """
    def b(label: str, *kids: Any) -> dict[str, Any]:
        return {"label": label, "player": "B", "children": list(kids)}

    def a(label: str, *kids: Any) -> dict[str, Any]:
        return {"label": label, "player": "A", "children": list(kids)}

    def leaf(x: int, y: int) -> dict[str, Any]:
        return {"payoff": [x, y]}

    root = a("root",
             b("R", leaf(4, 7), leaf(8, 9)),
             b("S",
               a("U", b("W", leaf(7, 4), leaf(5, 6)), b("X", leaf(10, 3), leaf(6, 10))),
               a("V", b("Y", leaf(3, 8), leaf(1, 9)), b("Z", leaf(2, 2), leaf(11, 12)))),
             b("T", leaf(9, 4), leaf(1, 5)))
    return GameTree.from_dict({"format": "kop-tree/1",
                               "players": [{"name": "A", "goal": "max"}, {"name": "B", "goal": "min"}],
                               "root": root})
