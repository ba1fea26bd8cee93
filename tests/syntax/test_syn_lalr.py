"""kop's LALR runtime (kop.syntax.lalr) gives Lark's results: same values, same tokens, same errors.

The formula parser runs Lark's tables without importing Lark (start-up).  These
properties run both on the same texts: well-formed formulas printed in ASCII
and Unicode, and arbitrary strings over the characters formulas are made of
(so that most of them are malformed, at every kind of place).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples
from lark.exceptions import UnexpectedCharacters as LarkUnexpectedCharacters
from lark.exceptions import UnexpectedInput as LarkUnexpectedInput

from formula_strategies import formulas
from kop.syntax import lalr
from kop.errors import ParseError
from kop.syntax.grammar_cache import lalr_parser, lalr_tables
from kop.syntax.parser import _Build, parse
from kop.syntax.printer import to_ascii, to_unicode

LARK = lalr_parser("s5n", lexer="contextual", transformer=_Build(), maybe_placeholders=False)
OURS = lalr.Parser(lalr_tables("s5n"), _Build())

#: the characters of formulas, and some that are not
ALPHABET = "pqKMCEDw_ab{}[](),~&|-<>!→↔¬∧∨⊤⊥ \n#$0"
texts = st.text(alphabet=ALPHABET, max_size=30) | st.lists(
    st.sampled_from(["K_a", "Kw_b", "Ma", "E{a,b}", "C[a]", "D_{b}", "C{a}(", ",", "p", "q", "true", "false",
                     "~", "&", "|", "->", "<->", "(", ")", "[!", "]", "<!", ">", " ", "\n", "K_", "E{", "#c\n",
                     "!", "$"]), max_size=14).map("".join)
SETTINGS = settings(max_examples=examples(3000), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _outcome(parser: Any, text: str, lark_errors: bool) -> tuple[Any, ...]:
    """What parsing *text* gives: ("value", formula), ("kop", message) or the error's kind and place."""
    from kop.syntax import parser as P

    P._TEXT[0] = text
    try:
        return ("value", parser.parse(text))
    except ParseError as exc:
        return ("kop", str(exc))
    except (LarkUnexpectedInput if lark_errors else lalr.UnexpectedInput) as exc:
        if isinstance(exc, (LarkUnexpectedCharacters, lalr.UnexpectedCharacters)):
            return ("characters", exc.pos_in_stream, exc.line, exc.column)
        tok = exc.token  # type: ignore[attr-defined]
        end = tok.end_pos if tok.type != "$END" else None  # Lark leaves it unset at an empty text's end
        return ("token", tok.type, str(tok), tok.start_pos, tok.line, tok.column, end,
                sorted(exc.expected))  # type: ignore[attr-defined]


def _tokens(lex: Any, text: str) -> list[tuple[Any, ...]]:
    out = []
    try:
        for t in lex(text):
            out.append((t.type, str(t), t.start_pos, t.line, t.column, t.end_line, t.end_column, t.end_pos))
    except (LarkUnexpectedInput, lalr.UnexpectedInput) as exc:
        out.append(("error", exc.line, exc.column))
    return out


@SETTINGS
@given(texts)
def test_same_outcome_as_lark_on_arbitrary_text(text):
    assert _outcome(OURS, text, False) == _outcome(LARK, text, True)


@SETTINGS
@given(texts)
def test_same_tokens_as_lark(text):
    assert _tokens(OURS.lex, text) == _tokens(LARK.lex, text)


@settings(max_examples=examples(1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(formulas(max_leaves=15), st.booleans())
def test_same_formula_as_lark_on_printed_formulas(phi, unicode):
    text = to_unicode(phi) if unicode else to_ascii(phi)
    assert _outcome(OURS, text, False) == _outcome(LARK, text, True) == ("value", phi)


@pytest.mark.parametrize("text", ["K_a p", "p\n&\n  q", "C{a,b}(p, [!q] K_a p) <-> ~Kw_b q", "# c\np"])
def test_examples_agree(text):
    assert _outcome(OURS, text, False) == _outcome(LARK, text, True)
    assert _tokens(OURS.lex, text) == _tokens(LARK.lex, text)


def test_parse_does_not_import_lark_once_the_tables_are_cached(tmp_path):
    import os
    import subprocess
    import sys

    code = ("import sys; from kop.syntax.parser import parse; parse('K_a p'); "
            "print('lark' in sys.modules)")
    env = {**os.environ, "KOP_CACHE_DIR": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120,
                           check=True).stdout.strip() for _ in range(2)]
    assert runs == ["True", "False"]  # the first run analyses the grammar with Lark and saves the tables
    (saved,) = tmp_path.glob("s5n-*.tables.json")
    saved.write_bytes(b"garbage")  # a damaged file is made again, not trusted
    again = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120,
                           check=True)
    assert again.stdout.strip() == "True" and saved.read_bytes() != b"garbage"


def test_tables_of_an_edited_grammar_are_not_reused(tmp_path, monkeypatch):
    from kop.syntax import grammar_cache

    monkeypatch.setenv("KOP_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "g").mkdir()
    grammar = tmp_path / "g" / "tiny.lark"
    monkeypatch.setattr(grammar_cache, "grammar_dir", lambda: tmp_path / "g")
    grammar.write_text('start: A\nA: "a"\n')
    assert lalr.Parser(lalr_tables("tiny"), None).parse("a").data == "start"
    grammar.write_text('start: B\nB: "b"\n')
    with pytest.raises(lalr.UnexpectedCharacters):
        lalr.Parser(lalr_tables("tiny"), None).parse("a")
    assert lalr.Parser(lalr_tables("tiny"), None).parse("b").data == "start"


def test_grammars_this_runtime_cannot_run_are_refused():
    with pytest.raises(ValueError, match="contextual"):
        lalr.tables_from_lark(lalr_parser("s5n", lexer="basic", maybe_placeholders=False))
