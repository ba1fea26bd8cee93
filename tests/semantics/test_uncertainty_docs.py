"""docs/uncertainty.md runs as shown: its Python examples and its command-line transcript."""

from __future__ import annotations

from doc_examples import ROOT, page, python_blocks, run_kop, run_python_blocks, shell_block, transcript

TEXT = page("uncertainty.md")
TEXT = TEXT[:TEXT.index("## Opponent types and PrOM")]     # the logic's sections (the game trees': tests/selection)


def test_python_examples(monkeypatch):
    monkeypatch.chdir(ROOT)
    failed, tried = run_python_blocks(TEXT, "docs/uncertainty.md", ellipsis=False)
    assert failed == 0 and tried >= 20


def test_json_example_is_the_model_file():
    import json

    shown = json.loads(python_blocks(TEXT, fence="json")[0])
    on_disk = json.loads((ROOT / "theories" / "coin_belief.model.json").read_text(encoding="utf-8"))
    on_disk.pop("format")
    assert shown == on_disk


def test_command_line_transcript():
    commands = transcript(shell_block(TEXT))
    assert len(commands) == 3
    for command, expected in commands:
        r = run_kop(command, timeout=120)
        assert (r.stdout + r.stderr).splitlines() == expected, command
        assert r.returncode == (2 if "error:" in "".join(expected) else 0)
