"""Wording shared by every message kop prints: counts that agree with their number."""

from __future__ import annotations

__all__ = ["plural"]


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """``n`` and the noun, singular for one: ``plural(1, "world") == "1 world"``.

    >>> plural(1, "world"), plural(0, "world"), plural(3, "class", "classes")
    ('1 world', '0 worlds', '3 classes')
    """
    return f"{n} {noun if n == 1 else (nouns or noun + 's')}"
