"""The rest of the auction bid by players who see their own hands (``others="model"``): after
each of our legal actions, every later seat (partner and opponents) calls by the bidding
policy from its own hand in each deal, the declarer names its strain by the policy where the
strain is named after the auction, and the contract is scored with the deal's double-dummy
tricks (RULES.md §1 "Scoring", §2).

The later seats **choose** (:meth:`BidPolicy.choose`, the policy's best call), they do not
sample from its call probabilities: the probabilities (a softmax with a temperature, and the
noise floor of :mod:`.evidence`) make the *evidence* robust to a call the model did not
expect, while the continuation should be what those players would do; sampling would only
add noise to every action's EV.

Vectorised over the deals: at each later speaker the deals are grouped by the calls so far
(their number is small: one group per distinct path), and the policy is asked once per
group — with every deal's hand of that seat, the same array each time, and the group's rows
read from its answer; a policy that reads the calls only through the auction's state
(``BidPolicy.state_only``: the speaker, the high bid and its seat) is asked once per state,
however many paths reach it; a policy whose hand-only part is a trick model
(:class:`~bideuchre.bidding.ModelPolicy`) gets it computed once per seat and chunk
(:func:`memo_policy`).  When our seat declares, its strain is ours to fix across the deals (as with the
all-seeing table, :mod:`.rating` picks it by the mean); so the paths record "ours" and the
rating reads our leaf from :class:`~.model.AuctionModel`.
"""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from ...rules import Preset, Strain
from ..auction import Bid, ladder, legal_actions
from ..lone import lone_leader, one_bid_tricks

__all__ = ["Paths", "model_paths", "path_tricks", "memo_policy", "OURS", "NOBODY"]

#: ``strain`` of a path on which our seat declares (our strain is fixed by the rating).
OURS = -1
#: ``declarer`` of a thrown-in hand.
NOBODY = -1


class Paths:
    """The policy's continuation for each of our actions over ``k`` deals: ``declarer``,
    ``bid`` (index into :func:`~bideuchre.analysis.auction.ladder`, -1 thrown in) and
    ``strain`` (Strain id; :data:`OURS` where our seat declares), each ``(k, A)`` for the A
    legal actions in :func:`legal_actions` order; ``tricks`` ``(k, A)`` the declaring side's
    DD tricks in that strain (lone bids: the lone hand's tricks), -1 where ours or thrown in."""

    __slots__ = ("declarer", "bid", "strain", "tricks")

    def __init__(self, k: int, A: int):
        self.declarer = np.full((k, A), NOBODY, dtype=np.int8)
        self.bid = np.full((k, A), -1, dtype=np.int16)
        self.strain = np.full((k, A), OURS, dtype=np.int8)
        self.tricks = np.full((k, A), -1, dtype=np.int16)


class _MemoModel:
    """A trick model whose ``trick_probs`` and ``lone_probs`` are remembered per hands array
    (by identity: the arrays are kept alive with their answers), seat and dealer; everything
    else is the model's."""

    def __init__(self, model):
        self._m = model
        self._memo: dict = {}

    def __getattr__(self, name):
        return getattr(self._m, name)

    def _get(self, kind: str, hands, seat: int, dealer: int):
        key = (kind, id(hands), int(seat), int(dealer))
        hit = self._memo.get(key)
        if hit is None or hit[0] is not hands:
            hit = self._memo[key] = (hands, getattr(self._m, kind)(hands, seat, dealer))
        return hit[1]

    def trick_probs(self, hands, seat, dealer):
        return self._get("trick_probs", hands, seat, dealer)

    def lone_probs(self, hands, seat, dealer):
        return self._get("lone_probs", hands, seat, dealer)


def memo_policy(policy):
    """A copy of ``policy`` for one chunk whose trick model remembers its answers per hands
    array (:class:`_MemoModel`); the policy itself when it has no trick model.  The same
    answers: only the work changes."""
    import copy
    m = getattr(policy, "model", None)
    if m is None or not hasattr(m, "trick_probs"):
        return policy
    if hasattr(policy, "overcall_rates"):
        policy.overcall_rates()         # computed once, on the shared policy
    out = copy.copy(policy)
    out.model = _MemoModel(m if not isinstance(m, _MemoModel) else m._m)
    return out


def model_paths(policy, preset: Preset, dealer: int, calls: Sequence, me: int,
                counts: np.ndarray, score=None) -> Paths:
    """The continuation of every legal action of ``me`` after ``calls`` over the deals
    ``counts`` ``(k, 4, 24)`` (the tricks not yet filled in: :func:`path_tricks`)."""
    policy = memo_policy(policy)
    H = [np.ascontiguousarray(counts[:, s]) for s in range(4)]
    bids = ladder(preset)
    index = {b: i for i, b in enumerate(bids)}
    calls = list(calls)
    i0 = len(calls)
    high, hs = None, None
    for j, c in enumerate(calls):
        if c is not None:
            high, hs = c, (int(dealer) + 1 + j) % 4
    acts = legal_actions(preset, bids, i0, high)
    k = counts.shape[0]
    paths = Paths(k, len(acts))
    memo: Optional[dict] = {} if getattr(policy, "state_only", False) else None

    def finish(a: int, rows: np.ndarray, hi: Optional[Bid], hseat: Optional[int]) -> None:
        if hi is None:
            return
        paths.declarer[rows, a] = hseat
        paths.bid[rows, a] = index[hi]
        if hi.strain is not None:
            paths.strain[rows, a] = int(hi.strain)
        elif hseat != int(me):
            paths.strain[rows, a] = np.asarray(
                policy.declare_strain(H[hseat], hseat, int(dealer), hi), dtype=np.int8)[rows]

    def go(a: int, i: int, sofar: list, rows: np.ndarray, hi, hseat) -> None:
        if rows.size == 0:
            return
        if i == 4 or (hi is not None and hi.ends_auction):
            finish(a, rows, hi, hseat)
            return
        seat = (int(dealer) + 1 + i) % 4
        # a state-only policy answers every path to the same (speaker, high bid, its seat)
        # alike, and always over all k deals' hands of the seat: asked once per state
        key = (i, hi, hseat) if memo is not None else None
        hit = None if key is None else memo.get(key)
        if hit is None:
            got, idx = policy.choose(H[seat], seat, int(dealer), list(sofar), score)
            hit = (list(got), np.asarray(idx))
            if key is not None:
                memo[key] = hit
        got = hit[0]
        idx = hit[1][rows]
        for j in np.unique(idx).tolist():
            act = got[j]
            sub = rows[idx == j]
            if act is None:
                go(a, i + 1, sofar + [None], sub, hi, hseat)
            else:
                go(a, i + 1, sofar + [act], sub, act, seat)

    rows = np.arange(k)
    for a, act in enumerate(acts):
        if act is None:
            go(a, i0 + 1, calls + [None], rows, high, hs)
        else:
            go(a, i0 + 1, calls + [act], rows, act, int(me))
    return paths


def path_tricks(paths: Paths, preset: Preset, dealer: int, me: int, counts: np.ndarray,
                dd: np.ndarray, solver, lone_searcher, rows: Optional[Sequence[int]] = None) -> None:
    """Fill ``paths.tricks`` where another seat declares: number bids from ``dd`` (``(k, 4,
    strains)``, -1 where not solved) or else an exact DD search (one per deal, declarer and
    strain, shared by the actions), lone bids by :func:`~bideuchre.analysis.lone.one_bid_tricks`
    (the lone hand's exact tricks with its exchange, RULES.md §2 "Lone bids and card
    exchanges").  ``solver``: the thread's DD search context; ``lone_searcher``: its
    lone search context (:func:`~bideuchre.analysis.lone.lone_searcher`); ``rows``: only these
    deals (None: all)."""
    bids = ladder(preset)
    strains = list(preset.strains)
    n = preset.tricks
    left = preset.first_lead == "left_of_dealer"
    cache: dict = {}
    other = (paths.declarer >= 0) & (paths.declarer != int(me))
    if rows is not None:
        keep = np.zeros(other.shape[0], dtype=bool)
        keep[list(rows)] = True
        other &= keep[:, None]
    for i, a in zip(*np.nonzero(other)):
        i, a = int(i), int(a)
        seat, b, st = int(paths.declarer[i, a]), bids[int(paths.bid[i, a])], int(paths.strain[i, a])
        key = (i, seat, st, b.lone is not None and b.name)
        t = cache.get(key)
        if t is None:
            if b.lone is not None:
                t = int(one_bid_tricks(lone_searcher, counts[i], preset, b.lone, seat, st,
                                       lone_leader(preset, seat, dealer)))
            else:
                k = strains.index(Strain(st))
                t = int(dd[i, seat, k])
                if t < 0:
                    leader = (int(dealer) + 1) % 4 if left else seat
                    ns = int(solver.solve(counts[i], st, leader, -1))
                    t = ns if seat % 2 == 0 else n - ns
                    dd[i, seat, k] = t
            cache[key] = t
        paths.tricks[i, a] = t


class PolicyTable:
    """The outcomes of our actions over a slice of deals (a :class:`~.deal_data.DealView`
    with paths) when the later seats bid by the policy: :meth:`outcome` ``(a, strain)``,
    our leaf read from ``model`` (an :class:`~.model.AuctionModel` over the same view: our
    DD tricks, our lone hands at the model's bounds)."""

    def __init__(self, view, model, acts: list):
        self.v = view
        self.m = model
        self.acts = acts
        self.bids = ladder(view.preset)

    def outcome(self, a: int, strain: Optional[int]):
        from .model import Outcome, points
        v, me = self.v, int(self.v.me)
        decl = v.p_decl[:, a].astype(np.int32)
        S = v.S
        ns = np.zeros(S, dtype=np.int64)
        ew = np.zeros(S, dtype=np.int64)
        made = np.zeros(S, dtype=bool)
        ours = decl == me
        if ours.any():
            leaf = self.m.leaf(me, self.acts[a], strain)
            ns = np.where(ours, leaf.ns, ns)
            ew = np.where(ours, leaf.ew, ew)
            made = np.where(ours, leaf.made, made)
        other = (decl >= 0) & ~ours
        if other.any():
            bidx = v.p_bid[:, a]
            for b in np.unique(bidx[other]).tolist():
                rows = other & (bidx == b)
                t = v.p_tricks[rows, a].astype(np.int64)
                dp, fp, mk = points(v.preset, self.bids[b], t)
                even = decl[rows] % 2 == 0
                ns[rows] = np.where(even, dp, fp)
                ew[rows] = np.where(even, fp, dp)
                made[rows] = mk
        return Outcome.of(ns, ew, decl, made)
