"""``kop experiment NAME ...``: the papers' experiments, on the shared experiment runner.

Each experiment is a sub-command of ``kop experiment`` with its own options; the runner
options (``--workers``, ``--dask``, ``--results``, ``--no-progress``) are common to all.

Experiments: ``bodkin-nplayer`` (here) and ``jamroga`` (:mod:`kop.cli.experiment_jamroga`,
added through the :class:`~kop.cli.app.Commands` API on the group's sub-parsers).  A new
experiment module defines ``register(group)`` and uses
:func:`~kop.cli.experiment_options.add_runner_options` and
:func:`~kop.cli.experiment_options.runner_kwargs`.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

from kop.cli.app import Commands, print_json
from kop.cli.experiment_jamroga import register as register_jamroga
from kop.cli.experiment_options import add_runner_options, inherit_json, runner_kwargs
from kop.errors import KopError


def _eta(text: str) -> float:
    if text.strip().lower() in ("inf", "infinity", "∞"):
        return math.inf
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number >= 1 or inf, got {text!r}") from None


def register(cli: Commands) -> None:
    p = cli.add("experiment", _no_experiment, json_help="Print the results as one line of JSON.")
    sub = p.add_subparsers(title="experiments", metavar="NAME")

    group = Commands(sub)
    q = group.add("bodkin-nplayer", _bodkin, json_help="Print the results as one line of JSON.")
    q.add_argument("--N", dest="n_players", type=int, default=3, metavar="N", help="Players (default 3).")
    q.add_argument("--b", dest="branching", type=int, default=2, metavar="B", help="Branching factor (default 2).")
    q.add_argument("--depth", type=int, default=None, metavar="D",
                   help="Depth (default: the thesis's deepest for B: 14, 9, 5 for b = 2, 3, 6; 11, 7, 4 with N = 2).")
    q.add_argument("--m", type=float, default=1.0, metavar="M", help="Lower bound on the payoff sum (default 1).")
    q.add_argument("--eta", type=_eta, default=1.0, metavar="ETA",
                   help="Ordering: 1 sorted (default), 2 or 4 semi-ordered, inf random.")
    q.add_argument("--trees", type=int, default=200, metavar="T", help="Random trees (default 200).")
    q.add_argument("--seed", type=int, default=0, metavar="S", help="Seed (default 0).")
    q.add_argument("--leaves", choices=("uniform", "normalized", "thesis"), default=None,
                   metavar="uniform|normalized|thesis",
                   help="Leaf distribution: uniform on U_m (default for one cell, as the thesis states), "
                        "normalized (a uniform cube point scaled to the sum) or thesis (the reproduction "
                        "preset, default with --figure: normalized for N >= 3, uniform for N = 2).")
    q.add_argument("--figure", default=None, metavar="FIG",
                   help="Run every column of a thesis figure (4-3..4-6, 4-8..4-10, 4-24..4-26) at its deepest "
                        "depth instead of one cell.")
    add_runner_options(q)
    inherit_json(q)
    register_jamroga(group)


def _no_experiment(args: argparse.Namespace) -> int:
    """Run one of the papers' experiments (kop experiment NAME --help)."""
    raise KopError("name an experiment: kop experiment bodkin-nplayer|jamroga [...] (see kop experiment --help)")


def _bodkin(args: argparse.Namespace) -> None:
    """Bodkin's N-player random trees (thesis §4.6): leaves examined by BnB, Lower-Eval and Bimodal-Unimodal.

    Generates uniform trees (branching B, depth D, player to move at level n is
    n mod N) with leaves uniform on {x in [0,1]^N : m <= sum x <= 1}, ordered by
    ETA, and prints log_b of the mean number of leaves examined by Branch-and-Bound,
    Lower-Eval and Bimodal-Unimodal (and naive max^n) beside the thesis's figure for
    the same cell, with the difference and the time.  Every search's value is
    checked against max^n.

      kop experiment bodkin-nplayer --N 3 --b 2 --depth 14 --m 1 --eta 1 --trees 200
      kop experiment bodkin-nplayer --figure 4-4 --json

    --leaves thesis (the default with --figure) draws the leaves as the thesis's
    program evidently did: normalized cube points for N >= 3, uniform for N = 2.
    """
    from kop.experiments.bodkin import DEEPEST, DEEPEST_2P, FIGURES, Cell, format_cell, run_cell
    from kop.experiments.runner import ExperimentError

    leaves = args.leaves or ("thesis" if args.figure is not None else "uniform")
    common: dict[str, Any] = {"trees": args.trees, "seed": args.seed, "leaves": leaves}
    cells: list[Cell] = []
    if args.figure is not None:
        fig = args.figure.removeprefix("Fig.").removeprefix("fig").strip().lstrip(".").strip()
        if fig not in FIGURES:
            raise ExperimentError(f"--figure {args.figure!r}: kop reproduces {', '.join(FIGURES)}")
        m, eta = FIGURES[fig]
        if eta is None:
            cells = [Cell(2, b, DEEPEST_2P[b], m, e, **common) for b in (2, 3, 6) for e in (1.0, math.inf)]
        else:
            cells = [Cell(n, b, DEEPEST[b], m, eta, **common) for n in (3, 4) for b in (2, 3, 6)]
    else:
        deepest = DEEPEST_2P if args.n_players == 2 else DEEPEST
        depth = args.depth if args.depth is not None else deepest.get(args.branching, 6)
        cells = [Cell(args.n_players, args.branching, depth, args.m, args.eta, **common)]
    outs = [run_cell(c, workers=args.workers, dask=args.dask, results=args.results,
                     progress=not args.no_progress and not args.json) for c in cells]
    if args.json:
        if len(outs) == 1:
            o = outs[0]
            print_json({**o["algorithms"], "config": o["config"], "figure": o["figure"], "time": o["time"]})
        else:
            print_json({"figure": outs[0]["figure"],
                        "cells": [{**o["algorithms"], "config": o["config"], "time": o["time"]} for o in outs]})
        return
    print("\n\n".join(format_cell(o) for o in outs))
