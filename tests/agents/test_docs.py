"""The examples of docs/agents.md run as shown (Python doctests and the command-line transcript)."""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")

pytest.importorskip("pyspiel")


def test_python_examples():
    blocks = re.findall(r"```python\n(.*?)```", DOC, flags=re.S)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    test = parser.get_doctest("\n".join(blocks), {}, "docs/agents.md", "docs/agents.md", 0)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 25


def test_command_line_transcript():
    block = re.search(r"## Command line\n.*?```sh\n(.*?)```", DOC, flags=re.S).group(1)
    commands: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        else:
            commands[-1][1].append(line)
    assert len(commands) >= 5
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for command, expected in commands:
        args = shlex.split(command)
        r = subprocess.run([sys.executable, "-m", "kop", *args[1:]], capture_output=True, text=True,
                           env=env, timeout=300, cwd=ROOT)
        assert (r.stdout + r.stderr).splitlines() == expected, command
        assert "Traceback" not in r.stderr


def test_theory_example_runs():
    r = subprocess.run([sys.executable, str(ROOT / "theories" / "figure2_match.py")], capture_output=True,
                       text=True, timeout=300, env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "outcome: (9, 4)" in r.stdout and "outcome: (10, 3)" in r.stdout and "outcome: (3, 8)" in r.stdout
