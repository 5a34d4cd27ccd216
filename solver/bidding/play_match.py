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

With ``split`` a third run plays B at both sides (r3), the yardstick that parts the edge:
**as declarer** ``r1 - r3`` (A's declaring instead of B's, against B's defence) and **as
defence** ``r3 - r2`` (A's defending instead of B's, against B's declaring), each a deal's
difference in the declaring side's result (points, and tricks), with its own standard error
and interval; the two add up to twice the edge.

The deals run in chunks on every core (``jobs``; the results do not depend on them: each
sampling policy's seed is a function of the deal and the card); ``output`` is the bidding
match's JSON lines -- a header naming the match, one line a deal (:func:`play_deal`), a
thrown-in deal's too -- resumable (``resume``) and never overwritten.

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
- ``alphamu+auction``: αμ over worlds weighted by the auction heard, as ``pimc+auction``;
- ``hybrid`` and ``hybrid+auction``: PIMC, but αμ over every card the seat holds where it
  holds at most :data:`~bideuchre.analysis.play.DEFAULT_LATE` and the consistent deals are
  few enough to search them all (``advise_method``'s ``"hybrid"``), without and with the
  auction;
- ``pimc+cards``, ``pimc+auction+cards`` and ``hybrid+auction+cards``: the same, the deals
  weighted by the other seats' cards played too (the play model at its defaults,
  :mod:`bideuchre.analysis.play_model`);
- ``dd``: the best double-dummy card (:func:`bideuchre.analysis.explain.card_values`; sees every
  hand: the ceiling).

The sampling policies draw their deals from the seed ``deal number * 1000 + cards played``,
so a match is reproducible.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Callable, Optional

from ..analysis.auction import hand_result
from ..analysis.lone import lone_leader
from ..analysis.par import par
from ..notation import Position
from ..rules import Card, Preset, effective_suit, get_preset, rank_order, trick_winner
from ..search.solve import first_leader
from .match import MAX_DEALS, ChunkSpec, MatchError, MatchResult, Tally, rules_header

__all__ = ["PLAY_POLICIES", "CONTRACTS", "bid_out", "model_contract", "heuristic_card", "run_play_match", "PlayMatchResult", "play_out",
           "summarise_play", "play_deal", "play_chunk", "PlaySpec", "PlayTally"]

PLAY_POLICIES = ("heuristic", "pimc", "pimc+auction", "alphamu", "alphamu+auction", "hybrid",
                 "hybrid+auction", "pimc+cards", "pimc+auction+cards", "hybrid+auction+cards", "dd")
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

    method, *reads = name.split("+")
    pa = pm = None
    if "auction" in reads:
        if auction is None:
            raise MatchError(f"{name} reads the auction: this contract has none (--contracts model)")
        from dataclasses import replace

        from ..analysis.play_auction import play_auction
        pa = replace(play_auction(preset, auction[1], auction[0], contract.declarer, contract.bid, "model"),
                     report=False)
    if "cards" in reads:
        from ..analysis.play_model import play_model
        pm = play_model()

    def choose(pos: Position) -> Card:
        p = pos.to_move
        view = SeatView(pos.deal.deck, p, pos.deal.hands[p], pos.strain, leader, list(pos.played), lone)
        adv = advise_method(view, preset, contract.declarer, contract.bid, method, samples,
                            index * 1000 + len(pos.played), None, "score", 1, auction=pa,
                            play_model=pm)
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


def _sub(lines, key: str) -> list:
    """The lines as the bidding match's :class:`~.match.Tally` reads them, with ``key`` as
    the edge (its runs' declarer stands in: in a play match A's side declares run 1 and B's
    run 2, so the stats read "A declared in run 1", and "set" is the declaring side's)."""
    return [{"r1": {"declarer": "N", "made": ln["r1"]["made"]},
             "r2": {"declarer": "N", "made": ln["r2"]["made"]}, "edge": ln[key]} for ln in lines]


class PlayTally:
    """What a play match keeps of its deals (``add(lines)``, ``n`` lines read, thrown-in ones
    included): per measure a :class:`~.match.Tally` of the per-deal edges -- ``edge`` and
    ``edge_tricks``, and with the split ``edge_declarer``/``edge_defence`` and their tricks."""

    KEYS = ("edge", "edge_tricks", "edge_declarer", "edge_declarer_tricks", "edge_defence",
            "edge_defence_tricks")

    def __init__(self):
        self.tallies = {k: Tally() for k in self.KEYS}
        self.n = 0
        self.skipped = 0

    def add(self, lines) -> None:
        self.n += len(lines)
        played = [ln for ln in lines if not ln.get("skipped")]
        self.skipped += len(lines) - len(played)
        for k, t in self.tallies.items():
            have = [ln for ln in played if k in ln]
            if have:
                t.add(_sub(have, k))

    def result(self, preset: Preset, a: str, b: str, seed: int, jobs: int = 1,
               contracts: str = "par") -> "PlayMatchResult":
        r = {k: t.result(preset, a, b, seed, jobs) for k, t in self.tallies.items()}
        split = None
        if r["edge_declarer"].deals:
            split = {"declarer": (r["edge_declarer"], r["edge_declarer_tricks"]),
                     "defence": (r["edge_defence"], r["edge_defence_tricks"])}
        return PlayMatchResult(r["edge"], r["edge_tricks"], self.skipped, contracts, split)


def summarise_play(lines, preset: Preset | str, a: str, b: str, seed: int,
                   skipped: int = 0, contracts: str = "par") -> "PlayMatchResult":
    """The :class:`PlayMatchResult` of per-deal lines (as :func:`run_play_match` writes them:
    a killed run's ``--output`` summarised; ``skipped``: thrown-in deals not among the
    lines)."""
    t = PlayTally()
    t.add(list(lines))
    t.skipped += skipped
    return t.result(get_preset(preset), a, b, seed, 1, contracts)


def _edge_json(pts: MatchResult, trk: MatchResult) -> dict:
    return {"edge": pts.edge, "se": pts.se, "ci95": list(pts.ci95), "edge_tricks": trk.edge,
            "se_tricks": trk.se, "ci95_tricks": list(trk.ci95), "deals": pts.deals}


@dataclass
class PlayMatchResult:
    """A play match: ``points`` and ``tricks`` (each a :class:`MatchResult`: A's mean edge a
    deal, SE clustered by deal, 95 % interval), ``skipped`` (thrown-in deals), ``contracts``
    (``"par"`` or ``"model"``), and with the split ``split`` ``{"declarer": (points, tricks),
    "defence": (points, tricks)}`` (each a MatchResult; module docstring), else None."""

    points: MatchResult
    tricks: MatchResult
    skipped: int = 0
    contracts: str = "par"
    split: Optional[dict] = None

    def to_json(self) -> dict:
        obj = self.points.to_json()
        obj.pop("stats", None)
        obj.update({"play": True, "edge_tricks": self.tricks.edge, "se_tricks": self.tricks.se,
                    "ci95_tricks": list(self.tricks.ci95), "skipped": self.skipped,
                    "contracts": self.contracts})
        if self.split is not None:
            obj.update({k: _edge_json(*v) for k, v in self.split.items()})
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


def play_chunk(spec: "PlaySpec") -> list[dict]:
    """The lines of deals ``spec.lo .. spec.hi - 1`` (:func:`run_play_match`'s output lines)."""
    from ..batch import generate_records

    p = spec.preset
    out = []
    recs = generate_records(spec.hi, spec.seed, p.deck, dealer="rotate", start=spec.lo)
    for k, rec in enumerate(recs, start=spec.lo):
        out.append(play_deal(rec.deal, p, k, spec.a, spec.b, spec.samples, spec.contracts, spec.split))
    return out


def play_deal(deal, p: Preset, k: int, a: str, b: str, samples: int | None = None,
              contracts: str = "par", split: bool = False) -> dict:
    """Deal ``k`` (0-based) of a play match as its output line: ``deal`` (``k + 1``), ``pbn``,
    the contract (``declarer``, ``bid``, ``strain``, ``dd`` its DD tricks, ``auction`` with
    model contracts), per run ``r1`` (A declares, B defends), ``r2`` (B declares, A defends)
    and with ``split`` ``r3`` (B both sides): ``tricks`` (the declaring side's), ``points``
    (the hand's, the declaring side's minus the defenders'), ``made``; ``edge`` and
    ``edge_tricks`` ``(r1 - r2) / 2``; with ``split`` ``edge_declarer`` ``r1 - r3`` and
    ``edge_defence`` ``r3 - r2`` (points; ``..._tricks`` the same in tricks).  A thrown-in
    deal: ``{"deal", "pbn", "skipped": True}``."""
    heard = None
    if contracts == "model":
        heard, c = model_contract(deal, p)
    else:
        c = par(deal, p).contract
    if c is None:
        return {"deal": k + 1, "pbn": deal.pbn(), "skipped": True}
    runs = [(a, b), (b, a)] + ([(b, b)] if split else [])
    line = {"deal": k + 1, "pbn": deal.pbn(), "declarer": c.declarer.name, "bid": str(c.bid),
            "strain": c.strain.name, "dd": c.tricks,
            **({} if heard is None else {"auction": " ".join(
                "pass" if x is None else str(x) for x in heard[1])})}
    pts, trk = [], []
    for tag, (x, y) in zip(("r1", "r2", "r3"), runs):
        t = play_out(deal, p, c, x, y, samples, k, heard)
        hr = hand_result(p, c.bid, t)
        line[tag] = {"tricks": t, "points": hr[0] - hr[1], "made": t >= c.bid.needs(p.tricks)}
        pts.append(hr[0] - hr[1])
        trk.append(t)
    line["edge"], line["edge_tricks"] = (pts[0] - pts[1]) / 2, (trk[0] - trk[1]) / 2
    if split:
        line["edge_declarer"], line["edge_declarer_tricks"] = pts[0] - pts[2], trk[0] - trk[2]
        line["edge_defence"], line["edge_defence_tricks"] = pts[2] - pts[1], trk[2] - trk[1]
    return line


@dataclass
class PlaySpec(ChunkSpec):
    """A play match's chunk: the bidding match's (:class:`~.match.ChunkSpec`: the preset,
    policies ``a`` and ``b``, ``seed``, deals ``lo .. hi - 1``) with ``samples``,
    ``contracts`` and ``split``."""

    samples: Optional[int] = None
    contracts: str = "par"
    split: bool = False


def play_chunk_size(a: str, b: str) -> int:
    """Deals per chunk of a play match: a few seconds of work."""
    return 50 if {a, b} <= {"heuristic", "dd"} else 2


def run_play_match(a: str, b: str, preset: Preset | str = "racehorse", deals: int = 100,
                   seed: int = 1, samples: int | None = None, output: str | os.PathLike | None = None,
                   progress: Callable[[int, int], None] | None = None,
                   contracts: str = "par", *, split: bool = False, jobs: int | None = None,
                   executor: str = "auto", resume: bool = False,
                   chunk_size: int | None = None) -> PlayMatchResult:
    """The duplicate play match of ``a`` against ``b`` (module docstring) on deals
    ``0 .. deals - 1`` of ``seed``; ``samples``: the sampling policies' deals (default each
    method's); ``contracts``: ``"par"`` or ``"model"`` (the contract the bidding model
    reaches, with its auction); ``split``: a third run, B at both sides, so A's edge is
    reported as declarer (``r1 - r3``) and as defence (``r3 - r2``) apart; ``jobs`` worker
    processes (default every core; the results do not depend on them, nor on
    ``chunk_size``); ``output``: JSON lines (a header, then one line a deal:
    :func:`play_deal`), refused if it exists unless ``resume`` (keep its deals, play the
    rest).  Raises MatchError for an unknown policy or contracts, an auction-reading policy
    with par contracts, bad numbers, or an output of another match."""
    from ..batch.pool import default_jobs
    from .match import drive_chunks

    p = get_preset(preset)
    for name in (a, b):
        if name not in PLAY_POLICIES:
            raise MatchError(f"unknown play policy {name!r} (expected one of: {' '.join(PLAY_POLICIES)})")
    if contracts not in CONTRACTS:
        raise MatchError(f"--contracts {contracts!r}: expected one of: {' '.join(CONTRACTS)}")
    reads = [x for x in (a, b) if "auction" in x.split("+")]
    if contracts == "par" and reads:
        raise MatchError(f"{reads[0]} reads the auction: par contracts have none (use --contracts model)")
    if isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= MAX_DEALS:
        raise MatchError(f"--deals {deals!r}: expected a whole number 1..{MAX_DEALS:,}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise MatchError(f"--seed {seed!r}: expected a whole number ≥ 0")
    if samples is not None and samples < 1:
        raise MatchError(f"--samples must be at least 1, got {samples}")
    jobs = default_jobs() if jobs is None else max(1, int(jobs))
    tally = PlayTally()
    header = {"match": {"preset": p.name, "a": a, "b": b, "seed": seed, **rules_header(p), "play": True,
                        "contracts": contracts, "samples": samples, "split": bool(split)}}
    drive_chunks(play_chunk, lambda lo, hi: PlaySpec(p, a, b, seed, lo, hi, samples=samples,
                                                     contracts=contracts, split=bool(split)),
                 tally, header, deals, chunk_size or play_chunk_size(a, b), jobs, executor, output,
                 resume, progress)
    return tally.result(p, a, b, seed, jobs, contracts)
