"""A small deterministic bidding policy with the interface of ``bideuchre.bidding.BidPolicy``
(call_probs, choose, declare_strain), for the inference tests: its answers are known from
the hand alone, so the weighted sample can be checked against rejection sampling."""

import numpy as np

from bideuchre.analysis.advice.evidence import seat_features
from bideuchre.analysis.auction import ladder, legal_actions
from bideuchre.bidding import HeuristicPolicy
from bideuchre.rules import get_preset


class TrumpCountPolicy(HeuristicPolicy):
    """Bid the number of trumps in the best suit (the left bower counted) plus the side aces,
    the highest legal number bid at most that, in that suit where the strain goes with the
    bid; else pass (or the lowest legal bid when pass is not legal).  Deterministic: one-hot
    call probabilities (the heuristic policy's ``call_probs`` over this ``choose``)."""

    def __init__(self, preset):
        super().__init__(preset)
        self.p = get_preset(preset)
        self.bids = ladder(self.p)

    def _estimate(self, hands):
        best, tr, _ = seat_features(hands, self.p)
        aces = sum((hands[:, s * 6 + 5] > 0).astype(int) for s in range(4))
        own_ace = hands[np.arange(len(best)), best * 6 + 5] > 0
        return best, tr + aces - own_ace

    def choose(self, hands, seat, dealer, calls, score=None):
        high = None
        for c in calls:
            if c is not None:
                high = c
        acts = legal_actions(self.p, self.bids, len(calls), high)
        best, est = self._estimate(hands)
        idx = np.zeros(len(hands), dtype=np.int64)
        for i in range(len(hands)):
            pick = None
            for j, a in enumerate(acts):
                if a is None or a.lone is not None:
                    continue
                if a.strain is not None and int(a.strain) != int(best[i]):
                    continue
                if a.level <= est[i]:
                    pick = j
            if pick is None:
                pick = 0 if acts[0] is None else next(
                    j for j, a in enumerate(acts) if a.lone is None and
                    (a.strain is None or int(a.strain) == int(best[i])))
            idx[i] = pick
        return acts, idx

    def declare_strain(self, hands, seat, dealer, bid):
        return seat_features(hands, self.p)[0]
