"""The engine sections of docs/models.md (above "## Puzzles") run as shown."""

from __future__ import annotations

from doc_examples import ROOT, page, run_kop, run_python_blocks, shell_block, transcript


def _engine_section() -> str:
    text = page("models.md")
    return text[:text.index("## Puzzles")]


def test_python_examples(monkeypatch):
    monkeypatch.chdir(ROOT)
    failed, tried = run_python_blocks(_engine_section(), "docs/models.md#engine", ellipsis=False)
    assert failed == 0 and tried >= 30


def test_command_line_transcript(tmp_path):
    """Each '$ kop ...' line, run in a scratch directory, prints the lines shown after it."""
    (tmp_path / "theories").symlink_to(ROOT / "theories")
    commands = transcript(shell_block(_engine_section(), after="# Command line\n"))
    assert len(commands) >= 5
    for command, expected in commands:
        r = run_kop(command, cwd=tmp_path)
        got = (r.stdout + r.stderr).splitlines()
        assert sorted(got) == sorted(expected), command
        assert "Traceback" not in r.stderr
