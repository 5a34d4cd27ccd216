"""Lone hands: the double-dummy value of every lone bid, with the best card exchange.

A lone hand is played three-handed: the lone player's partner lays the hand down and plays no
card, tricks have three cards, and a lead that would fall to the empty seat passes to the next
seat clockwise (RULES.md §1 "Lone hands").  The core plays it (``out=partner``); this module
adds the lone bids of each preset and their card exchanges (RULES.md §2 "Lone bids and card
exchanges"):

- ``standard`` **24**, ``pepper`` **alone**, ``double32`` **moonshot**: the hand as dealt;
- ``standard`` **12**: the partner gives one card, then the bidder discards any one of the
  seven (the card received included, which amounts to no exchange);
- ``double32`` **two-card** / **one-card**: the bidder lays down 2 (1) cards of the hand as
  dealt, the partner sends 2 (1); the laid-down cards are out of play;
- ``double48`` option (``--rule lone_exchange=k``, bid name ``lone-k``): a blind
  exchange of k cards each way.

Under double-dummy analysis every hand is open, so the bidder and partner co-ordinate: the
value of a lone bid is the best, over every legal exchange, of the lone tricks that follow
(RULES.md §2).  The first lead follows the preset's rule (:func:`lone_leader`).  The exchange
search runs in C (``bideuchre.search._lone``): equivalent final hands once, "every trick?" first over
the dominant exchanges with a stop at the first that takes every trick, and exact counts only
for exchanges that beat the best so far when nothing takes every trick.

Decisions where RULES.md is silent:

- **Who discards from what.**  An exchange is *give-first* when the partner gives before the
  bidder discards, and then the bidder may discard any card of the enlarged hand (RULES.md:
  ``standard`` 12, "even that card"); it is *discard-first* when the bidder's cards come from
  the hand as dealt (``double32`` loners lay down at bid time; the ``double48`` option is
  blind).  :class:`~bideuchre.rules.LoneBid` has no field for this, so :func:`exchange_order`
  reads it from the preset: a bid of a preset whose strain is named *after* the auction and
  whose exchange is not blind is give-first (``standard``), every other is discard-first.
- **The ``double48`` option.**  Off by default (``Preset.lone_exchange`` None).  Set to
  an int k ≥ 0 it adds one lone bid, named ``lone-k``, worth ±(2 × tricks) (RULES.md §2
  "lone hand value"), with a blind exchange of k cards each way; under double-dummy analysis
  blind and open exchanges have the same value, the best over all exchanges.
- **Which best exchange is shown.**  When several exchanges reach the best value, the one
  reported is the first found in the search order (dominant exchanges first, then a rough
  hand-strength order); it is one best exchange, not a canonical one.
- **Bids without an exchange report ``give = discard = []``.**  A ``standard`` 12 whose best
  is to keep the hand as dealt reports the partner's first card (card order) given and the
  same card discarded (the CLI shows it as ``keep``).
- **A partial deal smaller than an exchange** (hands of 1 card and a two-card loner) has no
  legal exchange: RulesError rather than a made-up value.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np

from ..search import _lone
from ..notation import Deal
from ..rules import (
    Card, LoneBid, Preset, RulesError, Seat, Strain, get_preset, next_active,
    parse_seat, parse_strain,
)
from ..search.solve import first_leader, thread_cached, tt_bits_for

__all__ = ["LoneResult", "LoneTable", "lone_bids", "lone_leader", "exchange_order",
           "lone_results", "lone_table", "can_take_all", "lone_values", "apply_exchange",
           "lone_searcher", "bid_plan", "bid_values", "one_bid_tricks"]

_local = threading.local()


def _searcher(deal: Deal) -> "_lone.LoneSearch":
    """This thread's lone search context for the deal's deck form (its TT is reused)."""
    return lone_searcher(tt_bits_for(deal.deck))


def lone_searcher(bits: int) -> "_lone.LoneSearch":
    """This thread's lone search context with a transposition table of ``2**bits`` entries
    (made once per thread and size, then reused: :func:`bideuchre.search.solve.thread_cached`)."""
    return thread_cached("lone_searchers", bits, _lone.LoneSearch)


# ---------------------------------------------------------------------------------------------
# Results

@dataclass
class LoneResult:
    """The double-dummy value of one lone bid for one bidder seat and strain.

    ``bid``: the bid's name (``"12"``, ``"24"``, ``"alone"``, ``"two-card"``, ``"one-card"``,
    ``"moonshot"``, ``"lone-k"``); ``tricks``: the lone player's tricks with the best exchange;
    ``all``: whether that is every trick (the lone bid is made); ``give``: the cards the partner
    gives; ``discard``: the cards the bidder discards or lays down (both empty for a bid
    without an exchange).
    """

    bid: str
    tricks: int
    all: bool
    give: list[Card] = field(default_factory=list)
    discard: list[Card] = field(default_factory=list)

    def to_json(self) -> dict:
        """``{"bid": "12", "tricks": 6, "all": true, "give": ["HJ"], "discard": ["C9"]}``."""
        return {"bid": self.bid, "tricks": self.tricks, "all": self.all,
                "give": [str(c) for c in self.give], "discard": [str(c) for c in self.discard]}


@dataclass
class LoneTable:
    """The lone table of a deal: for each bidder seat and strain, one :class:`LoneResult` per
    lone bid of the preset, low → high.

    ``results[Seat][Strain]`` → list of LoneResult.  ``to_json()`` →
    ``{"N": {"H": [{"bid": "12", ...}, {"bid": "24", ...}], ...}, ...}`` (the CLI's
    ``"alone"`` key).
    """

    deal: Deal
    preset: Preset
    dealer: Seat
    strains: tuple[Strain, ...]
    seats: tuple[Seat, ...]
    results: dict[Seat, dict[Strain, list[LoneResult]]] = field(default_factory=dict)

    def __getitem__(self, key: tuple[int | str, int | str]) -> list[LoneResult]:
        seat, strain = key
        return self.results[parse_seat(seat)][parse_strain(strain)]

    def to_json(self) -> dict:
        return {seat.name: {st.name: [r.to_json() for r in self.results[seat][st]]
                            for st in self.strains}
                for seat in self.seats}


# ---------------------------------------------------------------------------------------------
# Rules of lone bids

def lone_bids(preset: Preset | str) -> tuple[LoneBid, ...]:
    """The lone bids of a preset (a Preset or its name), low → high (RULES.md §2 "lone bids"):
    :attr:`Preset.lone_bids <bideuchre.rules.Preset>`, which for the ``double48`` option
    (``with_options(lone_exchange=k)``) ends with the bid ``lone-k``, a blind exchange of k cards
    each way worth 2 × tricks or ``lone_value``.  Raises RulesError for an unknown preset name."""
    return get_preset(preset).lone_bids


def exchange_order(preset: Preset | str, bid: LoneBid) -> str:
    """``"none"``, ``"give-first"`` or ``"discard-first"`` for a lone bid.

    give-first: the partner gives, then the bidder discards from the hand plus the cards
    received (``standard`` 12, RULES.md §2); discard-first: the bidder's discards come from the
    hand as dealt (``double32`` loners lay down at bid time; the ``double48`` option is blind).
    Read from the preset (a non-blind exchange in a preset whose strain is named after the
    auction is give-first): see the module docstring.
    """
    preset = get_preset(preset)
    if bid.give == 0 and bid.discard == 0:
        return "none"
    if bid.give != bid.discard:
        raise RulesError(f"lone bid {bid.name!r}: the bidder must end with a full hand "
                         f"(gives {bid.give}, discards {bid.discard})")
    if not bid.blind and preset.strain_named == "after":
        return "give-first"
    return "discard-first"


def lone_leader(preset: Preset | str, seat: int | str, dealer: int | str) -> Seat:
    """The leader of the first trick of a lone hand by ``seat`` (RULES.md §2 "first lead"):
    the lone player, or in ``standard`` the seat left of the dealer, passing over the empty
    seat (the lone player's partner) to the next seat clockwise (RULES.md §1)."""
    preset = get_preset(preset)
    seat = parse_seat(seat)
    lead = first_leader(preset, seat, parse_seat(dealer))
    return next_active(lead, seat.partner) if lead == seat.partner else lead


def apply_exchange(deal: Deal, seat: int | str, give: Iterable[int | str] = (),
                   discard: Iterable[int | str] = ()) -> Deal:
    """The deal after a lone exchange: ``seat`` holds hand + give − discard and the partner,
    who sits out, holds the rest of its hand plus the discards (out of play either way, so that
    every hand keeps its size and the result is a valid :class:`~bideuchre.notation.Deal`).

    Raises RulesError for a given card the partner does not hold or a discard the bidder does
    not hold after receiving.
    """
    from ..notation import parse_card

    seat = parse_seat(seat)
    partner = seat.partner
    give = [parse_card(c) if isinstance(c, str) else Card(c) for c in give]
    discard = [parse_card(c) if isinstance(c, str) else Card(c) for c in discard]
    mine = list(deal.hands[seat])
    theirs = list(deal.hands[partner])
    for c in give:
        if c not in theirs:
            raise RulesError(f"partner {partner.name} cannot give {c}: not in hand")
        theirs.remove(c)
        mine.append(c)
    for c in discard:
        if c not in mine:
            raise RulesError(f"lone {seat.name} cannot discard {c}: not in hand")
        mine.remove(c)
        theirs.append(c)
    hands = list(deal.hands)
    hands[seat] = mine
    hands[partner] = theirs
    return Deal(hands, deal.deck, deal.dealer, first=deal.first)


# ---------------------------------------------------------------------------------------------
# The search

def _deal_counts(deal: Deal) -> np.ndarray:
    """The deal's 4 × 24 card counts (uint8), cached for the last few deals of this thread
    (callers such as par ask :func:`can_take_all` for every seat and strain of one deal)."""
    cache = getattr(_local, "counts", None)
    if cache is None:
        cache = _local.counts = {}
    key = (deal.hands, deal.deck.name)
    arr = cache.get(key)
    if arr is None:
        if len(cache) >= 8:
            cache.clear()
        arr = cache[key] = np.array(deal.counts(), dtype=np.uint8)
        arr.setflags(write=False)
    return arr


def _prepare(deal: Deal, preset, seat, strain, dealer):
    preset = get_preset(preset)
    seat = parse_seat(seat)
    strain = preset.check_strain(parse_strain(strain))
    dealer = deal.dealer if dealer is None else parse_seat(dealer)
    if len(deal.hands[0]) == 0:
        raise RulesError("the deal holds no cards")
    return preset, seat, strain, dealer


_PLANS: dict = {}


def bid_plan(preset: Preset, bids: Sequence[LoneBid] | None = None) -> list[tuple[LoneBid, str]]:
    """``[(bid, exchange order), ...]``: the lone bids (default: the preset's), low → high, each
    with :func:`exchange_order`'s ``"none"``, ``"give-first"`` or ``"discard-first"``; cached
    per preset and bids."""
    bids = lone_bids(preset) if bids is None else tuple(bids)
    key = (preset, bids)
    plan = _PLANS.get(key)
    if plan is None:
        if len(_PLANS) > 64:
            _PLANS.clear()
        plan = _PLANS[key] = [(b, exchange_order(preset, b)) for b in bids]
    return plan


def lone_values(counts: np.ndarray, preset: Preset | str, seat: int | str, strain: int | str,
                leader: int | str, all_only: bool = False) -> list:
    """The lone bids of a deal given as card counts (for batch callers that hold many deals as
    arrays): ``counts`` is 4 × 24 uint8 (C-contiguous), ``leader`` the first leader already
    chosen (see :func:`lone_leader`).  Returns one :class:`LoneResult` per lone bid of the
    preset, low → high, or with ``all_only`` one bool ("every trick?").  Uses this thread's
    search context.  Raises RulesError for a strain the preset lacks."""
    preset = get_preset(preset)
    seat = parse_seat(seat)
    strain = preset.check_strain(parse_strain(strain))
    counts = np.ascontiguousarray(counts, dtype=np.uint8)
    bits = tt_bits_for(preset.deck)
    return bid_values(lone_searcher(bits), counts, preset, None, seat, strain,
                      parse_seat(leader), all_only)


def bid_values(searcher, counts: np.ndarray, preset: Preset, bids: Sequence[LoneBid] | None,
               seat: Seat, strain: Strain, leader: Seat, all_only: bool, plan=None) -> list:
    """:class:`LoneResult` (or, with ``all_only``, a bool: every trick?) of each bid, low →
    high (default: the preset's lone bids), for one seat and strain of the deal ``counts``
    (4 × 24 uint8), the first lead by ``leader``; ``searcher`` is :func:`lone_searcher`'s.
    ``plan``: :func:`bid_plan`'s result, when the caller has it (RULES.md §2 "Lone bids and
    card exchanges")."""
    if plan is None:
        plan = bid_plan(preset, bids)
    plain: list = []  # (tricks, every trick?) of the hand as dealt, computed once

    def as_dealt() -> tuple[int, bool]:
        if not plain:
            t, a = searcher.plain(counts, int(strain), int(leader), int(seat), all_only)
            plain.append((int(t), bool(a)))
        return plain[0]

    out: list = []
    for bid, order in plan:
        if order == "none" or bid.give == 0:
            t, a = as_dealt()
            out.append(a if all_only else LoneResult(bid.name, t, a))
            continue
        n = int(counts[seat].sum())
        if bid.give > n:
            raise RulesError(f"lone bid {bid.name!r} exchanges {bid.give} cards, but the hands "
                             f"hold {n} (a partial deal too small for it)")
        known = -1
        if order == "give-first":
            # giving a card and discarding it keeps the hand as dealt: a known lower bound
            known, a = as_dealt()
            if a:
                keep = list(counts_hand(counts, seat.partner)[:bid.give])
                out.append(True if all_only else LoneResult(bid.name, known, True, keep, keep))
                continue
        t, a, give, disc, _ = searcher.best(counts, int(strain), int(leader), int(seat),
                                            bid.give, order == "give-first", all_only, known)
        if all_only:
            out.append(bool(a))
            continue
        if not give:  # nothing beats the hand as dealt: give a card and discard it again
            give = disc = counts_hand(counts, seat.partner)[:bid.give]
        out.append(LoneResult(bid.name, int(t), bool(a), [Card(c) for c in give],
                              [Card(c) for c in disc]))
    return out


def one_bid_tricks(searcher, counts: np.ndarray, preset: Preset, bid: LoneBid, seat: int,
                   strain: int, leader: int) -> int:
    """The exact tricks of one lone bid (its best exchange), valued alone: what
    :func:`bid_values` gives it among the preset's bids (each bid is searched on its own).
    ``counts`` 4 × 24 uint8; ``searcher`` :func:`lone_searcher`'s (RULES.md §2 "Lone bids and
    card exchanges")."""
    return bid_values(searcher, counts, preset, None, Seat(seat), Strain(strain), Seat(leader),
                      False, bid_plan(preset, [bid]))[0].tricks


def counts_hand(counts: np.ndarray, seat: int) -> list[Card]:
    """The cards of one seat from a 4 × 24 count array, sorted (a card twice when both copies
    are held)."""
    return [Card(c) for c in range(24) for _ in range(int(counts[seat, c]))]


def lone_results(deal: Deal, preset: Preset | str, seat: int | str, strain: int | str,
                 dealer: int | str | None = None) -> list[LoneResult]:
    """The double-dummy value of each lone bid of the preset for ``seat`` going alone in
    ``strain``: one :class:`LoneResult` per bid, low → high (``[]`` for a preset without lone
    bids).  ``dealer`` (default ``deal.dealer``) fixes the first lead in ``standard``.

    Raises RulesError for a strain the preset does not allow, NotationError for a bad seat.
    """
    preset, seat, strain, dealer = _prepare(deal, preset, seat, strain, dealer)
    if not bid_plan(preset):
        return []
    leader = lone_leader(preset, seat, dealer)
    return bid_values(_searcher(deal), _deal_counts(deal), preset, None, seat, strain, leader, False)


def can_take_all(deal: Deal, preset: Preset | str, seat: int | str, strain: int | str,
                 dealer: int | str | None = None) -> dict[str, bool]:
    """For each lone bid of the preset: can ``seat`` take every trick going alone in
    ``strain`` with the best exchange?  ``{bid name: bool}`` (empty without lone bids).

    Cheaper than :func:`lone_results`: only "every trick?" is asked (null-window searches over
    the dominant exchanges, stopping at the first that takes every trick).  Raises as
    :func:`lone_results`.
    """
    preset, seat, strain, dealer = _prepare(deal, preset, seat, strain, dealer)
    plan = bid_plan(preset)
    if not plan:
        return {}
    leader = lone_leader(preset, seat, dealer)
    values = bid_values(_searcher(deal), _deal_counts(deal), preset, None, seat, strain, leader, True)
    return {b.name: v for (b, _), v in zip(plan, values)}


def lone_table(deal: Deal, preset: Preset | str = "standard", dealer: int | str | None = None,
               strains: Sequence[int | str] | None = None,
               seats: Sequence[int | str] | None = None) -> LoneTable:
    """The lone table of ``deal``: for each bidder seat (default all four) and strain (default
    the preset's), the :class:`LoneResult` of every lone bid of the preset, low → high.

    The first lead follows the preset's rule (:func:`lone_leader`); ``dealer`` defaults to
    ``deal.dealer``.  Raises RulesError for a strain the preset does not allow or an empty deal.
    """
    preset = get_preset(preset)
    dealer = deal.dealer if dealer is None else parse_seat(dealer)
    strains = tuple(preset.strains if strains is None
                    else (preset.check_strain(parse_strain(s)) for s in strains))
    seats = tuple(Seat) if seats is None else tuple(parse_seat(s) for s in seats)
    if len(deal.hands[0]) == 0:
        raise RulesError("the deal holds no cards")
    counts = _deal_counts(deal)
    s = _searcher(deal)
    plan = bid_plan(preset)
    results: dict[Seat, dict[Strain, list[LoneResult]]] = {}
    for seat in seats:
        leader = lone_leader(preset, seat, dealer)
        results[seat] = {st: bid_values(s, counts, preset, None, seat, st, leader, False, plan)
                         for st in strains}
    return LoneTable(deal, preset, dealer, strains, seats, results)
