"""The deals of a single-dummy evaluation on every core: one function over chunks of them on
threads (the core releases the GIL), the results in deal order whatever the threads."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

__all__ = ["map_chunks"]

_CHUNK = 32
_PER_WORKER = 50        # chunks a worker at least: one deal each for 100 deals


def map_chunks(fn, counts: np.ndarray, workers: int) -> list:
    """``fn`` over ``counts`` (deals along axis 0) in chunks, on ``workers`` threads (the core
    releases the GIL): the results in deal order, the same whatever the number of workers.
    Many small chunks, taken by each thread as it is free, so the threads end together."""
    n = counts.shape[0]
    # 100 double48 deals in chunks of 32 left one of two threads 64 deals, the other 36
    # (the double48 opening lead on 2 cores, medians of 8 interleaved: chunks of 13 3.45 s,
    # of one deal 3.13 s; benchmarks/RESULTS.md 0.8.1)
    size = max(1, min(_CHUNK, -(-n // (_PER_WORKER * workers)))) if workers > 1 else _CHUNK
    starts = range(0, n, size)
    if workers > 1 and n > size:
        with ThreadPoolExecutor(workers) as ex:
            return list(ex.map(lambda a: fn(counts[a:a + size]), starts))
    return [fn(counts[a:a + size]) for a in starts]

