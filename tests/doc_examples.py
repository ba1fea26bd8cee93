"""What the tests of the guides share: running a Markdown page's ``>>>`` examples, and reading its transcripts.

``run_python_blocks(text)`` runs every fenced block of the given kind as one doctest session (in
order, one namespace) and returns doctest's ``(failed, attempted)``; ``transcript(block)`` splits a
``$ command`` block into (command, lines shown after it).
"""

from __future__ import annotations

import doctest
import re


def run_python_blocks(text: str, name: str, fence: str = "python", *, ellipsis: bool = True) -> tuple[int, int]:
    """Run the ```` ```FENCE ```` blocks of *text* as one doctest session; ``(failed, attempted)``.

    Whitespace is normalized; ``...`` in an expected output matches anything when *ellipsis*.
    """
    blocks = re.findall(rf"```{re.escape(fence)}\n(.*?)```", text, flags=re.S)
    flags = doctest.NORMALIZE_WHITESPACE | (doctest.ELLIPSIS if ellipsis else 0)
    runner = doctest.DocTestRunner(optionflags=flags)
    runner.run(doctest.DocTestParser().get_doctest("\n".join(blocks), {}, name, name, 0))
    return runner.failures, runner.tries


def transcript(block: str) -> list[tuple[str, list[str]]]:
    """``$ command`` lines of a shell block, each with the lines shown after it."""
    commands: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        elif commands:
            commands[-1][1].append(line)
    return commands
