"""The trick model: what one seat's hand alone says about its side's double-dummy tricks.

:class:`TrickModel` reads the learned tables of a deck form (``data/<deck>.npz``, made by
``benchmarks/train_bidmodel.py``; the fit: :mod:`bideuchre.bidding.train`) and gives, for many
hands at once,

- :meth:`TrickModel.trick_probs`: ``P(the seat's side takes k DD tricks in strain s)``, the seat
  declaring and the first lead by the preset's rule (RULES.md §2 "first lead"), the other
  three hands dealt uniformly from the rest of the deck;
- :meth:`TrickModel.lone_probs`: ``P(the lone hand takes every trick)`` for each lone bid of
  the preset (with its best exchange, RULES.md §2 "Lone bids and card exchanges"), the lone
  first lead by :func:`bideuchre.analysis.lone.lone_leader`.

The model of a strain is a table: a linear hand-strength score of the hand's features
(:mod:`bideuchre.bidding.features`) cut into bins, and per bin and first leader (relative to
the declarer) the frequency of each trick count on the training deals.  A hand costs a
feature row, a dot product and a lookup: vectorised, about a microsecond a hand and strain.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from importlib import resources
from pathlib import Path

import numpy as np

from ..rules import BidEuchreError, Preset, get_preset
from ..search.solve import first_leader
from .features import CATEGORIES, strain_kind, strain_view, view_features, view_top_runs

__all__ = ["TrickModel", "ModelDataError", "data_path", "bin_index", "MEMO_SIZE", "MEMO_ROWS"]


class ModelDataError(BidEuchreError):
    """The learned data of a deck form is missing or does not fit the preset."""


def data_path(deck: str) -> Path:
    """The shipped data file of a deck form (``solver/bidding/data/<deck>.npz``)."""
    return Path(str(resources.files("bideuchre.bidding") / "data" / f"{deck}.npz"))


def bin_index(edges: np.ndarray, score: np.ndarray, cat: np.ndarray) -> np.ndarray:
    """The bin of each score within its hand category's cut points."""
    b = np.empty(len(score), dtype=np.int64)
    for c in range(edges.shape[0]):
        m = cat == c
        if m.any():
            b[m] = np.searchsorted(edges[c], score[m], side="right")
    return b



MEMO_SIZE = 64          # hand sets whose trick and lone probabilities a model remembers
MEMO_ROWS = 4096        # ... each of at most this many hands (at most ~64 x 4 MB in all)
_CACHE: dict = {}
_LOCK = threading.Lock()


def _check_hands(hands, preset: Preset) -> np.ndarray:
    h = np.asarray(hands)
    if h.ndim == 1:
        h = h[None]
    if h.ndim != 2 or h.shape[1] != 24:
        raise ModelDataError(f"hands: expected card counts of shape (n, 24), got {h.shape}")
    return h


class TrickModel:
    """The learned trick model of a preset (its deck form's tables, its strains, its lone
    bids).  Make one with :meth:`load`; every method takes ``hands`` ``(n, 24)`` card counts
    (0/1, or 0/1/2 in a double deck: ``Deal.counts()`` per seat), the ``seat`` declaring and
    the ``dealer`` (seat ids 0..3, N E S W)."""

    def __init__(self, preset: Preset, arrays: dict, meta: dict):
        self.preset = preset
        self.meta = meta
        self.tricks = preset.tricks
        self._a = arrays
        self.strains = tuple(preset.strains)
        for s in self.strains:
            if f"{strain_kind(int(s))}_w" not in arrays:
                raise ModelDataError(f"the {preset.deck.name} model has no {strain_kind(int(s))} "
                                     f"table for strain {s.name} of preset {preset.name!r}")
        self.lone_bids = tuple(preset.lone_bids)
        self.has_lone = bool(self.lone_bids) and preset.name in meta.get("lone", [])
        self._memo_d: OrderedDict = OrderedDict()
        self._memo_lock = threading.Lock()

    @classmethod
    def load(cls, preset: Preset | str, path: str | Path | None = None) -> "TrickModel":
        """The shipped model of ``preset``'s deck form (or the file ``path``).  Cached per
        preset.  Raises ModelDataError when the data file is missing or lacks a strain."""
        preset = get_preset(preset)
        key = (preset, None if path is None else str(path))
        with _LOCK:
            hit = _CACHE.get(key)
            if hit is not None:
                return hit
            p = data_path(preset.deck.name) if path is None else Path(path)
            if not p.exists():
                raise ModelDataError(f"no bidding model data for deck form {preset.deck.name} "
                                     f"({p}): run benchmarks/train_bidmodel.py")
            with np.load(p) as z:
                arrays = {k: z[k] for k in z.files if k != "meta"}
                meta = json.loads(str(z["meta"]))
            model = _CACHE[key] = cls(preset, arrays, meta)
            return model

    # -- the tables ---------------------------------------------------------------------------
    def _kind_rows(self, hands: np.ndarray) -> list[tuple[str, list[int], tuple[np.ndarray, np.ndarray]]]:
        """Per strain kind (:func:`~.features.strain_kind`): ``(kind, columns, (x, cat))`` -- the
        columns of ``preset.strains`` of that kind and the feature rows and hand categories of
        ``hands`` in each of them, stacked strain by strain (``len(columns) × n`` rows; the
        four trump suits share one table, so one lookup reads them all)."""
        deck = self.preset.deck
        count = np.asarray(hands).sum(axis=1).astype(np.int16)
        out = []
        for kind in ("suit", "nt", "ntl"):
            cols = [j for j, s in enumerate(self.strains) if strain_kind(int(s)) == kind]
            if not cols:
                continue
            ss = [int(self.strains[j]) for j in cols]
            v = np.concatenate([strain_view(hands, s) for s in ss]) if len(ss) > 1 else strain_view(hands, ss[0])
            x = view_features(v, ss[0], deck)
            lose = np.tile(count, len(ss)) - view_top_runs(v, ss[0], deck).sum(axis=1)
            out.append((kind, cols, (x, np.minimum(lose, CATEGORIES - 1))))
        return out

    @staticmethod
    def _spread(out: np.ndarray, cols: list[int], stacked: np.ndarray, index=()) -> None:
        """Write the strain-stacked rows ``stacked`` into ``out[:, col, *index]`` per column."""
        n = out.shape[0]
        for i, j in enumerate(cols):
            out[(slice(None), j) + tuple(index)] = stacked[i * n:(i + 1) * n]

    def _lookup(self, prefix: str, rows: tuple[np.ndarray, np.ndarray], lead_rel: int) -> np.ndarray:
        a = self._a
        x, cat = rows
        b = bin_index(a[prefix + "_edges"], x @ a[prefix + "_w"], cat)
        return a[prefix + "_p"][lead_rel, cat, b]

    def _memo(self, what: str, h: np.ndarray, r: int, make) -> np.ndarray:
        """``make()``, remembered for the last :data:`MEMO_SIZE` hand sets (keyed by their bytes):
        the evidence and the later seats' calls of one advice read the same sampled hands many
        times; sets of more than :data:`MEMO_ROWS` hands are not kept.  The arrays returned are
        read-only (shared between callers)."""
        if h.shape[0] > MEMO_ROWS:          # memory stays bounded: large sets are not kept
            out = make()
            out.setflags(write=False)
            return out
        key = (what, r, h.shape, h.dtype.str, h.tobytes())
        with self._memo_lock:
            hit = self._memo_d.get(key)
            if hit is not None:
                self._memo_d.move_to_end(key)
                return hit
        out = make()
        out.setflags(write=False)
        with self._memo_lock:
            self._memo_d[key] = out
            while len(self._memo_d) > MEMO_SIZE:
                self._memo_d.popitem(last=False)
        return out

    def lead_rel(self, seat: int, dealer: int) -> int:
        """The first leader of a number contract relative to the declarer ``seat``: 0 the
        declarer, 1 its left, 2 its partner, 3 its right (RULES.md §2)."""
        return (int(first_leader(self.preset, seat, dealer)) - int(seat)) % 4

    def trick_probs(self, hands, seat: int, dealer: int) -> np.ndarray:
        """``(n, strains, tricks + 1)`` float64: P(the side of ``seat`` takes k DD tricks in each
        of the preset's strains, in ``preset.strains`` order | this hand only), ``seat``
        declaring.  Rows sum to 1.  Read-only (remembered for the next call with these hands)."""
        h = _check_hands(hands, self.preset)
        r = self.lead_rel(seat, dealer)

        def make():
            out = np.empty((h.shape[0], len(self.strains), self.tricks + 1))
            for kind, cols, rows in self._kind_rows(h):
                self._spread(out, cols, self._lookup(kind, rows, r))
            return out
        return self._memo("tricks", h, r, make)

    def expected_tricks(self, hands, seat: int, dealer: int) -> np.ndarray:
        """``(n, strains)`` expected DD tricks of the seat's side (from :meth:`trick_probs`)."""
        return self.trick_probs(hands, seat, dealer) @ np.arange(self.tricks + 1)

    def lone_probs(self, hands, seat: int, dealer: int) -> np.ndarray:
        """``(n, strains, lone bids)`` float64: P(``seat`` going alone takes every trick in the
        strain with the bid's best exchange | this hand only), the preset's lone bids low →
        high; zeros where the preset has none (or its data has no lone tables).  Read-only."""
        h = _check_hands(hands, self.preset)
        if not self.has_lone:
            out = np.zeros((h.shape[0], len(self.strains), len(self.lone_bids)))
            out.setflags(write=False)
            return out
        from ..analysis.lone import lone_leader
        r = (int(lone_leader(self.preset, seat, dealer)) - int(seat)) % 4

        def make():
            out = np.zeros((h.shape[0], len(self.strains), len(self.lone_bids)))
            for kind, cols, rows in self._kind_rows(h):
                for b in range(len(self.lone_bids)):
                    self._spread(out, cols, self._lookup(f"lone_{self.preset.name}_{b}_{kind}", rows, r), (b,))
            return out
        return self._memo("lone", h, r, make)
