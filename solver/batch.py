"""Batch evaluation: the DD table (and optionally the lone table and par) of many deals.

The pipeline (issue 5):

- **Input**: :func:`read_records` reads a file or stdin, one deal a line, either PBN-style
  (``N:<hand> <hand> <hand> <hand>``, RULES.md §4) or a JSON object with a ``deal`` key (an
  ``id`` key names the deal, a ``dealer`` key sets its dealer, every other key is carried
  through to the output).  :func:`generate_records` makes uniform random deals of a deck form
  from a seed: deal *i* depends only on the seed and *i* (blocks of :data:`GEN_BLOCK` deals, each
  from its own ``numpy`` generator seeded with ``(seed, block)``), so the same seed gives the
  same deals whatever the number of workers or the chunk size.
- **Work**: :func:`solve_chunk` solves a chunk of deals in one call of the Cython core
  (``bideuchre.search._search.solve_tables``, which runs without the GIL), then turns the core's NS
  tricks into declaring-side tables with :func:`bideuchre.search.solve.table_from_ns`, exactly as
  :func:`bideuchre.search.solve.dd_table` does.  Chunks run on a thread pool (default: the core releases
  the GIL, so threads scale and nothing is pickled), a process pool, or a Dask cluster.
- **Output**: :class:`JsonlWriter`, :class:`CsvWriter`, :class:`NpzWriter` write each chunk as
  soon as it (and every chunk before it) is done: JSON lines and CSV rows are appended, flushed
  and fsynced per chunk; ``.npz`` output writes one part file per chunk into ``OUTPUT.parts/``
  (atomically: temporary file, fsync, rename) and assembles them into ``OUTPUT`` at the end.
  Results appear in input order whatever the number of workers.
- **Resume**: a writer opened with ``resume=True`` reads what is already there (dropping a
  partial last line left by a killed process), reports the ids done, and appends the rest.
- **Summary**: :class:`Summary` accumulates fixed-size counts (per strain the DD trick
  distribution, the best strain, make rates by bid level, par contracts) in constant memory.

The single entry point is :func:`run_batch`; ``bideuchre batch`` (cli/batch_cmd.py) is a thin
face over it.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import sys
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

import numpy as np

from .search import _search
from .notation import Deal, counted, parse_hand
from .rules import (
    BidEuchreError, DeckForm, NotationError, Preset, Seat, get_deck, get_preset,
    parse_seat,
)
from .search.solve import table_from_ns, table_leaders, tt_bits_for

__all__ = [
    "BatchError", "Record", "BadLine", "read_records", "generate_records", "parse_fixed_hands",
    "count_input_lines", "ChunkTask", "ChunkResult", "solve_chunk", "Summary", "open_writer", "Writer",
    "JsonlWriter", "CsvWriter", "NpzWriter", "run_batch", "BatchReport", "FORMATS", "SCHEMA",
    "GEN_BLOCK", "default_jobs", "batch_tt_bits",
]

SCHEMA = 1            # the schema version of ``bideuchre solve --json`` (cli/common.py)
GEN_BLOCK = 1024      # generated deals per random stream (fixed: deals do not depend on jobs)
FORMATS = ("jsonl", "csv", "npz")
_RESERVED = ("schema", "id", "deal", "preset", "dealer", "deck", "table", "alone", "par")


class BatchError(BidEuchreError):
    """Bad batch input or options: a malformed line under ``strict``, an output that exists
    without ``resume``/``overwrite``, an output that cannot be resumed."""


def default_jobs() -> int:
    """The number of CPU cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


# ---------------------------------------------------------------------------------------------
# Input

@dataclass
class Record:
    """One deal to solve.  ``seq`` is its 0-based position in the input stream (the output
    keeps input order), ``id`` the input's ``id`` or the 1-based line number (generated deals:
    the 1-based index), ``extra`` the input keys carried through to the output."""

    seq: int
    id: int | str
    deal: Deal
    extra: dict = field(default_factory=dict)


@dataclass
class BadLine:
    """A malformed input line: its 1-based number, the error, the text."""

    lineno: int
    message: str
    text: str = ""

    def __str__(self) -> str:
        return f"line {self.lineno}: {self.message}"


def _lines(source) -> Iterator[tuple[int, str]]:
    """(line number, stripped text) of the non-blank, non-comment (``#``) lines of a path,
    ``-`` (stdin) or an open text file."""
    if isinstance(source, (str, os.PathLike)):
        if str(source) == "-":
            yield from _lines(sys.stdin)
            return
        with open(source, encoding="utf-8") as fh:
            yield from _lines(fh)
        return
    for i, line in enumerate(source, 1):
        text = line.strip()
        if text and not text.startswith("#"):
            yield i, text


def check_output(path, resume: bool, overwrite: bool = False) -> None:
    """Raise BatchError for an output that is a directory, ``--resume`` with ``--overwrite``,
    or ``--resume`` without an output file (stdout cannot be resumed)."""
    if path not in (None, "-") and os.path.isdir(path):
        raise BatchError(f"output {str(path)!r} is a directory; give a file name")
    if resume and overwrite:
        raise BatchError("give either --resume (finish the output) or --overwrite (start again)")
    if resume and path in (None, "-"):
        raise BatchError("--resume needs --output FILE (results on stdout cannot be resumed)")


def count_input_lines(source) -> int | None:
    """Number of deal lines (non-blank, non-comment) in a file, or None for stdin or another
    stream (a pipe named like ``/dev/stdin`` can be read only once)."""
    if not isinstance(source, (str, os.PathLike)) or str(source) == "-" or not os.path.isfile(source):
        return None
    n = 0
    with open(source, "rb") as fh:
        for line in fh:
            s = line.strip()
            if s and not s.startswith(b"#"):
                n += 1
    return n


def _parse_line(lineno: int, text: str, deck: DeckForm, dealer) -> Record:
    extra: dict = {}
    rid: int | str = lineno
    if text.startswith("{"):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise NotationError(f"cannot read JSON: {exc.msg} at column {exc.colno}") from None
        if not isinstance(obj, dict):
            raise NotationError("a JSON line must be an object with a 'deal' key")
        text = obj.pop("deal", None)
        if not isinstance(text, str):
            raise NotationError("a JSON line needs a 'deal' key holding 'N:<hand> <hand> <hand> <hand>'")
        if "id" in obj:
            rid = obj.pop("id")
            if isinstance(rid, bool) or not isinstance(rid, (int, str)):
                raise NotationError(f"id {rid!r} must be a string or an integer")
        if obj.get("dealer") is not None:
            dealer = obj.pop("dealer")
        extra = {k: v for k, v in obj.items() if k not in _RESERVED}
    return Record(lineno - 1, rid, Deal.from_pbn(text, deck, dealer), extra)


def read_records(source, deck: DeckForm | str = "single24",
                 dealer: int | str | None = None) -> Iterator[Record | BadLine]:
    """Read deals, one a line, from a path, ``-`` (stdin) or an open text file.

    A line is a PBN-style deal (RULES.md §4) or a JSON object with a ``deal`` key (``id`` and
    ``dealer`` keys are used, other keys carried through).  Blank lines and lines starting with
    ``#`` are skipped.  Yields a :class:`Record` per good line and a :class:`BadLine` (with its
    line number and the error) per malformed one, including a repeated explicit ``id`` (the
    set of explicit ids is the only thing kept per line); never raises for a bad line.
    ``dealer`` is the default dealer (else the seat named before the colon).
    """
    deck = get_deck(deck)
    named: dict[str, int] = {}     # explicit ids -> line: an id must name one deal only
    for lineno, text in _lines(source):
        try:
            rec = _parse_line(lineno, text, deck, dealer)
        except (BidEuchreError, ValueError) as exc:
            yield BadLine(lineno, " ".join(str(exc).split()), text)
            continue
        if rec.id != lineno:
            key = str(rec.id)
            if key in named:
                yield BadLine(lineno, f"id {rec.id!r} repeats the id of line {named[key]}", text)
                continue
            named[key] = lineno
        yield rec


def parse_fixed_hands(specs: Sequence[str], deck: DeckForm | str) -> dict[Seat, list[int]]:
    """Read ``SEAT=HAND`` specs (``N=AJ.KQ..JT``) into {seat: cards}.

    Each hand must hold exactly a full hand of ``deck`` and no card more often than the deck
    has it (across all the fixed hands).  Raises NotationError naming the spec.
    """
    deck = get_deck(deck)
    fixed: dict[Seat, list[int]] = {}
    used: Counter = Counter()
    allowed = set(deck.card_ids)
    for spec in specs:
        seat_text, sep, hand_text = spec.partition("=")
        if not sep:
            raise NotationError(f"cannot read --hand {spec!r}: expected SEAT=HAND, like N=AJ.KQ..JT")
        seat = parse_seat(seat_text.strip())
        if seat in fixed:
            raise NotationError(f"--hand {spec!r}: seat {seat.name} is fixed twice")
        cards = parse_hand(hand_text, where=f"hand {seat.name}")
        if len(cards) != deck.hand:
            raise NotationError(f"--hand {spec!r} holds {counted(len(cards), 'card')}; {deck.name} deals {deck.hand}")
        for c in cards:
            if c not in allowed:
                raise NotationError(f"--hand {spec!r}: card {c} is not in the {deck.name} deck")
            used[c] += 1
            if used[c] > deck.copies:
                raise NotationError(f"--hand {spec!r}: card {c} is fixed more often than the {deck.name} deck holds it")
        fixed[seat] = [int(c) for c in cards]
    return fixed


def generate_records(n: int, seed: int, deck: DeckForm | str = "single24",
                     fixed: dict[Seat, list[int]] | None = None,
                     dealer: int | str | None = None, start: int = 0) -> Iterator[Record]:
    """Uniform random deals of ``deck`` (the whole deck dealt), ids ``start+1 .. n``.

    Deal *i* is a function of ``(seed, i)`` only: deals come in blocks of :data:`GEN_BLOCK`,
    block *b* shuffled by ``numpy.random.default_rng([seed, b])``, so the same seed gives the
    same deals whatever the number of workers, the chunk size or ``start``.  ``fixed`` gives
    seats whose hands are fixed (:func:`parse_fixed_hands`); the other seats get the rest of the
    deck uniformly.  Each record carries ``{"seed": seed}``.
    """
    deck = get_deck(deck)
    fixed = dict(fixed or {})
    if n < 0 or seed < 0:
        raise BatchError("--generate and --seed must not be negative")
    pack = Counter({c: deck.copies for c in deck.card_ids})
    for cards in fixed.values():
        pack.subtract(cards)
    rest = np.array(sorted(pack.elements()), dtype=np.int8)
    free = [s for s in Seat if s not in fixed]
    h = deck.hand
    i = start
    while i < n:
        b = i // GEN_BLOCK
        rng = np.random.default_rng([seed, b])
        rows = rng.permuted(np.tile(rest, (GEN_BLOCK, 1)), axis=1)
        for j in range(i - b * GEN_BLOCK, min(GEN_BLOCK, n - b * GEN_BLOCK)):
            hands: list = [None] * 4
            for s, cards in fixed.items():
                hands[s] = cards
            row = rows[j].tolist()
            for k, s in enumerate(free):
                hands[s] = row[k * h:(k + 1) * h]
            yield Record(i, i + 1, Deal(hands, deck, dealer), {"seed": seed})
            i += 1


# ---------------------------------------------------------------------------------------------
# Work (runs in a worker thread, process or Dask worker)

def batch_tt_bits(deck: DeckForm | str) -> int:
    """Transposition-table size (log2 entries) for one chunk's solver: an eighth of
    :func:`bideuchre.search.solve.tt_bits_for`, at least 2**12.  Whole-deal tables solved one after the
    other need few entries, and a table that stays in the CPU cache is faster: measured on
    1,000 real single24 deals (racehorse), CPU seconds 1.13-1.35 with 2**13 entries against
    1.37-1.45 with 2**16; on 100 double32 deals 2.24-2.30 with 2**14 against 2.51-2.67 with 2**18.
    Only speed depends on it: results are exact with any size."""
    return max(12, tt_bits_for(deck) - 3)


@dataclass
class ChunkTask:
    """What a worker needs to solve one chunk: card counts ``(n, 4, 24)`` uint8, dealers
    ``(n,)``, tricks per hand ``(n,)``, and (for ``alone``/``par``) the deals as PBN text."""

    index: int
    preset: Preset
    deck: DeckForm
    counts: np.ndarray
    dealers: np.ndarray
    totals: np.ndarray
    pbns: list[str] | None = None
    alone: bool = False
    par: bool = False
    tt_bits: int = 16


@dataclass
class ChunkResult:
    """A solved chunk: ``tables`` ``(n, 4 declarers, strains)`` int8 declaring-side tricks, and
    per deal the lone-table and par JSON when asked; ``seconds`` of worker time."""

    index: int
    tables: np.ndarray
    alone: list | None = None
    par: list | None = None
    seconds: float = 0.0


def _sub_json(obj: dict) -> dict:
    """A lone/par JSON without the keys the batch line already has (deal, preset, dealer, deck,
    and par's ``dd``, which is the line's ``table``)."""
    return {k: v for k, v in obj.items() if k not in ("schema", "deal", "preset", "dealer", "deck", "dd")}


def solve_chunk(task: ChunkTask) -> ChunkResult:
    """Solve one chunk: the DD table of every deal (one call of the core, without the GIL),
    and with ``task.alone`` / ``task.par`` the lone table (``bideuchre.analysis.lone.lone_table``) and the
    par result (``bideuchre.analysis.par.par``) of each.

    Tables follow :func:`bideuchre.search.solve.dd_table` exactly (first lead by the preset's rule,
    RULES.md §2).  A lone or par computation that raises a BidEuchreError gives
    ``{"error": message}`` for that deal.  Raises BatchError if ``bideuchre.analysis.lone`` /
    ``bideuchre.analysis.par`` is missing.
    """
    t0 = time.perf_counter()
    preset = task.preset
    n = len(task.counts)
    strains = np.array([int(s) for s in preset.strains], dtype=np.intc)
    lead_rows = {d: table_leaders(preset, d) for d in range(4)}
    leaders = np.array([lead_rows[int(d)] for d in task.dealers], dtype=np.intc).reshape(n, 4)
    counts = np.ascontiguousarray(task.counts, dtype=np.uint8)
    ns = _search.solve_tables(counts, strains, leaders, -1, task.tt_bits)
    tables = np.empty((n, 4, len(strains)), dtype=np.int8)
    for i in range(n):
        tables[i] = table_from_ns(ns[i], preset, int(task.dealers[i]), int(task.totals[i]))
    alone = par = None
    if task.alone or task.par:
        from .search.solve import DDTable
        lone_table = _optional("bideuchre.analysis.lone", "lone_table", "--alone") if task.alone else None
        par_fn = _optional("bideuchre.analysis.par", "par", "--par") if task.par else None
        alone = [] if task.alone else None
        par = [] if task.par else None
        for i, (pbn, dealer) in enumerate(zip(task.pbns, task.dealers)):
            deal = Deal.from_pbn(pbn, task.deck, int(dealer))
            lone = None
            if lone_table is not None:
                try:
                    lt = lone_table(deal, preset, deal.dealer)
                    alone.append(_sub_json(lt.to_json()))
                    lone = {(seat, r.bid, st): int(r.tricks) for seat in lt.seats
                            for st in lt.strains for r in lt.results[seat][st]}
                except BidEuchreError as exc:
                    alone.append({"error": " ".join(str(exc).split())})
            if par_fn is not None:
                # the DD table (and lone tricks) just solved are handed to par, not solved again
                dd = DDTable(deal, preset, deal.dealer, tuple(preset.strains),
                             {seat: {st: int(tables[i, seat, j]) for j, st in enumerate(preset.strains)}
                              for seat in Seat})
                par.append(_safe(lambda: _sub_json(par_fn(deal, preset, deal.dealer, dd=dd, lone=lone).to_json())))
    return ChunkResult(task.index, tables, alone, par, time.perf_counter() - t0)


def _optional(module: str, name: str, flag: str):
    import importlib
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        raise BatchError(f"{flag} needs {module}, which is not installed in this build") from None
    return getattr(mod, name)


def _safe(fn) -> dict:
    try:
        return fn()
    except BidEuchreError as exc:
        return {"error": " ".join(str(exc).split())}


# ---------------------------------------------------------------------------------------------
# Chunks on the main side

class _Chunk:
    """The main side of a chunk: what the writers need besides the result."""

    __slots__ = ("index", "seqs", "ids", "pbns", "dealers", "extras", "cards", "counts", "totals")

    def __init__(self, index: int, records: list[Record], deck: DeckForm):
        self.index = index
        self.seqs = np.array([r.seq for r in records], dtype=np.int64)
        self.ids = [r.id for r in records]
        self.pbns = [r.deal.pbn() for r in records]
        self.dealers = np.array([int(r.deal.dealer) for r in records], dtype=np.int8)
        self.extras = [r.extra for r in records]
        self.counts = np.array([r.deal.counts() for r in records], dtype=np.uint8).reshape(-1, 4, 24)
        self.totals = np.array([len(r.deal.hands[0]) for r in records], dtype=np.int16)
        cards = np.full((len(records), deck.cards), -1, dtype=np.int8)
        for i, r in enumerate(records):
            flat = [c for h in r.deal.hands for c in h]
            cards[i, :len(flat)] = flat
        self.cards = cards

    def __len__(self) -> int:
        return len(self.ids)


# ---------------------------------------------------------------------------------------------
# Summary

class Summary:
    """Counts over the solved deals, in constant memory (RULES.md §3 terms).

    Over every (deal, declarer seat) pair: per strain the distribution of the declaring side's
    DD tricks (``hist[strain, tricks]``), the share of pairs where the strain is the best one
    for the declaring side (ties split equally), the distribution of the best strain's tricks;
    make rates by bid level follow (a bid of *b* makes when the DD tricks are ≥ *b*).  Per deal
    and strain also the tricks of the best declarer seat (``top_seat_mean``): in ``standard`` the
    first lead does not depend on the declarer, so the two sides' rows always add up to the
    tricks of a hand and the mean over all four rows is half of them; the best seat's mean says
    how much the stronger side takes.  With par results, the par contracts by frequency.
    """

    def __init__(self, preset: Preset, deck: DeckForm | None = None):
        self.preset = preset
        self.deck = deck or preset.deck
        self.strains = tuple(preset.strains)
        self.tricks = self.deck.hand
        self.deals = 0
        self.hist = np.zeros((len(self.strains), self.tricks + 1), dtype=np.int64)
        self.best_share = np.zeros(len(self.strains), dtype=np.float64)
        self.best_hist = np.zeros(self.tricks + 1, dtype=np.int64)
        self.top_seat = np.zeros(len(self.strains), dtype=np.int64)
        self.par = Counter()
        self.par_contract = Counter()
        self.par_deals = 0
        self._lone_names = tuple(b.name for b in preset.lone_bids)
        self.bad_lines = 0

    def add(self, tables: np.ndarray, par: Sequence[dict] | None = None) -> None:
        """Add ``tables`` ``(n, 4, strains)`` tricks, and per deal a par JSON if given."""
        t = np.asarray(tables, dtype=np.int64).reshape(-1, len(self.strains))
        if not len(t):
            return
        self.deals += len(t) // 4
        for j in range(len(self.strains)):
            self.hist[j] += np.bincount(t[:, j], minlength=self.tricks + 1)[: self.tricks + 1]
        best = t.max(axis=1)
        is_best = t == best[:, None]
        self.best_share += (is_best / is_best.sum(axis=1, keepdims=True)).sum(axis=0)
        self.best_hist += np.bincount(best, minlength=self.tricks + 1)[: self.tricks + 1]
        self.top_seat += t.reshape(-1, 4, len(self.strains)).max(axis=1).sum(axis=0)
        if par is not None:
            for p in par:
                full, short = _par_label(p, self._lone_names)
                self.par_deals += 1
                self.par[full] += 1
                self.par_contract[short] += 1

    def to_json(self) -> dict:
        """The same numbers as the rich tables: ``{"deals", "strains": {S: {"mean",
        "top_seat_mean", "distribution", "best_share"}}, "best_strain": {"mean", "distribution"},
        "make_rates": {level: {S: rate, ..., "best": rate}}, "par_contracts": {"deals",
        "frequency": {"4 NT by W": n, ...}, "by_contract": {"4 NT": n, ...}}}`` (par only
        when par results were added).
        Rates and shares are fractions of (deal, declarer seat) pairs."""
        rows = max(1, self.deals * 4)
        strains = {}
        for j, st in enumerate(self.strains):
            h = self.hist[j]
            strains[st.name] = {
                "mean": round(float((h * np.arange(len(h))).sum() / rows), 4),
                "top_seat_mean": round(float(self.top_seat[j] / max(1, self.deals)), 4),
                "distribution": {str(k): int(v) for k, v in enumerate(h)},
                "best_share": round(float(self.best_share[j] / rows), 4)}
        make = {}
        for b in range(self.preset.min_bid, min(self.preset.top_bid, self.tricks) + 1):
            row = {st.name: round(float(self.hist[j, b:].sum() / rows), 4) for j, st in enumerate(self.strains)}
            row["best"] = round(float(self.best_hist[b:].sum() / rows), 4)
            make[str(b)] = row
        obj = {"schema": SCHEMA, "preset": self.preset.name, "deck": self.deck.name,
               "deals": self.deals, "declarer_rows": self.deals * 4, "bad_lines": self.bad_lines,
               "strains": strains,
               "best_strain": {"mean": round(float((self.best_hist * np.arange(self.tricks + 1)).sum() / rows), 4),
                               "distribution": {str(k): int(v) for k, v in enumerate(self.best_hist)}},
               "make_rates": make}
        if self.par_deals:
            obj["par_contracts"] = {"deals": self.par_deals,
                                    "frequency": dict(self.par.most_common()),
                                    "by_contract": dict(self.par_contract.most_common())}
        return obj


def _par_label(p: dict | None, lone_names=()) -> tuple[str, str]:
    """Labels of a par result JSON (``{"par": contract or None, ...}``): with and without the
    declarer, like ``("4 NT by W", "4 NT")`` or ``("lone 12 S by E", "lone 12 S")``; a hand
    thrown in is ``"thrown in"``."""
    if not isinstance(p, dict) or "error" in p:
        return "error", "error"
    c = p.get("par")
    if c is None:
        return "thrown in", "thrown in"
    bid, strain = str(c.get("bid", "?")), str(c.get("strain", "?"))
    what = f"lone {bid} {strain}" if bid in lone_names else f"{bid} {strain}"
    return f"{what} by {c.get('declarer', '?')}", what


# ---------------------------------------------------------------------------------------------
# Writers

def _table_obj(row: np.ndarray, strains) -> dict:
    return {seat.name: {st.name: int(row[seat, j]) for j, st in enumerate(strains)} for seat in Seat}


def _fsync(fh) -> None:
    fh.flush()
    try:
        os.fsync(fh.fileno())
    except (OSError, io.UnsupportedOperation, ValueError):
        pass   # stdout to a pipe or terminal: nothing to sync


def _drop_partial_tail(path: Path) -> int:
    """Cut a file back to its last newline (a line half-written by a killed run); returns the
    bytes dropped."""
    size = path.stat().st_size
    if size == 0:
        return 0
    with open(path, "rb+") as fh:
        pos = size
        step = 65536
        while pos > 0:
            start = max(0, pos - step)
            fh.seek(start)
            buf = fh.read(pos - start)
            k = buf.rfind(b"\n")
            if k >= 0:
                keep = start + k + 1
                break
            pos = start
        else:
            keep = 0
        if keep < size:
            fh.truncate(keep)
            fh.flush()
            os.fsync(fh.fileno())
        return size - keep


class Writer:
    """Base of the output writers.  ``done`` holds the ids (as ``str``) already in the output
    when resuming; ``write(chunk, result)`` appends one chunk durably; ``close()`` finishes."""

    fmt = ""

    def __init__(self, path, preset: Preset, deck: DeckForm, *, alone: bool = False,
                 par: bool = False, resume: bool = False, overwrite: bool = False,
                 summary: Summary | None = None):
        self.path = None if path in (None, "-") else Path(path)
        self.preset, self.deck = preset, deck
        self.strains = tuple(preset.strains)
        self.alone, self.par = alone, par
        self.summary = summary
        self.done: set[str] = set()
        self.done_deals: dict[str, tuple] = {}      # id -> the deal as written (see _stored)
        self.written = 0
        check_output(path, resume, overwrite)
        if self.path is not None and resume:
            self._resume()
        elif self.path is not None and self._exists():
            if not overwrite:
                raise BatchError(f"output {str(self.path)!r} exists; rerun with --resume to finish it "
                                 f"or --overwrite to start again")
            self._remove()

    def _exists(self) -> bool:
        """Whether the output holds anything (an empty file, as a failed start leaves, does
        not count)."""
        return self.path.exists() and (not self.path.is_file() or self.path.stat().st_size > 0)

    def _remove(self) -> None:
        self.path.unlink()

    def _resume(self) -> None:
        raise NotImplementedError

    def _check_same(self, preset: str, deck: str, where: str) -> None:
        if (preset, deck) != (self.preset.name, self.deck.name):
            raise BatchError(f"cannot resume {str(self.path)!r}: {where} was solved with preset {preset} "
                             f"and deck {deck}, not {self.preset.name} and {self.deck.name}")

    def check_first(self, rec: "Record") -> None:
        """Raise BatchError unless the input's first good deal is the output's: chunks are
        written in input order, so an output to resume holds a prefix of its input.  Checked
        before anything is solved, so a wrong input is refused with nothing written."""
        if self.done and str(rec.id) not in self.done:
            raise BatchError(f"cannot resume {str(self.path)!r}: it does not start with this input's first "
                             f"deal (id {rec.id!r}); was it started from another input or --seed?")

    def check_done(self, rec: "Record") -> None:
        """Raise BatchError if ``rec``'s id is in the output with another deal (hands or
        dealer): the output was started from another input (or another ``--seed``), and
        resuming would mix the two."""
        key = str(rec.id)
        stored = self.done_deals.get(key)
        if stored is None or stored == self._stored(rec.deal):     # as this run would write it
            return
        have = self._stored_deal(stored)
        if have is not None and have != rec.deal:        # hands and dealer, whatever seat first
            raise BatchError(f"cannot resume {str(self.path)!r}: it holds id {key!r} with another deal "
                             f"or dealer than this input's (was it started from another input or --seed?)")

    def _stored(self, deal: Deal) -> tuple:
        """A deal as a text output stores it: (deal text, dealer name).  Resume keeps these
        and reads one back into a Deal only when it differs from the input's."""
        return deal.pbn(), deal.dealer.name

    def _stored_deal(self, stored: tuple) -> Deal | None:
        """The Deal of a stored form (None if it cannot be read)."""
        try:
            return Deal.from_pbn(stored[0], self.deck, stored[1])
        except (BidEuchreError, TypeError, ValueError):
            return None

    def _seen(self, rid, table: np.ndarray | None, par, deal: tuple | None = None) -> None:
        key = str(rid)
        if key in self.done:
            raise BatchError(f"output {str(self.path)!r} holds id {key!r} twice; cannot resume it")
        self.done.add(key)
        if deal is not None:
            self.done_deals[key] = deal
        if self.summary is not None and table is not None:
            self.summary.add(table[None], None if par is None else [par])

    def write(self, chunk: _Chunk, result: ChunkResult) -> None:
        raise NotImplementedError

    def close(self, complete: bool = True) -> None:
        pass


class _TextWriter(Writer):
    """A writer appending text to ``self.fh`` (a file, or stdout which is only flushed)."""

    def close(self, complete: bool = True) -> None:
        if self.fh is not sys.stdout:
            self.fh.close()
        else:
            self.fh.flush()


class JsonlWriter(_TextWriter):
    """One JSON object a line per deal: ``{"id", <carried keys>, "schema", "deal", "preset",
    "dealer", "deck", "table"[, "alone"][, "par"]}`` — the keys of ``bideuchre solve --json``
    plus ``id``.  Appended, flushed and fsynced per chunk."""

    fmt = "jsonl"

    def __init__(self, path, *args, **kw):
        super().__init__(path, *args, **kw)
        self.fh = sys.stdout if self.path is None else open(self.path, "a", encoding="utf-8")

    def _resume(self) -> None:
        if not self.path.exists():
            return
        _drop_partial_tail(self.path)
        with open(self.path, encoding="utf-8") as fh:
            for lineno, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line)
                    rid = obj["id"]
                    self._check_same(obj["preset"], obj["deck"], f"line {lineno}")
                    table = np.array([[obj["table"][s.name][st.name] for st in self.strains] for s in Seat],
                                     dtype=np.int8)
                except (json.JSONDecodeError, KeyError, TypeError) as exc:
                    raise BatchError(f"cannot resume {str(self.path)!r}: line {lineno} is not a result "
                                     f"of this command ({type(exc).__name__}: {exc})") from None
                self._seen(rid, table, obj.get("par"), (obj.get("deal"), obj.get("dealer")))

    def write(self, chunk: _Chunk, result: ChunkResult) -> None:
        strains = self.strains
        pname, dname = self.preset.name, self.deck.name
        lines = []
        for i in range(len(chunk)):
            obj = {"id": chunk.ids[i]}
            obj.update(chunk.extras[i])
            obj.update({"schema": SCHEMA, "deal": chunk.pbns[i], "preset": pname,
                        "dealer": Seat(int(chunk.dealers[i])).name, "deck": dname,
                        "table": _table_obj(result.tables[i], strains)})
            if result.alone is not None:
                obj["alone"] = result.alone[i]
            if result.par is not None:
                obj["par"] = result.par[i]
            lines.append(json.dumps(obj, ensure_ascii=False))
        self.fh.write("\n".join(lines) + "\n")
        _fsync(self.fh)
        self.written += len(chunk)

class CsvWriter(_TextWriter):
    """CSV with a header: ``id, deal, preset, dealer, deck``, one column per declarer × strain
    (``N_S`` … ``W_NTL``: declaring-side DD tricks), then ``alone`` / ``par`` (JSON) when asked
    and ``extra`` (the carried input keys as JSON).  Appended, flushed and fsynced per chunk."""

    fmt = "csv"

    def __init__(self, path, *args, **kw):
        super().__init__(path, *args, **kw)
        self.columns = (["id", "deal", "preset", "dealer", "deck"]
                        + [f"{s.name}_{st.name}" for s in Seat for st in self.strains]
                        + (["alone"] if self.alone else []) + (["par"] if self.par else []) + ["extra"])
        new = self.path is None or not self.path.exists() or self.path.stat().st_size == 0
        self.fh = sys.stdout if self.path is None else open(self.path, "a", encoding="utf-8", newline="")
        if new:
            self.fh.write(self._rows([self.columns]))
            _fsync(self.fh)

    @staticmethod
    def _rows(rows) -> str:
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(rows)
        return buf.getvalue()

    def _resume(self) -> None:
        if not self.path.exists():
            return
        _drop_partial_tail(self.path)
        with open(self.path, encoding="utf-8", newline="") as fh:
            reader = csv.reader(fh)
            header = next(reader, None)
            if header is None:
                return
            want = ["id", "deal", "preset", "dealer", "deck"] + [f"{s.name}_{st.name}" for s in Seat for st in self.strains]
            if header[:len(want)] != want:
                raise BatchError(f"cannot resume {str(self.path)!r}: its columns are not this command's")
            ntab = 4 * len(self.strains)
            par_col = header.index("par") if "par" in header else None
            for row in reader:
                if not row:
                    continue
                try:
                    self._check_same(row[2], row[4], f"line {reader.line_num}")
                    table = np.array(row[5:5 + ntab], dtype=np.int8).reshape(4, len(self.strains))
                    par = json.loads(row[par_col]) if par_col is not None else None
                except (ValueError, IndexError) as exc:
                    raise BatchError(f"cannot resume {str(self.path)!r}: line {reader.line_num}: {exc}") from None
                self._seen(row[0], table, par, (row[1], row[3]))

    def write(self, chunk: _Chunk, result: ChunkResult) -> None:
        rows = []
        pname, dname = self.preset.name, self.deck.name
        for i in range(len(chunk)):
            row = [chunk.ids[i], chunk.pbns[i], pname, Seat(int(chunk.dealers[i])).name, dname]
            row += result.tables[i].reshape(-1).tolist()
            if self.alone:
                row.append(json.dumps(result.alone[i], ensure_ascii=False))
            if self.par:
                row.append(json.dumps(result.par[i], ensure_ascii=False))
            row.append(json.dumps(chunk.extras[i], ensure_ascii=False) if chunk.extras[i] else "")
            rows.append(row)
        self.fh.write(self._rows(rows))
        _fsync(self.fh)
        self.written += len(chunk)

class NpzWriter(Writer):
    """NumPy ``.npz`` of arrays: ``ids`` (str), ``seq`` (input order), ``deals`` ``(n, cards)``
    int8 card ids (N's hand, then E, S, W; -1 pads a partial deal), ``dealer`` ``(n,)`` int8,
    ``tables`` ``(n, 4 declarers, strains)`` int8, ``strains`` / ``seats`` (names), ``preset``,
    ``deck``; ``alone`` / ``par`` / ``extra`` as JSON text per deal when present.

    Durability: each chunk is written as its own part file ``OUTPUT.parts/part-RRRR-CCCCCC.npz``
    (``RRRR`` the run, ``CCCCCC`` the chunk) through a temporary file, fsync and an atomic
    rename, so a killed run leaves only whole parts.  ``close()`` assembles every part, in
    input order, into ``OUTPUT`` (again atomically) and removes the parts.  Resuming reads a
    finished ``OUTPUT`` where it is and moves it into the parts directory only when the run
    writes its first part (or assembles), so nothing is ever deleted before it is written
    again, and a resume refused before any work leaves ``OUTPUT`` as it was.
    """

    fmt = "npz"

    def __init__(self, path, *args, **kw):
        if path in (None, "-"):
            raise BatchError("--format npz needs --output FILE")
        self.parts = Path(str(path) + ".parts")
        self._finished_output = False       # a finished OUTPUT being resumed, not yet a part
        super().__init__(path, *args, **kw)
        self.parts.mkdir(parents=True, exist_ok=True)
        runs = [int(m.group(1)) for p in self.parts.glob("part-*.npz")
                if (m := re.match(r"part-(\d+)-", p.name))]
        self.run = max(runs, default=0) + 1

    def _exists(self) -> bool:
        return super()._exists() or (self.parts.exists() and any(self.parts.iterdir()))

    def _remove(self) -> None:
        if self.path.exists():
            self.path.unlink()
        if self.parts.exists():
            shutil.rmtree(self.parts)

    def _resume(self) -> None:
        sources = []
        if self.path.exists():
            self._finished_output = True
            sources.append(self.path)
        if self.parts.exists():
            for tmp in self.parts.glob("*.tmp"):
                tmp.unlink()
            sources += sorted(self.parts.glob("part-*.npz"))
        for part in sources:
            with np.load(part) as z:
                self._check_same(str(z["preset"]), str(z["deck"]), f"part {part.name}")
                # each array read once (an NpzFile reads the array again on every z[key])
                ids, tables, deals, dealers = z["ids"], z["tables"], z["deals"], z["dealer"]
                par = z["par"] if "par" in z.files else None
                for k, rid in enumerate(ids):
                    self._seen(str(rid), tables[k], None if par is None else json.loads(par[k]),
                               (tuple(int(c) for c in deals[k] if c >= 0), int(dealers[k])))

    def _stored(self, deal: Deal) -> tuple:
        """A deal as the npz output stores it: (card ids hand after hand, dealer)."""
        return tuple(c for h in deal.hands for c in h), int(deal.dealer)

    def _stored_deal(self, stored: tuple) -> Deal | None:
        cards, dealer = stored
        n = len(cards) // 4
        try:
            return Deal([list(cards[i * n:(i + 1) * n]) for i in range(4)], self.deck, dealer)
        except (BidEuchreError, TypeError, ValueError):
            return None

    def _keep_finished_output(self) -> None:
        """Move a resumed finished OUTPUT into the parts (before anything replaces it)."""
        if self._finished_output:
            os.replace(self.path, self.parts / "part-0000-000000.npz")
            self._finished_output = False

    def write(self, chunk: _Chunk, result: ChunkResult) -> None:
        self._keep_finished_output()
        arrays = dict(ids=np.array([str(i) for i in chunk.ids]), seq=chunk.seqs, deals=chunk.cards,
                      dealer=chunk.dealers, tables=result.tables,
                      strains=np.array([st.name for st in self.strains]),
                      preset=np.array(self.preset.name), deck=np.array(self.deck.name))
        if result.alone is not None:
            arrays["alone"] = np.array([json.dumps(a, ensure_ascii=False) for a in result.alone])
        if result.par is not None:
            arrays["par"] = np.array([json.dumps(a, ensure_ascii=False) for a in result.par])
        arrays["extra"] = np.array([json.dumps(e, ensure_ascii=False) if e else "" for e in chunk.extras])
        name = self.parts / f"part-{self.run:04d}-{chunk.index:06d}.npz"
        _atomic_npz(name, arrays, compress=False)
        self.written += len(chunk)

    def close(self, complete: bool = True) -> None:
        if not complete:
            if self.parts.exists() and not any(self.parts.iterdir()):
                self.parts.rmdir()          # nothing written: no empty directory left behind
            return
        self._keep_finished_output()
        parts = sorted(self.parts.glob("part-*.npz"))
        keys = ("ids", "seq", "deals", "dealer", "tables", "alone", "par", "extra")
        cols: dict[str, list] = {k: [] for k in keys}
        for part in parts:
            with np.load(part) as z:
                for k in keys:
                    if k in z.files:
                        cols[k].append(z[k])
        n = sum(len(a) for a in cols["ids"])
        out = {}
        if n:
            order = np.argsort(np.concatenate(cols["seq"]), kind="stable")
            for k in keys:
                if cols[k] and len(cols[k]) == len(parts):
                    out[k] = np.concatenate(cols[k])[order]
        else:
            ns = len(self.strains)
            out = dict(ids=np.array([], dtype=str), seq=np.zeros(0, np.int64),
                       deals=np.zeros((0, self.deck.cards), np.int8), dealer=np.zeros(0, np.int8),
                       tables=np.zeros((0, 4, ns), np.int8))
        out.update(strains=np.array([st.name for st in self.strains]), seats=np.array([s.name for s in Seat]),
                   preset=np.array(self.preset.name), deck=np.array(self.deck.name),
                   schema=np.array(SCHEMA))
        _atomic_npz(self.path, out, compress=True)
        shutil.rmtree(self.parts)


def _atomic_npz(path: Path, arrays: dict, compress: bool) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as fh:
        (np.savez_compressed if compress else np.savez)(fh, **arrays)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    try:
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass


_WRITERS = {"jsonl": JsonlWriter, "csv": CsvWriter, "npz": NpzWriter}


def open_writer(fmt: str | None, path, preset: Preset | str, deck: DeckForm | str | None = None, *,
                alone: bool = False, par: bool = False, resume: bool = False,
                overwrite: bool = False, summary: Summary | None = None) -> Writer:
    """A writer for ``fmt`` (``jsonl``, ``csv`` or ``npz``; None: from the file name, default
    ``jsonl``) at ``path`` (None or ``-``: stdout, not for npz).  With ``resume`` the ids
    already in the output are in ``writer.done`` (and their tables in ``summary``).  Raises
    BatchError for an unknown format, an existing output without ``resume``/``overwrite``, or
    an output that cannot be resumed."""
    preset = get_preset(preset)
    deck = preset.deck if deck is None else get_deck(deck)
    if fmt is None:
        suffix = "" if path in (None, "-") else Path(path).suffix.lower().lstrip(".")
        fmt = suffix if suffix in FORMATS else "jsonl"
    fmt = fmt.lower()
    if fmt not in _WRITERS:
        raise BatchError(f"unknown format {fmt!r} (expected one of: {' '.join(FORMATS)})")
    return _WRITERS[fmt](path, preset, deck, alone=alone, par=par, resume=resume,
                         overwrite=overwrite, summary=summary)


# ---------------------------------------------------------------------------------------------
# Executors

class _Pool:
    """Thread, process or Dask execution behind one ``submit(fn, arg) -> future`` face."""

    def __init__(self, kind: str, jobs: int, dask=None, dask_processes: bool = True):
        self.kind, self.jobs = kind, jobs
        self._cluster = self._client = self._pool = None
        if kind == "dask":
            try:
                from distributed import Client, LocalCluster
            except ImportError:
                raise BatchError("--dask needs the distributed extra: pip install 'bideuchre[distributed]'") from None
            if isinstance(dask, Client):
                self._client = dask
                self._own_client = False
            else:
                if dask in (None, "local"):
                    self._cluster = LocalCluster(n_workers=jobs if dask_processes else 1,
                                                 threads_per_worker=1 if dask_processes else jobs,
                                                 processes=dask_processes, dashboard_address=None)
                    self._client = Client(self._cluster)
                else:
                    self._client = Client(dask, timeout="30s")
                self._own_client = True
            threads = sum(self._client.nthreads().values())
            self.jobs = max(1, threads)
        elif kind == "process":
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor
            self._pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"))
        elif kind == "thread":
            from concurrent.futures import ThreadPoolExecutor
            self._pool = ThreadPoolExecutor(jobs, thread_name_prefix="bideuchre-batch")
        else:
            raise BatchError(f"unknown executor {kind!r} (expected thread, process or dask)")

    def submit(self, fn, arg):
        if self._client is not None:
            return self._client.submit(fn, arg, pure=False)
        return self._pool.submit(fn, arg)

    def close(self, cancel: bool = False) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=cancel)
        if self._client is not None and self._own_client:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()


# ---------------------------------------------------------------------------------------------
# The run

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


EXECUTORS = ("auto", "thread", "process", "dask")


def check_run_options(executor: str, chunk_size: int | None) -> None:
    """Raise BatchError for an unknown executor or a chunk size below 1 (callers check before
    they create an output, so a mistake leaves no file behind)."""
    if executor not in EXECUTORS:
        raise BatchError(f"unknown executor {executor!r} (expected {', '.join(EXECUTORS)})")
    if chunk_size is not None and chunk_size < 1:
        raise BatchError("--chunk-size must be at least 1")


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
                summary.add(res.tables, res.par)
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
