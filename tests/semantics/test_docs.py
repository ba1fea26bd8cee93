"""The engine sections of docs/models.md (above "## Puzzles") run as shown."""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _engine_section() -> str:
    text = (ROOT / "docs" / "models.md").read_text(encoding="utf-8")
    return text[:text.index("## Puzzles")]


def test_python_examples(monkeypatch):
    monkeypatch.chdir(ROOT)
    blocks = re.findall(r"```python\n(.*?)```", _engine_section(), flags=re.S)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    test = parser.get_doctest("\n".join(blocks), {}, "docs/models.md#engine", "docs/models.md", 0)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 30


def test_command_line_transcript(tmp_path):
    """Each '$ kop ...' line, run in a scratch directory, prints the lines shown after it."""
    (tmp_path / "theories").symlink_to(ROOT / "theories")
    block = re.search(r"##+ Command line\n\n```sh\n(.*?)```", _engine_section(), flags=re.S).group(1)
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
        assert args[0] == "kop"
        r = subprocess.run([sys.executable, "-m", "kop", *args[1:]], capture_output=True, text=True,
                           cwd=tmp_path, env=env, timeout=60)
        got = (r.stdout + r.stderr).splitlines()
        assert sorted(got) == sorted(expected), command
        assert "Traceback" not in r.stderr
