"""Deal, hand and card notation, and the :class:`Position` of a hand in play (RULES.md §4).

Every notation has a parser and a formatter that round-trip:

- cards: :func:`parse_card` / ``str(card)`` — tokens ``SA``, ``AS``, ``10H``, ``A♠``, any case;
  canonical form suit-then-rank (``SA``, ``HT``, ``D9``) as in PBN play sections;
- hands: :func:`parse_hand` / :func:`format_hand` — ``spades.hearts.diamonds.clubs``;
- deals: :meth:`Deal.from_pbn` / :meth:`Deal.pbn` — ``N:<hand> <hand> <hand> <hand>``.

A :class:`Position` is a deal, a strain, the leader of the first trick and the cards played
since, with ``play()`` / ``undo()`` (python-chess style make/unmake).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from typing import Iterable, Sequence

from itertools import islice

from .rules import (
    RANK_CHARS, ArgumentError, Card, DeckForm, IllegalPlayError, NotationError, Seat, Side, Suit,
    as_card, effective_suit, get_deck, legal_cards, next_active, parse_seat, parse_strain, shown,
    trick_winner,
)

__all__ = ["parse_card", "parse_cards", "parse_hand", "format_hand", "split_deal", "Deal", "Position"]

# the preset that plays each double deck (double40 is preset double48's option, RULES.md §2)
_DOUBLE_PRESETS = {"double32": "the preset double32", "double40": "the preset double48 with --rule "
                   "deck=double40", "double48": "the preset double48"}


def _double_deck_hint(hand: int) -> str:
    """For a card held twice in a single deck: the double deck whose hands hold ``hand`` cards,
    and how to name it (every double deck when the hands are shorter: a partial deal)."""
    forms = [f for f in _DOUBLE_PRESETS if get_deck(f).hand == hand] or list(_DOUBLE_PRESETS)
    if len(forms) == 1:
        return (f"; a {forms[0]} deal ({hand}-card hands)? name its deck form: "
                f"{_DOUBLE_PRESETS[forms[0]]}, or deck=\"{forms[0]}\" in Python")
    return "; a double-deck deal? name its deck form: " + ", ".join(
        f"{f} ({_DOUBLE_PRESETS[f]})" for f in forms) + ", or deck= in Python"



def counted(n: int, noun: str) -> str:
    """``n`` with its noun in the singular or plural, for messages: ``counted(1, "card")`` is
    ``"1 card"``, ``counted(10000, "deal")`` is ``"10,000 deals"``."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def parse_card(text: str) -> Card:
    """Read one card token (``SA``, ``AS``, ``10H``, ``hT``, ``A♠``): :meth:`Card.parse`.

    Returns a :class:`~bideuchre.rules.Card`.  Raises NotationError quoting the token for an
    unknown rank or suit.
    """
    return Card.parse(text)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read a sequence of cards: tokens separated by spaces or commas (``"SA SK, H9"``), or an
    iterable of tokens, :class:`Card` values or indexes 0..23.  Raises NotationError quoting
    the first card that cannot be read, or a value that is no sequence of cards."""
    if isinstance(text, str):
        return [parse_card(t) for t in re.split(r"[\s,]+", text.strip()) if t]
    try:
        items = iter(text)
    except TypeError:
        raise NotationError(f"cannot read cards {shown(text)}: expected 'SA SK ...' or a list "
                            "of cards") from None
    return [as_card(t) for t in items if not (isinstance(t, str) and not t.strip())]


def parse_hand(text: str, *, where: str = "hand") -> list[Card]:
    """Read a hand: ``spades.hearts.diamonds.clubs`` (``AJ.KQ9..JT``) or card tokens (``SA SJ``).

    Ranks ``A K Q J T 9`` (``10`` accepted for ``T``), any case; a rank may repeat (double decks).
    Returns the cards, sorted.  Raises NotationError naming ``where`` and the bad text.
    """
    if not isinstance(text, str):
        raise NotationError(f"{where}: cannot read {shown(text)}: expected a hand like 'AJ.KQ..JT'")
    text = text.strip()
    if "." not in text:
        if not text or text == "-":
            return []
        try:
            return sorted(parse_cards(text))
        except NotationError as exc:
            raise NotationError(f"{where}: {exc}") from None
    parts = text.split(".")
    if len(parts) != 4:
        raise NotationError(f"{where} {shown(text)} has {len(parts)} suits; expected 4 (spades.hearts.diamonds.clubs)")
    cards: list[Card] = []
    for suit, part in enumerate(parts):
        i = 0
        part = part.upper()
        while i < len(part):
            if part.startswith("10", i):
                rank, i = "10", i + 2
            else:
                rank, i = part[i], i + 1
            if rank not in RANK_CHARS:
                raise NotationError(f"{where} {shown(text)}: unknown rank {rank!r} in {Suit(suit).name} (Bid Euchre ranks: 9 10 J Q K A)")
            cards.append(Card.make(suit, RANK_CHARS[rank]))
    return sorted(cards)


def format_hand(cards: Iterable[int]) -> str:
    """Format cards as ``spades.hearts.diamonds.clubs``, ranks high to low (``AK9.T..QJ``)."""
    by_suit: list[list[int]] = [[], [], [], []]
    for c in cards:
        by_suit[c // 6].append(c % 6)
    return ".".join("".join("9TJQKA"[r] for r in sorted(rs, reverse=True)) for rs in by_suit)


@functools.lru_cache(maxsize=None)
def _suit_texts(copies: int) -> tuple[str, ...]:
    """The text of one suit of a hand for each code ``sum(count[rank] * (copies+1)**rank)``."""
    base = copies + 1
    out = []
    for code in range(base ** 6):
        held = [(code // base ** r) % base for r in range(6)]
        out.append("".join("9TJQKA"[r] * held[r] for r in range(5, -1, -1)))
    return tuple(out)


def pbn_texts(counts, copies: int = 2) -> list[str]:
    """``Deal.pbn()`` of many deals at once (N first): ``counts`` ``(n, 4, 24)`` holds each
    seat's count of each card (:meth:`Deal.counts`), at most ``copies`` of one card.  Returns
    ``n`` texts ``N:<hand> <hand> <hand> <hand>``, each hand as :func:`format_hand` writes it."""
    import numpy as np          # here: the command line imports this module and starts light

    counts = np.asarray(counts, dtype=np.int64)
    base = copies + 1
    codes = (counts.reshape(len(counts), 4, 4, 6) * base ** np.arange(6)).sum(axis=3).tolist()
    table = _suit_texts(copies)
    return ["N:" + " ".join(".".join([table[a], table[b], table[c], table[d]]) for a, b, c, d in deal)
            for deal in codes]


def _counts(cards: Iterable[int]) -> list[int]:
    out = [0] * 24
    for c in cards:
        out[c] += 1
    return out


def split_deal(text: str) -> tuple[Seat, list[str]]:
    """Split ``N:<hand> <hand> <hand> <hand>`` into the first seat and the four hand fields
    (unparsed; ``-`` may stand for a hidden hand).  Raises NotationError quoting the text."""
    if not isinstance(text, str):
        raise NotationError(f"cannot read deal {shown(text)}: expected 'N:<hand> <hand> <hand> <hand>'")
    raw = text.strip().lstrip("\ufeff")
    m = re.match(r"^([NESWnesw])\s*:\s*(.*)$", raw, re.S)
    if not m:
        raise NotationError(f"cannot read deal {shown(text)}: expected 'N:<hand> <hand> <hand> <hand>'")
    fields = m.group(2).split()
    if len(fields) != 4:
        raise NotationError(f"deal {shown(text)} has {counted(len(fields), 'hand')}; expected 4")
    return parse_seat(m.group(1)), fields


class Deal:
    """The four hands at the start of a hand (or of a partial position), with deck and dealer.

    ``hands[seat]`` is a sorted tuple of :class:`Card` (a card twice when both copies are held).
    All hands hold the same number of cards, at most ``deck.hand``; fewer makes a partial deal
    whose missing cards are out of play.  Raises NotationError (naming the hand, the card and
    the count) for a card held twice in a single deck, a third copy in a double deck, a rank
    the deck form lacks, hands of different sizes, or too many cards; and for anything that is
    not four hands of cards (a hand is an iterable of cards -- :class:`Card`, index 0..23 or
    token -- or a string read by :func:`parse_hand`), an unknown deck, dealer or first seat.
    """

    __slots__ = ("hands", "deck", "dealer", "first")

    def __init__(self, hands: Sequence[Iterable[int]], deck: str | DeckForm = "single24",
                 dealer: int | str | None = None, *, first: int | str = Seat.N):
        self.deck = get_deck(deck)
        if isinstance(hands, (str, bytes)):
            raise NotationError(f"a deal needs 4 hands, got the text {shown(hands)} (read a deal "
                                "with Deal.from_pbn)")
        try:
            four = list(islice(iter(hands), 5))
        except TypeError:
            raise NotationError(f"a deal needs 4 hands, got {shown(hands)}") from None
        if len(four) != 4:
            raise NotationError(f"a deal needs 4 hands, got {'more than 4' if len(four) > 4 else len(four)}")
        self.hands = tuple(tuple(sorted(self._hand(h, Seat(i)))) for i, h in enumerate(four))
        self.first = parse_seat(first)
        self.dealer = self.first if dealer is None else parse_seat(dealer)
        self._check()

    def _hand(self, hand, seat: Seat) -> list[Card]:
        """One hand's cards (at most one more than a hand of the deck is read: that many is
        already too many)."""
        where = f"hand {seat.name}"
        if isinstance(hand, str):
            return parse_hand(hand, where=where)
        try:
            items = (list(hand) if isinstance(hand, (list, tuple))
                     else list(islice(iter(hand), self.deck.hand + 1)))
        except TypeError:
            raise NotationError(f"{where}: cannot read {shown(hand)}: expected a list of cards") from None
        try:
            return [as_card(c) for c in items]
        except NotationError as exc:
            raise NotationError(f"{where}: {exc}") from None

    def _check(self) -> None:
        deck = self.deck
        allowed = set(deck.card_ids)
        total: Counter = Counter()
        for seat, hand in zip(Seat, self.hands):
            for card, n in Counter(hand).items():
                if card not in allowed:
                    raise NotationError(f"hand {seat.name}: card {card} is not in the {deck.name} deck "
                                        f"(ranks {' '.join(r.char for r in deck.ranks)})")
                total[card] += n
        for card, n in total.items():
            if n > deck.copies:
                holders = [s.name for s, h in zip(Seat, self.hands) if card in h]
                what = "held twice in a single deck" if deck.copies == 1 else f"held {n} times; the {deck.name} deck has 2 copies"
                hint = _double_deck_hint(max(len(h) for h in self.hands)) if deck.copies == 1 else ""
                raise NotationError(f"card {card} {what} (hands {' '.join(holders)}){hint}")
        sizes = [len(h) for h in self.hands]
        for seat, n in zip(Seat, sizes):
            if n > deck.hand:
                raise NotationError(f"hand {seat.name} holds {counted(n, 'card')}; {deck.name} deals {deck.hand}")
        if len(set(sizes)) != 1:
            desc = ", ".join(f"{s.name} {n}" for s, n in zip(Seat, sizes))
            raise NotationError(f"hands must hold the same number of cards ({desc}; {deck.name} deals {deck.hand})")

    @classmethod
    def _dealt(cls, hands: tuple, deck: DeckForm, dealer: Seat) -> "Deal":
        """A deal from hands already checked: four sorted tuples of :class:`Card` that together
        hold cards of ``deck`` within its copies, all of one size (as a shuffle of the deck
        deals them: ``bideuchre.batch`` generation).  No check is made; N is the first seat."""
        d = object.__new__(cls)
        d.deck, d.hands, d.first, d.dealer = deck, hands, Seat.N, dealer
        return d

    # -- notation ---------------------------------------------------------------------------
    @classmethod
    def from_pbn(cls, text: str, deck: str | DeckForm = "single24",
                 dealer: int | str | None = None) -> "Deal":
        """Parse ``N:<hand> <hand> <hand> <hand>`` (RULES.md §4).

        The letter names the seat of the first hand, the others follow clockwise.  ``dealer``
        defaults to that seat.  Raises NotationError naming the hand and the card.
        """
        first, fields = split_deal(text)
        deck = get_deck(deck)
        hands: list[list[Card]] = [[], [], [], []]
        for i, field in enumerate(fields):
            seat = Seat((first + i) % 4)
            if field == "-":
                raise NotationError(f"hand {seat.name} is hidden ('-'); a deal to solve needs all four hands")
            if field.count(".") != 3:
                raise NotationError(f"hand {seat.name} {field!r} has {field.count('.') + 1} suits; expected 4 (spades.hearts.diamonds.clubs)")
            hands[seat] = parse_hand(field, where=f"hand {seat.name}")
        return cls(hands, deck, dealer, first=first)

    def pbn(self, first: int | str | None = None) -> str:
        """Format as ``N:<hand> <hand> <hand> <hand>``, starting from ``first`` (default: the
        seat the deal was read with)."""
        first = self.first if first is None else parse_seat(first)
        return f"{first.name}:" + " ".join(format_hand(self.hands[(first + i) % 4]) for i in range(4))

    def counts(self) -> list[list[int]]:
        """Per seat, the count of each of the 24 cards (0, 1 or 2)."""
        return [_counts(h) for h in self.hands]

    def __eq__(self, other) -> bool:
        return isinstance(other, Deal) and (self.hands, self.deck, self.dealer) == (other.hands, other.deck, other.dealer)

    def __hash__(self) -> int:
        return hash((self.hands, self.deck.name, self.dealer))

    def __str__(self) -> str:
        return self.pbn()

    def __repr__(self) -> str:
        return f"Deal.from_pbn({self.pbn()!r}, deck={self.deck.name!r}, dealer={self.dealer.name!r})"


class Position:
    """A deal in play: strain, leader of the first trick, lone seat and the cards played since.

    ``played`` is in play order starting with ``leader``'s lead and may stop mid-trick.  With
    ``lone`` set, that seat's partner sits out: tricks have three cards and a lead that would
    fall to the empty seat passes to the next seat clockwise (RULES.md §1).  Raises
    IllegalPlayError naming the trick number, the seat and the card for a card not held or
    one that fails to follow suit.

    Attributes: ``to_move`` (Seat), ``trick`` (list of (Seat, Card) in the current trick),
    ``tricks_won`` (dict Side → tricks), ``hands`` (remaining cards per seat, 24 counts).
    """

    def __init__(self, deal: Deal, strain: int | str, leader: int | str | None = None,
                 played: Iterable[int | str] = (), lone: int | str | None = None):
        if not isinstance(deal, Deal):
            raise ArgumentError(f"a Position needs a Deal, got {shown(deal)} (read one with "
                                "Deal.from_pbn)")
        self.deal = deal
        self.strain = parse_strain(strain)
        self.lone = None if lone is None else parse_seat(lone)
        self.out = None if self.lone is None else self.lone.partner
        lead = deal.first if leader is None else parse_seat(leader)
        if self.out is not None and lead == self.out:
            lead = next_active(lead, self.out)
        self.leader = lead
        self.hands = deal.counts()
        self.to_move = lead
        self.trick: list[tuple[Seat, Card]] = []
        self.tricks_won = {Side.NS: 0, Side.EW: 0}
        self.played: list[Card] = []
        self._history: list[tuple] = []
        for card in parse_cards(played):
            self.play(card)

    # -- queries ----------------------------------------------------------------------------
    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats that play (three in a lone hand)."""
        return tuple(s for s in Seat if s != self.out)

    @property
    def trick_size(self) -> int:
        return 3 if self.out is not None else 4

    @property
    def trick_number(self) -> int:
        """1-based number of the trick in progress (or the next one)."""
        return len(self.played) // self.trick_size + 1

    @property
    def tricks_left(self) -> int:
        """Tricks not yet complete (including the one in progress)."""
        return sum(self.hands[self.to_move])  # to_move has not played to the current trick

    @property
    def is_over(self) -> bool:
        return not self.trick and sum(self.hands[self.to_move]) == 0

    def hand(self, seat: int) -> list[Card]:
        """The remaining cards of ``seat``, sorted (a card twice when both copies are held)."""
        return [Card(c) for c in range(24) for _ in range(self.hands[seat][c])]

    def legal_cards(self) -> list[Card]:
        """The distinct cards the player to move may play (follow suit if able)."""
        led = self.trick[0][1] if self.trick else None
        return legal_cards(self.hand(self.to_move), led, self.strain)

    def copy(self) -> "Position":
        return Position(self.deal, self.strain, self.leader, self.played, self.lone)

    # -- make / unmake ----------------------------------------------------------------------
    def play(self, card: int | str) -> Seat | None:
        """Play ``card`` for the player to move.  Returns the trick's winner when it completes
        the trick, else None.  Raises IllegalPlayError; NotationError for a value that is no
        card."""
        card = as_card(card)
        seat = self.to_move
        where = f"trick {self.trick_number}: {seat.name}"
        if self.is_over:
            raise IllegalPlayError(f"{where} cannot play {card}: the hand is over")
        if self.hands[seat][card] == 0:
            raise IllegalPlayError(f"{where} cannot play {card}: not in hand {seat.name} ({format_hand(self.hand(seat))})")
        if self.trick:
            led = self.trick[0][1]
            suit = effective_suit(led, self.strain)
            if effective_suit(card, self.strain) != suit and any(
                    effective_suit(c, self.strain) == suit for c in self.hand(seat)):
                raise IllegalPlayError(f"{where} cannot play {card}: must follow {suit.name} (led {led})")
        self._history.append((self.to_move, list(self.trick)))
        self.hands[seat][card] -= 1
        self.played.append(card)
        self.trick.append((seat, card))
        if len(self.trick) == self.trick_size:
            w = trick_winner([c for _, c in self.trick], self.strain)
            winner = self.trick[w][0]
            self.tricks_won[winner.side] += 1
            self.trick = []
            self.to_move = winner
            return winner
        self.to_move = next_active(seat, self.out)
        return None

    def undo(self) -> Card:
        """Take back the last card played; returns it.  Raises IllegalPlayError if none."""
        if not self.played:
            raise IllegalPlayError("no card to undo")
        card = self.played.pop()
        to_move, trick = self._history.pop()
        if not self.trick:  # the card completed a trick
            w = trick_winner([c for _, c in trick] + [card], self.strain)
            winner = (trick + [(to_move, card)])[w][0]
            self.tricks_won[winner.side] -= 1
        self.to_move = to_move
        self.trick = trick
        self.hands[to_move][card] += 1
        return card

    def __repr__(self) -> str:
        played = " ".join(str(c) for c in self.played)
        return (f"Position(Deal.from_pbn({self.deal.pbn()!r}, deck={self.deal.deck.name!r}), "
                f"strain={self.strain.name!r}, leader={self.leader.name!r}, played={played!r}"
                + (f", lone={self.lone.name!r})" if self.lone is not None else ")"))
