"""The match policy ``advice`` (imported by :mod:`bideuchre.bidding.match` before it looks a
policy up): :func:`bideuchre.analysis.advice.advise` for the seat's own hand with the other
seats as players who see their own hands (``others="model"``: the calls heard weight the
sampled deals, the later seats bid by the model policy), at a fixed number of sampled deals
(seeded from the match seed, the deal and the seat), and the strain it rated for the bid that
stood — as ``advice-dd`` (:class:`~bideuchre.bidding.match.AdviceDDPolicy`, uniform deals and
all-seeing other seats) in every other respect.
"""

from __future__ import annotations

from .match import AdviceDDPolicy
from .policy import register_policy

__all__ = ["AdvicePolicy"]


class AdvicePolicy(AdviceDDPolicy):
    """Bid advice for the seat's own hand, the other seats by the bidding model."""

    name = "advice"
    others = "model"


register_policy("advice", AdvicePolicy)
