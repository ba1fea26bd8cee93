"""``kop experiment ...``: the papers' experiments, run on the experiment runner.

``kop experiment`` is a command group.  Each experiment lives in its own
module listed in :data:`EXPERIMENT_MODULES`, with a ``register(group)``
function that adds its subcommand through the same :class:`~kop.cli.app.Commands`
API as top-level commands (``group.add("name", handler)``), and usually
:func:`add_runner_options` for the runner's flags.
"""

from __future__ import annotations

import argparse
import importlib

from kop.cli.app import Commands

__all__ = ["register", "add_runner_options", "runner_kwargs", "EXPERIMENT_MODULES"]

#: experiment modules, in the order their subcommands appear in ``kop experiment --help``
EXPERIMENT_MODULES = [
    "kop.cli.experiment_jamroga",
    "kop.cli.experiment_bodkin",
]


def add_runner_options(p: argparse.ArgumentParser) -> None:
    """The runner's flags: --workers, --dask, --results, --no-progress."""
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="Local worker processes (default: the number of CPUs; 1 runs in this process).")
    p.add_argument("--dask", default=None, metavar="ADDRESS",
                   help="Run on a Dask cluster: its scheduler's address, e.g. tcp://10.0.0.5:8786 "
                        "(needs kop-epistemic[dask]; see docs/experiments.md).")
    p.add_argument("--results", default=None, metavar="FILE",
                   help="Append each game's row to FILE (.csv or .parquet) as it arrives; "
                        "a rerun with the same FILE resumes where it stopped.")
    p.add_argument("--no-progress", dest="progress", action="store_false",
                   help="No progress bar (it is shown only on a terminal anyway).")


def runner_kwargs(args: argparse.Namespace) -> dict[str, object]:
    """The keyword arguments of :func:`kop.experiments.runner.run_tasks` from the parsed flags."""
    return {"workers": args.workers, "dask": args.dask, "results": args.results, "progress": args.progress}


def register(cli: Commands) -> None:
    p = cli.add("experiment", _help, doc="""Run one of the papers' experiments (see docs/experiments.md).

    Subcommands: 'kop experiment NAME --help' shows each one's options.  All run
    their games in parallel (--workers N, or a Dask cluster with --dask ADDRESS),
    and --results FILE makes a run resumable.""")
    sub = p.add_subparsers(title="experiments", metavar="EXPERIMENT")
    group = Commands(sub)
    p.set_defaults(_group_parser=p)
    for name in EXPERIMENT_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:  # an experiment not built yet
            if exc.name != name:
                raise
            continue
        module.register(group)


def _help(args: argparse.Namespace) -> int:
    """Show the experiments."""
    args._group_parser.print_help()
    return 0
