"""Write the notebooks of the tutorial and the agents guide from their Markdown pages.

    python docs/make_notebooks.py           # write docs/tutorial.ipynb and docs/agents.ipynb
    python docs/make_notebooks.py --check   # exit 1 if a notebook differs from its page

The Markdown pages are the source: edit them, then run this script. Each page becomes a Jupyter
notebook (nbformat 4.5, written as plain JSON) with:

- its prose as Markdown cells;
- each ``python`` block of doctest examples (``>>>``) as code cells, one per shown output: the
  examples up to one that shows an output make a cell, and that output is the cell's output
  (an ``execute_result`` when the last example is an expression, else printed text);
  a ``python`` block without ``>>>`` as one code cell;
- each file block (``<!-- file: NAME -->`` before a fenced block) as a ``%%writefile NAME`` cell;
- each command of a shell transcript (a ``sh`` or ``console`` block whose lines ``$ kop ...``
  are followed by what kop prints) as a ``!{sys.executable} -m kop ...`` cell with that output
  (kop run by the notebook's own interpreter, so it need not be on the shell's PATH; ``{``, ``}``
  and ``$`` in the arguments are doubled, as IPython reads them); other shell blocks (installing
  kop) stay in the prose.

A notebook with such cells starts with a cell that imports ``sys`` and, when the page runs
commands on the repository's files (``theories/...``), moves to the repository's root if it is
run from ``docs/``.
``tests/test_notebooks.py`` checks that the notebooks are up to date and runs every cell.
"""

from __future__ import annotations

import argparse
import ast
import doctest
import json
import re
import sys
from pathlib import Path
from typing import Any

DOCS = Path(__file__).resolve().parent
PAGES = ("tutorial", "agents")

_FENCE = re.compile(r"^```(?P<lang>[\w+-]*)\s*$")
_FILE = re.compile(r"^<!-- file: (?P<name>\S+) -->\s*$")

#: how a ``!`` cell calls kop: through the Python that runs the notebook (kop need not be on the shell's PATH)
KOP = "!{sys.executable} -m kop "
SETUP = (
    "# The `!` cells run kop's command line with this notebook's own Python: {sys.executable} -m kop ...\n"
    "import sys"
)
CD_TO_ROOT = (
    "# The commands below name the repository's files (theories/...): run them from its root.\n"
    "import os\n"
    "if not os.path.isdir(\"theories\") and os.path.isdir(os.path.join(\"..\", \"theories\")):\n"
    "    os.chdir(\"..\")"
)


def _lines(text: str) -> list[str]:
    """Jupyter's form of a multi-line string: lines with their newlines, the last without."""
    return text.splitlines(keepends=True)


def _markdown(text: str) -> dict[str, Any]:
    return {"cell_type": "markdown", "metadata": {}, "source": _lines(text)}


def _code(source: str, outputs: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": outputs or [],
            "source": _lines(source)}


def _stream(text: str) -> dict[str, Any]:
    return {"output_type": "stream", "name": "stdout", "text": _lines(text)}


def _result(text: str) -> dict[str, Any]:
    return {"output_type": "execute_result", "execution_count": None, "metadata": {},
            "data": {"text/plain": _lines(text.rstrip("\n"))}}


def _is_expression(source: str) -> bool:
    """Does the last statement of *source* show a value (an expression, not a ``print``)?"""
    body = ast.parse(source).body
    if not body or not isinstance(body[-1], ast.Expr):
        return False
    value = body[-1].value
    return not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "print")


def doctest_cells(body: str, name: str) -> list[dict[str, Any]]:
    """Code cells of a block of doctest examples: one per shown output, the output attached."""
    examples = doctest.DocTestParser().get_examples(body, name)
    cells: list[dict[str, Any]] = []
    source = ""
    for example in examples:
        source += example.source
        if example.want:
            code = source.rstrip("\n")
            output = _result(example.want) if _is_expression(example.source) else _stream(example.want)
            cells.append(_code(code, [output]))
            source = ""
    if source.strip():
        cells.append(_code(source.rstrip("\n")))
    return cells


def transcript_cells(body: str) -> list[dict[str, Any]] | None:
    """``!kop`` cells of a shell transcript, or None when the block is not one."""
    lines = body.splitlines()
    if not lines or not lines[0].startswith("$ "):
        return None
    commands: list[tuple[str, list[str]]] = []
    for line in lines:
        if line.startswith("$ "):
            if not line.startswith("$ kop "):
                return None
            commands.append((line[2:], []))
        else:
            commands[-1][1].append(line)
    cells = []
    for command, shown in commands:
        outputs = [_stream("\n".join(shown) + "\n")] if shown else []
        args = command[len("kop "):].replace("{", "{{").replace("}", "}}").replace("$", "$$")
        cells.append(_code(KOP + args, outputs))
    return cells


def notebook(markdown: str, source_name: str) -> dict[str, Any]:
    """The notebook (a JSON-ready dict) of a Markdown page."""
    cells: list[dict[str, Any]] = [_markdown(
        f"*This notebook is generated from [`{source_name}`]({source_name}) by `docs/make_notebooks.py`; "
        "edit the page, not the notebook. The `!` cells run kop's command line with the notebook's own "
        "Python (`{sys.executable} -m kop`): run the notebook where kop is installed (from a checkout: "
        "`pip install '.[draw]'`; the OpenSpiel examples also need `pip install open_spiel`).*")]
    commands = [line for line in markdown.splitlines() if line.startswith("$ kop ")]
    if commands:
        cells.append(_code(SETUP + ("\n" + CD_TO_ROOT if "theories/" in "".join(commands) else "")))
    prose: list[str] = []

    def flush() -> None:
        text = "\n".join(prose).strip("\n")
        if text:
            cells.append(_markdown(text))
        prose.clear()

    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        file_match = _FILE.match(line)
        fence = _FENCE.match(lines[i + 1] if file_match and i + 1 < len(lines) else line)
        if fence is None:
            prose.append(line)
            i += 1
            continue
        start = i + 2 if file_match else i + 1
        end = start
        while end < len(lines) and lines[end].rstrip() != "```":
            end += 1
        if end == len(lines):
            raise ValueError(f"{source_name}, line {start}: a fenced block that is not closed")
        body = "\n".join(lines[start:end]) + "\n"
        lang = fence.group("lang")
        new: list[dict[str, Any]] | None = None
        if file_match:
            name = file_match.group("name")
            new = [_code(f"%%writefile {name}\n{body}".rstrip("\n"), [_stream(f"Writing {name}\n")])]
        elif lang == "python":
            new = doctest_cells(body, source_name) if ">>>" in body else [_code(body.rstrip("\n"))]
        elif lang in ("sh", "console"):
            new = transcript_cells(body)
        if new is None:
            prose.extend(lines[i:end + 1])
        else:
            flush()
            cells.extend(new)
        i = end + 1
    flush()
    count = 0
    for index, cell in enumerate(cells):
        cell["id"] = f"cell-{index}"
        if cell["cell_type"] == "code":
            count += 1
            cell["execution_count"] = count
            for output in cell["outputs"]:
                if output["output_type"] == "execute_result":
                    output["execution_count"] = count
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def notebook_text(page: str) -> str:
    """The JSON text of ``docs/PAGE.ipynb`` made from ``docs/PAGE.md``."""
    markdown = (DOCS / f"{page}.md").read_text(encoding="utf-8")
    nb = notebook(markdown, f"{page}.md")
    return json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a notebook is not up to date")
    args = parser.parse_args(argv)
    stale = []
    for page in PAGES:
        path = DOCS / f"{page}.ipynb"
        text = notebook_text(page)
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        if args.check:
            stale.append(path.name)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(DOCS.parent)}")
    if stale:
        print(f"not up to date: {', '.join(stale)}; run: python docs/make_notebooks.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
