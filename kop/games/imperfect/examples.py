"""Two small games with information sets that ship with kop (their ``.efg`` files are package data).

* :func:`absent_minded_driver`: Piccione and Rubinstein's driver, one information set that meets
  the path twice (absent-mindedness);
* :func:`forgetful_cards`: a card game where Ann looks at her card, bets, and later forgets what she
  saw (forgets-information); the worked example of docs/imperfect-information.md.

``theories/driver.efg`` and ``theories/forgetful_cards.efg`` are these files.

>>> import kop
>>> kop.perfect_recall(kop.forgetful_cards(), "Bob"), kop.perfect_recall(kop.absent_minded_driver(), 0)
(True, False)
"""

from __future__ import annotations

from pathlib import Path

from kop.games.imperfect.game import InfoGame

__all__ = ["example_path", "absent_minded_driver", "forgetful_cards"]

_FOLDER = Path(__file__).resolve().parent / "efg"


def example_path(name: str) -> str:
    """The path of a shipped example game (``"driver"`` or ``"forgetful_cards"``).

    >>> example_path("driver").endswith("driver.efg")
    True
    """
    return str(_FOLDER / f"{name}.efg")


def absent_minded_driver() -> InfoGame:
    """The absent-minded driver (Piccione & Rubinstein 1997): exit at the first exit 0, at the second 4, never 1.

    Returns
    -------
    InfoGame
        One player, five nodes, one information set that meets the path twice.

    References
    ----------
    Piccione & Rubinstein, "On the interpretation of decision problems with imperfect recall",
    *Games and Economic Behavior* 20 (1997).

    Examples
    --------
    >>> import kop
    >>> kop.absent_minded_driver()
    InfoGame(players=('Driver',), nodes=5, sets=1, perfect_information=False)
    """
    return InfoGame.load(example_path("driver"))


def forgetful_cards() -> InfoGame:
    """Forgetful cards: Ann bets on a High or Low card, then forgets it before her second move.

    Returns
    -------
    InfoGame
        Ann and Bob, 15 nodes, four information sets; Ann forgets what she saw.

    Examples
    --------
    >>> import kop
    >>> kop.forgetful_cards()
    InfoGame(players=('Ann', 'Bob'), nodes=15, sets=4, perfect_information=False)
    """
    return InfoGame.load(example_path("forgetful_cards"))
