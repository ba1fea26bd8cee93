"""Random games with information sets (for property tests and benchmarks).

:func:`random_info_game` draws a tree with :func:`kop.random_tree` and groups each player's nodes
into information sets of nodes with the same number of actions, level by level:

* with probability ``1 - forget``, a level's nodes are grouped only with nodes of the same
  own history (the player's (set, action) pairs above them), so that the level keeps perfect
  recall;
* else they are grouped regardless of what the player saw or did (forgetting);
* with probability ``absent``, a node joins the set of one of its own ancestors with as many
  actions (absent-mindedness).

``group`` is the chance that a node joins an existing set of its group rather than opening a
new one.  The game is a function of the arguments and *seed*.

Example
-------
>>> import kop
>>> g = random_info_game(depth=4, seed=1)
>>> g
InfoGame(players=('A', 'B'), nodes=31, sets=10, perfect_information=False)
>>> kop.perfect_recall(random_info_game(depth=5, forget=0.0, absent=0.0, seed=7))
True
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np

from kop.syntax import arguments
from kop.games.imperfect.game import InfoGame, InfoSet
from kop.games.imperfect.recall import own_sequences
from kop.games.trees.random_trees import random_tree

__all__ = ["random_info_game"]


def random_info_game(depth: int = 4, branching: int | tuple[int, int] = 2, *, players: Sequence[str] = ("A", "B"),
                     chance_prob: float = 0.1, leaf_prob: float = 0.1, group: float = 0.6, forget: float = 0.3,
                     absent: float = 0.05, max_nodes: int | None = None, seed: int | None = None) -> InfoGame:
    """A random game with information sets (see the module docstring).

    Parameters
    ----------
    depth, branching, players, chance_prob, leaf_prob, max_nodes
        As for :func:`kop.random_tree` (movers drawn at random, every player maximizes).
    group, forget, absent : float
        The chances that a node joins an existing set, that a level forgets, that a node joins
        an ancestor's set.
    seed : int, optional
        The seed.

    Returns
    -------
    InfoGame

    Examples
    --------
    >>> random_info_game(depth=3, branching=3, players=("A",), seed=1).players
    ('A',)
    """
    players = arguments.items(players, "players", "a sequence of player names")
    for name, value in (("group", group), ("forget", forget), ("absent", absent)):
        arguments.real(value, name, minimum=0.0, maximum=1.0)
    rng = np.random.default_rng(arguments.seed(seed))
    tree = random_tree(depth=depth, branching=branching, players=list(players), goals="max", leaf_prob=leaf_prob,
                       chance_prob=chance_prob, movers="random", max_nodes=max_nodes,
                       seed=int(rng.integers(2**31)))
    n = len(tree)
    kind = tree.kind
    arity = np.diff(tree.offsets.astype(np.int64))
    node_set = np.full(n, -1, dtype=np.int64)
    members: list[list[int]] = []
    owner: list[int] = []
    game = InfoGame(tree, node_set, [])
    parent = game.parents
    levels = tree.levels
    for d in range(len(levels) - 1):
        s, e = int(levels[d]), int(levels[d + 1])
        if s >= e:
            break
        # own histories so far (the sets above this level are fixed)
        seqs = {k: own_sequences(InfoGame(tree, node_set, []), k) for k in range(len(players))} if d else {}
        open_sets: dict[Hashable, list[int]] = {}
        forgets = rng.random() < forget
        for i in range(s, e):
            k = int(kind[i])
            if k < 0:
                continue
            if absent and rng.random() < absent:
                ancestors = []
                a = int(parent[i])
                while a >= 0:
                    if int(kind[a]) == k and arity[a] == arity[i]:
                        ancestors.append(a)
                    a = int(parent[a])
                if ancestors:
                    j = int(node_set[ancestors[int(rng.integers(len(ancestors)))]])
                    node_set[i] = j
                    members[j].append(i)
                    continue
            key: Hashable = (k, int(arity[i])) if forgets or not d else (k, int(arity[i]), int(seqs[k][i]))
            candidates = open_sets.setdefault(key, [])
            if candidates and rng.random() < group:
                j = candidates[int(rng.integers(len(candidates)))]
            else:
                j = len(members)
                members.append([])
                owner.append(k)
                candidates.append(j)
            node_set[i] = j
            members[j].append(i)
    numbers = [0] * len(players)
    sets = []
    for j, nodes in enumerate(members):
        numbers[owner[j]] += 1
        first = nodes[0]
        acts = tuple(str(r) for r in range(int(arity[first])))
        sets.append(InfoSet(j, players[owner[j]], numbers[owner[j]], acts, tuple(sorted(nodes))))
    return InfoGame(tree, node_set, sets)
