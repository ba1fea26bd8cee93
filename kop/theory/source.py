"""Where things are in a theory's text: the one helper that turns a position into a located error.

Every error a theory can cause -- a parse error, a formula that does not
parse, an unknown agent, a file that cannot be read -- is a
:class:`~kop.errors.ParseError` carrying the theory's text, line and
column, so the command line can print the line with a caret under the column.

>>> err = located("core A = 1\\nask level Z\\n", 2, 11, "unknown player 'Z'", "Z")
>>> str(err)
"line 2, column 11: unknown player 'Z'; found 'Z'"
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kop.errors import ParseError, TheoryError

__all__ = ["Position", "TheoryError", "located", "inner"]


@dataclass(frozen=True)
class Position:
    """A place in a theory file: its text, the file's name (for includes), line and column (1-based).

    Positions compare by file, line and column (the text is there to show the line in an error):

    >>> Position("ask level Z", 1, 11) == Position(line=1, column=11)
    True
    """

    text: str = field(default="", repr=False, compare=False)
    line: int = 1
    column: int = 1
    file: str = ""

    def error(self, message: str, found: str = "") -> TheoryError:
        """A located error at this position."""
        return located(self.text, self.line, self.column, message, found, self.file)


def located(text: str, line: int, column: int, message: str, found: str = "", file: str = "") -> TheoryError:
    """The error *message* at *line*, *column* of *text* (a theory, or an included file named *file*)."""
    if file:
        message = f"in {file}: {message}"
    return TheoryError(text, max(line, 1), max(column, 1), found, message)


def inner(exc: ParseError, at: Position, what: str) -> TheoryError:
    """Re-locate an error found inside a piece of text (a formula) that starts at *at*."""
    col = at.column + exc.column - 1 if exc.line == 1 else exc.column
    return located(at.text, at.line + exc.line - 1, col, f"{what}: {exc.expected}", exc.found, at.file)
