"""Cards, suits, seats, strains, deck forms and the play rules of Bid Euchre (RULES.md §1).

Small values are plain ints with names (``IntEnum``): a card is an index ``suit * 6 + rank``
into the 24 distinct cards; double decks hold two copies of some of those cards.  Three
functions decide the play and everything else calls them (the Cython core is given a table
built from :func:`effective_suit` and :func:`rank_order`):

- :func:`effective_suit` — the suit a card belongs to under a strain (the left bower is trump);
- :func:`rank_order` — a card's order within its effective suit (bowers; NT; NTL reversed);
- :func:`trick_winner` — which card of a trick wins (highest trump, else highest of the suit
  led; of two identical cards the first played wins).

The presets of RULES.md §2 are in :mod:`bideuchre.presets`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from typing import Any, Iterable, Sequence

from .errors import NotationError
from .inputs import shown, whole_number

__all__ = [
    "as_card", "Seat", "Side", "Suit", "Rank", "Card", "Strain", "DeckForm", "DECKS",
    "SUIT_CHARS", "RANK_CHARS", "CARD_RE",
    "get_deck", "parse_strain", "parse_seat",
    "effective_suit", "rank_order", "trick_winner", "legal_cards", "next_active",
]


# ---------------------------------------------------------------------------------------------
# Seats, suits, ranks, cards, strains

class Seat(IntEnum):
    """The four seats, clockwise (RULES.md §1).  ``Seat.N.left`` is E; partners are opposite."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def left(self) -> "Seat":
        """The next seat clockwise."""
        return Seat((self + 1) % 4)

    @property
    def partner(self) -> "Seat":
        """The seat opposite."""
        return Seat((self + 2) % 4)

    @property
    def side(self) -> "Side":
        """The partnership: ``Side.NS`` or ``Side.EW``."""
        return Side(self % 2)

    def __str__(self) -> str:
        return self.name


class Side(IntEnum):
    """The two partnerships."""

    NS = 0
    EW = 1

    @property
    def other(self) -> "Side":
        return Side(1 - self)

    def __str__(self) -> str:
        return self.name


class Suit(IntEnum):
    """Suits in PBN order (spades, hearts, diamonds, clubs)."""

    S = 0
    H = 1
    D = 2
    C = 3

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def same_colour(self) -> "Suit":
        """The other suit of the same colour (the left bower's printed suit)."""
        return Suit(3 - self)

    def __str__(self) -> str:
        return self.name


class Rank(IntEnum):
    """Ranks from nine to ace."""

    R9 = 0
    T = 1
    J = 2
    Q = 3
    K = 4
    A = 5

    @property
    def char(self) -> str:
        return "9TJQKA"[self]

    def __str__(self) -> str:
        return self.char


# The text forms of suits and ranks (RULES.md §4), read by Card.parse and notation.parse_hand.
SUIT_CHARS = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3,
              "♤": 0, "♡": 1, "♢": 2, "♧": 3}
RANK_CHARS = {"9": 0, "T": 1, "10": 1, "J": 2, "Q": 3, "K": 4, "A": 5}
CARD_RE = re.compile(r"^(?:(?P<s1>[SHDC♠♥♦♣♤♡♢♧])(?P<r1>10|[2-9TJQKA])|(?P<r2>10|[2-9TJQKA])(?P<s2>[SHDC♠♥♦♣♤♡♢♧]))$")


class Card(IntEnum):
    """One of the 24 distinct cards: ``suit * 6 + rank``.  ``str(Card.SA) == "SA"``."""

    S9 = 0; ST = 1; SJ = 2; SQ = 3; SK = 4; SA = 5  # noqa: E702
    H9 = 6; HT = 7; HJ = 8; HQ = 9; HK = 10; HA = 11  # noqa: E702
    D9 = 12; DT = 13; DJ = 14; DQ = 15; DK = 16; DA = 17  # noqa: E702
    C9 = 18; CT = 19; CJ = 20; CQ = 21; CK = 22; CA = 23  # noqa: E702

    @classmethod
    def make(cls, suit: int, rank: int) -> "Card":
        return cls(suit * 6 + rank)

    @property
    def suit(self) -> Suit:
        """The printed suit (see :func:`effective_suit` for the suit in play)."""
        return Suit(self // 6)

    @property
    def rank(self) -> Rank:
        return Rank(self % 6)

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Read a card token: ``SA``, ``AS``, ``10H``, ``hT``, ``A♠`` (any case).

        Returns the :class:`Card`.  Raises NotationError quoting the token for an unknown rank
        or suit (RULES.md §4).
        """
        if not isinstance(text, str):
            raise NotationError(f"cannot read card {shown(text)}: expected a card like SA, 10H or A♠")
        token = text.strip().upper()
        m = CARD_RE.match(token)
        if not m:
            raise NotationError(f"cannot read card {shown(text)} (expected suit and rank, like SA, 10H or A♠)")
        suit = m.group("s1") or m.group("s2")
        rank = m.group("r1") or m.group("r2")
        if rank not in RANK_CHARS:
            raise NotationError(f"unknown rank {rank!r} in card {shown(text)} (Bid Euchre ranks: 9 10 J Q K A)")
        return cls.make(SUIT_CHARS[suit], RANK_CHARS[rank])

    def __str__(self) -> str:
        return "SHDC"[self // 6] + "9TJQKA"[self % 6]

    def __repr__(self) -> str:
        return f"Card.{self.name}"


def as_card(value: Any) -> Card:
    """A card from a :class:`Card`, its index 0..23 (``suit * 6 + rank``) or a token
    (:meth:`Card.parse`).  Raises NotationError quoting any other value (a bool, an index out
    of range, a float)."""
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return Card.parse(value)
    i = whole_number(value)
    if i is None:
        raise NotationError(f"cannot read card {shown(value)}: expected a card like 'SA' or an index 0..23")
    if not 0 <= i <= 23:
        raise NotationError(f"card index {i} out of range (0..23: suit * 6 + rank)")
    return Card(i)


class Strain(IntEnum):
    """The six strains: four trump suits, no trump, no trump low (RULES.md §1)."""

    S = 0
    H = 1
    D = 2
    C = 3
    NT = 4
    NTL = 5

    @property
    def trump(self) -> Suit | None:
        """The trump suit, or None in NT and NTL."""
        return Suit(int(self)) if self < 4 else None

    @property
    def symbol(self) -> str:
        return ("♠", "♥", "♦", "♣", "NT", "NT↓")[self]

    def __str__(self) -> str:
        return self.name


def _enum_lookup(enum, text: str, what: str, shown_as: Any = None):
    key = text.strip().upper()
    try:
        return enum[key]
    except KeyError:
        names = " ".join(m.name for m in enum)
        raise NotationError(f"unknown {what} {shown(text if shown_as is None else shown_as)} "
                            f"(expected one of: {names})") from None


def _enum_value(enum, value: Any, what: str):
    """``value`` as a member of ``enum`` when it is a member or a whole number in range; None
    for a string (the caller reads it); NotationError for anything else."""
    if isinstance(value, enum):
        return value
    if isinstance(value, str):
        return None
    i = whole_number(value)
    names = " ".join(m.name for m in enum)
    if i is None:
        raise NotationError(f"cannot read {what} {shown(value)}: expected one of {names} "
                            f"or 0..{len(enum) - 1}")
    if not 0 <= i < len(enum):
        raise NotationError(f"{what} {i} out of range (0..{len(enum) - 1}: {names})")
    return enum(i)


def parse_seat(text: str | int | Seat) -> Seat:
    """``"n"``, ``0`` or ``Seat.N`` → ``Seat.N``.  Raises NotationError naming the value (an
    unknown name, an index out of 0..3, a value of another type)."""
    seat = _enum_value(Seat, text, "seat")
    return seat if seat is not None else _enum_lookup(Seat, text, "seat")


_STRAIN_ALIASES = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "NT↓": "NTL", "NTLOW": "NTL",
                   "LOW": "NTL", "N": "NT"}


def parse_strain(text: str | int | Strain) -> Strain:
    """``"h"``, ``"♥"``, ``"NT"``, ``"NT↓"``/``"NTL"``, ``0..5`` → Strain.  Raises
    NotationError naming the value (an unknown name, an index out of 0..5, None, a float)."""
    strain = _enum_value(Strain, text, "strain")
    if strain is not None:
        return strain
    key = text.strip().upper()
    key = _STRAIN_ALIASES.get(key, key)
    return _enum_lookup(Strain, key, "strain", text)


# ---------------------------------------------------------------------------------------------
# Deck forms

@lru_cache(maxsize=None)
def _card_ids(ranks: tuple) -> tuple:
    return tuple(Card.make(s, r) for s in Suit for r in ranks)


@dataclass(frozen=True)
class DeckForm:
    """A deck form of RULES.md §1: which ranks, how many copies of each card.

    ``cards`` is the deck size, ``hand`` the cards (and tricks) per seat in a partnership deal.
    """

    name: str
    ranks: tuple[Rank, ...]
    copies: int

    @property
    def cards(self) -> int:
        return len(self.ranks) * 4 * self.copies

    @property
    def hand(self) -> int:
        return self.cards // 4

    @property
    def card_ids(self) -> tuple[Card, ...]:
        """The distinct cards of the deck, in Card order."""
        return _card_ids(self.ranks)

    def __str__(self) -> str:
        return self.name


DECKS: dict[str, DeckForm] = {
    "single24": DeckForm("single24", tuple(Rank), 1),
    "double32": DeckForm("double32", (Rank.J, Rank.Q, Rank.K, Rank.A), 2),
    "double40": DeckForm("double40", (Rank.T, Rank.J, Rank.Q, Rank.K, Rank.A), 2),
    "double48": DeckForm("double48", tuple(Rank), 2),
}


def get_deck(name: str | DeckForm) -> DeckForm:
    """Look up a deck form by name.  Raises NotationError for an unknown name or a value that
    is neither a name nor a DeckForm."""
    if isinstance(name, DeckForm):
        return name
    if isinstance(name, str) and name.strip().lower() in DECKS:
        return DECKS[name.strip().lower()]
    raise NotationError(f"unknown deck form {shown(name)} (expected one of: {' '.join(DECKS)})")


# ---------------------------------------------------------------------------------------------
# The three play functions

def effective_suit(card: int, strain: int) -> Suit:
    """The suit ``card`` belongs to when ``strain`` is played (RULES.md §1).

    Under a trump suit the left bower (the jack of the same colour) is a trump; otherwise the
    printed suit.
    """
    suit, rank = divmod(int(card), 6)
    if strain < 4 and rank == Rank.J and suit == 3 - strain:
        return Suit(strain)
    return Suit(suit)


def rank_order(card: int, strain: int) -> int:
    """The order of ``card`` within its effective suit under ``strain``: higher wins.

    Trump: right bower 6 > left bower 5 > A 4 > K 3 > Q 2 > 10 1 > 9 0.  Other suits and NT:
    A 5 > K 4 > Q 3 > J 2 > 10 1 > 9 0.  NTL reverses it: 9 5 > 10 4 > ... > A 0 (RULES.md §1).
    """
    suit, rank = divmod(int(card), 6)
    if strain == Strain.NTL:
        return 5 - rank
    if strain < 4:
        if rank == Rank.J:
            if suit == strain:
                return 6
            if suit == 3 - strain:
                return 5
        if suit == strain:
            return (0, 1, -1, 2, 3, 4)[rank]
    return rank


def trick_winner(cards: Sequence[int], strain: int) -> int:
    """Index into ``cards`` (in play order) of the card that wins the trick (RULES.md §1).

    The highest trump wins; with no trump in the trick, the highest card of the suit led.
    Of two identical cards the first played wins (only a strictly higher card takes over).
    """
    if not cards:
        raise ValueError("a trick needs at least one card")
    trump = strain if strain < 4 else -1
    best = 0
    best_suit = effective_suit(cards[0], strain)
    best_order = rank_order(cards[0], strain)
    for i in range(1, len(cards)):
        s = effective_suit(cards[i], strain)
        o = rank_order(cards[i], strain)
        if (s == best_suit and o > best_order) or (s == trump and best_suit != trump):
            best, best_suit, best_order = i, s, o
    return best


def legal_cards(hand: Iterable[int], led: int | None, strain: int) -> list[Card]:
    """The distinct cards of ``hand`` that may be played to a trick whose first card is ``led``.

    Follow the led card's effective suit if able; otherwise any card (RULES.md §1).
    """
    distinct = sorted({Card(c) for c in hand})
    if led is None:
        return distinct
    suit = effective_suit(led, strain)
    follow = [c for c in distinct if effective_suit(c, strain) == suit]
    return follow or distinct


def next_active(seat: int, out: int | None) -> Seat:
    """The next seat clockwise after ``seat``, skipping ``out`` (a lone hand's partner)."""
    nxt = (seat + 1) % 4
    if out is not None and nxt == out:
        nxt = (nxt + 1) % 4
    return Seat(nxt)
