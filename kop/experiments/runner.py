"""The experiment runner: independent tasks on a process pool or a Dask cluster.

An experiment is a list of *tasks*, each a JSON-serializable dict with a unique
``"key"`` string (which should include the task's seed), and a module-level
function ``fn(task) -> dict`` that returns one flat result row.  The runner

* runs the tasks on a local process pool (``workers``) or on a Dask
  distributed cluster (``dask``, the address of its scheduler);
* shows a rich progress bar with an ETA on stderr when stderr is a terminal;
* appends each row to a results file (CSV, or Parquet when the path ends in
  ``.parquet``) as soon as it arrives, so that an interrupted run, started
  again with the same results file, skips the tasks already done (and says
  "resuming: N of M done");
* stops on SIGTERM as on SIGINT: task functions that call :func:`checkpoint`
  between units of work (trees) stop within one unit; pool workers end with
  the process that runs them, even on ``kill -9``; a Dask scheduler that goes
  away mid-run is reported (:class:`ClusterLost`) with the rows kept;
* returns the rows in task order, each ``{"key": task["key"], **fn(task)}``.

The rows never depend on the number of workers, nor on local against Dask
execution: each task carries its own seed (see :func:`spawn_seeds`).

Example
-------
>>> from kop.experiments.runner import run_tasks, spawn_seeds
>>> tasks = [{"key": f"square-{i}", "x": i} for i in range(4)]
>>> rows = run_tasks(_example_square, tasks, workers=1, progress=False)
>>> [row["y"] for row in rows]
[0, 1, 4, 9]
>>> spawn_seeds(7, 3) == spawn_seeds(7, 3)
True
"""

from __future__ import annotations

import contextvars
import csv
import importlib
import io
import json
import os
import pickle
import signal
import stat
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Sequence

import numpy as np

from kop.syntax import arguments
from kop.errors import ClusterLost, ExperimentError, KopError, Stopped, install_hint
from kop.syntax.files import read_bytes, file_kind

if TYPE_CHECKING:  # pragma: no cover
    from rich.progress import Progress

__all__ = ["run_tasks", "spawn_seeds", "read_results", "checkpoint", "ExperimentError", "ClusterLost", "Stopped"]

Row = dict[str, Any]
TaskFn = Callable[[dict[str, Any]], Mapping[str, Any]]


#: how long to wait for a Dask scheduler before giving up
DASK_CONNECT_TIMEOUT = "20s"


def _example_square(task: dict[str, Any]) -> dict[str, Any]:
    """The function of the module example (module level, so that it pickles).

    With a ``"seed"`` in the task it also draws a number from that seed; with
    ``"units"``, it first works through that many units of ``"pause"`` seconds each.
    """
    row: dict[str, Any] = {"y": task["x"] ** 2}
    if "units" in task:  # units of work, each after a pause: a slow task for the tests of stops and progress

        for _ in range(int(task["units"])):
            time.sleep(float(task.get("pause", 0.0)))
            checkpoint()
    if "seed" in task:
        row["draw"] = float(np.random.default_rng(task["seed"]).random())
    return row


def spawn_seeds(seed: int, n: int) -> list[int]:
    """``n`` independent 63-bit seeds derived from ``seed`` (numpy's SeedSequence).

    The i-th seed depends only on ``seed`` and ``i``, so adding games to an
    experiment does not change the seeds of the games already there.

    Parameters
    ----------
    seed : int
        The experiment's seed.
    n : int
        How many seeds.

    Returns
    -------
    list of int
        The seeds, each in [0, 2**63).

    Examples
    --------
    >>> spawn_seeds(1, 2)[0] == spawn_seeds(1, 5)[0]
    True
    >>> len(set(spawn_seeds(1, 1000)))
    1000
    """
    seed = arguments.integer(seed, "seed")
    n = arguments.integer(n, "n")
    if n < 0:
        raise ExperimentError(f"number of seeds must be >= 0, got {n}")
    out = []
    for i in range(n):
        words = np.random.SeedSequence([int(seed) & (2**63 - 1), i]).generate_state(2, np.uint32)
        out.append((int(words[0]) << 31) ^ int(words[1]))
    return out


# ----------------------------------------------------------------- cell codec
def _plain(value: Any) -> Any:
    """numpy scalars and arrays to Python values (so rows are JSON and CSV safe)."""
    item = getattr(value, "tolist", None)
    if item is not None and not isinstance(value, (str, bytes)):
        return item()
    return value


def _decode_cell(cell: str) -> Any:
    try:
        return json.loads(cell)
    except ValueError:
        return cell


def _encode_cell(value: Any) -> str:
    """A CSV cell that :func:`_decode_cell` reads back as ``value`` exactly."""
    if isinstance(value, str):
        if value != "" and _decode_cell(value) == value and not value.startswith('"'):
            return value
        return json.dumps(value)
    return json.dumps(value)  # numbers (repr round-trips floats), bools, None, lists


# ------------------------------------------------------------- results files
def _is_parquet(path: Path) -> bool:
    return path.suffix.lower() in (".parquet", ".pq")


def _journal(path: Path) -> Path:
    return path.with_name(path.name + ".partial.csv")


def _read_csv(path: Path) -> list[Row]:
    if not path.exists() and not path.is_symlink():
        return []
    raw = _read_guarded(path)
    if raw and not raw.endswith(b"\n"):  # a row cut short by an interruption
        cut = raw.rfind(b"\n") + 1
        with open(path, "r+b") as fh:
            fh.truncate(cut)
        raw = raw[:cut]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ExperimentError(f"{path}: not a kop results file (not UTF-8 text, byte {exc.start})") from None
    reader = csv.reader(text.splitlines())
    header = next(reader, None)
    if header is None:
        return []
    if "key" not in header:
        raise ExperimentError(f"{path}: not a kop results file (no 'key' column in its header)")
    rows = []
    for lineno, cells in enumerate(reader, start=2):
        if len(cells) != len(header):
            raise ExperimentError(f"{path}, line {lineno}: {len(cells)} cells, header has {len(header)}")
        row = {name: _decode_cell(cell) for name, cell in zip(header, cells) if cell != ""}
        row["key"] = str(row.get("key", ""))
        rows.append(row)
    return rows


def _read_guarded(path: Path) -> bytes:
    """The bytes of a results file, through the guarded reader (a device, FIFO or folder is refused)."""
    try:
        return read_bytes(path, what="results file")
    except ExperimentError:
        raise
    except KopError as exc:
        raise ExperimentError(str(exc)) from None


def check_results_path(path: Path) -> None:
    """Refuse, before any task runs, a results file that cannot be read back and appended to.

    The file (and a Parquet file's journal) must be a regular file, or not exist yet in an
    existing folder, and be writable.  Nothing is written or truncated here.
    """
    for p in ([path, _journal(path)] if _is_parquet(path) else [path]):
        folder = p.parent if str(p.parent) else Path(".")
        try:
            info = os.stat(p)
        except FileNotFoundError:
            if not folder.is_dir():
                what = "does not exist" if not folder.exists() else "is not a folder"
                raise ExperimentError(f"results file {str(p)!r}: its folder {str(folder)!r} {what}") from None
            if not os.access(folder, os.W_OK | os.X_OK):
                raise ExperimentError(f"results file {str(p)!r}: cannot create it, its folder {str(folder)!r} "
                                      "is not writable") from None
            continue
        except OSError as exc:
            raise ExperimentError(f"results file {str(p)!r}: {exc.strerror or exc}") from None

        if not stat.S_ISREG(info.st_mode):
            raise ExperimentError(f"results file {str(p)!r} is {file_kind(info.st_mode)}, not a regular file")
        if not os.access(p, os.W_OK) or not info.st_mode & 0o222:
            raise ExperimentError(f"results file {str(p)!r} is read-only: cannot append results to it")


def read_results(path: str | os.PathLike[str]) -> list[Row]:
    """The rows stored in a results file (CSV or Parquet, plus its journal).

    Parameters
    ----------
    path : str or os.PathLike
        A ``.csv`` or ``.parquet`` file written by :func:`run_tasks`.

    Returns
    -------
    list of dict
        The rows, in the order they were stored; none when the file does not exist.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "results.csv")
    >>> rows = run_tasks(_example_square, [{"key": "a", "x": 3}, {"key": "b", "x": 4}], workers=1,
    ...                  results=path, progress=False)
    >>> [(r["key"], r["y"]) for r in read_results(path)]
    [('a', 9), ('b', 16)]
    >>> read_results("/nonexistent/results.csv")
    []
    """
    p = Path(arguments.path(path, "path"))
    if not _is_parquet(p):
        return _read_csv(p)
    rows: list[Row] = []
    if p.exists():
        pq = _pyarrow_parquet()
        data = _read_guarded(p)  # a device, FIFO or folder is refused before pyarrow sees it
        try:
            rows = [dict(r) for r in pq.read_table(io.BytesIO(data)).to_pylist()]
        except Exception as exc:  # pyarrow raises its own error types
            raise ExperimentError(f"{p}: cannot read as Parquet ({exc})") from None
    return rows + _read_csv(_journal(p))


def _pyarrow_parquet() -> Any:
    try:
        pq = importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise ExperimentError("Parquet results need pyarrow: pip install pyarrow (or use a .csv path)") from None
    return pq


class _CsvAppender:
    """Appends rows to a CSV file; widens the header (rewriting the file) when a new column appears."""

    def __init__(self, path: Path, existing: list[Row]):
        self.path = path
        self.rows = list(existing)
        self.header: list[str] = []
        if path.exists() and path.stat().st_size > 0:
            first = _read_guarded(path).split(b"\n", 1)[0].decode("utf-8", "replace")
            self.header = next(csv.reader([first]), [])
        self.fh: Any = None

    def _open(self) -> Any:
        if self.fh is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.fh = open(self.path, "a", newline="", encoding="utf-8")
            except OSError as exc:
                raise ExperimentError(f"results file {str(self.path)!r}: {exc.strerror or exc}") from None
        return self.fh

    def _rewrite(self) -> None:
        self.close()
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(tmp, "w", newline="", encoding="utf-8") as fh:
                writer = csv.writer(fh)
                writer.writerow(self.header)
                for row in self.rows:
                    writer.writerow([_encode_cell(row[c]) if c in row else "" for c in self.header])
            os.replace(tmp, self.path)
        except OSError as exc:  # the rows already written stay in the file
            raise ExperimentError(f"results file {str(self.path)!r}: {exc.strerror or exc}") from None

    def append(self, row: Row) -> None:
        self.rows.append(row)
        new = [c for c in row if c not in self.header]
        if new:
            self.header = self.header + new if self.header else ["key"] + [c for c in row if c != "key"]
            self._rewrite()
            return
        fh = self._open()
        csv.writer(fh).writerow([_encode_cell(row[c]) if c in row else "" for c in self.header])
        fh.flush()

    def close(self) -> None:
        if self.fh is not None:
            self.fh.close()
            self.fh = None


class _Store:
    """The results file of one run: CSV appended in place, or Parquet via a CSV journal."""

    def __init__(self, path: Path | None):
        self.path = path
        if path is not None:
            check_results_path(path)
        self.rows: list[Row] = read_results(path) if path is not None else []
        self.appender: _CsvAppender | None = None
        if path is not None:
            if _is_parquet(path):
                _pyarrow_parquet()
                journal = _journal(path)
                self.appender = _CsvAppender(journal, _read_csv(journal))
            else:
                self.appender = _CsvAppender(path, self.rows)

    def append(self, row: Row) -> None:
        self.rows.append(row)
        if self.appender is not None:
            try:
                self.appender.append(row)
            except OSError as exc:
                raise ExperimentError(f"cannot write to results file {str(self.appender.path)!r}: "
                                      f"{exc.strerror or exc}; the rows written before are kept, and a "
                                      "rerun with the same --results resumes from them") from None

    def close(self) -> None:
        if self.appender is not None:
            self.appender.close()
        if self.path is not None and _is_parquet(self.path) and _journal(self.path).exists():
            pa = importlib.import_module("pyarrow")
            pq = _pyarrow_parquet()
            tmp = self.path.with_name(self.path.name + ".tmp")
            try:
                table = pa.Table.from_pylist(self.rows)
            except Exception as exc:  # mixed types in one column
                raise ExperimentError(f"{self.path}: rows do not fit one Parquet schema ({exc}); "
                                      f"the rows are kept in {_journal(self.path)}") from None
            pq.write_table(table, tmp)
            os.replace(tmp, self.path)
            _journal(self.path).unlink()


# ------------------------------------------------------------------- running
def _check_tasks(tasks: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    seen: set[str] = set()
    out = []
    for i, task in enumerate(tasks):
        if not isinstance(task, Mapping):
            raise ExperimentError(f"task {i} is a {type(task).__name__}, not a dict")
        key = task.get("key")
        if not isinstance(key, str) or not key:
            raise ExperimentError(f"task {i} has no 'key' string (got {key!r})")
        if key in seen:
            raise ExperimentError(f"task {i}: key {key!r} is used twice; every task needs its own key")
        seen.add(key)
        try:
            json.dumps(task)
        except (TypeError, ValueError) as exc:
            raise ExperimentError(f"task {key!r} is not JSON-serializable: {exc}") from None
        out.append(dict(task))
    return out


def _row(key: str, result: Mapping[str, Any]) -> Row:
    if not isinstance(result, Mapping):
        raise ExperimentError(f"task {key!r}: the task function returned a {type(result).__name__}, not a dict")
    row: Row = {"key": key}
    for name, value in result.items():
        if name != "key":
            row[str(name)] = _plain(value)
    return row


def _call(fn: TaskFn, task: dict[str, Any]) -> Row:
    """Run one task (in a worker): its row, with the key first."""
    return _row(task["key"], fn(task))


# --------------------------------------------------- checkpoints, stops, progress
class _Context:
    """What :func:`checkpoint` reports to in this process: a stop flag, a unit counter, a callback."""

    def __init__(self, stop: Any = None, counter: Any = None, on_units: Callable[[int], None] | None = None):
        self.stop = stop
        self.counter = counter
        self.on_units = on_units
        self.units = 0     # units reported by the task running now


#: What checkpoints report to in this thread or task (a pool worker sets it once for its process).
_CONTEXT: contextvars.ContextVar[_Context | None] = contextvars.ContextVar("kop.experiments.checkpoint", default=None)


def checkpoint(units: int = 1) -> None:
    """Report *units* of work done (trees, games) by the task running now; stop here if the run is stopping.

    Task functions call it between units of work: the progress bar and its
    ETA then count units (see ``weight`` of :func:`run_tasks`), and a stopped
    run (SIGTERM) ends within one unit instead of one task.  Outside
    :func:`run_tasks` it does nothing.

    >>> checkpoint()
    """
    ctx = _CONTEXT.get()
    if ctx is None:
        return
    if ctx.stop is not None and ctx.stop.is_set():
        raise Stopped("the run is stopping")
    ctx.units += units
    if ctx.counter is not None:
        with ctx.counter.get_lock():
            ctx.counter.value += units
    if ctx.on_units is not None:
        ctx.on_units(units)


def _call_counted(fn: TaskFn, task: dict[str, Any]) -> tuple[Row, int]:
    """Run one task: its row and the units it reported through :func:`checkpoint`."""
    ctx = _CONTEXT.get()
    if ctx is not None:
        ctx.units = 0
    row = _call(fn, task)
    return row, (ctx.units if ctx is not None else 0)


def _watch_parent(lifeline: Any) -> None:
    """In a worker: block on the pipe from the parent; when the parent is gone (EOF), end this process."""
    try:
        lifeline.recv()
    except (EOFError, OSError):
        pass
    os._exit(1)


def _worker_init(stop: Any, counter: Any, lifeline: Any) -> None:
    """Pool worker start-up: checkpoints report to the run, and the worker dies with its parent.

    A worker's parent process is the forkserver, which itself lives as long as
    its workers do; so the worker watches the run's process through a pipe
    whose only writing end the run holds: when the run ends, even by
    ``kill -9``, the pipe reaches its end and the worker exits (and with the
    last worker, the forkserver).
    """
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _CONTEXT.set(_Context(stop, counter))
    threading.Thread(target=_watch_parent, args=(lifeline,), daemon=True, name="kop-lifeline").start()


class _Bar:
    """A rich progress bar with an ETA on stderr, or nothing; it counts units (tasks, or trees)."""

    def __init__(self, enabled: bool, total: int, done: int, desc: str, unit: str = "tasks"):
        self.progress: Progress | None = None
        if not enabled:
            return
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                                   TimeRemainingColumn)

        self.progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn(unit), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                                 console=Console(stderr=True), transient=False)
        self.progress.start()
        self.task = self.progress.add_task(desc or unit, total=total, completed=done)

    def update(self, completed: int) -> None:
        if self.progress is not None:
            self.progress.update(self.task, completed=completed)

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()


#: seconds a stopped pool's workers get to reach their next checkpoint before they are terminated
STOP_GRACE = 5.0


def _local(fn: TaskFn, pending: list[dict[str, Any]], workers: int, counter: list[int],
           tick: Callable[[], None]) -> Iterator[tuple[Row, int]]:
    if workers == 1 or len(pending) <= 1:
        def seen(units: int) -> None:
            counter[0] += units
            tick()

        _CONTEXT.set(_Context(on_units=seen))   # a generator runs in its caller's context
        try:
            for task in pending:
                yield _call_counted(fn, task)
        finally:
            _CONTEXT.set(None)
        return
    import multiprocessing

    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    ctx = multiprocessing.get_context(method)
    if method == "forkserver":
        ctx.set_forkserver_preload([getattr(fn, "__module__", "kop")])
    stop = ctx.Event()
    units = ctx.Value("q", 0)
    lifeline_r, lifeline_w = ctx.Pipe(duplex=False)
    pool = ProcessPoolExecutor(max_workers=min(workers, len(pending)), mp_context=ctx,
                               initializer=_worker_init, initargs=(stop, units, lifeline_r))
    finished = False
    try:
        # a bounded window of futures: memory stays flat for 10^5 tasks
        todo = iter(pending)
        window = 4 * workers
        running: set[Future[tuple[Row, int]]] = set()
        for task in todo:
            running.add(pool.submit(_call_counted, fn, task))
            if len(running) >= window:
                break
        while running:
            done, running = wait(running, timeout=0.25, return_when=FIRST_COMPLETED)
            counter[0] = int(units.value)
            tick()
            for fut in done:
                yield fut.result()
                nxt = next(todo, None)
                if nxt is not None:
                    running.add(pool.submit(_call_counted, fn, nxt))
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:  # stopped or failed: workers stop at their next checkpoint, or are terminated
            stop.set()
            processes = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            _end_processes(processes, STOP_GRACE)
        lifeline_w.close()
        lifeline_r.close()


def _end_processes(processes: list[Any], grace: float) -> None:
    """Wait up to *grace* seconds for *processes* to end, then terminate (and at last kill) the rest."""
    deadline = time.monotonic() + grace
    for p in processes:
        p.join(max(0.0, deadline - time.monotonic()))
    for p in processes:
        if p.is_alive():
            p.terminate()
    for p in processes:
        p.join(2.0)
        if p.is_alive():
            p.kill()


def _dask_lost(distributed: Any, exc: BaseException) -> bool:
    """Is *exc* the cluster going away (not an error raised by the task function)?"""
    import asyncio
    import concurrent.futures

    comm = getattr(getattr(distributed, "comm", None), "CommClosedError", ())
    cancelled = getattr(distributed.client, "FutureCancelledError", ())
    lost = tuple(t for t in (comm, cancelled, asyncio.CancelledError, concurrent.futures.CancelledError)
                 if isinstance(t, type))
    return isinstance(exc, lost) or (isinstance(exc, (OSError, TimeoutError)) and "comm" in type(exc).__module__)


def _dask(fn: TaskFn, pending: list[dict[str, Any]], address: Any, counter: list[int],
          tick: Callable[[], None]) -> Iterator[tuple[Row, int]]:
    try:
        distributed = importlib.import_module("distributed")
    except ImportError:
        raise ExperimentError(f"--dask needs the optional 'distributed' package: {install_hint('dask')}") from None
    own = not isinstance(address, distributed.Client)
    try:
        client = distributed.Client(address, timeout=DASK_CONNECT_TIMEOUT) if own else address
    except (OSError, TimeoutError, ValueError) as exc:
        raise ExperimentError(f"cannot reach the Dask scheduler at {address!r}: {exc}") from None
    where = address if own else getattr(client.scheduler, "address", "the client's scheduler")
    import logging

    # the client logs each failed reconnection with a traceback; ClusterLost says it once, plainly
    quiet = [logging.getLogger(n) for n in ("distributed.client", "distributed.comm", "distributed.core")]
    levels = [q.level for q in quiet]
    for q in quiet:
        q.setLevel(logging.CRITICAL)
    try:
        futures = client.map(_call_counted, [fn] * len(pending), pending, pure=False)
        results = distributed.as_completed(futures)
        while True:
            fut = None
            try:
                fut = next(results)
                row = fut.result()
            except StopIteration:
                break
            except Exception as exc:  # noqa: BLE001 - the task's own errors propagate below
                if not _dask_lost(distributed, exc) and (fut is None or fut.status != "cancelled"):
                    raise
                raise ClusterLost(f"the Dask scheduler at {where} went away in the middle of the run "
                                  f"({type(exc).__name__})") from None
            yield row
    finally:
        if own:
            try:
                client.close(timeout=5)
            except Exception:  # noqa: BLE001 - closing a client whose scheduler is gone
                pass
        for q, level in zip(quiet, levels):
            q.setLevel(level)


def _check_run(fn: TaskFn, tasks: Iterable[Mapping[str, Any]], workers: int | None,
               dask: Any) -> tuple[list[dict[str, Any]], int]:
    """:func:`run_tasks`' arguments checked: the tasks (unique keys) and the worker count."""
    if not callable(fn):
        raise arguments.fail("fn", "a function task -> dict", fn)
    checked = _check_tasks(arguments.items(tasks, "tasks", "an iterable of task dicts"))
    if workers is None:
        workers = os.cpu_count() or 1
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ExperimentError(f"workers must be a positive integer, got {workers!r}")
    if workers > 1 or dask is not None:
        try:
            pickle.dumps(fn)
        except Exception:
            raise ExperimentError(f"the task function {fn!r} cannot be pickled: use a module-level function") \
                from None
    return checked, workers


def run_tasks(fn: TaskFn, tasks: Iterable[Mapping[str, Any]], *, workers: int | None = None,
              dask: Any = None, results: str | os.PathLike[str] | None = None, progress: bool = True,
              desc: str = "", weight: Callable[[dict[str, Any]], int] | None = None,
              unit: str = "tasks") -> list[Row]:
    """Run ``fn`` on every task, in parallel; the rows in task order.

    Parameters
    ----------
    fn : callable
        A module-level (picklable) function ``task -> dict`` returning one flat
        row (str, int, float, bool or None values).  It must depend only on the
        task: a task carries its own seed.
    tasks : iterable of dict
        JSON-serializable dicts, each with a unique ``"key"`` string.
    workers : int, optional
        Size of the local process pool (default ``os.cpu_count()``); 1 runs
        the tasks in this process.
    dask : str or distributed.Client, optional
        Address of a Dask scheduler (``tcp://host:8786``); the tasks then run
        on its workers instead of a local pool.
    results : str or os.PathLike, optional
        A ``.csv`` or ``.parquet`` file.  Rows are appended as they arrive;
        tasks whose key is already stored are not run again and their stored
        rows are returned.
    progress : bool
        Show a progress bar with an ETA on stderr (only when stderr is a terminal),
        and say "resuming: N of M done" when the results file holds part of the run.
    desc : str
        The progress bar's label.
    weight : callable, optional
        ``task -> int``: the units of work (trees, games) in a task; the bar and
        its ETA then count units, and a task function that calls
        :func:`checkpoint` after each unit moves the bar unit by unit.
    unit : str
        The name of the units the bar counts ("tasks", or "trees" with *weight*).

    Returns
    -------
    list of dict
        ``{"key": task["key"], **fn(task)}`` for each task, in task order.

    Raises
    ------
    ExperimentError
        Tasks without a unique key, a bad worker count, an unreadable results
        file, an unreachable cluster; :class:`ClusterLost` when the Dask
        scheduler goes away mid-run (the rows done are kept; the message says
        how to resume).  An exception raised by ``fn`` stops the run (rows
        already done stay in the results file) and propagates.
    Stopped
        SIGINT or SIGTERM stopped the run (a :class:`KeyboardInterrupt`): the
        pool's workers stop at their next :func:`checkpoint` (or are
        terminated), the rows done stay in the results file.  Pool workers also
        end when this process ends in any other way (``kill -9``).

    Examples
    --------
    >>> rows = run_tasks(_example_square, [{"key": "a", "x": 3}], workers=1, progress=False)
    >>> rows
    [{'key': 'a', 'y': 9}]
    """
    checked, workers = _check_run(fn, tasks, workers, dask)
    size = _weights(checked, weight)
    store = _Store(Path(results) if results is not None else None)
    wanted = {t["key"] for t in checked}
    found: dict[str, Row] = {r["key"]: r for r in store.rows if r.get("key") in wanted}
    pending = [t for t in checked if t["key"] not in found]
    total = sum(size.values())
    done = [sum(size[k] for k in found)]   # units of the tasks finished (before and in this run)
    if progress and found and pending:
        print(f"resuming: {done[0]} of {total} {unit} done ({results})", file=sys.stderr, flush=True)
    bar = _Bar(progress and sys.stderr.isatty(), total, done[0], desc, unit)
    running = [0]   # units reported by checkpoints of the tasks running (and finished) in this run
    reported = [0]  # ... of which those of finished tasks

    def tick() -> None:
        bar.update(done[0] + running[0] - reported[0])

    restore = _on_sigterm()
    try:
        stream = _dask(fn, pending, dask, running, tick) if dask is not None else \
            _local(fn, pending, workers, running, tick)
        for row, units in stream:
            found[row["key"]] = row
            store.append(row)
            done[0] += size[row["key"]]
            reported[0] += units
            tick()
    except ClusterLost as exc:
        raise ClusterLost(f"{exc}; {_kept(done[0], total, unit, results)}") from None
    except KeyboardInterrupt as exc:
        status = exc.status if isinstance(exc, Stopped) else 130
        raise Stopped(f"stopped by {'SIGTERM' if status == 143 else 'SIGINT'}; "
                      f"{_kept(done[0], total, unit, results)}", status) from None
    finally:
        restore()
        bar.close()
        store.close()
    return [found[t["key"]] for t in checked]


def _kept(done: int, total: int, unit: str, results: Any) -> str:
    if results is None:
        return f"{done} of {total} {unit} were done (without a results file nothing is kept)"
    return f"{done} of {total} {unit} are done and kept in {results}; run the same command again to resume"


def _weights(tasks: list[dict[str, Any]], weight: Callable[[dict[str, Any]], int] | None) -> dict[str, int]:
    if weight is None:
        return {t["key"]: 1 for t in tasks}
    out = {}
    for t in tasks:
        w = weight(t)
        if isinstance(w, bool) or not isinstance(w, int) or w < 0:
            raise ExperimentError(f"task {t['key']!r}: weight must give an integer >= 0, got {w!r}")
        out[t["key"]] = w
    return out


def _on_sigterm() -> Callable[[], None]:
    """While a run lasts, SIGTERM stops it as SIGINT does (in the main thread); returns the undo."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def stop(signum: int, frame: Any) -> None:
        raise Stopped("stopped by SIGTERM", 143)

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except (ValueError, OSError):
        return lambda: None

    def undo() -> None:
        signal.signal(signal.SIGTERM, previous)
    return undo

