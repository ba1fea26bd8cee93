"""EPDDL reader benchmark (issue 24 item 5): the reader on EPDDL's grammar against the old bracket reader.

Prints CPU time (``time.process_time``, the best of ``--repeat`` runs: the machine may be shared) of

* ``kop.io.epddl.load_task`` on the shipped tasks (``theories/epddl``: coin, grapevine): read,
  ground, initial state;
* ``kop.io.epddl.parse_domain`` of a large domain: grapevine's events and actions ``--copies``
  times (about 900 bytes each), the reading alone;

with the ratio new / old, where the old reader is the copy kept for the tests
(``tests/semantics/epddl_old_reader.py``: the reader before the grammar held EPDDL's syntax,
which read brackets with Lark and checked the syntax in Python). Both build their Lark parser once
per process; the first run of each warms it. Goal: the new reader no slower (ratio <= 1.2).

Run: ``python benchmarks/epddl.py [--repeat N] [--copies N]`` (``--quick``: 20 copies, 2 runs;
seconds, and its figures measure little)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import kop.io.epddl as new

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "semantics"))
try:
    import epddl_old_reader as old  # the reference kept for the tests
except ImportError:  # pragma: no cover - an installed kop without its tests
    old = None

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


def row(label: str, fn_new, fn_old, repeat: int) -> None:
    t_new = best(fn_new, repeat)
    if old is None:
        print(f"{label:<44} new {t_new * 1000:8.1f} ms   (old reader not found)")
        return
    t_old = best(fn_old, repeat)
    print(f"{label:<44} new {t_new * 1000:8.1f} ms   old {t_old * 1000:8.1f} ms   ratio {t_new / t_old:5.2f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=7, help="runs per case; the best is shown (default 7)")
    ap.add_argument("--copies", type=int, default=200, help="copies of grapevine's actions in the large domain")
    ap.add_argument("--quick", action="store_true", help="20 copies, 2 runs: seconds")
    args = ap.parse_args(argv)
    repeat, copies = (2, 20) if args.quick else (args.repeat, args.copies)
    th = ROOT / "theories" / "epddl"
    print(f"CPU time, best of {repeat} runs; ratio = new / old (goal: <= 1.2)")
    for name in ("coin", "grapevine"):
        d, p = (th / f"{name}-domain.epddl").read_text(), (th / f"{name}-problem.epddl").read_text()
        row(f"load_task {name}", lambda: new.load_task(d, p), lambda: old.load_task(d, p), repeat)
    big = large_domain(copies)
    row(f"parse_domain, {copies} copies ({len(big) // 1000} kB)", lambda: new.parse_domain(big),
        lambda: old.parse_domain(big), repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
