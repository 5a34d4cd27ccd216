"""The errors bideuchre raises on bad input (STYLE.md: one ValueError subclass per kind, under
one base).  Every one is a :class:`BidEuchreError`; the CLI turns any of them into one line on
stderr and exit code 2."""

from __future__ import annotations

__all__ = ["BidEuchreError", "NotationError", "IllegalPlayError", "RulesError", "ArgumentError"]


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
