"""Batch input: deals read one a line from a file or stdin (:func:`read_records`), or
generated from a seed (:func:`generate_records`), as :class:`Record` and :class:`BadLine`."""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterator, Sequence

import numpy as np

from ..notation import Deal, counted, parse_hand
from ..rules import BidEuchreError, DeckForm, NotationError, Seat, get_deck, parse_seat
from .base import BatchError

GEN_BLOCK = 1024      # generated deals per random stream (fixed: deals do not depend on jobs)

_RESERVED = ("schema", "id", "deal", "preset", "dealer", "deck", "table", "alone", "par")



@dataclass
class Record:
    """One deal to solve.  ``seq`` is its 0-based position in the input stream (the output
    keeps input order), ``id`` the input's ``id`` or the 1-based line number (generated deals:
    the 1-based index), ``extra`` the input keys carried through to the output."""

    seq: int
    id: int | str
    deal: Deal
    extra: dict = field(default_factory=dict)


@dataclass
class BadLine:
    """A malformed input line: its 1-based number, the error, the text."""

    lineno: int
    message: str
    text: str = ""

    def __str__(self) -> str:
        return f"line {self.lineno}: {self.message}"


def _lines(source) -> Iterator[tuple[int, str]]:
    """(line number, stripped text) of the non-blank, non-comment (``#``) lines of a path,
    ``-`` (stdin) or an open text file."""
    if isinstance(source, (str, os.PathLike)):
        if str(source) == "-":
            yield from _lines(sys.stdin)
            return
        with open(source, encoding="utf-8") as fh:
            yield from _lines(fh)
        return
    for i, line in enumerate(source, 1):
        text = line.strip()
        if text and not text.startswith("#"):
            yield i, text


def count_input_lines(source) -> int | None:
    """Number of deal lines (non-blank, non-comment) in a file, or None for stdin or another
    stream (a pipe named like ``/dev/stdin`` can be read only once)."""
    if not isinstance(source, (str, os.PathLike)) or str(source) == "-" or not os.path.isfile(source):
        return None
    n = 0
    with open(source, "rb") as fh:
        for line in fh:
            s = line.strip()
            if s and not s.startswith(b"#"):
                n += 1
    return n


def _parse_line(lineno: int, text: str, deck: DeckForm, dealer) -> Record:
    extra: dict = {}
    rid: int | str = lineno
    if text.startswith("{"):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise NotationError(f"cannot read JSON: {exc.msg} at column {exc.colno}") from None
        if not isinstance(obj, dict):
            raise NotationError("a JSON line must be an object with a 'deal' key")
        text = obj.pop("deal", None)
        if not isinstance(text, str):
            raise NotationError("a JSON line needs a 'deal' key holding 'N:<hand> <hand> <hand> <hand>'")
        if "id" in obj:
            rid = obj.pop("id")
            if isinstance(rid, bool) or not isinstance(rid, (int, str)):
                raise NotationError(f"id {rid!r} must be a string or an integer")
        if obj.get("dealer") is not None:
            dealer = obj.pop("dealer")
        extra = {k: v for k, v in obj.items() if k not in _RESERVED}
    return Record(lineno - 1, rid, Deal.from_pbn(text, deck, dealer), extra)


def read_records(source, deck: DeckForm | str = "single24",
                 dealer: int | str | None = None) -> Iterator[Record | BadLine]:
    """Read deals, one a line, from a path, ``-`` (stdin) or an open text file.

    A line is a PBN-style deal (RULES.md §4) or a JSON object with a ``deal`` key (``id`` and
    ``dealer`` keys are used, other keys carried through).  Blank lines and lines starting with
    ``#`` are skipped.  Yields a :class:`Record` per good line and a :class:`BadLine` (with its
    line number and the error) per malformed one, including a repeated explicit ``id`` (the
    set of explicit ids is the only thing kept per line); never raises for a bad line.
    ``dealer`` is the default dealer (else the seat named before the colon).
    """
    deck = get_deck(deck)
    named: dict[str, int] = {}     # explicit ids -> line: an id must name one deal only
    for lineno, text in _lines(source):
        try:
            rec = _parse_line(lineno, text, deck, dealer)
        except (BidEuchreError, ValueError) as exc:
            yield BadLine(lineno, " ".join(str(exc).split()), text)
            continue
        if rec.id != lineno:
            key = str(rec.id)
            if key in named:
                yield BadLine(lineno, f"id {rec.id!r} repeats the id of line {named[key]}", text)
                continue
            named[key] = lineno
        yield rec


def parse_fixed_hands(specs: Sequence[str], deck: DeckForm | str) -> dict[Seat, list[int]]:
    """Read ``SEAT=HAND`` specs (``N=AJ.KQ..JT``) into {seat: cards}.

    Each hand must hold exactly a full hand of ``deck`` and no card more often than the deck
    has it (across all the fixed hands).  Raises NotationError naming the spec.
    """
    deck = get_deck(deck)
    fixed: dict[Seat, list[int]] = {}
    used: Counter = Counter()
    allowed = set(deck.card_ids)
    for spec in specs:
        seat_text, sep, hand_text = spec.partition("=")
        if not sep:
            raise NotationError(f"cannot read --hand {spec!r}: expected SEAT=HAND, like N=AJ.KQ..JT")
        seat = parse_seat(seat_text.strip())
        if seat in fixed:
            raise NotationError(f"--hand {spec!r}: seat {seat.name} is fixed twice")
        cards = parse_hand(hand_text, where=f"hand {seat.name}")
        if len(cards) != deck.hand:
            raise NotationError(f"--hand {spec!r} holds {counted(len(cards), 'card')}; {deck.name} deals {deck.hand}")
        for c in cards:
            if c not in allowed:
                raise NotationError(f"--hand {spec!r}: card {c} is not in the {deck.name} deck")
            used[c] += 1
            if used[c] > deck.copies:
                raise NotationError(f"--hand {spec!r}: card {c} is fixed more often than the {deck.name} deck holds it")
        fixed[seat] = [int(c) for c in cards]
    return fixed


def generate_records(n: int, seed: int, deck: DeckForm | str = "single24",
                     fixed: dict[Seat, list[int]] | None = None,
                     dealer: int | str | None = None, start: int = 0) -> Iterator[Record]:
    """Uniform random deals of ``deck`` (the whole deck dealt), ids ``start+1 .. n``.

    Deal *i* is a function of ``(seed, i)`` only: deals come in blocks of :data:`GEN_BLOCK`,
    block *b* shuffled by ``numpy.random.default_rng([seed, b])``, so the same seed gives the
    same deals whatever the number of workers, the chunk size or ``start``.  ``fixed`` gives
    seats whose hands are fixed (:func:`parse_fixed_hands`); the other seats get the rest of the
    deck uniformly.  Each record carries ``{"seed": seed}``.
    """
    deck = get_deck(deck)
    fixed = dict(fixed or {})
    if n < 0 or seed < 0:
        raise BatchError("--generate and --seed must not be negative")
    pack = Counter({c: deck.copies for c in deck.card_ids})
    for cards in fixed.values():
        pack.subtract(cards)
    rest = np.array(sorted(pack.elements()), dtype=np.int8)
    free = [s for s in Seat if s not in fixed]
    h = deck.hand
    i = start
    while i < n:
        b = i // GEN_BLOCK
        rows = block_rows(seed, b, rest)
        for j in range(i - b * GEN_BLOCK, min(GEN_BLOCK, n - b * GEN_BLOCK)):
            hands: list = [None] * 4
            for s, cards in fixed.items():
                hands[s] = cards
            row = rows[j].tolist()
            for k, s in enumerate(free):
                hands[s] = row[k * h:(k + 1) * h]
            yield Record(i, i + 1, Deal(hands, deck, dealer), {"seed": seed})
            i += 1


def block_rows(seed: int, block: int, rest: np.ndarray) -> np.ndarray:
    """Block ``block`` of the generation stream of ``seed``: ``(GEN_BLOCK, len(rest))`` int8, each
    row a uniform permutation of ``rest`` (the cards left for the seats not fixed, sorted), from
    ``numpy.random.default_rng([seed, block])``; the free seats take consecutive slices of a
    row, in seat order.  :func:`generate_records` and, for ``--where``,
    :func:`bideuchre.batch.where.generate_where` deal from it."""
    rng = np.random.default_rng([seed, block])
    return rng.permuted(np.tile(rest, (GEN_BLOCK, 1)), axis=1)
