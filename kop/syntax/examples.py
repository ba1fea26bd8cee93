"""Errors by example: the messages of common syntax errors, written as a table of bad inputs.

``grammar/<grammar>.errors.toml`` holds an array of tables ``[[error]]``, each a ``message``
and the ``examples`` (bad inputs) that should get it.  :func:`explain` parses the examples
with the reader's own parser and returns the message of the first one that fails in the same
parser state as the error at hand (Lark's :meth:`UnexpectedInput.match_examples
<lark.exceptions.UnexpectedInput.match_examples>`), or None, so that the reader can fall back
to Lark's "expected ..." wording.

>>> from lark.exceptions import UnexpectedInput
>>> from kop.syntax.grammar_cache import lalr_parser
>>> parse = lalr_parser("epddl").parse
>>> try:
...     parse("(define (domain d) (:derived (p)))")
... except UnexpectedInput as e:
...     print(explain("epddl", parse, e)[:30])
a domain section kop reads: :r
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

from kop.syntax.grammar_cache import grammar_dir

if TYPE_CHECKING:  # pragma: no cover
    from lark.exceptions import UnexpectedInput

__all__ = ["explain", "error_table"]


@lru_cache(maxsize=None)
def error_table(grammar: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The ``(message, examples)`` entries of ``grammar/<grammar>.errors.toml``, in order (empty when none).

    >>> message, examples = error_table("epddl")[0]
    >>> isinstance(message, str) and len(examples) >= 1
    True
    """
    path = grammar_dir() / f"{grammar}.errors.toml"
    if not path.is_file():
        return ()
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return tuple((str(e["message"]), tuple(str(x) for x in e["examples"])) for e in data.get("error", []))


def explain(grammar: str, parse: Callable[[str], object], error: UnexpectedInput) -> str | None:
    """The message of the table entry whose example fails like *error* does, or None.

    *parse* is the reader's parser (it must raise Lark's errors for the examples).
    """
    table = error_table(grammar)
    if not table:
        return None
    examples = [(message, list(bad)) for message, bad in table]
    # Lark types parse_fn as returning a Tree; any parser of the grammar serves
    label = error.match_examples(parse, examples, use_accepts=True)  # type: ignore[arg-type]
    return None if label is None else str(label)
