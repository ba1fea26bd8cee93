"""docs/syntax.md's Python examples run as shown (formula reprs rebuild the formula, printing, sympy)."""

from __future__ import annotations

from pathlib import Path

from doc_examples import page, run_python_blocks

ROOT = Path(__file__).resolve().parents[2]


def test_syntax_guide_examples_run(monkeypatch):
    monkeypatch.chdir(ROOT)
    text = page("syntax.md")
    failed, tried = run_python_blocks(text, "docs/syntax.md")
    assert failed == 0 and tried >= 15
