"""The experiment runner's command-line options, shared by every ``kop experiment NAME``.

:func:`add_runner_options` adds ``--workers``, ``--dask``, ``--results`` and ``--no-progress``;
:func:`runner_kwargs` turns them into :func:`kop.experiments.runner.run_tasks`' keyword arguments.
"""

from __future__ import annotations

import argparse
from typing import Any


def add_runner_options(p: argparse.ArgumentParser) -> None:
    """The runner's flags: --workers, --dask, --results, --no-progress."""
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="Local worker processes (default: the number of CPUs; 1 runs in this process).")
    p.add_argument("--dask", default=None, metavar="ADDRESS", help="Run on the Dask scheduler at ADDRESS.")
    p.add_argument("--results", default=None, metavar="FILE",
                   help="Append result rows to FILE (.csv or .parquet); a rerun resumes from it.")
    p.add_argument("--no-progress", action="store_true", help="No progress bar.")


def inherit_json(p: argparse.ArgumentParser) -> None:
    """Let ``kop experiment --json NAME`` count as ``kop experiment NAME --json`` (no default of its own)."""
    for action in p._actions if isinstance(p, argparse.ArgumentParser) else ():
        if action.dest == "json":
            action.default = argparse.SUPPRESS


def runner_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`kop.experiments.runner.run_tasks` from the parsed flags."""
    return {"workers": args.workers, "dask": args.dask, "results": args.results,
            "progress": not args.no_progress and not getattr(args, "json", False)}
