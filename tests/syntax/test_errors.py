"""Malformed formulas get a ParseError naming the line, column and what was expected.

The same inputs through ``kop parse`` exit with status 2, print a caret, and no traceback.
"""

import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

from formula_strategies import formulas
from kop import ParseError, parse, to_ascii, to_unicode
from kop.syntax import parser as P
from kop.syntax.parser import MAX_DEPTH

# (text, line, column, part of the message)
MALFORMED = [
    ("", 1, 1, "expected a formula"),
    ("   ", 1, 1, "expected a formula"),
    ("K_A", 1, 4, "expected a formula after 'K_A'"),
    ("K_A K_B", 1, 8, "expected a formula after 'K_B'"),
    ("~", 1, 2, "expected a formula after '~'"),
    ("¬", 1, 2, "expected a formula after '~'"),
    ("p &", 1, 4, "expected a formula after '&'"),
    ("p ∧", 1, 4, "expected a formula after '&'"),
    ("p |", 1, 4, "expected a formula after '|'"),
    ("p ->", 1, 5, "expected a formula after '->'"),
    ("p <->", 1, 6, "expected a formula after '<->'"),
    ("& p", 1, 1, "expected a formula before '&'"),
    ("-> p", 1, 1, "expected a formula before '->'"),
    ("p q", 1, 3, "expected an operator (&, |, ->, <->) or the end of the formula after 'p'"),
    ("true false", 1, 6, "after 'true'"),
    ("(p", 1, 3, "expected ')' to close the parenthesis"),
    ("((p)", 1, 5, "expected ')' to close the parenthesis"),
    ("K_A (p", 1, 7, "expected ')' to close the parenthesis"),
    ("(p q", 1, 4, "or ')' after 'p'"),
    ("p)", 1, 2, "unmatched ')'"),
    ("p & & q", 1, 5, "expected a formula after '&'"),
    ("p | | q", 1, 5, "expected a formula after '|'"),
    ("p ->-> q", 1, 5, "expected a formula after '->'"),
    ("p & (q | )", 1, 10, "expected a formula after '|'"),
    ("K_ p", 1, 1, "expected an agent name after 'K_'"),
    ("M_ q", 1, 1, "expected an agent name after 'M_'"),
    ("E_ p", 1, 1, "expected an agent name after 'E_'"),
    ("K[] p", 1, 1, "expected one agent name"),
    ("K_{a b} p", 1, 1, "expected one agent name"),
    ("E{} p", 1, 1, "expected at least one agent in the group"),
    ("C{A;B} p", 1, 1, "expected agent names separated by commas"),
    ("D{a,} p", 1, 1, "expected agent names separated by commas"),
    ("E{A,B p", 1, 1, "expected agent names and a closing '}'"),
    ("[p] q", 1, 2, "expected '!' after '[' to begin an announcement"),
    ("[!]p", 1, 3, "expected the formula to announce after '!'"),
    ("[!p q", 1, 5, "or ']' after 'p'"),
    ("[!p", 1, 4, "expected ']' to close the announcement"),
    ("[!p]", 1, 5, "expected a formula after '[!p]'"),
    ("<!p q", 1, 5, "or '>' after 'p'"),
    ("<!(p & q) ", 1, 10, "expected '>' to close the announcement"),
    ("C{A,B}(p,", 1, 10, "expected a formula after ','"),
    ("C{A,B}(p, q", 1, 12, "expected ')' to close the parenthesis"),
    ("C{a}(p q", 1, 8, "',' or ')' after 'p'"),
    ("!p", 1, 1, "'~' is negation"),
    ("p $ q", 1, 3, "unexpected character '$'"),
    ("123", 1, 1, "unexpected character '1'"),
    ("p\n& \n", 2, 2, "expected a formula after '&'"),
    ("p &\n  (q |\n   r", 3, 5, "expected ')' to close the parenthesis"),
    ("p,q", 1, 2, "after 'p'"),
    ("K_A K_B E_A E_B", 1, 13, "after 'E_A'"),
]


def test_at_least_forty_cases():
    assert len(MALFORMED) >= 40


@pytest.mark.parametrize("text,line,column,message", MALFORMED)
def test_located_message(text, line, column, message):
    with pytest.raises(ParseError) as info:
        parse(text)
    err = info.value
    assert (err.line, err.column) == (line, column), str(err)
    assert message in err.expected, str(err)
    assert isinstance(err, ValueError)
    assert f"line {line}, column {column}" in str(err)
    caret = err.pretty().splitlines()[-1]
    assert caret.index("^") == column + 1  # two spaces of indentation


def test_deep_nesting_is_a_clear_limit_not_a_crash():
    deep = "~" * (MAX_DEPTH + 10) + "p"
    with pytest.raises(ParseError) as info:
        parse(deep)
    assert "nested at most" in str(info.value)
    # parentheses do not nest the AST: 4,000 of them parse without recursion; beyond
    # 5 * MAX_DEPTH open brackets the reader stops at once (issue 16: one fast nesting limit)
    parens = "(" * 4000 + "p" + ")" * 4000
    assert parse(parens) == parse("p")
    with pytest.raises(ParseError, match="nested at most"):
        parse("(" * 20000 + "p" + ")" * 20000)


def test_nesting_within_the_limit_parses():
    f = parse("K_a " * 500 + "p")
    assert f.modal_depth() == 500


def test_long_flat_conjunction_is_shallow():
    f = parse(" & ".join(f"p{i}" for i in range(5000)))
    assert len(f.args) == 5000


#: the characters of formulas, and some that are not; and pieces of formulas (so most texts are malformed,
#: at every kind of place)
ALPHABET = "pqKMCEDPBw_ab{}[](),~&|-<>!→↔¬∧∨⊤⊥≥≤=⟨⟩ \n#$0123./"
texts = st.text(alphabet=ALPHABET, max_size=30) | st.lists(
    st.sampled_from(["K_a", "Kw_b", "Ma", "E{a,b}", "C[a]", "D_{b}", "C{a}(", ",", "p", "q", "true", "false",
                     "~", "&", "|", "->", "<->", "(", ")", "[!", "]", "<!", ">", " ", "\n", "K_", "E{", "#c\n",
                     "!", "$", "P_a(", ">=", "1/3", "0.5", "1/0", "B_a", "B_a(", "="]), max_size=14).map("".join)


def _outcome(text):
    """The formula's constructors, or the error's line, column and message."""
    try:
        return ("formula", parse(text).structure())
    except ParseError as err:
        return ("error", err.line, err.column, err.expected)


@settings(max_examples=examples(1000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts | formulas(max_leaves=10, uncertain=True).map(to_unicode) | formulas(max_leaves=10).map(to_ascii))
def test_any_text_gives_a_formula_or_a_located_error(text):
    """A formula that prints and reads back, or a ParseError inside the text; and the same outcome when the text
    is long enough to be read token by token (the parse stack watched for the nesting limit)."""
    outcome = _outcome(text)
    if outcome[0] == "formula":
        f = parse(text)
        assert parse(to_ascii(f)) == f == parse(to_unicode(f))
    else:
        _, line, column, _ = outcome
        lines = text.split("\n")
        assert 1 <= line <= len(lines) and 1 <= column <= len(lines[line - 1]) + 1
    padded = text + " " * P._MAX_STACK
    assert len(padded) >= P._MAX_STACK and _outcome(padded) == outcome


def _run_cli(*args):
    return subprocess.run([sys.executable, "-m", "kop", *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("text,line,column,message", MALFORMED)
def test_cli_exit_code_2_without_traceback(text, line, column, message):
    r = _run_cli("parse", "--", text)  # "--": a formula may start with "-"
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert f"line {line}, column {column}" in r.stderr
    assert "^" in r.stderr


def test_cli_deep_input_no_traceback():
    r = _run_cli("parse", "~" * 5000 + "p")
    assert r.returncode == 2 and "Traceback" not in r.stderr
