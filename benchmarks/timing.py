"""Timing shared by the benchmark scripts (each runs as `python benchmarks/NAME.py`, so
this folder is on the import path)."""

import time


def best_of(runs: int, job) -> float:
    """The fastest of `runs` timings of `job()`, in seconds: the least disturbed by the machine."""
    timings = []
    for _ in range(runs):
        started = time.perf_counter()
        job()
        timings.append(time.perf_counter() - started)
    return min(timings)
