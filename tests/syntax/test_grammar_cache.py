"""The grammar cache (start-up): analysed once, loaded afterwards, never stale, never fatal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kop.syntax import grammar_cache
from kop.syntax.grammar_cache import cache_dir, grammar_dir, lalr_parser

PARSE = ("from kop.syntax.grammar_cache import lalr_parser; from kop.syntax.parser import _Build; "
         "p = lalr_parser('s5n', lexer='contextual', transformer=_Build(), maybe_placeholders=False); "
         "print(p.parse('C{a,b}(p, K_a ~q) -> [!p] Kw_b q').structure())")
EXPECTED = "Implies(RelCommon(('a', 'b'), Atom('p'), Know('a', Not(Atom('q')))), " \
           "Announce(Atom('p'), KnowWhether('b', Atom('q'))))"


def _run(code: str, cache: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KOP_CACHE_DIR": cache}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)


def test_first_run_writes_the_cache_and_later_runs_read_it(tmp_path: Path) -> None:
    first = _run(PARSE, str(tmp_path))
    assert first.returncode == 0, first.stderr
    files = sorted(p.name for p in tmp_path.iterdir())
    assert len(files) == 1 and files[0].startswith("s5n-") and files[0].endswith(".lark-cache")
    second = _run(PARSE, str(tmp_path))
    assert second.returncode == 0 and second.stdout == first.stdout
    assert first.stdout.strip() == EXPECTED
    # later runs do not analyse the grammar: with Lark's grammar reader taken away, they still parse
    no_analysis = "import lark.lark\nlark.lark.load_grammar = None\n" + PARSE
    assert _run(no_analysis, str(tmp_path)).stdout == first.stdout
    assert _run(no_analysis, str(tmp_path / "empty")).returncode != 0    # (the probe can fail)


def test_a_corrupt_cache_is_rebuilt(tmp_path: Path) -> None:
    assert _run(PARSE, str(tmp_path)).returncode == 0
    (cached,) = tmp_path.iterdir()
    cached.write_bytes(b"not a pickle")
    again = _run(PARSE, str(tmp_path))
    assert again.returncode == 0 and again.stdout.strip() == EXPECTED
    assert cached.read_bytes() != b"not a pickle"  # written anew


def test_an_edited_grammar_gets_a_new_cache_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KOP_CACHE_DIR", str(tmp_path))
    (tmp_path / "g").mkdir()
    grammar = tmp_path / "g" / "tiny.lark"
    grammar.write_text('start: "a"\n')
    monkeypatch.setattr(grammar_cache, "grammar_dir", lambda: tmp_path / "g")
    lalr_parser("tiny").parse("a")
    grammar.write_text('start: "b"\n')
    assert lalr_parser("tiny").parse("b").data == "start"
    assert len(list(tmp_path.glob("tiny-*.lark-cache"))) == 2


def test_cache_off_or_unwritable_still_parses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KOP_CACHE_DIR", "")
    assert cache_dir() is None
    assert lalr_parser("s5n", lexer="contextual").parse("K_a p").data == "start"
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("KOP_CACHE_DIR", str(blocker / "sub"))  # a folder under a file: cannot be made
    assert lalr_parser("s5n", lexer="contextual").parse("K_a p").data == "start"


def test_default_cache_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("KOP_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_dir() == tmp_path / "kop"


def test_grammars_are_found() -> None:
    assert (grammar_dir() / "s5n.lark").is_file() and (grammar_dir() / "theory.lark").is_file()


def test_one_copy_of_each_grammar() -> None:
    """grammar/ (readable at the top of the repository) and kop/grammar (shipped in the wheel)
    are one folder: kop/grammar is a link to it, not a second copy."""
    root = Path(__file__).resolve().parents[2]
    if not (root / "grammar").is_dir():  # an installed copy without the repository around it
        pytest.skip("not a source checkout")
    assert (root / "kop" / "grammar").resolve() == (root / "grammar").resolve()
    pyproject = (root / "pyproject.toml").read_text(encoding="utf-8")
    assert '"grammar/*.lark"' in pyproject  # shipped as package data
