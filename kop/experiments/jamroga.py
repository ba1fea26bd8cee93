"""Jamroga's competitions (Figs. 4, 5 and 8 of *A Defense Model for Games with Incomplete
Information*, KI 2001), reproduced on the experiment runner.

Each figure has one or two tables; each table plays G random games, each game
once per pair of algorithms with the roles swapped (:func:`kop.worlds.competition.play_round`),
half of the games with MAX moving first and half with MIN.  A row reports A's
triumph supremacy (rounds won minus rounds lost, in percent of the rounds) and
payoff supremacy (per 1000 rounds) beside the paper's.

* Fig. 4: random binary games, both players know only Ω; D = 8 (MC, vm, prm)
  and D = 4 (against opt-bd), N = 1000, 2000 games per table;
* Fig. 5: the same, each player with his own random belief set (the payoff
  averaged over Ω_MAX ∩ Ω_MIN), 20000 games per table;
* Fig. 8: the imaginary card game n = 7, c = 3 (D = 4, N = 140), gvm against
  the others and the others among themselves, 1000 games.

``small=True`` shrinks the games (fewer worlds, and D = 6 instead of 8) so a
figure runs in well under a minute; see ``docs/reproduction.md`` for both.

>>> tasks = figure_tasks(4, games=2, seed=1, small=True)
>>> len(tasks), tasks[0]["table"], tasks[0]["first"], tasks[1]["first"]
(4, 'left', 'MAX', 'MIN')
>>> row = play_game(tasks[0])
>>> sorted(k for k in row if " vs " in k)
['MC vs prm', 'MC vs vm', 'vm vs prm']
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np

from kop.experiments.runner import ExperimentError, run_tasks
from kop.worlds.competition import play_round, supremacy
from kop.worlds.generators import card_game, random_belief_sets, random_game

__all__ = ["PAPER", "TABLES", "figure_tasks", "play_game", "summarize", "run_figure", "Table"]

#: the paper's figures: (a, b) -> (triumph supremacy in %, payoff supremacy per 1000 rounds)
PAPER: dict[int, dict[tuple[str, str], tuple[float, float]]] = {
    4: {("MC", "vm"): (3.4, 0.2), ("MC", "prm"): (39.1, 9.2), ("vm", "prm"): (33.9, 8.0),
        ("MC", "opt-bd"): (36.3, 7.1), ("vm", "opt-bd"): (38.4, 8.1), ("prm", "opt-bd"): (19.1, 4.2)},
    5: {("MC", "vm"): (2.1, 2.1), ("MC", "prm"): (21.7, 17.7), ("vm", "prm"): (21.7, 14.1),
        ("MC", "opt-bd"): (18.8, 12.1), ("vm", "opt-bd"): (20.4, 13.0), ("prm", "opt-bd"): (10.6, 7.0)},
    8: {("gvm", "MC"): (99.8, 94.9), ("gvm", "prm"): (98.1, 76.0), ("gvm", "vm"): (99.8, 90.5),
        ("gvm", "opt-bd"): (98.9, 83.8), ("MC", "vm"): (2.7, 1.1), ("MC", "prm"): (13.6, 5.2),
        ("vm", "prm"): (34.8, 12.9), ("MC", "opt-bd"): (77.2, 38.3), ("vm", "opt-bd"): (85.9, 46.6),
        ("prm", "opt-bd"): (80.8, 30.6)},
}


@dataclass(frozen=True)
class Table:
    """One table of a figure: the games it plays and the pairs it compares."""

    name: str
    kind: str  # "random" (binary trees of §2.1) or "cards" (the card game of §3.3)
    setting: str  # "common", "sets" or "worlds" (see kop.worlds.competition)
    depth: int  # D (random) or n (cards)
    worlds: int  # N (random) or c (cards)
    games: int
    pairs: tuple[tuple[str, str], ...]


_LEFT = (("MC", "vm"), ("MC", "prm"), ("vm", "prm"))
_RIGHT = (("MC", "opt-bd"), ("vm", "opt-bd"), ("prm", "opt-bd"))

#: (figure, small) -> the tables
TABLES: dict[tuple[int, bool], tuple[Table, ...]] = {
    (4, False): (Table("left", "random", "common", 8, 1000, 2000, _LEFT),
                 Table("right", "random", "common", 4, 1000, 2000, _RIGHT)),
    (5, False): (Table("left", "random", "sets", 8, 1000, 20000, _LEFT),
                 Table("right", "random", "sets", 4, 1000, 20000, _RIGHT)),
    (8, False): (Table("cards", "cards", "worlds", 7, 3, 1000, tuple(PAPER[8])),),
    (4, True): (Table("left", "random", "common", 6, 300, 400, _LEFT),
                Table("right", "random", "common", 4, 300, 400, _RIGHT)),
    (5, True): (Table("left", "random", "sets", 6, 300, 400, _LEFT),
                Table("right", "random", "sets", 4, 300, 400, _RIGHT)),
    (8, True): (Table("cards", "cards", "worlds", 7, 3, 200, tuple(PAPER[8])),),
}


def _tables(fig: int, small: bool) -> tuple[Table, ...]:
    if fig not in PAPER:
        raise ExperimentError(f"Jamroga's competitions are Figs. 4, 5 and 8, not {fig!r}")
    return TABLES[(fig, small)]


def _game_seed(seed: int, fig: int, table: int, game: int) -> int:
    words = np.random.SeedSequence([int(seed) & (2**63 - 1), fig, table, game]).generate_state(2, np.uint32)
    return (int(words[0]) << 31) ^ int(words[1])


def figure_tasks(fig: int, games: int | None = None, seed: int = 0, small: bool = False) -> list[dict[str, Any]]:
    """The runner's tasks for a figure: one per game, each with its own seed."""
    if games is not None and (not isinstance(games, int) or games < 1):
        raise ExperimentError(f"--games must be a positive integer, got {games!r}")
    tasks = []
    for t, table in enumerate(_tables(fig, small)):
        for i in range(games or table.games):
            s = _game_seed(seed, fig, t, i)
            tasks.append({"key": f"fig{fig}-{table.name}-D{table.depth}-N{table.worlds}-g{i}-s{s}",
                          "fig": fig, "table": table.name, "kind": table.kind, "setting": table.setting,
                          "depth": table.depth, "worlds": table.worlds, "first": "MAX" if i % 2 == 0 else "MIN",
                          "seed": s, "pairs": [list(p) for p in table.pairs]})
    return tasks


def play_game(task: dict[str, Any]) -> dict[str, Any]:
    """Play one task's game for every pair: ``{"table": ..., "a vs b": difference, ...}``.

    The difference is MAX's expected payoff with a as MAX and b as MIN, minus
    that with b as MAX and a as MIN.
    """
    rng = np.random.default_rng(task["seed"])
    kw: dict[str, Any] = {}
    if task["kind"] == "cards":
        game = card_game(task["depth"], task["worlds"], seed=rng, first=task["first"])
    else:
        game = random_game(task["depth"], task["worlds"], seed=rng, first=task["first"])
        if task["setting"] == "sets":
            _, kw["max_set"], kw["min_set"] = random_belief_sets(task["worlds"], seed=rng)
    row: dict[str, Any] = {"table": task["table"], "first": task["first"]}
    cache: dict[tuple[str, str], np.ndarray] = {}
    for a, b in task["pairs"]:
        x, y = play_round(game, a, b, task["setting"], cache=cache, **kw)
        row[f"{a} vs {b}"] = x - y
    return row


def summarize(fig: int, rows: list[dict[str, Any]], small: bool = False) -> list[dict[str, Any]]:
    """The figure's rows: a, b, kop's triumph and payoff supremacy, and the paper's."""
    out = []
    for table in _tables(fig, small):
        mine = [r for r in rows if r.get("table") == table.name]
        for a, b in table.pairs:
            diffs = [r[f"{a} vs {b}"] for r in mine if f"{a} vs {b}" in r]
            if not diffs:
                continue
            triumph, payoff = supremacy(diffs)
            pt, pp = PAPER[fig][(a, b)]
            out.append({"a": a, "b": b, "triumph": round(triumph, 1), "payoff": round(payoff, 1),
                        "paper": {"triumph": pt, "payoff": pp}})
    return out


def _describe(t: Table, games: int | None) -> dict[str, Any]:
    d: dict[str, Any] = {"table": t.name, "setting": t.setting}
    if t.kind == "cards":
        d.update(game="card game", n=t.depth, c=t.worlds, depth=2 * (t.worlds - 1),
                 worlds=comb(t.depth, t.worlds) * comb(t.depth - t.worlds, t.worlds))
    else:
        d.update(game="random binary tree", depth=t.depth, worlds=t.worlds)
    d.update(games=games or t.games, pairs=[list(p) for p in t.pairs])
    return d


def run_figure(fig: int, games: int | None = None, seed: int = 0, small: bool = False, workers: int | None = None,
               dask: Any = None, results: Any = None, progress: bool = True) -> dict[str, Any]:
    """Run a figure on the runner; the ``--json`` document of ``kop experiment jamroga``."""
    tasks = figure_tasks(fig, games, seed, small)
    rows = run_tasks(play_game, tasks, workers=workers, dask=dask, results=results, progress=progress,
                     desc=f"Jamroga Fig. {fig}")
    tables = [_describe(t, games) for t in _tables(fig, small)]
    settings = {"seed": seed, "small": small, "tables": tables}
    return {"figure": fig, "settings": settings, "rows": summarize(fig, rows, small)}
