"""Experiments: the shared experiment runner and the papers' experiments.

:func:`kop.experiments.runner.run_tasks` runs independent tasks (one game,
one tree, one configuration each) on a local process pool or on a Dask
cluster, appends each result row to a CSV or Parquet file as it arrives, and
resumes an interrupted run from that file.  See ``docs/experiments.md``.
"""
