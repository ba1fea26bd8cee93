"""Benchmark of search on implicit games through the OpenSpiel bridge.

Prints, in one run (CPU time, ``time.process_time``, best of ``--repeat``):

1. alpha-beta on full tic-tac-toe: ``kop.search(from_openspiel(...), "alphabeta")``
   against OpenSpiel's own Python ``open_spiel.python.algorithms.minimax.alpha_beta_search``
   on the same game: nodes (OpenSpiel's counted by wrapping its recursive
   ``_alpha_beta``), CPU time, and the ratios (goal: kop no slower, fewer nodes
   thanks to its transposition table);
2. depth-limited M^2 on connect four at depths 4..8, with two evaluation
   functions whose sum is bounded (|E_0 + E_1| <= 3): the plain recursion
   (``prune=False``) against the pruned search (alpha-beta for the M^0 models and
   αβ* with ``bound=3`` for the M^1 models); nodes and CPU time.  A variant
   stops at the first depth that takes more than ``--cap`` seconds;
3. the overhead per node of kop's search against a tight loop over the same
   states: minimax with a transposition table on full tic-tac-toe, kop vs the
   same memoized recursion written directly against pyspiel.

Usage: python benchmarks/agents.py [--quick] [--repeat N] [--cap SECONDS]
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import kop

sys.setrecursionlimit(10_000)


def cpu_best(repeat: int, fn: Any) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t0)
    return best, out


def tic_tac_toe(repeat: int) -> None:
    import pyspiel
    from open_spiel.python.algorithms import minimax as os_minimax

    game = pyspiel.load_game("tic_tac_toe")
    ttt = kop.from_openspiel(game, key="string")   # the board is the whole state: the printout is exact
    original = os_minimax._alpha_beta
    count = [0]

    def counted(*args: Any, **kw: Any) -> Any:
        count[0] += 1
        return original(*args, **kw)

    def openspiel_run() -> Any:
        count[0] = 0
        os_minimax._alpha_beta = counted
        try:
            return os_minimax.alpha_beta_search(game)
        finally:
            os_minimax._alpha_beta = original

    kop.search(ttt, "alphabeta")             # warm up: imports and first-call costs stay out of the timing
    os_minimax.alpha_beta_search(game)
    t_os, v_os = cpu_best(repeat, openspiel_run)
    n_os = count[0]
    # the same search uncounted, for the time (the counting wrapper costs a call per node)
    t_os_plain, _ = cpu_best(repeat, lambda: os_minimax.alpha_beta_search(game))
    t_kop, r = cpu_best(repeat, lambda: kop.search(ttt, "alphabeta"))
    assert r.value[0] == v_os[0], (r.value, v_os)
    print("1. alpha-beta on full tic-tac-toe (value {}):".format(r.value[0]))
    print(f"   OpenSpiel alpha_beta_search  nodes {n_os:>7}  CPU {t_os_plain * 1e3:8.1f} ms")
    print(f"   kop alphabeta (TT)           nodes {r.nodes:>7}  CPU {t_kop * 1e3:8.1f} ms"
          f"  ({r.tt_hits} table hits)")
    print(f"   ratio OpenSpiel/kop: time {t_os_plain / t_kop:.2f}x, nodes {n_os / r.nodes:.2f}x")


WINDOWS = []
for _r in range(6):
    for _c in range(7):
        for _dr, _dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            cells = [(_r + k * _dr, _c + k * _dc) for k in range(4)]
            if all(0 <= a < 6 and 0 <= b < 7 for a, b in cells):
                WINDOWS.append(tuple(a * 7 + b for a, b in cells))
SCORE = {0: 0, 1: 1, 2: 4, 3: 16}


def board(state: Any) -> str:
    return str(state).replace("\n", "")


def heuristic(state: Any) -> float:
    """Open lines: +n^2 for a window holding only n of x's discs, -n^2 for o's; +-1000 at the end."""
    if state.is_terminal():
        return 1000.0 * state.returns()[0]
    b = board(state)
    total = 0
    for w in WINDOWS:
        xs = sum(1 for i in w if b[i] == "x")
        os_ = sum(1 for i in w if b[i] == "o")
        if xs and not os_:
            total += SCORE[xs]
        elif os_ and not xs:
            total -= SCORE[os_]
    return float(total)


def center_bias(state: Any) -> float:
    """O's extra liking for the centre column: half the disc difference there, within [-3, 3]."""
    b = board(state)
    col = [b[r * 7 + 3] for r in range(6)]
    return 0.5 * (col.count("o") - col.count("x"))


def connect_four(depths: list[int], repeat: int, cap: float) -> None:
    c4 = kop.from_openspiel("connect_four", key="string")   # the board is the whole state
    ev = {"P0": heuristic, "P1": lambda s: -heuristic(s) + center_bias(s)}
    print("2. M^2 on connect four, E_P0 = open lines, E_P1 = -open lines + centre bias (|E_P0 + E_P1| <= 3):")
    print("   depth   plain: nodes      CPU     pruned (B=3): nodes      CPU    nodes ratio  time ratio")
    stopped = {"plain": False, "pruned": False}
    for d in depths:
        row: dict[str, Any] = {}
        for name, kw in (("plain", {"prune": False}), ("pruned", {"prune": True, "bound": 3})):
            if stopped[name]:
                row[name] = None
                continue
            t, r = cpu_best(repeat if d <= 5 else 1,
                            lambda kw=kw: kop.search(c4, "M2", depth=d, evaluations=ev, **kw))
            row[name] = (r.nodes, t, r.move_name, r.value)
            if t > cap:
                stopped[name] = True
        p, q = row["plain"], row["pruned"]
        if p is not None and q is not None:
            assert p[2] == q[2] and p[3] == q[3], (p, q)
        cells = []
        for v in (p, q):
            cells.append(f"{v[0]:>12} {v[1]:>8.2f} s" if v is not None else f"{'(capped)':>12} {'':>10}")
        ratio = (f"{p[0] / q[0]:>10.1f}x {p[1] / q[1]:>10.1f}x" if p is not None and q is not None else "")
        print(f"   {d:>5}  {cells[0]}      {cells[1]}  {ratio}")


def overhead(repeat: int) -> None:
    import pyspiel

    game = pyspiel.load_game("tic_tac_toe")
    ttt = kop.from_openspiel(game, key="string")   # the board is the whole state: the printout is exact

    def tight() -> tuple[float, int]:
        memo: dict[Any, float] = {}
        n = [0]

        def mm(state: Any) -> float:
            n[0] += 1
            if state.is_terminal():
                return state.returns()[0]
            key = (state.current_player(), str(state))
            hit = memo.get(key)
            if hit is not None:
                return hit
            vals = [mm(state.child(a)) for a in state.legal_actions()]
            v = max(vals) if state.current_player() == 0 else min(vals)
            memo[key] = v
            return v
        return mm(game.new_initial_state()), n[0]

    t_loop, (v, n_loop) = cpu_best(repeat, tight)
    t_kop, r = cpu_best(repeat, lambda: kop.search(ttt, "minimax"))
    assert r.value[0] == v and r.nodes == n_loop, (r, v, n_loop)
    per_loop, per_kop = t_loop / n_loop * 1e6, t_kop / r.nodes * 1e6
    print("3. overhead per node, minimax with a transposition table on full tic-tac-toe "
          f"({r.nodes} nodes both):")
    print(f"   tight loop on pyspiel  {per_loop:6.2f} us/node   kop.search  {per_kop:6.2f} us/node   "
          f"overhead {per_kop - per_loop:5.2f} us/node ({per_kop / per_loop:.2f}x)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="depths 4..5 only, one run each (seconds; no measurement)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cap", type=float, default=30.0, help="stop a variant after a depth that took longer (s)")
    args = ap.parse_args()
    if args.quick:
        args.repeat = 1
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("agents benchmark skipped: every figure runs on OpenSpiel games and open_spiel (pyspiel) is not "
              "installed (pip install open_spiel)")
        return
    tic_tac_toe(args.repeat)
    connect_four([4, 5] if args.quick else [4, 5, 6, 7, 8], args.repeat, args.cap)
    overhead(args.repeat)


if __name__ == "__main__":
    main()
