"""The examples of docs/agents.md run as shown (Python doctests and the command-line transcript)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from doc_examples import ROOT, page, run_kop, run_python_blocks, shell_block, transcript

DOC = page("agents.md")

pytest.importorskip("pyspiel")


def test_python_examples():
    failed, tried = run_python_blocks(DOC, "docs/agents.md")
    assert failed == 0 and tried >= 25


def test_command_line_transcript():
    commands = transcript(shell_block(DOC, after="## Command line\n"))
    assert len(commands) >= 5
    for command, expected in commands:
        r = run_kop(command, timeout=300)
        assert (r.stdout + r.stderr).splitlines() == expected, command
        assert "Traceback" not in r.stderr


def test_theory_example_runs():
    r = subprocess.run([sys.executable, str(ROOT / "theories" / "figure2_match.py")], capture_output=True,
                       text=True, timeout=300, env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "outcome: (9, 4)" in r.stdout and "outcome: (10, 3)" in r.stdout and "outcome: (3, 8)" in r.stdout
