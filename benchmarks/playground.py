"""Benchmark: the playground's three timed answers (issue 28), their CPU time beside the library's own.

Usage::

    python benchmarks/playground.py              # 7 runs of each, CPU time in this process
    python benchmarks/playground.py --browser    # also the browser figures (tests/serve/test_browser.py)
    python benchmarks/playground.py --quick      # 2 runs of each (seconds; no measurement)

Needs the ``serve`` extra (starlette, uvicorn) and matplotlib; without them it prints what it skipped.

For each of the three answers the issue times, the table gives the median CPU time of what the
server runs for the page (``kop.serve.views``) and of the library computation inside it, and their
ratio (what the page adds: mostly the picture):

* the parse behind the underline: ``check_theory`` on a 200-line theory, against ``parse_theory``;
* ``theories/figure2.kop``'s answers: ``theory_answers`` (every scenario's dominance report, the
  theory's questions and the chosen scenario's picture), against the dominance reports alone
  (``TheoryRun.dominance`` in every scenario: what ``kop dominates`` computes);
* a 64-world model: ``model_view`` (read, draw, SVG), against reading it (``KripkeModel.from_json``).

Then the start of ``kop serve --port 0`` (a child process): the wall time until it prints its
address (goal < 2 s) and the child's CPU time (killed once it has printed), beside a bare
``python -c pass``.

The wall times in the page (keystroke to underline, last keystroke to report, request to picture)
are measured in headless Chromium by ``tests/serve/test_browser.py``; ``--browser`` runs it and
prints its ``[playground]`` lines.  CPU times, not wall times: the machine may be shared.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def cpu(fn: Callable[[], Any], runs: int) -> float:
    fn()  # warm: imports, grammar and font caches
    times = []
    for _ in range(runs):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return statistics.median(times)


def long_theory() -> str:
    lines = (ROOT / "theories/figure2.kop").read_text().splitlines()[:31]
    k = 0
    while len(lines) < 200:
        lines.append(f"in s{k % 4 + 1} ask level {'AB'[k % 2]}" if k % 3 else f"# line {len(lines) + 1}")
        k += 1
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=7, help="runs of each figure (median; the first serve run warms)")
    ap.add_argument("--browser", action="store_true", help="also run the browser tests and print their figures")
    ap.add_argument("--quick", action="store_true", help="2 runs of each (seconds; no measurement)")
    args = ap.parse_args()
    if args.quick:
        args.runs = 2
    import importlib.util

    missing = [m for m in ("starlette", "uvicorn", "matplotlib") if importlib.util.find_spec(m) is None]
    if missing:
        print(f"playground benchmark skipped: {', '.join(missing)} not installed "
              f"(pip install 'kop[serve]')")
        return 0

    import kop
    from kop.serve import views
    from kop.theory import TheoryRun, parse_theory

    text = long_theory()
    fig2 = (ROOT / "theories/figure2.kop").read_text()
    m = kop.KripkeModel.from_observations("p q r s t u", "true", {"a": "p q r", "b": "s t u"}, actual="p q")
    model = json.dumps(m.to_json())

    def reports() -> None:
        run = TheoryRun(parse_theory(fig2, ROOT / "theories"))
        for ctx in run.scenarios():
            run.dominance(ctx.name)

    rows = [
        ("parse a 200-line theory (the underline)", lambda: views.check_theory(text, ROOT),
         lambda: parse_theory(text, ROOT), "goal < 150 ms keystroke to underline"),
        ("figure2.kop answers (report + picture)", lambda: views.theory_answers(fig2, ROOT, path="theories/figure2.kop"),
         reports, "goal < 1 s after the last keystroke"),
        ("64-world model drawn", lambda: views.model_view({"model": model}, ROOT),
         lambda: kop.KripkeModel.from_json(model), "goal < 1 s"),
    ]
    print(f"{'answer':<42} {'page CPU':>10} {'library CPU':>12} {'ratio':>7}   goal")
    for name, page, lib, goal in rows:
        a, b = cpu(page, args.runs), cpu(lib, args.runs)
        print(f"{name:<42} {1000 * a:>8.1f}ms {1000 * b:>10.1f}ms {a / b:>6.1f}x   {goal}")
    import resource
    import signal

    def child(argv: list[str], wait_line: bool) -> tuple[float, float]:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        if wait_line:
            p.stdout.readline()  # type: ignore[union-attr]
            wall = time.perf_counter() - t
            p.send_signal(signal.SIGINT)
        p.wait(30)
        wall = wall if wait_line else time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    serve = [child([sys.executable, "-m", "kop", "serve", "--port", "0"], True) for _ in range(args.runs)][1:]
    bare = [child([sys.executable, "-c", "pass"], False) for _ in range(args.runs)][1:]
    print(f"kop serve prints its address after {statistics.median(w for w, _ in serve):.2f} s of wall time "
          f"(goal < 2 s); CPU {statistics.median(c for _, c in serve):.2f} s, "
          f"{statistics.median(c for _, c in serve) / statistics.median(c for _, c in bare):.1f}x python -c pass "
          f"({statistics.median(c for _, c in bare):.3f} s); median of {args.runs - 1} runs after one to warm")
    if args.browser:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "-s",
                              str(ROOT / "tests/serve/test_browser.py")], cwd=ROOT, env=env,
                             capture_output=True, text=True)
        print("\n".join(line for line in out.stdout.splitlines() if line.startswith("[playground]")
                        or "passed" in line or "skipped" in line or "failed" in line))
        return out.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
