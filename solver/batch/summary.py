"""The batch summary: counts over the solved deals in constant memory."""

from __future__ import annotations

from collections import Counter
from typing import Sequence

import numpy as np

from ..rules import DeckForm, Preset, Seat, parse_seat
from .base import SCHEMA


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

    Study options: ``declarers`` keeps only those declarer seats' rows (``("S",)``:
    one row a deal, South declaring; the lone results too); ``by`` (a
    :class:`~bideuchre.analysis.conditions.Condition`, a number or a condition taken as 0/1)
    adds a summary per value of that feature of the deal (``groups``: value → Summary), which
    needs the deals' card counts in :meth:`add`.  With lone results (``--alone``), per lone bid
    and strain how often the lone hand takes every trick and its mean tricks.
    """

    def __init__(self, preset: Preset, deck: DeckForm | None = None, *,
                 declarers: Sequence[int | str] | None = None, by=None):
        self.preset = preset
        self.deck = deck or preset.deck
        self.strains = tuple(preset.strains)
        self.tricks = self.deck.hand
        self.declarers = (tuple(sorted({parse_seat(x) for x in declarers})) if declarers
                          else tuple(Seat))
        self.by = by
        self.groups: dict[int, Summary] = {}
        self.lone_rows = 0
        self.lone_errors = 0
        self.lone: dict[str, dict[str, list[int]]] = {}   # bid -> strain -> [every trick, tricks]
        self.lone_any: Counter = Counter()                 # bid -> rows where a strain takes all
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

    def add(self, tables: np.ndarray, par: Sequence[dict] | None = None,
            alone: Sequence[dict] | None = None, counts: np.ndarray | None = None) -> None:
        """Add ``tables`` ``(n, 4, strains)`` tricks, and per deal a par JSON and a lone-table
        JSON (``{seat: {strain: [{"bid", "tricks", "all", ...}]}}`` or ``{"error": ...}``) if
        given; ``counts`` ``(n, 4, 24)``, the deals' cards (``RecordChunk.counts``), are needed with
        ``by``.  Raises ValueError when ``by`` is set and ``counts`` is not given."""
        t3 = np.asarray(tables, dtype=np.int64).reshape(-1, 4, len(self.strains))
        if not len(t3):
            return
        if self.by is not None:
            if counts is None:
                raise ValueError("a summary by a feature needs the deals' card counts")
            values = self.by.evaluate_counts(np.asarray(counts).reshape(-1, 4, 24)).astype(np.int64)
            for v in np.unique(values).tolist():
                idx = np.flatnonzero(values == v)
                g = self.groups.get(v)
                if g is None:
                    g = self.groups[v] = Summary(self.preset, self.deck, declarers=self.declarers)
                g.add(t3[idx], None if par is None else [par[i] for i in idx],
                      None if alone is None else [alone[i] for i in idx])
        if alone is not None:
            self._add_alone(alone)
        k = len(self.declarers)
        t3 = t3[:, list(self.declarers), :]
        t = t3.reshape(-1, len(self.strains))
        self.deals += len(t) // k
        for j in range(len(self.strains)):
            self.hist[j] += np.bincount(t[:, j], minlength=self.tricks + 1)[: self.tricks + 1]
        best = t.max(axis=1)
        is_best = t == best[:, None]
        self.best_share += (is_best / is_best.sum(axis=1, keepdims=True)).sum(axis=0)
        self.best_hist += np.bincount(best, minlength=self.tricks + 1)[: self.tricks + 1]
        self.top_seat += t3.max(axis=1).sum(axis=0)
        if par is not None:
            for p in par:
                full, short = _par_label(p, self._lone_names)
                self.par_deals += 1
                self.par[full] += 1
                self.par_contract[short] += 1

    def _add_alone(self, alone: Sequence[dict]) -> None:
        names = [st.name for st in self.strains]
        seats = [x.name for x in self.declarers]
        for lt in alone:
            if not isinstance(lt, dict) or "error" in lt:
                self.lone_errors += 1
                continue
            for seat in seats:
                row = lt.get(seat)
                if row is None:
                    continue
                self.lone_rows += 1
                made: set = set()
                for st in names:
                    for r in row.get(st, ()):
                        cell = self.lone.setdefault(r["bid"], {}).setdefault(st, [0, 0])
                        cell[0] += bool(r["all"])
                        cell[1] += int(r["tricks"])
                        if r["all"]:
                            made.add(r["bid"])
                for bid in made:
                    self.lone_any[bid] += 1

    def to_json(self) -> dict:
        """The same numbers as the rich tables: ``{"deals", "strains": {S: {"mean",
        "top_seat_mean", "distribution", "best_share"}}, "best_strain": {"mean", "distribution"},
        "make_rates": {level: {S: rate, ..., "best": rate}}, "par_contracts": {"deals",
        "frequency": {"4 NT by W": n, ...}, "by_contract": {"4 NT": n, ...}}}`` (par only
        when par results were added).
        Rates and shares are fractions of (deal, declarer seat) pairs, of the seats in
        ``"declarers"``.  With lone results ``"alone": {"rows", "errors", "bids": {bid:
        {"strains": {S: {"every_trick": rate, "mean_tricks": x}}, "any_strain": rate}}}`` (rows:
        (deal, lone seat) pairs; ``any_strain``: some strain takes every trick); with ``by``,
        ``"by": {"feature", "groups": [{"value", "deals", "share", "strains", "best_strain",
        "make_rates", ...}]}`` (each group as this object, ``share`` its fraction of the deals).
        """
        rows = max(1, self.deals * len(self.declarers))
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
               "deals": self.deals, "declarers": [x.name for x in self.declarers],
               "declarer_rows": self.deals * len(self.declarers), "bad_lines": self.bad_lines,
               "strains": strains,
               "best_strain": {"mean": round(float((self.best_hist * np.arange(self.tricks + 1)).sum() / rows), 4),
                               "distribution": {str(k): int(v) for k, v in enumerate(self.best_hist)}},
               "make_rates": make}
        if self.par_deals:
            obj["par_contracts"] = {"deals": self.par_deals,
                                    "frequency": dict(self.par.most_common()),
                                    "by_contract": dict(self.par_contract.most_common())}
        if self.lone_rows or self.lone_errors:
            lrows = max(1, self.lone_rows)
            obj["alone"] = {"rows": self.lone_rows, "errors": self.lone_errors, "bids": {
                bid: {"strains": {st: {"every_trick": round(c[0] / lrows, 4), "mean_tricks": round(c[1] / lrows, 4)}
                                  for st, c in cells.items()},
                      "any_strain": round(self.lone_any[bid] / lrows, 4)}
                for bid, cells in self.lone.items()}}
        if self.by is not None:
            groups = []
            for v in sorted(self.groups):
                g = self.groups[v].to_json()
                for key in ("schema", "preset", "deck", "declarers", "bad_lines"):
                    g.pop(key, None)
                groups.append({"value": v, "deals": g.pop("deals"),
                               "share": round(self.groups[v].deals / max(1, self.deals), 4), **g})
            obj["by"] = {"feature": self.by.text, "kind": self.by.kind, "groups": groups}
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
