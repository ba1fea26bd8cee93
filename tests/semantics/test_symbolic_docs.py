"""The Symbolic models section of docs/models.md, the symbolic modules' docstrings and
theories/drinking_logicians_400.py run as shown."""

from __future__ import annotations

import doctest
import subprocess
import sys

import pytest

from doc_examples import ROOT, page, python_blocks, run_python_blocks, section


def test_docs_examples_run():
    symbolic = section(page("models.md"), "## Symbolic models")
    assert len(python_blocks(symbolic)) >= 4
    failed, tried = run_python_blocks(symbolic, "docs/models.md#symbolic-models", ellipsis=False)
    assert failed == 0 and tried >= 20


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
