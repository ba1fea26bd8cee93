"""docs/uncertainty.md runs as shown: its Python examples and its command-line transcript."""

from __future__ import annotations

import doctest
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEXT = (ROOT / "docs" / "uncertainty.md").read_text(encoding="utf-8")
TEXT = TEXT[:TEXT.index("## Opponent types and PrOM")]     # the logic's sections (the game trees': tests/selection)


def test_python_examples(monkeypatch):
    monkeypatch.chdir(ROOT)
    blocks = re.findall(r"```python\n(.*?)```", TEXT, flags=re.S)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "docs/uncertainty.md", "uncertainty.md", 0)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 20


def test_json_example_is_the_model_file():
    import json

    shown = json.loads(re.search(r"```json\n(.*?)```", TEXT, flags=re.S).group(1))
    on_disk = json.loads((ROOT / "theories" / "coin_belief.model.json").read_text(encoding="utf-8"))
    on_disk.pop("format")
    assert shown == on_disk


def test_command_line_transcript():
    block = re.search(r"```sh\n(.*?)```", TEXT, flags=re.S).group(1)
    commands: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        else:
            commands[-1][1].append(line)
    assert len(commands) == 3
    for command, expected in commands:
        args = shlex.split(command)
        assert args[0] == "kop"
        r = subprocess.run([sys.executable, "-m", "kop", *args[1:]], capture_output=True, text=True, cwd=ROOT,
                           timeout=120)
        assert (r.stdout + r.stderr).splitlines() == expected, command
        assert r.returncode == (2 if "error:" in "".join(expected) else 0)
