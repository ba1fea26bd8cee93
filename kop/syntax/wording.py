"""Wording shared by every message kop prints: counts that agree with their number, JSON paths."""

from __future__ import annotations

import json

__all__ = ["plural", "json_path"]


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """``n`` and the noun, singular for one: ``plural(1, "world") == "1 world"``.

    >>> plural(1, "world"), plural(0, "world"), plural(3, "class", "classes")
    ('1 world', '0 worlds', '3 classes')
    """
    return f"{n} {noun if n == 1 else (nouns or noun + 's')}"


def json_path(parts: list[str | int]) -> str:
    """A JSON path (``$.root.children[1]``) from keys and indices.

    >>> json_path(["worlds", "w 0", 2])
    '$.worlds["w 0"][2]'
    """
    out = "$"
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        elif p.isidentifier():
            out += f".{p}"
        else:
            out += f"[{json.dumps(p)}]"
    return out
