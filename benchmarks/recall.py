"""Recall benchmark (issue 27): kop.perfect_recall against pygambit's is_perfect_recall, paired.

Prints CPU time (time.process_time, the least of a few runs: the machine may be shared):

* per game, kop and pygambit on the same ``.efg`` text, in turn: reading (``kop.loads_game`` /
  ``pygambit.read_efg``) and the recall check (``kop.perfect_recall`` / ``Game.is_perfect_recall``,
  on a freshly read game, since pygambit caches it), with the ratio kop / pygambit of each and
  whether both agree.  The games: random games with information sets of about 10^3, 10^4 and
  10^5 nodes (kop.games.imperfect.random_games), and Gambit's example files when
  ``KOP_GAMBIT_DIR`` points to a checkout of gambitproject/gambit (totals over all files);
* the goal figures: ``kop recall`` (load + report of every player, as the CLI does) on the
  10^5-node game, goal under 2 s; OpenSpiel's Leduc poker read, its game model built and a
  formula checked, goal under 5 s.

Run: ``python benchmarks/recall.py`` (``KOP_GAMBIT_DIR=/path/to/gambit python benchmarks/recall.py``);
``--quick``: small games, one run each, no Leduc (seconds; no measurement).
"""

from __future__ import annotations

import argparse
import io
import os
import time
from pathlib import Path

import kop
from kop.io.infogame import dumps_game
from kop.games.imperfect.random_games import random_info_game

REPEATS = 3


def cpu(fn, repeats: int | None = None):
    """(least CPU time over *repeats* runs (REPEATS by default), the last result)."""
    repeats = REPEATS if repeats is None else repeats
    best, out = float("inf"), None
    for _ in range(repeats):
        t = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t)
    return best, out


def paired(text: str, gbt, repeats: int | None = None) -> tuple[float, float, float, float, bool]:
    """(kop read, kop check, pygambit read, pygambit check, agree), kop and pygambit in turn."""
    repeats = REPEATS if repeats is None else repeats
    kr = kc = gr = gc = float("inf")
    ours = theirs = None
    for _ in range(repeats):
        t = time.process_time()
        g = kop.loads_game(text)
        t1 = time.process_time()
        ours = kop.perfect_recall(g)
        t2 = time.process_time()
        kr, kc = min(kr, t1 - t), min(kc, t2 - t1)
        t = time.process_time()
        pg = gbt.read_efg(io.StringIO(text))
        t1 = time.process_time()
        theirs = pg.is_perfect_recall
        t2 = time.process_time()
        gr, gc = min(gr, t1 - t), min(gc, t2 - t1)
    return kr, kc, gr, gc, ours == theirs


def main() -> None:
    global REPEATS
    ap = argparse.ArgumentParser(description="kop.perfect_recall against pygambit's is_perfect_recall (issue 27)")
    ap.add_argument("--quick", action="store_true",
                    help="small games (about 10^2 and 10^3 nodes), one run each, no Leduc (seconds; no measurement)")
    args = ap.parse_args()
    if args.quick:
        REPEATS = 1
    try:
        import pygambit as gbt
    except ImportError:
        gbt = None
        print("pygambit is not installed: kop's figures only")
    print(f"kop.perfect_recall vs pygambit is_perfect_recall, CPU seconds (least of {REPEATS}), same .efg text")
    print(f"{'game':<34}{'nodes':>8}{'kop read':>10}{'kop check':>11}{'gbt read':>10}{'gbt check':>11}"
          f"{'check ratio':>13}{'read+check ratio':>18}  agree")
    sizes = [(7, 100), (10, 1_000)] if args.quick else [(10, 1_000), (14, 10_000), (17, 100_000)]
    big_text = ""
    for depth, cap in sizes:
        g = random_info_game(depth=depth, branching=2, chance_prob=0.05, leaf_prob=0.0, max_nodes=cap,
                             forget=0.3, absent=0.01, seed=1)
        text = dumps_game(g, labels=False)
        big_text = text
        _report(f"random (depth {depth})", len(g), text, gbt)
        pr = random_info_game(depth=depth, branching=2, chance_prob=0.05, leaf_prob=0.0, max_nodes=cap,
                              forget=0.0, absent=0.0, seed=2)
        _report(f"random, perfect recall (depth {depth})", len(pr), dumps_game(pr, labels=False), gbt)
    root = os.environ.get("KOP_GAMBIT_DIR")
    if root and gbt is not None:
        files = sorted(p for d in ("catalog", "contrib/games", "tests/test_games", "doc")
                       for p in (Path(root) / d).rglob("*.efg"))
        tot = [0.0, 0.0, 0.0, 0.0]
        agree = 0
        for f in files:
            text = dumps_game(kop.load_game(f), labels=False)  # Gambit 17 refuses some files' labels
            kr, kc, gr, gc, ok = paired(text, gbt)
            tot = [a + b for a, b in zip(tot, (kr, kc, gr, gc))]
            agree += ok
        print(f"{f'Gambit files ({len(files)}, totals)':<34}{'':>8}{tot[0]:>10.4f}{tot[1]:>11.4f}{tot[2]:>10.4f}"
              f"{tot[3]:>11.4f}{tot[1] / tot[3]:>13.2f}{(tot[0] + tot[1]) / (tot[2] + tot[3]):>18.2f}  "
              f"{agree}/{len(files)}")
    print()
    path = Path(os.environ.get("TMPDIR", "/tmp")) / "kop_recall_bench.efg"
    path.write_text(big_text)
    t, g = cpu(lambda: kop.load_game(path))
    t2, _ = cpu(lambda: [kop.recall_report(g, p) for p in g.players])
    print(f"kop recall (load + report, every player) on {len(g)} nodes: {t + t2:.2f} s CPU "
          f"(load {t:.2f} s, report {t2:.2f} s); "
          + ("--quick: not the goal's 10^5 nodes" if args.quick else f"goal < 2 s: {'met' if t + t2 < 2 else 'NOT met'}"))
    if args.quick:
        return
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("open_spiel is not installed: no Leduc figure")
        return
    t, (game, holds) = cpu(lambda: _leduc())
    print(f"Leduc poker ({len(game)} histories, {len(game.sets)} information sets): read, game model built and "
          f"'turn_P0 -> K_P0 turn_P0' checked at every history ({holds}): {t:.2f} s CPU; goal < 5 s: "
          f"{'met' if t < 5 else 'NOT met'}")


def _leduc():
    game = kop.game_from_openspiel("leduc_poker")
    m = kop.game_model(game)
    return game, bool(m.truth_mask("turn_P0 -> K_P0 turn_P0").all())


def _report(name: str, n: int, text: str, gbt) -> None:
    if gbt is None:
        t, g = cpu(lambda: kop.loads_game(text))
        t2, _ = cpu(lambda: kop.perfect_recall(g))
        print(f"{name:<34}{n:>8}{t:>10.4f}{t2:>11.4f}")
        return
    kr, kc, gr, gc, ok = paired(text, gbt)
    print(f"{name:<34}{n:>8}{kr:>10.4f}{kc:>11.4f}{gr:>10.4f}{gc:>11.4f}{kc / gc:>13.2f}"
          f"{(kr + kc) / (gr + gc):>18.2f}  {ok}")


if __name__ == "__main__":
    main()
