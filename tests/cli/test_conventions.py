"""The CLI's conventions (docs: README "Command line"): --json everywhere, one line of JSON,
plain-word placeholders, singular and plural, and located errors with exit status 2."""

from __future__ import annotations

import argparse
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from kop.cli.app import build_parser, main, plural

ROOT = Path(__file__).resolve().parents[2]
MUDDY = str(ROOT / "theories" / "muddy3.model.json")


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the command line in this process: (exit status, stdout, stderr)."""
    with pytest.raises(SystemExit) as stop:
        main(list(args))
    out = capsys.readouterr()
    return int(stop.value.code or 0), out.out, out.err


def test_every_command_has_json() -> None:
    commands = _commands()
    assert {"parse", "check", "announce", "minimize", "valid", "solve", "select", "demo", "run"} <= set(commands)
    missing = [name for name, p in commands.items()
               if not any("--json" in a.option_strings for a in p._actions)]
    assert missing == []


def test_placeholders_are_plain_words() -> None:
    odd = re.compile(r"_TEXT|_PATH|_FILE\b|[a-z]+_[a-z]+")  # FORMULA_TEXT, model_path, ...
    for name, p in _commands().items():
        for a in p._actions:
            shown = a.metavar if isinstance(a.metavar, str) else (a.dest if not a.option_strings else None)
            if shown and a.dest not in ("help",):
                assert not odd.search(shown), f"kop {name}: placeholder {shown!r}"


@pytest.mark.parametrize("args", [
    ("parse", "--json", "C{a,b}(p, K_a q)"),
    ("check", "--json", MUDDY, "K_a m_a"),
    ("announce", "--json", MUDDY, "m_a | m_b"),
    ("minimize", "--json", MUDDY),
    ("valid", "--json", "K_a p -> p"),
    ("solve", "--json", str(ROOT / "theories" / "figure2.json")),
    ("run", "--json", str(ROOT / "theories" / "figure2.kop")),
])
def test_json_is_one_line(capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
    status, out, err = run(capsys, *args)
    assert status == 0, err
    assert out.endswith("\n") and out.count("\n") == 1, out[:200]
    json.loads(out)


def test_announce_and_minimize_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, _ = run(capsys, "announce", MUDDY, "m_a | m_b | m_c", "--json")
    doc = json.loads(out)
    assert status == 0 and doc["worlds_before"] == 8 and doc["worlds_after"] == 7 and doc["output"] is None
    assert len(doc["model"]["worlds"]) == 7
    target = tmp_path / "after.json"
    status, out, err = run(capsys, "announce", MUDDY, "m_a & ~m_a", "-o", str(target), "--json")
    doc = json.loads(out)
    assert status == 0 and doc["worlds_after"] == 0 and doc["model"] is None and "false at every world" in doc["note"]
    assert target.is_file() and err == ""
    status, out, _ = run(capsys, "minimize", MUDDY, "--json")
    doc = json.loads(out)
    assert status == 0 and doc["worlds_before"] == 8 and doc["worlds_after"] == len(doc["model"]["worlds"])


def test_one_world_is_singular(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    single = tmp_path / "one.json"
    single.write_text(json.dumps({"format": "kop-model/1", "agents": ["a"], "worlds": {"w": ["p"]},
                                  "relations": {"a": [["w"]]}, "actual": ["w"]}))
    status, out, err = run(capsys, "check", str(single), "p")
    assert status == 0, err
    assert "true at 1 of 1 world: w" in out and "1 worlds" not in out
    status, out, _ = run(capsys, "satisfiable", "p")
    assert "(1 world," in out and "1 worlds" not in out
    theory = tmp_path / "one.kop"
    theory.write_text("agents a\nask satisfiable p\n")
    status, out, _ = run(capsys, "run", str(theory))
    assert status == 0 and "(model with 1 world)" in out
    assert plural(1, "world") == "1 world" and plural(2, "world") == "2 worlds"


@pytest.mark.parametrize("args, message", [
    (("parse", "K_a &"), "line 1, column"),
    (("check", "no-such-model.json", "p"), "no-such-model.json"),
    (("announce", MUDDY, "K_z (("), "line 1, column"),
    (("solve", str(ROOT / "theories" / "figure2.json"), "--strategy", "M-1"), "error:"),
    (("parse", "--no-such-flag", "p"), "unrecognized arguments"),
    (("no-such-command",), "invalid choice"),
])
def test_errors_exit_2_without_traceback(capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                         message: str) -> None:
    status, _, err = run(capsys, *args)
    assert status == 2 and message in err and "Traceback" not in err


def test_demo_mismatch_exits_1(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from kop.selection import worked_example

    monkeypatch.setitem(worked_example._EXPECTED_HM0M, 0, (4, 8))  # the paper says (4, 7)
    status, out, _ = run(capsys, "demo", "--json")
    doc = json.loads(out)
    assert status == 1 and doc["ok"] is False
    assert [c["what"] for c in doc["checks"] if not c["ok"]] == ["HM0M^0 value at the root"]


def test_console_script_help_and_version() -> None:
    r = subprocess.run([sys.executable, "-m", "kop", "--version"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.startswith("kop ")
    r = subprocess.run([sys.executable, "-m", "kop"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "commands:" in r.stdout and "--json prints one line of JSON" in r.stdout


def test_formats_md_json_examples_run_as_shown(tmp_path: Path) -> None:
    """The `$ kop ... --json` examples of docs/formats.md print exactly the lines shown."""
    text = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    section = text[text.index("## JSON output of the commands"):]
    lines = section.splitlines()
    pairs = [(lines[i][2:], lines[i + 1]) for i in range(len(lines) - 1) if lines[i].startswith("$ kop ")]
    assert len(pairs) >= 2
    (tmp_path / "theories").symlink_to(ROOT / "theories")
    for command, shown in pairs:
        args = command.split(" ", 1)[1]
        r = subprocess.run([sys.executable, "-m", "kop", *shlex.split(args)], capture_output=True, text=True,
                           cwd=tmp_path, timeout=120)
        assert r.returncode == 0, r.stderr
        assert r.stdout.rstrip("\n") == shown, command


def test_a_mistyped_command_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    """Only the command being run gets a real parser (start-up); a typo still sees them all."""
    status, _, err = run(capsys, "pars", "K_a p")
    assert status == 2 and "invalid choice: 'pars'" in err
    assert all(f"'{name}'" in err for name in _commands())
    status, out, _ = run(capsys, "parse", "K_a p")
    assert status == 0 and out == "K_a p\n"
