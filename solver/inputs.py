"""Reading and quoting input for messages: :func:`shown` (a bad value quoted, cut short: the
one quoting helper), :func:`one_line` (a message on one short line),
:func:`whole_number`, :func:`check_seed` (the one rule for random seeds) and :func:`read_int`
(a whole number written in digits, for tags and options)."""

from __future__ import annotations

import numbers
import re
from typing import Any

from .errors import ArgumentError, NotationError

__all__ = ["shown", "one_line", "whole_number", "check_seed", "read_int"]


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


def one_line(message: str, limit: int = 240) -> str:
    """A message on one line (runs of whitespace, newlines included, become one space) of at
    most ``limit`` characters (``…`` at the cut): an error that quotes a long input stays one
    short line."""
    text = " ".join(str(message).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def whole_number(value: Any) -> int | None:
    """``value`` as an int when it is a whole number (an int or NumPy integer, not a bool);
    else None."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    return None


def check_seed(seed: Any, what: str = "seed") -> int:
    """The one rule for random seeds (``bid``, ``batch --generate``): a whole number ≥ 0, of
    any size (NumPy seeds its generators from any non-negative int).  Returns it as an int;
    raises ArgumentError naming ``what`` for a negative number or another type."""
    value = whole_number(seed)
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
