"""The levels of knowledge f(P, d) of Sang & Chen, built syntactically (SPEC §2.5).

``f(A, 0) = {K_A E_A, K_A S_A}`` and each step d adds the alternation chain of
d knowledge operators that starts with ``K_A`` and ends in ``E_B`` (d odd) or
``E_A`` (d even)::

    >>> from kop import f_level, to_ascii
    >>> [to_ascii(f) for f in f_level("A", "B", 3)]
    ['K_A E_A', 'K_A S_A', 'K_A E_B', 'K_A K_B E_A', 'K_A K_B K_A E_B']

Atoms: ``E_P`` is player P's evaluation function and ``S_P`` its strategy.

Reference: Sang & Chen, *Beyond Minimax*, formula (4).
"""

from __future__ import annotations

from functools import lru_cache

from kop.syntax import arguments
from kop.errors import LimitError
from kop.syntax.formula import Atom, Formula, Know
from kop.syntax.parser import MAX_DEPTH

__all__ = ["evaluation", "strategy_atom", "chain", "f_level"]


def evaluation(player: str) -> Atom:
    """The atom ``E_P``: player P's evaluation function."""
    return Atom(f"E_{player}")


def strategy_atom(player: str) -> Atom:
    """The atom ``S_P``: player P's strategy."""
    return Atom(f"S_{player}")


def _check_levels(player: str, opponent: str, d: int) -> None:
    arguments.agent(player, "player")
    arguments.agent(opponent, "opponent")
    _check_depth(arguments.integer(d, "d", minimum=0))


def _check_depth(d: int) -> None:
    if d >= MAX_DEPTH:
        raise LimitError(f"a knowledge level of {d} means chains {d} operators deep; kop's limit is "
                         f"{MAX_DEPTH - 1} (formulas are nested at most {MAX_DEPTH} levels deep)")


def chain(player: str, opponent: str, d: int) -> Formula:
    """The alternation chain of length d >= 1: ``K_P K_Q K_P … E_X``.

    It has d knowledge operators alternating P, Q, P, ... and ends in the
    opponent's evaluation ``E_Q`` when d is odd and the player's own ``E_P``
    when d is even.  ``chain(P, Q, 0)`` is ``K_P E_P``.

    Parameters
    ----------
    player, opponent : str
        P (whose knowledge the chain starts with) and Q.
    d : int
        The number of knowledge operators, >= 0 and below :data:`kop.syntax.parser.MAX_DEPTH`
        (a :class:`~kop.errors.LimitError` otherwise).

    Returns
    -------
    Formula
        The chain: the formula that f(P, d) adds to f(P, d - 1).

    Examples
    --------
    >>> import kop
    >>> kop.chain("A", "B", 3)
    kop.parse('K_A K_B K_A E_B')
    >>> kop.chain("A", "B", 2), kop.chain("A", "B", 0)
    (kop.parse('K_A K_B E_A'), kop.parse('K_A E_A'))

    References
    ----------
    T. Sang, J.-H. Chen, *Beyond Minimax: Nonzero-Sum Game Tree Search with Knowledge
    Oriented Players*, formula (4).
    """
    _check_levels(player, opponent, d)
    d = int(d)
    return _f_level(player, opponent, d)[d + 1 if d else 0]


def f_level(player: str, opponent: str, d: int) -> tuple[Formula, ...]:
    """The formulas of f(P, d), in order: ``K_P E_P, K_P S_P`` and the chains of length 1..d.

    Parameters
    ----------
    player, opponent : str
        P and Q.
    d : int
        The level, >= 0 and below :data:`kop.syntax.parser.MAX_DEPTH`
        (a :class:`~kop.errors.LimitError` otherwise: f(P, d) holds d
        formulas of up to d nested operators).

    Returns
    -------
    tuple of Formula
        ``K_P E_P``, ``K_P S_P``, then :func:`chain` (P, Q, i) for i = 1..d: d + 2 formulas.

    Examples
    --------
    >>> import kop
    >>> [kop.to_ascii(f) for f in kop.f_level("B", "A", 2)]
    ['K_B E_B', 'K_B S_B', 'K_B E_A', 'K_B K_A E_B']
    >>> set(kop.f_level("A", "B", 1)) <= set(kop.f_level("A", "B", 2))      # property (5)
    True

    References
    ----------
    T. Sang, J.-H. Chen, *Beyond Minimax: Nonzero-Sum Game Tree Search with Knowledge
    Oriented Players*, formula (4) and properties (5)-(7).
    """
    _check_levels(player, opponent, d)
    return _f_level(player, opponent, int(d))


@lru_cache(maxsize=256)  # the same objects each time: equal questions then compare by identity
def _f_level(player: str, opponent: str, d: int) -> tuple[Formula, ...]:
    base = (Know(player, evaluation(player)), Know(player, strategy_atom(player)))
    if d == 0:
        return base
    # chain(P, Q, i + 1) is K_P chain(Q, P, i): grow both alternations together and share the
    # inner chains, so f(P, d) costs d + 1 new operators instead of d(d + 1)/2
    mine: Formula = Know(player, evaluation(opponent))
    theirs: Formula = Know(opponent, evaluation(player))
    chains = [mine]
    for _ in range(d - 1):
        mine, theirs = Know(player, theirs), Know(opponent, mine)
        chains.append(mine)
    return base + tuple(chains)
