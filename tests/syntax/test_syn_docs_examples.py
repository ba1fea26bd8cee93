"""docs/syntax.md's Python examples run as shown (formula reprs rebuild the formula, printing, sympy)."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_syntax_guide_examples_run(monkeypatch):
    monkeypatch.chdir(ROOT)
    text = (ROOT / "docs" / "syntax.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    runner.run(doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "docs/syntax.md", "docs/syntax.md", 0))
    assert runner.failures == 0 and runner.tries >= 15
