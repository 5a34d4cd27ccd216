"""The bidding model: what a seat that sees only its own hand should bid.

- :mod:`.features`: hand features relative to a strain (vectorised);
- :mod:`.model`: :class:`TrickModel`, the learned distribution of the side's DD tricks in each
  strain (and of a lone hand taking every trick) given one hand;
- :mod:`.policy`: bidding policies over many hands at once (:func:`get_policy`: ``heuristic``,
  ``model``, and any registered with :func:`register_policy`);
- :mod:`.train`: the fit (``benchmarks/train_bidmodel.py`` makes the shipped data);
- :mod:`.match`: duplicate matches of policies (``bideuchre match``).
"""

from .model import ModelDataError, TrickModel, data_path
from .policy import (BidPolicy, HeuristicPolicy, ModelPolicy, PolicyError, auction_state, get_policy,
                     heuristic_estimate, policy_names, register_policy)

__all__ = ["TrickModel", "ModelDataError", "data_path", "BidPolicy", "HeuristicPolicy", "ModelPolicy",
           "PolicyError", "get_policy", "register_policy", "policy_names", "auction_state",
           "heuristic_estimate"]
