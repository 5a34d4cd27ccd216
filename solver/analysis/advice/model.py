"""The auction from the advised seat's turn on, over many deals at once (vectorised backward
induction, as :func:`bideuchre.analysis.par.solve_auction` does for one deal): every other
seat chooses with all hands open to maximise its side's hand result; and the game-end test."""

from __future__ import annotations

from typing import Optional

import numpy as np

from ...rules import Preset, Seat, Strain
from ..auction import Bid, ladder, legal_actions
from typing import TYPE_CHECKING

if TYPE_CHECKING:                   # only for the annotations (deal_data's model continuation imports this module)
    from .deal_data import DealData

__all__ = ["Outcome", "AuctionModel", "points", "wins_game"]


class Outcome:
    """Arrays over the deals, stacked ``(4, S)`` int32: points of NS, points of EW, the
    declarer seat (-1: thrown in), made (1/0)."""

    __slots__ = ("a", "diff")

    def __init__(self, a: np.ndarray):
        self.a = a
        self.diff = a[0] - a[1]

    @classmethod
    def of(cls, ns, ew, side, made) -> "Outcome":
        a = np.empty((4,) + np.shape(ns), dtype=np.int32)
        a[0], a[1], a[2], a[3] = ns, ew, side, made         # each broadcast to the deals
        return cls(a)

    ns = property(lambda self: self.a[0])
    ew = property(lambda self: self.a[1])
    declarer = property(lambda self: self.a[2])
    side = property(lambda self: np.where(self.a[2] >= 0, self.a[2] % 2, -1))
    made = property(lambda self: self.a[3].astype(bool))

    def select(self, mask, other: "Outcome") -> "Outcome":
        return Outcome(np.where(mask, other.a, self.a))


def points(preset: Preset, bid: Bid, t: np.ndarray, made_all: np.ndarray | None = None):
    """Vectorised :func:`bideuchre.analysis.auction.hand_result`: (declarer points, defenders, made)."""
    n = preset.tricks
    if bid.lone is not None:
        made = (t == n) if made_all is None else made_all
        decl = np.where(made, bid.lone.value, -bid.lone.value)
        defs = np.where(made, 0, (n - t) if preset.defenders_vs_lone == "tricks" else 0)
        return decl, defs, made
    made = t >= bid.level
    pen = bid.level if preset.set_penalty is None else preset.set_penalty
    return np.where(made, t, -pen), n - t, made


class AuctionModel:
    """Leaves and backward induction over the deals (as :func:`bideuchre.analysis.par.solve_auction`)."""

    def __init__(self, data: DealData, me: Seat, mine: str = "lo", others: str = "lo"):
        self.d = data
        self.p = data.preset
        self.me = me
        self.bounds = (mine, others)  # "lo" / "hi": failing lone hands of our seat, the others
        self.bids = ladder(self.p)
        self.lone_index = {lb.name: j for j, lb in enumerate(data.lone)}
        self._leaf_cache: dict = {}
        self._memo: dict = {}

    def lone_tricks(self, seat: int, j: int) -> np.ndarray:
        """(S, strains) tricks of a failing lone hand at this model's bound; n where made."""
        d = self.d
        bound = self.bounds[0] if seat == self.me else self.bounds[1]
        t = d.lo[:, seat, j] if bound == "lo" else d.hi[:, seat, j]
        return np.where(d.made[:, seat, j], d.n, t)

    def leaf(self, seat: int, bid: Bid, strain: Optional[int]) -> Outcome:
        """Outcome when ``seat`` declares ``bid``; ``strain`` fixed (our seat) or None (best
        per deal, as in par)."""
        key = (seat, bid, strain)
        hit = self._leaf_cache.get(key)
        if hit is not None:
            return hit
        d = self.d
        if bid.lone is not None:
            j = self.lone_index[bid.name]
            tr = self.lone_tricks(seat, j)
        else:
            tr = d.dd[:, seat].astype(np.int64)
        if bid.strain is not None:
            t = tr[:, d.strains.index(bid.strain)]
        elif strain is not None:
            t = tr[:, d.strains.index(Strain(strain))]
        else:
            t = tr.max(axis=1)  # results rise with tricks: the best strain has the most
        decl, defs, made = points(self.p, bid, np.asarray(t, dtype=np.int64))
        ns, ew = (decl, defs) if seat % 2 == 0 else (defs, decl)
        out = Outcome.of(ns, ew, np.full(d.S, int(seat)), made)
        self._leaf_cache[key] = out
        return out

    def continuation(self, index: int, high: Optional[Bid], high_seat: Optional[int],
                     my_strain: Optional[int]) -> Outcome:
        """Outcome of the auction from speaker ``index`` on (our turn is over).  Nodes are
        shared between calls: a node whose high bid is not ours does not depend on our
        strain."""
        def best_for_mover(sign, kids):
            best = kids[0]
            for o in kids[1:]:
                best = best.select(sign * o.diff > sign * best.diff, o)
            return best

        zero = Outcome.of(np.zeros(self.d.S, np.int32), 0, -1, 0)
        return walk_auction(self, index, high, high_seat, my_strain, zero, best_for_mover)


def walk_auction(model, index: int, high: Optional[Bid], high_seat: Optional[int],
                 my_strain: Optional[int], zero, choose):
    """Backward induction over the rest of an auction, from speaker ``index`` with ``high``
    bid by ``high_seat``: a leaf is ``model.leaf(seat, bid, strain)`` (our strain fixed where
    we declare), ``zero`` when all pass, and a speaker's node is ``choose(sign, children)`` —
    the children's results in the order of :func:`legal_actions`, ``sign`` +1 when North-South
    speak, -1 for East-West.  Memoised in ``model._memo`` (a node whose high bid is not ours
    does not depend on our strain).  ``model`` has ``p``, ``d.dealer``, ``bids``, ``me``,
    ``leaf`` and ``_memo`` (:class:`AuctionModel`, and the benchmark's interval model)."""
    memo = model._memo
    me = int(model.me)
    p, dealer = model.p, model.d.dealer

    def go(i, hi, hs):
        if i == 4 or (hi is not None and hi.ends_auction):
            if hi is None:
                return zero
            return model.leaf(hs, hi, my_strain if hs == me else None)
        key = (i, hi, hs, my_strain if hs == me else None)
        if key in memo:
            return memo[key]
        seat = (dealer + 1 + i) % 4
        kids = [go(i + 1, hi, hs) if a is None else go(i + 1, a, seat)
                for a in legal_actions(p, model.bids, i, hi)]
        memo[key] = node = choose(1 if seat % 2 == 0 else -1, kids)
        return node

    return go(index, high, high_seat)


def wins_game(preset: Preset, o: Outcome, my_side: int, us: int, them: int, target: int) -> np.ndarray:
    """Bool array: our side wins the game at the end of this hand (module docstring)."""
    mine = o.ns if my_side == 0 else o.ew
    theirs = o.ew if my_side == 0 else o.ns
    u, t = us + mine, them + theirs
    played = o.side >= 0
    if preset.win_needs_bid_result:
        ok = played & (((o.side == my_side) & o.made) | ((o.side != my_side) & ~o.made))
        return ok & (u >= target)
    if preset.bidders_win_ties:
        return played & (u >= target) & ((t < target) | (o.side == my_side))
    return played & (np.maximum(u, t) >= target) & (u > t)

