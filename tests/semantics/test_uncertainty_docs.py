"""docs/uncertainty.md runs as shown: its Python examples and its command-line transcript."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

from doc_examples import run_python_blocks, transcript

ROOT = Path(__file__).resolve().parents[2]
TEXT = (ROOT / "docs" / "uncertainty.md").read_text(encoding="utf-8")
TEXT = TEXT[:TEXT.index("## Opponent types and PrOM")]     # the logic's sections (the game trees': tests/selection)


def test_python_examples(monkeypatch):
    monkeypatch.chdir(ROOT)
    failed, tried = run_python_blocks(TEXT, "docs/uncertainty.md", ellipsis=False)
    assert failed == 0 and tried >= 20


def test_json_example_is_the_model_file():
    import json

    shown = json.loads(re.search(r"```json\n(.*?)```", TEXT, flags=re.S).group(1))
    on_disk = json.loads((ROOT / "theories" / "coin_belief.model.json").read_text(encoding="utf-8"))
    on_disk.pop("format")
    assert shown == on_disk


def test_command_line_transcript():
    commands = transcript(re.search(r"```sh\n(.*?)```", TEXT, flags=re.S).group(1))
    assert len(commands) == 3
    for command, expected in commands:
        args = shlex.split(command)
        assert args[0] == "kop"
        r = subprocess.run([sys.executable, "-m", "kop", *args[1:]], capture_output=True, text=True, cwd=ROOT,
                           timeout=120)
        assert (r.stdout + r.stderr).splitlines() == expected, command
        assert r.returncode == (2 if "error:" in "".join(expected) else 0)
