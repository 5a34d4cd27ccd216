"""The rules of Bid Euchre, in one place (RULES.md §1 and §2).

Small values are plain ints with names (``IntEnum``): a card is an index ``suit * 6 + rank``
into the 24 distinct cards; double decks hold two copies of some of those cards.  Three
functions decide the play and everything else calls them (the Cython core is given a table
built from :func:`effective_suit` and :func:`rank_order`):

- :func:`effective_suit` — the suit a card belongs to under a strain (the left bower is trump);
- :func:`rank_order` — a card's order within its effective suit (bowers; NT; NTL reversed);
- :func:`trick_winner` — which card of a trick wins (highest trump, else highest of the suit
  led; of two identical cards the first played wins).

The five presets of RULES.md §2 are data (:data:`PRESETS`).
"""

from __future__ import annotations

import numbers
import re
from dataclasses import dataclass, field, replace
from enum import IntEnum
from functools import lru_cache
from typing import Any, Iterable, Sequence

__all__ = [
    "BidEuchreError", "NotationError", "IllegalPlayError", "RulesError", "ArgumentError",
    "as_card", "read_int", "shown", "check_seed",
    "Seat", "Side", "Suit", "Rank", "Card", "Strain", "DeckForm", "DECKS",
    "LoneBid", "Preset", "PRESETS", "TableOption", "get_preset", "get_deck", "parse_strain", "parse_seat",
    "effective_suit", "rank_order", "trick_winner", "legal_cards", "next_active",
]


# ---------------------------------------------------------------------------------------------
# Errors (STYLE.md: one ValueError subclass per kind, under one base)

class BidEuchreError(ValueError):
    """Base of every error bideuchre raises on bad input."""


class NotationError(BidEuchreError):
    """A deal, hand, card, seat or strain that cannot be read, or a deal of the wrong shape."""


class IllegalPlayError(BidEuchreError):
    """A card played out of turn, not held, or failing to follow suit (RULES.md §1)."""


class RulesError(BidEuchreError):
    """A request the rules do not allow: a strain or bid the preset lacks, a bad lone seat, a
    preset option of the wrong type or out of range."""


class ArgumentError(BidEuchreError):
    """An argument that is no notation and of the wrong type or out of range: a ``Position``
    expected and something else given, a negative seed or sample count, a record index that is
    not a whole number.  (A value that should name a card, seat, strain, deck or deal and does
    not is a NotationError, whatever its type.)"""


def shown(value: Any, limit: int = 60) -> str:
    """``repr(value)`` for a message, cut to ``limit`` characters (``…`` at the cut): an error
    quotes the bad input without echoing megabytes of it."""
    if isinstance(value, str) and len(value) > 4 * limit:
        value = value[:4 * limit]
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a value whose repr fails is still named by its type
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _whole(value: Any) -> int | None:
    """``value`` as an int when it is a whole number (an int or NumPy integer, not a bool);
    else None."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    return None


def check_seed(seed: Any, what: str = "seed") -> int:
    """The one rule for random seeds (``bid``, ``batch --generate``): a whole number ≥ 0, of
    any size (NumPy seeds its generators from any non-negative int).  Returns it as an int;
    raises ArgumentError naming ``what`` for a negative number or another type."""
    value = _whole(seed)
    if value is None:
        raise ArgumentError(f"{what} {shown(seed)}: expected a whole number ≥ 0")
    if value < 0:
        raise ArgumentError(f"{what} {value}: must not be negative (seeds are whole numbers ≥ 0)")
    return value


_DIGITS = re.compile(r"[+-]?[0-9]+")


def read_int(text: Any, what: str, max_digits: int = 9) -> int:
    """A whole number written in ASCII digits (``"12"``, ``"-3"``), for a tag or option named
    ``what``.  At most ``max_digits`` digits are read (Python refuses to convert more than
    4,300 and no count in the game needs more than a few).  Raises NotationError naming
    ``what`` and quoting the text."""
    if isinstance(text, numbers.Integral) and not isinstance(text, bool):
        text = str(int(text)) if abs(int(text)) < 10 ** max_digits else "9" * (max_digits + 1)
    if not isinstance(text, str) or not _DIGITS.fullmatch(text.strip()):
        raise NotationError(f"{what}: {shown(text)} is not a whole number")
    digits = text.strip().lstrip("+-")
    if len(digits) > max_digits:
        raise NotationError(f"{what}: {shown(text)} is too large (at most {max_digits} digits)")
    return int(text.strip())


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
    i = _whole(value)
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
    i = _whole(value)
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


# ---------------------------------------------------------------------------------------------
# Presets (RULES.md §2): every number is a table option with the preset's value as default

@dataclass(frozen=True)
class LoneBid:
    """A lone bid: its name, its rung (higher beats lower), the exchange, and its value.

    ``give``: cards the partner gives the bidder; ``discard``: cards the bidder lays out.
    ``blind``: both choose before seeing the other's cards.  ``value`` in points (made: +value,
    failed: -value).  ``ends_auction``: nothing may be bid after it (the moonshot).
    """

    name: str
    give: int = 0
    discard: int = 0
    value: int = 12
    blind: bool = False
    ends_auction: bool = False
    strain_named: str = "after"

    def __post_init__(self) -> None:
        """Check the fields' types and ranges; raise RulesError naming the field."""
        for name, ok in (("name", isinstance(self.name, str) and self.name.strip() != ""),
                         ("give", _whole(self.give) is not None and 0 <= self.give <= 12),
                         ("discard", _whole(self.discard) is not None and 0 <= self.discard <= 12),
                         ("value", _whole(self.value) is not None and 0 <= self.value <= 10 ** 6),
                         ("blind", isinstance(self.blind, bool)),
                         ("ends_auction", isinstance(self.ends_auction, bool)),
                         ("strain_named", self.strain_named in ("after", "with"))):
            if not ok:
                raise RulesError(f"lone bid {shown(self.name, 30)}: bad {name} "
                                 f"{shown(getattr(self, name))}")


@dataclass(frozen=True)
class Preset:
    """One table's rules (RULES.md §2, one preset per seed text).

    Fields: ``deck`` (DeckForm), ``strains`` (allowed), ``min_bid``/``max_bid`` (number bids in
    tricks; ``max_bid`` None means all tricks), ``strain_named`` (``"after"`` the auction or
    ``"with"`` the bid), ``lone_bids`` (low → high, all above every number bid),
    ``dealer_must_bid`` (if the first three pass the dealer must bid ≥ min), ``dealer_may_equal``
    (racehorse), ``stick`` (the standard option), ``first_lead`` (``"declarer"`` or
    ``"left_of_dealer"``), ``set_penalty`` (``None``: the bid; an int: flat), ``defenders_vs_lone``
    (``"tricks"`` or ``"nothing"``), ``target`` (points) or ``hands`` (a fixed number of hands),
    ``win_needs_bid_result`` (the game can only be won on a hand the side made or set a bid),
    ``bidders_win_ties`` (pepper: both cross on one hand, the bidding side wins), ``decks``
    (the deck forms the table may choose, when it has a choice: ``double48``'s double48,
    double40 and double32).

    The **table options** (RULES.md §2: "every number above ... is a table option with the
    preset's value as default") are read by :meth:`options` and changed by
    :meth:`with_options`; :meth:`table_options` lists them with their allowed values.
    """

    name: str
    seed: str
    deck: DeckForm
    strains: tuple[Strain, ...]
    min_bid: int = 3
    max_bid: int | None = None
    strain_named: str = "after"
    lone_bids: tuple[LoneBid, ...] = ()
    dealer_must_bid: bool = False
    dealer_may_equal: bool = False
    stick: bool = False
    first_lead: str = "declarer"
    set_penalty: int | None = None
    defenders_vs_lone: str = "tricks"
    target: int | None = 32
    hands: int | None = None
    win_needs_bid_result: bool = False
    bidders_win_ties: bool = False
    extra: dict = field(default_factory=dict, compare=False, hash=False)
    decks: tuple[str, ...] = ()

    @property
    def tricks(self) -> int:
        """Tricks per hand."""
        return self.deck.hand

    @property
    def top_bid(self) -> int:
        """The highest number bid, in tricks."""
        return self.max_bid if self.max_bid is not None else self.tricks

    def __post_init__(self) -> None:
        """Check every table option's type and range (RULES.md §2); raise RulesError naming
        the option and the value."""
        def bad(name: str, want: str) -> RulesError:
            return RulesError(f"preset {shown(self.name, 30)}: option {name}={shown(getattr(self, name))} "
                              f"(expected {want})")

        def whole(name: str, lo: int, hi: int | None = None, none: bool = False) -> None:
            v = getattr(self, name)
            if v is None and none:
                return
            if _whole(v) is None or v < lo or (hi is not None and v > hi):
                raise bad(name, f"a whole number {lo}..{hi if hi is not None else ''}"
                          + (" or None" if none else ""))

        if not isinstance(self.name, str):
            raise bad("name", "a string")
        if not isinstance(self.deck, DeckForm):
            raise bad("deck", "a DeckForm, like DECKS['single24']")
        if (not isinstance(self.strains, tuple) or not self.strains
                or not all(isinstance(s, Strain) for s in self.strains)
                or len(set(self.strains)) != len(self.strains)):
            raise bad("strains", "a tuple of distinct Strain values")
        whole("min_bid", 1, self.deck.hand)
        whole("max_bid", self.min_bid, self.deck.hand, none=True)
        whole("set_penalty", 0, None, none=True)
        whole("target", 1, None, none=True)
        whole("hands", 1, None, none=True)
        for name, allowed in (("strain_named", ("after", "with")),
                              ("first_lead", ("declarer", "left_of_dealer")),
                              ("defenders_vs_lone", ("tricks", "nothing"))):
            if getattr(self, name) not in allowed:
                raise bad(name, " or ".join(repr(a) for a in allowed))
        for name in ("dealer_must_bid", "dealer_may_equal", "stick", "win_needs_bid_result",
                     "bidders_win_ties"):
            if not isinstance(getattr(self, name), bool):
                raise bad(name, "True or False")
        if (not isinstance(self.lone_bids, tuple)
                or not all(isinstance(b, LoneBid) for b in self.lone_bids)):
            raise bad("lone_bids", "a tuple of LoneBid")
        if not isinstance(self.extra, dict):
            raise bad("extra", "a dict")

    # -- table options (RULES.md §2) ---------------------------------------------------------

    def table_options(self) -> list["TableOption"]:
        """This preset's table options, in a fixed order, each with its value, the values it
        allows and what it changes (RULES.md §2).  Which options a preset has:

        - every preset: ``stick``, ``min_bid``, ``penalty``;
        - ``target`` where a score ends the game, ``hands`` where a number of hands does
          (``double32``: 10, the long game 15);
        - one ``lone_<bid>`` per lone bid of the preset (its value in points, won or lost):
          ``lone_12``, ``lone_24`` (standard), ``lone_alone`` (pepper), ``lone_two_card``,
          ``lone_one_card``, ``lone_moonshot`` (double32);
        - ``double48``: ``deck`` (double48, double40, double32), ``lone_exchange`` (off, or a lone
          bid with a blind exchange of k cards each way) and ``lone_value`` (its points; default
          2 × tricks, a decision of RULES.md §2).
        """
        top = self.top_bid
        opts = []
        if self.decks:
            opts.append(TableOption("deck", self.deck.name, " ".join(self.decks), "deck form (RULES.md §1)"))
        opts += [
            TableOption("stick", self.dealer_must_bid or self.stick, "true false",
                        "first three pass: the dealer must bid"),
            TableOption("min_bid", self.min_bid, f"1..{top}", "lowest number bid (tricks)"),
            TableOption("penalty", "bid" if self.set_penalty is None else self.set_penalty,
                        "bid, or points 0..999999999", "a set side loses its bid, or that many points"),
        ]
        if self.target is not None:
            opts.append(TableOption("target", self.target, "points 1..999999999", "score that wins the game"))
        if self.hands is not None:
            opts.append(TableOption("hands", self.hands, "1..999999999", "hands in a game"))
        for b in self.lone_bids:
            if not _is_option_bid(b):
                opts.append(TableOption(_lone_key(b.name), b.value, "points 1..999999999",
                                        f"lone bid {b.name}: points, won or lost"))
        if "lone_exchange" in self.extra:
            k = self.extra.get("lone_exchange")
            opts.append(TableOption("lone_exchange", "off" if k is None else k, f"off, or 0..{self.tricks}",
                                    "adds lone bid lone-k: k cards blind each way"))
            v = self.extra.get("lone_value")
            opts.append(TableOption("lone_value", "2x" if v is None else v, "2x, or points 1..999999999",
                                    "its points, won or lost (2x: 2 × tricks)"))
        return opts

    def options(self) -> dict:
        """``{key: value}`` of the table options (JSON values: ``true``, ``4``, ``"bid"``,
        ``"double40"``, ``"off"``)."""
        return {o.key: o.value for o in self.table_options()}

    def changed_options(self) -> dict:
        """The table options whose value differs from the named preset's (``{}`` for a preset
        as defined, or one not in :data:`PRESETS`): what JSON output echoes as ``"rules"``."""
        base = PRESETS.get(self.name)
        if base is None:
            return {}
        ref = base.options()
        return {k: v for k, v in self.options().items() if ref.get(k) != v}

    def on_deck(self, deck: "DeckForm | str") -> "Preset":
        """The preset over another deck form: its ``deck`` table option where it has one
        (double48's double40 and double32, RULES.md §2, via :meth:`with_options`), else the
        preset's strains, bids and scoring over positions of that deck (as ``solve --deck`` and
        ``play --deck`` read them).  Raises RulesError for an unknown deck form."""
        deck = get_deck(deck)
        if deck == self.deck:
            return self
        if deck.name in self.decks:
            return self.with_options(deck=deck.name)
        return replace(self, deck=deck)

    def with_options(self, **changes) -> "Preset":
        """A copy with some table options changed: ``preset.with_options(target=42)``,
        ``with_options(stick="true", min_bid="4", deck="double40", lone_exchange=2)``.

        Keys are those of :meth:`table_options` (``-`` and ``_`` alike); values may be given as
        text (``"true"``, ``"4"``, ``"bid"``, ``"off"``) or as Python values.  ``set_penalty`` is
        read as ``penalty``; any other field of the dataclass (``dealer_may_equal``, ``extra``)
        is replaced as given.  The lone bid of the ``double48`` option is kept in ``lone_bids``
        (so the auction and scoring see it) and follows the deck's tricks.

        Raises RulesError naming the key and the allowed values for an option this preset does
        not have or a value out of range (RULES.md §2).
        """
        keys = [o.key for o in self.table_options()]
        opts: dict = {}
        raw: dict = {}
        for key, value in changes.items():
            k = str(key).strip().lower().replace("-", "_")
            if k == "set_penalty":
                k, value = "penalty", ("bid" if value is None else value)
            if k in keys:
                opts[k] = value
            elif k in _OPTION_KEYS or k.startswith("lone_"):
                raise RulesError(f"table option {k!r}: {self._missing(k)} (options of preset "
                                 f"{self.name!r}: {' '.join(keys)}; RULES.md §2)")
            elif k in _FIELDS and k not in ("name", "seed"):
                raw[k] = value
            else:
                raise RulesError(f"unknown table option {key!r} (options of preset {self.name!r}: "
                                 f"{' '.join(keys)})")
        p = replace(self, **raw) if raw else self
        return p._apply_options(opts)

    def _missing(self, key: str) -> str:
        """Why this preset has no option ``key``, in words."""
        if key == "deck":
            return (f"preset {self.name!r} is played with {self.deck.name} only; the deck is a "
                    "table option of double48 (double48 double40 double32)")
        if key == "target" and self.hands is not None:
            return f"preset {self.name!r} is played over {self.hands} hands, not to a target: use hands"
        if key == "hands" and self.target is not None:
            return f"preset {self.name!r} is played to a target score, not over a number of hands: use target"
        if key in ("lone_exchange", "lone_value"):
            return "the lone exchange is a table option of double48"
        names = " ".join(b.name for b in self.lone_bids if not _is_option_bid(b))
        return f"preset {self.name!r} has no such lone bid ({'lone bids: ' + names if names else 'no lone bids'})"

    def _apply_options(self, opts: dict) -> "Preset":
        allowed = {o.key: o.allowed for o in self.table_options()}
        ch: dict = {}

        def bad(key, value, why=""):
            return RulesError(f"table option {key}={value!r}: {why or 'allowed: ' + allowed[key]} "
                              f"(preset {self.name!r}, RULES.md §2)")

        deck = self.deck
        if "deck" in opts:
            v = opts["deck"]
            name = v.name if isinstance(v, DeckForm) else str(v).strip().lower()
            if name not in allowed["deck"].split():
                raise bad("deck", v)
            deck = ch["deck"] = DECKS[name]
        tricks = deck.hand
        top = self.max_bid if self.max_bid is not None else tricks
        if "stick" in opts:
            ch["stick"] = ch["dealer_must_bid"] = _option_bool("stick", opts["stick"], bad)
        if "min_bid" in opts:
            v = _option_int(opts["min_bid"])
            if v is None or not 1 <= v <= top:
                raise bad("min_bid", opts["min_bid"], f"allowed: 1..{top}")
            ch["min_bid"] = v
        elif self.min_bid > top:
            raise RulesError(f"table option deck={deck.name!r}: min_bid {self.min_bid} is above the "
                             f"top bid {top}; set min_bid too")
        if "penalty" in opts:
            ch["set_penalty"] = _int_or_word("penalty", opts["penalty"], "bid", 0, None, bad)
        for key in ("target", "hands"):
            if key in opts:
                v = _option_int(opts[key])
                if v is None or v < 1:
                    raise bad(key, opts[key])
                ch[key] = v
        bids = list(self.lone_bids)
        for i, b in enumerate(bids):
            key = _lone_key(b.name)
            if key in opts and not _is_option_bid(b):
                v = _option_int(opts[key])
                if v is None or v < 1:
                    raise bad(key, opts[key])
                bids[i] = replace(b, value=v)
        extra = dict(self.extra)
        if "lone_exchange" in opts:
            extra["lone_exchange"] = _int_or_word("lone_exchange", opts["lone_exchange"], "off", 0,
                                                  tricks, bad, f"allowed: off, or 0..{tricks}")
        if "lone_value" in opts:
            extra["lone_value"] = _int_or_word("lone_value", opts["lone_value"], "2x", 1, None, bad)
        # the double48 option's lone bid lives in lone_bids (the auction, par and advice read
        # it there), rebuilt from the options so that it follows the deck's tricks
        bids = [b for b in bids if not _is_option_bid(b)]
        k = extra.get("lone_exchange")
        if isinstance(k, int) and not isinstance(k, bool) and 0 <= k <= tricks:
            bids.append(LoneBid(f"lone-{k}", give=k, discard=k, blind=True,
                                value=extra.get("lone_value") or 2 * tricks))
        ch["lone_bids"] = tuple(bids)
        ch["extra"] = extra
        return replace(self, **ch)

    def check_strain(self, strain: int) -> Strain:
        """Return ``strain`` as a Strain, or raise RulesError if this preset does not allow it
        (NotationError for a value that names no strain)."""
        strain = parse_strain(strain)
        if strain not in self.strains:
            allowed = " ".join(s.name for s in self.strains)
            raise RulesError(f"strain {strain.name} is not allowed in preset {self.name!r} (allowed: {allowed})")
        return strain


@dataclass(frozen=True)
class TableOption:
    """One table option of a preset (RULES.md §2): ``key`` (as ``--rule KEY=VALUE`` names it),
    ``value`` (its value, JSON-ready), ``allowed`` (the values it takes, as text) and
    ``meaning`` (what it changes, in words)."""

    key: str
    value: object
    allowed: str
    meaning: str


_OPTION_KEYS = frozenset({"deck", "stick", "min_bid", "penalty", "target", "hands",
                          "lone_exchange", "lone_value"})
_FIELDS = frozenset(f for f in Preset.__dataclass_fields__)
_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


def _lone_key(name: str) -> str:
    """The table option naming a lone bid's value: ``lone_12``, ``lone_two_card``."""
    return "lone_" + name.lower().replace("-", "_")


def _is_option_bid(bid: LoneBid) -> bool:
    """Whether a lone bid is the one the ``double48`` option adds (``lone-k``, blind)."""
    return bid.blind and bid.name.startswith("lone-")


def _option_int(value) -> int | None:
    """A whole number from an int or its text; None for anything else (a bool, ``"4.5"``)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return int(value)
    text = str(value).strip()
    return int(text) if re.fullmatch(r"[+-]?[0-9]{1,9}", text) else None


def _int_or_word(key: str, value, word: str, lo: int, hi: int | None, bad, why: str = "") -> int | None:
    """An option that is a whole number in ``lo..hi`` or a word meaning the default (None):
    ``penalty`` (``bid``), ``lone_exchange`` (``off``), ``lone_value`` (``2x``)."""
    if value is None or str(value).strip().lower() in (word, "none"):
        return None
    n = _option_int(value)
    if n is None or n < lo or (hi is not None and n > hi):
        raise bad(key, value, why)
    return n


def _option_bool(key: str, value, bad) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise bad(key, value)


_SUITS = (Strain.S, Strain.H, Strain.D, Strain.C)

PRESETS: dict[str, Preset] = {
    "standard": Preset(
        name="standard", seed="000", deck=DECKS["single24"], strains=_SUITS + (Strain.NT, Strain.NTL),
        min_bid=3, max_bid=6, lone_bids=(LoneBid("12", give=1, discard=1, value=12),
                                          LoneBid("24", value=24)),
        stick=False, first_lead="left_of_dealer", target=32),
    "pepper": Preset(
        name="pepper", seed="001", deck=DECKS["single24"], strains=_SUITS, min_bid=3, max_bid=6,
        lone_bids=(LoneBid("alone", value=12),), dealer_must_bid=True, set_penalty=6,
        defenders_vs_lone="nothing", target=42, bidders_win_ties=True),
    "double32": Preset(
        name="double32", seed="002", deck=DECKS["double32"], strains=_SUITS + (Strain.NT,),
        min_bid=3, max_bid=7, strain_named="with",
        lone_bids=(LoneBid("two-card", give=2, discard=2, value=16),
                   LoneBid("one-card", give=1, discard=1, value=24),
                   LoneBid("moonshot", value=32, ends_auction=True)),
        dealer_must_bid=True, target=None, hands=10),
    "racehorse": Preset(
        name="racehorse", seed="003", deck=DECKS["single24"], strains=_SUITS + (Strain.NT, Strain.NTL),
        min_bid=3, max_bid=6, dealer_must_bid=True, dealer_may_equal=True, target=32,
        win_needs_bid_result=True),
    "double48": Preset(
        name="double48", seed="004", deck=DECKS["double48"], strains=_SUITS + (Strain.NT,),
        min_bid=1, max_bid=None, strain_named="with", target=52, win_needs_bid_result=True,
        extra={"lone_exchange": None, "lone_value": None}, decks=("double48", "double40", "double32")),
}


def get_preset(name: str | Preset) -> Preset:
    """Look up a preset by name.  Raises RulesError for an unknown name or a value that is
    neither a name nor a Preset."""
    if isinstance(name, Preset):
        return name
    if isinstance(name, str) and name.strip().lower() in PRESETS:
        return PRESETS[name.strip().lower()]
    raise RulesError(f"unknown preset {shown(name)} (expected one of: {' '.join(PRESETS)})")
