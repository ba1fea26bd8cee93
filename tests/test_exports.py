"""kop/__init__.py's _EXPORTS: every public name once (a repeated key silently hides the first)."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import kop

SOURCE = Path(kop.__file__).read_text(encoding="utf-8")


def test_no_public_name_is_exported_twice() -> None:
    tree = ast.parse(SOURCE)
    exports = next(n.value for n in ast.walk(tree) if isinstance(n, ast.AnnAssign)
                   and isinstance(n.target, ast.Name) and n.target.id == "_EXPORTS")
    assert isinstance(exports, ast.Dict)
    keys = [k.value for k in exports.keys if isinstance(k, ast.Constant)]
    assert [k for k, n in Counter(keys).items() if n > 1] == []


def test_search_serves_implicit_games_and_bodkins_tree_searches() -> None:
    assert kop.search(kop.nim(), "alphabeta").value == (-1, -1)
    t = kop.GameTree.build(["A", "B", "C"], ("A", [(1, 2, 3), ("B", [(3, 1, 1), (0, 5, 0)])]), goals="max")
    assert kop.search(t, "maxn").value == (1, 2, 3)  # B would pick (0, 5, 0); A prefers 1 to 0
