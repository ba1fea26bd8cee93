"""Errors of the stories layer: a story that cannot be read, or a question that cannot be answered.

Every error names the line of the story (1-based) that is at fault, and the
``kop story`` command prints it as one line and exits with status 2.
"""

from __future__ import annotations

from kop.errors import KopError

__all__ = ["StoryError"]


class StoryError(KopError):
    """A story or a question is malformed or inconsistent, with the line at fault.

    Parameters
    ----------
    message : str
        What is wrong.
    line : int, optional
        The 1-based line of the story (or of the file) at fault.
    column : int, optional
        The 1-based column, when known (kop's own syntax).

    Examples
    --------
    >>> err = StoryError("Sally exits the room but is not in it", line=4)
    >>> str(err), err.line
    ('line 4: Sally exits the room but is not in it', 4)
    """

    def __init__(self, message: str, line: int | None = None, column: int | None = None):
        self.line = line
        self.column = column
        self.detail = message
        where = ""
        if line is not None:
            where = f"line {line}, column {column}: " if column is not None else f"line {line}: "
        super().__init__(where + message)
