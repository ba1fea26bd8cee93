"""Errors raised by kop.  Every error a user can cause is a :class:`KopError`."""

from __future__ import annotations


def source_lines(text: str) -> list[str]:
    """The lines of *text* as a parser numbers them: broken at ``\\n`` only.

    Unlike :meth:`str.splitlines`, characters such as ``\\r``, ``\\x1e`` or ``\\u2028`` do
    not end a line (nor are they dropped), so line *n*, column *c* here is line *n*,
    column *c* of a Lark error.

    >>> source_lines("a\\x1eb\\r\\nc")
    ['a\\x1eb\\r', 'c']
    >>> source_lines("")
    ['']
    """
    return text.split("\n")


class KopError(ValueError):
    """Base class of every error kop reports to users (bad input, limits exceeded).

    It is a :class:`ValueError`; catching it catches every error that says the input (or a
    limit) was at fault, never a bug of kop.  The command line prints its message and exits
    with status 2 (bad input) or 3 (unknown within a limit).

    Examples
    --------
    >>> import kop
    >>> try:
    ...     kop.parse("K_a (p &")
    ... except kop.KopError as err:
    ...     print(type(err).__name__, "-", err)
    ParseError - line 1, column 9: expected a formula after '&'; found end of input
    """


class ParseError(KopError):
    """A formula or theory text could not be parsed.

    Attributes
    ----------
    text : str
        The whole input.
    line, column : int
        1-based position of the offending text.
    found : str
        The offending text ('' at the end of input).
    expected : str
        A human sentence saying what was expected there.

    Examples
    --------
    >>> import kop
    >>> try:
    ...     kop.parse("K_a (p &")
    ... except kop.ParseError as err:
    ...     print(err.line, err.column, repr(err.found))
    ...     print(err.pretty())
    1 9 ''
    line 1, column 9: expected a formula after '&'; found end of input
      K_a (p &
              ^
    """

    def __init__(self, text: str, line: int, column: int, found: str, expected: str):
        self.text = text
        self.line = line
        self.column = column
        self.found = found
        self.expected = expected
        where = f"line {line}, column {column}"
        what = f"found {found!r}" if found else "found end of input"
        super().__init__(f"{where}: {expected}; {what}")

    def source_line(self) -> str:
        lines = source_lines(self.text)
        return lines[self.line - 1] if self.line - 1 < len(lines) else ""

    def pretty(self) -> str:
        """The message with the source line and a caret under the column."""
        return f"{self}\n  {self.source_line().rstrip(chr(13))}\n  {' ' * (self.column - 1)}^"


class LanguageError(ParseError):
    """A formula parses but uses an operator that the tool it was given to does not handle.

    For example ``P_a`` (probability) given to the prover, which decides knowledge and
    belief but not probability.  Located like a :class:`ParseError` (line and column of the
    operator).

    Parameters
    ----------
    text, line, column, found, expected
        As for :class:`ParseError`: the input, the operator's position, its text, and what the
        tool handles instead.

    Examples
    --------
    >>> import kop
    >>> try:
    ...     kop.satisfiable("K_a p & P_a(p) >= 1/2")
    ... except kop.LanguageError as err:
    ...     print(err.line, err.column, err.found)
    1 9 P_a
    """


class LimitError(KopError):
    """An explicit size or time limit was exceeded."""


def _source_folder() -> object | None:
    """kop's source folder when kop runs from a checkout (its ``pyproject.toml`` beside the package), else None."""
    from pathlib import Path

    project = Path(__file__).resolve().parents[1] / "pyproject.toml"
    try:
        return project.parent if project.is_file() and 'name = "kop-epistemic"' in project.read_text(
            encoding="utf-8") else None
    except OSError:
        return None


def install_hint(extra: str) -> str:
    """The command that installs kop's optional *extra*, as it works where kop runs.

    From a checkout of kop's sources: ``pip install '.[EXTRA]'`` in its folder.  Installed from a
    wheel (kop's distribution is not published on PyPI, so pip cannot fetch it by name with an extra):
    the extra's own packages, as the installed kop's metadata lists them.

    >>> install_hint("draw") in ("pip install '.[draw]' (in kop's source folder)", "pip install 'matplotlib>=3.8'")
    True
    """
    import re
    from importlib.metadata import PackageNotFoundError, requires

    if _source_folder() is not None:
        return f"pip install '.[{extra}]' (in kop's source folder)"
    try:
        listed = requires("kop-epistemic") or []
    except PackageNotFoundError:
        listed = []
    wanted = [r.partition(";")[0].strip() for r in listed
              if re.search(rf"""extra\s*==\s*["']{re.escape(extra)}["']""", r.partition(";")[2])]
    if wanted:
        return "pip install " + " ".join(f"'{w}'" for w in wanted)
    return f"install the packages of kop's '{extra}' extra (listed in its pyproject.toml)"


class MissingDependency(KopError):
    """An optional library that a feature needs is not installed.

    The message says how to install the extra (:func:`install_hint`), e.g.
    ``pip install '.[draw]' (in kop's source folder)``.
    """


class ArgumentError(KopError, TypeError):
    """A public function was given an argument of the wrong type or out of its range.

    The message names the argument and says what was expected.  It is a
    :class:`KopError` (and also a :class:`TypeError`, as Python's own
    argument errors are).

    Examples
    --------
    >>> import kop
    >>> try:
    ...     kop.f_level("A", "B", -1)
    ... except kop.ArgumentError as err:
    ...     print(err)
    argument 'd': expected an integer >= 0, got -1
    """


class ModelError(KopError):
    """A Kripke or action model is malformed, or a question about it cannot be answered.

    The message names what is at fault: the agent, the world, the event or the
    JSON path.

    Parameters
    ----------
    message : str
        What is wrong, and where.

    Examples
    --------
    >>> from kop import KripkeModel
    >>> KripkeModel({"w0": [], "w1": []}, {"a": [["w0"]]})
    Traceback (most recent call last):
    ...
    kop.errors.ModelError: agent 'a': world 'w1' is in no block of the partition
    """
