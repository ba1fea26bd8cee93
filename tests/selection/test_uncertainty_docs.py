"""The examples of docs/uncertainty.md run as shown, and the worked example in theories/ runs."""

from __future__ import annotations

import runpy
from pathlib import Path

from doc_examples import page, run_python_blocks

ROOT = Path(__file__).resolve().parents[2]


def test_python_examples():
    doc = page("uncertainty.md")
    doc = doc[doc.index("## Opponent types and PrOM"):]          # the game-tree sections (the logic's: tests/semantics/)
    failed, tried = run_python_blocks(doc, "docs/uncertainty.md")
    assert failed == 0 and tried >= 15


def test_worked_example_runs(capsys):
    runpy.run_path(str(ROOT / "theories" / "figure2_uncertain.py"), run_name="__main__")
    assert "the belief is FALSE" in capsys.readouterr().out
