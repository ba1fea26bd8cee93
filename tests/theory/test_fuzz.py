"""Theory files are read safely: any text gives answers or a kop error, never another exception."""

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from profiles import examples

import kop

WORDS = ["players", "A", "B", "C", "max", "min", ",", "game", "root:", "{", "}", "(1,2)", "(3,0)", "(1)",
         "chance", "1/2", "->", "left", "scenario", "s1", "core", "=", "2", "know", "K_A", "E_B", "common",
         "p", "&", "ask", "dominates", "level", "decided", "select", "play", "A=Mh", "B=minimax", "in", "all",
         "base", "announce", "expect", "A:", "Mh", "(10,3)", "knows", "E_A", "among", "[1,2]", "order", "of",
         "within", "on", "exactly", "nothing", "model", "vocabulary", "law", "observes", "a:", "actual",
         "number", "x", "..", "where", "value", "x+1", "define", "d", "include", "\"t.kop\"", "tree",
         "\"f.json\"", "agents", "#", "\n", "\n", "\n", "valid", "entails", "check", "worlds", "99999999999",
         # characters that str.splitlines() breaks at but a parser does not (a CI failure: '0#\x1e')
         "\x1e", "\x1c", "\x85", "\u2028", "\x0c", "\r", "\r\n", "0#"]


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.sampled_from(WORDS), max_size=40))
def test_token_soup(tmp_path_factory, words):
    text = " ".join(words)
    base = tmp_path_factory.mktemp("fuzz")
    try:
        kop.run_theory(kop.parse_theory(text, base), timeout=5)
    except kop.KopError:
        pass


@settings(max_examples=examples(200), deadline=None)
@given(st.text(max_size=80))
@example("0#\x1e")
@example("players A max\x1c\n zz")
@example("know K_A \u2028 (")
def test_any_text(text):
    try:
        kop.run_theory(kop.parse_theory(text, "/nonexistent-folder"), timeout=5)
    except kop.KopError:
        pass


def test_error_lines_count_newlines_only():
    """A line separator other than \\n does not shift the line an error names."""
    text = "players A max, B max  # a\x1eb\u2028c\x85\nask (\n"
    try:
        kop.parse_theory(text, "/nonexistent-folder")
    except kop.KopError as exc:
        assert str(exc).startswith("line 2,"), str(exc)
    else:
        raise AssertionError("no error")
