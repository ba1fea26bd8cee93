"""The experiment runner: order, keys, resume from CSV/Parquet, worker-count and Dask independence."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import kop.experiments.runner as runner
from kop import KopError
from kop.experiments.runner import ExperimentError, read_results, run_tasks, spawn_seeds

square = runner._example_square


def _tasks(n, seed=5):
    return [{"key": f"t{i}-s{s}", "x": i, "seed": s} for i, s in enumerate(spawn_seeds(seed, n))]


def test_rows_in_task_order_with_key_first():
    rows = run_tasks(square, _tasks(6), workers=1, progress=False)
    assert [r["key"] for r in rows] == [t["key"] for t in _tasks(6)]
    assert [r["y"] for r in rows] == [i * i for i in range(6)]
    assert all(list(r)[0] == "key" for r in rows)


def test_pool_gives_the_same_rows_as_one_process():
    tasks = _tasks(8)
    assert run_tasks(square, tasks, workers=2, progress=False) == run_tasks(square, tasks, workers=1,
                                                                             progress=False)


def test_seeds_are_stable_prefixes():
    assert spawn_seeds(3, 4) == spawn_seeds(3, 10)[:4]
    assert spawn_seeds(3, 4) != spawn_seeds(4, 4)


@pytest.mark.parametrize("bad,msg", [
    ([{"x": 1}], "no 'key'"),
    ([{"key": "a"}, {"key": "a"}], "used twice"),
    ([{"key": "a", "x": object()}], "JSON"),
    (["a"], "not a dict"),
])
def test_bad_tasks(bad, msg):
    with pytest.raises(ExperimentError, match=msg):
        run_tasks(square, bad, workers=1, progress=False)


def test_bad_workers_and_unpicklable_fn():
    with pytest.raises(KopError, match="positive"):
        run_tasks(square, [], workers=0)
    with pytest.raises(KopError, match="pickled"):
        run_tasks(lambda t: {}, [{"key": "a"}], workers=2)


def test_errors_in_fn_propagate_and_done_rows_are_kept(tmp_path):
    path = tmp_path / "r.csv"
    tasks = [{"key": "a", "x": 2}, {"key": "b", "x": "oops"}]
    with pytest.raises(TypeError):
        run_tasks(square, tasks, workers=1, results=path, progress=False)
    assert [r["key"] for r in read_results(path)] == ["a"]


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_resume_skips_stored_keys(tmp_path, suffix):
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    path = tmp_path / f"results{suffix}"
    tasks = _tasks(5)
    first = run_tasks(square, tasks[:3], workers=1, results=path, progress=False)
    assert read_results(path) == first
    # tamper with a stored row: a resumed run must return it, not recompute it
    stored = read_results(path)
    stored[1]["y"] = 999
    path.unlink()
    run_tasks(_identity, [dict(r) for r in stored], workers=1, results=path, progress=False)
    rows = run_tasks(square, tasks, workers=1, results=path, progress=False)
    assert rows[1]["y"] == 999
    assert [r["y"] for r in rows[3:]] == [9, 16]
    assert len(read_results(path)) == 5
    assert rows == read_results(path)


def _identity(task):
    return {k: v for k, v in task.items() if k != "key"}


def test_interrupted_last_line_is_dropped(tmp_path):
    path = tmp_path / "r.csv"
    run_tasks(square, _tasks(3), workers=1, results=path, progress=False)
    text = path.read_text()
    path.write_text(text[:-7])  # the last row cut short
    rows = run_tasks(square, _tasks(3), workers=1, results=path, progress=False)
    assert rows == run_tasks(square, _tasks(3), workers=1, progress=False)
    assert len(read_results(path)) == 3


def test_new_columns_widen_the_header(tmp_path):
    path = tmp_path / "r.csv"
    run_tasks(_identity, [{"key": "a", "x": 1}, {"key": "b", "x": 2, "z": "new"}], workers=1, results=path,
              progress=False)
    assert read_results(path) == [{"key": "a", "x": 1}, {"key": "b", "x": 2, "z": "new"}]


def test_not_a_results_file(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("a,b\n1,2\n")
    with pytest.raises(ExperimentError, match="no 'key' column"):
        run_tasks(square, [{"key": "a", "x": 1}], workers=1, results=path)


scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text())


@given(st.dictionaries(st.text(min_size=1).filter(lambda s: s != "key"), scalars, max_size=5))
def test_csv_cells_round_trip(row):
    for value in row.values():
        back = runner._decode_cell(runner._encode_cell(value))
        if isinstance(value, float) and math.isnan(value):
            assert isinstance(back, float) and math.isnan(back)
        else:
            assert back == value and type(back) is type(value)


def test_dask_local_cluster_gives_the_same_rows():
    distributed = pytest.importorskip("distributed")
    tasks = _tasks(6, seed=11)
    local = run_tasks(square, tasks, workers=1, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        remote = run_tasks(square, tasks, dask=cluster.scheduler_address, progress=False)
    assert remote == local


def test_unreachable_dask_scheduler(monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(runner, "DASK_CONNECT_TIMEOUT", "1s")
    with pytest.raises(ExperimentError, match="Dask scheduler"):
        run_tasks(square, [{"key": "a", "x": 1}], dask="tcp://127.0.0.1:9", progress=False)


def test_docs_examples_run():
    from doc_examples import page, run_python_blocks

    failed, tried = run_python_blocks(page("experiments.md"), "docs/experiments.md", ellipsis=False)
    assert failed == 0 and tried >= 5
