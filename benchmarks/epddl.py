"""EPDDL reader benchmark (issue 24 item 5): kop's EPDDL reader against Lark's parse of the same text.

Prints CPU time (``time.process_time``, the best of ``--repeat`` runs: the machine may be shared) of

* ``kop.io.epddl.load_task`` on the shipped tasks (``theories/epddl``: coin, grapevine): read,
  ground, initial state;
* ``kop.io.epddl.parse_domain`` of a large domain: grapevine's events and actions ``--copies``
  times (about 900 bytes each), the reading alone;

with, as the baseline run side by side, Lark's parse of the same text with EPDDL's grammar alone
(``grammar/epddl.lark``, the parser kop builds once per process): the ratio says what reading the
tree into a task costs over parsing it. When the grammar took over EPDDL's syntax (issue 24), the
reader before it (brackets read by Lark, the syntax checked in Python) took 7.6 ms (coin), 5.4 ms
(grapevine) and 748 ms (the 182 kB domain) where the new one took 6.0, 4.3 and 544 ms.

Run: ``python benchmarks/epddl.py [--repeat N] [--copies N]`` (``--quick``: 20 copies, 2 runs;
seconds, and its figures measure little)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import kop.io.epddl as new
from kop.io.epddl.syntax import _parser

ROOT = Path(__file__).resolve().parent.parent

COPY = """
  (:event e-left{k} :parameters (?i - agent) :precondition (not (in-left ?i)) :effects (in-left ?i))
  (:action left{k} :parameters (?i - agent) :action-type (public-ontic (e-left{k} ?i))
    :observability-conditions (default Fully))
  (:event e-right{k} :parameters (?i - agent) :precondition (in-left ?i) :effects (not (in-left ?i)))
  (:action right{k} :parameters (?i - agent) :action-type (public-ontic (e-right{k} ?i)))
  (:event e-tell{k} :parameters (?j - agent) :precondition (and (secret ?j) ([C. All] (<Kw. ?j> (secret ?j)))))
  (:action tell{k}
    :parameters (?i ?j - agent | (/= ?i ?j))
    :action-type (private-announcement (e-tell{k} ?j) (nil))
    :observability-conditions
      (:and (?i Fully)
            (:forall (?k - agent | (/= ?k ?i))
              (?k (if (or (and (in-left ?i) (in-left ?k)) (and (not (in-left ?i)) (not (in-left ?k))))
                      Fully else Oblivious)))))
"""


def large_domain(copies: int) -> str:
    """Grapevine's events and actions *copies* times, renamed."""
    return ("(define (domain big)\n  (:predicates (in-left ?i - agent) (secret ?i - agent))\n  (:event nil)"
            + "".join(COPY.format(k=k) for k in range(copies)) + ")\n")


def best(fn, repeat: int) -> float:
    """The least CPU time of *repeat* runs of *fn* (after one warm-up run)."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return min(times)


def row(label: str, fn_kop, texts: list[str], repeat: int) -> None:
    """One line: kop's time, Lark's parse of *texts* alone, and their ratio."""
    t_kop = best(fn_kop, repeat)
    t_lark = best(lambda: [_parser().parse(t) for t in texts], repeat)
    print(f"{label:<44} kop {t_kop * 1000:8.1f} ms   Lark's parse alone {t_lark * 1000:8.1f} ms   "
          f"ratio {t_kop / t_lark:5.2f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=7, help="runs per case; the best is shown (default 7)")
    ap.add_argument("--copies", type=int, default=200, help="copies of grapevine's actions in the large domain")
    ap.add_argument("--quick", action="store_true", help="20 copies, 2 runs: seconds")
    args = ap.parse_args(argv)
    repeat, copies = (2, 20) if args.quick else (args.repeat, args.copies)
    th = ROOT / "theories" / "epddl"
    print(f"CPU time, best of {repeat} runs; ratio = kop's reading / Lark's parse of the same text")
    for name in ("coin", "grapevine"):
        d, p = (th / f"{name}-domain.epddl").read_text(), (th / f"{name}-problem.epddl").read_text()
        row(f"load_task {name}", lambda: new.load_task(d, p), [d, p], repeat)
    big = large_domain(copies)
    row(f"parse_domain, {copies} copies ({len(big) // 1000} kB)", lambda: new.parse_domain(big), [big], repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
