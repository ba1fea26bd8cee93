"""The resampling table: kop.check_resampling on every OpenSpiel game that resamples (issue 27, item 3).

Every registered game (C++ and Python games), loaded with its default parameters, is tried: a
random playout (at most --probe-seconds CPU) asks ``resample_from_infostate`` of every player at
every state where someone moves; a game "resamples" when OpenSpiel does not answer "not
implemented".  Games that need parameters, have simultaneous moves only, or have perfect
information (where resampling returns the state itself: the cell is one history) are counted apart.
Each resampling imperfect-information game is then checked by ``kop.check_resampling`` (OpenSpiel's
sampler, --draws samples per state and player) for --histories random histories or --seconds CPU,
whichever comes first, and one table row is printed: game, histories checked, checks, violations
(outside / copied), the first violation and what it leaked, CPU seconds.

Usage: python benchmarks/resampling.py [--quick] [--histories N] [--seconds S] [--draws D] [--markdown]
"""

from __future__ import annotations

import argparse
import random
import signal
import time
from typing import Any

import kop
from kop.worlds.resampling import DRAWS


#: the games of ``--quick``: two that resample, one with perfect information
QUICK_GAMES = ("kuhn_poker", "leduc_poker", "tic_tac_toe")


class _Timeout(Exception):
    pass


def _alarm(*_: Any) -> None:
    raise _Timeout()


def resamples(name: str, seconds: float) -> str:
    """'yes', 'perfect', or why not ('not implemented', 'needs parameters', ...)."""
    import pyspiel

    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(max(1, int(seconds)))
    try:
        game = pyspiel.load_game(name)
        if game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION:
            return "perfect"
        rng = random.Random(0)
        state = game.new_initial_state()
        asked = False
        while not state.is_terminal():
            if state.is_chance_node():
                acts, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(acts, weights=probs)[0])
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
            else:
                for p in range(game.num_players()):
                    state.resample_from_infostate(p, rng.random)
                    asked = True
                if asked:
                    return "yes"
        return "yes" if asked else "no sequential decision"
    except _Timeout:
        return "probe timed out"
    except Exception as exc:
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if "not implemented" in text.lower():
            return "not implemented"
        if "Missing parameter" in text:
            return "needs parameters"
        return f"error: {text[:60]}"
    finally:
        signal.alarm(0)


def gin_observation_struct(playouts: int = 400, seed: int = 0) -> tuple[int, int]:
    """google-deepmind/open_spiel#1604: in gin rummy's Layoff phase, how many observation structs
    (``to_observation_struct``, OpenSpiel 2's struct API) show the hand of an opponent that has not
    knocked?  Returns (structs seen, structs showing it)."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    seen = shown = 0
    for _ in range(playouts):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                acts, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(acts, weights=probs)[0])
                continue
            if "Phase: Layoff" in str(state) and hasattr(state, "to_observation_struct"):
                for viewer in (0, 1):
                    obs = state.to_observation_struct(viewer)
                    seen += 1
                    shown += bool(list(obs.hands[1 - viewer])) and not list(obs.knocked)[1 - viewer]
            state.apply_action(rng.choice(state.legal_actions()))
    return seen, shown


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="a few named games only (QUICK_GAMES), 5 histories and 2 CPU seconds per game "
                         "(seconds; no measurement)")
    ap.add_argument("--histories", type=int, default=300, help="random histories per game (default 300)")
    ap.add_argument("--seconds", type=float, default=60.0, help="CPU seconds per game (default 60)")
    ap.add_argument("--draws", type=int, default=DRAWS,
                    help="samples per state and player (default 24)")
    ap.add_argument("--probe-seconds", type=float, default=10.0, help="limit of the resampling probe per game")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = ap.parse_args()
    if args.quick:
        args.histories, args.seconds, args.probe_seconds = 5, 2.0, 1.0
    try:
        import pyspiel
    except ImportError:
        print("resampling benchmark skipped: it checks OpenSpiel's games and open_spiel (pyspiel) is not "
              "installed (pip install open_spiel)")
        return

    try:
        import open_spiel.python.games  # noqa: F401  (registers OpenSpiel's Python games)
    except Exception:   # pragma: no cover - an OpenSpiel build without its Python games
        pass
    names = sorted(pyspiel.registered_names())
    if args.quick:
        names = [n for n in QUICK_GAMES if n in names]
    probe = {n: resamples(n, args.probe_seconds) for n in names}
    groups: dict[str, list[str]] = {}
    for n, why in probe.items():
        groups.setdefault(why, []).append(n)
    print(f"{len(names)} {'games (--quick)' if args.quick else 'registered games'}; default parameters; probe: "
          + "; ".join(f"{k}: {len(v)}" for k, v in sorted(groups.items())))
    for k in sorted(groups):
        if k != "yes":
            print(f"  {k}: {', '.join(groups[k])}")
    rows = []
    for n in groups.get("yes", []):
        t0 = time.process_time()
        try:
            r = kop.check_resampling(n, histories=args.histories, draws=args.draws, cpu_limit=args.seconds)
        except Exception as exc:
            rows.append((n, "-", "-", f"error: {str(exc)[:70]}", "", f"{time.process_time() - t0:.1f}"))
            continue
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(r.kinds.items())) or "0"
        first = "" if r.first is None else f"{r.first.kind}, player {r.first.player}: {r.first.leaked}"
        rows.append((n, str(r.histories), str(r.checks), kinds, first, f"{time.process_time() - t0:.1f}"))
    seen, shown = gin_observation_struct(40 if args.quick else 400)
    print(f"open_spiel#1604 (gin rummy observation struct, Layoff phase): {shown} of {seen} structs show the "
          "hand of an opponent that has not knocked")
    head = ("game", "histories", "checks", "violations", "first violation (what leaked)", "CPU s")
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for row in rows:
            print("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |")
    else:
        for row in (head, *rows):
            print("  ".join((row[0].ljust(16), row[1].rjust(9), row[2].rjust(7), row[3].ljust(22), row[5].rjust(6),
                             row[4][:160])))


if __name__ == "__main__":
    main()
