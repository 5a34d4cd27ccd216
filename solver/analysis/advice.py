"""Bid advice for one hand by simulation (single dummy; issue 6).

Question: with this hand, in this seat, after these bids, what should I bid?  Answer: deal the
unseen cards at random consistent with what is known (the hand, the cards shown with
``known``), or take given full deals (``deals``); solve each deal double-dummy; and for every
legal action — pass and each legal bid — play the rest of the auction double-dummy, exactly as
in par (:mod:`bideuchre.analysis.par`: every other seat chooses with all hands open to maximise its side's
hand result), then score the hand.  The expected hand result (our side's points minus theirs)
over the deals, with its standard error, rates each action; the best is recommended.

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

What is computed per deal (only what the auction from this point needs):

- the DD tricks of every strain for each seat that can still become declarer (our seat, the
  seats still to speak, the current high bidder); in ``standard`` one search per strain serves
  all four declarers (the first lead is left of the dealer);
- for lone bids, only "does the lone hand take every trick?" (:func:`bideuchre.analysis.lone.can_take_all`),
  after a sound filter in numpy (single deck: a lone hand holding any card of a suit in which
  an opponent holds a higher card always loses a trick — the best exchange is allowed for);
- the exact lone tricks of a failing lone hand only where they change a result: a failing lone
  bid costs its value and, where the defenders score their tricks (``standard``,
  ``double32``), their tricks too.  The auction is first evaluated with each failing lone hand
  at both bounds (n − 1 and 0 lone tricks); only deals on which the two disagree get exact
  counts.  For our own lone bid the exact counts are computed when that bid could be the best
  action (``exact=True`` always computes them); otherwise its EV is reported as a range
  (``ev`` the lower end, ``ev_max`` the upper, ``exact`` false).

Sampling is reproducible and independent of the number of workers: deal ``i`` is drawn by a
generator seeded from ``(seed, i)`` alone, and every result per deal is exact.

Game-end (``score`` and ``target``): for each action, the probability that our side wins the
game at the end of this hand under the preset's rule (RULES.md §2 "game end"): ``standard``:
a side at or above the target with the higher total; ``pepper``: at or above the target, and
if both are, the bidding side; ``racehorse``/``double48``: at or above the target on a hand in
which that side made its bid or set the bidders.  Presets played over a number of hands
(``double32``) are not decided by a target: no game-win figure.
"""

from __future__ import annotations

import itertools
import math
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional, Sequence

import numpy as np

from ..search import _search
from .auction import Auction, Bid, format_action, ladder, legal_actions
from .lone import _bid_values, _searcher, exchange_order, lone_bids, lone_leader, lone_results
from ..notation import Deal, counted, format_hand, parse_card, parse_hand
from ..rules import (
    Card, NotationError, Preset, RulesError, Seat, Strain, check_seed, effective_suit,
    get_preset, parse_seat, rank_order,
)
from ..search.solve import tt_bits_for

__all__ = ["Advice", "ActionResult", "StrainStats", "advise", "default_samples", "sample_deals", "deals_for_hand",
           "sample_rng"]


# ---------------------------------------------------------------------------------------------
# Results

@dataclass
class ActionResult:
    """One legal action: ``action`` (``"pass"``, ``"4"``, ``"12"``…), ``strain`` (our strain
    if the bid stands, None for a pass), ``ev`` (mean of our points minus theirs, per hand),
    ``se`` (its standard error), ``p_make`` (probability our contract makes if it stands, DD;
    None for a pass), ``p_declare`` (probability our bid wins the auction: our seat declares),
    ``p_win`` (game won
    this hand, with a score; else None), ``exact`` (False when ``ev`` is the lower end of a
    range ending at ``ev_max``), ``se_vs_best`` (standard error of the per-deal difference to
    the recommended action: the deals are shared, so differences are much surer than the
    EVs themselves)."""

    action: str
    strain: Optional[str]
    ev: float
    se: float
    p_make: Optional[float]
    p_declare: float
    p_win: Optional[float] = None
    exact: bool = True
    ev_max: Optional[float] = None
    se_vs_best: float = 0.0

    def to_json(self) -> dict:
        d = {"action": self.action, "strain": self.strain, "ev": round(self.ev, 4),
             "se": round(self.se, 4), "se_vs_best": round(self.se_vs_best, 4),
             "p_make": None if self.p_make is None else round(self.p_make, 4),
             "p_declare": round(self.p_declare, 4)}
        if self.p_win is not None:
            d["p_win"] = round(self.p_win, 4)
        if not self.exact:
            d["exact"] = False
            d["ev_max"] = round(self.ev_max, 4)
        return d


@dataclass
class StrainStats:
    """DD tricks of our side with our seat declaring in one strain, over the deals:
    ``tricks_hist[k]`` deals with k tricks (k = 0..n), ``mean``, ``p_at_least[k]`` for each
    number-bid level k, ``p_all_alone[bid]`` for each lone bid (the lone hand takes every
    trick with the best exchange)."""

    tricks_hist: list
    mean: float
    p_at_least: dict
    p_all_alone: dict

    def to_json(self) -> dict:
        return {"tricks_hist": self.tricks_hist, "mean": round(self.mean, 4),
                "p_at_least": {str(k): round(v, 4) for k, v in self.p_at_least.items()},
                "p_all_alone": {k: round(v, 4) for k, v in self.p_all_alone.items()}}


@dataclass
class Advice:
    """Bid advice for one hand (see the module docstring).

    ``actions``: one :class:`ActionResult` per legal action (pass first, then bids low →
    high); ``recommend``: the action with the best ``ev`` (ties: the lower action);
    ``best_for_game``: the action with the best ``p_win`` when a score was given (None
    otherwise); ``strains``: ``{Strain: StrainStats}``; ``seed``/``samples``: the sampling
    (``seed`` None with given deals); ``laid_down``: for each loner whose cards are laid down
    at bid time (``double32``), the cards chosen (``{"two-card": ["SJ", "HJ"]}``).
    """

    preset: Preset
    seat: Seat
    dealer: Seat
    hand: list
    auction: list
    seed: Optional[int]
    samples: int
    actions: list
    recommend: ActionResult
    strains: dict
    best_for_game: Optional[ActionResult] = None
    score: Optional[tuple] = None
    target: Optional[int] = None
    notes: list = field(default_factory=list)
    laid_down: dict = field(default_factory=dict)
    known: dict = field(default_factory=dict)

    def known_text(self) -> dict:
        """The cards known in other seats, ``{"E": "SA HK"}`` (echoed so a result can be
        reproduced)."""
        return {Seat(s).name: " ".join(str(Card(c)) for c in cs) for s, cs in sorted(self.known.items())}

    def to_json(self) -> dict:
        d = {"seed": self.seed, "samples": self.samples, "preset": self.preset.name,
             "seat": self.seat.name, "dealer": self.dealer.name, "hand": format_hand(self.hand),
             "known": self.known_text(),
             "auction": [format_action(a) for a in self.auction],
             "recommend": self.recommend.action, "strain": self.recommend.strain,
             "actions": [a.to_json() for a in self.actions],
             "strains": {st.name: s.to_json() for st, s in self.strains.items()}}
        if self.score is not None:
            d["score"] = {"us": self.score[0], "them": self.score[1]}
            d["target"] = self.target
            d["best_for_game"] = None if self.best_for_game is None else self.best_for_game.action
            d["best_for_game_differs"] = (self.best_for_game is not None
                                          and self.best_for_game.action != self.recommend.action)
        if self.laid_down:
            d["laid_down"] = self.laid_down
        if self.notes:
            d["notes"] = self.notes
        return d


# ---------------------------------------------------------------------------------------------
# Deals

def sample_rng(seed: int, index: int) -> np.random.Generator:
    """The generator of deal ``index`` for ``seed``: depends on nothing else, so the deals do
    not depend on the number of workers or the order they are drawn in."""
    return np.random.default_rng([check_seed(seed), int(index)])


def _deck_counts(preset: Preset) -> np.ndarray:
    c = np.zeros(24, dtype=np.int64)
    for card in preset.deck.card_ids:
        c[card] = preset.deck.copies
    return c


def _check_hand(preset: Preset, hand: Sequence[int], known: dict) -> np.ndarray:
    """The cards not yet placed (24 counts); raises NotationError for impossible input."""
    left = _deck_counts(preset)
    n = preset.tricks
    if len(hand) != n:
        raise NotationError(f"the hand holds {counted(len(hand), 'card')}; {preset.deck.name} deals {n}")
    for c in hand:
        if left[c] == 0:
            many = hand.count(c)
            raise NotationError(f"the hand holds {c} {many} times; the {preset.deck.name} deck has "
                                f"{'one' if preset.deck.copies == 1 else 'two'}"
                                if many > preset.deck.copies else
                                f"card {c} is not in the {preset.deck.name} deck "
                                f"(ranks {' '.join(r.char for r in preset.deck.ranks)})")
        left[c] -= 1
    for s, cards in known.items():
        if len(cards) > n:
            raise NotationError(f"--known {s.name}: {counted(len(cards), 'card')}, more than a hand of {n}")
        for c in cards:
            if left[c] == 0:
                raise NotationError(f"--known {s.name}: card {str(c)} is already placed (or not in the deck)")
            left[c] -= 1
    return left


def sample_deals(preset: Preset | str, seat: int, hand: Sequence[int], known: dict | None = None,
                 samples: int = 500, seed: int = 1, start: int = 0) -> np.ndarray:
    """``samples`` random deals consistent with ``hand`` in ``seat`` and ``known`` cards
    (``{Seat: [cards]}``): an ``(samples, 4, 24)`` uint8 array of card counts.  Deal ``i``
    (from ``start``) uses :func:`sample_rng` ``(seed, i)``.  Raises NotationError."""
    preset = get_preset(preset)
    seat = Seat(seat)
    known = {Seat(s): list(c) for s, c in (known or {}).items()}
    if seat in known:
        raise NotationError(f"--known names the advised seat {seat.name}; its cards are the hand")
    left = _check_hand(preset, hand, known)
    pool = np.repeat(np.arange(24), left)
    n = preset.tricks
    need = [0 if s == seat else n - len(known.get(Seat(s), [])) for s in range(4)]
    base = np.zeros((4, 24), dtype=np.uint8)
    for c in hand:
        base[seat, c] += 1
    for s, cards in known.items():
        for c in cards:
            base[s, c] += 1
    out = np.empty((samples, 4, 24), dtype=np.uint8)
    bounds = np.cumsum([0] + need)
    for k in range(samples):
        perm = sample_rng(seed, start + k).permutation(pool)
        cur = base.copy()
        for s in range(4):
            if need[s]:
                np.add.at(cur[s], perm[bounds[s]:bounds[s + 1]], 1)
        out[k] = cur
    return out


def deals_for_hand(deals: Iterable[Deal], seat: int, hand: Sequence[int],
                   known: dict | None = None, labels: Sequence[str] | None = None) -> np.ndarray:
    """Given full deals as an ``(k, 4, 24)`` count array, after checking that each holds
    ``hand`` in ``seat`` and the ``known`` cards.  Raises NotationError naming the deal (by
    ``labels[i]``, e.g. ``"deals.txt: line 7"``, else ``"deal i"``)."""
    want = np.zeros(24, dtype=np.uint8)
    for c in hand:
        want[c] += 1
    rows = []
    for i, d in enumerate(deals, 1):
        where = labels[i - 1] if labels is not None else f"deal {i}"
        c = np.array(d.counts(), dtype=np.uint8)
        if not np.array_equal(c[seat], want):
            raise NotationError(f"{where} ({d.pbn()}) does not give seat {Seat(seat).name} the hand "
                                f"{format_hand(hand)}")
        for s, cards in (known or {}).items():
            for card in cards:
                if c[s, card] == 0:
                    raise NotationError(f"{where} ({d.pbn()}): seat {Seat(s).name} lacks known card {str(card)}")
        rows.append(c)
    if not rows:
        raise NotationError("no deals given")
    return np.stack(rows)


# ---------------------------------------------------------------------------------------------
# Per-deal double-dummy data

_local = threading.local()


def _best_of_strains(solver, counts: np.ndarray, strains: np.ndarray, seat: int, n: int,
                     order: np.ndarray) -> int:
    """The most DD tricks the side of ``seat`` takes with ``seat`` declaring and leading, over
    the strains: one exact search in the likeliest strain (``order[0]``), then one null-window
    search ("one more?") per strain and per trick gained."""
    def at_least(st: int, t: int) -> bool:
        if seat % 2 == 0:
            return solver.can_take(counts, st, seat, -1, (), t)
        return not solver.can_take(counts, st, seat, -1, (), n - t + 1)

    first = int(strains[order[0]])
    ns = solver.solve(counts, first, seat, -1)
    best = ns if seat % 2 == 0 else n - ns
    for k in order[1:]:
        st = int(strains[k])
        while best < n and at_least(st, best + 1):
            best += 1
    return best


def _trump_length(counts: np.ndarray, side: int, strains) -> np.ndarray:
    """Cards of each strain's trump suit held by a side (NT/NTL: 0), ``(S, strains)``."""
    out = np.zeros((counts.shape[0], len(strains)), dtype=np.int16)
    both = counts[:, side].astype(np.int16) + counts[:, side + 2]
    for k, st in enumerate(strains):
        if int(st) < 4:
            cards = [c for c in range(24) if int(effective_suit(c, int(st))) == int(st)]
            out[:, k] = both[:, cards].sum(axis=1)
    return out


def _dd_rows(counts: np.ndarray, preset: Preset, dealer: int, seats: Sequence[int],
             workers: int, progress: Callable[[int], None] | None,
             me: int | None = None) -> np.ndarray:
    """DD tricks of the declaring side, ``(S, 4, strains)`` int16, -1 for seats not asked.

    With ``me`` in a preset where the declarer leads and names the strain after the auction,
    only ``me`` gets every strain; every other seat's row holds its best over the strains in
    each column (all a declarer's choice needs: results rise with tricks), found with
    null-window searches (:func:`_best_of_strains`).
    """
    S = counts.shape[0]
    strains = np.array([int(s) for s in preset.strains], dtype=np.intc)
    n = preset.tricks
    best_only: list = []
    if preset.first_lead == "left_of_dealer":
        leaders = np.full((S, 1), (dealer + 1) % 4, dtype=np.intc)
        full = [0, 1, 2, 3]
    elif me is not None and preset.strain_named == "after":
        full = [int(me)]
        best_only = [int(x) for x in seats if int(x) != int(me)]
        leaders = np.full((S, 1), int(me), dtype=np.intc)
    else:
        full = list(seats)
        leaders = np.tile(np.array(full, dtype=np.intc), (S, 1))
    bits = tt_bits_for(preset.deck)
    chunk = 64
    starts = list(range(0, S, chunk))
    orders = {d: np.argsort(-_trump_length(counts, d % 2, preset.strains), axis=1, kind="stable")
              for d in best_only}

    def run(a: int) -> tuple:
        b = min(S, a + chunk)
        s = getattr(_local, "dd", None)
        if s is None or s[0] != bits:
            s = _local.dd = (bits, _search.Solver(bits))
        res = np.zeros((b - a, leaders.shape[1], len(strains)), dtype=np.intc)
        s[1].tables(np.ascontiguousarray(counts[a:b]), strains, np.ascontiguousarray(leaders[a:b]), -1, res)
        best = np.zeros((b - a, len(best_only)), dtype=np.int16)
        for i in range(a, b):
            c = counts[i]
            for j, d in enumerate(best_only):
                best[i - a, j] = _best_of_strains(s[1], c, strains, d, n, orders[d][i])
        return res, best

    parts, bests = [], []
    if workers > 1:
        with ThreadPoolExecutor(workers) as ex:
            for r, bst in ex.map(run, starts):
                parts.append(r)
                bests.append(bst)
                if progress:
                    progress(r.shape[0])
    else:
        for a in starts:
            r, bst = run(a)
            parts.append(r)
            bests.append(bst)
            if progress:
                progress(r.shape[0])
    ns = np.concatenate(parts)
    out = np.full((S, 4, len(strains)), -1, dtype=np.int16)
    if preset.first_lead == "left_of_dealer":
        for d in range(4):
            out[:, d] = ns[:, 0] if d % 2 == 0 else n - ns[:, 0]
    else:
        for k, d in enumerate(full):
            out[:, d] = ns[:, k] if d % 2 == 0 else n - ns[:, k]
        best = np.concatenate(bests)
        for j, d in enumerate(best_only):
            out[:, d] = best[:, j:j + 1]
    return out


def suit_tops(counts: np.ndarray, strain: int) -> tuple[np.ndarray, np.ndarray]:
    """Per deal, seat and effective suit under ``strain``: the order (+1) of the seat's top
    card of the suit (0: void) and its number of cards; two ``(S, 4, 4)`` arrays."""
    es = np.array([int(effective_suit(c, strain)) for c in range(24)])
    val = np.array([rank_order(c, strain) + 1 for c in range(24)])
    member = (es[:, None] == np.arange(4)[None, :])
    held = counts > 0
    top = np.zeros(counts.shape[:2] + (4,), dtype=np.int16)
    for c in np.argsort(val):  # ascending: later (higher) cards overwrite
        u = es[c]
        top[:, :, u] = np.where(held[:, :, c], val[c], top[:, :, u])
    cnt = counts.astype(np.int16) @ member.astype(np.int16)
    return top, cnt


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


def _cards_of(row: np.ndarray) -> list:
    """The cards of one seat's 24 counts, a card twice when both copies are held."""
    return [c for c in range(24) for _ in range(int(row[c]))]


def _dominant_choices(cards: Sequence[int], strain: int, k: int, highest: bool) -> list:
    """The k-card choices from ``cards`` worth trying when the lowest (``highest`` False: cards
    to lay down) or the highest (cards to give) of each effective suit dominate: a lone hand
    with a higher card of a suit in place of a lower one takes every trick whenever it did.
    Sorted tuples; one per way of spreading k over the suits."""
    groups: dict = {}
    for c in cards:
        groups.setdefault(int(effective_suit(c, strain)), []).append(c)
    for u in groups:
        groups[u].sort(key=lambda c: rank_order(c, strain), reverse=highest)
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
    top = [0, 0, 0, 0]
    for c in range(24):
        if row[c]:
            u = int(effective_suit(c, strain))
            v = rank_order(c, strain) + 1
            if v > top[u]:
                top[u] = v
    return all(top[u] == 0 or top[u] >= opp_top[u] for u in range(4))


def _lone_searcher(preset: Preset):
    """This thread's lone search context (bideuchre.analysis.lone's, keyed by deck form)."""
    return _searcher(Deal([[], [], [], []], preset.deck))


class _Data:
    """Per-deal data for the auction: DD rows, lone "every trick?", failing lone tricks."""

    def __init__(self, counts: np.ndarray, preset: Preset, dealer: Seat, seats: Sequence[int],
                 workers: int, progress, me: int | None = None):
        self.counts = counts
        self.preset = preset
        self.dealer = dealer
        self.S = counts.shape[0]
        self.n = preset.tricks
        self.strains = list(preset.strains)
        self.seats = list(seats)
        self.me = me
        self._leaders = {s: int(lone_leader(preset, s, dealer)) for s in range(4)}
        self.dd = _dd_rows(counts, preset, dealer, seats, workers, progress, me)
        self.lone = list(lone_bids(preset))
        L, K = len(self.lone), len(self.strains)
        # made[s, seat, bid, strain]; lo/hi: bounds on a failing lone hand's tricks
        self.made = np.zeros((self.S, 4, L, K), dtype=bool)
        self.lo = np.zeros((self.S, 4, L, K), dtype=np.int16)
        self.hi = np.full((self.S, 4, L, K), self.n - 1, dtype=np.int16)
        if preset.defenders_vs_lone != "tricks":
            self.hi[:] = 0  # a failing lone hand costs its value, whatever its tricks
        self._deals: dict = {}
        if L:
            self._lone_all(workers, progress)
        # our own loners whose laid-down cards are chosen at bid time: fixed across the deals
        self.laid_down: dict = {}
        if me is not None:
            for j, lb in enumerate(self.lone):
                if lb.discard > 0 and exchange_order(preset, lb) == "discard-first":
                    self._fixed_discard(int(me), j, lb)

    def deal(self, i: int) -> Deal:
        d = self._deals.get(i)
        if d is None:
            c = self.counts[i]
            hands = [[k for k in range(24) for _ in range(int(c[s, k]))] for s in range(4)]
            d = self._deals[i] = Deal(hands, self.preset.deck, self.dealer)
        return d

    def _lone_all(self, workers: int, progress) -> None:
        """``made`` for every seat that may declare, strain and lone bid: the numpy filter,
        then "every trick?" searches on the deals that pass it (in chunks, one lone search
        context per thread)."""
        preset = self.preset
        cand = np.zeros((self.S, 4, len(self.strains)), dtype=bool)
        exch = any(lb.give > 0 for lb in self.lone)
        for k, st in enumerate(self.strains):
            tops = suit_tops(self.counts, int(st)) if preset.deck.copies == 1 else None
            for seat in self.seats:
                cand[:, seat, k] = lone_possible(self.counts, preset, seat, int(st), exch, tops)
        leaders = {seat: int(lone_leader(preset, seat, self.dealer)) for seat in self.seats}
        chunk = 64

        def run(a: int) -> int:
            searcher = _lone_searcher(preset)
            b = min(self.S, a + chunk)
            for i in range(a, b):
                c = self.counts[i]
                for seat in self.seats:
                    for k, st in enumerate(self.strains):
                        if cand[i, seat, k]:
                            vals = _bid_values(searcher, c, preset, self.lone, Seat(seat), st,
                                               Seat(leaders[seat]), True)
                            self.made[i, seat, :, k] = vals
            return b - a

        starts = range(0, self.S, chunk)
        if workers > 1:
            with ThreadPoolExecutor(workers) as ex:
                for k in ex.map(run, starts):
                    if progress:
                        progress(k)
        else:
            for a in starts:
                k = run(a)
                if progress:
                    progress(k)

    def refine(self, samples: np.ndarray, seat: int, j: int, k: int) -> None:
        """Exact lone tricks for (seat, lone bid j, strain k) on the given deals (failing)."""
        st = self.strains[k]
        fixed = self.laid_down.get(self.lone[j].name) if seat == self.me else None
        for i in samples:
            i = int(i)
            if self.made[i, seat, j, k] or self.lo[i, seat, j, k] == self.hi[i, seat, j, k]:
                continue
            if fixed is not None:
                t = self._fixed_tricks(i, seat, self.lone[j], int(st), fixed, exact=True)
            else:
                t = lone_results(self.deal(i), self.preset, seat, st, self.dealer)[j].tricks
            self.lo[i, seat, j, k] = self.hi[i, seat, j, k] = t

    # -- loners with cards laid down at bid time (double32) ---------------------------------
    def _fixed_tricks(self, i: int, seat: int, lb, strain: int, discard: tuple, exact: bool,
                      tops: tuple | None = None) -> int:
        """Lone tricks of ``seat`` on deal ``i`` with ``discard`` laid down and the partner's
        best gift of ``lb.give`` cards.  With ``exact`` False: n if every trick is taken, else
        -1, over the dominance-reduced gifts (the top cards of each suit: sound for "every
        trick?", where the lead never changes hands); with ``exact`` True the tricks, over every
        distinct gift (dominance is not proven for exact counts)."""
        n = self.n
        c = self.counts[i]
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
        leader = self._leaders[seat]
        searcher = _lone_searcher(self.preset)
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

    def _fixed_discard(self, seat: int, j: int, lb) -> None:
        """Choose the laid-down cards once for all deals (RULES.md §2: laid down at bid time,
        before the strain is named): among the dominance-reduced choices (the lowest cards of
        each suit, under some strain), the one with the most deals taking every trick in its
        best strain; then ``made`` of this bid for our seat uses it on every deal."""
        own = _cards_of(self.counts[0, seat])
        choices: list = []
        for st in self.strains:
            for d in _dominant_choices(own, int(st), lb.discard, highest=False):
                if d not in choices:
                    choices.append(d)
        opp = [(seat + 1) % 4, (seat + 3) % 4]
        leads = self._leaders[seat] == seat  # the filter needs the lone hand on lead
        tops = {}
        for st in self.strains:
            t, _ = suit_tops(self.counts, int(st))
            tops[int(st)] = np.maximum(t[:, opp[0]], t[:, opp[1]])
        best = None
        for d in choices:
            made = np.zeros((self.S, len(self.strains)), dtype=bool)
            for k, st in enumerate(self.strains):
                for i in range(self.S):
                    made[i, k] = self._fixed_tricks(i, seat, lb, int(st), d, False,
                                                    tops[int(st)][i] if leads else None) == self.n
            key = made.mean(axis=0).max()
            if best is None or key > best[0]:
                best = (key, d, made)
        _, d, made = best
        self.made[:, seat, j, :] = made
        self.laid_down[lb.name] = d


# ---------------------------------------------------------------------------------------------
# The auction over many deals at once

class _Outcome:
    """Arrays over the deals, stacked ``(4, S)`` int64: points of NS, points of EW, the
    declarer seat (-1: thrown in), made (1/0)."""

    __slots__ = ("a", "diff")

    def __init__(self, a: np.ndarray):
        self.a = a
        self.diff = a[0] - a[1]

    @classmethod
    def of(cls, ns, ew, side, made) -> "_Outcome":
        return cls(np.stack([np.broadcast_to(np.asarray(x, dtype=np.int64), np.shape(ns))
                             for x in (ns, ew, side, made)]))

    ns = property(lambda self: self.a[0])
    ew = property(lambda self: self.a[1])
    declarer = property(lambda self: self.a[2])
    side = property(lambda self: np.where(self.a[2] >= 0, self.a[2] % 2, -1))
    made = property(lambda self: self.a[3].astype(bool))

    def select(self, mask, other: "_Outcome") -> "_Outcome":
        return _Outcome(np.where(mask, other.a, self.a))


def _points(preset: Preset, bid: Bid, t: np.ndarray, made_all: np.ndarray | None = None):
    """Vectorised :func:`bideuchre.analysis.auction.hand_result`: (declarer points, defenders, made)."""
    n = preset.tricks
    if bid.lone is not None:
        made = (t == n) if made_all is None else made_all
        decl = np.where(made, bid.lone.value, -bid.lone.value)
        defs = np.where(made, 0, (n - t) if preset.defenders_vs_lone == "tricks" else 0)
        return decl, defs, made
    made = t >= bid.level
    pen = bid.level if preset.set_penalty is None else preset.set_penalty
    return np.where(made, t, -pen), n - t, made


class _Model:
    """Leaves and backward induction over the deals (as :func:`bideuchre.analysis.par.solve_auction`)."""

    def __init__(self, data: _Data, me: Seat, mine: str = "lo", others: str = "lo"):
        self.d = data
        self.p = data.preset
        self.me = me
        self.bounds = (mine, others)  # "lo" / "hi": failing lone hands of our seat, the others
        self.bids = ladder(self.p)
        self.lone_index = {lb.name: j for j, lb in enumerate(data.lone)}
        self._leaf_cache: dict = {}
        self._memo: dict = {}

    def lone_tricks(self, seat: int, j: int) -> np.ndarray:
        """(S, strains) tricks of a failing lone hand at this model's bound; n where made."""
        d = self.d
        bound = self.bounds[0] if seat == self.me else self.bounds[1]
        t = d.lo[:, seat, j] if bound == "lo" else d.hi[:, seat, j]
        return np.where(d.made[:, seat, j], d.n, t)

    def leaf(self, seat: int, bid: Bid, strain: Optional[int]) -> _Outcome:
        """Outcome when ``seat`` declares ``bid``; ``strain`` fixed (our seat) or None (best
        per deal, as in par)."""
        key = (seat, bid, strain)
        hit = self._leaf_cache.get(key)
        if hit is not None:
            return hit
        d = self.d
        if bid.lone is not None:
            j = self.lone_index[bid.name]
            tr = self.lone_tricks(seat, j)
        else:
            tr = d.dd[:, seat].astype(np.int64)
        if bid.strain is not None:
            t = tr[:, d.strains.index(bid.strain)]
        elif strain is not None:
            t = tr[:, d.strains.index(Strain(strain))]
        else:
            t = tr.max(axis=1)  # results rise with tricks: the best strain has the most
        decl, defs, made = _points(self.p, bid, np.asarray(t, dtype=np.int64))
        ns, ew = (decl, defs) if seat % 2 == 0 else (defs, decl)
        out = _Outcome.of(ns, ew, np.full(d.S, int(seat)), made)
        self._leaf_cache[key] = out
        return out

    def continuation(self, index: int, high: Optional[Bid], high_seat: Optional[int],
                     my_strain: Optional[int]) -> _Outcome:
        """Outcome of the auction from speaker ``index`` on (our turn is over).  Nodes are
        shared between calls: a node whose high bid is not ours does not depend on our
        strain."""
        memo = self._memo
        me = int(self.me)
        p, dealer = self.p, self.d.dealer
        S = self.d.S
        zero = _Outcome.of(np.zeros(S, np.int64), 0, -1, 0)

        def go(i, hi, hs):
            if i == 4 or (hi is not None and hi.ends_auction):
                if hi is None:
                    return zero
                return self.leaf(hs, hi, my_strain if hs == self.me else None)
            key = (i, hi, hs, my_strain if hs == me else None)
            if key in memo:
                return memo[key]
            seat = (dealer + 1 + i) % 4
            sign = 1 if seat % 2 == 0 else -1
            best = None
            for a in legal_actions(p, self.bids, i, hi):
                o = go(i + 1, hi, hs) if a is None else go(i + 1, a, seat)
                if best is None:
                    best = o
                else:
                    best = best.select(sign * o.diff > sign * best.diff, o)
            memo[key] = best
            return best

        return go(index, high, high_seat)


# ---------------------------------------------------------------------------------------------
# Advice

def _parse_known(known, preset: Preset) -> dict:
    """``{Seat: cards}`` from ``{"E": "SA HK"}``, ``["E:SA HK"]`` or ``{Seat: [cards]}``."""
    out: dict = {}
    if not known:
        return out
    items = known.items() if isinstance(known, dict) else (k.split(":", 1) for k in known)
    for s, cards in items:
        seat = parse_seat(str(s).strip() if not isinstance(s, int) else s)
        cs = parse_hand(cards) if isinstance(cards, str) else [parse_card(c) if isinstance(c, str) else c for c in cards]
        out.setdefault(seat, []).extend(cs)
    return out


def _win(preset: Preset, o: _Outcome, my_side: int, us: int, them: int, target: int) -> np.ndarray:
    """Bool array: our side wins the game at the end of this hand (module docstring)."""
    mine = o.ns if my_side == 0 else o.ew
    theirs = o.ew if my_side == 0 else o.ns
    u, t = us + mine, them + theirs
    played = o.side >= 0
    if preset.win_needs_bid_result:
        ok = played & (((o.side == my_side) & o.made) | ((o.side != my_side) & ~o.made))
        return ok & (u >= target)
    if preset.bidders_win_ties:
        return played & (u >= target) & ((t < target) | (o.side == my_side))
    return played & (np.maximum(u, t) >= target) & (u > t)


def default_samples(preset: Preset | str) -> int:
    """Random deals :func:`advise` draws unless told: 500, but 24 for a 12-card hand (double48),
    where one deal's DD table and lone results take seconds (1–3 s a deal on one core of the
    machine in the README)."""
    return 24 if get_preset(preset).deck.hand > 8 else 500


def advise(hand: Sequence[int] | str, seat: int | str, dealer: int | str,
           preset: Preset | str = "standard", auction: Sequence | str = (),
           known=None, samples: int | None = None, seed: int = 1, deals: Iterable[Deal] | None = None,
           score: tuple[int, int] | None = None, target: int | None = None, workers: int = 1,
           exact: bool = False, progress: Callable[[int, int], None] | None = None,
           deal_labels: Sequence[str] | None = None) -> Advice:
    """Bid advice for ``hand`` in ``seat`` (see the module docstring for the model).

    ``hand``: cards or hand text (``"AJ.KQ9..JT"``, ``"SA SJ HK ..."``); ``auction``: the
    actions so far from the dealer's left (text ``"pass 4"`` or a list); it must be ``seat``'s
    turn.  ``known``: cards shown in other seats (``{"E": "SA"}``).  ``samples``/``seed``: the
    random deals (``samples`` None: :func:`default_samples`); ``deals``: full deals instead (exactly reproducible).  ``score``: ``(us,
    them)`` before this hand, with ``target`` (default the preset's): adds the probability of
    winning the game this hand.  ``workers``: threads for the DD searches (results do not
    depend on it).  ``exact``: exact EVs for our lone bids even where they cannot be the best.
    ``progress(done, total)`` is called as deals are solved.  ``deal_labels``: one name per
    given deal for error messages (``"deals.txt: line 7"``).

    Returns an :class:`Advice` (echoing every input that shapes it: seed, samples, auction,
    known cards, score).  Raises NotationError / RulesError for bad input (a hand of
    the wrong size, a card placed twice, an illegal auction, not this seat's turn, a score at
    which the game is already over); ArgumentError for a negative seed (the rule of
    ``batch --generate`` too: :func:`~bideuchre.rules.check_seed`).
    """
    preset = get_preset(preset)
    seat = parse_seat(seat)
    dealer = parse_seat(dealer)
    seed = check_seed(seed)         # one rule with batch --generate: a whole number >= 0
    cards = parse_hand(hand) if isinstance(hand, str) else [parse_card(c) if isinstance(c, str) else c for c in hand]
    auc = Auction.parse(auction, preset, dealer) if isinstance(auction, str) else Auction(preset, dealer, auction)
    if auc.to_act != seat:
        who = "the auction is over" if auc.to_act is None else f"{auc.to_act.name} speaks next"
        raise RulesError(f"it is not {seat.name}'s turn to bid after {str(auc) or 'no bids'!r} (dealer {dealer.name}): {who}")
    known_cards = _parse_known(known, preset)
    tgt = target if target is not None else preset.target
    if score is not None and tgt is not None and max(score) >= tgt:
        raise RulesError(f"score {score[0]}-{score[1]}: the game is already over (target {tgt})")
    if deals is not None:
        deal_list = list(deals)
        _check_hand(preset, cards, known_cards)
        counts = deals_for_hand(deal_list, seat, cards, known_cards, deal_labels)
        seed_out = None
    else:
        if samples is None:
            samples = default_samples(preset)
        if samples < 1:
            raise RulesError(f"--samples must be at least 1, got {samples}")
        counts = sample_deals(preset, seat, cards, known_cards, samples, seed)
        seed_out = seed
    S = counts.shape[0]
    index = len(auc.actions)
    later = [Seat((dealer + 1 + i) % 4) for i in range(index + 1, 4)]
    seats = sorted({int(seat)} | {int(s) for s in later}
                   | ({int(auc.high_seat)} if auc.high_seat is not None else set()))
    done = [0]
    total = S * (2 if preset.lone_bids else 1)

    def tick(k: int) -> None:
        done[0] += k
        if progress:
            progress(min(done[0], total), total)

    data = _Data(counts, preset, dealer, seats, workers, tick, int(seat))
    if progress:
        progress(total, total)
    me = seat
    my_side = seat % 2
    sign = 1 if my_side == 0 else -1
    acts = auc.legal_actions()

    def evaluate(mine: str, others: str):
        """For each action: {strain choice: outcome} (a pass has one, strain None), with
        failing lone hands at the given bounds ("lo"/"hi") for our seat and the others."""
        m = _Model(data, me, mine, others)
        out = []
        for a in acts:
            if a is None:
                out.append({None: m.continuation(index + 1, auc.high, auc.high_seat, None)})
            elif a.strain is not None:
                out.append({int(a.strain): m.continuation(index + 1, a, me, None)})
            else:
                out.append({int(st): m.continuation(index + 1, a, me, int(st)) for st in preset.strains})
        return out

    def disagree(x, y) -> np.ndarray:
        bad = np.zeros(S, dtype=bool)
        for ox, oy in zip(x, y):
            for st in ox:
                bad |= (ox[st].a != oy[st].a).any(axis=0)
        return bad

    notes: list = []
    if data.lone:
        # the other seats' failing lone hands: exact counts on the deals where the bounds
        # disagree (whatever our own bound)
        for mine in ("lo", "hi"):
            idx = np.nonzero(disagree(evaluate(mine, "lo"), evaluate(mine, "hi")))[0]
            if len(idx):
                for s in seats:
                    if s != int(me):
                        for j in range(len(data.lone)):
                            for k in range(len(data.strains)):
                                data.refine(idx, s, j, k)
        lo, hi = evaluate("lo", "lo"), evaluate("hi", "lo")
    else:
        lo = hi = evaluate("lo", "lo")

    def mean_of(o: _Outcome) -> float:
        return float(np.mean(sign * o.diff))

    # our own lone bids: exact counts where the bid could be the best action (or ``exact``)
    base_best = max((max(mean_of(o) for o in lo[i].values())
                     for i, a in enumerate(acts) if a is None or a.lone is None), default=-math.inf)
    inexact: set = set()
    for i, a in enumerate(acts):
        if a is None or a.lone is None:
            continue
        j = data.lone.index(a.lone)
        top = max(mean_of(o) for o in hi[i].values())
        if exact or top >= base_best:
            floor = max(mean_of(o) for o in lo[i].values())
            for k, st in enumerate(data.strains):
                if exact or mean_of(hi[i][int(st)]) >= floor:
                    data.refine(np.nonzero(~data.made[:, me, j, k])[0], int(me), j, k)
        else:
            inexact.add(i)
    if data.lone:
        lo, hi = evaluate("lo", "lo"), evaluate("hi", "lo")
        # a refined strain may now lose to one left as a range: refine until settled
        for i in range(len(acts)):
            a = acts[i]
            if a is None or a.lone is None or i in inexact:
                continue
            j = data.lone.index(a.lone)
            while True:
                best = max(mean_of(o) for o in lo[i].values())
                open_ = [k for k, st in enumerate(data.strains)
                         if mean_of(hi[i][int(st)]) >= best and mean_of(hi[i][int(st)]) != mean_of(lo[i][int(st)])]
                if not open_:
                    break
                for k in open_:
                    data.refine(np.nonzero(~data.made[:, me, j, k])[0], int(me), j, k)
                lo, hi = evaluate("lo", "lo"), evaluate("hi", "lo")

    def _strain_key(st, value):
        """Best mean result; among equals the strain with the most DD tricks for us, then
        the first in the preset's order."""
        if st is None:
            return (value, 0.0, 0)
        k = data.strains.index(Strain(st))
        if a_is_lone[0]:
            extra = float(np.mean(data.made[:, me, a_is_lone[1], k]))
        else:
            extra = float(np.mean(data.dd[:, me, k]))
        return (value, extra, -k)

    a_is_lone = [False, 0]
    results, per_deal = [], []
    n = preset.tricks
    for i, a in enumerate(acts):
        choices = lo[i]
        a_is_lone[:] = [a is not None and a.lone is not None,
                        data.lone.index(a.lone) if a is not None and a.lone is not None else 0]
        best_st = max(choices, key=lambda st: _strain_key(st, mean_of(choices[st])))
        o = choices[best_st]
        v = sign * o.diff
        ev = float(np.mean(v))
        se = float(np.std(v, ddof=1) / math.sqrt(S)) if S > 1 else 0.0
        declared = o.declarer == int(me)
        if a is None:
            p_make = None
        else:
            k = data.strains.index(Strain(best_st)) if best_st is not None else None
            if a.lone is not None:
                p_make = float(np.mean(data.made[:, me, data.lone.index(a.lone), k]))
            else:
                p_make = float(np.mean(data.dd[:, me, k] >= a.level))
        st_name = None if best_st is None else Strain(best_st).name
        r = ActionResult(format_action(a), st_name, ev, se, p_make,
                         float(np.mean(declared)) if a is not None else 0.0)
        if i in inexact:
            r.exact = False
            r.ev_max = max(mean_of(oo) for oo in hi[i].values())
        if score is not None:
            if tgt is not None:
                r.p_win = float(np.mean(_win(preset, o, my_side, score[0], score[1], tgt)))
        results.append(r)
        per_deal.append(v)
    recommend = results[0]
    for r in results[1:]:
        if r.ev > recommend.ev:
            recommend = r
    # paired standard error of the difference to the recommendation (same deals)
    vb = per_deal[results.index(recommend)]
    for r, v in zip(results, per_deal):
        r.se_vs_best = float(np.std(v - vb, ddof=1) / math.sqrt(S)) if S > 1 else 0.0
    best_game = None
    if score is not None:
        if tgt is None:
            notes.append(f"preset {preset.name} is played over {preset.hands} hands: no target decides the game")
        else:
            best_game = recommend            # ties (none can win, say) keep the EV choice
            for r in results:
                if r.p_win > best_game.p_win:
                    best_game = r

    # per strain: our seat declaring
    stats = {}
    for k, st in enumerate(data.strains):
        t = data.dd[:, me, k]
        hist = np.bincount(t, minlength=n + 1)[: n + 1].tolist()
        levels = sorted({b.level for b in ladder(preset) if b.lone is None})
        stats[st] = StrainStats(hist, float(np.mean(t)),
                                {lv: float(np.mean(t >= lv)) for lv in levels},
                                {lb.name: float(np.mean(data.made[:, me, j, k]))
                                 for j, lb in enumerate(data.lone)})
    laid = {name: [str(Card(c)) for c in d] for name, d in data.laid_down.items()}
    return Advice(preset, seat, dealer, cards, list(auc.actions), seed_out, S, results, recommend,
                  stats, best_game, score, tgt if score else None,
                  notes, laid, known_cards)
