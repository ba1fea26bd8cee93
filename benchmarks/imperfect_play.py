"""Benchmark of play from knowledge cells on Kuhn and Leduc poker (issue 27, item 4).

Prints, per game and per algorithm (mc, vm, gvm, both seats):

* moves per CPU second of ``kop.play_openspiel`` over --matches matches (seeds 0..M-1), with exact
  knowledge cells (the game's histories enumerated once, cached) and with sampled cells
  (OpenSpiel's ``resample_from_infostate``, --samples draws per move, each checked);
* the first move's cost alone (CPU ms per decision, cell + possible-worlds game + algorithm);
* side by side, the peer: OpenSpiel's IS-MCTS bot (open_spiel.python.algorithms.ismcts, 100
  simulations per move, random rollouts), which samples worlds with the same resampling, in moves
  per CPU second on the same matches, and the ratio kop / IS-MCTS.

CPU time is time.process_time (the machine is shared).  The first index build of a game is timed
apart ("index").

Usage: python benchmarks/imperfect_play.py [--quick] [--matches M] [--samples S]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import kop
from kop.worlds.infostates import history_index, openspiel_game


def moves_per_second(game: str, algorithm: str, matches: int, cells: str, samples: int) -> tuple[float, int]:
    n = 0
    t0 = time.process_time()
    for seed in range(matches):
        r = kop.play_openspiel(game, (algorithm, algorithm), seed=seed, cells=cells, samples=samples)
        n += sum(1 for e in r.log if e.kind == "move")
    return n / max(time.process_time() - t0, 1e-9), n


def ismcts_moves_per_second(game: str, matches: int, sims: int) -> float:
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    g = pyspiel.load_game(game)
    n = 0
    t0 = time.process_time()
    for seed in range(matches):
        rs = np.random.RandomState(seed)
        bot = ismcts.ISMCTSBot(g, mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0, max_simulations=sims,
                               random_state=rs)
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                acts, probs = zip(*s.chance_outcomes())
                s.apply_action(int(rs.choice(acts, p=probs)))
            else:
                s.apply_action(bot.step(s))
                n += 1
    return n / max(time.process_time() - t0, 1e-9)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="2 matches per row, Kuhn poker and Leduc poker")
    ap.add_argument("--matches", type=int, default=20, help="matches per row (default 20)")
    ap.add_argument("--samples", type=int, default=64, help="draws per sampled cell (default 64)")
    ap.add_argument("--sims", type=int, default=100, help="IS-MCTS simulations per move (default 100)")
    args = ap.parse_args()
    if args.quick:
        args.matches = 2
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("imperfect_play benchmark skipped: it plays OpenSpiel's Kuhn and Leduc poker and open_spiel "
              "(pyspiel) is not installed (pip install open_spiel)")
        return
    for game in ("kuhn_poker", "leduc_poker"):
        t0 = time.process_time()
        idx = history_index(openspiel_game(game))
        print(f"{game}: index of {idx.histories} histories, {len(idx.cells)} cells built in "
              f"{time.process_time() - t0:.2f} s CPU")
        kop.play_openspiel(game, ("gvm", "gvm"), seed=0)     # warm-up: imports, first calls
        peer = ismcts_moves_per_second(game, args.matches, args.sims)
        print(f"  peer: OpenSpiel IS-MCTS ({args.sims} simulations/move): {peer:,.0f} moves/s CPU")
        print(f"  {'algorithm':<10}{'cells':<9}{'moves':>7}{'moves/s CPU':>14}{'ms/move':>10}{'vs IS-MCTS':>12}")
        for algorithm in ("mc", "vm", "gvm"):
            for cells in ("exact", "sampled"):
                rate, n = moves_per_second(game, algorithm, args.matches, cells, args.samples)
                print(f"  {algorithm:<10}{cells:<9}{n:>7}{rate:>14,.1f}{1000 / rate:>10.1f}{rate / peer:>11.2f}x")


if __name__ == "__main__":
    main()
