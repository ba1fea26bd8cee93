"""Limits every layer shares: the timeout argument, the deadline, the nesting limit.

* :func:`check_timeout` is the one validation of a ``timeout`` (API) or
  ``--timeout`` (command line): a finite number of seconds, > 0 and at most
  :data:`MAX_TIMEOUT`; anything else (``inf``, ``1e400``, ``nan``, a
  negative number, ``"x"``) is a :class:`TimeoutArgumentError`.
* The deadline is a setting of :mod:`kop.config`: each thread and asyncio
  task has its own (``with kop.config.using(timeout=S):``, or
  :func:`deadline_phase`).  :func:`start_deadline` sets it for the innermost
  ``using`` block, or outside every block for the process default (the command
  line does so, in a block of its own, for ``valid``, ``satisfiable``,
  ``entails`` and ``level``, so ``--timeout`` covers parsing, model building and
  output as well as the prover); long phases call :func:`check_deadline`, which
  raises :class:`OutOfTime` (a :class:`~kop.errors.LimitError`; the prover's
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
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kop import config
from kop.errors import DeadlineInterrupt, LimitError, OutOfTime, TimeoutArgumentError

__all__ = ["check_timeout", "TimeoutArgumentError", "OutOfTime", "DeadlineInterrupt", "start_deadline", "check_deadline",
           "deadline_end", "deadline_seconds", "deadline_phase", "recursion_room", "MAX_TIMEOUT", "MAX_NESTING"]

#: The longest timeout accepted (seconds, about 115 days; :data:`kop.config.MAX_TIMEOUT`).
MAX_TIMEOUT = config.MAX_TIMEOUT
#: How deep formulas, theories (and their inline games) and models may nest.
MAX_NESTING = 1000


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
    number: Any = value
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            number = math.nan
    try:
        return config.check_seconds(number)   # the one rule; here worded as a kop error naming *name*
    except ValueError:
        raise TimeoutArgumentError(f"{name} must be a finite number of seconds > 0 and <= {MAX_TIMEOUT:g}, "
                                   f"not {value!r}") from None


#: With ``hard=True``, how long after the deadline a phase that does not check it is interrupted.
HARD_GRACE = 0.05
#: With ``hard=True``, a wait that uses no CPU (a blocked read) is interrupted after this many times
#: the limit of wall-clock time, plus one second: no silent hang.
WALL_FACTOR = 10


def start_deadline(seconds: float | None, *, hard: bool = False) -> None:
    """Start (or with None, clear) the deadline: *seconds* from now, replacing the one in force.

    The deadline is set for the innermost :func:`kop.config.using` block of
    this thread or task, or outside every block for the process default (what
    every context without a block of its own follows); new code says
    ``with kop.config.using(timeout=seconds):`` instead.
    *seconds* are CPU seconds of the process.  With *hard* (the command line, in the main thread
    of a system with ``setitimer``), a CPU-time timer (``ITIMER_PROF``) also interrupts the
    process :data:`HARD_GRACE` CPU seconds after the deadline (and a wall-clock timer after
    :data:`WALL_FACTOR` times the limit plus 1 s, should it wait without using CPU), with
    :class:`DeadlineInterrupt`, should a phase that does not check the deadline (an import, a
    long library call) still be running.
    """
    seconds = check_timeout(seconds)
    _cancel_alarm()
    config.set_innermost(timeout=seconds)
    if hard and seconds is not None:
        _set_alarm(seconds)


_old_handler: Any = None


def _on_alarm(signum: int, frame: Any) -> None:
    now = config.current()     # signal handlers run in the main thread, which set the alarm
    if now.deadline is not None:
        raise DeadlineInterrupt(now.timeout or 0.0)


def _set_alarm(seconds: float) -> None:
    global _old_handler
    import signal

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
    """Within the block, a deadline of *seconds* (unless an earlier one is in force), in this thread or task only.

    ``kop.config.using(timeout=seconds)``, with the timeout checked as a kop error.

    >>> with deadline_phase(60):
    ...     check_deadline()
    """
    with config.using(timeout=check_timeout(seconds)):
        yield


@contextmanager
def recursion_room(frames: int) -> Iterator[None]:
    """Within the block, room for *frames* more Python frames (readers of input within :data:`MAX_NESTING`).

    The recursion limit is the interpreter's, shared by every thread: while blocks are open
    (in any thread) it is the limit before the first of them plus the frames of all of them,
    so a block that ends in one thread never takes the room of one still open in another.

    >>> with recursion_room(3 * MAX_NESTING):
    ...     pass
    """
    with _ROOM_LOCK:
        if not _room[0]:
            _room[1] = sys.getrecursionlimit()
        _room[0] += frames
        sys.setrecursionlimit(_room[1] + _room[0])
    try:
        yield
    finally:
        with _ROOM_LOCK:
            _room[0] -= frames
            sys.setrecursionlimit(_room[1] + _room[0])


_ROOM_LOCK = threading.Lock()
#: [the frames the blocks open now add, the recursion limit before the first of them]
_room = [0, 0]


def deadline_end() -> float | None:
    """The deadline in force here (a :func:`time.process_time` time: CPU seconds), or None."""
    return config.current().deadline


def deadline_seconds() -> float | None:
    """The length of the limit in force here (seconds), or None."""
    return config.current().timeout


def check_deadline(what: str = "the command") -> None:
    """Raise :class:`OutOfTime` if the deadline in force here has passed."""
    now = config.current()
    if now.deadline is not None and time.process_time() >= now.deadline:
        raise OutOfTime(now.timeout or 0.0, what)
