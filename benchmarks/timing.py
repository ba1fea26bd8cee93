"""What the benchmark scripts share: the best of repeated wall-clock timings (run them from the repository root)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def best_of(repeat: int, fn: Callable[[], Any]) -> tuple[float, Any]:
    """The least wall-clock time of *repeat* runs of *fn*, and the last result."""
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out
