"""The work on a chunk of deals: :class:`ChunkTask` (what a worker thread, process or Dask
worker needs), :func:`solve_table_chunk`, :class:`ChunkResult`; and the main side's view of a chunk."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..search import _search
from ..notation import Deal
from ..rules import BidEuchreError, DeckForm, Preset, Seat
from ..search.solve import exact_above_for, tables_from_ns, table_leaders, tt_bits_for
from .base import BatchError
from .readers import Record, prepare


def batch_tt_bits(deck: DeckForm | str) -> int:
    """Transposition-table size (log2 entries) for one chunk's solver: the deck form's own,
    :func:`bideuchre.search.solve.tt_bits_for`.  (Single24 and double32 chunks once took an
    eighth of it -- 1,000 real single24 deals: CPU seconds 1.13-1.35 with 2**13 entries against
    1.37-1.45 with 2**16 -- but single24's own size is now 2**12, and double32 now solves with
    the partition table alone (``exact_above_for``), which needs its full 2**11 buckets: a
    chunk of 100 double32 deals took x1.08 the time with 2**15 entries and the exact table,
    x1.17 with 2**14, x1.13 with 2**18 and the exact table.)  Only speed depends on it:
    results are exact with any size."""
    return tt_bits_for(deck)


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


def solve_table_chunk(task: ChunkTask) -> ChunkResult:
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
    ns = _search.solve_tables(counts, strains, leaders, -1, task.tt_bits, exact_above_for(task.deck))
    tables = tables_from_ns(ns, preset, task.totals)
    alone = par = None
    if task.alone or task.par:
        from ..search.solve import DDTable
        lone_table = optional_analysis("bideuchre.analysis.lone", "lone_table", "--alone") if task.alone else None
        par_fn = optional_analysis("bideuchre.analysis.par", "par", "--par") if task.par else None
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


def optional_analysis(module: str, name: str, flag: str):
    """``module.name`` (an analysis a batch option needs: ``--alone``'s lone table, ``--par``'s
    par).  Raises BatchError naming ``flag`` when the module is not installed in this build."""
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


class RecordChunk:
    """The main side of a chunk of batch records (its DD tables solved by
    :func:`solve_table_chunk` from a :class:`ChunkTask`): what the writers need besides the
    result -- sequence numbers, ids, deals, dealers, carried keys and card counts."""

    __slots__ = ("index", "seqs", "ids", "pbns", "dealers", "extras", "cards", "counts", "totals")

    def __init__(self, index: int, records: list[Record], deck: DeckForm):
        self.index = index
        self.seqs = np.array([r.seq for r in records], dtype=np.int64)
        self.ids = [r.id for r in records]
        self.extras = [r.extra for r in records]
        self.dealers = np.array([int(r.deal.dealer) for r in records], dtype=np.int8)
        self.totals = np.array([len(r.deal.hands[0]) for r in records], dtype=np.int16)
        prep = [r.prep or prepare(r) for r in records]        # made by the reader's work
        self.pbns = [p[0] for p in prep]
        self.counts = np.array([p[1] for p in prep], dtype=np.uint8).reshape(-1, 4, 24)
        cards = np.full((len(records), deck.cards), -1, dtype=np.int8)
        for i, p in enumerate(prep):
            cards[i, :len(p[2])] = p[2]
        self.cards = cards

    def __len__(self) -> int:
        return len(self.ids)
