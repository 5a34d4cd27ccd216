"""Batch output: JSON lines, CSV, npz and Parquet writers, each durable chunk by chunk and resumable."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import sys
from pathlib import Path

import numpy as np

from ..notation import Deal
from ..rules import BidEuchreError, DeckForm, Preset, Seat, get_deck, get_preset
from .base import SCHEMA, BatchError
from .chunks import ChunkResult, RecordChunk
from .readers import Record
from .files import OutputLock
from .flat import (ID_COLUMNS, OPTIONS_COLUMN, PAR_COLUMNS, Layout, alone_json_from_arrays, carried_text, extra_cell,
                   options_text, par_json_from_arrays, read_npz)
from .summary import Summary

FORMATS = ("jsonl", "csv", "npz", "parquet")



def check_output(path, resume: bool, overwrite: bool = False) -> None:
    """Raise BatchError for an output that is a directory or in a directory that does not exist
    (the same rule for every format: nothing is created but the file), ``--resume`` with
    ``--overwrite``, or ``--resume`` without an output file (stdout cannot be resumed)."""
    if path not in (None, "-") and os.path.isdir(path):
        raise BatchError(f"output {str(path)!r} is a directory; give a file name")
    if path not in (None, "-") and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        raise BatchError(f"output {str(path)!r}: its directory does not exist (it is not created)")
    if resume and overwrite:
        raise BatchError("give either --resume (finish the output) or --overwrite (start again)")
    if resume and path in (None, "-"):
        raise BatchError("--resume needs --output FILE (results on stdout cannot be resumed)")
    if resume and os.path.exists(path) and not os.path.isfile(path):
        raise BatchError(f"--resume: output {str(path)!r} is not a regular file (a device or a pipe "
                         "holds nothing to finish)")


def check_new_file(path, option: str, replace: bool, how: str = "--overwrite to replace it") -> None:
    """Raise BatchError when ``path`` (the file of ``option``: ``--summary-json``, ``--plot``)
    is an existing regular file that holds something and ``replace`` is False: an earlier
    result is never replaced without being asked (the rule of ``--output``; an empty file, as
    ``mktemp`` makes, and a device such as /dev/null may always be written).  ``how``: the way
    to ask, for the message."""
    if (not replace and path not in (None, "-") and os.path.isfile(path)
            and os.path.getsize(path) > 0):
        raise BatchError(f"{option} {str(path)!r} exists: give another name, or {how}")


def _table_template(strains) -> str:
    """``json.dumps`` of a line's table object (``{"N": {"S": 3, ...}, ...}``) with ``%d`` for
    its numbers, seat after seat: a chunk's tables are written with one ``%`` each (the main
    thread holds the GIL the solving threads need while it writes)."""
    return json.dumps({seat.name: {st.name: 0 for st in strains} for seat in Seat}).replace("0", "%d")


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


def run_options(preset: Preset, where: str | None = None) -> dict:
    """What an output records of the options that made it, beyond its preset and deck name and
    the deals themselves: ``"rules"``, the table options that differ from the named preset's
    (:meth:`~bideuchre.rules.Preset.changed_options`, ``--rule``), and ``"where"``, the text of
    the ``--where`` condition.  ``{}`` for a preset as defined and no condition."""
    out: dict = {}
    rules = preset.changed_options()
    if rules:
        out["rules"] = json.loads(json.dumps(rules, sort_keys=True))
    if where is not None:
        out["where"] = str(where)
    return out


def _describe(options: dict) -> str:
    """Options as the command line gives them: ``--rule penalty=100 --where '...'``."""
    words = [f"--rule {k}={v if isinstance(v, str) else json.dumps(v)}"
             for k, v in sorted((options.get("rules") or {}).items())]
    if options.get("where") is not None:
        words.append(f"--where {options['where']!r}")
    return " ".join(words) if words else "no --rule nor --where"


class Writer:
    """Base of the output writers.  ``done`` holds the ids (as ``str``) already in the output
    when resuming; ``write(chunk, result)`` appends one chunk durably; ``close()`` finishes.

    The output is locked for the writer's life (:class:`~bideuchre.batch.files.OutputLock`,
    taken before anything is read or removed, let go by ``close()``): a second writer on it
    raises BatchError naming the pid of the first.  ``options`` (:func:`run_options`) is
    recorded in the output; a resume refuses an output recorded with other options, as it
    refuses another preset or deck."""

    fmt = ""

    def __init__(self, path, preset: Preset, deck: DeckForm, *, alone: bool = False,
                 par: bool = False, resume: bool = False, overwrite: bool = False,
                 summary: Summary | None = None, where: str | None = None):
        self.path = None if path in (None, "-") else Path(path)
        self.preset, self.deck = preset, deck
        self.strains = tuple(preset.strains)
        self.alone, self.par = alone, par
        self.summary = summary
        self.options = run_options(preset, where)
        self.done: set[str] = set()
        self.done_deals: dict[str, tuple] = {}      # id -> the deal as written (see _stored)
        self.written = 0
        check_output(path, resume, overwrite)
        self.lock = OutputLock(self.path) if self.path is not None else None
        try:
            if self.path is not None and resume:
                self._resume()
            elif self.path is not None and self._exists():
                if not overwrite:
                    raise BatchError(f"output {str(self.path)!r} exists; rerun with --resume to finish it "
                                     f"or --overwrite to start again")
                self._remove()
        except BaseException:
            self.unlock()
            raise

    def unlock(self) -> None:
        """Let the output's lock go (``close()`` does)."""
        if getattr(self, "lock", None) is not None:
            self.lock.release()

    def _exists(self) -> bool:
        """Whether the output holds results: a regular file that is not empty (an empty file,
        as a failed start leaves, does not count).  A device or a pipe (``-o /dev/null``, a
        FIFO) holds none: it is written to, and never removed."""
        return self.path.is_file() and self.path.stat().st_size > 0

    def _remove(self) -> None:
        if self.path.is_file():         # never a device or a pipe (--overwrite as root)
            self.path.unlink()

    def _resume(self) -> None:
        raise NotImplementedError

    def _check_same(self, preset: str, deck: str, where: str, options=None) -> None:
        """Raise BatchError unless a result of the output (``where`` names it) was solved with
        this writer's preset, deck and options (``options``: as stored, a dict, its JSON text,
        or None/empty for none)."""
        if (preset, deck) != (self.preset.name, self.deck.name):
            raise BatchError(f"cannot resume {str(self.path)!r}: {where} was solved with preset {preset} "
                             f"and deck {deck}, not {self.preset.name} and {self.deck.name}")
        if isinstance(options, str):
            try:
                options = json.loads(options) if options else {}
            except json.JSONDecodeError:
                options = ()
        options = {} if options is None else options
        if not isinstance(options, dict):
            raise BatchError(f"cannot resume {str(self.path)!r}: {where}: its {OPTIONS_COLUMN!r} cannot be read")
        if options_text(options) != options_text(self.options):
            raise BatchError(f"cannot resume {str(self.path)!r}: {where} was solved with {_describe(options)}, "
                             f"not {_describe(self.options)}; give the first run's options")

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

    def _seen(self, rid, table: np.ndarray | None, par, deal: tuple | None = None,
              alone: dict | None = None) -> None:
        key = str(rid)
        if key in self.done:
            raise BatchError(f"output {str(self.path)!r} holds id {key!r} twice; cannot resume it")
        self.done.add(key)
        if deal is not None:
            self.done_deals[key] = deal
        if self.summary is not None and table is not None:
            counts = None
            if self.summary.by is not None:       # --by groups by the deal's cards
                d = None if deal is None else self._stored_deal(deal)
                if d is None:
                    raise BatchError(f"cannot resume {str(self.path)!r} with --by: the deal of id {key!r} cannot be read")
                counts = np.array(d.counts(), dtype=np.uint8)[None]
            self.summary.add(table[None], None if par is None else [par],
                             None if alone is None else [alone], counts)

    def write(self, chunk: RecordChunk, result: ChunkResult) -> None:
        raise NotImplementedError

    def close(self, complete: bool = True) -> None:
        pass


class _TextWriter(Writer):
    """A writer appending text to ``self.fh`` (a file, or stdout which is only flushed)."""

    def close(self, complete: bool = True) -> None:
        try:
            if self.fh is not sys.stdout:
                self.fh.close()
            else:
                self.fh.flush()
        finally:
            self.unlock()


class JsonlWriter(_TextWriter):
    """One JSON object a line per deal: ``{"id", <carried keys>, "schema", "deal", "preset",
    "dealer", "deck", "table"[, "alone"][, "par"]}`` — the keys of ``bideuchre solve --json``
    plus ``id``.  Appended, flushed and fsynced per chunk."""

    fmt = "jsonl"

    def __init__(self, path, *args, **kw):
        super().__init__(path, *args, **kw)
        try:
            self.fh = sys.stdout if self.path is None else open(self.path, "a", encoding="utf-8")
        except BaseException:
            self.unlock()
            raise

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
                    self._check_same(obj["preset"], obj["deck"], f"line {lineno}", obj.get(OPTIONS_COLUMN))
                    table = np.array([[obj["table"][s.name][st.name] for st in self.strains] for s in Seat],
                                     dtype=np.int8)
                except (json.JSONDecodeError, KeyError, TypeError) as exc:
                    raise BatchError(f"cannot resume {str(self.path)!r}: line {lineno} is not a result "
                                     f"of this command ({type(exc).__name__}: {exc})") from None
                self._seen(rid, table, obj.get("par"), (obj.get("deal"), obj.get("dealer")),
                           obj.get("alone") if self.alone else None)

    def write(self, chunk: RecordChunk, result: ChunkResult) -> None:
        pname, dname = self.preset.name, self.deck.name
        template = _table_template(self.strains)
        tables = result.tables.reshape(len(chunk), -1).tolist()
        seats = [s.name for s in Seat]
        lines = []
        for i, dealer in enumerate(chunk.dealers.tolist()):
            # json.dumps of {id, carried keys, schema, deal, preset, dealer, deck, table[,
            # options][, alone][, par]}, the table's text made from its template
            obj = {"id": chunk.ids[i]}
            obj.update(chunk.extras[i])
            rest = {}
            if self.options:
                rest[OPTIONS_COLUMN] = self.options
            if result.alone is not None:
                rest["alone"] = result.alone[i]
            if result.par is not None:
                rest["par"] = result.par[i]
            for k in (*rest, "table"):
                obj.pop(k, None)            # once in the line, the table last but rest
            obj.update({"schema": SCHEMA, "deal": chunk.pbns[i], "preset": pname,
                        "dealer": seats[dealer], "deck": dname, "table": None})
            line = json.dumps(obj, ensure_ascii=False)[:-len("null}")] + template % tuple(tables[i])
            lines.append(line + (", " + json.dumps(rest, ensure_ascii=False)[1:] if rest else "}"))
        self.fh.write("\n".join(lines) + "\n")
        _fsync(self.fh)
        self.written += len(chunk)

class CsvWriter(_TextWriter):
    """CSV with a header, one row per deal, numbers in columns of their own
    (:mod:`bideuchre.batch.flat`): ``id, deal, preset, dealer, deck``, ``tricks_SEAT_STRAIN``
    (declaring-side DD tricks), with ``--alone`` ``alone_SEAT_STRAIN_BID`` and ``..._all``, with
    ``--par`` ``par_declarer … par_ew``, then each carried input key of the first chunk as a
    column and a last ``extra`` column (JSON) for keys first seen later.  The header is written
    with the first chunk (an empty run writes it on close).  Appended, flushed and fsynced per
    chunk."""

    fmt = "csv"

    def __init__(self, path, *args, **kw):
        self.header: list[str] | None = None        # as in the file (set on resume)
        super().__init__(path, *args, **kw)
        self.layout = Layout(self.preset, self.deck, self.alone, self.par)
        try:
            self.fh = sys.stdout if self.path is None else open(self.path, "a", encoding="utf-8", newline="")
        except BaseException:
            self.unlock()
            raise

    @staticmethod
    def _rows(rows) -> str:
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(rows)
        return buf.getvalue()

    def _resume(self) -> None:
        if not self.path.exists():
            return
        _drop_partial_tail(self.path)
        layout = Layout(self.preset, self.deck, self.alone, self.par)
        with open(self.path, encoding="utf-8", newline="") as fh:
            reader = csv.reader(fh)
            header = next(reader, None)
            if header is None:
                return
            want = layout.columns
            results = set(Layout(self.preset, self.deck, True, True).columns)    # --alone, --par
            if header[:len(want)] != want or header[-1] != "extra" \
                    or any(c in results for c in header[len(want):]):
                raise BatchError(f"cannot resume {str(self.path)!r}: its columns are not this command's "
                                 f"(the same preset, deck, --alone and --par?)")
            has_options = header[len(want):len(want) + 1] == [OPTIONS_COLUMN]
            self.header = header
            ntab = 4 * len(self.strains)
            at = {name: k for k, name in enumerate(header)}
            rows = 0
            for row in reader:
                if not row:
                    continue
                rows += 1
                try:
                    self._check_same(row[2], row[4], f"line {reader.line_num}",
                                     row[at[OPTIONS_COLUMN]] if has_options else None)
                    table = np.array(row[5:5 + ntab], dtype=np.int8).reshape(4, len(self.strains))
                    par = layout.par_from_cells({c: row[at[c]] for c in PAR_COLUMNS}) if self.par else None
                    alone = (layout.alone_from_cells({c: row[at[c]] for c in layout.result_columns
                                                      if c.startswith("alone_")}) if self.alone else None)
                except BatchError:
                    raise
                except (ValueError, IndexError) as exc:
                    raise BatchError(f"cannot resume {str(self.path)!r}: line {reader.line_num}: {exc}") from None
                self._seen(row[0], table, par, (row[1], row[3]), alone)
            if has_options != bool(self.options):
                raise BatchError(f"cannot resume {str(self.path)!r}: its columns are not this command's "
                                 f"(the same --rule and --where?)")

    def _fixed(self) -> list[str]:
        """The columns before the carried keys: the layout's, then ``options`` when recorded."""
        return self.layout.columns + ([OPTIONS_COLUMN] if self.options else [])

    def _start(self, chunk: RecordChunk | None) -> None:
        """Write the header: the fixed columns, the carried keys of ``chunk``, ``extra``."""
        keys: dict[str, None] = {}
        fixed = set(self._fixed()) | {"extra"}
        for e in (chunk.extras if chunk is not None else ()):
            keys.update(dict.fromkeys(k for k in e if k not in fixed))
        self.header = self._fixed() + list(keys) + ["extra"]
        self.fh.write(self._rows([self.header]))

    def write(self, chunk: RecordChunk, result: ChunkResult) -> None:
        if self.header is None:
            self._start(chunk)
        carried = self.header[len(self._fixed()):-1]
        rows = []
        pname, dname = self.preset.name, self.deck.name
        options = [options_text(self.options)] if self.options else []
        for i in range(len(chunk)):
            row = [chunk.ids[i], chunk.pbns[i], pname, Seat(int(chunk.dealers[i])).name, dname]
            row += self.layout.cells(result.tables[i], None if result.alone is None else result.alone[i],
                                     None if result.par is None else result.par[i])
            row += options
            e = chunk.extras[i]
            row += [extra_cell(e[k]) if k in e else "" for k in carried]
            rest = {k: v for k, v in e.items() if k not in carried}
            row.append(json.dumps(rest, ensure_ascii=False) if rest else "")
            rows.append(row)
        self.fh.write(self._rows(rows))
        _fsync(self.fh)
        self.written += len(chunk)

    def close(self, complete: bool = True) -> None:
        try:
            if complete and self.header is None:
                self._start(None)
                _fsync(self.fh)
        finally:
            super().close(complete)


class _PartsWriter(Writer):
    """A writer of one part file per chunk, ``OUTPUT.parts/part-RRRR-CCCCCC.EXT`` (``RRRR`` the
    run, ``CCCCCC`` the chunk), each written through a temporary file, fsync and an atomic
    rename, so a killed run leaves only whole parts; ``close()`` assembles them into ``OUTPUT``
    (again atomically) and removes them.  A finished ``OUTPUT`` being resumed is read where it
    is and moved into the parts (as ``part-0000-000000.EXT``) only when the run writes its first
    part or assembles, so nothing is deleted before it is written again and a resume refused
    before any work leaves ``OUTPUT`` as it was.  Not for stdout."""

    suffix = ""

    def __init__(self, path, *args, **kw):
        if path in (None, "-"):
            raise BatchError(f"--format {self.fmt} needs --output FILE")
        if os.path.exists(path) and not os.path.isfile(path):
            raise BatchError(f"--format {self.fmt}: output {str(path)!r} is not a regular file (it is "
                             "assembled from parts and renamed into place)")
        self.parts = Path(str(path) + ".parts")
        self._finished_output = False       # a finished OUTPUT being resumed, not yet a part
        super().__init__(path, *args, **kw)       # checks that OUTPUT's directory exists
        try:
            self.layout = Layout(self.preset, self.deck, self.alone, self.par)
            self.parts.mkdir(exist_ok=True)
            self.run = max((run for run, _ in map(_part_key, self._part_paths())), default=0) + 1
        except BaseException:
            self.unlock()
            raise

    def _exists(self) -> bool:
        return super()._exists() or (self.parts.exists() and any(self.parts.iterdir()))

    def _remove(self) -> None:
        if self.path.is_file():
            self.path.unlink()
        if self.parts.exists():
            shutil.rmtree(self.parts)

    def _part_paths(self) -> list[Path]:
        """The parts, in the order they were written (run, then chunk)."""
        if not self.parts.exists():
            return []
        return sorted(self.parts.glob(f"part-*{self.suffix}"), key=_part_key)

    def _part_name(self, chunk: RecordChunk) -> Path:
        return self.parts / f"part-{self.run:04d}-{chunk.index:06d}{self.suffix}"

    def _sources(self) -> list[Path]:
        """For a resume: the finished OUTPUT (if any), then the parts; a temporary file a killed
        run left is removed."""
        sources = []
        if self.path.exists():
            self._finished_output = True
            sources.append(self.path)
        if self.parts.exists():
            for tmp in self.parts.glob("*.tmp"):
                tmp.unlink()
            sources += self._part_paths()
        return sources

    def _keep_finished_output(self) -> None:
        """Move a resumed finished OUTPUT into the parts (before anything replaces it)."""
        if self._finished_output:
            os.replace(self.path, self.parts / f"part-0000-000000{self.suffix}")
            self._finished_output = False

    def close(self, complete: bool = True) -> None:
        """Assemble the output (``complete``), or keep the parts for a resume; let the lock go."""
        try:
            self._finish(complete)
        finally:
            self.unlock()

    def _finish(self, complete: bool) -> None:
        raise NotImplementedError

    def _abandon(self) -> None:
        """An interrupted run: the parts stay for --resume; an empty parts directory goes."""
        if self.parts.exists() and not any(self.parts.iterdir()):
            self.parts.rmdir()          # nothing written: no empty directory left behind


def _part_key(path: Path) -> tuple[int, int]:
    """(run, chunk) of a part file's name (numbers, so chunk 1000000 sorts after 999999)."""
    m = re.match(r"part-(\d+)-(\d+)", path.name)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


class NpzWriter(_PartsWriter):
    """NumPy ``.npz`` of arrays: ``ids`` (str), ``seq`` (input order), ``deals`` ``(n, cards)``
    int8 card indices (N's hand, then E, S, W; -1 pads a partial deal), ``dealer`` ``(n,)``
    int8 seat index, ``tables`` ``(n, 4 declarers, strains)`` int8; with ``--alone`` / ``--par``
    the numeric arrays of :mod:`bideuchre.batch.flat` (``alone_tricks`` ``(n, 4, S, B)``,
    ``par_declarer`` ``(n,)``, …); ``extra`` the carried input keys as JSON text per deal;
    the legend: ``cards`` (card index → name), ``seats``, ``strains``, ``lone_bids``,
    ``legend`` (the shapes, as text), and ``preset``, ``deck``, ``schema``.

    Durability (:class:`_PartsWriter`): each chunk is written as its own part file
    ``OUTPUT.parts/part-RRRR-CCCCCC.npz`` (``RRRR`` the run, ``CCCCCC`` the chunk) through a
    temporary file, fsync and an atomic rename, so a killed run leaves only whole parts.
    ``close()`` assembles every part, in input order, into ``OUTPUT`` (again atomically) and
    removes the parts.  Resuming reads a finished ``OUTPUT`` where it is and moves it into the
    parts directory only when the run writes its first part (or assembles), so nothing is ever
    deleted before it is written again, and a resume refused before any work leaves ``OUTPUT``
    as it was.
    """

    fmt = "npz"
    suffix = ".npz"

    _RESUME_KEYS = ("preset", "deck", OPTIONS_COLUMN, "ids", "tables", "deals", "dealer", "par_status",
                    "par_declarer", "par_bid", "par_strain", "alone_tricks", "alone_all")

    def _resume(self) -> None:
        names = [st.name for st in self.strains]
        bids = Layout(self.preset, self.deck, self.alone, self.par).lone   # _resume runs before __init__ sets self.layout
        for part in self._sources():
            what = f"cannot resume {str(self.path)!r}: {part.name}"
            z = read_npz(part, self._RESUME_KEYS, what=what)        # each array read once
            try:
                self._check_same(str(z["preset"]), str(z["deck"]), f"part {part.name}",
                                 str(z[OPTIONS_COLUMN]) if OPTIONS_COLUMN in z else None)
                ids, tables, deals, dealers = z["ids"], z["tables"], z["deals"], z["dealer"]
                par = ({k: z[k] for k in ("par_status", "par_declarer", "par_bid", "par_strain")}
                       if "par_status" in z else None)
                alone = ({k: z[k] for k in ("alone_tricks", "alone_all")}
                         if self.alone and "alone_tricks" in z else None)
                if self.par != (par is not None) or self.alone != (alone is not None) \
                        or tables.shape[1:] != (4, len(names)) or not len(ids) == len(deals) == len(dealers) == len(tables):
                    raise BatchError(f"{what}: its arrays are not this command's (the same preset, deck, "
                                     f"--alone and --par?)")
                for k, rid in enumerate(ids):
                    self._seen(str(rid), tables[k], None if par is None else par_json_from_arrays(par, k, names),
                               (tuple(int(c) for c in deals[k] if c >= 0), int(dealers[k])),
                               None if alone is None else alone_json_from_arrays(alone, k, names, bids))
            except BatchError:
                raise
            except KeyError as exc:
                raise BatchError(f"{what}: no array {exc}: not a part of this command") from None
            except (IndexError, ValueError, TypeError) as exc:
                raise BatchError(f"{what}: its arrays cannot be read ({type(exc).__name__}: {exc})") from None

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

    def write(self, chunk: RecordChunk, result: ChunkResult) -> None:
        self._keep_finished_output()
        arrays = dict(ids=np.array([str(i) for i in chunk.ids]), seq=chunk.seqs, deals=chunk.cards,
                      dealer=chunk.dealers, tables=result.tables,
                      strains=np.array([st.name for st in self.strains]),
                      preset=np.array(self.preset.name), deck=np.array(self.deck.name))
        if self.options:
            arrays[OPTIONS_COLUMN] = np.array(options_text(self.options))
        arrays.update(self.layout.arrays(result.alone, result.par))
        arrays["extra"] = np.array([json.dumps(e, ensure_ascii=False) if e else "" for e in chunk.extras])
        _atomic_npz(self._part_name(chunk), arrays, compress=False)
        self.written += len(chunk)

    def _finish(self, complete: bool) -> None:
        if not complete:
            self._abandon()
            return
        self._keep_finished_output()
        parts = self._part_paths()
        keys = ("ids", "seq", "deals", "dealer", "tables", "alone_tricks", "alone_all", "alone_give",
                "alone_discard", "par_status", "par_declarer", "par_bid", "par_strain", "par_tricks",
                "par_points", "extra")
        cols: dict[str, list] = {k: [] for k in keys}
        for part in parts:
            z = read_npz(part, keys, what=f"cannot finish {str(self.path)!r}: {part.name}")
            for k in keys:
                if k in z:
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
        out.update(self.layout.legend())
        out.update(preset=np.array(self.preset.name), deck=np.array(self.deck.name),
                   schema=np.array(SCHEMA))
        if self.options:
            out[OPTIONS_COLUMN] = np.array(options_text(self.options))
        _atomic_npz(self.path, out, compress=True)
        shutil.rmtree(self.parts)


class ParquetWriter(_PartsWriter):
    """Apache Parquet (the ``parquet`` extra: pyarrow), one row per deal, the columns of the CSV
    output (:mod:`bideuchre.batch.flat`, the cells of :meth:`Layout.cells`) with numeric types:
    ``tricks_*``, ``alone_*`` and ``par_tricks`` int8, ``par_ns`` / ``par_ew`` int16, the others
    text; an empty CSV cell (no lone result, a hand thrown in, no par) is a null.  ``id`` is
    text, as in the CSV.  Each carried input key is a column of its own, whichever chunk it
    first appears in (the file is assembled at the end, so no key is left to ``extra``): bool,
    int64 or float64 when its values are all booleans, integers or numbers, else text (a value
    that is not text as JSON, as in a CSV cell); a missing key is a null.  The last column,
    ``extra``, holds as JSON only a carried key named like a column of the output.

    Durability (:class:`_PartsWriter`): each chunk is a part ``OUTPUT.parts/part-RRRR-CCCCCC.parquet``
    in the output's own columns, written to a temporary name, fsynced and renamed; ``close()``
    writes the parts in input order (run, then chunk: a run writes its chunks in input order and
    a resume appends after the deals done) into ``OUTPUT`` atomically, in row groups of up to
    :data:`PARQUET_ROW_GROUP` deals, one part read at a time, so memory stays bounded.  Resuming
    reads a finished ``OUTPUT`` or the parts back (ids, deals, and what the summary needs).
    Raises BatchError when pyarrow is not installed, before anything is written.
    """

    fmt = "parquet"
    suffix = ".parquet"

    def __init__(self, path, *args, **kw):
        self.pa, self.pq = _pyarrow()
        super().__init__(path, *args, **kw)

    def _fields(self, layout: Layout) -> list:
        pa = self.pa
        types = {"int8": pa.int8(), "int16": pa.int16(), "str": pa.string()}
        return [pa.field(c, types[t], nullable=c not in ID_COLUMNS and not c.startswith("tricks_"))
                for c, t in layout.dtypes.items()] + ([pa.field(OPTIONS_COLUMN, pa.string())] if self.options else [])

    def _resume(self) -> None:
        pa, pq = self.pa, self.pq
        layout = Layout(self.preset, self.deck, self.alone, self.par)   # before __init__ sets self.layout
        want = layout.columns
        results = set(Layout(self.preset, self.deck, True, True).columns)    # --alone, --par
        tricks = [c for c in want if c.startswith("tricks_")]
        lone = [c for c in layout.result_columns if c.startswith("alone_")]
        for part in self._sources():
            try:
                t = pq.read_table(part)
            except (pa.ArrowException, OSError) as exc:
                raise BatchError(f"cannot resume {str(self.path)!r}: {part.name} is not a Parquet file "
                                 f"({' '.join(str(exc).split())})") from None
            names = t.column_names
            if names[:len(want)] != want or names[-1:] != ["extra"] \
                    or any(c in results for c in names[len(want):]):
                raise BatchError(f"cannot resume {str(self.path)!r}: {part.name}: its columns are not "
                                 f"this command's (the same preset, deck, --alone and --par?)")
            if any(t[c].null_count for c in tricks):
                raise BatchError(f"cannot resume {str(self.path)!r}: {part.name} has an empty tricks cell")
            table = np.stack([t[c].to_numpy() for c in tricks], axis=-1).astype(np.int8) \
                .reshape(t.num_rows, 4, len(self.strains))
            has_options = names[len(want):len(want) + 1] == [OPTIONS_COLUMN]
            col = {c: t[c].to_pylist() for c in ID_COLUMNS + (PAR_COLUMNS if self.par else []) + lone
                   + ([OPTIONS_COLUMN] if has_options else [])}
            if not t.num_rows and has_options != bool(self.options):
                raise BatchError(f"cannot resume {str(self.path)!r}: {part.name}: its columns are not this "
                                 f"command's (the same --rule and --where?)")
            for k in range(t.num_rows):
                self._check_same(col["preset"][k], col["deck"][k], f"{part.name} row {k + 1}",
                                 col[OPTIONS_COLUMN][k] if has_options else None)
                par = layout.par_from_cells({c: col[c][k] for c in PAR_COLUMNS}) if self.par else None
                alone = (layout.alone_from_cells({c: "" if col[c][k] is None else col[c][k] for c in lone})
                         if self.alone else None)
                self._seen(col["id"][k], table[k], par, (col["deal"][k], col["dealer"][k]), alone)

    def write(self, chunk: RecordChunk, result: ChunkResult) -> None:
        pa, pq = self.pa, self.pq
        self._keep_finished_output()
        n = len(chunk)
        rows = [self.layout.cells(result.tables[i], None if result.alone is None else result.alone[i],
                                  None if result.par is None else result.par[i]) for i in range(n)]
        values = {"id": [str(x) for x in chunk.ids], "deal": chunk.pbns, "preset": [self.preset.name] * n,
                  "dealer": [Seat(int(d)).name for d in chunk.dealers], "deck": [self.deck.name] * n}
        for j, c in enumerate(self.layout.result_columns):
            values[c] = [None if r[j] == "" else r[j] for r in rows]
        if self.options:
            values[OPTIONS_COLUMN] = [options_text(self.options)] * n
        fields = self._fields(self.layout)
        arrays = [pa.array(values[f.name], type=f.type) for f in fields]
        fixed = set(self.layout.columns) | {"extra", OPTIONS_COLUMN}
        keys: dict[str, None] = {}
        for e in chunk.extras:
            keys.update(dict.fromkeys(k for k in e if k not in fixed))
        for k in keys:
            a = _carried_array(pa, [e.get(k) for e in chunk.extras])
            fields.append(pa.field(k, a.type))
            arrays.append(a)
        rest = [{k: v for k, v in e.items() if k in fixed} for e in chunk.extras]
        fields.append(pa.field("extra", pa.string()))
        arrays.append(pa.array([json.dumps(r, ensure_ascii=False) if r else None for r in rest], pa.string()))
        table = pa.Table.from_arrays(arrays, schema=pa.schema(fields))
        _atomic(self._part_name(chunk), lambda fh: pq.write_table(table, fh))
        self.written += n

    def _finish(self, complete: bool) -> None:
        if not complete:
            self._abandon()
            return
        pa, pq = self.pa, self.pq
        self._keep_finished_output()
        parts = self._part_paths()
        fields = self._fields(self.layout)
        fixed = {f.name for f in fields} | {"extra"}
        carried: dict[str, list] = {}           # key -> its types in the parts, in order of first appearance
        for part in parts:
            for f in pq.read_schema(part):
                if f.name not in fixed:
                    carried.setdefault(f.name, []).append(f.type)
        fields += [pa.field(k, _unify_types(pa, ts)) for k, ts in carried.items()]
        fields.append(pa.field("extra", pa.string()))
        schema = pa.schema(fields)

        def write(fh) -> None:
            with pq.ParquetWriter(fh, schema) as out:
                group, rows = [], 0
                for part in parts:
                    t = pq.read_table(part)
                    group.append(pa.Table.from_arrays(
                        [t[f.name].cast(f.type) if f.name in t.column_names else pa.nulls(t.num_rows, f.type)
                         for f in schema], schema=schema))
                    rows += t.num_rows
                    if rows >= PARQUET_ROW_GROUP:
                        out.write_table(pa.concat_tables(group))
                        group, rows = [], 0
                if group or not parts:
                    out.write_table(pa.concat_tables(group) if group else schema.empty_table())

        _atomic(self.path, write)
        shutil.rmtree(self.parts)


#: deals per row group of an assembled Parquet output (the most held in memory at once)
PARQUET_ROW_GROUP = 65536


def _pyarrow():
    """``pyarrow`` and ``pyarrow.parquet``, imported only when a Parquet output is asked for.
    Raises BatchError naming the extra when pyarrow is not installed."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise BatchError("Parquet output needs pyarrow: pip install 'bideuchre[parquet]'") from None
    return pa, pq


def _carried_array(pa, values: list):
    """A carried input key's values in one chunk (None: absent or null) as an Arrow array:
    bool, int64 or float64 when every value is a boolean, an integer or a number, else text
    (:func:`~bideuchre.batch.flat.carried_text`, as a CSV cell has it: it reads back as the value)."""
    present = [v for v in values if v is not None]
    if not present:
        return pa.nulls(len(values))
    if all(isinstance(v, bool) for v in present):
        return pa.array(values, pa.bool_())
    if all(isinstance(v, int) and not isinstance(v, bool) and -2 ** 63 <= v < 2 ** 63 for v in present):
        return pa.array(values, pa.int64())
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        return pa.array([None if v is None else float(v) for v in values], pa.float64())
    return pa.array([None if v is None else carried_text(v) for v in values], pa.string())


def _unify_types(pa, types: list):
    """One type for a carried key typed differently in different parts: the type when they
    agree (nulls aside), float64 for integers and numbers, else text."""
    kinds = {t for t in types if t != pa.null()}
    if len(kinds) <= 1:
        return kinds.pop() if kinds else pa.null()
    if kinds == {pa.int64(), pa.float64()}:
        return pa.float64()
    return pa.string()


def _atomic_npz(path: Path, arrays: dict, compress: bool) -> None:
    _atomic(path, lambda fh: (np.savez_compressed if compress else np.savez)(fh, **arrays))


def _atomic(path: Path, write) -> None:
    """Write ``path`` whole or not at all: ``write(fh)`` fills a temporary file, which is
    fsynced and renamed over ``path``, then the directory is fsynced."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as fh:
        write(fh)
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


_WRITERS = {"jsonl": JsonlWriter, "csv": CsvWriter, "npz": NpzWriter, "parquet": ParquetWriter}


def open_writer(fmt: str | None, path, preset: Preset | str, deck: DeckForm | str | None = None, *,
                alone: bool = False, par: bool = False, resume: bool = False,
                overwrite: bool = False, summary: Summary | None = None, where: str | None = None) -> Writer:
    """A writer for ``fmt`` (``jsonl``, ``csv``, ``npz`` or ``parquet``; None: from the file
    name, default ``jsonl``) at ``path`` (None or ``-``: stdout, not for npz or parquet).  With
    ``resume`` the ids already in the output are in ``writer.done`` (and their tables in
    ``summary``).  ``where``: the text of the run's ``--where``, recorded with the preset's
    ``--rule`` changes (:func:`run_options`).  The output is locked until ``close()``
    (:class:`Writer`).  Raises BatchError for an unknown format, an existing output without
    ``resume``/``overwrite``, an output locked by another run (naming its pid), an output that
    cannot be resumed (another preset, deck, ``--rule`` or ``--where``; a corrupted file:
    :class:`~bideuchre.batch.base.ResultFileError`), or Parquet without pyarrow."""
    preset = get_preset(preset)
    deck = preset.deck if deck is None else get_deck(deck)
    if fmt is None:
        suffix = "" if path in (None, "-") else Path(path).suffix.lower().lstrip(".")
        fmt = suffix if suffix in FORMATS else "jsonl"
    fmt = fmt.lower()
    if fmt not in _WRITERS:
        raise BatchError(f"unknown format {fmt!r} (expected one of: {' '.join(FORMATS)})")
    return _WRITERS[fmt](path, preset, deck, alone=alone, par=par, resume=resume,
                         overwrite=overwrite, summary=summary, where=where)
