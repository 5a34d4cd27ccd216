"""The run: :func:`run_batch` reads records, keeps chunks in flight on a pool and writes
each one as soon as it and those before it are done."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Iterable

from .chunks import ChunkTask, _Chunk, _optional, batch_tt_bits, solve_chunk
from .pool import _Pool, check_run_options, default_jobs
from .readers import BadLine, Record
from .summary import Summary
from .writers import Writer


@dataclass
class BatchReport:
    """What a run did: deals solved now, deals skipped as already done, bad lines, chunks,
    wall seconds, the executor and the number of workers."""

    solved: int = 0
    skipped: int = 0
    bad: list[BadLine] = field(default_factory=list)
    bad_count: int = 0
    chunks: int = 0
    seconds: float = 0.0
    executor: str = ""
    jobs: int = 0
    stopped: BadLine | None = None

    @property
    def rate(self) -> float:
        """Deals solved per second of wall time."""
        return self.solved / self.seconds if self.seconds > 0 else 0.0


def run_batch(records: Iterable[Record | BadLine], writer: Writer, *, alone: bool = False,
              par: bool = False, jobs: int | None = None, chunk_size: int | None = None,
              executor: str = "auto", dask=None, dask_processes: bool = True,
              strict: bool = False, summary: Summary | None = None,
              on_progress: Callable[[int], None] | None = None,
              on_bad_line: Callable[[BadLine], None] | None = None,
              tt_bits: int | None = None) -> BatchReport:
    """Solve every record and write each chunk as soon as it and those before it are done.

    ``records``: from :func:`read_records` or :func:`generate_records`; ids in
    ``writer.done`` are skipped (resume).  ``executor``: ``thread`` (the core releases the GIL),
    ``process``, ``dask`` (``dask`` is a ``distributed.Client``, a scheduler address, or
    ``"local"`` for a LocalCluster of ``jobs`` workers), or ``auto`` (``dask`` if given, else
    ``thread``: the DD core and the lone search both release the GIL, and threads need no
    process start-up nor pickling).
    ``jobs`` defaults to all cores, ``chunk_size`` to 250 deals (2000 on Dask).  A
    :class:`BadLine` is counted and passed to ``on_bad_line``; with ``strict`` the run stops
    there after writing every good deal before it (``report.stopped`` is set).
    ``on_progress(n)`` is called with the deals just written.  At most ``2 × jobs`` chunks are
    in flight, so memory does not grow with the number of deals (npz assembly aside).

    Returns a :class:`BatchReport`.  The writer is closed (an npz assembled) only when the run
    ends normally; after an exception or Ctrl-C the written chunks stay, ready for ``resume``.
    """
    preset, deck = writer.preset, writer.deck
    jobs = default_jobs() if jobs is None else max(1, int(jobs))
    if executor == "auto":
        executor = "dask" if dask is not None else "thread"
    check_run_options(executor, chunk_size)
    if chunk_size is None:
        chunk_size = 2000 if executor == "dask" else 250
    if alone:
        _optional("bideuchre.analysis.lone", "lone_table", "--alone")
    if par:
        _optional("bideuchre.analysis.par", "par", "--par")
    bits = batch_tt_bits(deck) if tt_bits is None else tt_bits
    report = BatchReport(executor=executor)
    t0 = time.perf_counter()
    pool = _Pool(executor, jobs, dask, dask_processes)
    report.jobs = pool.jobs
    window = 2 * pool.jobs
    pending: deque = deque()
    done = writer.done
    buf: list[Record] = []
    index = 0
    first = True        # the first good record: an output to resume must start with it

    def submit() -> None:
        nonlocal buf, index
        if not buf:
            return
        chunk = _Chunk(index, buf, deck)
        task = ChunkTask(index, preset, deck, chunk.counts, chunk.dealers, chunk.totals,
                         chunk.pbns if (alone or par) else None, alone, par, bits)
        pending.append((chunk, pool.submit(solve_chunk, task)))
        index += 1
        buf = []

    def drain(keep: int) -> None:
        while len(pending) > keep:
            chunk, fut = pending[0]
            res = fut.result()
            pending.popleft()
            writer.write(chunk, res)
            if summary is not None:
                summary.add(res.tables, res.par, alone=res.alone, counts=chunk.counts)
            report.solved += len(chunk)
            report.chunks += 1
            if on_progress is not None:
                on_progress(len(chunk))

    try:
        for rec in records:
            if isinstance(rec, BadLine):
                report.bad_count += 1
                if len(report.bad) < 1000:
                    report.bad.append(rec)
                if summary is not None:
                    summary.bad_lines += 1
                if on_bad_line is not None:
                    on_bad_line(rec)
                if strict:
                    report.stopped = rec
                    break
                continue
            if first:
                writer.check_first(rec)
                first = False
            if done and str(rec.id) in done:
                writer.check_done(rec)
                report.skipped += 1
                continue
            buf.append(rec)
            if len(buf) >= chunk_size:
                submit()
                drain(window - 1)
        submit()
        drain(0)
    except BaseException:
        for _, fut in pending:
            fut.cancel()
        pool.close(cancel=True)
        writer.close(complete=False)
        raise
    pool.close()
    writer.close(complete=True)
    report.seconds = time.perf_counter() - t0
    return report
