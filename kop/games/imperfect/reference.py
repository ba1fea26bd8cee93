"""Brute-force references from the definitions, for testing the fast paths of recall and knowledge.

Nothing here is fast: each function enumerates the histories of the game (the paths from the
root, by a walk down the tree that does not use kop's parent arrays) and compares them directly.

* :func:`recall_reference`: Kuhn's definition (the sequences of the player's own
  (information set, action) pairs on the paths to any two nodes of one set are equal), and
  the three kinds by their definitions over pairs of nodes.
* :func:`knowledge_reference`: ``K_P atom`` at every history, by comparing the history with every
  other history in P's cell.
* :func:`beliefs_reference`: beliefs at an information set and the probability that it is visited
  at least once (gambitproject/gambit#826), from the probability of each history.

Example
-------
>>> import kop
>>> g = kop.forgetful_cards()
>>> recall_reference(g, "Ann")
(False, ('forgets-information',))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from kop.games.imperfect.game import InfoGame

__all__ = ["histories", "recall_reference", "knowledge_reference", "beliefs_reference"]

Step = tuple[int, int, str]  # (node, rank of the action taken there, the mover: player name, "chance")


def histories(game: InfoGame) -> Iterator[tuple[int, tuple[Step, ...]]]:
    """Every node with its history: the (node, action rank, mover) steps from the root to it.

    >>> import kop
    >>> [h for _, h in histories(kop.absent_minded_driver())][:3]
    [(), ((0, 0, 'Driver'),), ((0, 1, 'Driver'),)]
    """
    tree = game.tree
    stack: list[tuple[int, tuple[Step, ...]]] = [(0, ())]
    while stack:
        node, path = stack.pop()
        yield node, path
        lo, hi = int(tree.offsets[node]), int(tree.offsets[node + 1])
        k = int(tree.kind[node])
        mover = tree.players[k].name if k >= 0 else "chance"
        for r in range(hi - lo - 1, -1, -1):
            stack.append((lo + r, path + ((node, r, mover),)))


def recall_reference(game: InfoGame, player: str | int) -> tuple[bool, tuple[str, ...]]:
    """(Kuhn's perfect recall, the kinds of imperfect recall present), by pairs of histories.

    >>> import kop
    >>> recall_reference(kop.absent_minded_driver(), 0)
    (False, ('absent-minded',))
    """
    name = game.players[game.player_index(player)]
    paths = dict(histories(game))
    # an action is its position in its set: two actions of a set may have one name (Gambit allows it)
    mine = {x: [(int(game.node_set[n]), r) for n, r, who in p if who == name] for x, p in paths.items()}
    perfect = True
    kinds: set[str] = set()
    for h in game.sets:
        if h.player != name:
            continue
        for x in h.nodes:
            for y in h.nodes:
                if mine[x] != mine[y]:
                    perfect = False
                if any(n == x for n, _, _ in paths[y]):
                    kinds.add("absent-minded")
                seen_x = {s for s, _ in mine[x]} - {h.index}
                seen_y = {s for s, _ in mine[y]}
                if seen_x - seen_y:
                    kinds.add("forgets-information")
                for s, a in mine[x]:
                    if s != h.index and s in seen_y and (s, a) not in mine[y]:
                        kinds.add("forgets-action")
    order = ("forgets-information", "forgets-action", "absent-minded")
    return perfect, tuple(k for k in order if k in kinds)


def knowledge_reference(game: InfoGame, player: str | int, atom: Callable[[tuple[Step, ...], int], bool],
                        states: bool = False) -> dict[int, bool]:
    """Node -> whether *player* knows *atom* there (true at every history of the player's cell).

    *atom* is a predicate of (history, node).  The cell of a history: with *states*, the histories
    with the same information state (:attr:`InfoGame.states`); else, at the player's own nodes,
    the histories ending in the same information set, and elsewhere the history alone.

    >>> import kop
    >>> g = kop.forgetful_cards()
    >>> high = lambda path, node: any(n == 0 and r == 0 for n, r, _ in path)
    >>> k = knowledge_reference(g, "Ann", high)
    >>> k[1], k[7]
    (True, False)
    """
    p = game.player_index(player)
    paths = dict(histories(game))
    truth = {x: atom(path, x) for x, path in paths.items()}

    def cell(x: int) -> Any:
        if states:
            assert game.states is not None
            return ("state", int(game.states[game.players[p]][x]))
        if int(game.tree.kind[x]) == p:
            return ("set", int(game.node_set[x]))
        return ("node", x)

    out = {}
    for x in paths:
        cx = cell(x)
        out[x] = all(truth[y] for y in paths if cell(y) == cx)
    return out


def beliefs_reference(game: InfoGame, infoset: int, behaviour: list[list[float]]) -> tuple[dict[int, float], float]:
    """(node -> belief, probability that the set is visited at least once) at set *infoset*, with
    *behaviour* giving the probabilities of every set's actions (chance from the tree).

    A history's probability is the product of its steps'; the belief at a node of the set is its
    probability over the sum over the set's nodes; the set is visited at least once on a play
    exactly when the play passes through a node of the set with no earlier node of the set.

    >>> import kop
    >>> g = kop.absent_minded_driver()
    >>> b, once = beliefs_reference(g, 0, [[0.5, 0.5]])
    >>> {k: round(v, 4) for k, v in b.items()}, once
    ({0: 0.6667, 2: 0.3333}, 1.0)
    """
    tree = game.tree
    prob: dict[int, float] = {}
    for node, path in histories(game):
        pr = 1.0
        for n, r, who in path:
            if who == "chance":
                assert tree.probs is not None
                pr *= float(tree.probs[int(tree.offsets[n]) + r])
            else:
                pr *= behaviour[int(game.node_set[n])][r]
        prob[node] = pr
    paths = dict(histories(game))
    members = [x for x in prob if int(game.node_set[x]) == infoset and int(game.tree.kind[x]) >= 0]
    total = sum(prob[x] for x in members)
    firsts = [x for x in members if not any(int(game.node_set[n]) == infoset for n, _, _ in paths[x])]
    once = sum(prob[x] for x in firsts)
    if total <= 0:
        return {}, once
    return {x: prob[x] / total for x in sorted(members)}, once
