"""Hand features relative to a strain, vectorised over many hands (the bidding model's inputs).

A hand is a row of card counts ``(24,)`` (column = :class:`~bideuchre.rules.Card` id, value =
copies held).  For a strain, :func:`strain_view` reorders the hand into **effective suits ×
order**: row 0 is the trump suit (suit strains) with its cards from the right bower down
(right bower, left bower, A, K, Q, 10, 9: RULES.md §1 "Trump suit order"), rows 1..3 the other
suits, A down to 9 (the left bower's printed suit one card short); in NT and NTL the four suits,
best card first (NTL: the 9 first, the ace last).  Ranks the deck form lacks are zero columns.

:func:`features` turns that view into the model's numbers: for suit strains the trump
holding card by card, the number of trumps (one-hot), the side suits' top cards, voids and
singletons; for NT and NTL the top cards of every suit, long suits and voids.  Suits other
than trumps enter only through sums over suits, so the features do not depend on which side
suit is which.
"""

from __future__ import annotations

import numpy as np

from ..rules import DeckForm, Strain

__all__ = ["strain_view", "features", "feature_names", "strain_kind", "top_runs", "losers", "CATEGORIES",
           "view_features", "view_top_runs"]

CATEGORIES = 5   # hand categories of the tables: 0, 1, 2, 3, 4+ losers (:func:`losers`)

ORDER = 7   # columns of the view: the trump suit's 7 cards; other suits use the first 6


def strain_kind(strain: int) -> str:
    """``"suit"``, ``"nt"`` or ``"ntl"``: strains of one kind share one model (the four trump
    suits are alike under uniform dealing)."""
    return "suit" if strain < 4 else "nt" if strain == Strain.NT else "ntl"


def _index(strain: int) -> np.ndarray:
    """(4, ORDER) card ids of the view (-1: no card): see the module docstring."""
    idx = np.full((4, ORDER), -1, dtype=np.int64)
    ranks_down = [5, 4, 3, 2, 1, 0]            # A K Q J 10 9
    if strain < 4:
        t, lc = int(strain), 3 - int(strain)
        idx[0] = [t * 6 + 2, lc * 6 + 2, t * 6 + 5, t * 6 + 4, t * 6 + 3, t * 6 + 1, t * 6 + 0]
        others = [s for s in range(4) if s != t]
        for r, s in enumerate(others, start=1):
            ranks = [q for q in ranks_down if not (s == lc and q == 2)]
            idx[r, :len(ranks)] = [s * 6 + q for q in ranks]
    else:
        order = ranks_down if strain == Strain.NT else ranks_down[::-1]
        for s in range(4):
            idx[s, :6] = [s * 6 + q for q in order]
    return idx


_INDEX = {s: _index(s) for s in range(6)}


def strain_view(hands: np.ndarray, strain: int) -> np.ndarray:
    """``(n, 4, ORDER)`` int16 counts of ``hands`` ``(n, 24)`` in the strain's effective suits ×
    order (module docstring).  For NT/NTL the four suits keep their printed order."""
    h = np.asarray(hands, dtype=np.int16)
    idx = _INDEX[int(strain)]
    padded = np.concatenate([h, np.zeros((h.shape[0], 1), np.int16)], axis=1)
    return padded[:, np.where(idx < 0, 24, idx)]


def _live_cols(row: int, strain: int, deck: DeckForm) -> list[int]:
    have = {int(r) for r in deck.ranks}
    if strain < 4 and row == 0:
        order = [2, 2, 5, 4, 3, 1, 0]
    elif strain == Strain.NTL:
        order = [0, 1, 2, 3, 4, 5]
    else:
        order = [5, 4, 3, 2, 1, 0]
    cols = [j for j, r in enumerate(order) if r in have]
    if strain < 4 and row > 0:
        # a side suit: the left bower's printed suit lacks its jack (one column fewer)
        cols = [j for j in cols if j < 6]
    return cols


def _run_cols(strain: int, deck: DeckForm) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The view cells :func:`top_runs` reads, per effective suit in the order a run takes
    them: ``(cols (4, L), copy (4, L), live (4, L))`` -- the view column, the copy (0 the first,
    1 the second of a double deck) and whether the cell is a card of the deck (False: padding
    after the suit's last card)."""
    key = (strain_kind(int(strain)), deck)
    hit = _RUN_COLS.get(key)
    if hit is None:
        cells = [[(c, m) for c in _live_cols(r, strain, deck) for m in range(deck.copies)]
                 for r in range(4)]
        width = max(len(x) for x in cells)
        cols = np.zeros((4, width), dtype=np.int64)
        copy = np.zeros((4, width), dtype=np.int16)
        live = np.zeros((4, width), dtype=bool)
        for r, x in enumerate(cells):
            for j, (c, m) in enumerate(x):
                cols[r, j], copy[r, j], live[r, j] = c, m, True
        hit = _RUN_COLS[key] = (cols, copy, live)
    return hit


_RUN_COLS: dict = {}
_ROWS = np.repeat(np.arange(4)[:, None], 16, axis=1)     # the view row of each cell


def top_runs(hands: np.ndarray, strain: int, deck: DeckForm) -> np.ndarray:
    """``(n, 4)`` per effective suit (view rows), the cards held in an unbroken run from the
    top of the suit (each copy of a double deck counted, the first copy above the second): the
    tricks the suit takes at once when it is led and never ruffed."""
    return view_top_runs(strain_view(hands, strain), strain, deck)


def view_top_runs(v: np.ndarray, strain: int, deck: DeckForm) -> np.ndarray:
    """:func:`top_runs` of a :func:`strain_view` ``v`` ``(n, 4, ORDER)``; ``strain`` gives only
    the kind (any suit strain for a stack of suit views)."""
    cols, copy, live = _run_cols(strain, deck)
    held = (v[:, _ROWS[:, :cols.shape[1]], cols] > copy) & live
    return np.cumprod(held, axis=2, dtype=np.int16).sum(axis=2, dtype=np.int16)


def losers(hands: np.ndarray, strain: int, deck: DeckForm) -> np.ndarray:
    """``(n,)`` cards of the hand outside its top runs (:func:`top_runs`)."""
    h = np.asarray(hands)
    return h.sum(axis=1).astype(np.int16) - top_runs(h, strain, deck).sum(axis=1)


def features(hands: np.ndarray, strain: int, deck: DeckForm) -> np.ndarray:
    """``(n, F)`` float64 features of ``hands`` ``(n, 24)`` for ``strain`` under ``deck``
    (names: :func:`feature_names`).  The first column is the constant 1."""
    return view_features(strain_view(hands, strain), strain, deck)


def view_features(v: np.ndarray, strain: int, deck: DeckForm) -> np.ndarray:
    """:func:`features` of a :func:`strain_view` ``v`` ``(n, 4, ORDER)``; ``strain`` gives only
    the kind (any suit strain for a stack of suit views)."""
    n = v.shape[0]
    hand = deck.hand
    cols: list[np.ndarray] = [np.ones(n)]
    kind = strain_kind(strain)
    if kind == "suit":
        live_t = _live_trump(deck)
        trumps = v[:, 0, :]
        nt = trumps.sum(axis=1)
        for j in live_t:
            cols.append(trumps[:, j].astype(float))
            if deck.copies == 2:
                cols.append((trumps[:, j] == 2).astype(float))
        for k in range(1, min(hand, 9) + 1):
            cols.append((nt == k).astype(float))
        cols.append(np.maximum(nt - 9, 0).astype(float))
        side = v[:, 1:, :6]
        live_s = _live_side(deck)
        length = side.sum(axis=2)
        a = side[:, :, live_s[0]]
        k_ = side[:, :, live_s[1]]
        q = side[:, :, live_s[2]]
        cols += [a.sum(1).astype(float), k_.sum(1).astype(float), q.sum(1).astype(float),
                 (np.minimum(a, 1) * np.minimum(k_, 1)).sum(1).astype(float),
                 ((k_ > 0) & (a == 0) & (length == 1)).sum(1).astype(float),     # bare king
                 (length == 0).sum(1).astype(float), (length == 1).sum(1).astype(float),
                 (length == 2).sum(1).astype(float),
                 (nt * (length == 0).sum(1)).astype(float),                      # trumps × voids
                 (a * (length - 1).clip(0)).sum(1).astype(float)]
    else:
        live = _live_nt(deck, strain)
        length = v.sum(axis=2)
        top = v[:, :, live]                         # (n, 4, ranks) best first
        for j in range(min(4, top.shape[2])):
            cols.append(top[:, :, j].sum(1).astype(float))
        a = top[:, :, 0]
        k_ = top[:, :, 1]
        q = top[:, :, 2] if top.shape[2] > 2 else np.zeros_like(a)
        cols += [(a > 0).sum(1).astype(float),
                 (np.minimum(a, 1) * np.minimum(k_, 1)).sum(1).astype(float),
                 (np.minimum(a, 1) * np.minimum(k_, 1) * np.minimum(q, 1)).sum(1).astype(float),
                 ((k_ > 0) & (length >= 2)).sum(1).astype(float),
                 (length == 0).sum(1).astype(float), (length == 1).sum(1).astype(float),
                 length.max(1).astype(float), (length.max(1) ** 2).astype(float),
                 # the longest suit's top cards: long suits run once their tops are cashed
                 np.take_along_axis(a, length.argmax(1)[:, None], 1)[:, 0].astype(float),
                 np.take_along_axis(k_, length.argmax(1)[:, None], 1)[:, 0].astype(float)]
        if deck.copies == 2:
            cols.append((a == 2).sum(1).astype(float))
    return np.stack(cols, axis=1)


def _live_trump(deck: DeckForm) -> list[int]:
    """View columns of the trump suit's cards that the deck has (the bowers always)."""
    have = {int(r) for r in deck.ranks}
    rank_of = [2, 2, 5, 4, 3, 1, 0]
    return [j for j, r in enumerate(rank_of) if r in have]


def _live_side(deck: DeckForm) -> list[int]:
    """View columns of a side suit's A, K, Q (always in the deck forms of RULES.md §1)."""
    return [0, 1, 2]


def _live_nt(deck: DeckForm, strain: int) -> np.ndarray:
    have = {int(r) for r in deck.ranks}
    order = [5, 4, 3, 2, 1, 0] if strain == Strain.NT else [0, 1, 2, 3, 4, 5]
    return np.array([j for j, r in enumerate(order) if r in have])


def feature_names(strain: int, deck: DeckForm) -> list[str]:
    """The names of :func:`features`' columns."""
    if strain_kind(strain) == "suit":
        names = ["1"]
        labels = ["R", "L", "A", "K", "Q", "T", "9"]
        for j in _live_trump(deck):
            names.append(f"trump {labels[j]}")
            if deck.copies == 2:
                names.append(f"trump {labels[j]} x2")
        names += [f"trumps={k}" for k in range(1, min(deck.hand, 9) + 1)] + ["trumps>9"]
        names += ["side A", "side K", "side Q", "side AK", "bare K", "voids", "singletons",
                  "doubletons", "trumps*voids", "A length"]
        return names
    names = ["1"] + [f"top{j}" for j in range(min(4, len(_live_nt(deck, strain))))]
    names += ["suits with top", "top2 suits", "top3 suits", "guarded 2nd", "voids", "singletons",
              "longest", "longest^2", "longest top", "longest 2nd"]
    if deck.copies == 2:
        names.append("double tops")
    return names
