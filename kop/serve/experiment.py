"""The Experiment page's job: one of the papers' experiments at a small size, run by kop's runner in a thread.

One job at a time, in this process (``workers=1``), without a results file
(nothing is written to disk); sizes are capped so that a job stays small.

* ``bodkin``: a sweep of depths for one (N, b, m, eta), each depth a cell of
  random trees run by :func:`kop.experiments.bodkin.run_cell` (which hands its
  tasks to :func:`kop.experiments.runner.run_tasks`).  After each cell the
  status gains a point per algorithm: log_b of the mean number of leaves
  examined (the y axis of Bodkin's Figs. 4-3 to 4-10).
* ``jamroga``: one of Jamroga's figures (4, 5 or 8) with ``small=True``, its
  games run by :func:`~kop.experiments.runner.run_tasks` in batches of
  :data:`BATCH`; after each batch the status holds the figure's rows so far
  (:func:`kop.experiments.jamroga.summarize`: each pair's triumph and payoff
  supremacy beside the paper's).

The page plots the status as it arrives.

Example
-------
>>> job = ExperimentJob()
>>> job.start({"players": 3, "branching": 2, "depths": [2, 3], "trees": 25})["state"] in ("running", "done")
True
>>> job.wait(30)["state"], len(job.status()["points"])
('done', 2)
>>> _ = job.start({"experiment": "jamroga", "figure": 8, "games": 4})
>>> s = job.wait(60)
>>> s["state"], s["done"], [r["a"] + " vs " + r["b"] for r in s["rows"]][:2]
('done', 4, ['gvm vs MC', 'gvm vs prm'])
"""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Mapping
from typing import Any

from kop.errors import KopError
from kop.experiments.bodkin import Cell, run_cell
from kop.experiments.jamroga import figure_tasks, play_game, summarize
from kop.experiments.runner import run_tasks

__all__ = ["ExperimentJob", "MAX_TREES", "MAX_DEPTH", "MAX_CELLS", "MAX_GAMES", "BATCH", "EXPERIMENTS"]

#: the largest sweep the page may start
MAX_TREES = 400
MAX_DEPTH = 12
MAX_CELLS = 12
MAX_GAMES = 400
#: Jamroga's games run this many at a time between two updates of the status
BATCH = 10
#: the experiments the page runs
EXPERIMENTS = ("bodkin", "jamroga")


class ExperimentJob:
    """A sweep of Bodkin cells over depths, run in a background thread; :meth:`status` is safe to poll."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._state: dict[str, Any] = {"state": "idle", "experiment": None, "done": 0, "total": 0, "points": [],
                                       "rows": [], "config": None, "error": None, "seconds": 0.0}

    def __repr__(self) -> str:
        return f"ExperimentJob(state={self._state['state']!r})"

    def status(self) -> dict[str, Any]:
        """A copy of the job's state: ``state`` (idle, running, done, stopped, error), progress, points."""
        with self._lock:
            return {**self._state, "points": list(self._state["points"]), "rows": list(self._state["rows"])}

    def start(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """Start an experiment unless one runs: ``experiment`` (``bodkin``, the default, or ``jamroga``) and
        its sizes: ``players``, ``branching``, ``depths`` [from, to], ``trees``, ``seed`` (Bodkin);
        ``figure`` (4, 5 or 8), ``games`` per table, ``seed`` (Jamroga)."""
        kind = request.get("experiment", "bodkin")
        if kind not in EXPERIMENTS:
            raise KopError(f"experiment must be one of {', '.join(EXPERIMENTS)}, not {kind!r}")
        if kind == "jamroga":
            return self._start_jamroga(request)

        players = _int(request, "players", 3, 2, 6)
        branching = _int(request, "branching", 2, 2, 4)
        trees = _int(request, "trees", 100, 1, MAX_TREES)
        seed = _int(request, "seed", 1, 0, 2 ** 31)
        depths = request.get("depths", [2, 8])
        if (not isinstance(depths, list) or len(depths) != 2
                or not all(isinstance(d, int) and not isinstance(d, bool) for d in depths)
                or not 1 <= depths[0] <= depths[1] <= MAX_DEPTH or depths[1] - depths[0] + 1 > MAX_CELLS):
            raise KopError(f"depths must be [from, to] with 1 <= from <= to <= {MAX_DEPTH} "
                           f"and at most {MAX_CELLS} depths")
        if branching ** depths[1] > 2 ** 16:
            raise KopError(f"branching {branching} to depth {depths[1]} is too large for the page "
                           f"(at most 65536 leaves per tree)")
        cells = [Cell(n_players=players, branching=branching, depth=d, m=1, eta=1, trees=trees, seed=seed)
                 for d in range(depths[0], depths[1] + 1)]
        return self._launch("bodkin", len(cells), {"players": players, "branching": branching, "depths": depths,
                                                   "trees": trees, "seed": seed}, self._run, cells)

    def _start_jamroga(self, request: Mapping[str, Any]) -> dict[str, Any]:
        fig = request.get("figure", 4)
        if fig not in (4, 5, 8):
            raise KopError(f"figure must be 4, 5 or 8, not {fig!r}")
        games = _int(request, "games", 40, 1, MAX_GAMES)
        seed = _int(request, "seed", 0, 0, 2 ** 31)
        tasks = figure_tasks(fig, games, seed, small=True)
        return self._launch("jamroga", len(tasks), {"figure": fig, "games": games, "seed": seed, "small": True},
                            self._run_jamroga, (fig, tasks))

    def _launch(self, kind: str, total: int, config: dict[str, Any], target: Any, work: Any) -> dict[str, Any]:
        with self._lock:
            if self._state["state"] == "running":
                raise KopError("an experiment is already running; stop it first")
            self._stop.clear()
            self._state = {"state": "running", "experiment": kind, "done": 0, "total": total, "points": [],
                           "rows": [], "error": None, "config": config, "seconds": 0.0}
            self._thread = threading.Thread(target=contextvars.copy_context().run, args=(target, work),  # the caller's kop.config
                                            name="kop-serve-experiment", daemon=True)
            self._thread.start()
        return self.status()

    def stop(self) -> dict[str, Any]:
        """Ask the running sweep to stop after its current cell."""
        self._stop.set()
        return self.status()

    def wait(self, seconds: float) -> dict[str, Any]:
        """Wait at most *seconds* for the sweep to end; its status."""
        t = self._thread
        if t is not None:
            t.join(seconds)
        return self.status()

    def _run_jamroga(self, work: tuple[int, list[dict[str, Any]]]) -> None:
        fig, tasks = work
        t0 = time.perf_counter()
        rows: list[dict[str, Any]] = []
        try:
            for k in range(0, len(tasks), BATCH):
                if self._stop.is_set():
                    with self._lock:
                        self._state["state"] = "stopped"
                    return
                rows += run_tasks(play_game, tasks[k:k + BATCH], workers=1, progress=False)
                table = summarize(fig, rows, small=True)
                with self._lock:
                    self._state.update(rows=table, done=len(rows), seconds=round(time.perf_counter() - t0, 3))
            with self._lock:
                self._state["state"] = "done"
        except Exception as exc:  # the page shows it; the server goes on
            with self._lock:
                self._state.update(state="error", error=str(exc) or type(exc).__name__)

    def _run(self, cells: list[Any]) -> None:
        t0 = time.perf_counter()
        try:
            for cell in cells:
                if self._stop.is_set():
                    with self._lock:
                        self._state["state"] = "stopped"
                    return
                out = run_cell(cell, workers=1, progress=False)
                point = {"depth": cell.depth, **{a: v["log_b_leaves"] for a, v in out["algorithms"].items()}}
                with self._lock:
                    self._state["points"].append(point)
                    self._state["done"] += 1
                    self._state["seconds"] = round(time.perf_counter() - t0, 3)
            with self._lock:
                self._state["state"] = "done"
        except Exception as exc:  # the page shows it; the server goes on
            with self._lock:
                self._state.update(state="error", error=str(exc) or type(exc).__name__)


def _int(request: Mapping[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    v = request.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise KopError(f"{key} must be a whole number from {lo} to {hi}, not {v!r}")
    return v
