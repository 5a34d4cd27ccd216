"""Single-dummy play: what to lead and what to play from one seat's view, and a review that
tells bad luck from bad play.

:func:`play_advice` answers "what do I play now?" for the player to move, who sees their own
hand, the cards played and any card shown (:class:`~bideuchre.analysis.sampler.SeatView`).
The unseen cards are dealt to the other seats consistently with that view; each consistent
deal is solved double dummy (RULES.md §3) for every legal card of the player; the results are
averaged over the deals:

- **exact** when the consistent deals number at most ``exact_limit``: every one of them,
  weighted as the shuffle makes them likely (standard errors 0);
- otherwise **sampled**: ``samples`` deals, deal ``i`` drawn from ``(seed, i)`` alone
  (:func:`bideuchre.analysis.advice.sample_rng`), so the answer does not depend on
  ``workers``.

Per deal, one exact solve of the position and one call of the core's ``Solver.values`` (a
null-window check of each card at that value, an exact count only for a card that loses)
score every legal card; equivalent cards (touching in the player's hand with respect to every
card not yet seen played, identical copies) are scored once and shown as one choice, as in
``explain``.  For each card: the expected whole-hand tricks of the player's side and their
standard error, the probability that the declaring side makes its bid, and the expected hand
result under the preset's scoring (the player's side's points minus the other side's,
:func:`bideuchre.analysis.auction.hand_result`, RULES.md §1 "Scoring" and §2).  The
recommendation maximises ``objective``: ``"tricks"``, ``"make"`` (the player's side's chance:
of making when declaring, of setting when defending) or ``"score"``; ties go to the better
expected result, then to more tricks, then to the card shown first.

The double-dummy value of each sampled deal lets every later card be played with the hands
open: this is the usual single-dummy model of bridge programs (it overrates the side to play
later in the hand a little, as every player is assumed to see the rest of the deal after this
card).

:func:`review_record` replays a recorded hand from the view of each player at each card: the
card's expected tricks against the best single-dummy card (``loss``).  A card that lost tricks
double dummy but was a best single-dummy choice (or within sampling noise of one) was
**unlucky**; a card that gave up expected tricks single dummy (beyond the noise: more than
twice the standard error of the paired difference, any loss when exact) was a **mistake**.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np

from ..notation import Deal, format_hand
from ..rules import (
    Card, DeckForm, Preset, RulesError, Seat, Side, get_deck, get_preset, parse_seat,
    parse_strain,
)
from ..search.solve import first_leader, get_solver
from .advice import default_workers
from .auction import Bid, hand_result, parse_bid
from .explain import PlayAnalysis, card_groups
from .lone import lone_leader
from .alphamu import DEFAULT_AM_EXACT_LIMIT, DEFAULT_DEPTH, MAX_DEPTH, alphamu_fronts, default_alphamu_worlds
from .sampler import SeatView, view_groups
from .threads import map_chunks

__all__ = ["CardAdvice", "PlayAdvice", "play_advice", "advise_view", "default_play_samples",
           "DEFAULT_EXACT_LIMIT", "max_play_deals", "check_play_deals", "OBJECTIVES", "SDStep", "SDReview", "review_record",
           "review_play", "make_bid", "METHODS", "advise_method", "advice_from", "measures", "consistent_deals",
           "view_groups", "alphamu_view", "DEFAULT_LATE", "weighted_deals"]

DEFAULT_EXACT_LIMIT = 20_000
OBJECTIVES = ("tricks", "make", "score")
METHODS = ("pimc", "alphamu", "hybrid")
DEFAULT_LATE = 3        # hybrid: αμ over every remaining card once the seat holds at most this many
MAX_LATE = MAX_DEPTH    # and no more: αμ over six cards and six worlds ran for minutes


def default_play_samples(deck: str | DeckForm) -> int:
    """Deals :func:`play_advice` samples unless told: 1,000 for single24, 500 for double32, 200
    for double40 and 100 for double48 -- fewer as a deal's DD solve costs more, so an answer
    takes about as long on every deck form (the figures: benchmarks/RESULTS.md)."""
    n = get_deck(deck).hand
    return 1000 if n <= 6 else 500 if n <= 8 else 200 if n <= 10 else 100


def max_play_deals(deck: str | DeckForm) -> int:
    """The most deals one single-dummy advice evaluates, sampled (``samples``) or every
    consistent deal (``exact_limit``), by the deck form's hand size: 100,000 for single24 (as
    ``bid``'s limit), 40,000 for double32, 20,000 for double40 and double48 (the default
    ``exact_limit``: a deal there takes ~0.1 s on one core).  Memory stays bounded: about
    0.2 kB a deal (its cards and each choice's tricks)."""
    n = get_deck(deck).hand
    return 100_000 if n <= 6 else 40_000 if n <= 8 else DEFAULT_EXACT_LIMIT


def check_play_deals(deck: str | DeckForm, samples: int | None, exact_limit: int) -> None:
    """Refuse ``samples`` (None: the default) outside 1 … :func:`max_play_deals` and
    ``exact_limit`` outside 0 … that cap, before any work (RulesError, one line naming the
    option, as the command line spells it)."""
    deck = get_deck(deck)
    cap = max_play_deals(deck)
    for value, what, low in ((samples, "--samples", 1), (exact_limit, "--exact-limit", 0)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise RulesError(f"{what} must be a whole number, got {value!r}")
        if not low <= value <= cap:
            raise RulesError(f"{what} {value:,}: must be {low} to {cap:,} on {deck.name} (the most "
                             "deals one single-dummy advice evaluates)")


# ---------------------------------------------------------------------------------------------
# Results

@dataclass
class CardAdvice:
    """One choice of the player to move, over the consistent deals.

    ``card`` (the card shown, highest of its group) and ``equivalent`` (the rest of the group);
    ``tricks``: expected whole-hand tricks of the player's side (tricks already won included);
    ``se``: its standard error (0 when exact); ``p_make``: probability the declaring side makes
    its bid (None without a bid); ``ev``: expected hand result in points, the player's side's
    minus the other side's (None without a bid), ``ev_se`` its standard error; ``se_vs_best``:
    standard error of the difference to the recommended card in the objective's measure (the
    deals are shared, so differences are surer than the values); ``close``: not the
    recommended card but within two of those standard errors of it (too close to call; never
    when exact)."""

    card: Card
    equivalent: tuple[Card, ...]
    tricks: float
    se: float
    p_make: float | None
    ev: float | None
    ev_se: float | None = None
    se_vs_best: float = 0.0
    close: bool = False

    @property
    def cards(self) -> tuple[Card, ...]:
        return (self.card,) + self.equivalent

    def to_json(self) -> dict:
        r = lambda x: None if x is None else round(float(x), 4)  # noqa: E731
        return {"card": str(self.card), "tricks": r(self.tricks), "se": r(self.se),
                "p_make": r(self.p_make), "ev": r(self.ev), "ev_se": r(self.ev_se),
                "se_vs_best": r(self.se_vs_best), "close": self.close,
                "equivalent": [str(c) for c in self.equivalent]}


@dataclass
class PlayAdvice:
    """Single-dummy advice for the player to move (module docstring).

    ``view``: the :class:`SeatView`; ``preset``; ``declarer``/``bid`` (None: no contract
    given, then no ``p_make`` or ``ev``); ``exact``: every consistent deal was evaluated;
    ``deals``: deals evaluated; ``consistent``: distinct consistent deals; ``seed``;
    ``objective``; ``cards``: one :class:`CardAdvice` per group, best first for the objective;
    ``recommend``: the first of them.  ``tricks`` is ``(deals, groups)``: per deal and group
    (in ``cards`` order) the player's side's tricks; ``weights`` the deals' weights;
    ``method`` (``"pimc"``, ``"alphamu"`` or ``"hybrid"``) and ``depth`` (the seat's cards
    chosen jointly: 1 for pimc); ``stage``: with ``"hybrid"``, the method it ran here
    (``"pimc"`` before the endgame, ``"alphamu"`` in it), else None; ``auction`` and ``evidence``: the auction read as evidence
    (:class:`~bideuchre.analysis.play_auction.PlayAuction`) and how it weighed on the deals
    (:class:`~bideuchre.analysis.advice.evidence.Evidence`), or None; ``play_model``: with the
    play model (:mod:`bideuchre.analysis.play_model`) its ``beta``, ``history``, the
    ``decisions`` it read and the deals' effective size ``n_eff`` after it, or None.
    """

    view: SeatView
    preset: Preset
    declarer: Seat | None
    bid: Bid | None
    exact: bool
    deals: int
    consistent: int
    seed: int
    objective: str
    cards: list[CardAdvice]
    tricks: np.ndarray = field(repr=False)
    weights: np.ndarray = field(repr=False)
    method: str = "pimc"
    depth: int = 1
    stage: str | None = None        # hybrid: "pimc" or "alphamu", the method run here
    auction: object = None          # the PlayAuction read as evidence, or None
    evidence: object = None         # its Evidence (n_eff, per-seat lines, warning), or None
    play_model: dict | None = None  # the play model read: beta, history, decisions, n_eff

    @property
    def recommend(self) -> CardAdvice:
        return self.cards[0]

    @property
    def too_close(self) -> bool:
        """Whether another card is within sampling noise of the recommended one."""
        return any(c.close for c in self.cards[1:])

    def to_json(self) -> dict:
        v = self.view
        obj = {"seat": v.seat.name, "exact": self.exact, "deals": self.deals,
               "consistent_deals": self.consistent, "seed": self.seed,
               "objective": self.objective, "method": self.method, "depth": self.depth,
               **({} if self.stage is None else {"stage": self.stage}),
               "recommend": str(self.recommend.card),
               "too_close": self.too_close,
               "cards": [c.to_json() for c in self.cards],
               "preset": self.preset.name, "deck": v.deck.name, "strain": v.strain.name,
               "leader": v.first_leader.name, "played": [str(c) for c in v.played],
               "to_move": v.seat.name, "trick": [str(c) for _, c in v.trick],
               "won": {"NS": v.won[Side.NS], "EW": v.won[Side.EW]},
               "voids": {s.name: "".join("SHDC"[u] for u in sorted(v.voids[s]))
                         for s in Seat if v.voids[s]}}
        if v.known:     # echoed as bid's are
            obj["known"] = {s.name: format_hand(cs) for s, cs in v.known.items()}
        if self.declarer is not None:
            obj["declarer"] = self.declarer.name
        if self.bid is not None:
            obj["bid"] = str(self.bid)
        if v.lone is not None:
            obj["lone"] = v.lone.name
        if self.auction is not None:
            obj["auction"] = {"dealer": self.auction.dealer.name, "calls": self.auction.text(),
                              "epsilon": self.auction.epsilon}
            obj["evidence"] = self.evidence.to_json()
        if self.play_model is not None:
            obj["play_model"] = self.play_model
        return obj


# ---------------------------------------------------------------------------------------------
# Evaluation

def _card_tricks_chunk(counts: np.ndarray, deck: DeckForm, strain: int, leader: int, out: int,
                       trick: list, reps: list) -> np.ndarray:
    """NS tricks of the rest (the current trick included) after each of ``reps`` on each deal
    of ``counts`` (``(k, 4, 24)``): one exact solve, then ``Solver.values``."""
    solver = get_solver(deck)
    res = np.empty((counts.shape[0], len(reps)), dtype=np.int16)
    guess = -1
    for i in range(counts.shape[0]):
        c = counts[i]
        rest = solver.solve(c, strain, leader, out, trick, guess)
        res[i] = solver.values(c, strain, leader, out, trick, reps, rest, True)
        guess = rest
    return res


def _solve_all(counts: np.ndarray, view: SeatView, reps: list, workers: int) -> np.ndarray:
    """``_card_tricks_chunk`` over all deals, in chunks on ``workers`` threads (the core
    releases the GIL); the result is in deal order whatever the number of workers."""
    args = (view.deck, int(view.strain), int(view.trick_leader),
            -1 if view.out is None else int(view.out), [int(c) for _, c in view.trick], reps)
    parts = map_chunks(lambda c: _card_tricks_chunk(c, *args), counts, workers)
    return np.concatenate(parts) if parts else np.empty((0, len(reps)), dtype=np.int16)


def _mean_se(x: np.ndarray, w: np.ndarray, exact: bool) -> tuple[float, float]:
    """Weighted mean over the deals (axis 0) and its standard error (0 when exact; with
    unequal weights -- sampled deals weighted by the auction -- the weighted standard error of
    :func:`~bideuchre.analysis.advice.evidence.weighted_mean_se`)."""
    m = (x * w[:, None]).sum(axis=0) / w.sum() if x.ndim == 2 else float((x * w).sum() / w.sum())
    n = x.shape[0]
    if exact or n < 2:
        return m, np.zeros_like(m) if x.ndim == 2 else 0.0
    if np.all(w == w[0]):
        return m, x.std(axis=0, ddof=1) / math.sqrt(n)
    from .advice.evidence import weighted_mean_se
    if x.ndim == 1:
        return m, weighted_mean_se(x, w)[1]
    return m, np.array([weighted_mean_se(x[:, g], w)[1] for g in range(x.shape[1])])


def make_bid(preset: Preset, bid: str | Bid | None, strain, lone) -> Bid | None:
    """The contract's :class:`~bideuchre.analysis.auction.Bid` from its text (``"4"``, ``"12"``,
    ``"alone"``; where the strain is named with the bid, ``"4"`` means ``"4"`` + the strain).
    Raises RulesError for a bid the preset lacks, a lone bid without a lone seat or the
    reverse, or a bid whose strain is not the strain played."""
    if bid is None or isinstance(bid, Bid):
        b = bid
    else:
        text = str(bid).strip()
        if preset.strain_named == "with" and text.isdigit():
            text += parse_strain(strain).name
        b = parse_bid(text, preset)
        if b is None:
            raise RulesError(f"--bid {bid!r}: a pass is not a contract")
    if b is None:
        return None
    if b.strain is not None and b.strain != parse_strain(strain):
        raise RulesError(f"bid {b} names strain {b.strain.name}, but the strain played is {parse_strain(strain).name}")
    if b.lone is not None and lone is None:
        raise RulesError(f"bid {b} is a lone bid: name the lone seat with --lone")
    if b.lone is None and lone is not None:
        raise RulesError(f"--lone needs a lone bid ({' '.join(lb.name for lb in preset.lone_bids) or 'none in this preset'}), not {b}")
    return b


def advise_view(view: SeatView, preset: Preset, declarer: Seat | None = None, bid: Bid | None = None,
                samples: int | None = None, seed: int = 1, exact_limit: int = DEFAULT_EXACT_LIMIT,
                objective: str = "score", workers: int = 1, auction=None, play_model=None) -> PlayAdvice:
    """:func:`play_advice` for a view already built (see there).  ``bid`` None: tricks only.
    ``auction``: a :class:`~bideuchre.analysis.play_auction.PlayAuction` whose calls weight
    the deals (:mod:`bideuchre.analysis.play_auction`), or None (every consistent deal as
    likely as the shuffle makes it); ``play_model``: a
    :class:`~bideuchre.analysis.play_model.PlayModel` whose reading of the other seats'
    cards weights them too (:func:`weighted_deals`), or None."""
    n = default_play_samples(view.deck) if samples is None else samples
    objective, distinct, exact, counts, weights, evidence, read = weighted_deals(
        view, preset, bid, objective, n, seed, exact_limit, auction, play_model, workers)
    groups = view_groups(view)
    reps = [g[0] for g in groups]
    rest = _solve_all(counts, view, reps, workers)
    ns = view.won[Side.NS] + rest.astype(np.int64)              # (D, G) NS whole-hand tricks
    mine = ns if view.seat % 2 == 0 else view.deck.hand - ns
    adv = advice_from(view, preset, declarer, bid, objective, groups, mine, weights, exact,
                      distinct, seed)
    adv.auction, adv.evidence, adv.play_model = auction, evidence, read
    return adv


def weighted_deals(view: SeatView, preset: Preset, bid: Bid | None, objective: str, samples: int,
                   seed: int, exact_limit: int, auction=None, play_model=None, workers: int = 1):
    """The deals a method evaluates and their weights, the evidence read:
    :func:`consistent_deals`, then with ``auction`` the calls' weights
    (:func:`~bideuchre.analysis.play_auction.auction_deals`) and with ``play_model`` (a
    :class:`~bideuchre.analysis.play_model.PlayModel`) the cards' (its
    :func:`~bideuchre.analysis.play_model.play_weights` on ``workers`` threads).  Returns
    ``(objective, distinct, exact, counts, weights, evidence, read)``: ``evidence`` the
    auction's :class:`~bideuchre.analysis.advice.evidence.Evidence` or None, ``read`` the
    play model's settings with ``decisions`` read and the deals' ``n_eff`` after it (a dict)
    or None."""
    objective, distinct, exact, counts, weights = consistent_deals(
        view, bid, objective, samples, seed, exact_limit, draw=auction is None)
    evidence = read = None
    if auction is not None:
        from .play_auction import auction_deals
        counts, weights, evidence = auction_deals(view, auction, preset, exact, counts, weights, samples, seed)
    if play_model is not None:
        from .advice.evidence import n_eff
        from .play_model import play_weights
        factor, decisions = play_weights(view, counts, play_model, workers)
        weights = weights.astype(np.float64) * factor
        read = {**play_model.to_json(), "decisions": decisions, "n_eff": round(float(n_eff(weights)), 1)}
    return objective, distinct, exact, counts, weights, evidence, read


def consistent_deals(view: SeatView, bid: Bid | None, objective: str, samples: int, seed: int,
                     exact_limit: int, draw: bool = True) -> tuple[str, int, bool, np.ndarray, np.ndarray]:
    """The deals a method evaluates: ``(objective, distinct, exact, counts, weights)`` --
    the objective (``"tricks"`` without a bid), the number of consistent deals, whether they
    are all enumerated (at most ``exact_limit``), their ``(D, 4, 24)`` counts and ``(D,)``
    weights (else ``samples`` deals of ``seed``, weight 1; with ``draw`` False, None and None:
    the caller draws them).  Raises RulesError for an unknown objective or ``samples`` below 1."""
    if objective not in OBJECTIVES:
        raise RulesError(f"unknown objective {objective!r} (expected one of: {' '.join(OBJECTIVES)})")
    if bid is None:
        objective = "tricks"
    check_play_deals(view.deck, samples, exact_limit)
    distinct, _ = view.count()
    exact = distinct <= exact_limit
    if exact:
        counts, weights = view.enumerate()
    elif draw:
        counts = view.samples(seed, samples)
        weights = np.ones(samples, dtype=np.int64)
    else:
        counts = weights = None
    return objective, distinct, exact, counts, weights




def measures(preset: Preset, view: SeatView, declarer: Seat | None, bid: Bid | None,
             mine: np.ndarray) -> dict:
    """The objective measures of whole-hand tricks ``mine`` (any shape: the tricks of the
    advised seat's side): ``{"tricks", "make", "score"}`` float arrays of the same shape (the
    chance to make when declaring, to set when defending; points of the seat's side minus the
    other side's, :func:`~bideuchre.analysis.auction.hand_result`), and ``"made"``: whether the
    declaring side makes ``bid``.  Without a bid only ``"tricks"``."""
    out = {"tricks": mine.astype(np.float64)}
    if bid is None:
        return out
    n = view.deck.hand
    dside = mine if declarer % 2 == view.seat % 2 else n - mine
    made = dside >= bid.needs(n)
    diff = np.array([hand_result(preset, bid, t)[0] - hand_result(preset, bid, t)[1]
                     for t in range(n + 1)], dtype=np.float64)
    sign = 1.0 if declarer % 2 == view.seat % 2 else -1.0
    out["score"] = sign * diff[dside]
    out["make"] = (made if sign > 0 else ~made).astype(np.float64)
    out["made"] = made.astype(np.float64)
    return out


def advice_from(view: SeatView, preset: Preset, declarer: Seat | None, bid: Bid | None,
                objective: str, groups: list, mine: np.ndarray, weights: np.ndarray,
                exact: bool, distinct: int, seed: int) -> PlayAdvice:
    """The :class:`PlayAdvice` of per-deal results: ``mine`` ``(D, G)`` the advised seat's
    side's whole-hand tricks per deal and group (``groups`` order), ``weights`` ``(D,)``."""
    w = weights.astype(np.float64)
    t_mean, t_se = _mean_se(mine.astype(np.float64), w, exact)
    ms = measures(preset, view, declarer, bid, mine)
    p_make = ev = ev_se = None
    if bid is not None:
        p_make, _ = _mean_se(ms["made"], w, exact)
        ev, ev_se = _mean_se(ms["score"], w, exact)
    measure = ms[objective]
    obj_mean = (measure * w[:, None]).sum(axis=0) / w.sum()
    key = lambda g: (-round(obj_mean[g], 9), -round(ev[g], 9) if ev is not None else 0,  # noqa: E731
                     -round(t_mean[g], 9), g)
    order = sorted(range(len(groups)), key=key)
    best = order[0]
    cards = []
    for g in order:
        se_vs = float(_mean_se(measure[:, g] - measure[:, best], w, exact)[1])
        gap = float(obj_mean[best] - obj_mean[g])
        close = g != best and not exact and gap <= 2 * se_vs
        cards.append(CardAdvice(Card(groups[g][0]), tuple(Card(c) for c in groups[g][1:]),
                                float(t_mean[g]), float(t_se[g]),
                                None if p_make is None else float(p_make[g]),
                                None if ev is None else float(ev[g]),
                                None if ev_se is None else float(ev_se[g]), se_vs, close))
    return PlayAdvice(view, preset, declarer, bid, exact, int(mine.shape[0]), distinct, seed,
                      objective, cards, mine[:, order], weights)


def play_advice(hand, seat: int | str, strain: int | str, leader: int | str | None = None,
                declarer: int | str | None = None, bid: str | Bid | None = None,
                preset: Preset | str = "standard", played: Iterable = (),
                lone: int | str | None = None, known: dict | None = None,
                samples: int | None = None, seed: int = 1,
                exact_limit: int | None = None, objective: str = "score",
                workers: int | None = None, dealer: int | str | None = None,
                deck: str | DeckForm | None = None, method: str = "pimc",
                depth: int | None = None, auction=None, policy=None,
                epsilon: float | None = None, late: int | None = None,
                play_model=None) -> PlayAdvice:
    """Advice for ``seat`` to play now, from its view alone (module docstring).

    ``hand``: the seat's cards as dealt (hand text or tokens); ``strain``; ``leader``: the seat
    that led the first trick (default: the preset's rule, RULES.md §2 — the declarer, the lone
    player, or in ``standard`` left of ``dealer``); ``declarer`` and ``bid`` (text such as
    ``"4"``, ``"12"``, ``"alone"``): the contract (the declarer defaults to the lone seat; with
    no bid only tricks are reported); ``played``: every card so far in play order from the
    first lead (may stop mid-trick; it must then be ``seat``'s turn); ``lone``: the lone seat;
    ``known``: ``{seat: cards}`` other seats are known to hold (cards shown); ``samples`` and
    ``seed``: the sampling (default :func:`default_play_samples`); ``exact_limit``: evaluate
    every consistent deal when there are at most this many (default: the method's; each at
    most :func:`max_play_deals` of the deck form, else RulesError); ``objective``: ``"tricks"``,
    ``"make"`` or ``"score"``; ``workers``: threads (default every core; results do not
    depend on it); ``deck``: a deck form other than the preset's (double48's double40
    option); ``method``: ``"pimc"`` (the module docstring) or ``"alphamu"``
    (:mod:`bideuchre.analysis.alphamu`: one strategy over the worlds, ``depth`` of the
    seat's cards chosen jointly; there ``samples`` are its worlds and ``exact_limit``
    defaults to its own, and it runs on one thread) or ``"hybrid"`` (pimc, but alphamu over
    every card the seat holds where it holds at most ``late``, default :data:`DEFAULT_LATE`,
    and the consistent deals are at most 64, all of them searched: :func:`advise_method`).
    ``auction``: the whole auction (text
    ``"pass 4 pass pass"`` or calls, from the left of ``dealer``, which it then needs) read as
    evidence: the deals weighted by the bidding ``policy``'s probability of every call but the
    seat's own (default the bidding model; ``epsilon`` the noise floor, default
    :data:`~bideuchre.analysis.advice.evidence.EPSILON`), :mod:`bideuchre.analysis.play_auction`;
    its contract gives ``declarer`` and ``bid`` where they are not named (with ``alphamu`` the
    weights are the worlds').  ``play_model``: a
    :class:`~bideuchre.analysis.play_model.PlayModel` (:func:`~bideuchre.analysis.play_model.play_model`)
    reading the other seats' cards played as evidence too (:mod:`bideuchre.analysis.play_model`), or None.

    Returns a :class:`PlayAdvice`.  Raises NotationError / IllegalPlayError / RulesError (under
    :class:`~bideuchre.rules.BidEuchreError`) for bad input: see :class:`SeatView` and
    :func:`make_bid`.
    """
    p = get_preset(preset)
    if deck is not None and get_deck(deck) != p.deck:
        p = p.on_deck(deck)
    check_play_deals(p.deck, samples, exact_limit)
    st = p.check_strain(parse_strain(strain))
    lone_seat = None if lone is None else parse_seat(lone)
    if lone_seat is not None and not p.lone_bids:
        raise RulesError(f"preset {p.name!r} has no lone hands (RULES.md §2)")
    decl = parse_seat(declarer) if declarer is not None else lone_seat
    if lone_seat is not None and decl != lone_seat:
        raise RulesError(f"the declarer ({decl.name}) of a lone hand is the lone seat ({lone_seat.name})")
    b = make_bid(p, bid, st, lone_seat)
    pa = None
    if auction is not None:
        from .advice.evidence import EPSILON
        from .play_auction import play_auction
        pa = play_auction(p, auction, dealer, decl, b, policy, EPSILON if epsilon is None else epsilon)
        decl = pa.declarer if decl is None else decl
        if b is None:       # the auction's contract, checked as a --bid is
            b = make_bid(p, pa.bid, st, lone_seat)
    if b is not None and decl is None:
        raise RulesError("a bid needs its declarer (--declarer)")
    if leader is None:
        if decl is None:
            raise RulesError("name the first leader (--leader) or the declarer")
        if p.first_lead == "left_of_dealer" and dealer is None:
            raise RulesError(f"preset {p.name}: the first lead is left of the dealer; give --dealer or --leader")
        dl = decl if dealer is None else parse_seat(dealer)
        leader = lone_leader(p, lone_seat, dl) if lone_seat is not None else first_leader(p, decl, dl)
    view = SeatView(p.deck, seat, hand, st, leader, played, lone_seat, known)
    return advise_method(view, p, decl, b, method, samples, seed, exact_limit, objective,
                         workers, depth, pa, late, play_model)


def advise_method(view: SeatView, preset: Preset, declarer: Seat | None, bid: Bid | None,
                  method: str = "pimc", samples: int | None = None, seed: int = 1,
                  exact_limit: int | None = None, objective: str = "score",
                  workers: int | None = None, depth: int | None = None, auction=None,
                  late: int | None = None, play_model=None) -> PlayAdvice:
    """:func:`advise_view` (``method`` ``"pimc"``) or
    :func:`alphamu_view` (``"alphamu"``) for a view already built, or ``"hybrid"``: PIMC,
    except where the seat to move holds at most ``late`` cards (default :data:`DEFAULT_LATE`)
    and the consistent deals are at most αμ's exact limit (:data:`DEFAULT_AM_EXACT_LIMIT`):
    there αμ over every one of them with every card the seat holds chosen jointly (``depth`` =
    its cards: an exact information-set search for the seat, the other seats assumed as αμ
    assumes them, :mod:`bideuchre.analysis.alphamu`).  ``samples`` and ``exact_limit`` are the
    PIMC stage's; ``late`` must be 1 to :data:`MAX_LATE` (3: αμ over a whole six-card hand,
    even over six worlds, ran for minutes).  αμ over a *sample* of the
    worlds was worse than PIMC over all of them (its sampling error outweighs the strategy
    fusion it avoids: 532 racehorse match deals, -0.086 ± 0.034 points a deal against
    pimc+auction), so it runs only where it sees what PIMC sees; its search grows with the
    worlds and the cards left, so that is also where it is cheap (a match deal of
    hybrid+auction against pimc: 1.2 times the CPU of pimc+auction against pimc;
    benchmarks/RESULTS.md 0.8.5).
    ``exact_limit`` and ``depth`` None: the method's defaults; ``workers`` None: every core;
    ``auction``: a :class:`~bideuchre.analysis.play_auction.PlayAuction` (its weights are
    the worlds' for ``alphamu``, the deals' for ``pimc``); ``play_model``: a
    :class:`~bideuchre.analysis.play_model.PlayModel` that weights them by the cards played
    too (:func:`weighted_deals`).  Raises RulesError for an unknown
    method, ``depth`` with ``pimc`` other than 1, ``depth`` with ``hybrid``, or ``late``
    without ``hybrid`` or outside 1 to :data:`MAX_LATE`."""
    if method not in METHODS:
        raise RulesError(f"unknown --method {method!r} (expected one of: {' '.join(METHODS)})")
    if method == "hybrid":
        if depth is not None:
            raise RulesError(f"--depth {depth}: hybrid chooses every remaining card jointly "
                             "in the endgame (--late sets where it starts)")
        held = DEFAULT_LATE if late is None else late
        if not 1 <= held <= MAX_LATE:
            raise RulesError(f"--late must be 1 to {MAX_LATE} (the joint search grows "
                             f"exponentially with the cards held), got {held}")
        worlds = view.count()[0] if view.left <= held else None     # counted only in the endgame
        stage = "alphamu" if worlds is not None and worlds <= DEFAULT_AM_EXACT_LIMIT else "pimc"
        if stage == "pimc":
            adv = advise_method(view, preset, declarer, bid, "pimc", samples, seed, exact_limit,
                                objective, workers, None, auction, play_model=play_model)
        else:                   # every consistent world, as PIMC would take them here
            adv = advise_method(view, preset, declarer, bid, "alphamu", worlds, seed, worlds,
                                objective, workers, view.left, auction, play_model=play_model)
        adv.method, adv.stage = "hybrid", stage
        return adv
    if late is not None:
        raise RulesError("--late goes with --method hybrid")
    if method == "pimc":
        if depth not in (None, 1):
            raise RulesError(f"--depth {depth}: pimc scores each card double dummy (depth 1); "
                             "use --method alphamu")
        return advise_view(view, preset, declarer, bid, samples, seed,
                           DEFAULT_EXACT_LIMIT if exact_limit is None else exact_limit, objective,
                           default_workers() if workers is None else workers, auction, play_model)
    return alphamu_view(view, preset, declarer, bid, samples, seed,
                        DEFAULT_AM_EXACT_LIMIT if exact_limit is None else exact_limit, objective,
                        DEFAULT_DEPTH if depth is None else depth, auction, play_model)


# ---------------------------------------------------------------------------------------------
# Review of a played hand

@dataclass
class SDStep:
    """The single-dummy judgement of one card of a played hand.

    ``index`` (0-based in the play), ``seat``, ``card``; ``best``: every card of the groups
    with the most expected tricks from the player's view; ``loss``: expected tricks given up
    against them (0 for a best card), ``se``: standard error of that paired difference;
    ``exact`` and ``deals`` as in :class:`PlayAdvice` (``deals`` 0 when only one choice was
    legal); ``dd_cost``: the tricks the card lost double dummy (from the DD analysis);
    ``verdict``: ``"mistake"`` (expected tricks lost beyond the noise), ``"unlucky"`` (tricks
    lost double dummy but not single dummy), or None."""

    index: int
    seat: Seat
    card: Card
    best: list[Card]
    loss: float
    se: float
    exact: bool
    deals: int
    dd_cost: int
    verdict: str | None

    def to_json(self) -> dict:
        return {"best": [str(c) for c in self.best], "loss": round(self.loss, 4),
                "se": round(self.se, 4), "exact": self.exact, "deals": self.deals,
                "verdict": self.verdict}


@dataclass
class SDReview:
    """The single-dummy review of a played hand: one :class:`SDStep` per card (aligned with
    the DD analysis's steps), and per seat (every active seat) the count of mistakes, the
    expected tricks they gave up (``sd_lost``: the sum of the losses of every card of the
    seat), the count of unlucky cards and the DD tricks those lost (``unlucky_tricks``)."""

    steps: list[SDStep]
    seed: int
    samples: int
    summary: dict

    def to_json(self) -> dict:
        return {"seed": self.seed, "samples": self.samples,
                "summary": {s.name: v for s, v in self.summary.items()}}


def review_play(deal: Deal, strain, leader, played: Sequence, analysis: PlayAnalysis,
                preset: Preset | str = "standard", lone=None, samples: int | None = None,
                seed: int = 1, exact_limit: int = DEFAULT_EXACT_LIMIT,
                workers: int | None = None, auction=None) -> SDReview:
    """Judge every card of a played hand single dummy (module docstring).

    ``deal``: the hands as dealt; ``strain``, ``leader`` (first), ``played`` (Cards in order),
    ``lone``; ``analysis``: the hand's :func:`~bideuchre.analysis.explain.analyse_play` (its
    DD costs decide "unlucky").  For the card at index i, the player's view is their own hand
    as dealt and the cards before it; the measure is expected tricks (objective ``tricks``).
    ``workers``: threads (default every core); ``auction``: a
    :class:`~bideuchre.analysis.play_auction.PlayAuction` whose calls weight each player's
    deals (``play --auction``), or None.  Returns an :class:`SDReview`.
    """
    if workers is None:
        workers = default_workers()
    p = get_preset(preset)
    if deal.deck != p.deck:
        p = p.on_deck(deal.deck)
    check_play_deals(deal.deck, samples, exact_limit)      # before the first card, not at it
    if samples is None:
        samples = default_play_samples(deal.deck)
    steps = []
    summary = {s: {"mistakes": 0, "sd_lost": 0.0, "unlucky": 0, "unlucky_tricks": 0}
               for s in Seat if lone is None or s != parse_seat(lone).partner}
    for i, card in enumerate(played):
        seat = analysis.steps[i].seat
        view = SeatView(deal.deck, seat, deal.hands[seat], strain, leader, played[:i], lone)
        dd_cost = analysis.steps[i].cost
        legal = view.legal_cards()
        present = [c for c in range(24) for _ in range(int(view.pool[c]))] + [int(c) for _, c in view.trick]
        if len(card_groups([int(c) for c in legal], present, int(view.strain))) == 1:
            steps.append(SDStep(i, seat, Card(card), list(legal), 0.0, 0.0, True, 0, dd_cost,
                                "unlucky" if dd_cost else None))
        else:
            adv = advise_view(view, p, None, None, samples, seed, exact_limit, "tricks", workers,
                              auction)
            g = next(k for k, c in enumerate(adv.cards) if Card(card) in c.cards)
            top = adv.cards[0].tricks
            best = [c for ca in adv.cards if abs(ca.tricks - top) < 1e-9 for c in ca.cards]
            loss = max(0.0, top - adv.cards[g].tricks)
            d = (adv.tricks[:, 0] - adv.tricks[:, g]).astype(np.float64)
            se = float(_mean_se(d, adv.weights.astype(np.float64), adv.exact)[1])
            mistake = loss > 1e-9 and (adv.exact or loss > 2 * se)
            verdict = "mistake" if mistake else ("unlucky" if dd_cost else None)
            steps.append(SDStep(i, seat, Card(card), best, loss, se, adv.exact, adv.deals, dd_cost, verdict))
        st = steps[-1]
        row = summary[seat]
        row["sd_lost"] += st.loss
        if st.verdict == "mistake":
            row["mistakes"] += 1
        elif st.verdict == "unlucky":
            row["unlucky"] += 1
            row["unlucky_tricks"] += st.dd_cost
    for row in summary.values():
        row["sd_lost"] = round(row["sd_lost"], 4)
    return SDReview(steps, seed, samples, summary)


def review_record(record, analysis: PlayAnalysis, samples: int | None = None, seed: int = 1,
                  exact_limit: int = DEFAULT_EXACT_LIMIT, workers: int | None = None,
                  preset: Preset | str | None = None, auction=None,
                  epsilon: float | None = None) -> SDReview:
    """:func:`review_play` of a :class:`bideuchre.records.HandRecord` under ``preset`` (default:
    the record's, else ``standard``; the deck form is the record's) with its DD ``analysis``
    (:func:`~bideuchre.analysis.explain.analyse_record`); ``auction``: the hand's whole auction
    (text, from the left of the record's dealer) read as evidence by every player (the model
    policy; ``epsilon`` its noise floor), or None.  Raises RulesError for an auction that is not
    over, reaches another contract than the record's declarer and bid, or names a strain other
    than the one played."""
    p = get_preset(preset or record.preset or "standard")
    if record.deal.deck != p.deck:
        p = p.on_deck(record.deal.deck)
    pa = None
    if auction is not None:
        from .advice.evidence import EPSILON
        from .play_auction import play_auction
        bid = make_bid(p, record.bid, record.strain, record.lone) if record.bid else None
        pa = play_auction(p, auction, record.deal.dealer, record.declarer, bid, None,
                          EPSILON if epsilon is None else epsilon)
        if pa.bid.strain is not None and pa.bid.strain != record.strain:
            raise RulesError(f"auction {pa.text()!r} names strain {pa.bid.strain.name}, but the "
                             f"record plays {record.strain.name}")
    return review_play(record.deal, record.strain, record.leader, list(record.play), analysis,
                       p, record.lone, samples, seed, exact_limit, workers, pa)


def alphamu_view(view: SeatView, preset, declarer=None, bid=None, worlds: int | None = None,
                 seed: int = 1, exact_limit: int = DEFAULT_AM_EXACT_LIMIT, objective: str = "score",
                 depth: int = DEFAULT_DEPTH, auction=None, play_model=None):
    """αμ advice for the seat to move of ``view`` (module docstring), in the shape of
    :func:`~bideuchre.analysis.play.advise_view`: a :class:`~bideuchre.analysis.play.PlayAdvice`
    whose per-deal tricks (``tricks``, ``(deals, groups)``) are, per card, those of its front's
    vector with the best mean under ``objective``.  ``worlds``: deals sampled where the
    consistent deals exceed ``exact_limit`` (default :func:`default_alphamu_worlds`).
    ``auction``: a :class:`~bideuchre.analysis.play_auction.PlayAuction` whose calls weight the
    worlds as they weight :func:`advise_view`'s deals (every consistent world reweighted, or
    ``worlds`` kept by rejection control): the card chosen is the one of the best weighted
    mean.  ``play_model``: the cards played weight the worlds too (:func:`weighted_deals`).
    Raises RulesError for an unknown objective, ``worlds`` or ``depth`` below 1."""
    n = default_alphamu_worlds(view.deck) if worlds is None else worlds
    objective, distinct, exact, counts, weights, evidence, read = weighted_deals(
        view, preset, bid, objective, n, seed, exact_limit, auction, play_model)
    groups, fronts, _ = alphamu_fronts(view, counts, depth)
    w = weights.astype(np.float64)
    cols = []
    for f in fronts:
        a = np.stack(f)                                           # (F, W) tricks
        m = measures(preset, view, declarer, bid, a)[objective]
        tr = a.astype(np.float64) @ w
        score = m @ w
        best = max(range(len(f)), key=lambda k: (round(score[k], 9), round(tr[k], 9)))
        cols.append(a[best])
    mine = np.stack(cols, axis=1).astype(np.int64)
    adv = advice_from(view, preset, declarer, bid, objective, groups, mine, weights, exact,
                        distinct, seed)
    adv.method, adv.depth = "alphamu", min(depth, view.left)     # the cards it can choose
    adv.auction, adv.evidence, adv.play_model = auction, evidence, read
    return adv
