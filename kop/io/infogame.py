"""Gambit ``.efg`` files with their information sets: :class:`~kop.games.imperfect.game.InfoGame` read and written.

The tree comes from :mod:`kop.io.efg`'s reader, which also numbers each player's personal
information sets as the file does; :func:`~kop.games.imperfect.game.numbered_sets` turns those into
:class:`~kop.games.imperfect.game.InfoSet` values, checking that the nodes of a set list the same
actions.

Example
-------
>>> import kop
>>> g = loads_game('EFG 2 R "" { "A" "B" } p "" 1 1 "" { "x" "y" } 0 '
...                'p "" 2 1 "" { "l" "r" } 0 t "" 1 "" { 1 0 } t "" 0 '
...                'p "" 2 1 "" { "l" "r" } 0 t "" 0 t "" 1')
>>> loads_game(dumps_game(g)).sets == g.sets
True
"""

from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path

import numpy as np

from kop.errors import KopError
from kop.games.errors import EfgError, TreeError
from kop.games.imperfect.game import InfoGame, numbered_sets
from kop.games.trees.tree import CHANCE, LEAF as LEAF_KIND
from kop.io.efg import _numbers, _q, read_efg_sets
from kop.syntax import arguments
from kop.syntax.files import read_text

__all__ = ["load_game", "loads_game", "dumps_game"]


def loads_game(text: str, name: str = "") -> InfoGame:
    """A game with information sets from the text of a Gambit ``.efg`` file.

    Parameters
    ----------
    text : str
        The ``.efg`` text (version 2).
    name : str
        Where it comes from (kept as :attr:`InfoGame.name`).

    Returns
    -------
    InfoGame
        Gambit's personal information sets, in order of first appearance, numbered as in the file.

    Raises
    ------
    EfgError
        Located (line and column): as :func:`kop.loads_efg`, and a further node of a set that
        lists other actions (another number, or other names).

    Examples
    --------
    >>> import kop
    >>> try:
    ...     kop.loads_game('EFG 2 R "" { "A" "B" }\\np "" 1 1 "" { "x" "y" } 0\\n'
    ...                    'p "" 2 1 "" { "l" "r" } 0\\nt "" 1 "" { 1 0 }\\nt "" 0\\n'
    ...                    'p "" 2 1 "" { "l" "m" } 0\\nt "" 0\\nt "" 1\\n')
    ... except kop.TreeError as err:
    ...     print(err)
    line 6, column 13: information set 1 of player 2 (B) has 2 actions { "l" "r" } (at line 3, column 1); this node gives it other action names { "l" "m" }
    """
    r = read_efg_sets(text)
    return InfoGame(r.tree, r.node_set, numbered_sets(r.tree, r.node_set, r.keys, r.lines), name=name)


def load_game(path: str | os.PathLike[str]) -> InfoGame:
    """A game with information sets from a Gambit ``.efg`` file (a perfect-information game too).

    Parameters
    ----------
    path : str or os.PathLike
        The ``.efg`` file (read with kop's guarded reader: a regular file within the size cap).

    Returns
    -------
    InfoGame

    Raises
    ------
    EfgError
        The file name, then the line and column at fault.

    Examples
    --------
    >>> import kop
    >>> from kop.games.imperfect.examples import example_path
    >>> kop.load_game(example_path("driver"))
    InfoGame(players=('Driver',), nodes=5, sets=1, perfect_information=False)
    """
    p = Path(arguments.path(path, "path"))
    if not p.exists() and not p.is_symlink():
        raise EfgError(f"{p}: no such file")
    try:
        text = read_text(p, what="game file")
    except KopError as exc:
        raise EfgError(str(exc)) from None
    try:
        return loads_game(text, name=str(p))
    except TreeError as exc:
        raise type(exc)(f"{p}: {exc}") from None


def dumps_game(game: InfoGame, title: str = "kop game", labels: bool = True) -> str:
    """Gambit ``.efg`` text of a game with its information sets (read back by :func:`loads_game`).

    Parameters
    ----------
    game : InfoGame
        The game.
    title : str
        The game's title.
    labels : bool
        Whether to write the node labels, action and player names (Gambit 17 requires labels
        unique and without double spaces; False writes no node labels, actions by position and
        players as ``p1``, ``p2``, ...).

    Returns
    -------
    str
        The text: nodes in prefix order, each set numbered per player in order of first
        appearance, its actions listed at every node; payoffs of ``min`` players negated and the
        goals in the comment, as :func:`kop.dumps_efg` does.

    Examples
    --------
    >>> import kop
    >>> g = kop.absent_minded_driver()
    >>> print(dumps_game(g, "driver"))
    EFG 2 R "driver" { "Driver" }
    "kop-goals: Driver=max"
    <BLANKLINE>
    p "" 1 1 "" { "Exit" "Continue" } 0
    t "" 1 "" { 0 }
    p "Continue" 1 1 "" { "Exit" "Continue" } 0
    t "" 2 "" { 4 }
    t "" 3 "" { 1 }
    <BLANKLINE>
    >>> g2 = kop.loads_game(dumps_game(g))
    >>> g2.tree == g.tree and [s.nodes for s in g2.sets] == [s.nodes for s in g.sets]
    True
    """
    arguments.instance(game, InfoGame, "game", "an InfoGame (kop.load_game, kop.game_from_openspiel, ...)")
    tree = game.tree
    names = [p.name for p in tree.players] if labels else [f"p{k + 1}" for k in range(len(tree.players))]
    simple = all(n.split() == [n] and "=" not in n for n in names)
    goals = " ".join(f"{n}={p.goal}" if simple else p.goal for n, p in zip(names, tree.players))
    lines = [f"EFG 2 R {_q(title)} {{ {' '.join(_q(n) for n in names)} }}", _q(f"kop-goals: {goals}"), ""]
    signs = np.array([p.sign for p in tree.players], dtype=np.float64)
    numbers: dict[int, int] = {}
    per_player = [0] * len(tree.players)
    chance_sets = 0
    leaf_rows = tree.leaf_rows()
    stack = [0]
    offsets, kind = tree.offsets, tree.kind
    outcome = 0
    while stack:
        i = stack.pop()
        k = int(kind[i])
        name = _q(tree.labels.get(i, "")) if labels else '""'
        lo, hi = int(offsets[i]), int(offsets[i + 1])
        if k == LEAF_KIND:
            outcome += 1
            pays = " ".join(_numbers(tree.payoffs[int(leaf_rows[i])] * signs, tree.integral))
            lines.append(f"t {name} {outcome} \"\" {{ {pays} }}")
            continue
        if k == CHANCE:
            chance_sets += 1
            assert tree.probs is not None
            ps = _exact(tree.probs[lo:hi])
            acts = [_q((tree.moves.get(j) if labels else None) or str(j - lo)) for j in range(lo, hi)]
            lines.append(f"c {name} {chance_sets} \"\" {{ {' '.join(f'{a} {p}' for a, p in zip(acts, ps))} }} 0")
        else:
            h = game.sets[int(game.node_set[i])]
            if h.index not in numbers:
                per_player[k] += 1
                numbers[h.index] = per_player[k]
            acts_text = " ".join(_q(a) if labels else f'"{r}"' for r, a in enumerate(h.actions))
            lines.append(f"p {name} {k + 1} {numbers[h.index]} \"\" {{ {acts_text} }} 0")
        stack.extend(range(hi - 1, lo - 1, -1))
    return "\n".join(lines) + "\n"


def _exact(probs: np.ndarray) -> list[str]:
    """Probabilities as short fractions that sum to exactly 1 and read back as the same floats
    (Gambit checks the sum exactly), else as decimals."""
    xs = probs.tolist()
    fr = [Fraction(x).limit_denominator(10**9) for x in xs]
    if fr:
        fr[-1] = 1 - sum(fr[:-1], Fraction(0))
    if fr and all(float(f) == x and f >= 0 for f, x in zip(fr, xs)):
        return [str(f) for f in fr]
    return _numbers(probs, False)
