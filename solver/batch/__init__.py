"""Batch evaluation: the DD table (and optionally the lone table and par) of many deals.

The pipeline:

- **Input**: :func:`read_records` reads a file or stdin, one deal a line, either PBN-style
  (``N:<hand> <hand> <hand> <hand>``, RULES.md §4) or a JSON object with a ``deal`` key (an
  ``id`` key names the deal, a ``dealer`` key sets its dealer, every other key is carried
  through to the output).  :func:`generate_records` makes uniform random deals of a deck form
  from a seed: deal *i* depends only on the seed and *i* (blocks of :data:`GEN_BLOCK` deals, each
  from its own ``numpy`` generator seeded with ``(seed, block)``), so the same seed gives the
  same deals whatever the number of workers or the chunk size.
- **Work**: :func:`solve_table_chunk` solves a chunk of deals in one call of the Cython core
  (``bideuchre.search._search.solve_tables``, which runs without the GIL), then turns the core's NS
  tricks into declaring-side tables with :func:`bideuchre.search.solve.tables_from_ns`, exactly as
  :func:`bideuchre.search.solve.dd_table` does.  Chunks run on a thread pool (default: the core releases
  the GIL, so threads scale and nothing is pickled), a process pool, or a Dask cluster.
- **Output**: :class:`JsonlWriter`, :class:`CsvWriter`, :class:`NpzWriter`, :class:`ParquetWriter`
  write each chunk as soon as it (and every chunk before it) is done: JSON lines and CSV rows are appended, flushed
  and fsynced per chunk; ``.npz`` output writes one part file per chunk into ``OUTPUT.parts/``
  (atomically: temporary file, fsync, rename) and assembles them into ``OUTPUT`` at the end;
  :class:`ParquetWriter` (the ``parquet`` extra) does the same with ``.parquet`` parts.
  Results appear in input order whatever the number of workers.
- **Resume**: a writer opened with ``resume=True`` reads what is already there (dropping a
  partial last line left by a killed process), reports the ids done, and appends the rest.
- **Summary**: :class:`Summary` accumulates fixed-size counts (per strain the DD trick
  distribution, the best strain, make rates by bid level, par contracts) in constant memory.

The parts, where a reader looks for them: :mod:`.readers` (input), :mod:`.chunks` (the work on a
chunk), :mod:`.pool` (threads, processes, Dask), :mod:`.summary`, :mod:`.writers` (outputs and
resume), :mod:`.flat` (results as flat numbers: the CSV columns, the npz arrays, :func:`load`),
:mod:`.runner` (:func:`run_batch`); :mod:`.base` holds the errors and the schema version;
:mod:`.files` the checks on the run's files (no two the same, one run at a time on an output);
:mod:`.where` deals under a condition (``--where``); :mod:`.plot` draws the summary (``--plot``,
matplotlib).
Every public name is importable from ``bideuchre.batch``.

The single entry point is :func:`run_batch`; ``bideuchre batch`` (cli/batch_cmd.py) is a thin
face over it.
"""

from __future__ import annotations

from .base import SCHEMA, BatchError, ResultFileError
from .files import OutputLock, check_distinct_files
from .chunks import ChunkResult, ChunkTask, batch_tt_bits, solve_table_chunk
from .flat import Layout, load
from .pool import EXECUTORS, check_run_options, default_jobs
from .readers import (DEALER_MODES, GEN_BLOCK, MAX_GENERATE, BadLine, Record, RecordSource, check_generate, count_input_lines,
                      generate_records, parse_fixed_hands, read_records)
from .runner import KEEP_BAD, BatchReport, auto_executor, check_analyses, default_chunk_size, run_batch
from .summary import Summary
from .writers import (FORMATS, CsvWriter, JsonlWriter, NpzWriter, ParquetWriter, Writer, check_new_file, check_output, open_writer,
                      run_options)
from .where import MAX_TRIES, WhereBudgetError, check_max_tries, WhereTally, default_max_tries, filter_records, generate_where

__all__ = [
    "BatchError", "Record", "BadLine", "read_records", "generate_records", "parse_fixed_hands",
    "count_input_lines", "ChunkTask", "ChunkResult", "solve_table_chunk", "Summary", "open_writer", "Writer",
    "JsonlWriter", "CsvWriter", "NpzWriter", "ParquetWriter", "run_batch", "BatchReport", "FORMATS", "SCHEMA",
    "GEN_BLOCK", "default_jobs", "batch_tt_bits", "default_chunk_size", "check_output", "check_new_file", "check_run_options", "EXECUTORS",
    "check_analyses", "check_generate", "MAX_GENERATE", "KEEP_BAD", "load", "Layout", "auto_executor", "RecordSource",
    "DEALER_MODES", "WhereBudgetError", "WhereTally", "default_max_tries", "filter_records", "generate_where",
    "ResultFileError", "OutputLock", "check_distinct_files", "run_options", "MAX_TRIES", "check_max_tries",
]
