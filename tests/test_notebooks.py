"""The notebooks of the tutorial and the agents guide (docs/tutorial.ipynb, docs/agents.ipynb):
up to date with their Markdown pages, and every code cell runs, in order, and shows what the
notebook shows.

The cells run in this process, in one namespace, without a Jupyter kernel, from a fresh folder
where ``theories/`` is the repository's: a Python cell is executed (its last expression's value
shown as Jupyter shows it), a ``%%writefile NAME`` cell writes NAME, and a ``!kop ARGS`` cell runs
kop's command line (as Jupyter's ``!`` runs a shell command).
"""

from __future__ import annotations

import ast
import contextlib
import doctest
import importlib.util
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("make_notebooks", ROOT / "docs" / "make_notebooks.py")
assert _spec is not None and _spec.loader is not None
make_notebooks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_notebooks)

CHECKER = doctest.OutputChecker()
FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


def _text(value: str | list[str]) -> str:
    return value if isinstance(value, str) else "".join(value)


def _shown(cell: dict[str, Any]) -> str:
    """What the notebook shows below a code cell, as one text."""
    out = ""
    for output in cell["outputs"]:
        if output["output_type"] == "stream":
            out += _text(output["text"])
        else:
            out += _text(output["data"]["text/plain"]) + "\n"
    return out


def _run_python(source: str, namespace: dict[str, Any]) -> str:
    """Execute a cell as Jupyter does: printed text, then the value of a last expression."""
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    assert last is None or isinstance(last, ast.Expr)
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        exec(compile(tree, "<cell>", "exec"), namespace)
        if last is not None:
            value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
            if value is not None:
                print(repr(value))
    return buffer.getvalue()


def _expand(command: str, namespace: dict[str, Any]) -> str:
    """A ``!`` cell's command as IPython hands it to the shell: ``{expression}`` is replaced by its
    value in the notebook's namespace, ``{{``, ``}}`` and ``$$`` stand for ``{``, ``}`` and ``$``."""
    out, i = "", 0
    while i < len(command):
        two = command[i:i + 2]
        if two in ("{{", "}}", "$$"):
            out, i = out + two[0], i + 2
        elif command[i] == "{":
            end = command.index("}", i)
            out, i = out + str(eval(command[i + 1:end], namespace)), end + 1
        else:
            out, i = out + command[i], i + 1
    return out


def _without_kop_on_path() -> str:
    """PATH without the folders that hold a ``kop`` script: a newcomer's shell, where the venv is not active."""
    return os.pathsep.join(d for d in os.environ.get("PATH", "").split(os.pathsep)
                           if d and not (Path(d) / "kop").exists())


def _run_kop(command: str, cwd: Path, namespace: dict[str, Any]) -> tuple[int, str, str]:
    """Run a ``!`` cell as Jupyter does: through the shell (without kop on PATH); (status, stdout, stderr)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), PATH=_without_kop_on_path())
    r = subprocess.run(_expand(command, namespace), shell=True, capture_output=True, text=True, cwd=cwd,
                       env=env, timeout=600)
    assert "Traceback" not in r.stderr, f"{command}\n{r.stderr}"
    return r.returncode, r.stdout, r.stderr


def _lines_in_order(shown: str, got: str) -> str | None:
    """None when every shown line (a ``...`` line marks lines left out) is a line of *got*, in
    order; else the first shown line that is not."""
    got_lines = [line.rstrip() for line in got.splitlines()]
    i = 0
    for line in shown.splitlines():
        line = line.rstrip()
        if not line.strip() or line.strip() in ("...", "…"):
            continue
        while i < len(got_lines) and got_lines[i] != line:
            i += 1
        if i == len(got_lines):
            return line
        i += 1
    return None


def _shown_warnings(err: str, shown: str) -> bool:
    """Whether every line of *err* is a ``warning:`` line that the page shows (a documented warning)."""
    lines = [line for line in err.splitlines() if line]
    return all(line.startswith("warning:") and line in shown.splitlines() for line in lines)


def run_notebook(nb: dict[str, Any], cwd: Path) -> tuple[int, list[str]]:
    """Run every code cell of *nb* in order from *cwd*; (cells run, mismatches)."""
    namespace: dict[str, Any] = {"__name__": "__main__"}
    problems: list[str] = []
    ran = 0
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = _text(cell["source"])
        shown = _shown(cell)
        ran += 1
        if source.startswith("%%writefile "):
            header, _, body = source.partition("\n")
            (cwd / header.split()[1]).write_text(body, encoding="utf-8")  # as IPython writes it
        elif source.startswith("!"):
            status, out, err = _run_kop(source[1:], cwd, namespace)
            got = out + err
            expected_status = 2 if any(line.startswith("error:") for line in shown.splitlines()) else 0
            if status != expected_status:
                problems.append(f"{source}: exit status {status}, expected {expected_status}\n{got}")
            elif err and not expected_status and not _shown_warnings(err, shown):
                # any error output fails the cell, even with status 0, but a warning the page shows
                problems.append(f"{source}: printed on stderr\n{err}")
            missing = _lines_in_order(shown, got)
            if missing is not None:
                problems.append(f"{source}: the notebook shows\n{missing}\nbut kop printed\n{got}")
        else:
            assert not source.startswith("%"), source
            got = _run_python(source, namespace)
            if not CHECKER.check_output(shown, got, FLAGS):
                problems.append(f"cell {cell['id']}:\n{source}\nshows\n{shown}but gives\n{got}")
    return ran, problems


def _load(page: str) -> dict[str, Any]:
    return json.loads((ROOT / "docs" / f"{page}.ipynb").read_text(encoding="utf-8"))


@pytest.mark.parametrize("page", make_notebooks.PAGES)
def test_notebook_is_up_to_date(page: str) -> None:
    text = (ROOT / "docs" / f"{page}.ipynb").read_text(encoding="utf-8")
    assert text == make_notebooks.notebook_text(page), \
        f"docs/{page}.ipynb is not up to date with docs/{page}.md: run python docs/make_notebooks.py"


@pytest.mark.parametrize("page", make_notebooks.PAGES)
def test_notebook_is_nbformat_4(page: str) -> None:
    nb = _load(page)
    assert (nb["nbformat"], nb["nbformat_minor"]) == (4, 5)
    assert nb["metadata"]["kernelspec"]["language"] == "python"
    ids = [cell["id"] for cell in nb["cells"]]
    assert len(set(ids)) == len(ids)
    for cell in nb["cells"]:
        assert cell["cell_type"] in ("markdown", "code")
        assert isinstance(cell["source"], list) and isinstance(cell["metadata"], dict)
        if cell["cell_type"] == "code":
            assert isinstance(cell["execution_count"], int)
            for output in cell["outputs"]:
                assert output["output_type"] in ("stream", "execute_result")
        else:
            assert "outputs" not in cell


def test_the_notebooks_hold_the_pages_examples() -> None:
    tutorial, agents = _load("tutorial"), _load("agents")
    sources = ["".join(c["source"]) for c in tutorial["cells"] if c["cell_type"] == "code"]
    assert sum(s.startswith("%%writefile ") for s in sources) == 4
    assert sum(s.startswith(make_notebooks.KOP) for s in sources) >= 6
    agent_cells = [c for c in agents["cells"] if c["cell_type"] == "code"]
    from doc_examples import page, python_blocks

    examples = doctest.DocTestParser().get_examples("".join(python_blocks(page("agents.md"))))
    # every doctest example with an output is a cell of its own with that output
    assert sum(1 for e in examples if e.want) == sum(
        1 for c in agent_cells if c["outputs"] and not "".join(c["source"]).startswith("!"))
    assert any("".join(c["source"]).startswith(make_notebooks.KOP + "match") for c in agent_cells)


@pytest.mark.parametrize("page", make_notebooks.PAGES)
def test_kop_cells_call_kop_through_the_notebooks_python(page: str) -> None:
    """``!kop`` would need kop on the shell's PATH (issue 29: "kop: command not found" in every cell)."""
    sources = ["".join(c["source"]) for c in _load(page)["cells"] if c["cell_type"] == "code"]
    commands = [i for i, s in enumerate(sources) if s.startswith("!")]
    assert commands and all(sources[i].startswith("!{sys.executable} -m kop ") for i in commands)
    assert any(line == "import sys" for s in sources[:commands[0]] for line in s.splitlines())


def test_the_runner_fails_where_jupyter_prints_an_error(tmp_path: Path) -> None:
    """A ``!kop`` cell without kop on PATH, and a cell that writes on stderr, fail the notebook."""
    def cell(source: str, shown: str) -> dict[str, Any]:
        return {"cell_type": "code", "id": "c", "source": [source],
                "outputs": [{"output_type": "stream", "name": "stdout", "text": [shown]}]}

    nb = {"cells": [cell("import sys", ""), cell("!kop parse p", "p\n"),
                    cell("!{sys.executable} -m kop parse p 1>&2", "p\n"),
                    cell("!{sys.executable} -m kop parse \"C{{a,b}} p\"", "C{a,b} p\n")]}
    ran, problems = run_notebook(nb, tmp_path)
    assert ran == 4 and len(problems) == 3, problems   # the braces of the last cell are IPython's escapes
    assert "!kop parse p: exit status 127" in problems[0] and "kop: not found" in problems[1]
    assert "printed on stderr" in problems[2]


def test_the_runner_sees_a_wrong_output(tmp_path: Path) -> None:
    """A notebook whose shown outputs are wrong fails: the Python value, the printed text and
    the command's output are all compared."""
    page = ("# A page\n\n```python\n>>> 1 + 1\n3\n>>> print('a')\nb\n>>> x = 2\n>>> x * 2\n4\n\n```\n\n"
            "```sh\n$ kop parse \"K_a p\"\nK_b p\n$ kop parse \"K_a p\"\nK_a p\n$ kop parse \"(\"\nK_a p\n```\n")
    nb = make_notebooks.notebook(page, "page.md")
    ran, problems = run_notebook(nb, tmp_path)
    assert ran == 7   # and the cell that imports sys
    assert len(problems) == 5, problems
    assert problems[0].startswith("cell") and "gives\n2" in problems[0]
    assert "gives\na" in problems[1]
    assert "K_b p" in problems[2]
    assert "exit status 2, expected 0" in problems[3] and "K_a p" in problems[4]


@pytest.mark.parametrize("page", make_notebooks.PAGES)
def test_notebook_runs_and_shows_what_it_shows(page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if page == "agents":
        pytest.importorskip("pyspiel")
    if page == "tutorial":
        pytest.importorskip("matplotlib")   # the tutorial draws the tree (it asks for the draw extra)
    (tmp_path / "theories").symlink_to(ROOT / "theories", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    nb = _load(page)
    ran, problems = run_notebook(nb, tmp_path)
    assert not problems, "\n\n".join(problems)
    assert ran == sum(1 for cell in nb["cells"] if cell["cell_type"] == "code") >= 10
