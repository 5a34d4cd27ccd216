"""The rules of Bid Euchre (RULES.md §1 and §2), one face over the modules that hold them:

- :mod:`bideuchre.errors` — the error classes, under :class:`BidEuchreError`;
- :mod:`bideuchre.inputs` — reading and quoting input (:func:`shown`, :func:`check_seed`,
  :func:`read_int`);
- :mod:`bideuchre.cards` — seats, suits, ranks, cards, strains, deck forms and the play rules
  (:func:`effective_suit`, :func:`rank_order`, :func:`trick_winner`, :func:`legal_cards`);
- :mod:`bideuchre.presets` — the presets of RULES.md §2 as data (:data:`PRESETS`), their lone
  bids and table options.

``from bideuchre.rules import Card, Preset, RulesError`` reads every one of them.
"""

from __future__ import annotations

from .cards import (CARD_RE, DECKS, RANK_CHARS, SUIT_CHARS, Card, DeckForm, Rank, Seat, Side, Strain,
                    Suit, as_card, effective_suit, get_deck, legal_cards, next_active, parse_seat,
                    parse_strain, rank_order, trick_winner)
from .errors import ArgumentError, BidEuchreError, IllegalPlayError, NotationError, RulesError
from .inputs import check_seed, one_line, read_int, shown, whole_number
from .presets import PRESETS, LoneBid, Preset, TableOption, format_rules, get_preset, parse_rules

__all__ = [
    "BidEuchreError", "NotationError", "IllegalPlayError", "RulesError", "ArgumentError",
    "as_card", "read_int", "shown", "one_line", "check_seed", "whole_number",
    "Seat", "Side", "Suit", "Rank", "Card", "Strain", "DeckForm", "DECKS",
    "SUIT_CHARS", "RANK_CHARS", "CARD_RE",
    "LoneBid", "Preset", "PRESETS", "TableOption", "get_preset", "parse_rules", "format_rules",
    "get_deck", "parse_strain", "parse_seat",
    "effective_suit", "rank_order", "trick_winner", "legal_cards", "next_active",
]
