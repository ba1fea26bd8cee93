"""Every entry of every error table (grammar/*.errors.toml) is a test: each example fails, located,
with exactly its entry's message, through the reader users call."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from lark.exceptions import UnexpectedInput

import kop
from kop.io.smcdel import _parser as smcdel_parser, parse_smcdel
from kop.syntax.examples import error_table, explain
from kop.syntax.grammar_cache import grammar_dir, lalr_parser
from kop.syntax.parser import _parser as formula_parser
from kop.theory.grammar import _parse_text, parse_theory

#: the reader users call, and the Lark parse function its errors come from, per grammar
READERS = {
    "s5n": (kop.parse, lambda text: formula_parser().parse(text)),
    "theory": (parse_theory, _parse_text),
    "smcdel": (parse_smcdel, lambda text: smcdel_parser().parse(text)),
}

TABLES = sorted(p.name.removesuffix(".errors.toml") for p in grammar_dir().glob("*.errors.toml"))

ENTRIES = [pytest.param(grammar, message, example, id=f"{grammar}:{example!r}")
           for grammar in READERS for message, examples in error_table(grammar) for example in examples]

#: the entries of tables whose reader is not listed in READERS (e.g. a new grammar's): checked on Lark alone
OTHER_ENTRIES = [pytest.param(grammar, message, example, id=f"{grammar}:{example!r}")
                 for grammar in TABLES if grammar not in READERS
                 for message, examples in error_table(grammar) for example in examples]


def test_every_table_has_a_reader() -> None:
    assert set(READERS) <= set(TABLES)
    assert all(error_table(g) for g in READERS)
    assert all((grammar_dir() / f"{g}.lark").is_file() for g in TABLES)


def test_the_tables_ship_in_the_wheel() -> None:
    pyproject = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    assert "grammar/*.errors.toml" in pyproject["tool"]["setuptools"]["package-data"]["kop"]


@pytest.mark.parametrize("grammar,message,example", OTHER_ENTRIES)
def test_example_of_another_table_fails_with_its_message(grammar: str, message: str, example: str) -> None:
    lark_parse = lalr_parser(grammar).parse
    with pytest.raises(UnexpectedInput) as lark_error:
        lark_parse(example)
    assert explain(grammar, lark_parse, lark_error.value) == message


@pytest.mark.parametrize("grammar,message,example", ENTRIES)
def test_example_fails_with_its_message(grammar: str, message: str, example: str) -> None:
    read, lark_parse = READERS[grammar]
    with pytest.raises(UnexpectedInput) as lark_error:
        lark_parse(example)
    with pytest.raises(kop.ParseError) as info:
        read(example)
    err = info.value
    assert err.expected == message, str(err)
    assert str(err).startswith(f"line {err.line}, column {err.column}: {message}")
    exc = lark_error.value
    if getattr(exc, "token", None) is None or exc.token.type != "$END":  # at the end: the end of the text
        assert (err.line, err.column) == (exc.line, exc.column), str(err)
    assert explain(grammar, lark_parse, exc) == message


def test_messages_are_distinct_and_examples_unique() -> None:
    for grammar in READERS:
        table = error_table(grammar)
        messages = [m for m, _ in table]
        assert len(messages) == len(set(messages)), grammar
        examples = [e for _, ex in table for e in ex]
        assert len(examples) == len(set(examples)), grammar


def test_an_error_no_example_explains_is_worded_from_the_grammar() -> None:
    # 'p q' fails in the same state as 'p = q' but on another kind of token: no entry applies
    with pytest.raises(UnexpectedInput) as lark_error:
        formula_parser().parse("p q")
    assert explain("s5n", formula_parser().parse, lark_error.value) is None
    with pytest.raises(kop.ParseError, match="expected an operator .* after 'p'"):
        kop.parse("p q")


def test_a_grammar_without_table_explains_nothing() -> None:
    with pytest.raises(UnexpectedInput) as lark_error:
        formula_parser().parse("p q")
    assert explain("no-such-grammar", formula_parser().parse, lark_error.value) is None


@pytest.mark.parametrize("keyword", ["players", "agents", "ask", "know", "common", "announce", "define", "model",
                                     "tree", "include", "decide", "scenario", "expect", "in", "game"])
def test_a_statement_cut_short_says_what_it_lacks(keyword: str) -> None:
    # before the tables, 'players' alone said "unknown word 'players': kop reads 'players' and then ''"
    with pytest.raises(kop.ParseError) as info:
        parse_theory(f"{keyword}\n")
    err = info.value
    assert "and then ''" not in str(err) and "ends inside a block" not in str(err), str(err)
    assert (err.line, err.column) == (1, len(keyword) + 1), str(err)
    assert err.expected.startswith("expected ") and f"'{keyword}'" in err.expected, str(err)


def test_a_misspelt_keyword_is_still_named() -> None:
    with pytest.raises(kop.ParseError, match="unknown word 'maximum': kop reads 'max' and then 'imum'"):
        parse_theory("players A maximum\n")
