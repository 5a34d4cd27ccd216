"""Duplicate matches of play policies over fixed contracts: ``bideuchre match --play A B``.

The deals are those of the bidding match (:func:`bideuchre.batch.generate_records` of the
seed, the dealer rotating N E S W).  Each deal's contract is fixed: its **par contract**
(:func:`bideuchre.analysis.par.par`; a thrown-in deal is skipped), or with ``contracts="model"``
the contract the bidding model reaches (:class:`~bideuchre.bidding.ModelPolicy` at every seat,
each from its own hand; the declarer names the strain by it; a thrown-in deal is skipped),
played from the preset's first lead (RULES.md §2; a lone contract with the lone seat's
partner out, no exchange).
Each deal is played twice: the declaring side's cards chosen by policy A and the defenders'
by B (run 1), then the declaring side by B and the defenders by A (run 2).  Per run the
declaring side's tricks and the hand's points, the declaring side's minus the defenders'
(:func:`bideuchre.analysis.auction.hand_result`).  A's edge on a deal is ``(r1 - r2) / 2``,
in points and in tricks; the mean, the standard error clustered by deal and the 95 %
interval are the bidding match's (:class:`bideuchre.bidding.match.MatchResult`).

Play policies (:data:`PLAY_POLICIES`), each seat seeing only its own hand and the cards played
(the ``dd`` policy excepted):

- ``heuristic``: :func:`heuristic_card` (on lead the highest card, trumps first; following,
  the lowest when partner wins the trick, else the cheapest card that wins it, else the
  lowest; side suits before trumps);
- ``pimc``: :func:`bideuchre.analysis.play.advise_view` (objective ``score``);
- ``pimc+auction``: the same with the deals weighted by the auction heard
  (:mod:`bideuchre.analysis.play_auction`, the model policy as the bidders); only with
  ``contracts="model"``, whose contracts have an auction;
- ``alphamu``: :func:`bideuchre.analysis.play.alphamu_view` (objective ``score``);
- ``dd``: the best double-dummy card (:func:`bideuchre.analysis.explain.card_values`; sees every
  hand: the ceiling).

The sampling policies draw their deals from the seed ``deal number * 1000 + cards played``,
so a match is reproducible.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Callable

from ..analysis.auction import hand_result
from ..analysis.lone import lone_leader
from ..analysis.par import par
from ..notation import Position
from ..rules import Card, Preset, effective_suit, get_preset, rank_order, trick_winner
from ..search.solve import first_leader
from .match import MatchError, MatchResult, Tally

__all__ = ["PLAY_POLICIES", "CONTRACTS", "bid_out", "model_contract", "heuristic_card", "run_play_match", "PlayMatchResult", "play_out",
           "summarise_play"]

PLAY_POLICIES = ("heuristic", "pimc", "pimc+auction", "alphamu", "dd")
CONTRACTS = ("par", "model")


def heuristic_card(pos: Position) -> Card:
    """The heuristic policy's card for the player to move of ``pos`` (module docstring)."""
    st = int(pos.strain)
    legal = pos.legal_cards()
    trump = st if st < 4 else -1

    def low(c):       # lowest: side suits before trumps, then by order
        return (int(effective_suit(c, st)) == trump, rank_order(c, st))

    if not pos.trick:
        return max(legal, key=lambda c: (rank_order(c, st) + (10 if int(effective_suit(c, st)) == trump else 0), -int(c)))
    wi = trick_winner([c for _, c in pos.trick], st)
    win_seat, win_card = pos.trick[wi]
    if win_seat.side == pos.to_move.side:
        return min(legal, key=low)
    ws, wo = int(effective_suit(win_card, st)), rank_order(win_card, st)

    def beats(c):
        s, o = int(effective_suit(c, st)), rank_order(c, st)
        return (s == ws and o > wo) or (s == trump and ws != trump)

    winners = [c for c in legal if beats(c)]
    return min(winners or legal, key=low)


def _chooser(name: str, preset: Preset, contract, leader, lone, samples: int | None,
             index: int, auction=None) -> Callable[[Position], Card]:
    if name == "heuristic":
        return heuristic_card
    if name == "dd":
        from ..analysis.explain import card_values
        return lambda pos: card_values(pos)[0].card
    from ..analysis.play import advise_method
    from ..analysis.sampler import SeatView

    method, pa = name, None
    if name == "pimc+auction":
        if auction is None:
            raise MatchError("pimc+auction reads the auction: this contract has none (--contracts model)")
        from ..analysis.play_auction import play_auction
        method = "pimc"
        pa = play_auction(preset, auction[1], auction[0], contract.declarer, contract.bid, "model")

    def choose(pos: Position) -> Card:
        p = pos.to_move
        view = SeatView(pos.deal.deck, p, pos.deal.hands[p], pos.strain, leader, list(pos.played), lone)
        adv = advise_method(view, preset, contract.declarer, contract.bid, method, samples,
                            index * 1000 + len(pos.played), None, "score", 1, auction=pa)
        return adv.recommend.card
    return choose


def play_out(deal, preset: Preset, contract, declaring: str, defending: str,
             samples: int | None = None, index: int = 0, auction=None) -> int:
    """Play ``deal``'s ``contract`` out, the declaring side's cards by policy ``declaring`` and
    the defenders' by ``defending`` (a seat with one legal card plays it); ``auction``
    ``(dealer, calls)`` that reached the contract (``pimc+auction`` reads it).  Returns the
    declaring side's tricks."""
    lone = contract.declarer if contract.bid.is_lone else None
    leader = (lone_leader(preset, lone, deal.dealer) if lone is not None
              else first_leader(preset, contract.declarer, deal.dealer))
    pos = Position(deal, contract.strain, leader, (), lone)
    pick = {name: _chooser(name, preset, contract, leader, lone, samples, index, auction)
            for name in {declaring, defending}}
    side = contract.declarer.side
    while not pos.is_over:
        legal = pos.legal_cards()
        if len(legal) == 1:
            card = legal[0]
        else:
            card = pick[declaring if pos.to_move.side == side else defending](pos)
        pos.play(card)
    return pos.tricks_won[side]


def _tally(pts: Tally, trk: Tally, line: dict) -> None:
    """Add one deal's line to the points and tricks tallies (the bidding match's: its runs
    are A's side first, then B's -- A declares run 1, B run 2)."""
    runs = {"r1": {"declarer": "N", "made": line["r1"]["made"]},
            "r2": {"declarer": "N", "made": line["r2"]["made"]}}
    pts.add([dict(runs, edge=line["edge"])])
    trk.add([dict(runs, edge=line["edge_tricks"])])


def summarise_play(lines, preset: Preset | str, a: str, b: str, seed: int,
                   skipped: int = 0) -> "PlayMatchResult":
    """The :class:`PlayMatchResult` of per-deal lines (as :func:`run_play_match` writes them:
    a killed run's ``--output`` summarised)."""
    pts, trk = Tally(), Tally()
    for line in lines:
        _tally(pts, trk, line)
    p = get_preset(preset)
    return PlayMatchResult(pts.result(p, a, b, seed, 1), trk.result(p, a, b, seed, 1), skipped)


@dataclass
class PlayMatchResult:
    """A play match: ``points`` and ``tricks`` (each a :class:`MatchResult`: A's mean edge a
    deal, SE clustered by deal, 95 % interval), ``skipped`` (thrown-in deals), ``contracts``
    (``"par"`` or ``"model"``)."""

    points: MatchResult
    tricks: MatchResult
    skipped: int = 0
    contracts: str = "par"

    def to_json(self) -> dict:
        obj = self.points.to_json()
        obj.pop("stats", None)
        obj.update({"play": True, "edge_tricks": self.tricks.edge, "se_tricks": self.tricks.se,
                    "ci95_tricks": list(self.tricks.ci95), "skipped": self.skipped,
                    "contracts": self.contracts})
        return obj


def bid_out(policy, deal, preset: Preset):
    """The :class:`~bideuchre.analysis.auction.Auction` of ``deal`` from its dealer's left,
    every seat calling by ``policy`` (a :class:`~bideuchre.bidding.BidPolicy`) from its own
    hand and the calls before it (``choose``: its most probable call)."""
    import numpy as np

    from ..analysis.auction import Auction
    counts = deal.counts()
    auc = Auction(preset, deal.dealer)
    while not auc.is_over:
        s = auc.to_act
        acts, idx = policy.choose(np.array([counts[s]], dtype=np.uint8), int(s), int(deal.dealer),
                                  list(auc.actions))
        auc.play(acts[int(idx[0])])
    return auc


def model_contract(deal, preset: Preset):
    """The contract the bidding model reaches on ``deal`` (every seat by
    :class:`~bideuchre.bidding.ModelPolicy` from its own hand, from the dealer's left):
    ``((dealer, calls), Contract)``, or ``((dealer, calls), None)`` when thrown in.  The
    contract's ``tricks`` are the declarer's side's DD tricks in its strain."""
    import numpy as np

    from ..analysis.par import Contract
    from ..rules import Strain
    from ..search.solve import solve_position
    from .policy import get_policy
    pol = _MODEL.get(preset)
    if pol is None:
        pol = _MODEL[preset] = get_policy("model", preset)
    counts = deal.counts()
    auc = bid_out(pol, deal, preset)
    heard = (deal.dealer, list(auc.actions))
    if auc.contract is None:
        return heard, None
    decl, bid = auc.contract
    st = bid.strain if bid.strain is not None else int(pol.declare_strain(
        np.array([counts[decl]], dtype=np.uint8), int(decl), int(deal.dealer), bid)[0])
    st = Strain(int(st))
    if bid.is_lone:
        from ..analysis.lone import lone_results
        t = int(lone_results(deal, preset, decl, st, deal.dealer)[list(preset.lone_bids).index(bid.lone)].tricks)
    else:
        won = solve_position(Position(deal, st, first_leader(preset, decl, deal.dealer)))
        t = int(won[decl.side])
    a, b = hand_result(preset, bid, t)
    return heard, Contract(decl, bid, st, t, {decl.side: a, decl.side.other: b})


_MODEL: dict = {}


def run_play_match(a: str, b: str, preset: Preset | str = "racehorse", deals: int = 100,
                   seed: int = 1, samples: int | None = None, output: str | os.PathLike | None = None,
                   progress: Callable[[int, int], None] | None = None,
                   contracts: str = "par") -> PlayMatchResult:
    """The duplicate play match of ``a`` against ``b`` (module docstring) on deals
    ``0 .. deals - 1`` of ``seed``; ``samples``: the sampling policies' deals (default each
    method's); ``output``: JSON lines, one per deal (appended); ``contracts``: ``"par"`` or
    ``"model"`` (the contract the bidding model reaches, with its auction).  Raises MatchError
    for an unknown policy or contracts, ``pimc+auction`` with par contracts, or bad numbers."""
    from ..batch import generate_records

    p = get_preset(preset)
    for name in (a, b):
        if name not in PLAY_POLICIES:
            raise MatchError(f"unknown play policy {name!r} (expected one of: {' '.join(PLAY_POLICIES)})")
    if contracts not in CONTRACTS:
        raise MatchError(f"--contracts {contracts!r}: expected one of: {' '.join(CONTRACTS)}")
    if contracts == "par" and "pimc+auction" in (a, b):
        raise MatchError("pimc+auction reads the auction: par contracts have none (use --contracts model)")
    if deals < 1:
        raise MatchError(f"--deals must be at least 1, got {deals}")
    if samples is not None and samples < 1:
        raise MatchError(f"--samples must be at least 1, got {samples}")
    pts, trk = Tally(), Tally()
    skipped = 0
    fh = open(output, "a") if output else None
    try:
        for k, rec in enumerate(generate_records(deals, seed, p.deck, dealer="rotate")):
            deal = rec.deal
            heard = None
            if contracts == "model":
                heard, c = model_contract(deal, p)
            else:
                c = par(deal, p).contract
            if c is None:
                skipped += 1
                continue
            t1 = play_out(deal, p, c, a, b, samples, k, heard)
            t2 = play_out(deal, p, c, b, a, samples, k, heard)
            r = [hand_result(p, c.bid, t) for t in (t1, t2)]
            p1, p2 = r[0][0] - r[0][1], r[1][0] - r[1][1]
            made = [t >= c.bid.needs(p.tricks) for t in (t1, t2)]
            line = {"i": k, "deal": deal.pbn(), "declarer": c.declarer.name, "bid": str(c.bid),
                    "strain": c.strain.name, "dd": c.tricks,
                    **({} if heard is None else {"auction": " ".join(
                        "pass" if x is None else str(x) for x in heard[1])}),
                    "r1": {"tricks": t1, "points": p1, "made": made[0]},
                    "r2": {"tricks": t2, "points": p2, "made": made[1]},
                    "edge": (p1 - p2) / 2, "edge_tricks": (t1 - t2) / 2}
            _tally(pts, trk, line)
            if fh:
                fh.write(json.dumps(line) + "\n")
                fh.flush()
            if progress:
                progress(k + 1, deals)
    finally:
        if fh:
            fh.close()
    return PlayMatchResult(pts.result(p, a, b, seed, 1), trk.result(p, a, b, seed, 1), skipped,
                           contracts)
