"""Limits every layer shares: the timeout argument, the process-wide deadline, the nesting limit.

* :func:`check_timeout` is the one validation of a ``timeout`` (API) or
  ``--timeout`` (command line): a finite number of seconds, > 0 and at most
  :data:`MAX_TIMEOUT`; anything else (``inf``, ``1e400``, ``nan``, a
  negative number, ``"x"``) is a :class:`TimeoutArgumentError`.
* :func:`start_deadline` sets a deadline for the whole process (the command
  line does so for ``valid``, ``satisfiable``, ``entails`` and ``level``, so
  ``--timeout`` covers parsing, model building and output as well as the
  prover); long phases call :func:`check_deadline`, which raises
  :class:`OutOfTime` (a :class:`~kop.errors.LimitError`; the prover's
  ``ProverTimeout`` is one too) once it has passed.
* Time is **CPU time** of the process (:func:`time.process_time`), not wall-clock time, so
  that whether a question is decided within its limit does not depend on how busy the
  machine is; the hard interrupt is a CPU-time timer too (``ITIMER_PROF``).
* :data:`MAX_NESTING` is the one nesting limit of kop's text readers:
  formulas, theory files (inline games included) and Kripke models.

>>> check_timeout(2)
2.0
>>> check_timeout(float("inf"))
Traceback (most recent call last):
...
kop.errors.TimeoutArgumentError: timeout must be a finite number of seconds > 0 and <= 1e+07, not inf
>>> start_deadline(None)
>>> check_deadline()
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kop.errors import DeadlineInterrupt, LimitError, OutOfTime, TimeoutArgumentError

__all__ = ["check_timeout", "TimeoutArgumentError", "OutOfTime", "DeadlineInterrupt", "start_deadline", "check_deadline",
           "deadline_end", "deadline_seconds", "deadline_phase", "recursion_room", "MAX_TIMEOUT", "MAX_NESTING"]

#: The longest timeout accepted (seconds, about 115 days).
MAX_TIMEOUT = 1e7
#: How deep formulas, theories (and their inline games) and models may nest.
MAX_NESTING = 1000

_end: float | None = None
_seconds: float | None = None


def check_timeout(value: Any, name: str = "timeout") -> float | None:
    """*value* as seconds (None stays None), or :class:`TimeoutArgumentError` naming *name*.

    Strings are accepted when they spell a number (the command line's
    ``--timeout 2.5``).

    >>> check_timeout("2.5", "--timeout")
    2.5
    >>> check_timeout("x", "--timeout")
    Traceback (most recent call last):
    ...
    kop.errors.TimeoutArgumentError: --timeout must be a finite number of seconds > 0 and <= 1e+07, not 'x'
    """
    if value is None:
        return None
    seconds: float | None = None
    if isinstance(value, str):
        try:
            seconds = float(value)
        except ValueError:
            seconds = None
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            seconds = float(value)
        except OverflowError:  # an int beyond float range
            seconds = math.inf
    if seconds is None or not math.isfinite(seconds) or not 0 < seconds <= MAX_TIMEOUT:
        raise TimeoutArgumentError(f"{name} must be a finite number of seconds > 0 and <= {MAX_TIMEOUT:g}, "
                                   f"not {value!r}")
    return seconds


#: With ``hard=True``, how long after the deadline a phase that does not check it is interrupted.
HARD_GRACE = 0.05
#: With ``hard=True``, a wait that uses no CPU (a blocked read) is interrupted after this many times
#: the limit of wall-clock time, plus one second: no silent hang.
WALL_FACTOR = 10


def start_deadline(seconds: float | None, *, hard: bool = False) -> None:
    """Start (or with None, clear) the process-wide deadline: *seconds* from now.

    *seconds* are CPU seconds of the process.  With *hard* (the command line, in the main thread
    of a system with ``setitimer``), a CPU-time timer (``ITIMER_PROF``) also interrupts the
    process :data:`HARD_GRACE` CPU seconds after the deadline (and a wall-clock timer after
    :data:`WALL_FACTOR` times the limit plus 1 s, should it wait without using CPU), with
    :class:`DeadlineInterrupt`, should a phase that does not check the deadline (an import, a
    long library call) still be running.
    """
    global _end, _seconds
    seconds = check_timeout(seconds)
    _cancel_alarm()
    _seconds = seconds
    _end = None if seconds is None else time.process_time() + seconds
    if hard and seconds is not None:
        _set_alarm(seconds)


_old_handler: Any = None


def _on_alarm(signum: int, frame: Any) -> None:
    if _end is not None:
        raise DeadlineInterrupt(_seconds or 0.0)


def _set_alarm(seconds: float) -> None:
    global _old_handler
    import signal
    import threading

    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        return
    _old_handler = (signal.signal(signal.SIGPROF, _on_alarm), signal.signal(signal.SIGALRM, _on_alarm))
    signal.setitimer(signal.ITIMER_PROF, seconds + HARD_GRACE)
    signal.setitimer(signal.ITIMER_REAL, seconds * WALL_FACTOR + 1.0)


def _cancel_alarm() -> None:
    global _old_handler
    if _old_handler is None:
        return
    import signal

    signal.setitimer(signal.ITIMER_PROF, 0)
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGPROF, _old_handler[0])
    signal.signal(signal.SIGALRM, _old_handler[1])
    _old_handler = None


@contextmanager
def deadline_phase(seconds: float | None) -> Iterator[None]:
    """Within the block, a process-wide deadline of *seconds* (unless an earlier one is in force).

    >>> with deadline_phase(60):
    ...     check_deadline()
    """
    global _end, _seconds
    old = (_end, _seconds)
    seconds = check_timeout(seconds)
    if seconds is not None and (_end is None or time.process_time() + seconds < _end):
        _seconds, _end = seconds, time.process_time() + seconds
    try:
        yield
    finally:
        _end, _seconds = old


@contextmanager
def recursion_room(frames: int) -> Iterator[None]:
    """Within the block, room for *frames* more Python frames (readers of input within :data:`MAX_NESTING`).

    >>> with recursion_room(3 * MAX_NESTING):
    ...     pass
    """
    import sys

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(old + frames)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def deadline_end() -> float | None:
    """The process-wide deadline (a :func:`time.process_time` time: CPU seconds), or None."""
    return _end


def deadline_seconds() -> float | None:
    """The length of the process-wide limit (seconds), or None."""
    return _seconds


def check_deadline(what: str = "the command") -> None:
    """Raise :class:`OutOfTime` if the process-wide deadline has passed."""
    if _end is not None and time.process_time() >= _end:
        raise OutOfTime(_seconds or 0.0, what)
