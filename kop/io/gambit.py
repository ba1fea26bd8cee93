"""Gambit, both ways: ``kop.from_gambit(game)`` and ``kop.to_gambit(tree)`` with pygambit.

pygambit (optional: ``pip install pygambit``) is the Python interface of the
Gambit tools for game theory.  The bridge carries perfect-information extensive
games between its ``Game`` and kop's :class:`~kop.GameTree` through the
``.efg`` format both read and write (:mod:`kop.io.efg`), so it holds across
pygambit's versions: node and action names, chance probabilities (exact
fractions), payoffs and kop's goals (recorded in the file's comment, see
:mod:`kop.io.efg`) survive the round trip.  A Gambit game with an
information set of more than one node is a game of imperfect information, which
kop's trees do not hold: it is refused with a message naming the set.

Example
-------
>>> import kop
>>> g = kop.to_gambit(kop.figure2())
>>> [getattr(p, "label", p) for p in g.players]      # Player values (pygambit 16) or names (17)
['A', 'B']
>>> kop.from_gambit(g) == kop.figure2()
True

(The examples need pygambit; the doctest run skips them without it.)

Reference: McKelvey, McLennan & Turocy, *Gambit: Software Tools for Game
Theory* (gambit-project.org).
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from kop.games.errors import GameError
from kop.games.trees.tree import GameTree
from kop.io.efg import loads_efg, dumps_efg
from kop.io.infogame import loads_game

if TYPE_CHECKING:  # pragma: no cover
    from kop.games.imperfect.game import InfoGame

__all__ = ["from_gambit", "to_gambit", "from_pygambit"]

#: the doctests need this optional package (kop/conftest.py skips them without it)
__doctest_requires__ = ("pygambit",)


def _pygambit() -> Any:
    try:
        import pygambit  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        from kop.errors import MissingDependency

        raise MissingDependency("the Gambit bridge needs pygambit: pip install pygambit") from None
    return pygambit


def _efg_text(game: Any) -> str:
    """The game as .efg text, by whichever call this pygambit version has."""
    for name in ("to_efg",):
        fn = getattr(game, name, None)
        if callable(fn):
            return str(fn())
    write = getattr(game, "write", None)
    if callable(write):
        return str(write(format="efg"))
    raise GameError(f"this pygambit version cannot write a game as .efg text ({type(game).__name__})")


def from_gambit(game: Any) -> GameTree:
    """kop's tree of a pygambit extensive game of perfect information.

    Parameters
    ----------
    game : pygambit.Game
        An extensive (tree) game; every information set of a player has one node.

    Returns
    -------
    GameTree
        Players, node and action names, chance probabilities and payoffs as in
        Gambit; goals as recorded by :func:`to_gambit` (else every player
        maximizes, as in Gambit).

    Raises
    ------
    GameError
        Not a pygambit game, a strategic-form game, or an information set with
        more than one node (imperfect information), named.

    Examples
    --------
    >>> import kop
    >>> t = kop.from_gambit(kop.to_gambit(kop.figure2()))
    >>> t.players
    (Player('A', 'max'), Player('B', 'min'))

    References
    ----------
    The Gambit Project, *Gambit: Software Tools for Game Theory*.
    """
    _pygambit()
    if not type(game).__module__.startswith("pygambit") or not hasattr(game, "players"):
        raise GameError(f"from_gambit expects a pygambit Game, not {type(game).__name__}")
    if getattr(game, "is_tree", True) is False or "Strategic" in type(game).__name__:
        raise GameError("from_gambit reads extensive (tree) games; this is a strategic-form game")

    try:
        text = _efg_text(game)
    except GameError:
        raise
    except Exception as exc:   # pygambit refuses to write it: not an extensive game
        raise GameError(f"pygambit cannot write this game as .efg: {exc}") from None
    return loads_efg(text)


def to_gambit(tree: GameTree, title: str = "kop tree") -> Any:
    """The pygambit extensive game of *tree* (perfect information).

    Parameters
    ----------
    tree : GameTree
        Any kop tree without simultaneous-move nodes (chance nodes become
        Gambit's chance nodes with the same exact probabilities).
    title : str
        The Gambit game's title.

    Returns
    -------
    pygambit.Game
        Gambit's players maximize, so a kop player whose goal is ``min`` has its
        payoffs negated there; the goals are recorded in the game's comment, and
        :func:`from_gambit` restores them.  A repeated node label is renamed
        ``LABEL (2)``, ... (Gambit requires unique labels); chance probabilities
        are exact rationals (``1/6``).

    Examples
    --------
    >>> import kop
    >>> g = kop.to_gambit(kop.figure2(), title="Figure 2")
    >>> g.title, len(g.players)
    ('Figure 2', 2)

    References
    ----------
    The Gambit Project, *Gambit: Software Tools for Game Theory*.
    """
    pygambit = _pygambit()
    if not isinstance(tree, GameTree):
        raise GameError(f"to_gambit expects a GameTree, not {type(tree).__name__}")

    text = dumps_efg(tree, title=title, unique_labels=True)   # Gambit refuses repeated node labels
    reader = getattr(pygambit, "read_efg", None)
    parse = getattr(pygambit.Game, "parse_game", None)
    try:
        if callable(reader):
            return reader(io.StringIO(text))
        if callable(parse):
            return parse(text)
    except ValueError as exc:  # kop writes what Gambit reads; should it still refuse, say so as kop does
        raise GameError(f"Gambit refused the game kop wrote for it: {exc}") from None
    raise GameError("this pygambit version has neither read_efg nor Game.parse_game")


def from_pygambit(game: Any) -> InfoGame:
    """kop's game of a pygambit extensive game, information sets kept (through its ``.efg`` text).

    Parameters
    ----------
    game : pygambit.Game
        An extensive (tree) game.

    Returns
    -------
    InfoGame

    Examples
    --------
    >>> import kop, pygambit
    >>> from kop.games.imperfect.examples import example_path
    >>> g = pygambit.read_efg(example_path("forgetful_cards"))
    >>> kop.from_pygambit(g).players
    ('Ann', 'Bob')
    """
    return loads_game(_efg_text(game), name=str(getattr(game, "title", "") or "pygambit game"))
