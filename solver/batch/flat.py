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
- each key carried from a JSON input line, as a column of its own (text as it is, other values
  as JSON); in CSV, keys first seen after the header was written go to a last ``extra`` column
  as JSON.

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


def extra_cell(value) -> str | int | float:
    """A carried input value as a CSV cell: text as it is, numbers as numbers, else JSON."""
    if isinstance(value, str) or (isinstance(value, (int, float)) and not isinstance(value, bool)):
        return value
    return json.dumps(value, ensure_ascii=False)


# ---------------------------------------------------------------------------------------------
# Loading an output back

_LINE_KEYS = ("schema", "id", "deal", "preset", "dealer", "deck", "table", "alone", "par")


def load(path, fmt: str | None = None):
    """Read a batch output (``.jsonl``, ``.csv``, ``.npz`` or ``.parquet``; ``fmt`` overrides the name) into a
    ``pandas.DataFrame`` with one row per deal and the columns of the module docstring:
    ``id``, ``deal``, ``preset``, ``dealer``, ``deck``, ``tricks_SEAT_STRAIN``, the ``alone_*``
    and ``par_*`` columns when the run had ``--alone`` / ``--par``, and one column per carried
    input key.  Empty cells (no lone result, a hand thrown in) are missing values (NaN/None).
    The same output in any format gives the same values.

    pandas is optional: ``pip install 'bideuchre[study]'``; Parquet also needs pyarrow
    (``bideuchre[parquet]``).  Raises BatchError for an unknown format, ImportError (with that
    advice) without pandas or pyarrow, OSError for a file not read."""
    try:
        import pandas as pd
    except ImportError:
        raise ImportError("bideuchre.batch.load needs pandas: pip install 'bideuchre[study]'") from None
    from ..rules import get_deck, get_preset
    from .base import BatchError
    from pathlib import Path

    fmt = (fmt or Path(path).suffix.lstrip(".") or "jsonl").lower()
    if fmt in ("csv", "parquet"):
        if fmt == "csv":
            df = pd.read_csv(path, dtype={"id": str, "deal": str, "par_declarer": str, "par_bid": str,
                                          "par_strain": str, "par_error": str, "alone_error": str})
        else:
            try:
                import pyarrow.parquet as pq
            except ImportError:
                raise ImportError("bideuchre.batch.load needs pyarrow for Parquet: "
                                  "pip install 'bideuchre[parquet]'") from None
            df = pq.read_table(path).to_pandas()
            for c in df.columns:      # int8/int16 without nulls as int64, as pandas reads a CSV column
                if pd.api.types.is_integer_dtype(df[c].dtype):
                    df[c] = df[c].astype(np.int64)
        df["id"] = [_id_value(v) for v in df["id"]]
        extra = df.pop("extra") if "extra" in df.columns else None
        rows = [json.loads(e) if isinstance(e, str) and e else {} for e in (extra if extra is not None else [])]
        return _with_extras(pd, df, rows)
    if fmt == "jsonl":
        records, extras = [], []
        layout = None
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if not line.strip():
                    continue
                obj = json.loads(line)
                if layout is None:
                    p = get_preset(obj["preset"])
                    layout = Layout(p, get_deck(obj["deck"]), "alone" in obj, "par" in obj)
                table = np.array([[obj["table"][s.name][st.name] for st in layout.strains] for s in Seat])
                cells = layout.cells(table, obj.get("alone"), obj.get("par"))
                records.append([obj["id"], obj["deal"], obj["preset"], obj["dealer"], obj["deck"]]
                               + [None if c == "" else c for c in cells])
                extras.append({k: v for k, v in obj.items() if k not in _LINE_KEYS})
        cols = layout.columns if layout is not None else ID_COLUMNS
        return _with_extras(pd, pd.DataFrame(records, columns=cols), extras)
    if fmt == "npz":
        from ..notation import Deal
        with np.load(path) as z:
            a = {k: z[k] for k in z.files}
        preset, deck = get_preset(str(a["preset"])), get_deck(str(a["deck"]))
        layout = Layout(preset, deck, "alone_tricks" in a, "par_status" in a)
        n = len(a["ids"])
        seats = [s.name for s in Seat]
        deals = []
        for row, d in zip(a["deals"], a["dealer"]):
            cards = [int(c) for c in row if c >= 0]
            k = len(cards) // 4
            deals.append(Deal([cards[i * k:(i + 1) * k] for i in range(4)], deck, int(d)).pbn())
        data = {"id": [_id_value(v) for v in a["ids"]], "deal": deals, "preset": [preset.name] * n,
                "dealer": [seats[int(d)] for d in a["dealer"]], "deck": [deck.name] * n}
        t = a["tables"].reshape(n, -1)
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
        rows = [json.loads(e) if e else {} for e in a.get("extra", [""] * n)]
        return _with_extras(pd, pd.DataFrame(data, columns=layout.columns), rows)
    raise BatchError(f"cannot load {str(path)!r}: unknown format {fmt!r} (expected jsonl, csv, npz or parquet)")


def _missing(values: np.ndarray, none: np.ndarray) -> np.ndarray:
    """Integers as int64, or as floats with NaN where ``none`` (as pandas reads a CSV column)."""
    return np.where(none, np.nan, values) if none.any() else values.astype(np.int64)


def _id_value(v):
    """An id as written: an integer when it reads as one, else the text."""
    s = str(v)
    return int(s) if s.isascii() and s.isdigit() and str(int(s)) == s else s


def _with_extras(pd, df, rows: list[dict]):
    """``df`` with one column per carried key (in order of first appearance)."""
    keys: dict[str, None] = {}
    for r in rows:
        keys.update(dict.fromkeys(r))
    new = {}
    for k in keys:
        if k in df.columns:
            df[k] = [r[k] if k in r else v for r, v in zip(rows, df[k])]
        else:
            new[k] = [r.get(k) for r in rows]
    return pd.concat([df, pd.DataFrame(new, index=df.index)], axis=1) if new else df.copy()
