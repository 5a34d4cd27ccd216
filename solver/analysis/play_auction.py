"""The auction as evidence in the play: single-dummy deals weighted by the bidding model's
probability of every call made (``play --auction``; issue 26 §1, as ``bid`` reads the calls
heard, :mod:`bideuchre.analysis.advice.evidence`).

A consistent deal of the play (:class:`~bideuchre.analysis.sampler.SeatView`: the seat's own
hand, the cards played, the voids shown, the cards known) is the remaining cards of each seat;
with the cards each seat played (``view.played_by``) it is the deal as dealt.  Its **weight**
is that of :func:`~bideuchre.analysis.advice.evidence.call_weights` over the whole auction --
the declarer's winning bid is a call like the others -- every call but the advised seat's
own (its hand is known: its calls say nothing new), each the policy's probability mixed with
the noise floor ε (an unexpected call thins the deals, never empties them).

- **Every consistent deal** (few enough to enumerate): the shuffle's weight of each deal times
  its auction weight: the exact posterior.
- **Sampled**: candidates dealt by the view's own sampler from ``(seed, i)`` as without the
  auction, then *rejection control* as ``bid``'s (:class:`~.advice.evidence.CandidateStream`):
  the first :data:`PLAY_PILOT` candidates fix the threshold ``c`` (half the weight mass below it)
  and are the uniform baseline of the per-seat lines; from then a candidate of weight ``w ≥
  c`` is kept with weight ``w``, one below with probability ``w / c`` and weight ``c``, until
  ``samples`` deals are kept or :data:`PLAY_CANDIDATE_FACTOR` × ``samples`` candidates are
  dealt.  The kept deals' weighted means are unbiased for the weighted expectation; their
  standard errors are the weighted ones (:func:`~.advice.evidence.weighted_mean_se`), and
  Kish's effective sample size is reported.

The bidding policy is the bidding model's (``model``, :mod:`bideuchre.bidding.policy`: a seat
that sees only its own hand) unless another is given.  ``pimc`` weights its deals, ``alphamu``
its worlds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from ..rules import Preset, RulesError, Seat, check_seed, parse_seat
from .advice.evidence import (EPSILON, Evidence, ask_distinct, call_weights, mass_quantile, n_eff,
                               rejection_control)
from .auction import Auction, Bid, format_action
from .sampler import SeatView

__all__ = ["PlayAuction", "play_auction", "auction_deals", "PLAY_PILOT", "PLAY_CANDIDATE_FACTOR"]

#: Candidates of the play's pilot (the threshold and the uniform baseline; not rated).
PLAY_PILOT = 256

#: Candidates dealt at most per deal wanted.
PLAY_CANDIDATE_FACTOR = 50


@dataclass(frozen=True)
class PlayAuction:
    """A finished auction read as evidence: ``dealer``, ``calls`` (from the dealer's left,
    None a pass), the contract it reached (``declarer``, ``bid``), the bidding ``policy``
    (a :class:`~bideuchre.bidding.BidPolicy`) and the noise floor ``epsilon``; ``report``
    False: the evidence's per-seat lines are not computed (a match reads only the card)."""

    dealer: Seat
    calls: tuple
    declarer: Seat
    bid: Bid
    policy: object
    epsilon: float = EPSILON
    report: bool = True     # describe each seat (Evidence.describe); off where only the card is read


    def text(self) -> str:
        return " ".join(format_action(c) for c in self.calls)


def play_auction(preset: Preset, auction: str | Sequence, dealer, declarer=None,
                 bid: Optional[Bid] = None, policy=None, epsilon: float = EPSILON) -> PlayAuction:
    """The auction ``auction`` (text ``"pass 4 pass pass"`` or a list of calls, from the left
    of ``dealer``) checked against the contract played: it must be over, and where
    ``declarer`` or ``bid`` are given they must be its contract's.  ``policy``: a policy name
    or object (default ``"model"``, :func:`bideuchre.bidding.get_policy`).  Raises RulesError
    for an auction that is not over, thrown in, or reaching another contract, and the
    auction's own errors (an illegal call: NotationError / RulesError)."""
    if dealer is None:
        raise RulesError("--auction needs the dealer (--dealer): the calls start at its left")
    dl = parse_seat(dealer)
    auc = Auction.parse(auction, preset, dl) if isinstance(auction, str) else Auction(preset, dl, auction)
    if not auc.is_over:
        raise RulesError(f"auction {str(auc) or '(none)'!r} (dealer {dl.name}) is not over: "
                         f"{auc.to_act.name} speaks next; play needs the whole auction")
    contract = auc.contract
    if contract is None:
        raise RulesError(f"auction {str(auc)!r} is thrown in: no contract to play")
    seat, high = contract
    if declarer is not None and parse_seat(declarer) != seat:
        raise RulesError(f"auction {str(auc)!r} (dealer {dl.name}) makes {seat.name} declarer, "
                         f"not {parse_seat(declarer).name}")
    if bid is not None and str(bid) != str(high):
        raise RulesError(f"auction {str(auc)!r} reaches {high}, not the bid {bid}")
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not 0 <= epsilon <= 1:
        raise RulesError(f"epsilon {epsilon!r}: the noise floor must be 0 to 1")
    if policy is None or isinstance(policy, str):
        from ..bidding import get_policy
        policy = get_policy(policy or "model", preset)
    return PlayAuction(dl, tuple(auc.actions), seat, high, policy, float(epsilon))


def _weigh(view: SeatView, pa: PlayAuction, preset: Preset, counts: np.ndarray) -> np.ndarray:
    """The auction weight of each consistent deal ``counts`` ``(k, 4, 24)`` (remaining cards):
    the calls' (:func:`~.advice.evidence.call_weights`) and, where the strain is named after
    the auction, the declarer's naming of the strain played (the policy's
    ``declare_strain``, with the same noise floor over the preset's strains)."""
    dealt = counts + view.played_by[None]
    w = call_weights(pa.policy, preset, int(pa.dealer), list(pa.calls), dealt, int(view.seat),
                     None, pa.epsilon)
    if pa.bid.strain is None and int(pa.declarer) != int(view.seat):
        d = int(pa.declarer)
        named = ask_distinct(lambda h: pa.policy.declare_strain(h, d, int(pa.dealer), pa.bid), dealt[:, d])
        w = w * ((1.0 - pa.epsilon) * (named == int(view.strain)) + pa.epsilon / len(preset.strains))
    return w


def auction_deals(view: SeatView, pa: PlayAuction, preset: Preset, exact: bool,
                  counts: Optional[np.ndarray], weights: Optional[np.ndarray], samples: int,
                  seed: int) -> tuple[np.ndarray, np.ndarray, Evidence]:
    """The deals of the play weighted by the auction (module docstring): with ``exact``, the
    enumerated ``counts`` and their shuffle ``weights``, reweighted; else ``samples`` deals
    by rejection control from the view's sampler of ``seed``.  Returns ``(counts (k, 4, 24),
    weights (k,) float64, evidence)``.  Raises RulesError when no deal carries weight (ε = 0
    and every consistent deal contradicts a call)."""
    seed = check_seed(seed)
    ev = Evidence(sum(1 for j in range(len(pa.calls)) if (int(pa.dealer) + 1 + j) % 4 != int(view.seat)),
                  pa.epsilon)
    if exact:
        base = weights.astype(np.float64)
        w = base * _weigh(view, pa, preset, counts)
        if not (w > 0).any():
            raise RulesError(f"no consistent deal fits the auction {pa.text()!r} under the bidding "
                             "policy with this noise floor")
        # the figures of every consistent deal (those of weight 0 included), then the deals kept
        ev.candidates = int(base.size)
        ev.p_calls = float(w.sum() / base.sum())
        ev.n_eff = n_eff(w)
        ev.candidate_n_eff = ev.n_eff / max(1.0, n_eff(base))
        uniform, uw = counts, base
        keep = w > 0
        counts, w = counts[keep], w[keep]
        ev.kept = int(w.size)
    else:
        pilot = view.samples(seed, PLAY_PILOT)
        pw = _weigh(view, pa, preset, pilot)
        c = mass_quantile(pw, 0.5)
        rng = np.random.default_rng([seed, 7])
        kept_c, kept_w = [], []
        got, start, budget = 0, PLAY_PILOT, PLAY_CANDIDATE_FACTOR * samples
        sw = sw2 = 0.0
        dealt = 0
        block = max(64, min(1024, 2 * samples))
        while got < samples and dealt < budget:
            k = min(block, budget - dealt)
            cand = view.samples(seed, k, start)
            w = _weigh(view, pa, preset, cand)
            u = rng.random(k)
            start += k
            dealt += k
            sw += float(w.sum())
            sw2 += float(np.dot(w, w))
            keep, kw = rejection_control(w, u, c)
            kept_c.append(cand[keep])
            kept_w.append(kw)
            got += int(keep.sum())
        counts = np.concatenate(kept_c)[:samples]
        w = np.concatenate(kept_w)[:samples]
        if w.size == 0:
            raise RulesError(f"no sampled deal fits the auction {pa.text()!r} in {dealt:,} candidates "
                             "under the bidding policy with this noise floor")
        ev.candidates, ev.kept, ev.threshold = dealt, int(w.size), c
        ev.p_calls = sw / dealt if dealt else float(pw.mean())
        ev.candidate_n_eff = (sw * sw / sw2 / dealt) if sw2 > 0 else 0.0
        ev.n_eff = n_eff(w)
        uniform, uw = pilot, np.ones(PLAY_PILOT)
    if not pa.report:          # the per-seat lines and the warning are not computed
        ev.described = False
        return counts, w, ev
    dealt_counts = counts + view.played_by[None]
    ev.describe(pa.policy, preset, int(pa.dealer), list(pa.calls), int(view.seat), dealt_counts, w,
                _resample(uniform + view.played_by[None], uw))
    return counts, w, ev


def _resample(deals: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The uniform baseline as equally weighted deals: ``deals`` as they are when their
    weights are equal, else drawn in proportion to ``w`` (systematic, fixed offset)."""
    if deals.shape[0] == 0 or np.all(w == w[0]):
        return deals
    cum = np.cumsum(w / w.sum())
    m = min(4096, max(256, deals.shape[0]))
    idx = np.searchsorted(cum, (np.arange(m) + 0.5) / m)
    return deals[np.minimum(idx, deals.shape[0] - 1)]
