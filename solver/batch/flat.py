"""Batch results as flat numbers: the columns of the CSV and Parquet outputs and
of :func:`load`'s DataFrame, and the numeric arrays of the npz output.

Columns, per deal (``SEAT`` in N E S W, ``STRAIN`` in the preset's strain order, ``BID`` a lone
bid of the preset, RULES.md §2):

- ``id``, ``deal``, ``preset``, ``dealer``, ``deck``;
- ``tricks_SEAT_STRAIN``: the declaring side's DD tricks with ``SEAT`` declaring ``STRAIN``;
- with ``--alone``: ``alone_SEAT_STRAIN_BID`` (the lone hand's DD tricks after its best
  exchange) and ``alone_SEAT_STRAIN_BID_all`` (1 when it takes every trick, else 0); empty when
  the lone table could not be computed (``alone_error`` says why);
- with ``--par``: ``par_declarer`` (seat), ``par_bid`` (bid name: a level or a lone bid),
  ``par_strain``, ``par_tricks`` (the declarer's DD tricks), ``par_ns``, ``par_ew`` (points);
  a hand thrown in has empty contract columns and 0 points; ``par_error`` says why a par could
  not be computed (a partial deal);
- ``options``, only when the run had ``--rule`` or ``--where``: their JSON text
  (``{"rules": {...}, "where": "..."}``), the same on every row;
- each key carried from a JSON input line, as a column of its own (text as it is unless it
  would read as JSON, as in ``"1"`` or ``"true"``, which is written as JSON text with its
  quotes; other values as JSON); in CSV, keys first seen after the header was written go to a
  last ``extra`` column as JSON.

npz arrays (``n`` deals, ``S`` strains, ``B`` lone bids, ``G`` cards of the largest exchange):
``tables`` ``(n, 4, S)`` int8; ``alone_tricks`` ``(n, 4, S, B)`` int8 (-1: none);
``alone_all`` ``(n, 4, S, B)`` bool; ``alone_give`` / ``alone_discard`` ``(n, 4, S, B, G)``
int8 card indices (-1 pads); ``par_status`` ``(n,)`` int8 (1 a contract, 0 thrown in, -1 not
computed); ``par_declarer`` / ``par_strain`` ``(n,)`` int8 indices into ``seats`` / ``strains``
(-1: none); ``par_bid`` ``(n,)`` text; ``par_tricks`` ``(n,)`` int8 (-1: none);
``par_points`` ``(n, 2)`` int16 (NS, EW).  The legend is stored in the file: ``cards`` (card
index → card name), ``seats``, ``strains``, ``lone_bids`` and ``legend`` (this paragraph).
"""

from __future__ import annotations

import json
from typing import Sequence

import numpy as np

from ..rules import Card, DeckForm, Preset, Seat

NPZ_LEGEND = __doc__[__doc__.index("npz arrays"):].strip()
ID_COLUMNS = ["id", "deal", "preset", "dealer", "deck"]
OPTIONS_COLUMN = "options"      # the run's --rule and --where (writers.run_options), as JSON text
PAR_COLUMNS = ["par_declarer", "par_bid", "par_strain", "par_tricks", "par_ns", "par_ew", "par_error"]
CARD_NAMES = tuple(str(Card(i)) for i in range(24))


def lone_bid_names(preset: Preset) -> tuple[str, ...]:
    """The lone bids of ``preset`` as the lone table names them (the double48 option included)."""
    try:
        from ..analysis.lone import lone_bids
    except ImportError:                    # a build without the lone analysis
        return tuple(b.name for b in preset.lone_bids)
    return tuple(b.name for b in lone_bids(preset))


def _exchange_size(preset: Preset) -> int:
    try:
        from ..analysis.lone import lone_bids
        bids = lone_bids(preset)
    except ImportError:
        bids = preset.lone_bids
    return max((max(b.give, b.discard) for b in bids), default=0)


class Layout:
    """The flat form of one preset's results: column names, CSV rows, npz arrays."""

    def __init__(self, preset: Preset, deck: DeckForm, alone: bool = False, par: bool = False):
        self.preset, self.deck, self.alone, self.par = preset, deck, alone, par
        self.strains = tuple(preset.strains)
        self.lone = lone_bid_names(preset) if alone else ()
        self.give = _exchange_size(preset) if alone else 0
        cols = [f"tricks_{s.name}_{st.name}" for s in Seat for st in self.strains]
        if alone:
            for s in Seat:
                for st in self.strains:
                    for b in self.lone:
                        cols += [f"alone_{s.name}_{st.name}_{b}", f"alone_{s.name}_{st.name}_{b}_all"]
            cols.append("alone_error")
        if par:
            cols += PAR_COLUMNS
        self.result_columns = cols
        self.columns = ID_COLUMNS + cols
        #: each column's values: ``int8`` / ``int16`` for the numbers, ``str`` for text (an
        #: empty CSV cell is a missing value of either)
        self.dtypes = {c: "int16" if c in ("par_ns", "par_ew") else
                       "int8" if c.startswith(("tricks_", "alone_", "par_tricks")) and c != "alone_error"
                       else "str" for c in self.columns}

    # -- one deal as CSV cells ------------------------------------------------------------------

    def cells(self, table: np.ndarray, alone: dict | None, par: dict | None) -> list:
        """The result cells of one deal (``result_columns``): ``table`` ``(4, S)``, the lone
        table JSON and the par JSON (as :func:`bideuchre.batch.solve_table_chunk` gives them)."""
        row: list = np.asarray(table).reshape(-1).tolist()
        if self.alone:
            a = alone if isinstance(alone, dict) else {}
            for s in Seat:
                for st in self.strains:
                    got = {r.get("bid"): r for r in (a.get(s.name) or {}).get(st.name) or []}
                    for b in self.lone:
                        r = got.get(b)
                        row += ["", ""] if r is None else [int(r["tricks"]), int(bool(r["all"]))]
            row.append(a.get("error", "") if alone is not None else "")
        if self.par:
            row += par_cells(par)
        return row

    def par_from_cells(self, row: dict) -> dict:
        """The par JSON (the keys the summary reads) back from a row's par columns."""
        if row.get("par_error"):
            return {"error": row["par_error"]}
        if not row.get("par_declarer"):
            return {"par": None}
        return {"par": {"declarer": row["par_declarer"], "bid": row["par_bid"],
                        "strain": row["par_strain"]}}

    def alone_from_cells(self, row: dict) -> dict:
        """The lone table JSON (the keys the summary reads: per seat and strain, each lone bid's
        ``bid``, ``tricks`` and ``all``) back from a row's ``alone_*`` columns (CSV text)."""
        if row.get("alone_error"):
            return {"error": row["alone_error"]}
        out: dict = {}
        for s in Seat:
            out[s.name] = {}
            for st in self.strains:
                cell = f"alone_{s.name}_{st.name}_"
                out[s.name][st.name] = [
                    {"bid": b, "tricks": int(row[cell + b]), "all": str(row[cell + b + "_all"]) == "1"}
                    for b in self.lone if str(row.get(cell + b, "")) != ""]
        return out

    # -- a chunk as npz arrays ------------------------------------------------------------------

    def arrays(self, alone: Sequence[dict] | None, par: Sequence[dict] | None) -> dict:
        """The numeric lone and par arrays of a chunk (see the module docstring)."""
        out: dict = {}
        if self.alone and alone is not None:
            n, S, B, G = len(alone), len(self.strains), len(self.lone), self.give
            tricks = np.full((n, 4, S, B), -1, np.int8)
            every = np.zeros((n, 4, S, B), bool)
            give = np.full((n, 4, S, B, G), -1, np.int8)
            discard = np.full((n, 4, S, B, G), -1, np.int8)
            bid_index = {b: k for k, b in enumerate(self.lone)}
            card_index = {c: i for i, c in enumerate(CARD_NAMES)}
            for i, a in enumerate(alone):
                if not isinstance(a, dict) or "error" in a:
                    continue
                for s in Seat:
                    for j, st in enumerate(self.strains):
                        for r in (a.get(s.name) or {}).get(st.name) or []:
                            k = bid_index.get(r.get("bid"))
                            if k is None:
                                continue
                            tricks[i, s, j, k] = r["tricks"]
                            every[i, s, j, k] = bool(r["all"])
                            for arr, key in ((give, "give"), (discard, "discard")):
                                cards = [card_index[c] for c in r.get(key) or []][:G]
                                arr[i, s, j, k, :len(cards)] = cards
            out.update(alone_tricks=tricks, alone_all=every)
            if G:
                out.update(alone_give=give, alone_discard=discard)
        if self.par and par is not None:
            n = len(par)
            status = np.full(n, -1, np.int8)
            decl = np.full(n, -1, np.int8)
            strain = np.full(n, -1, np.int8)
            tricks = np.full(n, -1, np.int8)
            points = np.zeros((n, 2), np.int16)
            bids = [""] * n
            st_index = {st.name: j for j, st in enumerate(self.strains)}
            for i, p in enumerate(par):
                if not isinstance(p, dict) or "error" in p:
                    continue
                c = p.get("par")
                status[i] = 0 if c is None else 1
                pts = p.get("points") or {}
                points[i] = (pts.get("NS", 0), pts.get("EW", 0))
                if c is not None:
                    decl[i] = Seat[c["declarer"]]
                    strain[i] = st_index.get(c["strain"], -1)
                    tricks[i] = c["tricks"]
                    bids[i] = str(c["bid"])
            out.update(par_status=status, par_declarer=decl, par_bid=np.array(bids, dtype=str),
                       par_strain=strain, par_tricks=tricks, par_points=points)
        return out

    def legend(self) -> dict:
        """The arrays that name the numbers of an npz output."""
        return dict(strains=np.array([st.name for st in self.strains]), seats=np.array([s.name for s in Seat]),
                    cards=np.array(CARD_NAMES), lone_bids=np.array(self.lone, dtype=str),
                    legend=np.array(NPZ_LEGEND))


def par_cells(par: dict | None) -> list:
    """``par_declarer, par_bid, par_strain, par_tricks, par_ns, par_ew, par_error`` of a par JSON."""
    if not isinstance(par, dict):
        return ["", "", "", "", "", "", "no par result"]
    if "error" in par:
        return ["", "", "", "", "", "", par["error"]]
    pts = par.get("points") or {}
    c = par.get("par")
    if c is None:
        return ["", "", "", "", pts.get("NS", 0), pts.get("EW", 0), ""]
    return [c["declarer"], str(c["bid"]), c["strain"], c["tricks"], pts.get("NS", 0), pts.get("EW", 0), ""]


def par_json_from_arrays(z, i: int, strains: Sequence[str]) -> dict:
    """The par JSON keys the summary reads, back from an npz part's arrays at row ``i``."""
    status = int(z["par_status"][i])
    if status < 0:
        return {"error": "not computed"}
    if status == 0:
        return {"par": None}
    return {"par": {"declarer": Seat(int(z["par_declarer"][i])).name, "bid": str(z["par_bid"][i]),
                    "strain": strains[int(z["par_strain"][i])]}}


def alone_json_from_arrays(z, i: int, strains: Sequence[str], bids: Sequence[str]) -> dict:
    """The lone table JSON the summary reads, back from an npz part's arrays at row ``i``
    (``alone_tricks`` -1 everywhere: the lone table was not computed)."""
    tricks, every = z["alone_tricks"][i], z["alone_all"][i]
    if (tricks < 0).all():
        return {"error": "not computed"}
    return {s.name: {st: [{"bid": b, "tricks": int(tricks[s, j, k]), "all": bool(every[s, j, k])}
                          for k, b in enumerate(bids) if tricks[s, j, k] >= 0]
                     for j, st in enumerate(strains)} for s in Seat}


def carried_text(value) -> str:
    """A carried input value as text that reads back as that value (:func:`carried_value`):
    text as it is unless it would read as JSON (``"1"``, ``"true"``, ``"[1]"``) or is empty,
    then JSON text with its quotes; any other value as JSON."""
    if isinstance(value, str):
        if value and not _reads_as_json(value):
            return value
    return json.dumps(value, ensure_ascii=False)


def _reads_as_json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def carried_value(cell):
    """The value of a carried cell (CSV text or Parquet text): missing for an empty cell, the
    JSON value when the text reads as JSON, else the text itself."""
    if cell is None or (isinstance(cell, float) and cell != cell) or cell == "":
        return None
    if not isinstance(cell, str):
        return cell
    try:
        return json.loads(cell)
    except (ValueError, RecursionError):
        return cell


def extra_cell(value) -> str | int | float:
    """A carried input value as a CSV cell: numbers as numbers, else :func:`carried_text`."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return carried_text(value)


def options_text(options: dict | None) -> str:
    """A run's options (:func:`bideuchre.batch.writers.run_options`) as the one JSON text every
    format stores (keys sorted, no spaces); ``""`` for none."""
    return json.dumps(options, sort_keys=True, ensure_ascii=False, separators=(",", ":")) if options else ""


def read_npz(path, keys: Sequence[str] | None = None, what: str | None = None) -> dict:
    """The arrays of an ``.npz`` file (only ``keys``, those it has, when given), each read once.
    Raises :class:`~bideuchre.batch.base.ResultFileError` naming the file (``what``: how to name
    it, default its path) for a file that is not an npz of plain arrays (cut short, corrupted,
    another format, pickled objects); OSError for a file that cannot be opened."""
    from .base import ResultFileError
    import zipfile
    import zlib

    name = what or repr(str(path))
    with open(path, "rb"):
        pass                                # a missing or unreadable file: its own OSError
    try:
        with np.load(path, allow_pickle=False) as z:
            if not hasattr(z, "files"):
                raise ValueError("one array, not an archive of arrays")
            return {k: z[k] for k in (z.files if keys is None else [k for k in keys if k in z.files])}
    except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile, zlib.error, RuntimeError) as exc:
        raise ResultFileError(f"{name} is not a readable npz ({_why(exc)})") from None


def _why(exc: BaseException) -> str:
    """An exception as a short phrase of one line."""
    text = " ".join(str(exc).split())
    if len(text) > 120:
        text = text[:117] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


# ---------------------------------------------------------------------------------------------
# Loading an output back

_LINE_KEYS = ("schema", "id", "deal", "preset", "dealer", "deck", "table", "alone", "par", OPTIONS_COLUMN)
CARRIED_PREFIX = "carried_"     # a carried key named like a column of the output, as load() names it


def load(path, fmt: str | None = None):
    """Read a batch output (``.jsonl``, ``.csv``, ``.npz`` or ``.parquet``; ``fmt`` overrides the name) into a
    ``pandas.DataFrame`` with one row per deal and the columns of the module docstring:
    ``id``, ``deal``, ``preset``, ``dealer``, ``deck``, ``tricks_SEAT_STRAIN``, the ``alone_*``
    and ``par_*`` columns when the run had ``--alone`` / ``--par``, ``options`` when it had
    ``--rule`` or ``--where``, and one column per carried input key.  Empty cells (no lone
    result, a hand thrown in) are missing values (NaN/None).  The same output in any format
    gives the same values, carried keys too (as the JSON input had them: ``1``, ``True``,
    ``[1, 2]``, ``"1"``).  The solved columns always win: a carried key named like one of them
    (``tricks_N_S``, ``deal``) is the column ``carried_KEY`` (``carried_`` again until the name
    is free), after the other carried keys.

    pandas is optional: ``pip install 'bideuchre[study]'``; Parquet also needs pyarrow
    (``bideuchre[parquet]``).  Raises BatchError for an unknown format,
    :class:`~bideuchre.batch.base.ResultFileError` (one line naming the file and what is wrong)
    for a file that is not a readable batch output of its format (cut short, corrupted, not
    UTF-8, a line or column missing), ImportError (with that advice) without pandas or pyarrow,
    OSError for a file that cannot be opened."""
    try:
        import pandas as pd
    except ImportError:
        raise ImportError("bideuchre.batch.load needs pandas: pip install 'bideuchre[study]'") from None
    from pathlib import Path

    from .base import BatchError, ResultFileError

    fmt = (fmt or Path(path).suffix.lstrip(".") or "jsonl").lower()
    readers = {"csv": _load_csv, "parquet": _load_parquet, "jsonl": _load_jsonl, "npz": _load_npz}
    if fmt not in readers:
        raise BatchError(f"cannot load {str(path)!r}: unknown format {fmt!r} (expected jsonl, csv, npz or parquet)")
    if fmt == "parquet":
        try:
            import pyarrow.parquet  # noqa: F401
        except ImportError:
            raise ImportError("bideuchre.batch.load needs pyarrow for Parquet: "
                              "pip install 'bideuchre[parquet]'") from None
    with open(path, "rb"):
        pass                                # a missing or unreadable file: its own OSError
    try:
        df, options, rows = readers[fmt](pd, path)
        return _with_extras(pd, df, options, rows)
    except ResultFileError:
        raise
    except (ImportError, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001 - any other library's error on a corrupted file
        raise ResultFileError(f"cannot load {str(path)!r} as {fmt}: {_why(exc)}") from None


def _layout(preset: str, deck: str, alone: bool, par: bool, options: dict | None) -> Layout:
    """The layout of an output solved with preset ``preset`` (its ``--rule`` changes in
    ``options``) on ``deck``."""
    from ..rules import get_deck, get_preset

    p = get_preset(str(preset))
    rules = (options or {}).get("rules") or {}
    if rules:
        p = p.with_options(**rules)
    return Layout(p, get_deck(str(deck)), alone, par)


def _options_of(text) -> dict:
    if text is None or (isinstance(text, float) and text != text) or text == "":
        return {}
    obj = json.loads(text) if isinstance(text, str) else text
    if not isinstance(obj, dict):
        raise ValueError(f"its {OPTIONS_COLUMN!r} is not a JSON object")
    return obj


def _fixed_prefix(header: list, first: dict | None) -> list:
    """The columns of a CSV or Parquet output that are the run's (the rest are carried keys and
    ``extra``): the longest layout of its preset and deck, with and without ``--alone`` and
    ``--par``, that the header starts with, and ``options`` after it when there."""
    _check_columns_list(header, ID_COLUMNS)
    if first is None:               # no rows: every column but extra is the run's
        return [c for c in header if c != "extra"]
    options = _options_of(first.get(OPTIONS_COLUMN)) if OPTIONS_COLUMN in header else {}
    best: list = []
    for alone in (False, True):
        for par in (False, True):
            cols = _layout(first["preset"], first["deck"], alone, par, options).columns
            if header[:len(cols)] == cols and len(cols) > len(best):
                best = cols
    if not best:
        raise ValueError("its columns are not those of a batch output of its preset and deck")
    if header[len(best):len(best) + 1] == [OPTIONS_COLUMN]:
        best = best + [OPTIONS_COLUMN]
    return best


def _check_columns_list(header: list, want: list) -> None:
    missing = [c for c in want if c not in header]
    if missing:
        raise ValueError(f"no column {missing[0]!r}: not a batch output")


def _load_csv(pd, path):
    import csv

    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh)
        header = next(reader, None)
        if header is None:
            raise ValueError("an empty file: not a batch output")
        row = next(reader, None)
    first = dict(zip(header, row)) if row else None
    fixed = _fixed_prefix(header, first)
    text = {"id", "deal", "preset", "dealer", "deck", "par_declarer", "par_bid", "par_strain", "par_error",
            "alone_error", OPTIONS_COLUMN}
    carried = [c for c in header if c not in fixed]          # and extra
    dtype = {c: str for c in header if c in text or c in carried}
    df = pd.read_csv(path, dtype=dtype, keep_default_na=False,
                     na_values={c: [""] for c in fixed if c != OPTIONS_COLUMN})
    if list(df.columns) != header:
        raise ValueError("repeated column names")
    rows = _carried_rows(df, [c for c in carried if c != "extra"])
    df = df.drop(columns=carried)
    options = _options_of(df[OPTIONS_COLUMN].iloc[0]) if OPTIONS_COLUMN in df.columns and len(df) else {}
    df["id"] = [_id_value(v) for v in df["id"]]
    return df, options, rows


def _carried_rows(df, carried: list) -> list[dict]:
    """Each row's carried keys as values (:func:`carried_value` of each cell, missing left out),
    the ``extra`` column's JSON last."""
    cols = {c: df[c].tolist() for c in carried}
    extra = df["extra"].tolist() if "extra" in df.columns else [None] * len(df)
    rows = []
    for i in range(len(df)):
        r = {}
        for c in carried:
            v = cols[c][i]
            if isinstance(v, str):
                v = carried_value(v)
            elif v is not None and isinstance(v, float) and v != v:
                v = None
            r[c] = v
        e = extra[i]
        if isinstance(e, str) and e:
            more = json.loads(e)
            if not isinstance(more, dict):
                raise ValueError(f"row {i + 1}: its 'extra' cell is not a JSON object")
            r.update(more)
        rows.append(r)
    return rows


def _load_parquet(pd, path):
    import pyarrow.parquet as pq

    t = pq.read_table(path)
    header = t.column_names
    first = ({c: t[c][0].as_py() for c in ("preset", "deck", OPTIONS_COLUMN) if c in header}
             if t.num_rows else None)
    fixed = _fixed_prefix(header, first)
    carried = [c for c in header if c not in fixed and c != "extra"]
    extra_cols = carried + (["extra"] if "extra" in header else [])
    cells = pd.DataFrame({c: t[c].to_pylist() for c in extra_cols})
    rows = _carried_rows(cells, carried) if extra_cols else [{} for _ in range(t.num_rows)]
    df = t.select(fixed).to_pandas()
    for c in df.columns:      # int8/int16 without nulls as int64, as pandas reads a CSV column
        if pd.api.types.is_integer_dtype(df[c].dtype):
            df[c] = df[c].astype(np.int64)
    options = _options_of(df[OPTIONS_COLUMN].iloc[0]) if OPTIONS_COLUMN in df.columns and len(df) else {}
    df["id"] = [_id_value(v) for v in df["id"]]
    return df, options, rows


def _load_jsonl(pd, path):
    records, extras = [], []
    layout = None
    options: dict = {}
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
                if not isinstance(obj, dict):
                    raise ValueError("not a JSON object")
                if layout is None:
                    options = _options_of(obj.get(OPTIONS_COLUMN))
                    layout = _layout(obj["preset"], obj["deck"], "alone" in obj, "par" in obj, options)
                table = np.array([[int(obj["table"][s.name][st.name]) for st in layout.strains] for s in Seat])
                cells = layout.cells(table, obj.get("alone"), obj.get("par"))
                row = [obj["id"], obj["deal"], obj["preset"], obj["dealer"], obj["deck"]]
            except Exception as exc:  # noqa: BLE001 - named with its line below
                raise ValueError(f"line {lineno}: {_why(exc)}") from None
            if options:
                row.append(options_text(_options_of(obj.get(OPTIONS_COLUMN))))
            records.append(row + [None if c == "" else c for c in cells])
            extras.append({k: v for k, v in obj.items() if k not in _LINE_KEYS})
    if layout is None:
        return pd.DataFrame([], columns=ID_COLUMNS), {}, []
    cols = ID_COLUMNS + ([OPTIONS_COLUMN] if options else []) + layout.result_columns
    df = pd.DataFrame(records, columns=cols)
    return df, options, extras


def _load_npz(pd, path):
    from ..notation import Deal

    a = read_npz(path, what=repr(str(path)))
    for k in ("ids", "deals", "dealer", "tables", "preset", "deck"):
        if k not in a:
            raise ValueError(f"no array {k!r}: not a batch output")
    options = _options_of(str(a[OPTIONS_COLUMN])) if OPTIONS_COLUMN in a else {}
    layout = _layout(str(a["preset"]), str(a["deck"]), "alone_tricks" in a, "par_status" in a, options)
    preset, deck = layout.preset, layout.deck
    n = len(a["ids"])
    seats = [s.name for s in Seat]
    deals = []
    for row, d in zip(a["deals"], a["dealer"]):
        cards = [int(c) for c in row if c >= 0]
        k = len(cards) // 4
        deals.append(Deal([cards[i * k:(i + 1) * k] for i in range(4)], deck, int(d)).pbn())
    data = {"id": [_id_value(v) for v in a["ids"]], "deal": deals, "preset": [str(a["preset"])] * n,
            "dealer": [seats[int(d)] for d in a["dealer"]], "deck": [deck.name] * n}
    if options:
        data[OPTIONS_COLUMN] = [options_text(options)] * n
    t = a["tables"].reshape(n, -1)
    if t.shape[1] != 4 * len(layout.strains):
        raise ValueError(f"tables of {t.shape[1]} numbers a deal, not {4 * len(layout.strains)}")
    for j, name in enumerate(layout.result_columns[:t.shape[1]]):
        data[name] = t[:, j]
    if layout.alone:
        tr, al = a["alone_tricks"], a["alone_all"]
        for s in Seat:
            for j, st in enumerate(layout.strains):
                for k, b in enumerate(layout.lone):
                    v = tr[:, s, j, k]
                    none = v < 0
                    data[f"alone_{s.name}_{st.name}_{b}"] = _missing(v, none)
                    data[f"alone_{s.name}_{st.name}_{b}_all"] = _missing(al[:, s, j, k].astype(np.int8), none)
        data["alone_error"] = [None] * n
    if layout.par:
        st_names = [st.name for st in layout.strains]
        ok = a["par_status"] == 1
        data["par_declarer"] = [seats[int(x)] if o else None for x, o in zip(a["par_declarer"], ok)]
        data["par_bid"] = [str(x) if o else None for x, o in zip(a["par_bid"], ok)]
        data["par_strain"] = [st_names[int(x)] if o else None for x, o in zip(a["par_strain"], ok)]
        data["par_tricks"] = _missing(a["par_tricks"], ~ok)
        done = a["par_status"] >= 0
        data["par_ns"] = _missing(a["par_points"][:, 0], ~done)
        data["par_ew"] = _missing(a["par_points"][:, 1], ~done)
        data["par_error"] = [None if d else "not computed" for d in done]
    rows = []
    for e in (a["extra"].tolist() if "extra" in a else [""] * n):
        r = json.loads(e) if e else {}
        if not isinstance(r, dict):
            raise ValueError("an 'extra' entry is not a JSON object")
        rows.append(r)
    if len(rows) != n:
        raise ValueError(f"{len(rows)} 'extra' entries for {n} deals")
    cols = ID_COLUMNS + ([OPTIONS_COLUMN] if options else []) + layout.result_columns
    return pd.DataFrame(data, columns=cols), options, rows


def _missing(values: np.ndarray, none: np.ndarray) -> np.ndarray:
    """Integers as int64, or as floats with NaN where ``none`` (as pandas reads a CSV column)."""
    return np.where(none, np.nan, values) if none.any() else values.astype(np.int64)


def _id_value(v):
    """An id as written: an integer when it reads as one, else the text."""
    s = str(v)
    return int(s) if s.isascii() and s.isdigit() and str(int(s)) == s else s


def _with_extras(pd, df, options: dict, rows: list[dict]):
    """``df`` with one column per carried key (in order of first appearance); a key named like
    a column of ``df`` is ``carried_KEY`` (:data:`CARRIED_PREFIX`, again until free), after
    the others."""
    if len(rows) != len(df):
        raise ValueError(f"{len(rows)} rows of carried keys for {len(df)} deals")
    keys: dict[str, None] = {}
    for r in rows:
        keys.update(dict.fromkeys(r))
    taken = set(df.columns) | set(keys)
    new = {k: [r.get(k) for r in rows] for k in keys if k not in df.columns}
    for k in keys:              # after the others: CSV and Parquet keep these in 'extra'
        if k in df.columns:
            name = CARRIED_PREFIX + k
            while name in taken:
                name = CARRIED_PREFIX + name
            taken.add(name)
            new[name] = [r.get(k) for r in rows]
    return pd.concat([df, pd.DataFrame(new, index=df.index)], axis=1) if new else df.copy()
