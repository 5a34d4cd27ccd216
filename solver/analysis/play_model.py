"""The cards played as evidence: a model of which card a seat plays from a holding
(``play --play-model``; issue 26 §1, the optional part).

Without it the deals consistent with a seat's view (:class:`~bideuchre.analysis.sampler.SeatView`)
are weighted by the shuffle (and, with ``--auction``, by the calls heard): a defender's choice
of card says nothing but its voids.  This model reads the choices too.  **The model**
(RULES.md is silent; the form is the softmax of bridge programs' play inference, as BEN's and
Pidgin's read the cards): at each earlier decision of another seat, in a consistent deal
``i``, that seat chose among its legal cards in groups of equivalent ones
(:func:`~bideuchre.analysis.explain.card_groups`: the cards between which no card still in
play lies, whose choice says nothing) with probability

    P(group g | deal i) = exp(-beta * loss_g) / sum_h exp(-beta * loss_h),

``loss_g`` the tricks group ``g`` gives up double dummy in deal ``i`` at that moment (0 for
the best; RULES.md §3 values), ``beta`` the model's sharpness per trick (0: no evidence; large:
the seat is taken to play double-dummy perfectly).  A deal's **weight** is multiplied by the
product of these probabilities of the groups actually played, over the last ``history``
cards of the other seats (not the advised seat's own: its hand is known); a card that was the
seat's only group in a deal counts towards ``history`` and weighs 1 there.  The choice within a
group (which of two touching cards) is taken to say nothing: an assumption, as a player's habit
there (the higher first) would say something.  A seat that plays a card giving up a trick in a deal is, under the model,
less likely to hold that deal's cards.

What it assumes: the other seats play close to double-dummy best (each trick given up makes a
choice ``e^beta`` times less likely).  Real single-dummy players give up tricks they cannot see
(a guess between two finesses), so ``beta`` is soft by default (:data:`DEFAULT_BETA`); where a
seat plays far from double dummy the model misleads.

Cost: one exact solve and one ``Solver.values`` per deal and card read, each of a position
earlier (larger) than the one advised: a racehorse match deal of ``pimc+auction+cards``
against ``pimc+auction`` costs 3.6 times the CPU of one of ``pimc+auction`` against ``pimc``.
It does not pay (2,000 racehorse match deals against ``pimc+auction``: −0.003 ± 0.028 points a
deal; benchmarks/RESULTS.md 0.8.6), so it is off by default.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import asdict, dataclass

import numpy as np

from ..rules import RulesError, effective_suit
from ..search.solve import get_solver
from .explain import card_groups
from .sampler import SeatView
from .threads import map_chunks

__all__ = ["PlayModel", "play_model", "play_weights", "past_decisions", "DEFAULT_BETA",
           "DEFAULT_HISTORY", "MAX_HISTORY"]

#: Sharpness per trick given up (each trick given up makes a choice e^beta times less likely).
DEFAULT_BETA = 4.0

#: The other seats' decisions read, the most recent first.
DEFAULT_HISTORY = 6

#: And at most (each costs a PIMC card evaluation per deal).
MAX_HISTORY = 24


@dataclass(frozen=True)
class PlayModel:
    """The play model's settings: ``beta`` (sharpness per trick, > 0) and ``history`` (the
    other seats' most recent cards read, 1 to :data:`MAX_HISTORY`); see the module docstring.
    Build it with :func:`play_model`, which checks them."""

    beta: float = DEFAULT_BETA
    history: int = DEFAULT_HISTORY

    def to_json(self) -> dict:
        return asdict(self)


def play_model(beta=None, history=None) -> PlayModel:
    """A checked :class:`PlayModel` (None: the defaults).  Raises RulesError (one line naming
    the option) for ``beta`` not a positive number up to 20 or ``history`` not 1 to
    :data:`MAX_HISTORY`."""
    b = DEFAULT_BETA if beta is None else beta
    h = DEFAULT_HISTORY if history is None else history
    try:
        bf = float(b) if isinstance(b, numbers.Real) and not isinstance(b, bool) else None
    except OverflowError:
        bf = None
    if bf is None or not math.isfinite(bf) or not 0 < bf <= 20:
        raise RulesError(f"--beta {b!r}: the play model's sharpness must be above 0 and at most 20 "
                         "(per trick given up)")
    if isinstance(h, bool) or not isinstance(h, numbers.Integral) or not 1 <= h <= MAX_HISTORY:
        raise RulesError(f"--history {h!r}: the play model reads 1 to {MAX_HISTORY} earlier cards")
    return PlayModel(bf, int(h))


def past_decisions(view: SeatView, history: int) -> list[tuple[int, int, int, list[int], np.ndarray]]:
    """The other seats' decisions read: up to ``history`` of the most recent cards played by a
    seat other than the advised one, each ``(seat, card, trick leader, trick cards before it,
    later)``, ``later`` a 4 × 24 uint8 array of the cards played from that card on (a
    consistent deal's remaining cards plus ``later`` are the hands at that moment)."""
    steps = view.steps()
    later = np.zeros((4, 24), dtype=np.uint8)
    out = []
    for seat, card, lead, tr in reversed(steps):
        later[seat, card] += 1
        if seat != int(view.seat) and len(out) < history:
            out.append((seat, card, lead, tr, later.copy()))
    return out


def _chunk(counts: np.ndarray, view: SeatView, decisions: list, beta: float) -> np.ndarray:
    """log-likelihood of ``decisions`` in each deal of ``counts`` (``(k, 4, 24)`` remaining)."""
    solver = get_solver(view.deck)
    st = int(view.strain)
    suit = np.array([int(effective_suit(c, st)) for c in range(24)])
    out_seat = -1 if view.out is None else int(view.out)
    ll = np.zeros(counts.shape[0])
    for seat, card, lead, tr, later in decisions:
        hands = counts + later[None]                      # (k, 4, 24) the hands at the decision
        others = [s for s in range(4) if s != seat and s != out_seat]
        elsewhere = hands[:, others].sum(axis=1) > 0      # (k, 24) cards in play in other hands
        if tr:
            elsewhere[:, tr] = True
        held = hands[:, seat] > 0
        guess = -1
        if tr:                                            # follow the led suit if able
            follow = held & (suit == suit[tr[0]])[None]
            held = np.where(follow.any(axis=1)[:, None], follow, held)
        for i in range(counts.shape[0]):
            legal = np.flatnonzero(held[i])
            if len(legal) < 2:
                continue
            groups = card_groups(legal.tolist(), np.flatnonzero(elsewhere[i]).tolist(), st)
            if len(groups) < 2:
                continue
            mine = next(g for g, cs in enumerate(groups) if card in cs)
            c = np.ascontiguousarray(hands[i])
            rest = guess = solver.solve(c, st, lead, out_seat, tr, guess)     # the last deal's value: a window hint
            v = np.asarray(solver.values(c, st, lead, out_seat, tr, [g[0] for g in groups], rest, True),
                           dtype=np.float64)
            gain = v if seat % 2 == 0 else -v           # the seat's side's tricks
            z = -beta * (gain.max() - gain)
            ll[i] += z[mine] - (z.max() + math.log(np.exp(z - z.max()).sum()))
    return ll


def play_weights(view: SeatView, counts: np.ndarray, model: PlayModel, workers: int = 1) -> tuple[np.ndarray, int]:
    """The play model's factor for each consistent deal ``counts`` (``(k, 4, 24)`` remaining
    cards): ``(factors (k,) float64 in [0, 1], cards read)``, the probabilities of the
    other seats' recent choices in each deal (module docstring), scaled so the largest is 1
    (only ratios matter; a deal far less likely than the likeliest may underflow to 0).
    ``workers`` threads (:func:`~bideuchre.analysis.threads.map_chunks`); the result does not
    depend on them."""
    decisions = past_decisions(view, model.history)
    k = counts.shape[0]
    if not decisions or k == 0:
        return np.ones(k), len(decisions)
    ll = np.concatenate(map_chunks(lambda c: _chunk(c, view, decisions, model.beta), counts, workers))
    return np.exp(ll - ll.max()), len(decisions)
