"""Per-deal double-dummy data for bid advice: only what the auction from this point can read,
solved a chunk of deals at a time (on worker threads), kept in index order.

What is solved per deal (:class:`DealPlan`, from the auction so far):

- **Number bids, the advised seat**: the exact DD tricks of every strain (the trick
  histograms of the report; the strain of our bid is chosen by the mean over the deals).
  In ``standard`` one search per strain serves all four seats (the first lead is left of the
  dealer).
- **Number bids, the other seats still to speak**: only the most tricks over the strains, by
  one exact search in the likeliest strain and then null-window (yes/no) searches "one more
  trick?" in the others (:func:`_best_of_strains`).  Where the strain is named after the
  auction that is all a declarer's choice reads.  Where it is named with the bid
  (``double32``, ``double48``) it is also enough, with every value of the auction unchanged:
  the legal bids depend on the level alone, so a bid of level L in a strain with fewer tricks
  leads to the same continuation as the bid of level L in the seat's best strain except where
  it stands, and there its result is no better for the bidder's side (made: fewer tricks
  scored; set: a smaller set; RULES.md §1 "Scoring").  The auction is a two-sided zero-sum
  game with perfect information, whose value is monotone in the leaves: the seat's best
  choice is reached in its best strain, and a model that gives every strain the best
  strain's tricks has the same value at every node (by induction over the speakers).
- **The high bidder** (it does not speak again): its own bid only — the exact tricks in the
  bid's strain when named with it, the best over the strains when named after, lone checks
  only for its lone bid.
- **Seats with no number bid left** (the high bid is a lone bid): no DD search.
- **Lone bids**: "does the lone hand take every trick?" for our seat (every lone bid: the
  report shows them) and for the other seats only for the lone bids still above the high
  bid, after a sound filter in numpy (:func:`lone_possible`).  Our ``double32`` loners, whose
  cards are laid down at bid time, are solved for every laid-down choice worth trying; the
  choice is made over all deals (:meth:`DealData.choose_laid_down`).
- **Exact lone tricks** of a failing lone hand only where they change a result
  (:meth:`DealData.refine`, called by the rating).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Optional, Sequence

import numpy as np

from ...notation import Deal
from ...rules import Preset, Seat, effective_suit, rank_order
from ...search.solve import get_solver, tt_bits_for
from ..auction import Auction, legal_actions
from ..lone import (bid_plan, bid_values, exchange_order, lone_bids, lone_leader, lone_searcher,
                    one_bid_tricks)

__all__ = ["DealPlan", "DealData", "solve_advice_chunk", "suit_tops", "lone_possible"]

# effective suit and rank order (+1) of each card id under each strain: the Python loops of
# the laid-down search read these instead of calling effective_suit / rank_order
_ES = [[int(effective_suit(c, st)) for c in range(24)] for st in range(6)]
_RV = [[rank_order(c, st) + 1 for c in range(24)] for st in range(6)]


def _solver(preset: Preset):
    """This thread's DD search context for the preset's deck form (``get_solver``'s)."""
    return get_solver(preset.deck)


def _best_of_strains(solver, counts: np.ndarray, strains: np.ndarray, seat: int, n: int,
                     order: np.ndarray, guess: int = -1) -> int:
    """The most DD tricks the side of ``seat`` takes with ``seat`` declaring and leading, over
    the strains: one exact search in the likeliest strain (``order[0]``; ``guess``: a first
    guess of its NS tricks for MTD(f), -1 for none), then one null-window search ("one
    more?") per strain and per trick gained.  The order and the guess change only the work,
    never the result (the exact maximum)."""
    def at_least(st: int, t: int) -> bool:
        if seat % 2 == 0:
            return solver.can_take(counts, st, seat, -1, (), t)
        return not solver.can_take(counts, st, seat, -1, (), n - t + 1)

    first = int(strains[order[0]])
    ns = solver.solve(counts, first, seat, -1, (), guess)
    best = ns if seat % 2 == 0 else n - ns
    for k in order[1:]:
        st = int(strains[k])
        while best < n and at_least(st, best + 1):
            best += 1
    return best


def _side_estimate(own: np.ndarray, me: int, seat: int, n: int) -> np.ndarray:
    """An estimate of the tricks of ``seat``'s side declaring in each strain with ``seat``
    leading, from our seat's exact ones ``own`` (``(..., strains)``: our side's tricks with
    our seat leading): ours for our partner, the rest for an opponent.  Only the order of the
    strains and the first guess of :func:`_best_of_strains` read it: with the likeliest best
    strain first the other strains' "one more?" searches fail at once (fewer nodes: the
    figures in benchmarks/RESULTS.md)."""
    return own if seat % 2 == me % 2 else n - own


def suit_tops(counts: np.ndarray, strain: int) -> tuple[np.ndarray, np.ndarray]:
    """Per deal, seat and effective suit under ``strain``: the order (+1) of the seat's top
    card of the suit (0: void) and its number of cards; two ``(S, 4, 4)`` arrays."""
    es = np.array(_ES[strain])
    val = np.array(_RV[strain], dtype=np.int16)
    member = (es[:, None] == np.arange(4)[None, :]).astype(np.int16)
    held = counts > 0
    # the top card of each suit: the largest of held × order over the suit's cards
    top = np.max(np.where(held[..., None], (val[:, None] * member)[None, None], 0), axis=2)
    cnt = counts.astype(np.int16) @ member
    return top.astype(np.int16), cnt


def lone_possible(counts: np.ndarray, preset: Preset, seat: int, strain: int,
                  exchange: bool, tops: tuple | None = None) -> np.ndarray:
    """A sound filter (single deck): False where ``seat`` surely cannot take every trick alone
    in ``strain`` (``exchange``: with the best give-one-then-discard-one exchange).

    A lone hand that holds a card of a suit (effective suit: the left bower is a trump) in
    which an opponent holds a higher card loses a trick: its top card of that suit is beaten
    whenever it is played (RULES.md §1: the lone hand must lead every trick it wins, and a
    card it discards wins nothing).  With one card received and one discarded, at most two
    such suits can be mended: one by discarding a singleton, one by receiving a card above the
    opponents'.  ``counts``: ``(S, 4, 24)``; ``tops``: :func:`suit_tops` if already computed.  Returns a bool array ``(S,)``; all True for a
    double deck (the filter is not used there).
    """
    S = counts.shape[0]
    if preset.deck.copies != 1:
        return np.ones(S, dtype=bool)
    top, cnt = suit_tops(counts, strain) if tops is None else tops
    p, q = seat, (seat + 2) % 4
    T = np.maximum(top[:, (seat + 1) % 4], top[:, (seat + 3) % 4])
    A, P = top[:, p], top[:, q]
    mine, theirs = cnt[:, p], cnt[:, q]
    bad = (mine > 0) & (A < T)
    nb = bad.sum(axis=1)
    if not exchange:
        return nb == 0
    gfix = P > T
    single = mine == 1
    harmless = (theirs > 0) & (gfix | ((mine > 0) & ~bad))
    ok = nb == 0
    one = nb == 1
    for u in range(4):
        others = np.zeros(S, dtype=bool)
        for v in range(4):
            if v != u:
                others |= harmless[:, v]
        ok |= one & bad[:, u] & (gfix[:, u] | (single[:, u] & others))
        for v in range(4):
            if v != u:
                ok |= (nb == 2) & bad[:, u] & bad[:, v] & single[:, u] & gfix[:, v]
    return ok


def lone_possible_bid(counts: np.ndarray, preset: Preset, seat: int, strain: int, lb,
                      leader: int, tops: tuple | None = None) -> np.ndarray:
    """A sound filter for one lone bid ``lb``: False where ``seat`` surely cannot take every
    trick alone in ``strain`` (``leader``: the seat that leads the first trick), ``(S,)`` bool.

    ``standard`` 12 (give-first) and bids without exchange on a single deck:
    :func:`lone_possible`.  Double decks, when the lone hand leads the first trick (the
    bidder leads: ``double32``, ``double48``; else no filter): a suit in which an opponent
    holds a card strictly higher than the lone hand's top card of it loses a trick (the lone
    hand leads every trick it wins, an opponent keeps that card until the suit is led, and of
    identical cards the first played wins, RULES.md §1).  With ``k`` cards laid down and ``k``
    received (discard-first, ``double32`` loners and the ``double48`` option), each such suit
    must be mended by a gift at least as high as the opponents' top (at most k suits) or by
    laying down every card of it (at most k cards in all): where no split of the bad suits
    does both, the bid fails.  ``tops``: :func:`suit_tops` if already computed.
    """
    S = counts.shape[0]
    if preset.deck.copies == 1 and (lb.give == 0 or exchange_order(preset, lb) == "give-first"):
        return lone_possible(counts, preset, seat, strain, lb.give > 0, tops)
    if int(leader) != seat or exchange_order(preset, lb) == "give-first":
        return np.ones(S, dtype=bool)
    top, cnt = suit_tops(counts, strain) if tops is None else tops
    T = np.maximum(top[:, (seat + 1) % 4], top[:, (seat + 3) % 4])
    A, P = top[:, seat], top[:, (seat + 2) % 4]
    mine = cnt[:, seat]
    bad = (mine > 0) & (A < T)
    k = lb.give
    if k == 0:
        return ~bad.any(axis=1)
    gfix = P >= T
    # every split of the bad suits at once: _SUBSETS[g, u] is suit u mended by gifts in split g
    by_gift = bad[:, None, :] & _SUBSETS[None]
    by_discard = bad[:, None, :] & ~_SUBSETS[None]
    fits = ((~by_gift | gfix[:, None, :]).all(axis=2) & (by_gift.sum(axis=2) <= k)
            & (np.where(by_discard, mine[:, None, :], 0).sum(axis=2) <= k))
    return fits.any(axis=1)


#: The 16 subsets of the four suits, ``(16, 4)`` bool (row g: bit u of g).
_SUBSETS = np.array([[(g >> u) & 1 for u in range(4)] for g in range(16)], dtype=bool)


def _cards_of(row: np.ndarray) -> list:
    """The cards of one seat's 24 counts, a card twice when both copies are held."""
    return [c for c in range(24) for _ in range(int(row[c]))]


def _dominant_choices(cards: Sequence[int], strain: int, k: int, highest: bool) -> list:
    """The k-card choices from ``cards`` worth trying when the lowest (``highest`` False: cards
    to lay down) or the highest (cards to give) of each effective suit dominate: a lone hand
    with a higher card of a suit in place of a lower one takes every trick whenever it did.
    Sorted tuples; one per way of spreading k over the suits."""
    es, rv = _ES[strain], _RV[strain]      # effective_suit, rank_order + 1 (same order)
    groups: dict = {}
    for c in cards:
        groups.setdefault(es[c], []).append(c)
    for u in groups:
        groups[u].sort(key=lambda c: rv[c], reverse=highest)
    suits = sorted(groups)
    out: list = []

    def spread(i: int, left: int, acc: list) -> None:
        if left == 0:
            out.append(tuple(sorted(acc)))
            return
        if i == len(suits):
            return
        g = groups[suits[i]]
        for m in range(min(left, len(g)), -1, -1):
            spread(i + 1, left - m, acc + g[:m])

    spread(0, k, [])
    return out


def _no_bad_suit(row: np.ndarray, opp_top: np.ndarray, strain: int) -> bool:
    """The lone hand ``row`` (24 counts) holds no suit in which the opponents hold a higher
    card (strictly: of identical cards the first played wins, and the lone hand leads every
    trick it wins): a necessary condition for taking every trick when the lone hand leads."""
    es, rv = _ES[strain], _RV[strain]
    top = [0, 0, 0, 0]
    for c in np.flatnonzero(row).tolist():
        u, v = es[c], rv[c]
        if v > top[u]:
            top[u] = v
    return all(top[u] == 0 or top[u] >= opp_top[u] for u in range(4))


def _lone_searcher(preset: Preset):
    """This thread's lone search context (bideuchre.analysis.lone's, keyed by deck form)."""
    return lone_searcher(tt_bits_for(preset.deck))


def fixed_tricks(preset: Preset, c: np.ndarray, seat: int, leader: int, lb, strain: int,
                 discard: tuple, exact: bool, tops=None) -> int:
    """Lone tricks of ``seat`` on the deal ``c`` (4 × 24 counts) with ``discard`` laid down and
    the partner's best gift of ``lb.give`` cards.  With ``exact`` False: n if every trick is
    taken, else -1, over the dominance-reduced gifts (the top cards of each suit: sound for
    "every trick?", where the lead never changes hands); with ``exact`` True the tricks, over
    every distinct gift (dominance is not proven for exact counts).  ``tops``: the opponents'
    top card order of each suit (the filter :func:`_no_bad_suit`), when the lone hand leads."""
    n = preset.tricks
    partner = (seat + 2) % 4
    base = c.copy()
    for card in discard:
        base[seat, card] -= 1
    base[partner] = 0
    if exact:
        gifts = sorted(set(itertools.combinations(_cards_of(c[partner]), lb.give)))
    else:
        gifts = _dominant_choices(_cards_of(c[partner]), strain, lb.give, highest=True)
    best = -1
    searcher = _lone_searcher(preset)
    for g in gifts:
        fc = base.copy()
        for card in g:
            fc[seat, card] += 1
        if not exact:
            if tops is not None and not _no_bad_suit(fc[seat], tops, strain):
                continue
            if searcher.plain(fc, strain, leader, seat, True)[1]:
                return n
        else:
            t, a = searcher.plain(fc, strain, leader, seat, False)
            best = max(best, int(t))
            if best == n:
                return n
    return best if exact else -1


def _laid_down_made(preset: Preset, counts: np.ndarray, me: int, leader: int, lb,
                    choices: list) -> np.ndarray:
    """``(k, choices, strains)`` bool: with the laid-down cards of each choice and the
    partner's best gift, does our lone hand take every trick?  The same answers as
    :func:`fixed_tricks` (``exact`` False) for each choice, in C over the whole chunk
    (``LoneSearch.laid_down_all``: the dominant gifts, and the sound filters of
    :func:`_no_bad_suit` when the lone hand leads and ``may_take_all``)."""
    strains = np.array([int(st) for st in preset.strains], dtype=np.intc)
    ch = np.array([[int(c) for c in d] for d in choices], dtype=np.uint8).reshape(len(choices), lb.discard)
    out = np.zeros((counts.shape[0], len(choices), len(strains)), dtype=np.uint8)
    _lone_searcher(preset).laid_down_all(np.ascontiguousarray(counts, dtype=np.uint8), strains,
                                         int(leader), int(me), ch, int(lb.give), out)
    return out.astype(bool)


@dataclass
class DealPlan:
    """What is solved per deal for one advice (see the module docstring).

    ``seats``: the seats that can still declare; ``dd``: ``{seat: "all" | "best" | k}``
    (every strain exactly with its own lead; the most tricks over the strains; the exact
    tricks of strain index k only), seats absent get no DD search; ``left_of_dealer``: one
    search per strain serves all seats; ``lone_for``: ``{seat: [lone bid indices]}`` checked
    for "every trick"; ``fixed``: ``{lone bid index: [laid-down choices]}`` of our loners
    whose cards are laid down at bid time.
    """

    preset: Preset
    dealer: Seat
    me: int
    seats: list
    dd: dict
    left_of_dealer: bool
    lone: list
    lone_for: dict
    fixed: dict = field(default_factory=dict)
    others: str = "dd"
    policy: object = None
    calls: tuple = ()
    score: Optional[tuple] = None

    @classmethod
    def make(cls, preset: Preset, auc: Auction, me: int, own: Sequence[int], others: str = "dd",
             policy=None, score=None) -> "DealPlan":
        """The plan for ``me`` to speak after ``auc`` holding ``own`` (card ids).  ``others``
        ``"dd"``: the other seats bid double dummy (their searches as above); ``"model"``:
        they bid by ``policy`` (:mod:`.table`), so only our seat's searches are planned here
        and the declarers the policy reaches are solved with the paths."""
        dealer = auc.dealer
        index = len(auc.actions)
        bids = auc.ladder
        high, hs = auc.high, auc.high_seat
        lone = list(lone_bids(preset))
        later = [(dealer + 1 + i) % 4 for i in range(index + 1, 4)]
        seats = sorted({int(me)} | set(later) | ({int(hs)} if hs is not None else set()))
        dd: dict = {int(me): "all"}
        lone_for: dict = {int(me): list(range(len(lone)))}
        for i, s in zip(range(index + 1, 4), later):
            acts = [a for a in legal_actions(preset, bids, i, high) if a is not None]
            if any(a.lone is None for a in acts):
                dd[s] = "best"
            lone_for[s] = [j for j, lb in enumerate(lone) if any(a.lone == lb for a in acts)]
        if hs is not None:
            hs = int(hs)
            if high.lone is None:
                dd[hs] = ("best" if high.strain is None else
                          list(preset.strains).index(high.strain))
                lone_for[hs] = []
            else:
                lone_for[hs] = [lone.index(high.lone)]
        fixed: dict = {}
        for j, lb in enumerate(lone):
            if lb.discard > 0 and exchange_order(preset, lb) == "discard-first":
                choices: list = []
                for st in preset.strains:
                    for d in _dominant_choices(list(own), int(st), lb.discard, highest=False):
                        if d not in choices:
                            choices.append(d)
                fixed[j] = choices
        lone_for[int(me)] = [j for j in lone_for[int(me)] if j not in fixed]
        if others == "model":
            seats = [int(me)]
            dd = {int(me): "all"}
            lone_for = {int(me): lone_for[int(me)]}
        return cls(preset, Seat(dealer), int(me), seats, dd,
                   preset.first_lead == "left_of_dealer", lone, lone_for, fixed, others,
                   policy, tuple(auc.actions), score)


def _dd_chunk(plan: DealPlan, counts: np.ndarray) -> np.ndarray:
    """DD tricks of the declaring side, ``(k, 4, strains)`` int16, -1 where not asked."""
    preset = plan.preset
    S = counts.shape[0]
    strains = np.array([int(s) for s in preset.strains], dtype=np.intc)
    K = len(strains)
    n = preset.tricks
    out = np.full((S, 4, K), -1, dtype=np.int16)
    solver = _solver(preset)
    if plan.left_of_dealer:
        leaders = np.full((S, 1), (plan.dealer + 1) % 4, dtype=np.intc)
        res = np.zeros((S, 1, K), dtype=np.intc)
        solver.tables(np.ascontiguousarray(counts), strains, leaders, -1, res)
        for d in range(4):
            out[:, d] = res[:, 0] if d % 2 == 0 else n - res[:, 0]
        return out
    full = [s for s, how in plan.dd.items() if how == "all"]
    if full:
        leaders = np.tile(np.array(full, dtype=np.intc), (S, 1))
        res = np.zeros((S, len(full), K), dtype=np.intc)
        solver.tables(np.ascontiguousarray(counts), strains, leaders, -1, res)
        for k, d in enumerate(full):
            out[:, d] = res[:, k] if d % 2 == 0 else n - res[:, k]
    me = plan.me                        # always "all" (DealPlan.make): our exact tricks are in
    for d, how in plan.dd.items():
        if how == "best":
            est = _side_estimate(out[:, me].astype(np.int64), me, d, n)
            order = np.argsort(-est, axis=1, kind="stable")
            for i in range(S):
                first = int(est[i, order[i, 0]])
                out[i, d] = _best_of_strains(solver, counts[i], strains, d, n, order[i],
                                             first if d % 2 == 0 else n - first)
        elif not isinstance(how, str):
            for i in range(S):
                ns = solver.solve(counts[i], int(strains[how]), d, -1)
                out[i, d] = ns if d % 2 == 0 else n - ns
    return out


@dataclass
class AdviceChunk:
    """One chunk of sampled deals solved for bid advice (:func:`solve_advice_chunk`):
    ``start`` (the index of its first deal), ``counts`` ``(k, 4, 24)``, ``dd`` ``(k, 4,
    strains)`` the declaring side's DD tricks (-1 where not asked), ``made`` ``(k, 4, lone
    bids, strains)`` whether each lone bid takes every trick, ``fixed``."""

    start: int
    counts: np.ndarray
    dd: np.ndarray
    made: np.ndarray
    fixed: dict
    weights: Optional[np.ndarray] = None
    paths: object = None


def solve_advice_chunk(plan: DealPlan, start: int, counts: np.ndarray,
                weights: Optional[np.ndarray] = None) -> AdviceChunk:
    """Solve one chunk of deals (``(k, 4, 24)`` counts, ``weights`` ``(k,)`` from the calls
    heard or None) under ``plan``: thread-safe (one search context per thread) and
    independent of every other chunk.  With ``plan.others == "model"`` also the policy's
    continuation of each of our actions and its declarers' DD tricks (:mod:`.table`)."""
    preset = plan.preset
    S = counts.shape[0]
    strains = list(preset.strains)
    L, K = len(plan.lone), len(strains)
    paths = None
    if plan.others == "model":
        # deal by deal: our table, then the other declarers' searches of the same deal, while
        # the transposition table still holds the deal's positions (they are keyed by strain
        # and the seat out, not by who led; only the work changes)
        from .table import model_paths, path_tricks
        paths = model_paths(plan.policy, preset, plan.dealer, plan.calls, plan.me, counts,
                            plan.score)
        dd = np.empty((S, 4, K), dtype=np.int16)
        solver, lone_s = _solver(preset), _lone_searcher(preset)
        for i in range(S):
            dd[i:i + 1] = _dd_chunk(plan, counts[i:i + 1])
            path_tricks(paths, preset, plan.dealer, plan.me, counts, dd, solver, lone_s, rows=(i,))
    else:
        dd = _dd_chunk(plan, counts)
    made = np.zeros((S, 4, L, K), dtype=bool)
    if L:
        searcher = _lone_searcher(preset)
        all_tops = [suit_tops(counts, int(st)) for st in strains]
        for seat, js in plan.lone_for.items():
            if not js:
                continue
            leader = lone_leader(preset, seat, plan.dealer)
            plans: dict = {}
            for k, st in enumerate(strains):
                tops = all_tops[k]
                if preset.deck.copies == 1:     # one filter for the bids together (cheaper)
                    ex = any(plan.lone[j].give > 0 for j in js)
                    ok = lone_possible(counts, preset, seat, int(st), ex, tops)
                    rows = [(i, tuple(js)) for i in np.flatnonzero(ok).tolist()]
                else:
                    cand = np.stack([lone_possible_bid(counts, preset, seat, int(st), plan.lone[j],
                                                       int(leader), tops) for j in js], axis=1)
                    rows = [(i, tuple(j for j, ok in zip(js, cand[i].tolist()) if ok))
                            for i in np.flatnonzero(cand.any(axis=1)).tolist()]
                seat_v = Seat(seat)
                for i, sub in rows:             # sub: the bids not ruled out
                    got = plans.get(sub)
                    if got is None:
                        bids = [plan.lone[j] for j in sub]
                        got = plans[sub] = (bids, bid_plan(preset, bids), list(sub))
                    vals = bid_values(searcher, counts[i], preset, got[0], seat_v, st, leader,
                                       True, got[1])
                    for j, v in zip(got[2], vals):
                        made[i, seat, j, k] = v
    fixed: dict = {}
    if plan.fixed:
        me = plan.me
        leader = int(lone_leader(preset, me, plan.dealer))
        for j, choices in plan.fixed.items():
            fixed[j] = _laid_down_made(preset, counts, me, leader, plan.lone[j], choices)
    return AdviceChunk(start, counts, dd, made, fixed, weights, paths)


def _deal_of(preset: Preset, dealer, c: np.ndarray) -> Deal:
    """One deal's 4 × 24 counts as a :class:`Deal`."""
    hands = [[k for k in range(24) for _ in range(int(c[s, k]))] for s in range(4)]
    return Deal(hands, preset.deck, dealer)


class DealData:
    """The solved data of the deals so far, in index order, for the auction model:
    ``counts`` ``(S, 4, 24)``, ``dd`` ``(S, 4, strains)`` (DD tricks of the seat's side, -1
    where not asked), ``made`` ``(S, 4, lone bids, strains)`` (the lone hand takes every
    trick), ``lo``/``hi`` (bounds on a failing lone hand's tricks; equal once exact or where
    not needed), ``laid_down`` (``{bid name: cards}`` of our fixed loners).  Space is
    reserved for ``capacity`` deals."""

    def __init__(self, plan: DealPlan, capacity: int):
        self.plan = plan
        self.preset = p = plan.preset
        self.dealer = plan.dealer
        self.me = plan.me
        self.seats = plan.seats
        self.n = p.tricks
        self.strains = list(p.strains)
        self.lone = plan.lone
        L, K = len(self.lone), len(self.strains)
        self.S = 0
        self._counts = np.zeros((capacity, 4, 24), dtype=np.uint8)
        self._dd = np.full((capacity, 4, K), -1, dtype=np.int16)
        self._made = np.zeros((capacity, 4, L, K), dtype=bool)
        self._lo = np.zeros((capacity, 4, L, K), dtype=np.int16)
        self._hi = np.zeros((capacity, 4, L, K), dtype=np.int16)
        # a failing lone hand: 0 … n-1 tricks where they count, where a lone bid may matter
        self._open = np.zeros((4, L), dtype=bool)
        for s, js in plan.lone_for.items():
            self._open[s, js] = True
        for j in plan.fixed:
            self._open[self.me, j] = True
        if p.defenders_vs_lone != "tricks":
            self._open[:] = False      # a failing lone hand costs its value, whatever its tricks
        self._fixed = {j: np.zeros((capacity, len(c), K), dtype=bool) for j, c in plan.fixed.items()}
        self._choice: dict = {}
        self.laid_down: dict = {}
        self._deals: dict = {}
        self._w = np.ones(capacity, dtype=np.float64)
        self.weighted = False               # any chunk came with weights
        self._paths = None                  # (declarer, bid, strain, tricks), (capacity, A) each
        self._capacity = capacity

    counts = property(lambda self: self._counts[:self.S])
    dd = property(lambda self: self._dd[:self.S])
    made = property(lambda self: self._made[:self.S])
    lo = property(lambda self: self._lo[:self.S])
    hi = property(lambda self: self._hi[:self.S])

    @property
    def weights(self) -> Optional[np.ndarray]:
        """The deals' weights from the calls heard (``(S,)``), None when unweighted."""
        return self._w[:self.S] if self.weighted else None

    def append(self, ch: AdviceChunk) -> None:
        """Add the next chunk (``ch.start`` must be the number of deals so far)."""
        assert ch.start == self.S
        a, b = self.S, self.S + ch.counts.shape[0]
        self._counts[a:b] = ch.counts
        self._dd[a:b] = ch.dd
        self._made[a:b] = ch.made
        self._lo[a:b] = 0
        self._hi[a:b] = np.where(self._open, self.n - 1, 0)[None, :, :, None]
        for j, arr in ch.fixed.items():
            self._fixed[j][a:b] = arr
        if ch.weights is not None:
            self._w[a:b] = ch.weights
            self.weighted = True
        if ch.paths is not None:
            if self._paths is None:
                A = ch.paths.bid.shape[1]
                self._paths = tuple(np.zeros((self._capacity, A), dtype=x.dtype)
                                    for x in (ch.paths.declarer, ch.paths.bid, ch.paths.strain,
                                              ch.paths.tricks))
            for arr, x in zip(self._paths, (ch.paths.declarer, ch.paths.bid, ch.paths.strain,
                                            ch.paths.tricks)):
                arr[a:b] = x
        self.S = b
        self.choose_laid_down()

    def choose_laid_down(self) -> None:
        """Our loners with cards laid down at bid time (RULES.md §2, ``double32``): one choice
        for all deals and strains — among the dominance-reduced choices (the lowest cards of
        each suit, under some strain), the one with the most deals taking every trick in its
        best strain (the first such) — and ``made`` of the bid for our seat uses it.  When
        more deals change the choice, the exact counts found for the old one are dropped."""
        me = self.me
        for j, choices in self.plan.fixed.items():
            arr = self._fixed[j][:self.S]
            ci = int(np.argmax(arr.sum(axis=0).max(axis=1)))
            if self._choice.get(j) != ci:
                self._choice[j] = ci
                self._lo[:self.S, me, j] = 0
                self._hi[:self.S, me, j] = self.n - 1 if self._open[me, j] else 0
                self.laid_down[self.lone[j].name] = choices[ci]
            self._made[:self.S, me, j, :] = arr[:, ci]

    def deal(self, i: int) -> Deal:
        """Deal ``i`` as a :class:`Deal` (the last one asked is kept: refining asks each
        deal for several seats and strains in a row)."""
        d = self._deals.get(i)
        if d is None:
            self._deals = {i: _deal_of(self.preset, self.dealer, self._counts[i])}
            d = self._deals[i]
        return d

    def view(self, a: int, b: int) -> "DealView":
        """Deals ``a`` … ``b - 1`` as the auction model reads them (no copy)."""
        return DealView(self, a, b)


    def refine(self, samples: np.ndarray, seat: int, j: int, k: int) -> None:
        """Exact lone tricks for (seat, lone bid j, strain k) on the given deals (failing)."""
        st = self.strains[k]
        fixed = self.laid_down.get(self.lone[j].name) if seat == self.me else None
        leader = int(lone_leader(self.preset, seat, self.dealer))
        searcher = _lone_searcher(self.preset)
        for i in samples:
            i = int(i)
            if self._made[i, seat, j, k] or self._lo[i, seat, j, k] == self._hi[i, seat, j, k]:
                continue
            if fixed is not None:
                t = fixed_tricks(self.preset, self._counts[i], seat, leader, self.lone[j], int(st),
                                 fixed, exact=True)
            else:
                t = one_bid_tricks(searcher, self._counts[i], self.preset, self.lone[j], seat,
                                   int(st), leader)
            self._lo[i, seat, j, k] = self._hi[i, seat, j, k] = t


class DealView:
    """A slice of :class:`DealData` for the auction model: the model's memory grows with
    the deals it evaluates at once, so the rating evaluates a slice at a time."""

    def __init__(self, data: DealData, a: int, b: int):
        self.preset, self.dealer, self.n = data.preset, data.dealer, data.n
        self.strains, self.lone, self.seats, self.me = data.strains, data.lone, data.seats, data.me
        self.S = b - a
        self.dd = data._dd[a:b]
        self.made = data._made[a:b]
        self.lo = data._lo[a:b]
        self.hi = data._hi[a:b]
        if data._paths is not None:
            self.p_decl, self.p_bid, self.p_strain, self.p_tricks = (x[a:b] for x in data._paths)
