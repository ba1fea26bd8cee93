"""The classic epistemic puzzles, solved with kop's model checker.

Each module builds the puzzle's Kripke model (mostly from observations, SMCDEL
style), states the puzzle's announcements as epistemic formulas and runs them
as public announcements.  The functions return small result objects with the
counts and answers::

    >>> from kop.puzzles import cheryl
    >>> cheryl.solve().birthday
    ('July', 16)

Modules: :mod:`~kop.puzzles.muddy_children`, :mod:`~kop.puzzles.cheryl`,
:mod:`~kop.puzzles.sum_product`, :mod:`~kop.puzzles.russian_cards`,
:mod:`~kop.puzzles.drinking_logicians`, :mod:`~kop.puzzles.dining_cryptographers`.
The worked examples are in ``docs/models.md`` (section *Puzzles*).
"""

from __future__ import annotations

from types import ModuleType

__all__ = [
    "muddy_children", "cheryl", "sum_product", "russian_cards",
    "drinking_logicians", "dining_cryptographers",
]


def __getattr__(name: str) -> ModuleType:
    if name in __all__:
        import importlib

        return importlib.import_module(f"kop.puzzles.{name}")
    raise AttributeError(f"module 'kop.puzzles' has no attribute {name!r}")
