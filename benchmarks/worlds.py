"""Benchmark of the possible-worlds algorithms and of the experiment runner.

Prints:

* CPU time (time.process_time, best of --repeat) of one decision plan for MAX by MC, vm, prm
  and gvm on random binary games of depth D = 4, 8 with N = 100, 1000 worlds (gvm with
  card-game-like partitions: Ω_MAX and Ω_MIN each with ~sqrt(N) classes).  Goal: vm and MC
  well under a second at D = 8, N = 1000;
* a ratio against a baseline in the same process: MC's per-world minimax values, vectorized
  over the worlds, against N separate kop.minimax solves of the world trees;
* the runner's speedup with 2 worker processes against 1 (wall clock, Jamroga Fig. 4 games,
  D = 8, N = 1000, about 0.05 s of CPU each, so the pool's start-up does not dominate): on a
  shared machine expect less than 2.

Usage: python benchmarks/worlds.py [--quick] [--repeat N]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import kop
from kop.experiments.jamroga import figure_tasks, play_game
from kop.experiments.runner import run_tasks
from kop.worlds.mc import minimax_values


def cpu_best(repeat, fn):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer runner games")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    print("one plan for MAX, CPU seconds (best of %d)" % args.repeat)
    print(f"{'D':>3}{'N':>6}{'MC':>10}{'vm':>10}{'prm':>10}{'gvm':>10}")
    for depth in (4, 8):
        for n in (100, 1000):
            g = kop.random_worlds_game(depth, n, seed=depth * n)
            k = int(np.sqrt(n))
            rng = np.random.default_rng(n)
            gb = g.with_beliefs(kop.Beliefs.partition(rng.integers(0, k, n)),
                                kop.Beliefs.partition(rng.integers(0, k, n)), adequate=True)
            times = [cpu_best(args.repeat, lambda: kop.mc(g)), cpu_best(args.repeat, lambda: kop.vm(g)),
                     cpu_best(args.repeat, lambda: kop.prm(g)), cpu_best(args.repeat, lambda: kop.gvm(gb))]
            print(f"{depth:>3}{n:>6}" + "".join(f"{t:>10.4f}" for t in times))

    g = kop.random_worlds_game(8, 100, seed=7)
    fast = cpu_best(args.repeat, lambda: minimax_values(g))
    slow = cpu_best(1, lambda: [kop.minimax(g.world_tree(w), "MAX").value for w in range(g.n_worlds)])
    print(f"\nper-world minimax values, D=8, N=100: vectorized {fast:.4f} s, "
          f"100 kop.minimax solves {slow:.4f} s, ratio {slow / fast:.0f}x")

    per_table = 10 if args.quick else 100
    tasks = figure_tasks(4, games=per_table, seed=1)
    games = len(tasks)
    walls = {}
    for workers in (1, 2):
        t0 = time.perf_counter()
        rows = run_tasks(play_game, tasks, workers=workers, progress=False)
        walls[workers] = time.perf_counter() - t0
        assert len(rows) == games
    print(f"\nrunner, {games} Fig. 4 games: 1 worker {walls[1]:.2f} s, 2 workers {walls[2]:.2f} s (wall), "
          f"speedup {walls[1] / walls[2]:.2f}x")


if __name__ == "__main__":
    main()
