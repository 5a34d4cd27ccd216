"""The batch summary: counts over the solved deals in constant memory."""

from __future__ import annotations

from collections import Counter
from typing import Sequence

import numpy as np

from ..rules import DeckForm, Preset
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
