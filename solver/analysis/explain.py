"""Explain the play: every card's value, the principal variation, the analysis of a played hand.

What DDS gives bridge players (``SolveBoard`` scoring every legal card, ``AnalysePlay``), for Bid
Euchre (RULES.md §1 for the play, §3 for the terms):

- :func:`card_values` — for the player to move, each legal card with the double-dummy (DD)
  result if it is played (tricks for each side over the whole hand), the optimal cards marked,
  equivalent cards (touching in one hand relative to the cards still in play, identical copies)
  grouped as one choice;
- :func:`principal_variation` — the line of best play from a position to the end of the hand,
  trick by trick, with each trick's winner;
- :func:`explain` — both, plus for each non-optimal card the best reply line showing where its
  trick goes;
- :func:`analyse_play` / :func:`analyse_record` — the DD value before the first card and after
  every card of a played hand, each card that lost tricks marked with its cost, who made the
  mistake, the cards that were right instead, and the tricks lost per seat.

All searches go through this thread's :func:`bideuchre.search.solve.get_solver` context, whose
transposition table persists between calls: the position is solved once, then each card is
checked with a null-window ``can_take`` at the known value, and only a card that loses tricks
is counted exactly.  Values are tricks (ints).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np

from ..notation import Deal, Position, parse_cards
from ..rules import Card, RulesError, Seat, Side, effective_suit, next_active, parse_seat, rank_order
from ..search.solve import get_solver

__all__ = [
    "CardValue", "TrickLine", "Explanation", "PlayStep", "PlayAnalysis", "HandScore",
    "card_values", "principal_variation", "explain", "analyse_play", "analyse_record",
    "equivalent_groups", "card_groups", "score_play", "record_preset",
]


# ---------------------------------------------------------------------------------------------
# Results

def _sides(ns: int, total: int) -> dict[Side, int]:
    return {Side.NS: ns, Side.EW: total - ns}


def _sides_json(v: dict[Side, int]) -> dict[str, int]:
    return {"NS": v[Side.NS], "EW": v[Side.EW]}


@dataclass
class TrickLine:
    """One trick of a line of play.

    ``number`` is 1-based within the hand; ``cards`` the (seat, card) pairs in play order,
    leader first, including ``played`` cards that were already on the table when the line
    started (a line from a mid-trick position); ``winner`` the seat that takes the trick.
    """

    number: int
    leader: Seat
    cards: list[tuple[Seat, Card]]
    winner: Seat
    played: int = 0

    def to_json(self) -> dict:
        return {"trick": self.number, "leader": self.leader.name,
                "cards": [str(c) for _, c in self.cards],
                "seats": [s.name for s, _ in self.cards],
                "winner": self.winner.name, "already_played": self.played}


@dataclass
class CardValue:
    """One choice of the player to move: a card and the cards equivalent to it.

    ``card``: the card shown (the highest of its group); ``equivalent``: the other cards of
    the group (same DD value by construction); ``tricks``: tricks for each side over the whole
    hand if it is played, with best play after; ``optimal``: whether it keeps the position's DD
    value; ``cost``: tricks it loses the mover's side (0 when optimal); ``line``: the best play
    after it to the end of the hand (the card's own trick first), or None when not computed.
    """

    card: Card
    equivalent: tuple[Card, ...]
    tricks: dict[Side, int]
    optimal: bool
    cost: int
    line: list[TrickLine] | None = None

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card of the group, the shown one first."""
        return (self.card,) + self.equivalent

    def to_json(self) -> dict:
        obj = {"card": str(self.card), "tricks": _sides_json(self.tricks), "optimal": self.optimal,
               "equivalent": [str(c) for c in self.equivalent], "cost": self.cost}
        if self.line is not None:
            obj["line"] = [t.to_json() for t in self.line]
        return obj


@dataclass
class Explanation:
    """The explanation of a position: its DD ``value`` (tricks per side over the whole hand),
    the player ``to_move``, ``cards`` (one :class:`CardValue` per group, best first) and ``pv``
    (the principal variation, one :class:`TrickLine` per trick to the end of the hand)."""

    position: Position
    value: dict[Side, int]
    to_move: Seat | None
    cards: list[CardValue]
    pv: list[TrickLine]

    def to_json(self) -> dict:
        pos = self.position
        obj = {"deal": pos.deal.pbn(), "deck": pos.deal.deck.name, "strain": pos.strain.name,
               "leader": pos.leader.name, "played": [str(c) for c in pos.played],
               "to_move": None if self.to_move is None else self.to_move.name,
               "value": _sides_json(self.value),
               "cards": [c.to_json() for c in self.cards],
               "pv": [t.to_json() for t in self.pv]}
        if pos.lone is not None:
            obj["lone"] = pos.lone.name
        return obj


@dataclass
class PlayStep:
    """One card of a played hand and what it did to the DD value.

    ``index``: 0-based in the play; ``trick``: 1-based trick number; ``seat``/``card``: who
    played what; ``before``/``value``: DD tricks per side over the whole hand before and after
    the card; ``cost``: tricks the card lost its side (0: it kept the value); ``best``: when
    ``cost`` > 0, the cards that were right instead (every card of every optimal group);
    ``winner``: the trick's winner when the card completes a trick, else None.
    """

    index: int
    trick: int
    seat: Seat
    card: Card
    before: dict[Side, int]
    value: dict[Side, int]
    cost: int
    best: list[Card] = field(default_factory=list)
    winner: Seat | None = None

    def to_json(self) -> dict:
        obj = {"card": str(self.card), "seat": self.seat.name, "value": _sides_json(self.value),
               "cost": self.cost, "trick": self.trick}
        if self.cost:
            obj["best"] = [str(c) for c in self.best]
        if self.winner is not None:
            obj["winner"] = self.winner.name
        return obj


@dataclass
class PlayAnalysis:
    """The analysis of a played hand (DDS ``AnalysePlay``).

    ``start``: DD tricks per side before the first card; ``steps``: one :class:`PlayStep` per
    card played; ``lost``: tricks lost per seat (sum of its cards' costs; every seat listed);
    ``declarer``: the declarer when known (for display).
    """

    position: Position
    start: dict[Side, int]
    steps: list[PlayStep]
    lost: dict[Seat, int]
    declarer: Seat | None = None

    @property
    def mistakes(self) -> list[PlayStep]:
        """The steps whose card lost tricks."""
        return [s for s in self.steps if s.cost]

    @property
    def complete(self) -> bool:
        """Whether the cards played finish the hand (``position`` is the start of the hand)."""
        return len(self.steps) == self.position.tricks_left * self.position.trick_size

    @property
    def final(self) -> dict[Side, int]:
        """DD tricks per side after the last card played."""
        return self.steps[-1].value if self.steps else self.start

    def to_json(self) -> dict:
        pos = self.position
        obj = {"deal": pos.deal.pbn(), "deck": pos.deal.deck.name, "strain": pos.strain.name,
               "leader": pos.leader.name, "start": _sides_json(self.start),
               "steps": [s.to_json() for s in self.steps],
               "lost": {s.name: n for s, n in self.lost.items()}}
        if pos.lone is not None:
            obj["lone"] = pos.lone.name
        if self.declarer is not None:
            obj["declarer"] = self.declarer.name
        return obj


# ---------------------------------------------------------------------------------------------
# A light mirror of a Position for the search: card counts as the core wants them

_SUIT = [[int(effective_suit(c, s)) for c in range(24)] for s in range(6)]
_ORDER = [[rank_order(c, s) for c in range(24)] for s in range(6)]
_SORT = [[_SUIT[s][c] * 8 + 7 - _ORDER[s][c] for c in range(24)] for s in range(6)]   # suit, high first
_NEXT = {out: [int(next_active(s, None if out < 0 else out)) for s in range(4)] for out in range(-1, 4)}


class _Walk:
    """Counts (4 × 24 uint8 for the core, and a list mirror for Python), the current trick
    and the tricks won, with push/pop; every search question goes to the core with this
    state.  Card suits and orders come from tables built from bideuchre.rules."""

    __slots__ = ("counts", "h", "strain", "out", "size", "trick", "seats", "leader", "won", "left",
                 "solver", "hist", "suit", "order", "nxt", "trump")

    def __init__(self, pos: Position):
        self.out = -1 if pos.out is None else int(pos.out)
        self.h = [list(r) if s != self.out else [0] * 24 for s, r in enumerate(pos.hands)]
        self.counts = np.frombuffer(bytearray(self.h[0] + self.h[1] + self.h[2] + self.h[3]),
                                    dtype=np.uint8).reshape(4, 24)
        self.strain = int(pos.strain)
        self.trump = self.strain if self.strain < 4 else -1
        self.nxt = _NEXT[self.out]
        self.size = pos.trick_size
        self.trick = [int(c) for _, c in pos.trick]
        self.seats = [int(s) for s, _ in pos.trick]
        self.leader = int(pos.trick[0][0]) if pos.trick else int(pos.to_move)
        self.won = [pos.tricks_won[Side.NS], pos.tricks_won[Side.EW]]
        # tricks not yet complete, the current one included (counted from the hand of the
        # current trick's leader, who has played to it already)
        self.left = sum(self.h[self.leader]) + (1 if self.trick else 0)
        self.solver = get_solver(pos.deal.deck)
        self.hist: list[tuple] = []
        self.suit = _SUIT[self.strain]
        self.order = _ORDER[self.strain]

    @property
    def to_move(self) -> int:
        return self.nxt[self.seats[-1]] if self.trick else self.leader

    def legal(self) -> list[int]:
        row = self.h[self.to_move]
        held = [c for c in range(24) if row[c]]
        if self.trick:
            suit = self.suit
            led = suit[self.trick[0]]
            follow = [c for c in held if suit[c] == led]
            if follow:
                return follow
        return held

    def winner_index(self, trick: list[int]) -> int:
        """Index of the winning card (RULES.md §1, as bideuchre.rules.trick_winner: highest trump,
        else highest of the suit led; of identical cards the first played)."""
        suit, order, trump = self.suit, self.order, self.trump
        best = 0
        bs, bo = suit[trick[0]], order[trick[0]]
        for i in range(1, len(trick)):
            s, o = suit[trick[i]], order[trick[i]]
            if (s == bs and o > bo) or (s == trump and bs != trump):
                best, bs, bo = i, s, o
        return best

    def push(self, card: int) -> int | None:
        """Play ``card`` for the player to move; the trick's winner when it completes it."""
        p = self.to_move
        self.hist.append((self.leader, self.trick, self.seats, self.won, self.left))
        self.counts[p, card] -= 1
        self.h[p][card] -= 1
        trick = self.trick + [card]
        seats = self.seats + [p]
        if len(trick) == self.size:
            w = seats[self.winner_index(trick)]
            won = list(self.won)
            won[w & 1] += 1
            self.won = won
            self.left -= 1
            self.leader = w
            self.trick = []
            self.seats = []
            return w
        self.trick = trick
        self.seats = seats
        return None

    def pop(self, card: int) -> None:
        """Take back ``card`` (the last card pushed)."""
        self.leader, self.trick, self.seats, self.won, self.left = self.hist.pop()
        p = self.to_move
        self.counts[p, card] += 1
        self.h[p][card] += 1

    # -- questions to the core (NS tricks of the rest, the current trick included) ----------
    def rest(self, guess: int = -1) -> int:
        if self.left == 0:
            return 0
        return self.solver.solve(self.counts, self.strain, self.leader, self.out, self.trick, guess)

    def values(self, cards: Sequence[int], rest: int, last_keeps: bool = False) -> list[int]:
        """NS tricks of the rest after each of ``cards`` (the player to move's), given
        ``rest``, the rest's exact value now (see ``Solver.values``)."""
        return self.solver.values(self.counts, self.strain, self.leader, self.out, self.trick,
                                  cards, rest, last_keeps)

    def can(self, target: int) -> bool:
        if target <= 0:
            return True
        if target > self.left:
            return False
        return self.solver.can_take(self.counts, self.strain, self.leader, self.out, self.trick, target)

    def total(self) -> int:
        return self.won[0] + self.won[1] + self.left


def equivalent_groups(pos: Position) -> list[list[Card]]:
    """The legal cards of the player to move in groups of equivalent cards, best first within a
    group's suit order.

    Two cards of the mover are equivalent when they are in the same effective suit and no card
    still in play elsewhere (another active hand or the current trick) ranks between them or
    equals either of them (RULES.md §1: of identical cards the first played wins, so a copy
    held elsewhere separates).  Identical copies in the mover's hand are one card already.
    Returns a list of groups, each a list of Card from highest to lowest; groups are in suit
    order (S H D C, the effective suit) and then from high to low.
    """
    present = [c for s in pos.seats if s != pos.to_move for c in range(24) if pos.hands[s][c]]
    present += [int(c) for _, c in pos.trick]
    return [[Card(c) for c in g]
            for g in card_groups([int(c) for c in pos.legal_cards()], present, pos.strain)]


def card_groups(legal: Sequence[int], present: Iterable[int], strain: int) -> list[list[int]]:
    """Group ``legal`` (distinct card ids of one hand) into equivalent cards; ``present``: the
    ids of the cards in play elsewhere.  Groups in effective-suit order, high to low."""
    suit, order = _SUIT[strain], _ORDER[strain]
    pm = [0, 0, 0, 0]                  # per effective suit: bit o set when order o is present
    for x in present:
        pm[suit[x]] |= 1 << order[x]
    groups: list[list[int]] = []
    prev = -1
    for c in sorted(legal, key=_SORT[strain].__getitem__):
        if prev >= 0 and suit[prev] == suit[c]:
            lo, hi = order[c], order[prev]
            if not pm[suit[c]] & ((2 << hi) - (1 << lo)):
                groups[-1].append(c)
                prev = c
                continue
        groups.append([c])
        prev = c
    return groups


def _walk_groups(w: _Walk) -> list[list[int]]:
    p = w.to_move
    a, b, c = [w.h[s] for s in range(4) if s != p]
    present = [x for x in range(24) if a[x] or b[x] or c[x]]
    present.extend(w.trick)
    return card_groups(w.legal(), present, w.strain)


# ---------------------------------------------------------------------------------------------
# Scoring every card

def _score_groups(w: _Walk, root: int, groups: list[list[int]]) -> list[tuple[int, bool]]:
    """(NS total tricks, optimal) per group for the mover of ``w`` whose rest is worth ``root``
    NS tricks: in the core, a null-window check at the known value for each group's card, an
    exact count only for a card that loses tricks (the last group keeps the value when no
    other does)."""
    base = w.won[0]
    rests = w.values([g[0] for g in groups], root, last_keeps=True)
    return [(base + r, r == root) for r in rests]


def card_values(position: Position, lines: bool = False) -> list[CardValue]:
    """Every legal card of the player to move with its DD result, best first.

    Returns one :class:`CardValue` per group of equivalent cards (see
    :func:`equivalent_groups`): ``tricks`` per side over the whole hand (tricks already won plus
    best play after the card), ``optimal`` when it keeps the position's DD value, ``cost`` the
    tricks it loses the mover's side.  Sorted best first for the mover, then in suit order.
    With ``lines`` each value carries the best play after its card to the end of the hand.
    Returns [] when the hand is over.  Does not change ``position``.
    """
    if position.is_over:
        return []
    w = _Walk(position)
    root = w.rest()
    return _card_values(w, root, lines)


def _card_values(w: _Walk, root: int, lines: bool) -> list[CardValue]:
    groups = _walk_groups(w)
    scored = _score_groups(w, root, groups)
    mover_side = w.to_move & 1
    total = w.total()
    best_ns = w.won[0] + root
    vals = []
    for g, (ns, opt) in zip(groups, scored):
        mine = ns if mover_side == 0 else total - ns
        best_mine = best_ns if mover_side == 0 else total - best_ns
        line = _line(w, ns, forced=g[0]) if lines else None
        vals.append(CardValue(Card(g[0]), tuple(Card(c) for c in g[1:]), _sides(ns, total), opt,
                              best_mine - mine, line))
    vals.sort(key=lambda v: v.cost)
    return vals


# ---------------------------------------------------------------------------------------------
# Lines of best play

def _candidate_order(w: _Walk, groups: list[list[int]]) -> list[int]:
    """One card per group, in the order a player would try them: when leading, the top of each
    group (highest first); when following, the cheapest card that takes the trick, else the
    lowest (a discard, or a card under partner's winner)."""
    suit, order = w.suit, w.order
    trump = w.strain if w.strain < 4 else -1
    if not w.trick:
        reps = [g[0] for g in groups]
        return sorted(reps, key=lambda c: (-(suit[c] == trump), -order[c]))
    wi = w.winner_index(w.trick)
    win_card, win_seat = w.trick[wi], w.seats[wi]
    partner_wins = (win_seat & 1) == (w.to_move & 1)

    def beats(c: int) -> bool:
        if suit[c] == suit[win_card]:
            return order[c] > order[win_card]
        return suit[c] == trump

    reps = [g[-1] for g in groups]
    if partner_wins:
        return sorted(reps, key=lambda c: (suit[c] == trump, order[c]))
    winners = sorted((c for c in reps if beats(c)), key=lambda c: (suit[c] == trump, order[c]))
    others = sorted((c for c in reps if not beats(c)), key=lambda c: (suit[c] == trump, order[c]))
    return winners + others


def _best_move(w: _Walk, total_ns: int) -> int:
    """A card for the player to move that keeps the hand worth ``total_ns`` NS tricks."""
    groups = _walk_groups(w)
    cands = _candidate_order(w, groups)
    if len(cands) == 1:
        return cands[0]
    ns_moves = (w.to_move & 1) == 0
    for card in cands[:-1]:
        w.push(card)
        need = total_ns - w.won[0]
        ok = w.can(need) if ns_moves else not w.can(need + 1)
        w.pop(card)
        if ok:
            return card
    return cands[-1]


def _line(w: _Walk, total_ns: int, forced: int | None = None) -> list[TrickLine]:
    """Best play from the state of ``w``, whose hand is worth ``total_ns`` NS tricks, to the
    end of the hand, as tricks; with ``forced``, that card is played first (and ``total_ns`` is
    the hand's worth after it).  Leaves ``w`` as it found it."""
    tricks: list[TrickLine] = []
    made: list[int] = []
    number = _trick_number(w)
    cur_leader = w.leader
    cur = [(Seat(s), Card(c)) for s, c in zip(w.seats, w.trick)]
    already = len(cur)
    while w.left > 0:
        card = forced if forced is not None else _best_move(w, total_ns)
        forced = None
        p = w.to_move
        winner = w.push(card)
        made.append(card)
        cur.append((Seat(p), Card(card)))
        if winner is not None:
            tricks.append(TrickLine(number, Seat(cur_leader), cur, Seat(winner), already))
            number += 1
            cur_leader = winner
            cur = []
            already = 0
    for card in reversed(made):
        w.pop(card)
    return tricks


def _trick_number(w: _Walk) -> int:
    return w.won[0] + w.won[1] + 1


def principal_variation(position: Position) -> list[TrickLine]:
    """The line of best play from ``position`` to the end of the hand (RULES.md §3).

    Returns one :class:`TrickLine` per trick still to finish (a trick in progress first, its
    cards already played included and counted in ``played``), each with its winner.  At every
    turn the card chosen keeps the DD value; among equivalent choices it prefers what a player
    would play (lead the top of a sequence, win as cheaply as possible, discard the lowest).
    Does not change ``position``.
    """
    w = _Walk(position)
    return _line(w, w.won[0] + w.rest())


def explain(position: Position, lines: bool = True) -> Explanation:
    """Card values and the principal variation of ``position`` (see :func:`card_values`,
    :func:`principal_variation`).  With ``lines`` every card carries the best play after it:
    for a non-optimal card, the reply sequence that shows where its tricks go."""
    w = _Walk(position)
    total = w.total()
    if position.is_over:
        return Explanation(position, dict(position.tricks_won), None, [], [])
    root = w.rest()
    vals = _card_values(w, root, lines)
    pv = _line(w, w.won[0] + root)
    return Explanation(position, _sides(w.won[0] + root, total), Seat(w.to_move), vals, pv)


# ---------------------------------------------------------------------------------------------
# Analysis of a played hand

def analyse_play(deal: Deal, strain: int | str, leader: int | str, played: Iterable[int | str],
                 lone: int | str | None = None, declarer: int | str | None = None) -> PlayAnalysis:
    """The DD value before the first card and after every card of a played hand.

    ``deal``: the four hands at the start; ``strain``; ``leader``: the seat that led the first
    trick; ``played``: the cards in play order (complete or partial; tokens or Cards);
    ``lone``: the lone seat, if any.  Each step gives the value after its card and its cost to
    the side that played it; a card with a cost lists the cards that were right instead.
    ``lost`` sums the costs per seat.  Raises IllegalPlayError (naming the trick, seat and
    card) for a card not held or failing to follow suit.
    """
    pos = Position(deal, strain, leader, (), lone)
    cards = parse_cards(played) if isinstance(played, str) else [
        Card.parse(c) if isinstance(c, str) else Card(c) for c in played]
    for c in cards:  # validate the whole play first (clear error before any search)
        pos.play(c)
    for _ in cards:
        pos.undo()
    w = _Walk(pos)
    total = w.total()
    rest = w.rest()
    start = _sides(w.won[0] + rest, total)
    steps: list[PlayStep] = []
    lost = {s: 0 for s in Seat}
    for i, card in enumerate(cards):
        p = w.to_move
        ns_moves = (p & 1) == 0
        before_ns = w.won[0] + rest
        trick_no = _trick_number(w)
        after_ns = w.won[0] + w.values([int(card)], rest)[0]
        winner = w.push(int(card))
        new_rest = after_ns - w.won[0]
        cost = (before_ns - after_ns) if ns_moves else (after_ns - before_ns)
        best: list[Card] = []
        if cost:
            w.pop(int(card))
            vals = _card_values(w, rest, False)
            best = [c for v in vals if v.optimal for c in v.cards]
            w.push(int(card))
            lost[Seat(p)] += cost
        steps.append(PlayStep(i, trick_no, Seat(p), Card(card), _sides(before_ns, total),
                              _sides(after_ns, total), cost, best,
                              None if winner is None else Seat(winner)))
        rest = new_rest
    return PlayAnalysis(pos, start, steps, lost, None if declarer is None else parse_seat(declarer))


def analyse_record(record) -> PlayAnalysis:
    """:func:`analyse_play` of a :class:`bideuchre.records.HandRecord`.

    Raises RulesError when a hand is hidden (the record serves bid advice only), when the
    strain or the first leader is unknown.
    """
    where = f"{record.source}: " if getattr(record, "source", "") else ""
    if record.deal is None:
        hidden = " ".join(Seat(s).name for s, h in enumerate(record.hands) if h is None)
        raise RulesError(f"{where}cannot replay: hand(s) {hidden} hidden ('-'); "
                         "a record with hidden hands serves bid advice only")
    if record.strain is None:
        raise RulesError(f"{where}cannot replay: the record names no strain")
    if record.leader is None:
        raise RulesError(f"{where}cannot replay: the record names no first leader")
    return analyse_play(record.deal, record.strain, record.leader, record.play, record.lone,
                        record.declarer)


# ---------------------------------------------------------------------------------------------
# The contract of a played hand and its score

@dataclass
class HandScore:
    """The contract of a played hand and how it scores (RULES.md §1 "Scoring", §2).

    ``declarer`` (Seat), ``bid`` (:class:`~bideuchre.analysis.auction.Bid`), ``strain``;
    ``tricks``: the declaring side's tricks over the whole hand — as played when ``complete``,
    else the tricks won so far plus the double-dummy value of the rest (a projection);
    ``needed``: tricks the bid needs (every trick for a lone bid); ``made``; ``points``:
    ``{Side: points}`` for the hand under the preset (its table options included).
    """

    declarer: Seat
    bid: object
    strain: object
    tricks: int
    needed: int
    made: bool
    points: dict
    complete: bool

    def to_json(self) -> dict:
        return {"declarer": self.declarer.name, "bid": self.bid.name, "strain": self.strain.name,
                "tricks": self.tricks, "needed": self.needed, "made": self.made,
                "complete": self.complete,
                "points": {"NS": self.points[Side.NS], "EW": self.points[Side.EW]}}


def score_play(analysis: PlayAnalysis, preset, declarer: int | str, bid: str) -> HandScore:
    """Score a played hand: the contract ``bid`` (its text as recorded: ``"4"``, ``"12"``,
    ``"Alone"``; where the strain is named with the bid, the strain played is added) by
    ``declarer`` under ``preset``, with the declaring side's tricks from ``analysis`` (the
    final value: as played, or projected double dummy when the play stops early).

    Raises RulesError for a bid the preset does not have (RULES.md §2)."""
    from ..rules import get_preset
    from .auction import hand_result, parse_bid

    preset = get_preset(preset)
    declarer = parse_seat(declarer)
    pos = analysis.position
    text = str(bid).strip()
    if preset.strain_named == "with" and text.isdigit():
        text += pos.strain.name
    b = parse_bid(text, preset)
    if b is None:
        raise RulesError(f"the record's bid {bid!r} is a pass, not a contract")
    total = pos.tricks_left
    if total != preset.tricks:
        raise RulesError(f"a hand of {total} tricks cannot be scored under preset {preset.name!r} "
                         f"({preset.tricks} tricks)")
    tricks = analysis.final[declarer.side]
    decl, defs = hand_result(preset, b, tricks)
    needed = b.needs(total)
    return HandScore(declarer, b, pos.strain, tricks, needed, tricks >= needed,
                     {declarer.side: decl, declarer.side.other: defs}, analysis.complete)


_DECK_PRESET = {"single24": "standard", "double32": "double32", "double40": "double48",
                "double48": "double48"}


def record_preset(record, preset=None):
    """The preset a record is scored under: ``preset`` when given, else the record's own
    (its ``Preset`` tag), else the one of its deck form (single24: standard; double40: double48
    with the double40 deck; RULES.md §2).  Returns ``(Preset, how)``: ``how`` says where it came
    from (``"given"``, ``"the record's"``, ``"from the deck"``)."""
    from ..rules import get_preset

    if preset is not None:
        p, how = get_preset(preset), "given"
    elif getattr(record, "preset", None):
        p, how = get_preset(record.preset), "the record's"
    else:
        p, how = get_preset(_DECK_PRESET[record.deck.name]), "from the deck"
    if p.deck != record.deck and record.deck.name in p.decks:
        p = p.with_options(deck=record.deck.name)
    return p, how
