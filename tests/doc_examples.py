"""The docs-example harness: what every test of a page of ``docs/`` uses to read it and run its examples.

``page(name)`` reads a guide (found from this file, whatever the current folder), ``section(text, heading)``
cuts out one of its sections, ``python_blocks(text)`` lists its fenced ``python`` blocks and
``run_python_blocks(text, name)`` runs their ``>>>`` examples as one doctest session (in order, one
namespace), returning doctest's ``(failed, attempted)``; ``shell_block(text)`` is its first ``sh`` block,
``transcript(block)`` splits a ``$ command`` block into (command, lines shown after it), and
``run_kop(command)`` runs one ``$ kop ...`` line of a transcript with this checkout's kop.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def page(name: str) -> str:
    """The text of the guide ``docs/NAME`` (``"models.md"``)."""
    return (DOCS / name).read_text(encoding="utf-8")


def section(text: str, heading: str, end: str | None = None) -> str:
    """The part of *text* from the line *heading* (``"## Puzzles"``) to the next heading of its level or
    above (``##`` at least), or to the first *end* after it when given (``"## Limits"``)."""
    start = text.index(heading)
    if end is not None:
        return text[start:text.index(end, start + len(heading))]
    level = max(2, len(heading) - len(heading.lstrip("#")))
    following = re.compile(rf"^#{{2,{level}}} ", flags=re.M)     # not "# ": a comment in a code block
    m = following.search(text, start + len(heading))
    return text[start:m.start()] if m else text[start:]


def python_blocks(text: str, fence: str = "python") -> list[str]:
    """The contents of the ```` ```FENCE ```` blocks of *text*, in order."""
    return re.findall(rf"```{re.escape(fence)}\n(.*?)```", text, flags=re.S)


def run_python_blocks(text: str, name: str, fence: str = "python", *, ellipsis: bool = True) -> tuple[int, int]:
    """Run the ```` ```FENCE ```` blocks of *text* as one doctest session; ``(failed, attempted)``.

    Whitespace is normalized; ``...`` in an expected output matches anything when *ellipsis*.
    """
    flags = doctest.NORMALIZE_WHITESPACE | (doctest.ELLIPSIS if ellipsis else 0)
    runner = doctest.DocTestRunner(optionflags=flags)
    runner.run(doctest.DocTestParser().get_doctest("\n".join(python_blocks(text, fence)), {}, name, name, 0))
    return runner.failures, runner.tries


def shell_block(text: str, after: str | None = None) -> str:
    """The first ```` ```sh ```` block of *text*, or the first after the line *after* (a heading)."""
    start = 0 if after is None else text.index(after)
    m = re.compile(r"```sh\n(.*?)```", flags=re.S).search(text, start)
    assert m is not None, f"no sh block{'' if after is None else ' after ' + after}"
    return m.group(1)


def transcript(block: str) -> list[tuple[str, list[str]]]:
    """``$ command`` lines of a shell block, each with the lines shown after it."""
    commands: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        elif commands:
            commands[-1][1].append(line)
    return commands


def run_kop(command: str, cwd: Path = ROOT, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run the transcript line ``kop ARGS`` as ``python -m kop ARGS`` with this checkout's kop, in *cwd*."""
    args = shlex.split(command)
    assert args[0] == "kop", f"a transcript command that is not kop: {command}"
    return subprocess.run([sys.executable, "-m", "kop", *args[1:]], capture_output=True, text=True, cwd=cwd,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=timeout)
