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
    """An explicit size or time limit was exceeded: the answer is unknown within the limit.

    The command line exits with status 3.  :class:`OutOfTime` (and the prover's
    :class:`ProverTimeout`) say a time limit passed; others name the size limit.

    Parameters
    ----------
    message : str
        Which limit, and by how much.

    Examples
    --------
    >>> import kop
    >>> try:
    ...     kop.valid("K_a p -> p", timeout=1e-9)
    ... except kop.LimitError as err:
    ...     print(type(err).__name__)
    ProverTimeout
    """


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

    Parameters
    ----------
    message : str
        The feature, and how to install what it needs.

    Examples
    --------
    >>> import kop
    >>> err = kop.MissingDependency("drawing needs matplotlib: " + install_hint("draw"))
    >>> isinstance(err, kop.KopError), "matplotlib" in str(err) or "draw" in str(err)
    (True, True)
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


# -- limits (kop.syntax.budget, kop.reasoning) ------------------------------------------------------

class OutOfTime(LimitError):
    """The deadline passed: "unknown within the limit" (a :class:`LimitError`).

    Parameters
    ----------
    seconds : float
        The limit that was exceeded.
    what : str
        What was not done in time.

    Examples
    --------
    >>> import kop
    >>> err = kop.OutOfTime(1.5)
    >>> print(err)
    unknown within the limit: the command was not done in 1.5 s
    >>> isinstance(err, kop.LimitError), err.seconds
    (True, 1.5)
    """

    def __init__(self, seconds: float, what: str = "the command"):
        self.seconds = seconds
        super().__init__(f"unknown within the limit: {what} was not done in {seconds:g} s")


class TimeoutArgumentError(LimitError):
    """A timeout that is not a finite positive number of seconds (a :class:`LimitError`, as before).

    Parameters
    ----------
    message : str
        Which timeout, and what was given.

    Examples
    --------
    >>> import kop
    >>> try:
    ...     kop.valid("p | ~p", timeout=-1)
    ... except kop.TimeoutArgumentError as err:
    ...     print(err)
    timeout must be a finite number of seconds > 0 and <= 1e+07, not -1
    """


class DeadlineInterrupt(BaseException):
    """The hard deadline of the command line interrupted the process (see :func:`kop.syntax.budget.start_deadline`).

    A ``BaseException``, like ``KeyboardInterrupt``: raised wherever the process
    happens to be, it must not be caught and re-worded as an input error on the
    way; the command line reports it as "unknown within the limit".

    Parameters
    ----------
    seconds : float
        The limit that was exceeded.

    Examples
    --------
    >>> import kop
    >>> err = kop.DeadlineInterrupt(2.0)
    >>> print(err), isinstance(err, kop.KopError), err.seconds
    unknown within the limit: not done in 2 s
    (None, False, 2.0)
    """

    def __init__(self, seconds: float):
        self.seconds = seconds
        super().__init__(f"unknown within the limit: not done in {seconds:g} s")


class ProverTimeout(OutOfTime):
    """Raised when a question is not decided within its ``timeout``.

    Attributes
    ----------
    seconds : float
        The limit that was exceeded.

    Examples
    --------
    >>> import kop
    >>> err = kop.ProverTimeout(2.0)
    >>> str(err), isinstance(err, kop.KopError), err.seconds
    ('unknown within the limit: the question was not decided in 2 s', True, 2.0)
    """

    def __init__(self, seconds: float, what: str = "the question"):
        self.seconds = seconds
        LimitError.__init__(self, f"unknown within the limit: {what} was not decided in {seconds:g} s")


class ProverBug(AssertionError):
    """An internal check of the prover failed; please report it with the formula.

    It is an :class:`AssertionError`, not a :class:`KopError`: the input was fine, kop
    was not.  The prover checks every model it returns with the model checker and raises this
    when the check fails.

    Examples
    --------
    >>> import kop
    >>> issubclass(kop.ProverBug, AssertionError), issubclass(kop.ProverBug, kop.KopError)
    (True, False)
    """


class AgentError(KopError):
    """A formula names an agent outside the declared set of agents.

    Parameters
    ----------
    message : str
        The agent, and the agents declared.

    Examples
    --------
    >>> import kop
    >>> try:
    ...     kop.valid("K_c p -> p", agents=["a", "b"])
    ... except kop.AgentError as err:
    ...     print(type(err).__name__, isinstance(err, kop.KopError))
    AgentError True
    """


# -- readers (kop.theory, kop.io) ---------------------------------------------------------------

class TheoryError(ParseError):
    """A located error in a theory; without offending text, the message does not mention any.

    Parameters
    ----------
    text, line, column, found, expected
        As for :class:`ParseError`.

    Examples
    --------
    >>> import kop
    >>> try:
    ...     kop.parse_theory("players A max, B min\\nask nothing\\n")
    ... except kop.TheoryError as err:
    ...     print(err.line, err.column, err.found)
    2 5 nothing
    """

    def __init__(self, text: str, line: int, column: int, found: str, expected: str):
        super().__init__(text, line, column, found, expected)
        if not found:
            self.args = (f"line {line}, column {column}: {expected}",)


class SmcdelError(ParseError):
    """A located error in an SMCDEL file (line and column).

    Parameters
    ----------
    text, line, column, found, expected
        As for :class:`ParseError`.

    Examples
    --------
    >>> from kop.io.smcdel import parse_smcdel
    >>> try:
    ...     parse_smcdel("VARS 1,2 LAW Top OBS a: 3")
    ... except SmcdelError as err:
    ...     print(err)
    line 1, column 25: OBS of a: 3 is not in VARS; found '3'
    """


class EpddlError(ParseError):
    """A located error in an EPDDL domain, problem or plan (file, line and column).

    Parameters
    ----------
    text, line, column, found, expected
        As for :class:`ParseError`.
    source : str
        The file's name, put before the message ('' for none).

    Examples
    --------
    >>> err = EpddlError("(define", 1, 8, "", "expected ')'", source="coin-domain.epddl")
    >>> print(err)
    coin-domain.epddl: line 1, column 8: expected ')'
    """

    def __init__(self, text: str, line: int, column: int, found: str, expected: str, source: str = ""):
        super().__init__(text, line, column, found, expected)
        self.source = source
        msg = str(self) if found else f"line {line}, column {column}: {expected}"
        self.args = (f"{source}: {msg}" if source else msg,)


class JsonError(KopError):
    """JSON text that kop does not accept.

    Attributes
    ----------
    line, column : int
        1-based position of the problem.
    path : str | None
        JSON path of the object holding a duplicate key (``$.worlds``), else None.
    key : str | None
        The duplicate key, else None.
    reason : str
        What is wrong, without the position.

    Examples
    --------
    >>> from kop.io.jsontext import loads_json
    >>> try:
    ...     loads_json('{"a": 1, "a": 2}')
    ... except JsonError as err:
    ...     print(err.line, err.key, err.path)
    1 a $
    """

    def __init__(self, line: int, column: int, reason: str, path: str | None = None,
                 key: str | None = None):
        self.line, self.column, self.reason, self.path, self.key = line, column, reason, path, key
        super().__init__(f"line {line}, column {column}: {reason}")


# -- games (kop.games, kop.selection, kop.worlds, kop.stories) --------------------------------------

class TreeError(KopError):
    """A game tree is malformed; the message names the node path at fault (``root/1/0: ...``).

    Examples
    --------
    >>> import kop
    >>> try:
    ...     kop.GameTree.build(["A", "B"], ("A", []))
    ... except kop.TreeError as err:
    ...     print(err)
    root: inner node has no children
    """


class EfgError(TreeError):
    """A Gambit ``.efg`` file is malformed or uses a feature kop does not support (a :class:`TreeError`).

    Parameters
    ----------
    message : str
        What is wrong, and where (line and column).

    Examples
    --------
    >>> import kop
    >>> from kop.io.efg import loads_efg
    >>> try:
    ...     loads_efg('EFG 2 R "x" { "A" }')
    ... except kop.EfgError as err:
    ...     print(err, isinstance(err, kop.TreeError))
    line 1, column 20: the file ends before the tree is complete (expected a node: p, c or t) True
    """


class StrategyError(KopError):
    """A strategy name, parameter or player does not fit the tree.

    Parameters
    ----------
    message : str
        The strategy or player at fault, and what fits.

    Examples
    --------
    >>> import kop
    >>> issubclass(kop.StrategyError, kop.KopError)
    True
    """


class GameError(KopError):
    """An implicit game broke its rules (no legal moves, an illegal move, a bad evaluation, ...).

    The message names the state and, where there is one, the move.

    Examples
    --------
    >>> import kop
    >>> g = kop.nim((2, 1))
    >>> try:
    ...     g.apply(g.initial_state(), (5, 5))
    ... except kop.GameError as err:
    ...     print(err)
    move (5, 5) is not legal at ((2, 1), 'MAX'): take k >= 1 matches from a pile i
    """


class BoundsError(TreeError):
    """A payoff breaks a bound that a pruning search relies on; the message names leaf and bound.

    Examples
    --------
    >>> import kop
    >>> t = kop.GameTree.build(["1", "2", "3"], ("1", [
    ...     ("2", [(.7, .2, .1), (.5, .1, .4)]), ("2", [(.1, .6, .3), (.3, .3, .4)])]), goals="max")
    >>> try:
    ...     kop.bnb(t, kop.PayoffBounds.uniform(3, low=0, high=0.5, m=1, M=1))
    ... except kop.BoundsError as err:
    ...     print(err)
    root/0/0: payoff (0.7, 0.2, 0.1) breaks the declared bound 1 <= 0.5, which the pruning relies on; declare looser bounds or use maxn
    """


class MatrixError(TreeError):
    """A matrix game is malformed: ragged, empty, or with a non-finite entry.

    Parameters
    ----------
    message : str
        What is wrong with the matrix.

    Examples
    --------
    >>> import kop
    >>> try:
    ...     kop.solve_matrix([[1, 2], [3]])
    ... except kop.MatrixError as err:
    ...     print(type(err).__name__, isinstance(err, kop.TreeError))
    MatrixError True
    """


class EvaluationError(KopError):
    """A partial-knowledge statement does not fit the tree (the message names it and what is wrong).

    Examples
    --------
    >>> import kop
    >>> t = kop.GameTree.build(["A", "B"], ("A", [(1, 2), (3, 4)]))
    >>> try:
    ...     kop.decide(t, [], evaluations=[kop.knows_candidates("B", "A", [[1, 2, 3]])])
    ... except kop.EvaluationError as err:
    ...     print(err)
    knows_candidates('B', 'A', [1 candidate]): candidate 1 has 3 payoffs; the tree has 2 leaves (give one value of A per leaf, left to right)
    """


class WorldsError(KopError):
    """A possible-worlds game, a belief function or a card-game setting is malformed.

    Examples
    --------
    >>> import kop
    >>> try:
    ...     kop.WorldsGame.build(("MAX", [[1, 0], [1]]))
    ... except kop.WorldsError as err:
    ...     print(err)
    root/1: payoff vector of length 1, but the game has 2 worlds
    """


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


# -- experiments (kop.experiments) --------------------------------------------------------------

class ExperimentError(KopError):
    """Bad experiment input: tasks, results file, worker count or cluster address.

    Examples
    --------
    >>> import kop
    >>> try:
    ...     kop.run_tasks(len, [{"x": 1}], workers=1, progress=False)
    ... except kop.ExperimentError as err:
    ...     print(err)
    task 0 has no 'key' string (got None)
    """


class ClusterLost(ExperimentError):
    """The Dask scheduler (or the connection to it) went away in the middle of a run.

    Parameters
    ----------
    message : str
        What was lost, and what the results file kept.

    Examples
    --------
    >>> import kop
    >>> issubclass(kop.ClusterLost, kop.ExperimentError)
    True
    """


class Stopped(KeyboardInterrupt):
    """The run was stopped (SIGINT, SIGTERM) before every task was done.

    A :class:`KeyboardInterrupt`, so that code stopping on Ctrl-C stops on it
    too; its message says what was kept and how to resume; ``status`` is the
    exit status a command line should end with (130 for SIGINT, 143 for SIGTERM).

    Parameters
    ----------
    message : str
        What was kept, and how to resume.
    status : int
        The exit status for a command line.

    Examples
    --------
    >>> import kop
    >>> err = kop.Stopped("stopped by SIGTERM", status=143)
    >>> isinstance(err, KeyboardInterrupt), err.status
    (True, 143)
    """

    def __init__(self, message: str = "stopped", status: int = 130):
        super().__init__(message)
        self.status = status
