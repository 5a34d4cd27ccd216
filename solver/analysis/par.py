"""Par: the result of the auction and play when every player sees every card (RULES.md §3).

Model.  Every player in turn, from the dealer's left to the dealer, passes or bids as
the preset allows (:mod:`bideuchre.analysis.auction`: the ladder, lone bids, the dealer's rights, the
moonshot ending the auction at once), choosing the action that maximises their side's **hand
result** — their side's points minus the other side's under the preset's scoring
(:func:`bideuchre.analysis.auction.hand_result`).  Once the auction is over the declarer names the strain
(where it was not named with the bid) that is best for that bid; play is double-dummy, with the
preset's first-lead rule (``standard``: left of the dealer, skipping a lone hand's empty seat;
elsewhere the declarer).  The auction is a two-sided zero-sum game of perfect information, so
it is solved exactly by backward induction (minimax) over the DD table and the lone table.

Decisions where RULES.md is silent (each is a docstring here and a line of the issue note):

- **Ties in the auction**: among actions with equal results a player passes rather than bids,
  and bids the lowest rung (then the first strain in the preset's order) rather than a higher
  one.  The par *value* never depends on this; the par *contract* may.
- **Ties in the strain**: the declarer takes the strain with the most tricks for the bid, then
  the first in the preset's order (S H D C NT NTL).  Equal results mean equal tricks.
- **Lone values** are double-dummy: the best over all legal exchanges (RULES.md §2), the first
  lead following the preset's rule (``pepper`` and ``double32``: the lone bidder leads).
- **Best contract against passes**: for each seat, the bid and strain that maximise its side's
  result if that seat declares and every other seat passes, whether or not it beats passing
  (a dealer who must bid, or a seat whose best is negative, still gets one).  Among bids of
  equal result the *highest* is shown, which tells how much the seat could promise (for par
  itself the lowest is chosen, see above).
- A thrown-in hand (all pass where the preset allows it) scores 0–0; its par is ``None``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from .auction import Bid, contract_diff, format_action, hand_result, ladder, legal_actions
from ..notation import Deal
from ..rules import (
    Preset, RulesError, Seat, Side, Strain, get_preset, parse_seat,
)
from .lone import lone_table
from ..search.solve import DDTable, dd_table

__all__ = ["Contract", "ParResult", "par", "solve_auction", "lone_tricks", "LoneTricks",
           "best_strain"]

# (seat, lone bid name, strain) -> DD tricks of the lone hand with its best exchange
LoneTricks = dict


@dataclass(frozen=True)
class Contract:
    """A contract and its double-dummy outcome.

    ``declarer`` (Seat), ``bid`` (:class:`~bideuchre.analysis.auction.Bid`), ``strain`` (Strain),
    ``tricks`` (the declaring side's DD tricks), ``points`` (``{Side: points}``, both sides).
    """

    declarer: Seat
    bid: Bid
    strain: Strain
    tricks: int
    points: dict

    @property
    def side(self) -> Side:
        return self.declarer.side

    @property
    def made(self) -> bool:
        return self.points[self.side] >= 0 and (self.bid.lone is None or self.points[self.side] > 0)

    def to_json(self) -> dict:
        return {"declarer": self.declarer.name, "bid": self.bid.name, "strain": self.strain.name,
                "tricks": self.tricks,
                "points": {"NS": self.points[Side.NS], "EW": self.points[Side.EW]}}

    def __str__(self) -> str:
        pts = f"NS {self.points[Side.NS]:+d}, EW {self.points[Side.EW]:+d}"
        return f"{self.declarer.name} {self.bid.name} {self.strain.name}: {self.tricks} tricks ({pts})"


@dataclass
class ParResult:
    """The par of a deal (see the module docstring for the model).

    ``contract``: the par :class:`Contract`, or None when the hand is thrown in.  ``points``:
    ``{Side: points}`` (0–0 when thrown in).  ``auction``: the principal variation, one action
    per seat that speaks (None = pass), from the dealer's left.  ``best_vs_passes``: per seat,
    the best Contract it could declare with every other seat passing.  ``dd``: the DD table;
    ``lone``: the lone tricks used (``{(seat, bid name, strain): tricks}``).
    """

    deal: Deal
    preset: Preset
    dealer: Seat
    contract: Optional[Contract]
    points: dict
    auction: list
    best_vs_passes: dict
    dd: DDTable
    lone: dict = field(default_factory=dict)

    @property
    def value(self) -> int:
        """NS points minus EW points at par."""
        return self.points[Side.NS] - self.points[Side.EW]

    def to_json(self) -> dict:
        return {
            "deal": self.deal.pbn(), "preset": self.preset.name, "dealer": self.dealer.name,
            "par": None if self.contract is None else self.contract.to_json(),
            "points": {"NS": self.points[Side.NS], "EW": self.points[Side.EW]},
            "auction": [format_action(a) for a in self.auction],
            "best_vs_passes": {s.name: (None if c is None else c.to_json())
                               for s, c in self.best_vs_passes.items()},
            "dd": self.dd.to_json()["table"],
        }


# ---------------------------------------------------------------------------------------------
# Lone tricks

def lone_tricks(deal: Deal, preset: Preset | str, dealer: int | str | None = None,
                seats: Sequence[int] | None = None) -> LoneTricks:
    """DD tricks of every lone bid of the preset: ``{(seat, bid name, strain): tricks}``.

    From :func:`bideuchre.analysis.lone.lone_table` (best exchange, the preset's first lead).  Empty for a
    preset without lone bids.
    """
    preset = get_preset(preset)
    dealer = deal.dealer if dealer is None else parse_seat(dealer)
    if not preset.lone_bids:
        return {}
    seats = tuple(Seat) if seats is None else tuple(Seat(s) for s in seats)
    table = lone_table(deal, preset, dealer=dealer, seats=seats)
    out: LoneTricks = {}
    for seat in seats:
        for st, results in table.results[seat].items():
            for r in results:
                out[(Seat(seat), r.bid, Strain(st))] = int(r.tricks)
    return out


# ---------------------------------------------------------------------------------------------
# The auction solver

def best_strain(preset: Preset, bid: Bid, tricks_by_strain: dict) -> tuple[Strain, int, int]:
    """The declarer's strain for ``bid``: ``(strain, tricks, diff)`` maximising the declaring
    side's result, then the tricks, then the first strain in the preset's order.
    ``tricks_by_strain``: ``{Strain: tricks}``."""
    if bid.strain is not None:
        t = tricks_by_strain[bid.strain]
        return bid.strain, t, contract_diff(preset, bid, t)
    best = None
    for st in preset.strains:
        t = tricks_by_strain[st]
        key = (contract_diff(preset, bid, t), t)
        if best is None or key > best[0]:
            best = (key, st, t)
    return best[1], best[2], best[0][0]


def solve_auction(preset: Preset, dealer: int, leaf: Callable[[Seat, Bid], int],
                  actions: Sequence[Optional[Bid]] = ()) -> tuple[int, list]:
    """Backward induction over the auction tree from ``actions`` (already made, from the
    dealer's left).  ``leaf(declarer, bid)`` is the declaring side's result (points minus the
    defenders') of a finished auction.  Returns ``(value, pv)``: NS minus EW at par, and the
    principal variation (the remaining actions).  Ties: pass, then the lowest bid (module doc).
    """
    bids = ladder(preset)
    memo: dict = {}

    def ns_value(declarer: Seat, bid: Bid) -> int:
        v = leaf(declarer, bid)
        return v if declarer % 2 == 0 else -v

    def go(index: int, high: Optional[Bid], high_seat: Optional[Seat]) -> tuple[int, tuple]:
        if index == 4 or (high is not None and high.ends_auction):
            return (0 if high is None else ns_value(high_seat, high)), ()
        key = (index, high, high_seat)
        hit = memo.get(key)
        if hit is not None:
            return hit
        seat = Seat((dealer + 1 + index) % 4)
        sign = 1 if seat % 2 == 0 else -1
        best = None
        for a in legal_actions(preset, bids, index, high):
            if a is None:
                v, pv = go(index + 1, high, high_seat)
            else:
                v, pv = go(index + 1, a, seat)
            if best is None or sign * v > sign * best[0]:
                best = (v, (a,) + pv)
        memo[key] = best
        return best

    high, high_seat = None, None
    for i, a in enumerate(actions):
        if a is not None:
            high, high_seat = a, Seat((dealer + 1 + i) % 4)
    v, pv = go(len(actions), high, high_seat)
    return v, list(pv)


def par(deal: Deal, preset: Preset | str = "standard", dealer: int | str | None = None,
        *, dd: DDTable | None = None, lone: LoneTricks | None = None) -> ParResult:
    """The par of ``deal`` under ``preset`` with ``dealer`` (default: ``deal.dealer``).

    Computes the DD table (:func:`bideuchre.search.solve.dd_table`) and the lone tricks
    (:func:`lone_tricks`) unless given, then solves the auction exactly
    (:func:`solve_auction`).  Returns a :class:`ParResult`.  Raises RulesError for a deal whose
    deck does not match the preset's.
    """
    preset = get_preset(preset)
    dealer = deal.dealer if dealer is None else parse_seat(dealer)
    if deal.deck != preset.deck:
        raise RulesError(f"the deal is a {deal.deck.name} deal; preset {preset.name!r} plays {preset.deck.name}")
    if len(deal.hands[0]) != preset.tricks:
        raise RulesError(f"par needs full hands of {preset.tricks} cards, got {len(deal.hands[0])}")
    dd = dd_table(deal, preset, dealer) if dd is None else dd
    lone = lone_tricks(deal, preset, dealer) if lone is None else lone

    def tricks_for(seat: Seat, bid: Bid) -> dict:
        if bid.lone is not None:
            return {st: lone[(seat, bid.name, st)] for st in preset.strains}
        return dd.tricks[seat]

    cache: dict = {}

    def choose(seat: Seat, bid: Bid) -> tuple[Strain, int, int]:
        k = (seat, bid)
        if k not in cache:
            cache[k] = best_strain(preset, bid, tricks_for(seat, bid))
        return cache[k]

    value, pv = solve_auction(preset, dealer, lambda s, b: choose(s, b)[2])
    contract = None
    high_seat, high = None, None
    for i, a in enumerate(pv):
        if a is not None:
            high, high_seat = a, Seat((dealer + 1 + i) % 4)
    if high is not None:
        st, t, _ = choose(high_seat, high)
        decl, defs = hand_result(preset, high, t)
        contract = Contract(high_seat, high, st, t, {high_seat.side: decl, high_seat.side.other: defs})
        points = dict(contract.points)
    else:
        points = {Side.NS: 0, Side.EW: 0}
    if points[Side.NS] - points[Side.EW] != value:
        raise AssertionError("par: principal variation disagrees with the value")  # pragma: no cover

    best_vs: dict = {}
    bids = ladder(preset)
    for seat in Seat:
        best = None
        for b in bids:
            st, t, diff = choose(seat, b)
            if best is None or diff >= best[0]:
                best = (diff, b, st, t)
        _, b, st, t = best
        decl, defs = hand_result(preset, b, t)
        best_vs[seat] = Contract(seat, b, st, t, {seat.side: decl, seat.side.other: defs})
    return ParResult(deal, preset, dealer, contract, points, pv, best_vs, dd, lone)
