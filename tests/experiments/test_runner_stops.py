"""The runner when a run ends early (issue 16, items 10 and 11): a Dask scheduler that goes away, SIGTERM,
kill -9 of the runner's process; the progress bar counts trees; a resumed run says how much is done.

The waits below are bounded generously: they detect hangs, they do not time anything."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import kop.experiments.runner as runner
from kop.experiments.runner import ClusterLost, read_results, run_tasks

psutil = pytest.importorskip("psutil")

ROOT = Path(__file__).resolve().parents[2]
HANG = 180.0   # seconds after which a wait is a hang


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def _until(cond: Any, what: str, limit: float = HANG) -> None:
    end = time.monotonic() + limit
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"hang: {what} after {limit:.0f} s")
        time.sleep(0.05)


def _gone(pids: list[int]) -> bool:
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                return False
        except psutil.NoSuchProcess:
            pass
    return True


def _start_pool_run(tmp_path: Path, units: int = 10**6, grace: float = 10**6) -> tuple[subprocess.Popen[str], list[int]]:
    """A run of never-ending tasks on 2 pool workers in a child process, once its workers run; and its descendants.

    ``STOP_GRACE`` is huge: workers that did not stop at a checkpoint would never be terminated, so
    the run would hang (and the bounded wait fail) instead of passing by the fallback.
    """
    script = (
        "import sys\n"
        "import kop.experiments.runner as r\n"
        f"r.STOP_GRACE = {grace!r}\n"
        "if __name__ == '__main__':\n"
        f"    tasks = [{{'key': f't{{i}}', 'x': i, 'units': {units}, 'pause': 0.01}} for i in range(8)]\n"
        f"    r.run_tasks(r._example_square, tasks, workers=2, results={str(tmp_path / 'r.csv')!r}, progress=False)\n"
    )
    path = tmp_path / "run.py"
    path.write_text(script)
    proc = subprocess.Popen([sys.executable, str(path)], env=_env(), stderr=subprocess.PIPE, text=True)
    me = psutil.Process(proc.pid)

    def workers_run() -> bool:
        kids = me.children(recursive=True)
        return sum(1 for k in kids if k.ppid() != proc.pid) >= 2   # the forkserver's children
    _until(workers_run, "the pool's workers to start")
    return proc, [k.pid for k in me.children(recursive=True)]


def test_sigterm_stops_the_workers_at_their_next_checkpoint(tmp_path: Path) -> None:
    proc, pids = _start_pool_run(tmp_path)
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(HANG)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("hang: SIGTERM did not stop the run") from None
    err = proc.stderr.read() if proc.stderr else ""
    assert "Stopped" in err and "SIGTERM" in err and "resume" in err
    _until(lambda: _gone(pids), "the forkserver and the workers to end")


def test_kill_9_of_the_runner_ends_its_workers(tmp_path: Path) -> None:
    proc, pids = _start_pool_run(tmp_path)
    proc.kill()
    proc.wait(HANG)
    _until(lambda: _gone(pids), "the workers of a killed run to end")


def test_sigterm_on_the_command_line_exits_143_and_says_how_to_resume(tmp_path: Path) -> None:
    results = tmp_path / "r.csv"
    proc = subprocess.Popen([sys.executable, "-m", "kop", "experiment", "bodkin-nplayer", "--depth", "12",
                             "--trees", "4000", "--workers", "2", "--results", str(results), "--no-progress"],
                            env=_env(), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    me = psutil.Process(proc.pid)
    _until(lambda: sum(1 for k in me.children(recursive=True) if k.ppid() != proc.pid) >= 2, "workers")
    pids = [k.pid for k in me.children(recursive=True)]
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=HANG)
    assert proc.returncode == 143 and out == ""
    assert "SIGTERM" in err and "of 4000 trees are done and kept in" in err and "again to resume" in err
    assert "Traceback" not in err and "internal error" not in err
    _until(lambda: _gone(pids), "the workers to end")


def test_checkpoint_outside_a_run_does_nothing() -> None:
    runner.checkpoint()
    assert runner._example_square({"key": "a", "x": 2, "units": 3}) == {"y": 4}


class _FakeBar:
    seen: list[Any] = []

    def __init__(self, enabled: bool, total: int, done: int, desc: str, unit: str = "tasks") -> None:
        _FakeBar.seen.append(("start", total, done, unit))

    def update(self, completed: int) -> None:
        _FakeBar.seen.append(completed)

    def close(self) -> None:
        pass


def test_the_progress_bar_counts_trees(monkeypatch: pytest.MonkeyPatch) -> None:
    from kop.experiments.bodkin import CHUNK, Cell, run_cell

    monkeypatch.setattr(runner, "_Bar", _FakeBar)
    _FakeBar.seen = []
    run_cell(Cell(3, 2, 4, 1, 1, trees=2 * CHUNK + 3, seed=1), workers=1, progress=True)
    start, *updates = _FakeBar.seen
    assert start == ("start", 2 * CHUNK + 3, 0, "trees")
    assert updates[-1] == 2 * CHUNK + 3
    steps = [b - a for a, b in zip([0, *updates], updates)]
    assert max(steps) <= 1 and sorted(set(updates)) == list(range(1, 2 * CHUNK + 4))  # tree by tree


def test_a_resumed_run_says_how_much_is_done(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.csv"
    tasks = [{"key": f"t{i}", "x": i} for i in range(5)]
    run_tasks(runner._example_square, tasks[:2], workers=1, results=path, progress=True)
    assert "resuming" not in capsys.readouterr().err
    run_tasks(runner._example_square, tasks, workers=1, results=path, progress=True)
    assert f"resuming: 2 of 5 tasks done ({path})" in capsys.readouterr().err


def test_a_resumed_experiment_counts_trees(tmp_path: Path) -> None:
    results = tmp_path / "r.csv"
    base = [sys.executable, "-m", "kop", "experiment", "bodkin-nplayer", "--depth", "4", "--workers", "1",
            "--results", str(results)]
    first = subprocess.run([*base, "--trees", "50"], env=_env(), cwd=ROOT, capture_output=True, text=True,
                           timeout=HANG)
    assert first.returncode == 0 and "resuming" not in first.stderr
    second = subprocess.run([*base, "--trees", "75"], env=_env(), cwd=ROOT, capture_output=True, text=True,
                            timeout=HANG)
    assert second.returncode == 0 and "resuming: 50 of 75 trees done" in second.stderr


def test_a_dask_scheduler_that_goes_away_keeps_the_rows_and_says_how_to_resume(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    path = tmp_path / "r.csv"
    tasks = [{"key": f"t{i}", "x": i, "units": 4, "pause": 0.05} for i in range(40)]
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None)
    closed = threading.Event()

    def close_when_three_are_done() -> None:
        end = time.monotonic() + HANG
        while len(read_results(path)) < 3 and time.monotonic() < end:
            time.sleep(0.05)
        cluster.close()
        closed.set()

    threading.Thread(target=close_when_three_are_done, daemon=True).start()
    with pytest.raises(ClusterLost) as lost:
        run_tasks(runner._example_square, tasks, dask=cluster.scheduler_address, results=path, progress=False)
    closed.wait(HANG)
    message = str(lost.value)
    kept = read_results(path)
    assert "went away in the middle of the run" in message and "again to resume" in message
    assert f"{len(kept)} of 40 tasks are done and kept in {path}" in message and len(kept) >= 3
    # resumed on a new cluster: the rows kept are used, the others computed
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as again:
        rows = run_tasks(runner._example_square, tasks, dask=again.scheduler_address, results=path,
                         progress=False)
    assert [r["y"] for r in rows] == [i * i for i in range(40)]
    assert read_results(path)[:len(kept)] == kept


def test_a_task_error_on_dask_is_not_a_lost_cluster() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        with pytest.raises(TypeError):
            run_tasks(runner._example_square, [{"key": "a", "x": "oops"}], dask=cluster.scheduler_address,
                      progress=False)


def test_a_short_last_chunk_is_not_reused_for_a_full_one(tmp_path: Path) -> None:
    from kop.experiments.bodkin import CHUNK, Cell, run_cell

    results = str(tmp_path / "r.csv")
    run_cell(Cell(3, 2, 4, 1, 1, trees=CHUNK + 10, seed=1), workers=1, progress=False, results=results)
    out = run_cell(Cell(3, 2, 4, 1, 1, trees=2 * CHUNK, seed=1), workers=1, progress=False, results=results)
    fresh = run_cell(Cell(3, 2, 4, 1, 1, trees=2 * CHUNK, seed=1), workers=1, progress=False)
    def leaves(o: dict[str, Any]) -> dict[str, float]:
        return {name: a["mean_leaves"] for name, a in o["algorithms"].items()}
    assert leaves(out) == leaves(fresh)
