"""The Experiment page's job: Bodkin's N-player experiment, a small sweep run by kop's runner in a thread.

One job at a time: a sweep of depths for one (N, b, m, eta), each depth a
cell of random trees run by :func:`kop.experiments.bodkin.run_cell` (which
hands its tasks to :func:`kop.experiments.runner.run_tasks`) in this process
(``workers=1``), without a results file (nothing is written to disk).  After
each cell the job's status gains a point per algorithm: log_b of the mean
number of leaves examined (the y axis of Bodkin's Figs. 4-3 to 4-10), which
the page plots as it arrives.  Sizes are capped so that a job stays small.

Example
-------
>>> job = ExperimentJob()
>>> job.start({"players": 3, "branching": 2, "depths": [2, 3], "trees": 25})["state"] in ("running", "done")
True
>>> job.wait(30)["state"], len(job.status()["points"])
('done', 2)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from typing import Any

from kop.errors import KopError

__all__ = ["ExperimentJob", "MAX_TREES", "MAX_DEPTH", "MAX_CELLS"]

#: the largest sweep the page may start
MAX_TREES = 400
MAX_DEPTH = 12
MAX_CELLS = 12


class ExperimentJob:
    """A sweep of Bodkin cells over depths, run in a background thread; :meth:`status` is safe to poll."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._state: dict[str, Any] = {"state": "idle", "done": 0, "total": 0, "points": [], "config": None,
                                       "error": None, "seconds": 0.0}

    def __repr__(self) -> str:
        return f"ExperimentJob(state={self._state['state']!r})"

    def status(self) -> dict[str, Any]:
        """A copy of the job's state: ``state`` (idle, running, done, stopped, error), progress, points."""
        with self._lock:
            return {**self._state, "points": list(self._state["points"])}

    def start(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """Start a sweep (``players``, ``branching``, ``depths`` [from, to], ``trees``, ``seed``) unless one runs."""
        from kop.experiments.bodkin import Cell

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
        with self._lock:
            if self._state["state"] == "running":
                raise KopError("an experiment is already running; stop it first")
            self._stop.clear()
            self._state = {"state": "running", "done": 0, "total": len(cells), "points": [], "error": None,
                           "config": {"players": players, "branching": branching, "depths": depths,
                                      "trees": trees, "seed": seed}, "seconds": 0.0}
            self._thread = threading.Thread(target=self._run, args=(cells,), name="kop-serve-experiment",
                                            daemon=True)
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

    def _run(self, cells: list[Any]) -> None:
        from kop.experiments.bodkin import run_cell

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
