"""The paper's worked example: the tree of Figure 2 and its four knowledge scenarios (SPEC §3.4).

The figure is not in the paper's text; this reconstruction reproduces every
number the paper states (the leaves (5,6), (6,10) and (11,12) are chosen
within the stated inequalities).

>>> from kop.selection.examples import figure2, SCENARIOS
>>> figure2()
GameTree(players=(A:max, B:min), nodes=22, leaves=12, height=4)
>>> [s.name for s in SCENARIOS]
['(1)', '(2)', '(3)', '(4)']
"""

from __future__ import annotations

from dataclasses import dataclass

from kop.games.search.treegame import TreeGame
from kop.games.trees.examples import figure2
from kop.syntax.formula import Formula
from kop.syntax.levels import f_level

__all__ = ["figure2", "figure2_game", "Scenario", "SCENARIOS"]


def figure2_game() -> TreeGame:
    """Figure 2 as an implicit game (states are nodes, moves child ranks named by the node labels).

    Returns
    -------
    TreeGame
        :func:`kop.figure2` behind the :class:`~kop.games.search.implicit.ImplicitGame` interface, for
        :func:`kop.search`.

    Examples
    --------
    >>> import kop
    >>> g = kop.figure2_game()
    >>> s = g.apply(g.initial_state(), 2)
    >>> g.move_name(0, 2), g.to_move(s), g.payoffs(g.apply(s, 0))
    ('T', 1, (9, 4))
    >>> kop.search(g, "Mh").value
    (10, 3)
    """
    return TreeGame(figure2())


@dataclass(frozen=True)
class Scenario:
    """A knowledge scenario: the cores f(A, a) and f(B, b), and the play the paper reports."""

    name: str
    level_a: int
    level_b: int
    play: tuple[str, str]
    outcome: tuple[int, int]

    @property
    def knowledge(self) -> tuple[Formula, ...]:
        return f_level("A", "B", self.level_a) + f_level("B", "A", self.level_b)


SCENARIOS = (
    Scenario("(1)", 0, 0, ("M0", "M0"), (4, 7)),
    Scenario("(2)", 1, 0, ("M1", "M0"), (10, 3)),
    Scenario("(3)", 1, 1, ("M1", "M1"), (3, 8)),
    Scenario("(4)", 2, 1, ("M2", "M1"), (9, 4)),
)
