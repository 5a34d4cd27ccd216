"""Bid advice for one hand by simulation (single dummy: RULES.md §2 bidding, §3 scoring).

Question: with this hand, in this seat, after these bids, what should I bid?  Answer: deal the
unseen cards at random consistent with what is known (the hand, the cards shown with
``known``), or take given full deals (``deals``); solve each deal double-dummy; and for every
legal action — pass and each legal bid — play the rest of the auction, then score the hand.
The expected hand result (our side's points minus theirs) over the deals, with its standard
error, rates each action; the best is recommended.

How the other seats bid (``others``):

- ``"model"`` (the default): they are players who see their own hands.  The calls heard are
  evidence: each deal is weighted by the bidding policy's probability of every earlier call
  given the hand of the seat that made it, with a noise floor (:mod:`.evidence`: importance
  weights, rejection control, the effective sample size, the weighted means and standard
  errors, a line per other seat on what the auction tells, a warning when the calls were
  unlikely under the model); after our action each later seat calls by the policy from its
  own hand and the declarer names its strain by it (:mod:`.table`).
- ``"dd"``: uniform deals, and every other seat bids double dummy with all hands open, exactly
  as in par (:mod:`bideuchre.analysis.par`: each chooses to maximise its side's hand result):
  the par view.  The rest of this docstring describes this table where it differs.

Single-dummy choices of the bidder (the seat advised):

- **The strain of our number bid is fixed across the deals**: for each bid level, the strain
  that maximises the *mean* result over the deals (where the strain is named with the bid,
  ``double32`` and ``double48``, each (level, strain) is its own legal action and is rated
  on its own).  Choosing the
  best strain of *each* deal would let the bidder pick trumps after seeing the other hands:
  it is the mean of a maximum instead of the maximum of a mean, always at least as large,
  and it overrates the bidder — most with balanced hands that could play in several strains.
  The same holds for the strain of our lone bid.
- The other seats (partner included) choose per deal, double-dummy, as in par.
- **Lone exchanges.**  ``double32`` loners lay their cards down at bid time, before the
  strain is named (RULES.md §2): the laid-down cards are fixed across the deals and strains —
  among the choices that are not dominated (the lowest cards of each suit), the one with the
  most deals taking every trick in its best strain — while the partner's gift, chosen knowing
  the strain and their own hand, is the best per deal.  ``standard`` 12 is valued as in the
  lone table (the partner's gift and then the bidder's discard, best per deal): the gift may
  depend on the deal, and the discard, made after seeing the gift, is overrated only by its
  knowledge of the opponents' cards.  Other seats' loners are double-dummy, as in par.

What is computed per deal: only what the auction from this point can read (see
:mod:`.deal_data`): exact DD tricks of every strain for our seat; for the other seats still to
speak only their most tricks over the strains (null-window searches); for the high bidder its
bid only; "every trick alone?" only for lone bids that are still legal; exact lone tricks of
a failing lone hand only where they change a result (the auction is first evaluated with each
failing lone hand at both bounds, n − 1 and 0 lone tricks).  For our own lone bid the exact
counts are computed when that bid could be the best action (``exact=True`` always computes
them); otherwise its EV is reported as a range (``ev`` the lower end, ``ev_max`` the upper,
``exact`` false).

How many deals (:mod:`.sampling`, :func:`advise`): by default **adaptive** — deals in blocks,
and after each block the recommendation against the runner-up (:func:`.rating.decide`): stop
when it is ahead by more than 3 standard errors of their *paired* difference (the same deals
rate every action), else go on up to a cap (:func:`default_samples`); a result within one
standard error is reported as too close to call (``Advice.close``).  ``samples=N`` rates
exactly N deals, ``deals=`` exactly the given ones; ``max_seconds`` stops drawing at a time.
Deal ``i`` is drawn by a generator seeded from ``(seed, i)`` alone, the rule looks only at
whole blocks in index order, and every result per deal is exact: results do not depend on the
number of workers.  Memory is bounded: deals are drawn a chunk at a time and at most
:data:`MAX_SAMPLES` are kept.

The package's modules: :mod:`.sampling` (the deals), :mod:`.evidence` (the calls heard as
weights), :mod:`.deal_data` (the per-deal searches), :mod:`.model` (the all-seeing auction
over many deals at once), :mod:`.table` (the auction bid by the policy), :mod:`.rating` (the
actions' EVs and the adaptive rule), :mod:`.game` (the game model), :mod:`.results` (what is
returned), :mod:`.advise` (the driver).

Game-end (``score`` and ``target``): with ``others="model"`` the chance of winning the game,
the hands still to come by a short game model (:mod:`.game`); with ``others="dd"`` (or where
no hand table is shipped) for each action, the probability that our side wins the
game at the end of this hand under the preset's rule (RULES.md §2 "game end"): ``standard``:
a side at or above the target with the higher total; ``pepper``: at or above the target, and
if both are, the bidding side; ``racehorse``/``double48``: at or above the target on a hand in
which that side made its bid or set the bidders.  Presets played over a number of hands
(``double32``) are not decided by a target: no game-win figure.
"""

from .advise import advise, default_workers
from .deal_data import lone_possible, suit_tops
from .results import ActionResult, Advice, StrainStats, action_label
from .sampling import (MAX_SAMPLES, SamplingPlan, default_samples, deals_for_hand, sample_deals,
                       sample_rng, sampling_plan)

__all__ = ["Advice", "ActionResult", "StrainStats", "advise", "default_samples", "sample_deals",
           "deals_for_hand", "sample_rng", "sampling_plan", "SamplingPlan", "MAX_SAMPLES",
           "default_workers", "action_label", "suit_tops", "lone_possible"]
