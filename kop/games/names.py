"""The name of a strategy or search: one small immutable value, parsed once and printed one way.

Every strategy and search kop knows goes by one name, the one the CLI, theory
files and JSON reports print: the KOP strategies on trees and implicit games
(``minimax``, ``alphabeta``, ``M<d>``, ``Mh``, ``HM0M<d>``), the probabilistic
opponent models (``PrOM``, ``PrOM-Bayes``) and Bodkin's searches (``maxn``,
``bnb``, ``lower_eval``, ``bimodal``, ``paranoid``, ``expectimax``, ``star1``,
``star2``, ``cscout``, ``naive``, ``substructure``, ``dominating``).
:meth:`StrategyName.parse` reads any accepted spelling (case-insensitive,
aliases such as ``max^n``); ``str()`` prints the canonical one and ``repr()``
the expression that rebuilds it, as python-chess does for its values.

Examples
--------
>>> from kop.games.names import StrategyName
>>> n = StrategyName.parse("hm0m2")
>>> n, str(n), n.kind, n.d
(StrategyName.parse('HM0M2'), 'HM0M2', 'HM0M', 2)
>>> StrategyName.parse("max^n").family, StrategyName.mstar(0) == StrategyName.parse("M0")
('bodkin', True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from kop.games.errors import StrategyError

__all__ = ["StrategyName", "STRATEGY_NAMES", "SEARCH_NAMES", "MAX_D", "Family"]

#: what the KOP strategies are called (for messages and help texts)
STRATEGY_NAMES = "minimax, alphabeta, M<d> (M0 = minimax), Mh, HM0M<d>"
#: Bodkin's searches on game trees: N players, chance, simultaneous moves
SEARCH_NAMES = ("maxn", "bnb", "lower_eval", "bimodal", "paranoid", "expectimax", "star1", "star2", "cscout",
                "naive", "substructure", "dominating")
#: the largest d accepted for M<d> and HM0M<d>
MAX_D = 10_000

#: ``kop``: the strategies of Sang & Chen (trees and implicit games); ``prom``: the probabilistic
#: opponent models (implicit games); ``bodkin``: Bodkin's searches on game trees
Family = Literal["kop", "prom", "bodkin"]

#: the KOP names in lower case (a name is read by its ``str.lower()``; digits are ASCII)
_KOP = re.compile(r"(minimax|alphabeta|mh|m([0-9]+)|hm0m([0-9]+))")
_PROM = {"prom": "PrOM", "prom-bayes": "PrOM-Bayes"}
_ALIASES = {"max^n": "maxn", "lower-eval": "lower_eval", "lowereval": "lower_eval", "branch-and-bound": "bnb",
            "bimodal_unimodal": "bimodal", "bimodal-unimodal": "bimodal", "star-1": "star1", "star-2": "star2"}
#: searches that are accepted by name but not listed (variants of a listed one)
_HIDDEN = ("pure_substructure",)
#: the kinds without a depth
_PLAIN = ("minimax", "alphabeta", "Mh", *_PROM.values(), *SEARCH_NAMES, *_HIDDEN)


@dataclass(frozen=True, slots=True)
class StrategyName:
    """A strategy's or search's name: its *kind* and, for ``M<d>`` and ``HM0M<d>``, its depth *d*.

    Attributes
    ----------
    kind : str
        ``minimax``, ``alphabeta``, ``Mh``, ``M``, ``HM0M``, ``PrOM``, ``PrOM-Bayes`` or one of
        :data:`SEARCH_NAMES`.
    d : int or None
        The depth of ``M<d>`` and ``HM0M<d>`` (0 <= d <= :data:`MAX_D`), None for the others.

    Examples
    --------
    >>> StrategyName.parse(" m2 ")
    StrategyName.parse('M2')
    >>> str(StrategyName.hm0m(1)), StrategyName.parse("Mh").family
    ('HM0M1', 'kop')
    >>> StrategyName("M", None)
    Traceback (most recent call last):
    ...
    kop.errors.StrategyError: a strategy's depth d is an integer >= 0, not None
    """

    kind: str
    d: int | None = None

    def __post_init__(self) -> None:
        if self.kind in ("M", "HM0M"):
            _depth(self.d)
        elif not isinstance(self.kind, str) or self.kind not in _PLAIN:
            raise StrategyError(f"unknown strategy kind {self.kind!r} (use {', '.join(('M', 'HM0M', *_PLAIN))})")
        elif self.d is not None:
            raise StrategyError(f"strategy {self.kind} takes no depth d, got d = {self.d!r}")

    @classmethod
    def parse(cls, text: object, family: Family | None = None) -> StrategyName:
        """The name *text* spells; a :class:`~kop.errors.StrategyError` if it names nothing kop knows.

        Parameters
        ----------
        text : str
            ``minimax``, ``alphabeta``, ``M<d>``, ``Mh``, ``HM0M<d>``, ``PrOM``, ``PrOM-Bayes`` or one of
            Bodkin's searches (case and surrounding spaces do not matter).
        family : "kop", "prom" or "bodkin", optional
            Accept only names of this family (``kop``: the strategies on whole trees).

        Returns
        -------
        StrategyName

        Examples
        --------
        >>> StrategyName.parse("Lower-Eval")
        StrategyName.parse('lower_eval')
        >>> StrategyName.parse("M3x")
        Traceback (most recent call last):
        ...
        kop.errors.StrategyError: unknown strategy 'M3x' (use minimax, alphabeta, M<d> (M0 = minimax), \
Mh, HM0M<d>, PrOM, PrOM-Bayes or a search: maxn, bnb, lower_eval, bimodal, paranoid, expectimax, star1, \
star2, cscout, naive, substructure, dominating)
        >>> StrategyName.parse("maxn", family="kop")
        Traceback (most recent call last):
        ...
        kop.errors.StrategyError: unknown strategy 'maxn' (use minimax, alphabeta, M<d> (M0 = minimax), \
Mh, HM0M<d>)
        """
        name = cls._parse(text)
        if family is not None and name.family != family:
            use = STRATEGY_NAMES if family == "kop" else "PrOM, PrOM-Bayes" if family == "prom" else \
                ", ".join(SEARCH_NAMES)
            raise StrategyError(f"unknown strategy {_short(text)} (use {use})")
        return name

    @classmethod
    def _parse(cls, text: object) -> StrategyName:
        if not isinstance(text, str):
            raise StrategyError(f"a strategy's name is a string such as 'Mh' or 'M2', not {text!r}")
        low = text.strip().lower()
        m = _KOP.fullmatch(low)
        if m is not None:
            word = m.group(1)
            if word in ("minimax", "alphabeta"):
                return cls(word)
            if word == "mh":
                return cls("Mh")
            digits = (m.group(2) or m.group(3)).lstrip("0") or "0"
            d = int(digits) if len(digits) <= len(str(MAX_D)) else MAX_D + 1
            if d > MAX_D:
                shown = digits if len(digits) <= 20 else f"a number of {len(digits)} digits"
                raise StrategyError(f"strategy {_short(text)}: d = {shown} is above kop's limit {MAX_D}")
            return cls("M" if m.group(2) is not None else "HM0M", d)
        prom = _PROM.get(low.replace("_", "-"))
        if prom is not None:
            return cls(prom)
        low = _ALIASES.get(low, low)
        if low in SEARCH_NAMES or low in _HIDDEN:
            return cls(low)
        raise StrategyError(f"unknown strategy {_short(text)} (use {STRATEGY_NAMES}, PrOM, PrOM-Bayes or a search: "
                            f"{', '.join(SEARCH_NAMES)})")

    @classmethod
    def mstar(cls, d: int) -> StrategyName:
        """``M<d>``, Carmel & Markovitch's M^d (``M0`` is minimax).

        >>> StrategyName.mstar(2)
        StrategyName.parse('M2')
        """
        return cls("M", _depth(d))

    @classmethod
    def hm0m(cls, d: int) -> StrategyName:
        """``HM0M<d>``: M^h up to height d, minimax above.

        >>> str(StrategyName.hm0m(3))
        'HM0M3'
        """
        return cls("HM0M", _depth(d))

    @property
    def family(self) -> Family:
        """``kop``, ``prom`` or ``bodkin`` (see :data:`Family`).

        >>> StrategyName.parse("PrOM").family
        'prom'
        """
        if self.kind in ("PrOM", "PrOM-Bayes"):
            return "prom"
        if self.kind in SEARCH_NAMES or self.kind in _HIDDEN:
            return "bodkin"
        return "kop"

    @property
    def is_minimax(self) -> bool:
        """True for ``minimax``, ``alphabeta`` and ``M0``: the same choices, by different algorithms.

        >>> [StrategyName.parse(s).is_minimax for s in ("M0", "alphabeta", "M1")]
        [True, True, False]
        """
        return self.kind in ("minimax", "alphabeta") or (self.kind == "M" and self.d == 0)

    def __str__(self) -> str:
        return self.kind if self.d is None else f"{self.kind}{self.d}"

    def __repr__(self) -> str:
        return f"StrategyName.parse({str(self)!r})"


def _short(text: object, limit: int = 60) -> str:
    """*text* quoted for a message, cut to about *limit* characters."""
    shown = repr(text)
    return shown if len(shown) <= limit else shown[:limit - 4] + "...'"


def _depth(d: object) -> int:
    if isinstance(d, bool) or not isinstance(d, int) or d < 0:
        raise StrategyError(f"a strategy's depth d is an integer >= 0, not {d!r}")
    return d
