"""The tutorial's commands run and print what it shows; the README's main command checks every figure;
the reference's Python example runs."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from doc_examples import page, python_blocks, transcript
from extras import needs_draw

ROOT = Path(__file__).resolve().parents[2]


def _blocks(text):
    """(kind, file name or None, body) for every fenced block, in order."""
    out = []
    pat = re.compile(r"(?:<!-- file: (?P<file>[^ ]+) -->\n)?```(?P<lang>\w*)\n(?P<body>.*?)```", re.S)
    for m in pat.finditer(text):
        out.append((m.group("lang"), m.group("file"), m.group("body")))
    return out


def _kop(args, cwd):
    return subprocess.run([sys.executable, "-m", "kop", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=600)


#: the line that marks output left out of a transcript
ELLIPSIS = "…"


def shown_output_problem(shown: list[str], got: list[str]) -> str | None:
    """None when *shown* is *got* with left-out runs of lines marked by an ``…`` line, else what is wrong.

    Every shown line is printed, in order; lines shown one after the other are printed one after the
    other, and output before the first or after the last shown line is marked too.
    """
    at = -1
    gap = True       # output before the first shown line must be marked
    for e in shown:
        if e.strip() == ELLIPSIS:
            gap = True
            continue
        if not e.strip():
            continue
        try:
            j = got.index(e.rstrip(), at + 1)
        except ValueError:
            return f"the tutorial shows\n{e}\nwhich kop did not print (in this order)"
        if not gap and any(x.strip() for x in got[at + 1:j]):
            return f"lines left out before\n{e}\nare not marked with a line '{ELLIPSIS}'"
        if gap and at == -1 and j > 0 and shown and shown[0].strip() != ELLIPSIS and any(x.strip() for x in got[:j]):
            return f"lines left out before\n{e}\nare not marked with a line '{ELLIPSIS}'"
        at, gap = j, False
    if not gap and any(x.strip() for x in got[at + 1:]):
        return f"lines left out at the end are not marked with a line '{ELLIPSIS}'"
    return None


def test_shown_output_problem_catches_unmarked_gaps():
    got = ["a", "b", "c", "d"]
    assert shown_output_problem(["a", "b", "c", "d"], got) is None
    assert shown_output_problem(["a", ELLIPSIS, "d"], got) is None
    assert shown_output_problem([ELLIPSIS, "c", ELLIPSIS], got) is None
    assert "left out before" in shown_output_problem(["a", "d"], got)
    assert "at the end" in shown_output_problem(["a", "b"], got)
    assert "left out before" in shown_output_problem(["b", "c", "d"], got)
    assert "did not print" in shown_output_problem(["a", "x"], got)


@needs_draw  # the tutorial draws the tree (it asks for the draw extra)
def test_tutorial_commands_run_and_print_what_it_shows(tmp_path):
    blocks = _blocks(page("tutorial.md"))
    assert blocks
    ran = 0
    for lang, file, body in blocks:
        if file:
            (tmp_path / file).write_text(body, encoding="utf-8")
            continue
        if lang != "sh":
            continue
        for command, expected in transcript(body):
            line = f"$ {command}"
            assert command.startswith("kop "), f"a tutorial command that is not kop: {line}"
            r = _kop(command.split()[1:], tmp_path)
            assert r.returncode == 0, f"{line}\n{r.stderr}"
            got = [x.rstrip() for x in r.stdout.splitlines()]
            problem = shown_output_problem(expected, got)
            assert problem is None, f"{line}: {problem}\nkop printed\n{r.stdout}"
            ran += 1
    assert ran >= 5


def test_readme_main_command_checks_every_figure():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    cmd = "python3 -m venv .venv && .venv/bin/pip install -q . && .venv/bin/kop dominates theories/figure2.kop"
    assert cmd in readme
    r = _kop(["dominates", "theories/figure2.kop"], ROOT)
    assert r.returncode == 0, r.stderr
    assert "40 of 40 expected figures match." in r.stdout
    for s in ("Recommendation: minimax, outcome (4, 7); communication does not apply.",
              "Recommendation: HM0M1, outcome (9, 4); with communication (scheme I) (10, 3).",
              "Recommendation: HM0M2, outcome (9, 4); with communication (scheme I) (10, 3)."):
        assert s in r.stdout


def test_reference_python_example_runs(monkeypatch):
    code = python_blocks(page("theories.md"))[0]
    monkeypatch.chdir(ROOT)
    env: dict = {}
    exec(compile(code.replace("    print(", "    (", 1), "theories.md", "exec"), env)
    assert (env["r"].recommended, env["r"].outcome, env["r"].outcome_with_communication) == \
        ("HM0M1", (9, 4), (10, 3))
    assert "worse for both players" in env["r"].mstar_note
