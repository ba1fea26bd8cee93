"""Syntax errors explained by example: one table of bad inputs and their messages per grammar.

A table is data, ``grammar/<grammar>.errors.toml`` beside ``grammar/<grammar>.lark``: an array
of tables ``[[error]]``, each with a ``message`` and the ``examples`` (bad inputs) it explains::

    [[error]]
    message = "expected a formula after '&'"
    examples = ["p &", "p & )"]

When a reader's Lark parser fails, :func:`explain` looks for an example that fails the same way:
in the same parser state (Lark's :meth:`~lark.exceptions.UnexpectedInput.match_examples`) and,
as this module adds, on the same kind of token (an example that fails on ``)`` does not explain
an error on ``q`` in the same state) or, for a character no token starts with, in the same
state.  The reader adds the line and column.  Every example is a test
(``tests/syntax/test_error_examples.py``): reading it must fail with its entry's message.

>>> from kop import parse, ParseError
>>> try:
...     parse("p = q")
... except ParseError as err:
...     print(err)
line 1, column 3: expected an operator (&, |, ->, <->); '=' compares a probability only, as in P_a(phi) = r (equivalence is '<->'); found '='
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from lark.exceptions import UnexpectedCharacters, UnexpectedInput

from kop.errors import KopError
from kop.syntax.grammar_cache import grammar_dir

__all__ = ["explain", "error_table"]

#: (message, examples) in the order of the file
Table = tuple[tuple[str, tuple[str, ...]], ...]


@lru_cache(maxsize=None)
def error_table(grammar: str) -> Table:
    """The entries of ``grammar/<grammar>.errors.toml``: (message, examples), in file order.

    A grammar without a table has none (an empty tuple).

    >>> message, examples = error_table("s5n")[0]
    >>> isinstance(message, str) and len(examples) > 0
    True
    >>> error_table("no-such-grammar")
    ()
    """
    path = grammar_dir() / f"{grammar}.errors.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return ()
    except (OSError, tomllib.TOMLDecodeError) as exc:  # a broken shipped file is kop's fault: say which
        raise KopError(f"{path}: {exc}") from None
    entries = []
    for i, entry in enumerate(data.get("error", [])):
        message, examples = entry.get("message"), entry.get("examples")
        if not isinstance(message, str) or not isinstance(examples, list) or \
                not all(isinstance(e, str) for e in examples):
            raise KopError(f"{path}: [[error]] number {i + 1} needs message = \"...\" and examples = [\"...\", ...]")
        entries.append((message, tuple(examples)))
    return tuple(entries)


def _kind(error: UnexpectedInput) -> str:
    """What an error failed on: a token type (``$END`` at the end), or ``characters``."""
    if isinstance(error, UnexpectedCharacters):
        return "characters"
    token = getattr(error, "token", None)
    return str(getattr(token, "type", "$END"))


def _failure(parse: Callable[[str], object], example: str) -> UnexpectedInput | None:
    try:
        parse(example)
    except UnexpectedInput as exc:
        return exc
    except Exception:  # noqa: BLE001 - an example a reader's callbacks reject explains nothing
        return None
    return None


def explain(grammar: str, parse: Callable[[str], object], error: UnexpectedInput) -> str | None:
    """The message of the table entry whose examples fail like *error*, or None.

    Parameters
    ----------
    grammar : str
        The grammar's name: its table is ``grammar/<grammar>.errors.toml``.
    parse : callable
        The reader's Lark parse function (the one that raised *error*), run on the examples.
    error : lark.exceptions.UnexpectedInput
        What Lark raised.

    Returns
    -------
    str or None
        The message (the reader adds line and column), or None when no example fails in the
        same parser state on the same kind of token: the reader then says what Lark expected.

    Examples
    --------
    >>> from lark.exceptions import UnexpectedInput
    >>> from kop.syntax.parser import _parser
    >>> try:
    ...     _parser().parse("[p] q")
    ... except UnexpectedInput as exc:
    ...     print(explain("s5n", _parser().parse, exc))
    expected '!' after '[' to begin an announcement
    """
    if getattr(error, "state", None) is None:
        return None
    kind = _kind(error)
    same_kind = [(message, [e for e in examples if _fails_on(grammar, parse, e) == kind])
                 for message, examples in error_table(grammar)]
    same_kind = [(message, examples) for message, examples in same_kind if examples]
    if not same_kind:
        return None
    label = error.match_examples(_guarded(parse), same_kind, token_type_match_fallback=True)
    return label if isinstance(label, str) else None


_KINDS: dict[tuple[str, str], str | None] = {}


def _fails_on(grammar: str, parse: Callable[[str], object], example: str) -> str | None:
    """The kind of token *example* fails on (remembered per grammar), None if it does not fail in Lark."""
    key = (grammar, example)
    if key not in _KINDS:
        failure = _failure(parse, example)
        _KINDS[key] = None if failure is None else _kind(failure)
    return _KINDS[key]


def _guarded(parse: Callable[[str], object]) -> Callable[[str], Any]:
    """*parse*, with errors other than Lark's (a reader's callback rejecting an example) ignored."""
    def run(text: str) -> Any:
        try:
            return parse(text)
        except UnexpectedInput:
            raise
        except Exception:  # noqa: BLE001 - see _failure
            return None
    return run
