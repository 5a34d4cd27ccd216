"""The match policies of bid advice (imported by :mod:`bideuchre.bidding.match` before it
looks a policy up):

- ``advice``: :func:`bideuchre.analysis.advice.advise` for the seat's own hand with the other
  seats as players who see their own hands (``others="model"``: the calls heard weight the
  sampled deals, the later seats bid by the model policy), at a fixed number of sampled deals
  (:data:`ADVICE_SAMPLES`, seeded from the match seed, the deal and the seat);
- ``advice-dd``: the same advice with uniform deals and all-seeing other seats
  (``others="dd"``, the advice before the bidding model) — registered here again so that it
  names ``others="dd"`` now that ``advise`` defaults to the model.

Both take the strain the advice rated for the bid that stood, and fall back to the model
policy's strain where the bid was not theirs to rate.
"""

from __future__ import annotations

from ..analysis.auction import parse_bid
from ..rules import Preset, parse_strain
from .match import TablePolicy
from .policy import get_policy, register_policy

__all__ = ["AdvicePolicy", "AdviceDDPolicy", "ADVICE_SAMPLES"]

#: Sampled deals per call of the advice policies in a match (speed, not strength).
ADVICE_SAMPLES = 24


class AdvicePolicy(TablePolicy):
    """Bid advice for the seat's own hand (module docstring); ``others`` "model" or "dd"."""

    name = "advice"
    others = "model"

    def __init__(self, preset: Preset, samples: int = ADVICE_SAMPLES):
        super().__init__(preset)
        self.samples = int(samples)
        self._strain: dict = {}
        self._fallback = None

    def choose_deal(self, ds, i, seat, calls):
        from ..analysis.advice import advise
        hand = [c for c in range(24) for _ in range(int(ds.counts[i, seat, c]))]
        seed = int(ds.seed) * 1_000_003 + int(ds.ids[i]) * 4 + int(seat)
        adv = advise(hand, int(seat), int(ds.dealers[i]), self.preset, auction=list(calls),
                     samples=self.samples, seed=seed, workers=1, others=self.others)
        action = parse_bid(adv.recommend.action, self.preset)
        if action is not None and adv.recommend.strain is not None:
            self._strain[(int(ds.ids[i]), int(seat), action)] = parse_strain(adv.recommend.strain)
        return action

    def strain_deal(self, ds, i, seat, bid):
        st = self._strain.get((int(ds.ids[i]), int(seat), bid))
        if st is not None:
            return st
        if self._fallback is None:
            self._fallback = get_policy("model", self.preset)
        from ..rules import Strain
        return Strain(int(self._fallback.declare_strain(ds.counts[i, seat][None], int(seat),
                                                        int(ds.dealers[i]), bid)[0]))


class AdviceDDPolicy(AdvicePolicy):
    """The advice with uniform deals and all-seeing other seats (module docstring)."""

    name = "advice-dd"
    others = "dd"


register_policy("advice", AdvicePolicy)
register_policy("advice-dd", AdviceDDPolicy)
