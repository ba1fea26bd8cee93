"""Inline games: the nested syntax of a theory turned into a :class:`~kop.games.trees.tree.GameTree`.

::

    players A max, B min
    game root: A {
      R: B { (4,7) (8,9) }
      T: B { left -> (9,4)  right -> (1,5) }
      N: chance { 1/2 -> (1,0)  tails 1/2 -> (0,1) }
    }

Errors (a leaf with the wrong number of payoffs, an unknown mover, a chance
node whose probabilities do not sum to 1, ...) are located at the node.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kop.games.trees.tree import GameTree
from kop.syntax.budget import MAX_NESTING, recursion_room
from kop.errors import KopError
from kop.theory.model import GameNode

__all__ = ["build_game", "MAX_GAME_NODES"]

#: The most nodes an inline game may have.
MAX_GAME_NODES = 1_000_000


def _num(x: Any) -> Any:
    return float(x) if isinstance(x, Fraction) else x


def build_game(root: GameNode, players: list[tuple[str, str]]) -> GameTree:
    """The tree of an inline game for *players* (name, goal) in payoff order."""
    names = [p for p, _ in players]
    count = 0

    def conv(n: GameNode, move: str | None, depth: int, where: str = "root") -> dict[str, Any]:
        nonlocal count
        count += 1
        if count > MAX_GAME_NODES:
            raise n.pos.error(f"an inline game may have at most {MAX_GAME_NODES} nodes")
        out: dict[str, Any] = {}
        if n.label is not None:
            out["label"] = n.label
        if move is not None:
            out["move"] = move
        if n.mover is None:
            if len(n.payoff) != len(names):
                raise n.pos.error(f"a leaf needs {len(names)} payoffs, one per player ({', '.join(names)}); "
                                  f"this one has {len(n.payoff)}", n.label or "(")
            out["payoff"] = [_num(x) for x in n.payoff]
            return out
        kids = n.children
        if n.mover == "chance":
            probs = []
            for mv, p, c in kids:
                if p is None:
                    raise c.pos.error("every child of a chance node needs a probability: PROB -> NODE")
                if p < 0:
                    raise c.pos.error("a probability must be >= 0", str(p))
                probs.append(Fraction(p))
            if sum(probs) != 1:
                name = repr(n.label) if n.label else f"{where} (unlabelled)"
                raise n.pos.error(f"the probabilities of chance node {name} sum to {sum(probs)}, not 1",
                                  n.label or "chance")
            out["chance"] = [float(p) for p in probs]
        else:
            if n.mover not in names:
                raise (n.mover_pos or n.pos).error(
                    f"unknown mover {n.mover!r}: the players are {', '.join(names)} (or 'chance')", n.mover)
            for _, p, c in kids:
                if p is not None:
                    raise c.pos.error("only children of a chance node carry a probability")
            out["player"] = n.mover
        if depth > 10_000:
            raise n.pos.error("the game is nested too deeply")
        out["children"] = [conv(c, mv, depth + 1, f"{where}/{i}") for i, (mv, _, c) in enumerate(kids)]
        return out

    with recursion_room(3 * MAX_NESTING):  # the theory's text nests at most MAX_NESTING levels
        doc = {"format": "kop-tree/1", "players": [{"name": p, "goal": g} for p, g in players],
               "root": conv(root, None, 0)}
    try:
        return GameTree.from_dict(doc)
    except KopError as exc:
        raise root.pos.error(f"in the game: {exc}") from None


def players_of(root: GameNode) -> list[str]:
    """The movers of an inline game, in order of first appearance."""
    seen: dict[str, None] = {}
    stack = [root]
    while stack:
        n = stack.pop()
        if n.mover is not None and n.mover != "chance":
            seen.setdefault(n.mover)
        stack.extend(c for _, _, c in reversed(n.children))
    return list(seen)
