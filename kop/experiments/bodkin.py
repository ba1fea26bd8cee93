"""Bodkin's N-player random-tree experiments (thesis §4.6, Figs. 4-3 to 4-10 and 4-24 to 4-26).

One *cell* is a configuration (N players, branching b, depth d, sum bound m, ordering eta)
searched on ``trees`` random trees by Branch-and-Bound, Lower-Eval and Bimodal-Unimodal;
the figure is log_b of the mean number of leaves examined (naive max^n examines all b^d).
The trees of a cell are split into tasks of :data:`CHUNK` trees, each with its own seed
(:func:`kop.experiments.runner.spawn_seeds`), and run by
:func:`kop.experiments.runner.run_tasks`: locally in parallel, on a Dask cluster, resumable.
Every search's value is checked against the max^n value of the same tree.

The thesis's figures at the deepest depths are in :data:`THESIS`.  ``leaves="thesis"`` is the
reproduction preset: the leaf distribution that reproduces the thesis's figures, normalized
cube points for N >= 3 (Figs. 4-3 to 4-10) and uniform points of U_m for N = 2 (Figs. 4-24
to 4-26); see :func:`leaf_distribution`.

Example
-------
>>> from kop.experiments.bodkin import Cell, run_cell
>>> out = run_cell(Cell(n_players=3, branching=2, depth=6, m=1, eta=1, trees=20, seed=1),
...                workers=1, progress=False)
>>> sorted(out["algorithms"])
['bimodal_unimodal', 'bnb', 'lower_eval', 'naive']
>>> out["algorithms"]["naive"]["log_b_leaves"]
6.0
>>> out["algorithms"]["bimodal_unimodal"]["log_b_leaves"] < out["algorithms"]["bnb"]["log_b_leaves"] < 6
True
"""

from __future__ import annotations

import gc
import math
import time
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from kop.experiments.runner import ExperimentError, checkpoint, run_tasks, spawn_seeds
from kop.games.nplayer.bimodal import bimodal_flat
from kop.games.nplayer.bnb import bnb_flat
from kop.games.nplayer.bounds import PayoffBounds
from kop.games.trees.lists import TreeLists
from kop.games.nplayer.lower_eval import lower_eval_flat
from kop.games.nplayer.random_trees import LEAF_DISTRIBUTIONS, bodkin_arrays

__all__ = ["Cell", "run_cell", "thesis_figure", "FIGURES", "THESIS", "ALGORITHMS", "cell_task", "CHUNK",
           "LEAVES", "leaf_distribution"]

#: the --leaves choices: the two distributions and the reproduction preset
LEAVES = (*LEAF_DISTRIBUTIONS, "thesis")


def leaf_distribution(leaves: str, n_players: int) -> str:
    """The distribution *leaves* names for *n_players*: "thesis" is normalized for N >= 3, else uniform.

    With normalized leaves kop's figures for N = 3, 4 come within 0.05 of the thesis's, and uniform
    ones fall up to 0.25 below; with N = 2 the uniform leaves come within 0.05 and normalized
    ones are up to 0.15 above (docs/reproduction.md).

    >>> leaf_distribution("thesis", 3), leaf_distribution("thesis", 2), leaf_distribution("uniform", 4)
    ('normalized', 'uniform', 'uniform')
    """
    if leaves == "thesis":
        return "normalized" if n_players >= 3 else "uniform"
    return leaves

#: trees per runner task
CHUNK = 25
#: the reported algorithms, in order
ALGORITHMS = ("bnb", "lower_eval", "bimodal_unimodal", "naive")
#: the deepest depth the thesis reports for each branching factor: N >= 3, and N = 2
DEEPEST = {2: 14, 3: 9, 6: 5}
DEEPEST_2P = {2: 11, 3: 7, 6: 4}

#: figure -> (m, eta) for N = 3, 4 (Figs. 4-3..4-10) and (m, None) for N = 2 (Figs. 4-24..4-26)
FIGURES: dict[str, tuple[float, float | None]] = {
    "4-3": (1, 1), "4-4": (1, math.inf), "4-5": (1, 2), "4-6": (1, 4),
    "4-8": (0, math.inf), "4-9": (0, 2), "4-10": (0, 4),
    "4-24": (0.98, None), "4-25": (0.8, None), "4-26": (0, None),
}

# The thesis's log_b mean leaves at the deepest depth: (BnB, Lower-Eval, Bimodal-Unimodal).
# N = 3, 4: key (figure, N, b).  N = 2: key (figure, eta, b).
THESIS: dict[tuple[str, float, int], tuple[float, float, float]] = {}


def _table(fig: str, rows: str) -> None:
    cols = [(3, 2), (3, 3), (3, 6), (4, 2), (4, 3), (4, 6)]
    for (n, b), cell in zip(cols, rows.split()):
        THESIS[(fig, n, b)] = tuple(float(x) for x in cell.split("/"))  # type: ignore[assignment]


_table("4-3", "13.83/12.67/12.65 8.82/7.76/7.74 4.76/4.12/4.12 13.99/13.37/13.37 8.98/8.31/8.31 4.97/4.46/4.46")
_table("4-4", "13.95/13.60/13.59 8.95/8.66/8.62 4.93/4.81/4.75 14.00/13.84/13.88 9.00/8.91/8.86 4.99/4.96/4.88")
_table("4-5", "13.87/13.14/13.13 8.85/8.20/8.17 4.80/4.38/4.35 13.99/13.57/13.62 8.99/8.52/8.54 4.97/4.60/4.59")
_table("4-6", "13.90/13.32/13.31 8.88/8.38/8.34 4.84/4.52/4.47 13.99/13.67/13.72 8.99/8.66/8.66 4.98/4.71/4.68")
_table("4-8", "13.99/13.77/13.77 8.99/8.85/8.79 4.98/4.93/4.86 14.00/13.91/13.93 9.00/8.97/8.92 5.00/5.01/4.94")
_table("4-9", "13.97/13.45/13.45 8.96/8.48/8.44 4.94/4.59/4.55 14.00/13.72/13.75 9.00/8.68/8.68 4.99/4.71/4.69")
_table("4-10", "13.97/13.59/13.59 8.97/8.64/8.59 4.95/4.72/4.66 14.00/13.79/13.83 9.00/8.80/8.78 4.99/4.82/4.77")


def _table2(fig: str, bnb: str, lower: str, bim: str) -> None:
    for i, b in enumerate((2, 3, 6)):
        trip = [s.split(";")[i].split("/") for s in (bnb, lower, bim)]
        for k, eta in enumerate((1.0, math.inf)):
            THESIS[(fig, eta, b)] = tuple(float(t[k]) for t in trip)  # type: ignore[assignment]


_table2("4-24", "8.04/10.01;4.81/6.22;2.62/3.49", "8.04/10.01;4.81/6.22;2.62/3.49",
        "7.03/9.37;4.44/5.93;2.46/3.41")
_table2("4-25", "8.93/10.33;5.44/6.48;3.04/3.65", "8.92/10.29;5.44/6.48;3.03/3.68",
        "8.69/10.21;5.30/6.44;2.95/3.66")
_table2("4-26", "9.41/10.51;5.77/6.59;3.19/3.73", "9.39/10.46;5.76/6.62;3.18/3.77",
        "9.24/10.41;5.65/6.60;3.12/3.76")


@dataclass(frozen=True)
class Cell:
    """One configuration of the experiment (see the module docstring)."""

    n_players: int = 3
    branching: int = 2
    depth: int = 14
    m: float = 1.0
    eta: float = 1.0
    trees: int = 200
    seed: int = 0
    leaves: str = "uniform"

    def __post_init__(self) -> None:
        if self.n_players < 2:
            raise ExperimentError(f"--N must be >= 2, got {self.n_players}")
        if self.branching < 2:
            raise ExperimentError(f"--b must be >= 2, got {self.branching}")
        if not 1 <= self.depth:
            raise ExperimentError(f"--depth must be >= 1, got {self.depth}")
        if self.branching ** self.depth > 2_000_000:
            raise ExperimentError(f"b^depth = {self.branching}^{self.depth} leaves per tree is above "
                                  "the limit 2,000,000")
        if not 0 <= self.m <= 1:
            raise ExperimentError(f"--m must be in [0, 1], got {self.m}")
        if not self.eta >= 1:
            raise ExperimentError(f"--eta must be >= 1 (1 sorted, inf random), got {self.eta}")
        if self.trees < 1:
            raise ExperimentError(f"--trees must be >= 1, got {self.trees}")
        if self.leaves not in LEAVES:
            raise ExperimentError(f"--leaves must be one of {', '.join(LEAVES)}, got {self.leaves!r}")

    @property
    def name(self) -> str:
        eta = "inf" if self.eta == math.inf else f"{self.eta:g}"
        return (f"N{self.n_players}-b{self.branching}-d{self.depth}-m{self.m:g}-eta{eta}"
                f"-{self.leaves}")


def thesis_figure(cell: Cell) -> tuple[str | None, tuple[float, float, float] | None]:
    """(figure, (BnB, Lower-Eval, Bimodal-Unimodal)) of the thesis for *cell*, or (None, None)."""
    for fig, (m, eta) in FIGURES.items():
        if not math.isclose(m, cell.m):
            continue
        if eta is None:
            if cell.n_players == 2 and cell.depth == DEEPEST_2P.get(cell.branching):
                vals = THESIS.get((fig, cell.eta, cell.branching))
                if vals is not None:
                    return fig, vals
        elif eta == cell.eta and cell.n_players in (3, 4) and cell.depth == DEEPEST.get(cell.branching):
            return fig, THESIS[(fig, cell.n_players, cell.branching)]
    return None, None


def cell_task(task: dict[str, Any]) -> dict[str, Any]:
    """Run one chunk of trees of a cell: summed leaves per algorithm and CPU seconds (a flat row)."""
    N, b, d = int(task["n_players"]), int(task["branching"]), int(task["depth"])
    m, eta = float(task["m"]), float(task["eta"])
    rng = np.random.default_rng(int(task["seed"]))
    bounds = PayoffBounds.uniform(N, low=0.0, high=1.0, m=m, M=1.0)
    row: dict[str, Any] = {"trees": int(task["count"]), "bnb": 0, "lower_eval": 0, "bimodal_unimodal": 0,
                           "gen_seconds": 0.0, "bnb_seconds": 0.0, "lower_eval_seconds": 0.0,
                           "bimodal_unimodal_seconds": 0.0}
    searches = (("bnb", bnb_flat), ("lower_eval", lower_eval_flat), ("bimodal_unimodal", bimodal_flat))
    enabled = gc.isenabled()
    gc.disable()  # the trees are acyclic lists of tuples: the collector only costs time here
    try:
        _run_trees(task, N, b, d, m, eta, rng, bounds, row, searches)
    finally:
        if enabled:
            gc.enable()
    return row


def _run_trees(task: dict[str, Any], N: int, b: int, d: int, m: float, eta: float, rng: np.random.Generator,
               bounds: PayoffBounds, row: dict[str, Any], searches: Any) -> None:
    for _ in range(int(task["count"])):
        t0 = time.process_time()
        leaves, value = bodkin_arrays(N, b, d, m, eta, rng, leaves=str(task.get("leaves", "uniform")))
        flat = TreeLists.uniform(N, b, d, leaves)
        row["gen_seconds"] += time.process_time() - t0
        for name, fn in searches:
            t0 = time.process_time()
            got, count, _ = fn(flat, bounds)
            row[f"{name}_seconds"] += time.process_time() - t0
            if got != tuple(value.tolist()):
                raise AssertionError(f"{name} returned {got}, max^n is {tuple(value)} (task {task['key']})")
            row[name] += count
        checkpoint()  # one tree done: the progress bar counts trees, and a stopped run stops here


def _tree_count(task: dict[str, Any]) -> int:
    return int(task["count"])


def cell_tasks(cell: Cell) -> list[dict[str, Any]]:
    """The runner tasks of *cell*: chunks of :data:`CHUNK` trees, each with its own seed."""
    n_chunks = -(-cell.trees // CHUNK)
    seeds = spawn_seeds(cell.seed, n_chunks)
    tasks = []
    for k in range(n_chunks):
        count = min(CHUNK, cell.trees - k * CHUNK)
        # a short last chunk names its size: a rerun with more trees must not take it for a full one
        size = "" if count == CHUNK else f"-of{count}"
        tasks.append({"key": f"bodkin-nplayer/{cell.name}/seed{cell.seed}/chunk{k}{size}", "n_players": cell.n_players,
                      "branching": cell.branching, "depth": cell.depth, "m": cell.m,
                      "eta": "inf" if cell.eta == math.inf else cell.eta,
                      "leaves": leaf_distribution(cell.leaves, cell.n_players),
                      "count": count, "seed": seeds[k]})
    return tasks


def run_cell(cell: Cell, *, workers: int | None = None, dask: Any = None, results: str | None = None,
             progress: bool = True) -> dict[str, Any]:
    """Run *cell*; per algorithm its ``log_b_leaves``, ``thesis`` figure and difference, and timings."""
    t0, c0 = time.perf_counter(), time.process_time()
    rows = run_tasks(cell_task, cell_tasks(cell), workers=workers, dask=dask, results=results,
                     progress=progress, desc=f"bodkin-nplayer {cell.name}", weight=_tree_count, unit="trees")
    wall = time.perf_counter() - t0
    fig, thesis = thesis_figure(cell)
    b = cell.branching
    trees = sum(int(r["trees"]) for r in rows)
    algos: dict[str, dict[str, Any]] = {}
    for k, name in enumerate(ALGORITHMS):
        if name == "naive":
            mean = float(b ** cell.depth)
            ref: float | None = float(cell.depth) if thesis is not None else None
            secs = None
        else:
            mean = sum(float(r[name]) for r in rows) / trees
            ref = thesis[k] if thesis is not None else None
            secs = sum(float(r[f"{name}_seconds"]) for r in rows)
        lb = round(math.log(mean, b), 4)
        algos[name] = {"log_b_leaves": lb, "thesis": ref,
                       "difference": None if ref is None else round(lb - ref, 4),
                       "mean_leaves": mean, "cpu_seconds": secs}
    search = sum(float(r[f"{a}_seconds"]) for r in rows for a in ALGORITHMS[:3])
    gen = sum(float(r["gen_seconds"]) for r in rows)
    return {"experiment": "bodkin-nplayer", "config": {**asdict(cell), "eta": _eta_text(cell.eta)},
            "figure": fig, "algorithms": algos,
            "time": {"cpu_seconds": round(search + gen, 3), "search_cpu_seconds": round(search, 3),
                     "generate_cpu_seconds": round(gen, 3), "wall_seconds": round(wall, 3),
                     "this_process_cpu_seconds": round(time.process_time() - c0, 3)}}


def _eta_text(eta: float) -> float | str:
    return "inf" if eta == math.inf else eta


def format_cell(out: dict[str, Any]) -> str:
    """The text table of one cell, with the thesis's figure and the time."""
    c = out["config"]
    head = (f"bodkin-nplayer  N={c['n_players']} b={c['branching']} depth={c['depth']} m={c['m']:g} "
            f"eta={c['eta']} trees={c['trees']} seed={c['seed']} leaves={c['leaves']}"
            + (f"  (thesis Fig. {out['figure']})" if out["figure"] else "  (no thesis figure for this cell)"))
    lines = [head, f"{'algorithm':<18}{'log_b leaves':>13}{'thesis':>9}{'diff':>8}{'mean leaves':>14}"]
    for name, a in out["algorithms"].items():
        th = "" if a["thesis"] is None else f"{a['thesis']:.2f}"
        df = "" if a["difference"] is None else f"{a['difference']:+.2f}"
        lines.append(f"{name:<18}{a['log_b_leaves']:>13.2f}{th:>9}{df:>8}{a['mean_leaves']:>14.1f}")
    t = out["time"]
    lines.append(f"time: {t['cpu_seconds']:.1f} s CPU (search {t['search_cpu_seconds']:.1f} s, trees "
                 f"{t['generate_cpu_seconds']:.1f} s), {t['wall_seconds']:.1f} s wall")
    return "\n".join(lines)
