"""The examples of docs/uncertainty.md run as shown, and the worked example in theories/ runs."""

from __future__ import annotations

import doctest
import re
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_python_examples():
    doc = (ROOT / "docs" / "uncertainty.md").read_text(encoding="utf-8")
    doc = doc[doc.index("## Opponent types and PrOM"):]          # the game-tree sections (the logic's: test_sem_*)
    blocks = re.findall(r"```python\n(.*?)```", doc, flags=re.S)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    test = parser.get_doctest("\n".join(blocks), {}, "docs/uncertainty.md", "docs/uncertainty.md", 0)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 15


def test_worked_example_runs(capsys):
    runpy.run_path(str(ROOT / "theories" / "figure2_uncertain.py"), run_name="__main__")
    assert "the belief is FALSE" in capsys.readouterr().out
