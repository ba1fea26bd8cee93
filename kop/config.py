"""The settings a piece of work runs under -- its time limit, the file size cap, its caches -- per context.

kop's limits used to be process-wide: one deadline, one byte cap, one table of
remembered prover answers for every thread and every asyncio task.  They now
live in a :class:`Config` value held in a :class:`contextvars.ContextVar`, the
mechanism :mod:`decimal` uses for its precision, so that each thread and each
asyncio task has its own:

* :func:`current` is the :class:`Config` in force here;
* ``with using(timeout=..., max_bytes=..., caches=...):`` runs a block under a
  changed copy (only the block, only this thread or task; asyncio tasks created
  inside the block start with it, as they copy the context they are created in);
* ``with using(config):`` runs a block under a :class:`Config` saved earlier
  (hand one to a worker thread: a new thread starts from the process default,
  not from the context of the thread that started it);
* :func:`fresh_caches` is ``using(caches=Caches())``: a block with caches of its
  own, that remember nothing from before and leave nothing behind.

Outside every ``using`` block a context follows the **process default**.  The
older setters, kept for compatibility, change the innermost block:
:func:`kop.syntax.files.set_max_bytes` and
:func:`kop.syntax.budget.start_deadline` set the value of the innermost
``using`` block of the calling thread or task, or the process default when
called outside any block (what they always did).  The command line runs each
command inside a block of its own, and ``kop serve`` runs each request under
the settings in force where its app was made.

This module sits below every layer and imports no kop module, so it checks its
arguments as the standard library does (``ValueError``, ``TypeError``); the
public functions of the layers word the same rules as kop errors
(:func:`kop.syntax.budget.check_timeout`, :func:`kop.syntax.files.set_max_bytes`).

What is per context and what is shared
---------------------------------------

* **time limit** (``timeout``, ``deadline``): per context.  It counts CPU time
  of the *process* (:func:`time.process_time`, see :mod:`kop.syntax.budget`),
  so while other threads work a thread's limit runs out sooner, never later.
  The hard interrupt of the command line (a CPU-time signal timer) is
  necessarily process-wide and only ever set by the main thread.
* **byte cap** (``max_bytes``): per context.
* **the prover's answers** (:func:`kop.reasoning.entailment.cached_entails`,
  in ``caches``): the process default's :class:`Caches` is shared by every
  context that does not ask for its own, as an answer does not depend on any
  setting (a question that runs out of time is not remembered) and
  :class:`Memo` is thread-safe; :func:`fresh_caches` gives a block its own, so
  that its counts (``cache_info``) and its clearing (``clear_cache``) are its
  own too.
* **pure memos stay shared**: the premise tables of
  :mod:`kop.reasoning.entailment` and :mod:`kop.reasoning.chains` and the
  history indexes of :mod:`kop.worlds.infostates` are :class:`Memo` objects
  (thread-safe) of values computed from immutable keys alone; the
  ``functools.lru_cache`` tables (grammars, JSON schemas, ``f_level`` formulas,
  fragment tests, puzzle tables) are thread-safe and depend on their arguments
  only.  BDD managers (:func:`kop.bdd.manager.manager`) are shared per thread,
  as a manager may not be used by two threads at once.
* **not settings**: the folder a theory may read files from is an argument of
  each call (``--allow-outside``), not a process setting; the interpreter's
  recursion limit, which :func:`kop.syntax.budget.recursion_room` raises, is
  kept high enough for every block open in any thread; the experiment runner's
  progress reports (:func:`kop.experiments.runner.checkpoint`) go to a context
  variable of their own.

Examples
--------
>>> from kop import config
>>> config.current().max_bytes == config.DEFAULT_MAX_BYTES
True
>>> with config.using(max_bytes=1000, timeout=30) as c:
...     config.current().max_bytes, c.timeout
(1000, 30.0)
>>> config.current().max_bytes == config.DEFAULT_MAX_BYTES
True

Two threads, each with its own cap:

>>> import threading
>>> seen = {}
>>> def work(n):
...     with config.using(max_bytes=n):
...         seen[n] = config.current().max_bytes
>>> ts = [threading.Thread(target=work, args=(n,)) for n in (10, 20)]
>>> for t in ts: t.start()
>>> for t in ts: t.join()
>>> seen
{10: 10, 20: 20}
"""

from __future__ import annotations

import contextvars
import math
import threading
import time
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["Config", "Caches", "Memo", "current", "using", "fresh_caches", "set_innermost", "check_seconds",
           "check_max_bytes", "DEFAULT_MAX_BYTES", "MAX_TIMEOUT", "MISSING"]

#: The largest file kop reads unless told otherwise (``--max-bytes``): 64 MiB.
DEFAULT_MAX_BYTES = 64 * 1024 * 1024
#: The longest timeout accepted (seconds, about 115 days).
MAX_TIMEOUT = 1e7


class _Missing:
    """The value of :data:`MISSING`: "not in this memo" (None may be a remembered value)."""

    def __repr__(self) -> str:
        return "MISSING"


#: What :meth:`Memo.get` returns for a key it does not hold.
MISSING: Any = _Missing()


class Memo:
    """A bounded, thread-safe table of remembered values: the oldest entry goes first.

    Parameters
    ----------
    maxsize : int
        The most entries kept (>= 1).

    Examples
    --------
    >>> m = Memo(2)
    >>> m.put("a", 1); m.put("b", 2); m.put("c", 3)
    >>> m.get("a") is MISSING, m.get("c"), len(m)
    (True, 3, 2)
    >>> m.info()
    {'hits': 1, 'misses': 1, 'entries': 2}
    """

    __slots__ = ("maxsize", "_data", "_counts", "_lock")

    def __init__(self, maxsize: int) -> None:
        if isinstance(maxsize, bool) or not isinstance(maxsize, int) or maxsize < 1:
            raise ValueError(f"maxsize must be a positive whole number, not {maxsize!r}")
        self.maxsize = maxsize
        self._data: dict[Hashable, Any] = {}
        self._counts: dict[str, int] = {"hits": 0, "misses": 0}
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        """The value remembered for *key*, or :data:`MISSING` (counted as a hit or a miss)."""
        with self._lock:
            value = self._data.get(key, MISSING)
            self._counts["misses" if value is MISSING else "hits"] += 1
            return value

    def put(self, key: Hashable, value: Any) -> None:
        """Remember *value* for *key* (as the newest entry), forgetting the oldest beyond :attr:`maxsize`."""
        with self._lock:
            self._data.pop(key, None)
            self._data[key] = value
            while len(self._data) > self.maxsize:
                del self._data[next(iter(self._data))]

    def count(self, name: str, n: int = 1) -> None:
        """Add *n* to the counter *name* (shown by :meth:`info`)."""
        with self._lock:
            self._counts[name] = self._counts.get(name, 0) + n

    def info(self) -> dict[str, int]:
        """The counters (``hits``, ``misses``, any counted by :meth:`count`) and ``entries``."""
        with self._lock:
            return {**self._counts, "entries": len(self._data)}

    def clear(self) -> None:
        """Forget every entry and zero the counters."""
        with self._lock:
            self._data.clear()
            for k in self._counts:
                self._counts[k] = 0

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"Memo({self.maxsize})"


class Caches:
    """The caches one context remembers answers in: named :class:`Memo` tables, made when first asked for.

    A module asks for its table by name with :meth:`memo`; the first request
    fixes the table's size, so a caller may prepare a smaller one.

    Examples
    --------
    >>> c = Caches()
    >>> c.memo("answers", 10) is c.memo("answers", 99), c.memo("answers", 99).maxsize
    (True, 10)
    >>> c
    Caches()
    """

    __slots__ = ("_memos", "_lock")

    def __init__(self) -> None:
        self._memos: dict[str, Memo] = {}
        self._lock = threading.Lock()

    def memo(self, name: str, maxsize: int) -> Memo:
        """The table *name* of these caches (made with *maxsize* entries if it does not exist yet)."""
        found = self._memos.get(name)
        if found is None:
            with self._lock:
                found = self._memos.setdefault(name, Memo(maxsize))
        return found

    def names(self) -> list[str]:
        """The names of the tables made so far.

        >>> c = Caches(); _ = c.memo("x", 1); c.names()
        ['x']
        """
        return sorted(self._memos)

    def __repr__(self) -> str:
        return "Caches()"


def check_seconds(value: Any) -> float | None:
    """*value* as a time limit in seconds (None: no limit); ``ValueError`` unless finite, > 0 and <= :data:`MAX_TIMEOUT`.

    (:func:`kop.syntax.budget.check_timeout` words the same rule as a kop error for users' input.)

    >>> check_seconds(2), check_seconds(None)
    (2.0, None)
    >>> check_seconds(-1)
    Traceback (most recent call last):
    ...
    ValueError: timeout must be a finite number of seconds > 0 and <= 1e+07, not -1
    """
    if value is None:
        return None
    seconds = math.nan
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            seconds = float(value)
        except OverflowError:  # an int beyond float range
            seconds = math.inf
    if not (math.isfinite(seconds) and 0 < seconds <= MAX_TIMEOUT):
        raise ValueError(f"timeout must be a finite number of seconds > 0 and <= {MAX_TIMEOUT:g}, not {value!r}")
    return seconds


def check_max_bytes(value: Any) -> int:
    """*value* as a size cap in bytes (None: :data:`DEFAULT_MAX_BYTES`); ``ValueError`` unless a whole number >= 1.

    >>> check_max_bytes(None) == DEFAULT_MAX_BYTES, check_max_bytes(10)
    (True, 10)
    """
    if value is None:
        return DEFAULT_MAX_BYTES
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"max_bytes must be a positive whole number of bytes, not {value!r}")
    return value


class Config:
    """The settings in force in one context (see the module docstring); make changed copies with :func:`using`.

    An immutable value (plain, not a dataclass: the command line's start-up does not import
    :mod:`dataclasses`).

    Attributes
    ----------
    timeout : float or None
        The length of the time limit in CPU seconds (None: no limit).
    deadline : float or None
        When it ends, as a :func:`time.process_time` reading (None: no limit).
    max_bytes : int
        The largest file (or request) read, in bytes.
    caches : Caches
        Where remembered answers are kept.

    Examples
    --------
    >>> Config().max_bytes == DEFAULT_MAX_BYTES, Config().deadline
    (True, None)
    >>> Config(max_bytes=10)
    Config(timeout=None, deadline=None, max_bytes=10, caches=Caches())
    >>> Config().max_bytes = 1
    Traceback (most recent call last):
    ...
    AttributeError: a kop.config.Config cannot be changed: use kop.config.using(max_bytes=...)
    """

    __slots__ = ("timeout", "deadline", "max_bytes", "caches")
    timeout: float | None
    deadline: float | None
    max_bytes: int
    caches: Caches

    def __init__(self, timeout: float | None = None, deadline: float | None = None,
                 max_bytes: int = DEFAULT_MAX_BYTES, caches: Caches | None = None) -> None:
        timeout = check_seconds(timeout)
        if (timeout is None) != (deadline is None):
            raise ValueError("timeout and deadline go together: both None or both set")
        if caches is not None and not isinstance(caches, Caches):
            raise TypeError(f"caches must be a kop.config.Caches, not {type(caches).__name__}")
        for name, value in (("timeout", timeout), ("deadline", None if deadline is None else float(deadline)),
                            ("max_bytes", check_max_bytes(max_bytes)),
                            ("caches", Caches() if caches is None else caches)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a kop.config.Config cannot be changed: use kop.config.using({name}=...)")

    __delattr__ = __setattr__  # type: ignore[assignment]

    def replace(self, **changes: Any) -> Config:
        """A copy with *changes* (fields as in the constructor).

        >>> Config().replace(max_bytes=5).max_bytes
        5
        """
        fields = {name: getattr(self, name) for name in self.__slots__}
        return Config(**{**fields, **changes})

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Config):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in ("timeout", "deadline", "max_bytes")) \
            and self.caches is other.caches

    def __hash__(self) -> int:
        return hash((self.timeout, self.deadline, self.max_bytes, id(self.caches)))

    def __repr__(self) -> str:
        return (f"Config(timeout={self.timeout!r}, deadline={self.deadline!r}, max_bytes={self.max_bytes!r}, "
                f"caches={self.caches!r})")

    def expired(self) -> bool:
        """Has the deadline passed?

        >>> Config().expired()
        False
        """
        return self.deadline is not None and time.process_time() >= self.deadline


_DEFAULT = Config()
_DEFAULT_LOCK = threading.Lock()
_VAR: contextvars.ContextVar[Config | None] = contextvars.ContextVar("kop.config", default=None)


def current() -> Config:
    """The :class:`Config` in force in this thread or asyncio task.

    >>> current().caches is current().caches
    True
    """
    found = _VAR.get()
    return _DEFAULT if found is None else found


def _changed(base: Config, changes: dict[str, Any]) -> Config:
    unknown = sorted(set(changes) - {"timeout", "max_bytes", "caches"})
    if unknown:
        raise TypeError(f"kop.config.using() got unknown settings {', '.join(unknown)} "
                        "(it takes timeout, max_bytes and caches)")
    new: dict[str, Any] = {}
    if "max_bytes" in changes:
        new["max_bytes"] = check_max_bytes(changes["max_bytes"])
    if "caches" in changes:
        new["caches"] = changes["caches"]
    if "timeout" in changes:
        seconds = check_seconds(changes["timeout"])
        if seconds is not None:
            end = time.process_time() + seconds
            if base.deadline is None or end < base.deadline:   # a block never outlives its caller's limit
                new["timeout"], new["deadline"] = seconds, end
    return base.replace(**new) if new else base


@contextmanager
def using(config: Config | None = None, /, **changes: Any) -> Iterator[Config]:
    """Within the block, in this thread or task only, *config* (default: the current one) with *changes*.

    Parameters
    ----------
    config : Config, optional
        Settings to start from (one saved with :func:`current`, e.g. in the
        thread that starts a worker); default :func:`current`.
    timeout : float or None
        A time limit of so many CPU seconds from now.  When the limit in force
        ends earlier, it stays: a block can shorten the time it was given,
        never lengthen it.  None: no limit of the block's own.
    max_bytes : int or None
        The byte cap (None: :data:`DEFAULT_MAX_BYTES`).
    caches : Caches
        The caches to remember answers in (see :func:`fresh_caches`).

    Yields
    ------
    Config
        The settings in force in the block.

    Examples
    --------
    >>> with using(timeout=60) as outer:
    ...     with using(timeout=3600) as inner:
    ...         inner.deadline == outer.deadline
    True
    >>> using(colour="red").__enter__()
    Traceback (most recent call last):
    ...
    TypeError: kop.config.using() got unknown settings colour (it takes timeout, max_bytes and caches)
    """
    if config is not None and not isinstance(config, Config):
        raise TypeError(f"kop.config.using() takes a Config, not {type(config).__name__}")
    settings = _changed(current() if config is None else config, changes)
    token = _VAR.set(settings)
    try:
        yield settings
    finally:
        _VAR.reset(token)


@contextmanager
def fresh_caches() -> Iterator[Config]:
    """``using(caches=Caches())``: a block whose answers are remembered apart, and forgotten after it.

    Also a decorator (``@fresh_caches()``): each call of the function gets new caches.

    >>> with fresh_caches() as c:
    ...     c.caches is current().caches
    True
    >>> c.caches is current().caches
    False
    """
    with using(caches=Caches()) as settings:
        yield settings


def set_innermost(**changes: Any) -> Config:
    """Change the settings of the innermost :func:`using` block, or the process default outside every block.

    The older setters (:func:`kop.syntax.files.set_max_bytes`,
    :func:`kop.syntax.budget.start_deadline`) delegate here; in new code
    prefer a ``with using(...)`` block.  ``timeout=None`` removes the limit.
    Returns the settings before the change.

    >>> with using():
    ...     old = set_innermost(max_bytes=5)
    ...     current().max_bytes, old.max_bytes == DEFAULT_MAX_BYTES
    (5, True)
    >>> current().max_bytes == DEFAULT_MAX_BYTES
    True
    """
    global _DEFAULT
    with _DEFAULT_LOCK:
        inner = _VAR.get()
        old = _DEFAULT if inner is None else inner
        base = old.replace(timeout=None, deadline=None) if "timeout" in changes else old  # replaced, not shortened
        new = _changed(base, changes)
        if inner is None:
            _DEFAULT = new
        else:
            _VAR.set(new)
    return old

