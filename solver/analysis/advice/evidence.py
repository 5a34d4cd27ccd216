"""The calls heard as evidence: each sampled deal is weighted by the bidding policy's
probability of every call made before ours, given the hand of the seat that made it in that
deal (importance weighting; what BEN and policy-based inference in Skat do).

**The weight** of a deal is the product over the earlier calls ``j`` (made by seat ``s_j``
after the calls ``c_1 … c_{j-1}``) of ::

    (1 - ε) · P_policy(c_j | hand of s_j, calls before) + ε / L_j

where ``L_j`` is the number of legal actions at that call: the policy mixed with a uniform
choice among the legal calls (the *noise floor*, :data:`EPSILON`).  A call the policy never
makes with a hand thins the deals holding such hands (weight ε/L) rather than removing them,
so an auction the model did not expect leaves a sample, and says so (:class:`Evidence`
warns).  With ``epsilon=0`` a call of probability 0 removes exactly the deals whose hand
gives it probability 0.

**Drawing** (:class:`CandidateStream`): candidate deals of the unseen cards are dealt
uniformly, vectorised a block at a time, block ``b`` from a generator seeded by ``(seed, b,
1)`` alone, and weighted (a block of :func:`candidate_block` candidates: fewer for a small
fixed sample).  The first :data:`PILOT_BLOCKS` blocks (the *pilot*) are not rated:
they fix the threshold ``c`` (the weight at which half the pilot's weight *mass* lies on
deals of lower weight, half on higher) and the uniform baseline of the per-seat lines.  Later candidates go through *rejection control*
(Liu, Chen and Wong 1998): one with weight ``w ≥ c`` is kept with weight ``w``; one with
``w < c`` is kept with probability ``w / c`` (its own uniform draw) and then carries weight
``c``.  The kept deals with their weights estimate the same weighted expectations as
weighting every candidate (unbiased: each candidate's expected kept weight is ``w``), but
the double-dummy searches are spent on deals that carry weight.  When every weight is 0 or
one value (a deterministic policy with ε = 0), rejection control *is* rejection sampling:
exactly the candidates consistent with the calls are kept, each with weight 1.

Everything depends on the seed, the candidates' indices and the block size (so on the number of
deals wanted) only: not on the workers.
Memory is bounded by a block of candidates and the deals kept.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Optional, Sequence

import numpy as np

from ...rules import Preset, Seat, Strain, check_seed

__all__ = ["EPSILON", "PILOT", "PILOT_BLOCKS", "CANDIDATE_BLOCK", "MIN_BLOCK", "candidate_block", "RESCUE_CANDIDATES",
           "call_weights", "distinct_hands", "ask_distinct", "CandidateStream", "Evidence",
           "SeatInference", "n_eff", "weighted_mean_se", "seat_features"]

#: The noise floor: the share of each heard call explained by a uniform choice among the
#: legal calls (see the module docstring).
EPSILON = 0.02

#: Candidates dealt per block (one generator each): the most; see :func:`candidate_block`.
CANDIDATE_BLOCK = 1024

#: The fewest candidates a block deals.
MIN_BLOCK = 128


def candidate_block(deals: int) -> int:
    """Candidates a block deals when at most ``deals`` deals are wanted: eight a deal wanted,
    :data:`MIN_BLOCK` … :data:`CANDIDATE_BLOCK` (the pilot is two blocks).  A fixed small
    sample -- the match's advice policies rate 24 deals a call -- then weighs a few hundred
    candidates, not the 3,000 a large sample needs; ``bid`` (thousands of deals) always
    deals blocks of :data:`CANDIDATE_BLOCK`."""
    return int(min(CANDIDATE_BLOCK, max(MIN_BLOCK, 8 * int(deals))))

#: Candidates of the pilot (threshold and uniform baseline; not rated), in blocks.
PILOT_BLOCKS = 2
#: The pilot's candidates at the largest block.
PILOT = PILOT_BLOCKS * CANDIDATE_BLOCK

#: Candidates dealt at most, past the budget, while not one deal has been kept: an auction the
#: model finds very unlikely still gets an answer (a thin one: its effective sample says so).
RESCUE_CANDIDATES = 50_000

#: The share of the pilot's weight mass on deals below the rejection-control threshold.
THRESHOLD_QUANTILE = 0.5


def rejection_control(w: np.ndarray, u: np.ndarray, c: float) -> tuple[np.ndarray, np.ndarray]:
    """Rejection control at threshold ``c`` (Liu's; module docstring): a candidate of weight
    ``w >= c`` is kept as it is, a lighter one with chance ``w / c`` (``u``: its uniform draw
    on [0, 1)) and then weighs ``c``; the kept deals' weights stay unbiased.  ``w``, ``u``:
    ``(k,)``.  Returns ``(keep (k,) bool, the kept deals' weights (k',) float64)``."""
    keep = (w >= c) | (u * c < w)
    return keep, np.maximum(w[keep], c)


def mass_quantile(w: np.ndarray, q: float) -> float:
    """The weight ``c`` such that a share ``q`` of the mass ``Σ w`` lies on deals of weight
    below ``c`` (1.0 when every weight is 0).  With two kinds of deal, a few of weight 1 and
    many near 0, it is 1: rejection control is then rejection sampling."""
    w = np.sort(np.asarray(w, dtype=np.float64))
    tot = float(w.sum())
    if tot <= 0:
        return 1.0
    cum = np.cumsum(w)
    return float(w[min(w.size - 1, int(np.searchsorted(cum, q * tot, side="left")))])


def n_eff(w: np.ndarray) -> float:
    """Kish's effective sample size ``(Σw)² / Σw²`` of the weights ``w`` (0 for none)."""
    w = np.asarray(w, dtype=np.float64)
    s2 = float(np.dot(w, w))
    return float(w.sum()) ** 2 / s2 if s2 > 0 else 0.0


def weighted_mean_se(v: np.ndarray, w: Optional[np.ndarray]) -> tuple[float, float]:
    """The weighted mean of ``v`` (per deal) and its standard error: the self-normalised
    importance-sampling estimate ``m = Σ w v / Σ w`` and ``se² = Σ w² (v − m)² / (Σ w)²``
    times ``n / (n − 1)`` (``n`` deals), which is the usual ``s / √n`` when every weight is
    the same.  ``w`` None: equal weights.  ``se`` is 0 for one deal."""
    v = np.asarray(v, dtype=np.float64)
    n = v.shape[0]
    if w is None:
        m = float(v.mean()) if n else 0.0
        return m, (float(v.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0)
    sw = float(w.sum())
    m = float(np.dot(w, v) / sw)
    if n < 2:
        return m, 0.0
    var = float(np.dot(w * w, (v - m) ** 2)) / (sw * sw) * n / (n - 1)
    return m, math.sqrt(var)


_POW3 = 3 ** np.arange(24, dtype=np.int64)     # a hand's code: at most two copies of a card


def distinct_hands(hands: np.ndarray) -> Optional[tuple[np.ndarray, np.ndarray]]:
    """``(rows, inverse)`` when at most half of ``hands`` ``(k, 24)`` (k ≥ 64) are distinct --
    ``hands[rows][inverse]`` is ``hands`` -- else None (not worth it).  The deals of a late
    position (every consistent one, up to 20,000) repeat each seat's hand many times; a
    bidding policy's answer for a hand does not depend on the others asked with it, so it is
    asked once per distinct hand.  (``SeatView.enumerate`` finds distinct deals with
    ``np.unique(axis=0)``; a hand's base-3 code does it here faster, a deck holding at most two
    copies of a card.)"""
    k = hands.shape[0]
    if k < 64:
        return None
    code = hands.astype(np.int64) @ _POW3
    uniq, first, inv = np.unique(code, return_index=True, return_inverse=True)
    if 2 * uniq.size > k:
        return None
    return first, inv.reshape(-1)


def ask_distinct(ask, hands: np.ndarray):
    """``ask(hands)`` (a policy's answer per hand, first axis the hands) asked only of the
    distinct hands where :func:`distinct_hands` finds them repeated, spread back: the same
    array.  For a tuple answer ``(actions, probs)`` the probabilities are spread."""
    once = distinct_hands(hands)
    if once is None:
        return ask(np.ascontiguousarray(hands))
    got = ask(np.ascontiguousarray(hands[once[0]]))
    if isinstance(got, tuple):
        return got[0], np.asarray(got[1])[once[1]]
    return np.asarray(got)[once[1]]


def call_probabilities(policy, dealer: int, calls: Sequence, counts: np.ndarray, me: int,
                       score=None) -> tuple[np.ndarray, list]:
    """The policy's probability of each call heard, per deal: ``(k, calls)`` float64 (a call
    by ``me`` — none in one round of bidding — gets 1), and the number of legal actions at
    each call.  The policy is asked once per distinct hand of the seat where the hands repeat
    (:func:`distinct_hands`)."""
    k = counts.shape[0]
    out = np.ones((k, len(calls)), dtype=np.float64)
    legal = []
    for j, call in enumerate(calls):
        seat = (int(dealer) + 1 + j) % 4
        if seat == int(me):
            legal.append(1)
            continue
        acts, probs = ask_distinct(lambda h: policy.call_probs(h, seat, int(dealer), list(calls[:j]), score),
                                   counts[:, seat])
        acts = list(acts)
        out[:, j] = np.asarray(probs, dtype=np.float64)[:, acts.index(call)]
        legal.append(len(acts))
    return out, legal


def call_weights(policy, preset: Preset, dealer: int, calls: Sequence, counts: np.ndarray,
                 me: int, score=None, epsilon: float = EPSILON) -> np.ndarray:
    """The weight of each deal (module docstring): ``counts`` ``(k, 4, 24)`` card counts,
    ``calls`` the actions before ours (from the dealer's left), ``policy`` a
    :class:`~bideuchre.bidding.BidPolicy` (``call_probs``).  Returns ``(k,)`` float64; all
    ones when no call was heard.  Calls by ``me`` (none in one round of bidding) carry no
    evidence."""
    p, legal = call_probabilities(policy, dealer, calls, counts, me, score)
    w = np.ones(counts.shape[0], dtype=np.float64)
    for j in range(len(calls)):
        if (int(dealer) + 1 + j) % 4 != int(me):
            w *= (1.0 - epsilon) * p[:, j] + epsilon / legal[j]
    return w


def _suit_features(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per hand and trump suit t (S H D C): the trumps held (the left bower counted in t) and
    both bowers held (at least one copy of each); two ``(k, 4)`` arrays."""
    k = counts.shape[0]
    trumps = np.zeros((k, 4), dtype=np.int16)
    bowers = np.zeros((k, 4), dtype=bool)
    c = counts.astype(np.int16)
    for t in range(4):
        left = (3 - t) * 6 + 2          # the jack of the other suit of the same colour
        right = t * 6 + 2
        trumps[:, t] = c[:, t * 6:(t + 1) * 6].sum(axis=1) + c[:, left]
        bowers[:, t] = (c[:, right] > 0) & (c[:, left] > 0)
    return trumps, bowers


def seat_features(counts: np.ndarray, preset: Preset) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For one seat's hands ``(k, 24)``: its best trump suit (the most trumps, the left
    bower counted; ties: both bowers, then the right bower, then the preset's order), as a
    Strain id, the trumps it holds there and whether it holds both bowers there.  Only the
    preset's trump strains are looked at; ``(k,)`` arrays (strain -1 where the preset has
    none)."""
    trumps, bowers = _suit_features(counts)
    suits = [int(s) for s in preset.strains if int(s) < 4]
    k = counts.shape[0]
    if not suits:
        return np.full(k, -1), np.zeros(k), np.zeros(k, dtype=bool)
    rank = np.stack([trumps[:, t] * 4 + bowers[:, t] * 2 + (counts[:, t * 6 + 2] > 0)
                     for t in suits], axis=1)
    # argmax takes the first of equals: the preset's order
    pick = np.argmax(rank, axis=1)
    best = np.array(suits)[pick]
    return best, trumps[np.arange(k), best], bowers[np.arange(k), best]


@dataclass
class SeatInference:
    """What the auction tells about one other seat (weighted deals) against uniform dealing:
    ``strain`` (its likeliest best trump suit, :func:`seat_features`) and ``p_strain`` (how
    often that suit is its best), ``trumps`` ± ``trumps_sd`` (trumps held in its best suit),
    ``p_bowers`` (both bowers of its best suit); ``uniform_*`` the same over uniform deals;
    ``call``: its call heard, None if it has not spoken."""

    seat: Seat
    call: Optional[str]
    strain: Optional[Strain]
    p_strain: float
    trumps: float
    trumps_sd: float
    p_bowers: float
    uniform_p_strain: float
    uniform_trumps: float
    uniform_p_bowers: float

    def text(self) -> str:
        """``E, bid 5: best suit ♥ 62 %, 4.1 ± 0.9 trumps, both bowers 31 % — uniform: 27 %,
        2.9, 8 %`` (``E, passed: …``, ``E, to speak: …``)."""
        who = (f"{self.seat.name}, to speak" if self.call is None else
               f"{self.seat.name}, passed" if self.call == "pass" else
               f"{self.seat.name}, bid {self.call}")
        if self.strain is None:
            return who + ": no trump suit in this preset"
        return (f"{who}: best suit {self.strain.symbol} {100 * self.p_strain:.0f} %, "
                f"{self.trumps:.1f} ± {self.trumps_sd:.1f} trumps, both bowers "
                f"{100 * self.p_bowers:.0f} % — uniform: {100 * self.uniform_p_strain:.0f} %, "
                f"{self.uniform_trumps:.1f}, {100 * self.uniform_p_bowers:.0f} %")

    def to_json(self) -> dict:
        return {"seat": self.seat.name, "call": self.call,
                "strain": None if self.strain is None else self.strain.name,
                "p_strain": round(self.p_strain, 4), "trumps": round(self.trumps, 3),
                "trumps_sd": round(self.trumps_sd, 3), "p_bowers": round(self.p_bowers, 4),
                "uniform": {"p_strain": round(self.uniform_p_strain, 4),
                            "trumps": round(self.uniform_trumps, 3),
                            "p_bowers": round(self.uniform_p_bowers, 4)}}


def seat_inference(preset: Preset, seat: int, call: Optional[str], counts: np.ndarray,
                   w: np.ndarray, uniform: np.ndarray) -> SeatInference:
    """:class:`SeatInference` of ``seat`` over the deals ``counts`` ``(k, 4, 24)`` weighted
    by ``w``, against the uniform deals ``uniform`` ``(m, 4, 24)``."""
    best, tr, bw = seat_features(counts[:, seat], preset)
    ub, utr, ubw = seat_features(uniform[:, seat], preset)
    if best.size == 0 or best[0] < 0:
        return SeatInference(Seat(seat), call, None, 0, 0, 0, 0, 0, 0, 0)
    w = w / w.sum()
    share = np.array([w[best == t].sum() for t in range(4)])
    t = int(np.argmax(share))
    m = float(np.dot(w, tr))
    sd = math.sqrt(max(0.0, float(np.dot(w, (tr - m) ** 2))))
    return SeatInference(Seat(seat), call, Strain(t), float(share[t]), m, sd,
                         float(np.dot(w, bw)), float(np.mean(ub == t)), float(np.mean(utr)),
                         float(np.mean(ubw)))


@dataclass
class Evidence:
    """How the calls heard weighed on the sample: ``calls`` heard (before ours),
    ``epsilon`` (the noise floor), ``candidates`` dealt after the pilot, ``kept`` (deals
    rated), ``n_eff`` (Kish's effective sample size of the kept deals' weights),
    ``p_calls`` (the mean candidate weight: the model's probability of the calls heard
    given our hand, the floor included), ``candidate_n_eff`` (the effective sample size per
    candidate: the share of uniform deals that carry the weight), ``floor_only`` (the weight
    of a deal on which the policy gives every heard call probability 0), ``threshold``
    (rejection control's ``c``), ``seats`` (:class:`SeatInference` per other seat),
    ``per_call`` (for each call heard, ``(seat, call, mean policy probability over uniform
    deals, ε / legal calls)``), ``warning`` (a plain sentence when the auction was unlikely
    under the model, else None), ``described`` (False where :meth:`describe` was skipped --
    a play match reads only the card -- so ``seats``, ``per_call`` and ``warning`` say
    nothing)."""

    calls: int
    epsilon: float
    candidates: int = 0
    kept: int = 0
    n_eff: float = 0.0
    p_calls: float = 1.0
    candidate_n_eff: float = 1.0
    floor_only: float = 1.0
    threshold: float = 1.0
    seats: list = field(default_factory=list)
    per_call: list = field(default_factory=list)
    warning: Optional[str] = None
    described: bool = True

    def to_json(self) -> dict:
        return {"calls": self.calls, "epsilon": self.epsilon, "candidates": self.candidates,
                "kept": self.kept, "n_eff": round(self.n_eff, 1),
                "p_calls": float(f"{self.p_calls:.4g}"),
                "candidate_n_eff": round(self.candidate_n_eff, 5),
                "per_call": [{"seat": s.name, "call": c, "p_model": float(f"{p:.4g}"),
                              "floor": float(f"{f:.4g}")} for s, c, p, f in self.per_call],
                "warning": self.warning, "seats": [s.to_json() for s in self.seats]}

    def describe(self, policy, preset: Preset, dealer: int, calls: Sequence, me: int,
                 counts: np.ndarray, w: np.ndarray, uniform: np.ndarray) -> None:
        """Fill ``per_call`` (each call heard but ``me``'s: the policy's mean probability of it
        over the ``uniform`` deals ``(m, 4, 24)`` and its noise floor) and ``seats`` (every
        seat but ``me``: :func:`seat_inference` over the rated deals ``counts`` ``(k, 4, 24)``
        weighted by ``w``), then :meth:`judge`.  The deals are the hands as dealt."""
        from ..auction import format_action
        if calls:
            pr, legal = call_probabilities(policy, dealer, list(calls), uniform, int(me))
            for j, c in enumerate(calls):
                s_ = Seat((int(dealer) + 1 + j) % 4)
                if s_ != int(me):
                    self.per_call.append((s_, format_action(c), float(pr[:, j].mean()),
                                          self.epsilon / legal[j]))
        for j in range(4):
            s_ = (int(dealer) + 1 + j) % 4
            if s_ == int(me):
                continue
            call = format_action(calls[j]) if j < len(calls) else None
            self.seats.append(seat_inference(preset, s_, call, counts, w, uniform))
        self.judge()

    def judge(self) -> None:
        """Set ``warning``: the calls heard are unlikely under the model when fewer than 1
        deal in 100 of uniform dealing carries the weight (``candidate_n_eff`` < 0.01), or when
        a call's mean policy probability over uniform deals is below its noise floor (ε /
        legal calls: the floor, not the model, explains most of it)."""
        if self.calls == 0:
            self.warning = None
            return
        why = []
        if self.candidate_n_eff < 0.01:
            why.append(f"about 1 uniform deal in {max(1, round(1 / max(self.candidate_n_eff, 1e-9))):,} "
                       "carries the weight")
        rare = [f"{s.name} {c}" for s, c, p, f in self.per_call if (1 - self.epsilon) * p < f]
        if rare:
            why.append(f"the model seldom makes {', '.join(rare)} with any hand: the noise "
                       "floor explains most of " + ("it" if len(rare) == 1 else "them"))
        self.warning = (None if not why else
                        "the calls heard are unlikely under the bidding model (" + "; ".join(why)
                        + "): the inference about the hands is weak")


class CandidateStream:
    """Uniform candidate deals with their weights, then rejection control (module
    docstring).  :meth:`take` ``(k)`` returns the next up to ``k`` kept deals as ``(counts
    (k', 4, 24) uint8, weights (k',) float64)``; fewer only when the candidate budget
    ``budget`` is spent (``exhausted`` then True; while not one deal has been kept, up to
    :data:`RESCUE_CANDIDATES` are dealt first).  ``sampler``: the
    :class:`~.sampling.Sampler` giving the pool of unseen cards and the fixed cards;
    ``block``: candidates a block (:func:`candidate_block`), the pilot :data:`PILOT_BLOCKS`
    blocks."""

    def __init__(self, sampler, weigh, seed: int, budget: int, reject: bool = True,
                 block: int = CANDIDATE_BLOCK):
        self.s = sampler
        self.weigh = weigh
        self.seed = check_seed(seed)
        self.budget = int(budget)
        self.reject = reject
        self.pool = np.asarray(sampler.pool, dtype=np.int64)
        self._buf_c = np.zeros((0, 4, 24), dtype=np.uint8)
        self._buf_w = np.zeros(0)
        self._buf_b = np.zeros(0, dtype=np.int64)
        self.size = int(block)
        self.block = PILOT_BLOCKS
        self.candidates = 0
        self._stats: list = []              # per block dealt: (sum w, sum w²)
        self._block_of: list = []           # per deal taken: its block's position in _stats
        self.exhausted = False
        pilot = [self._deal(b) for b in range(self.block)]
        self.pilot = np.concatenate([c for c, _, _ in pilot])
        pw = np.concatenate([w for _, w, _ in pilot])
        self.pilot_w = pw
        self.threshold = mass_quantile(pw, THRESHOLD_QUANTILE)

    def _deal(self, b: int):
        """Candidate block ``b``: counts, weights, uniforms for the acceptance."""
        rng = np.random.default_rng([self.seed, int(b), 1])
        B, U = self.size, self.pool.size
        perm = np.argsort(rng.random((B, U)), axis=1)
        cards = self.pool[perm]
        out = np.broadcast_to(self.s.base, (B, 4, 24)).copy()
        rows = np.arange(B)[:, None]
        for seat in range(4):
            a, z = self.s.bounds[seat], self.s.bounds[seat + 1]
            if z > a:
                np.add.at(out[:, seat], (rows, cards[:, a:z]), 1)
        u = rng.random(B)
        return out, self.weigh(out), u

    def take(self, k: int):
        while self._buf_w.size < k and not self.exhausted:
            none_yet = not self._block_of and self._buf_w.size == 0
            if self.candidates >= (max(self.budget, RESCUE_CANDIDATES) if none_yet else self.budget):
                self.exhausted = True
                break
            c, w, u = self._deal(self.block)
            self.block += 1
            self.candidates += w.size
            self._stats.append((float(w.sum()), float(np.dot(w, w))))
            if self.reject:
                keep, w = rejection_control(w, u, self.threshold)
                c = c[keep]
            else:
                keep = w > 0
                c, w = c[keep], w[keep]
            self._buf_c = np.concatenate([self._buf_c, c])
            self._buf_w = np.concatenate([self._buf_w, w])
            self._buf_b = np.concatenate([self._buf_b, np.full(w.size, len(self._stats) - 1)])
        c, w = self._buf_c[:k], self._buf_w[:k]
        self._block_of.extend(self._buf_b[:k].tolist())
        self._buf_c, self._buf_w, self._buf_b = self._buf_c[k:], self._buf_w[k:], self._buf_b[k:]
        return c, w

    def summary(self, used: int) -> tuple[int, float, float]:
        """Over the candidate blocks up to the one that gave the ``used``-th deal taken (the
        deals rated; blocks dealt beyond, for deals fetched ahead, do not count, so the
        figures do not depend on the workers) — or every block dealt when the budget ran
        out: ``(candidates, mean weight, Kish's n_eff per candidate)``; the pilot's when
        none was dealt."""
        every = self.exhausted and used == len(self._block_of) and self._buf_w.size == 0
        nb = len(self._stats) if every or used == 0 else self._block_of[used - 1] + 1
        if nb == 0:
            pw = self.pilot_w
            return 0, float(pw.mean()), n_eff(pw) / max(1, pw.size)
        sw = sum(a for a, _ in self._stats[:nb])
        sw2 = sum(b for _, b in self._stats[:nb])
        cand = nb * self.size
        return cand, sw / cand, (sw * sw / sw2 / cand if sw2 > 0 else 0.0)
