"""Timing helper shared by the odds benchmarks: the best of a few runs, each from a cold
exact-odds memo (so a run measures the walk, not a memo hit)."""

from __future__ import annotations

import time
from collections.abc import Callable

from kriegsspiel.chance import clear_cache


def best_of(fn: Callable[[], object], repeat: int = 5) -> float:
    """Seconds of the fastest of `repeat` calls of `fn`, the memo cleared before each."""
    best = float("inf")
    for _ in range(repeat):
        clear_cache()
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best
