"""The Symbolic models section of docs/models.md, the symbolic modules' docstrings and
theories/drinking_logicians_400.py run as shown."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _section() -> str:
    text = (ROOT / "docs" / "models.md").read_text(encoding="utf-8")
    start = text.index("## Symbolic models")
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]


def test_docs_examples_run():
    blocks = re.findall(r"```python\n(.*?)```", _section(), flags=re.S)
    assert len(blocks) >= 4
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    test = parser.get_doctest("\n".join(blocks), {}, "docs/models.md#symbolic-models", "docs/models.md", 0)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 20


@pytest.mark.parametrize("module", ["kop.semantics.symbolic", "kop.semantics.symbolic_checker",
                                    "kop.bdd.manager", "kop.puzzles.drinking_logicians",
                                    "kop.puzzles.dining_cryptographers"])
def test_module_docstrings(module):
    import importlib

    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0


def test_theory_script_runs():
    out = subprocess.run([sys.executable, str(ROOT / "theories" / "drinking_logicians_400.py"), "400", "250"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "logician 250: no" in out.stdout and "holds here: False" in out.stdout
    out = subprocess.run([sys.executable, str(ROOT / "theories" / "drinking_logicians_400.py")],
                         capture_output=True, text=True, timeout=120)
    assert "logician 400: yes" in out.stdout and "holds here: True" in out.stdout
