"""Which ``.efg`` fast path (issue 24, item 6): kop's token-level reader, kop's array scanner, pygambit.

Prints CPU time (time.process_time, the least of a few runs: the machine may be shared) of reading
a Gambit ``.efg`` file of 10^4, 10^5 and 10^6 nodes (random binary trees written by
``kop.dumps_efg``) into kop's :class:`~kop.GameTree`, side by side:

* ``token``: kop's token-level reader alone (``kop.loads_efg`` since issue 24; before it,
  ``kop.io.efg._loads(text, fast=False)``);
* ``scan``: kop's whole-file array scanner (``kop.io.efgscan.scan_nodes``; what ``kop.loads_efg``
  ran on files in the common style until issue 24 removed it), on a checkout that still has it;
* ``pygambit``: pygambit's C++ reader (``pygambit.read_efg``), then the conversion to kop's tree
  (``kop.from_gambit``: pygambit writes the game's ``.efg`` text, which kop then reads), in parts:
  Gambit's read, Gambit's write, kop's read of that text; and ``kop.from_pygambit`` (the same
  text read with its information sets, into an ``InfoGame``).

The ratio column is each path's total against kop's token-level reader.  pygambit is the
``gambit`` extra; without it its rows are skipped.

Run: ``python benchmarks/efg_paths.py`` (``--quick``: 10^3 and 10^4 nodes, one run: a smoke test)
"""

from __future__ import annotations

import argparse
import gc
import io
import time
from collections.abc import Callable
from typing import Any

import kop
from kop.io.efg import _header
from kop.io.jsontext import paused_gc

try:   # the array scanner, removed by issue 24 on these figures: its rows print on a checkout before it
    from kop.io.efgscan import scan_nodes
    from kop.io.efg import _loads
except ImportError:
    scan_nodes = None
    _loads = None

try:
    import pygambit
except ImportError:
    pygambit = None


def cpu(fn: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """(least CPU time over *repeats* runs, the last result)."""
    best, out = float("inf"), None
    for _ in range(repeats):
        out = None
        gc.collect()
        t = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t)
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, one run (no measurement)")
    args = ap.parse_args()
    depths, repeats = ((9, 12), 1) if args.quick else ((12, 16, 19), 3)
    print(f"CPU seconds, least of {repeats}; ratio against kop's token-level reader")
    print(f"{'nodes':>10s} {'path':38s} {'CPU s':>8s} {'ratio':>7s}")
    for depth in depths:
        tree = kop.random_tree(depth=depth, branching=2, seed=1)
        text = kop.dumps_efg(tree)
        n = len(tree)
        rows: list[tuple[str, float]] = []
        token = kop.loads_efg if _loads is None else (lambda t: _loads(t, fast=False))
        t_token, back = cpu(lambda: token(text), repeats)
        assert back == tree
        rows.append(("kop token-level reader", t_token))
        if scan_nodes is not None:
            players, pos = _header(text)

            def scan() -> Any:
                with paused_gc():   # as kop.loads_efg reads
                    return scan_nodes(text, pos, players)

            t_scan, back = cpu(scan, repeats)
            assert back == tree
            rows.append(("kop array scanner (efgscan)", t_scan))
            t_loads, back = cpu(lambda: kop.loads_efg(text), repeats)
            assert back == tree
            rows.append(("kop.loads_efg (header + chosen path)", t_loads))
        del back
        if pygambit is not None:
            t_read, game = cpu(lambda: pygambit.read_efg(io.StringIO(text)), repeats)
            t_write, gtext = cpu(lambda: game.to_efg(), repeats)
            t_conv, back = cpu(lambda: kop.loads_efg(gtext), repeats)
            assert back == tree
            t_conv_token, _ = cpu(lambda: token(gtext), repeats)
            rows.append(("pygambit.read_efg (C++)", t_read))
            rows.append(("  + game.to_efg() (C++)", t_write))
            rows.append(("  + kop.loads_efg of that text", t_conv))
            rows.append(("  = kop.from_gambit path, total", t_read + t_write + t_conv))
            if _loads is not None:   # kop.loads_efg chose the array reader: the token reader's total too
                rows.append(("  = same, kop's token reader", t_read + t_write + t_conv_token))
            t_info, _ = cpu(lambda: kop.from_pygambit(game), repeats)
            rows.append(("pygambit.read_efg + kop.from_pygambit", t_read + t_info))
            del game, gtext, back
        for name, t in rows:
            print(f"{n:>10,d} {name:38s} {t:8.3f} {t / t_token:7.2f}")


if __name__ == "__main__":
    main()
