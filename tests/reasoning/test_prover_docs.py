"""The examples of docs/prover.md run as shown (Python doctests and the command-line transcript)."""

from __future__ import annotations

import os
import subprocess
import sys

from doc_examples import ROOT, page, run_kop, run_python_blocks, shell_block, transcript

DOC = page("prover.md")


def test_python_examples():
    failed, tried = run_python_blocks(DOC, "docs/prover.md")
    assert failed == 0 and tried >= 20


def test_command_line_transcript():
    commands = transcript(shell_block(DOC, after="## Command line\n"))
    assert len(commands) >= 6
    for command, expected in commands:
        r = run_kop(command)
        assert (r.stdout + r.stderr).splitlines() == expected, command
        assert "Traceback" not in r.stderr


def test_theory_example_runs():
    r = subprocess.run([sys.executable, str(ROOT / "theories" / "prover_tour.py")], capture_output=True,
                       text=True, timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 0, r.stderr
    assert "level of A in scenario (4): 2" in r.stdout
