"""Results files that cannot be one: a located error (exit 2 on the CLI), never an internal error.

Regression tests of crashes the CLI fuzz test found (tests/fuzz/test_cli.py): ``--results``
naming a folder ended in "internal error (IsADirectoryError)", a path in a missing folder in
"internal error (FileNotFoundError)" (now refused, exit 2, before any task runs), and a device
such as /dev/full was read whole.
"""

from __future__ import annotations

import os

import pytest

from cli_runner import run_cli
from kop.experiments.runner import ExperimentError, _example_square, read_results, run_tasks

TASKS = [{"key": f"k{i}", "x": i} for i in range(3)]


def run(results):
    return run_tasks(_example_square, TASKS, workers=1, results=results, progress=False)


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(ExperimentError, match="is a (directory|folder)"):
        run(tmp_path)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_device_is_refused_without_reading_it():
    with pytest.raises(ExperimentError, match="not a regular file"):
        run("/dev/full")


def test_a_missing_folder_is_refused_before_any_task_runs(tmp_path):
    path = tmp_path / "a" / "b" / "rows.csv"
    with pytest.raises(ExperimentError, match="does not exist"):
        run(path)
    assert not (tmp_path / "a").exists()


def test_a_file_in_place_of_a_folder_is_refused(tmp_path):
    (tmp_path / "plain").write_text("x")
    with pytest.raises(ExperimentError, match="results file"):
        run(tmp_path / "plain" / "rows.csv")


def test_cli_says_so_with_exit_2(tmp_path):
    r = run_cli(["experiment", "bodkin-nplayer", "--N", "2", "--b", "2", "--depth", "2", "--trees", "2",
                 "--workers", "1", "--no-progress", "--results", str(tmp_path)])
    assert r.code == 2 and r.err.startswith("error: results file") and ("is a directory" in r.err or "is a folder" in r.err), r
