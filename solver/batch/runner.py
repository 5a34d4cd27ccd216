"""The run: :func:`run_batch` reads records, keeps chunks in flight on a pool and writes
each one as soon as it and those before it are done."""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

from ..rules import DeckForm, Preset, get_deck
from .base import BatchError
from .chunks import ChunkTask, RecordChunk, batch_tt_bits, optional_analysis, solve_table_chunk
from .pool import WorkerPool, check_run_options, default_jobs
from .readers import BadLine, Record, RecordSource
from .summary import Summary
from .writers import Writer


KEEP_BAD = 100        # bad lines kept in BatchReport.bad (all are counted and passed on)


@dataclass
class BatchReport:
    """What a run did: deals solved now, deals skipped as already done, bad lines (``bad``: the
    first :data:`KEEP_BAD`, each quoted cut short; ``bad_count``: all), chunks, wall seconds,
    the executor and the number of workers."""

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


def _made_on(pool: WorkerPool, source: RecordSource, ahead: int = 2) -> Iterator[Record | BadLine]:
    """The records of ``source`` with its ``work`` (parsing lines, dealing) done on the pool's
    threads, at most ``ahead`` batches in flight; ``take`` (the id checks) on this thread, in
    input order.  The reading thread keeps only reading, the checks and writing."""
    pending: deque = deque()
    for batch in source.batches():
        pending.append(pool.submit(source.work, batch))
        if len(pending) > ahead:
            yield from source.take(pending.popleft().result())
    while pending:
        yield from source.take(pending.popleft().result())


@contextlib.contextmanager
def _interrupts_held():
    """Hold Ctrl-C (SIGINT) while a chunk is written: it takes effect once the chunk is whole
    in the output and counted in ``writer.written``, so the count said on Ctrl-C is true and
    no line is left half-written.  Only in the main thread (where Python handles signals)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if held:
            signal.raise_signal(signal.SIGINT)     # now, to the handler that was there


def auto_executor(jobs: int, *, alone: bool = False, par: bool = False, dask=None) -> str:
    """The executor ``auto`` picks: ``dask`` when a cluster is given; ``process`` for lone
    tables or par on more than one job (their auction and exchange code is Python that holds
    the GIL, so threads would take turns); else ``thread`` (the DD core releases the GIL;
    threads need no start-up nor pickling)."""
    if dask is not None:
        return "dask"
    return "process" if (alone or par) and jobs > 1 else "thread"


def check_analyses(preset: Preset, deck: DeckForm, *, alone: bool = False, par: bool = False) -> None:
    """Raise BatchError, before any work, for an analysis that cannot run on these deals, with
    the reason: ``alone`` needs lone bids in the preset (with double48, ``lone_exchange``) and
    ``bideuchre.analysis.lone``; ``par`` needs ``bideuchre.analysis.par`` and deals of the
    preset's own deck (:func:`bideuchre.analysis.par.par` solves the auction of the preset,
    whose bids and lone values belong to its deck: RULES.md §2; any other deck raises there)."""
    if alone:
        if not preset.lone_bids:
            raise BatchError(f"--alone: preset {preset.name!r} has no lone bids")
        optional_analysis("bideuchre.analysis.lone", "lone_table", "--alone")
    if par:
        if deck != preset.deck:
            raise BatchError(f"--par: par solves the auction of preset {preset.name!r}, which deals "
                             f"{preset.deck.name}; these deals are {deck.name} (choose a preset of that "
                             f"deck, or leave out --deck or --par)")
        optional_analysis("bideuchre.analysis.par", "par", "--par")


def default_chunk_size(deck: DeckForm | str, executor: str) -> int:
    """Deals per chunk when none is given: about a second of one core's work or less, so that a
    short run still spreads over every job (a chunk is one job's work; a run of few large
    chunks leaves cores idle) -- 250 deals of the single deck, 100 of double32, 25 of double40,
    10 of double48; eight times as many on Dask, where a task costs more to send.  Only the
    speed depends on it, never the results."""
    per = {6: 250, 8: 100, 10: 25}.get(get_deck(deck).hand, 10)
    return 8 * per if executor == "dask" else per


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
    ``"local"`` for a LocalCluster of ``jobs`` workers), or ``auto`` (:func:`auto_executor`:
    threads for DD tables, processes for ``alone``/``par`` on more than one job).
    ``jobs`` defaults to all cores, ``chunk_size`` to :func:`default_chunk_size`.  A
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
        executor = auto_executor(jobs, alone=alone, par=par, dask=dask)
    check_run_options(executor, chunk_size)
    if chunk_size is None:
        chunk_size = default_chunk_size(deck, executor)
    check_analyses(preset, deck, alone=alone, par=par)
    bits = batch_tt_bits(deck) if tt_bits is None else tt_bits
    report = BatchReport(executor=executor)
    t0 = time.perf_counter()
    pool = WorkerPool(executor, jobs, dask, dask_processes)
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
        chunk = RecordChunk(index, buf, deck)
        task = ChunkTask(index, preset, deck, chunk.counts, chunk.dealers, chunk.totals,
                         chunk.pbns if (alone or par) else None, alone, par, bits)
        pending.append((chunk, pool.submit(solve_table_chunk, task)))
        index += 1
        buf = []

    def drain(keep: int) -> None:
        while len(pending) > keep:
            chunk, fut = pending[0]
            res = fut.result()
            pending.popleft()
            with _interrupts_held():
                writer.write(chunk, res)
            if summary is not None:
                summary.add(res.tables, res.par, alone=res.alone, counts=chunk.counts)
            report.solved += len(chunk)
            report.chunks += 1
            if on_progress is not None:
                on_progress(len(chunk))

    if isinstance(records, RecordSource) and pool.kind == "thread":
        records = _made_on(pool, records)
    try:
        for rec in records:
            if isinstance(rec, BadLine):
                report.bad_count += 1
                if len(report.bad) < KEEP_BAD:
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
