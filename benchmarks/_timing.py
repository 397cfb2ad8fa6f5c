"""Timing helpers shared by the benchmarks."""

from __future__ import annotations

import time


def best_time(function, repeat):
    """Best wall time of ``repeat`` calls of ``function()``, in seconds."""
    seconds, _ = best_time_and_value(function, repeat)
    return seconds


def best_time_and_value(function, repeat, number=1):
    """Best wall time per call over ``repeat`` rounds of ``number`` calls, and the last value."""
    best = float("inf")
    value = None
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            value = function()
        best = min(best, (time.perf_counter() - start) / number)
    return best, value
