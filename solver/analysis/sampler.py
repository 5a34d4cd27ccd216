"""One seat's view of a hand in play, and the deals consistent with it (single dummy).

At the table a player sees one hand, the cards played and any card shown.  :class:`SeatView`
reads that view (the seat's hand as dealt, the strain, the first leader, the cards played so
far in order, a lone seat, cards known in other seats) and derives what it implies about the
unseen cards (RULES.md §1):

- each other seat still holds as many cards as it was dealt less the cards it played;
- a seat that did not follow the led suit is **void** in it from then on; suits are effective
  suits, so under a trump strain the left bower belongs to the trump suit (a seat that showed
  out of trumps holds no left bower, and one that showed out of the left bower's printed suit
  may still hold it);
- a card known in a seat (``known``: a card shown) is in that seat.

The deals consistent with the view are the ways to deal the unseen cards to the other seats
within those limits.  **Decision** (RULES.md is silent): they are equally likely as outcomes
of the shuffle, which tells the two copies of a double-deck card apart; a deal of card
*counts* therefore weighs the number of ways its copies can be told apart (2 when the two
unseen copies of a card lie in different hands, else 1).  In a single deck every deal weighs
1.  The play itself is not read here for inferences beyond the voids (a defender's choice of
card says nothing), as in bridge's simple single-dummy models; the play model
(:mod:`bideuchre.analysis.play_model`, ``play --play-model``) reweights these deals by it.

In a lone hand the lone player's partner sits out: that seat is dealt unseen cards like the
others (they are out of play) but shows no voids.  A lone bid's card exchange is not
modelled: the hands are those of the deal as played (as hand records give them, README).

Counting, sampling and enumeration share one dynamic programme over the distinct unseen cards
(card by card, the state being the cards each hidden seat still has room for):
:meth:`SeatView.count` gives the number of consistent deals (distinct, and weighted as
above), :meth:`SeatView.sample` draws deal ``i`` of a seed exactly from that distribution with
:func:`bideuchre.analysis.advice.sample_rng` ``(seed, i)`` (so samples do not depend on the
number of workers), and :meth:`SeatView.enumerate` lists every consistent deal with its weight.
"""

from __future__ import annotations

import bisect
from typing import Iterable

import numpy as np

from ..notation import counted, format_hand, parse_card, parse_hand
from ..rules import (
    Card, DeckForm, IllegalPlayError, NotationError, RulesError, Seat, Side,
    effective_suit, get_deck, next_active, parse_seat, parse_strain, trick_winner,
)
from .advice import sample_rng
from .explain import card_groups

__all__ = ["view_groups", "SeatView"]


def _cards(value, where: str) -> list[Card]:
    if isinstance(value, str):
        return parse_hand(value, where=where)
    return [parse_card(c) if isinstance(c, str) else Card(c) for c in value]


class SeatView:
    """What ``seat`` knows during the play, and the deals consistent with it.

    Arguments: ``deck`` (a DeckForm or its name); ``seat``; ``hand`` (the seat's cards as
    dealt: hand text ``"AJ.KQ..JT"``, tokens, or Cards; a full hand of ``deck.hand`` cards);
    ``strain``; ``leader`` (the seat that led the first trick; a lead falling on a lone hand's
    empty seat passes on, RULES.md §1); ``played`` (every card played so far in order from
    the first lead, possibly mid-trick); ``lone`` (the lone seat or None); ``known``
    (``{seat: cards}`` known to be dealt to other seats, played since or not).

    Attributes after construction: ``to_move`` (Seat: it must be ``seat``'s turn unless
    ``need_turn`` is False), ``trick`` (list of (Seat, Card) on the table), ``trick_leader``,
    ``won`` (tricks per Side so far), ``left`` (tricks not yet complete), ``voids``
    (``{Seat: set of effective suits}``), ``hidden`` (the seats with unseen cards, the seat out
    last), ``room`` (unseen cards each hidden seat holds), ``pool`` (24 counts of the unseen
    cards), ``base`` (a 4 × 24 uint8 array of the remaining cards already placed: the seat's
    own and the known ones), ``played_by`` (4 × 24 uint8: the cards each seat has played; a
    consistent deal's remaining cards plus these are the hands as dealt), ``out`` (the seat
    out or None), ``known`` (``{Seat: sorted Cards}`` as given, played since or not).

    Raises NotationError for a hand of the wrong size or a card the deck lacks or holds too
    few of; IllegalPlayError (naming the trick, seat and card) for a card played that the view
    rules out: not in the seat's own hand, not following suit when able, every copy already
    seen, a suit the player showed out of earlier, or more cards than a hand holds; RulesError
    when it is not ``seat``'s turn or ``seat`` sits out.
    """

    def __init__(self, deck: str | DeckForm, seat: int | str, hand, strain: int | str,
                 leader: int | str, played: Iterable = (), lone: int | str | None = None,
                 known: dict | None = None, need_turn: bool = True):
        self.deck = get_deck(deck)
        self.seat = parse_seat(seat)
        self.strain = parse_strain(strain)
        self.lone = None if lone is None else parse_seat(lone)
        self.out = None if self.lone is None else self.lone.partner
        if self.seat == self.out:
            raise RulesError(f"seat {self.seat.name} sits out (lone {self.lone.name}): it plays no card")
        n = self.deck.hand
        self.hand = sorted(_cards(hand, "HAND"))
        if len(self.hand) != n:
            raise NotationError(f"HAND holds {counted(len(self.hand), 'card')}; {self.deck.name} deals {n}")
        copies = np.zeros(24, dtype=np.int64)
        for c in self.deck.card_ids:
            copies[c] = self.deck.copies
        unseen = copies.copy()
        for c in self.hand:
            if unseen[c] == 0:
                raise NotationError(f"HAND: card {c} is not in the {self.deck.name} deck or held too often")
            unseen[c] -= 1
        known_left: dict[Seat, list[int]] = {}
        for s, cards in (known or {}).items():
            s = parse_seat(s)
            if s == self.seat:
                raise NotationError(f"--known names the seat advised ({s.name}); its cards are HAND")
            cs = _cards(cards, f"--known {s.name}")
            if len(cs) + len(known_left.get(s, [])) > n:
                raise NotationError(f"--known {s.name}: {counted(len(cs), 'card')}, more than a hand of {n}")
            for c in cs:
                if unseen[c] == 0:
                    raise NotationError(f"--known {s.name}: card {c} is already placed (HAND or another "
                                        f"--known) or not in the {self.deck.name} deck")
                unseen[c] -= 1
            known_left.setdefault(s, []).extend(int(c) for c in cs)
        self.known = {s: sorted(Card(c) for c in cs) for s, cs in sorted(known_left.items())}
        own = [int(c) for c in self.hand]
        cards = [parse_card(c) if isinstance(c, str) else Card(c) for c in
                 (played.split() if isinstance(played, str) else played)]
        st = int(self.strain)
        lead = parse_seat(leader)
        if self.out is not None and lead == self.out:
            lead = next_active(lead, self.out)
        self.first_leader = lead
        size = 3 if self.out is not None else 4
        nplayed = [0, 0, 0, 0]
        played_by = np.zeros((4, 24), dtype=np.uint8)
        voids: dict[Seat, set] = {s: set() for s in Seat}
        trick: list[tuple[Seat, Card]] = []
        won = {Side.NS: 0, Side.EW: 0}
        to_move = lead
        for k, card in enumerate(cards):
            p = to_move
            where = f"trick {k // size + 1}: {p.name}"
            if nplayed[p] >= n:
                raise IllegalPlayError(f"{where} cannot play {card}: the hand is over")
            u = int(effective_suit(card, st))
            led = int(effective_suit(trick[0][1], st)) if trick else None
            if p == self.seat:
                if int(card) not in own:
                    raise IllegalPlayError(f"{where} cannot play {card}: not in HAND ({format_hand(own)})")
                if led is not None and u != led and any(int(effective_suit(c, st)) == led for c in own):
                    raise IllegalPlayError(f"{where} cannot play {card}: must follow {'SHDC'[led]} "
                                           f"(led {trick[0][1]})")
                own.remove(int(card))
            else:
                mine = known_left.get(p, [])
                if int(card) in mine:
                    mine.remove(int(card))
                elif unseen[card] > 0:
                    unseen[card] -= 1
                else:
                    raise IllegalPlayError(f"{where} cannot play {card}: every copy is accounted for "
                                           f"(HAND, cards played or --known)")
                if u in voids[p]:
                    raise IllegalPlayError(f"{where} cannot play {card}: {p.name} showed out of "
                                           f"{'SHDC'[u]} earlier")
                if led is not None and u != led:
                    if any(int(effective_suit(c, st)) == led for c in mine):
                        raise IllegalPlayError(f"{where} cannot play {card}: must follow {'SHDC'[led]} "
                                               f"(holds a known card of it)")
                    voids[p].add(led)
            nplayed[p] += 1
            played_by[p, int(card)] += 1
            trick.append((p, card))
            if len(trick) == size:
                w = trick[trick_winner([c for _, c in trick], st)][0]
                won[w.side] += 1
                trick = []
                to_move = w
            else:
                to_move = next_active(p, self.out)
        self.played = cards
        self.played_by = played_by
        self.to_move = to_move
        self.trick = trick
        self.trick_leader = trick[0][0] if trick else to_move
        self.won = won
        self.left = n - nplayed[to_move]      # to_move has not played to the current trick
        if self.left == 0:
            raise RulesError("the hand is over: no card left to play")
        if need_turn and to_move != self.seat:
            raise RulesError(f"it is {to_move.name}'s turn after {counted(len(cards), 'card')} played, "
                             f"not {self.seat.name}'s")
        self.voids = voids
        self.own = own
        # the hidden seats, the seat out last (it shows no voids and plays no card)
        hidden = [s for s in Seat if s != self.seat and s != self.out]
        if self.out is not None:
            hidden.append(self.out)
        self.hidden = hidden
        self.room = [n - nplayed[s] - len(known_left.get(s, [])) for s in hidden]
        for s, r in zip(hidden, self.room):
            if r < 0:
                raise IllegalPlayError(f"{s.name} played and showed more cards than a hand of {n}")
        self.pool = unseen
        base = np.zeros((4, 24), dtype=np.uint8)
        for c in own:
            base[self.seat, c] += 1
        for s, cs in known_left.items():
            for c in cs:
                base[s, c] += 1
        self.base = base
        self.known_left = known_left
        # the distinct unseen cards and, per hidden seat, whether it may hold each
        self._cards = [c for c in range(24) if unseen[c]]
        suit = [int(effective_suit(c, st)) for c in range(24)]
        self._allowed = [[suit[c] not in voids[s] for s in hidden] for c in self._cards]
        self._memo: dict = {}
        self._cum: dict = {}
        if sum(self.room) != int(unseen.sum()) or self.count()[0] == 0:
            raise IllegalPlayError("no deal is consistent with the cards played and shown "
                                   "(the voids shown leave no room for the unseen cards)")

    # -- the dynamic programme ----------------------------------------------------------------
    def _splits(self, i: int, room: tuple) -> list[tuple[tuple, int]]:
        """Ways to deal the copies of the i-th distinct unseen card: (room left after, weight
        of telling the copies apart), for each placement the voids and the room allow."""
        c = self._cards[i]
        ok = self._allowed[i]
        h = len(room)
        out = []
        if self.pool[c] == 1:
            for a in range(h):
                if ok[a] and room[a]:
                    r = list(room)
                    r[a] -= 1
                    out.append((tuple(r), 1, (a,)))
        else:
            for a in range(h):
                for b in range(a, h):
                    if not (ok[a] and ok[b]):
                        continue
                    r = list(room)
                    r[a] -= 1
                    r[b] -= 1
                    if r[a] < 0 or r[b] < 0:
                        continue
                    out.append((tuple(r), 1 if a == b else 2, (a, b)))
        return out

    def _count(self, i: int, room: tuple) -> tuple[int, int]:
        """(distinct deals, weighted deals) of the unseen cards from the i-th on into ``room``."""
        key = (i, room)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        if i == len(self._cards):
            res = (1, 1) if not any(room) else (0, 0)
        else:
            d = w = 0
            for r, wt, _ in self._splits(i, room):
                a, b = self._count(i + 1, r)
                d += a
                w += wt * b
            res = (d, w)
        self._memo[key] = res
        return res

    def count(self) -> tuple[int, int]:
        """``(distinct, weighted)``: the number of consistent deals, and their total weight (the
        number of shuffles they stand for; equal to ``distinct`` in a single deck)."""
        return self._count(0, tuple(self.room))

    def sample(self, seed: int, index: int) -> np.ndarray:
        """Consistent deal ``index`` of ``seed`` (:func:`~bideuchre.analysis.advice.sample_rng`):
        the remaining cards as a 4 × 24 uint8 count array, drawn card by card with the exact
        conditional probabilities (so every consistent shuffle is equally likely)."""
        rng = sample_rng(seed, index)
        out = self.base.copy()
        room = tuple(self.room)
        u = rng.random(len(self._cards))
        hidden = self.hidden
        for i, c in enumerate(self._cards):
            cum, opts = self._choices(i, room)
            k = bisect.bisect_right(cum, u[i] * cum[-1]) if len(opts) > 1 else 0
            room, seats = opts[min(k, len(opts) - 1)]
            for a in seats:
                out[hidden[a], c] += 1
        return out

    def _choices(self, i: int, room: tuple) -> tuple[list, list]:
        """The placements of the i-th distinct unseen card from ``room`` with their cumulative
        weights (weight of telling the copies apart × weighted deals of the rest), cached."""
        key = (i, room)
        hit = self._cum.get(key)
        if hit is None:
            cum, opts, total = [], [], 0
            for r, wt, seats in self._splits(i, room):
                w = wt * self._count(i + 1, r)[1]
                if w:
                    total += w
                    cum.append(total)
                    opts.append((r, seats))
            hit = self._cum[key] = (cum, opts)
        return hit

    def samples(self, seed: int, count: int, start: int = 0) -> np.ndarray:
        """Deals ``start .. start + count - 1`` of ``seed``: an ``(count, 4, 24)`` uint8 array,
        each deal the one :meth:`sample` draws from its own generator (the same uniforms), the
        card-by-card walk done for all of them at once."""
        m = len(self._cards)
        out = np.broadcast_to(self.base, (count, 4, 24)).copy()
        if count == 0 or m == 0:
            return out
        u = np.empty((count, m))
        for k in range(count):
            u[k] = sample_rng(seed, start + k).random(m)
        states = {tuple(self.room): np.arange(count)}      # room left -> the deals in it
        hidden = self.hidden
        for i, c in enumerate(self._cards):
            nxt: dict = {}
            for room, rows in states.items():
                cum, opts = self._choices(i, room)
                if len(opts) > 1 and cum[-1] < 2 ** 53:      # the totals exact as float64
                    cum_a = np.asarray(cum, dtype=np.float64)
                    k = np.minimum(np.searchsorted(cum_a, u[rows, i] * cum_a[-1], side="right"),
                                   len(opts) - 1)
                elif len(opts) > 1:                           # sample()'s exact comparison
                    k = np.array([min(bisect.bisect_right(cum, x * cum[-1]), len(opts) - 1)
                                  for x in u[rows, i]], dtype=np.int64)
                else:
                    k = None
                # the placements drawn, in order (np.unique's, without its sort)
                for o in (np.flatnonzero(np.bincount(k, minlength=len(opts))) if k is not None else (0,)):
                    sub = rows if k is None else rows[k == o]
                    r, seats = opts[int(o)]
                    for a in seats:
                        out[sub, hidden[a], c] += 1
                    prev = nxt.get(r)
                    nxt[r] = sub if prev is None else np.concatenate([prev, sub])
            states = nxt
        return out

    def enumerate(self, limit: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Every consistent deal: ``(counts, weights)``, an ``(D, 4, 24)`` uint8 array of the
        remaining cards and an ``(D,)`` int64 array of weights (see the module docstring), in
        the order of the placements (the first unseen card's first, then the next's).  Built a
        card at a time for all partial deals at once, each extended only by placements that
        leave a consistent rest.  Raises RulesError when there are more than ``limit`` deals."""
        total = self.count()[0]
        if limit is not None and total > limit:
            raise RulesError(f"{counted(total, 'consistent deal')}, more than the limit {limit:,}")
        hidden = self.hidden
        m, h = len(self._cards), len(self.room)
        # per partial deal: the placement chosen for each card so far, its room left, its weight
        choice = np.zeros((1, m), dtype=np.int16)
        rooms = np.array([self.room], dtype=np.int16)
        weights = np.ones(1, dtype=np.int64)
        splits = []                                           # per card: the seats of each code
        for i in range(m):
            uniq, inv = np.unique(rooms, axis=0, return_inverse=True)
            inv = inv.reshape(-1)
            codes: dict = {}
            per = []                                          # per distinct room: its placements
            for room in uniq:
                per.append([(r, wt, codes.setdefault(seats, len(codes)))
                            for r, wt, seats in self._splits(i, tuple(int(x) for x in room))
                            if self._count(i + 1, r)[0] > 0])
            width = max(1, max(len(o) for o in per))
            t_room = np.zeros((len(uniq), width, h), dtype=np.int16)
            t_w = np.zeros((len(uniq), width), dtype=np.int64)
            t_code = np.zeros((len(uniq), width), dtype=np.int16)
            nopt = np.array([len(o) for o in per], dtype=np.int64)
            for u, o in enumerate(per):
                for k, (r, wt, code) in enumerate(o):
                    t_room[u, k], t_w[u, k], t_code[u, k] = r, wt, code
            kids = nopt[inv]                                  # children of each partial deal
            par = np.repeat(np.arange(len(inv)), kids)        # parent-major: the placements' order
            k = np.arange(len(par)) - np.repeat(np.cumsum(kids) - kids, kids)
            g = inv[par]
            choice = choice[par]
            choice[:, i] = t_code[g, k]
            weights = weights[par] * t_w[g, k]
            rooms = t_room[g, k]
            splits.append(list(codes))
        counts = np.broadcast_to(self.base, (len(rooms), 4, 24)).copy()
        for i, c in enumerate(self._cards):
            for code, seats in enumerate(splits[i]):
                rows = np.flatnonzero(choice[:, i] == code)
                for a in seats:
                    counts[rows, hidden[a], c] += 1
        return counts, weights

    # -- the rest of the view -------------------------------------------------------------------
    def legal_cards(self) -> list[Card]:
        """The distinct cards the seat may play now (follow the led suit if able)."""
        from ..rules import legal_cards
        led = self.trick[0][1] if self.trick else None
        return legal_cards(self.own, led, self.strain)

    def dealt_hands(self, remaining: np.ndarray) -> list[list[Card]]:
        """The hands as dealt for one consistent deal (``remaining``: 4 × 24 counts): each
        seat's remaining cards plus the cards it played (to build a Deal and check it)."""
        hands = [[Card(c) for c in range(24) for _ in range(int(remaining[s, c]))] for s in range(4)]
        for seat, card, _, _ in self.steps():
            hands[seat].append(Card(card))
        return [sorted(h) for h in hands]

    def steps(self) -> list[tuple[int, int, int, list[int]]]:
        """The cards played, in order, each ``(seat, card, trick leader, the trick's cards
        before it)`` (ints)."""
        size = 3 if self.out is not None else 4
        st = int(self.strain)
        out = []
        to_move, trick = self.first_leader, []
        for card in self.played:
            out.append((int(to_move), int(card), int(trick[0][0] if trick else to_move),
                        [int(c) for _, c in trick]))
            trick.append((to_move, card))
            if len(trick) == size:
                to_move = trick[trick_winner([c for _, c in trick], st)][0]
                trick = []
            else:
                to_move = next_active(to_move, self.out)
        return out

def view_groups(view: SeatView) -> list[list[int]]:
    """The legal cards of the seat to move in groups of equivalent ones (touching with respect
    to every card still in play; :func:`~bideuchre.analysis.explain.card_groups`), in the order the
    advice lists them before sorting."""
    present = [c for c in range(24) for _ in range(int(view.pool[c]))]
    present += [c for s, cs in view.known_left.items() if s != view.out for c in cs]   # out of play
    present += [int(c) for _, c in view.trick]
    return card_groups([int(c) for c in view.legal_cards()], present, int(view.strain))
