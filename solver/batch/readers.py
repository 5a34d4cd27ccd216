"""Batch input: deals read one a line from a file or stdin (:func:`read_records`), or
generated from a seed (:func:`generate_records`), as :class:`Record` and :class:`BadLine`."""

from __future__ import annotations

import functools
import json
import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

import numpy as np

from ..notation import Deal, counted, parse_hand, pbn_texts
from ..rules import BidEuchreError, Card, DeckForm, NotationError, Seat, get_deck, parse_seat
from ..inputs import one_line, shown
from ..textio import QUOTE, BadLine, read_lines
from .base import BatchError

GEN_BLOCK = 1024      # generated deals per random stream (fixed: deals do not depend on jobs)
DEALER_MODES = ("rotate", "random")   # --dealer for generated deals, beside a seat
MAX_GENERATE = 10**9  # generated deals a run at most (ids and input order are int64 arrays)

# the keys of a batch output's own line (a line of an output read again keeps only its carried keys)
_RESERVED = ("schema", "id", "deal", "preset", "dealer", "deck", "table", "alone", "par", "options")


@dataclass
class Record:
    """One deal to solve.  ``seq`` is its 0-based position in the input stream (the output
    keeps input order), ``id`` the input's ``id`` or the 1-based line number (generated deals:
    the 1-based index), ``extra`` the input keys carried through to the output."""

    seq: int
    id: int | str
    deal: Deal
    extra: dict = field(default_factory=dict)
    prep: tuple | None = field(default=None, repr=False, compare=False)   # see prepare()


def prepare(rec: Record) -> tuple:
    """What a chunk needs of a deal, made once by the reader's work (on a worker thread):
    ``(deal text, card counts (4 × 24), card indices hand after hand)``; stored in ``rec.prep``."""
    d = rec.deal
    rec.prep = (d.pbn(), d.counts(), [c for h in d.hands for c in h])
    return rec.prep


def count_input_lines(source) -> int | None:
    """Number of deal lines (non-blank, non-comment) in a file, or None for stdin or another
    stream (a pipe named like ``/dev/stdin`` can be read only once)."""
    if not isinstance(source, (str, os.PathLike)) or str(source) == "-" or not os.path.isfile(source):
        return None
    return sum(1 for _ in read_lines(source))      # bad lines too: each is a line done


def _parse_line(lineno: int, text: str, deck: DeckForm, dealer) -> Record:
    extra: dict = {}
    rid: int | str = lineno
    if text.startswith("{"):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise NotationError(f"cannot read JSON: {exc.msg} at column {exc.colno}") from None
        except RecursionError:
            raise NotationError("cannot read JSON: values nested too deeply") from None
        if not isinstance(obj, dict):
            raise NotationError("a JSON line must be an object with a 'deal' key")
        text = obj.pop("deal", None)
        if not isinstance(text, str):
            raise NotationError("a JSON line needs a 'deal' key holding 'N:<hand> <hand> <hand> <hand>'")
        if "id" in obj:
            rid = obj.pop("id")
            if isinstance(rid, bool) or not isinstance(rid, (int, str)):
                raise NotationError(f"id {shown(json.dumps(rid), QUOTE)} must be a string or an integer")
        if obj.get("dealer") is not None:
            dealer = obj.pop("dealer")
            if isinstance(dealer, bool) or not isinstance(dealer, (int, str)):
                raise NotationError(f"dealer {shown(json.dumps(dealer), QUOTE)} must be a seat: N, E, S or W")
        extra = {k: v for k, v in obj.items() if k not in _RESERVED}
        try:        # carried keys are written again as JSON: refuse what cannot be
            json.dumps(extra, ensure_ascii=False)
        except (RecursionError, ValueError):
            raise NotationError("cannot carry the keys of this line: values nested too deeply") from None
    return Record(lineno - 1, rid, Deal.from_pbn(text, deck, dealer), extra)


def _number_id(rid: int | str) -> int | None:
    """The line number an id would name (``7`` or ``"7"``), or None."""
    if isinstance(rid, int):
        return rid
    return int(rid) if rid.isascii() and rid.isdigit() and str(int(rid)) == rid else None


class RecordSource:
    """Records (and bad lines) made in two stages, so that the costly one can run on workers.

    ``batches`` yields the raw input a batch at a time (lines, or generated blocks);
    ``work(batch)`` makes the records of one batch (parsing, dealing: a pure function, safe to
    run on a worker thread); ``take(made)`` runs on the caller, batch after batch in input
    order (the checks across lines: repeated ids).  Iterating the source runs both stages in
    order on the caller; :func:`bideuchre.batch.run_batch` runs ``work`` on its worker threads
    (the main thread then only reads, checks ids and writes)."""

    def __init__(self, batches: Iterator, work: Callable[[object], list], take: Callable[[list], Iterator]):
        self._batches, self.work, self.take = batches, work, take
        self._first: list | None = None

    def prime(self) -> bool:
        """Read the first batch now (waiting for stdin's first lines); False when there is none."""
        if self._first is None:
            self._first = next(self._batches, [])
        return bool(self._first)

    def batches(self) -> Iterator:
        """The raw batches, the one read by :meth:`prime` first."""
        if self._first is not None:
            first, self._first = self._first, []
            if first:
                yield first
        yield from self._batches

    def __iter__(self) -> Iterator[Record | BadLine]:
        for batch in self.batches():
            yield from self.take(self.work(batch))


READ_BATCH = 256      # lines parsed in one piece of work


def _line_batches(source) -> Iterator[list]:
    batch: list = []
    for item in read_lines(source):
        batch.append(item)
        if len(batch) >= READ_BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _parse_batch(batch: list, deck: DeckForm, dealer) -> list:
    """(line number, start of the text, Record or BadLine) of each line of a batch."""
    out = []
    for lineno, text in batch:
        if isinstance(text, BadLine):
            out.append((lineno, text.text, text))
            continue
        try:
            rec = _parse_line(lineno, text, deck, dealer)
            prepare(rec)
            out.append((lineno, text[:QUOTE], rec))
        except (BidEuchreError, ValueError, TypeError) as exc:
            out.append((lineno, text[:QUOTE], BadLine(lineno, one_line(str(exc), 300), text[:QUOTE])))
    return out


class _Ids:
    """The check across lines: an id names one deal only (see :func:`read_records`)."""

    def __init__(self):
        self.named: dict[str, int] = {}     # explicit ids -> line
        self.plain = bytearray()            # bit L: line L is a deal named by its number

    def __call__(self, parsed: list) -> Iterator[Record | BadLine]:
        named, plain = self.named, self.plain
        for lineno, start, rec in parsed:
            if isinstance(rec, BadLine):
                yield rec
                continue
            key = str(rec.id)
            if rec.id == lineno:                            # named by its line number
                if key in named:
                    yield BadLine(lineno, f"this line's number is the id of line {named[key]}; give it "
                                          f"an id of its own", start)
                    continue
                if len(plain) <= lineno >> 3:
                    plain.extend(bytes((lineno >> 3) + 1 - len(plain) + 4096))
                plain[lineno >> 3] |= 1 << (lineno & 7)
            else:
                num = _number_id(rec.id)
                if key in named:
                    yield BadLine(lineno, f"id {shown(key, QUOTE)} repeats the id of line {named[key]}", start)
                    continue
                if num is not None and num < 8 * len(plain) and plain[num >> 3] >> (num & 7) & 1:
                    yield BadLine(lineno, f"id {shown(key, QUOTE)} is the id of line {num} (a deal without an id "
                                          f"is named by its line number)", start)
                    continue
                named[key] = lineno
            yield rec


def read_records(source, deck: DeckForm | str = "single24",
                 dealer: int | str | None = None) -> RecordSource:
    """Read deals, one a line, from a path, ``-`` (stdin) or an open file.

    A line is a PBN-style deal (RULES.md §4) or a JSON object with a ``deal`` key (``id`` and
    ``dealer`` keys are used, other keys carried through).  Blank lines and lines starting with
    ``#`` are skipped.  Lines are read by :func:`bideuchre.textio.read_lines`: at most
    :data:`~bideuchre.textio.MAX_LINE` bytes a line, UTF-8.  Iterating the result yields a
    :class:`Record` per good line and a :class:`BadLine` (with its line number, the error and
    the start of the text) per bad one: a line too long, not UTF-8, not a deal, or whose id is
    already taken (ids are unique: a line without an ``id`` is named by its line number, so an
    explicit ``id`` equal to the number of an earlier line without one is taken too, and a line
    without one whose number an earlier line took as its ``id`` is refused).  Never raises for
    a bad line.  Memory per line read: the explicit ids, and one bit per line.
    ``dealer`` is the default dealer (else the seat named before the colon).  The result is a
    :class:`RecordSource` (lines are parsed in batches of :data:`READ_BATCH`).
    """
    deck = get_deck(deck)
    return RecordSource(_line_batches(source), functools.partial(_parse_batch, deck=deck, dealer=dealer), _Ids())


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
                     dealer: int | str | None = None, start: int = 0) -> RecordSource:
    """Uniform random deals of ``deck`` (the whole deck dealt), ids ``start+1 .. n``.

    Deal *i* is a function of ``(seed, i)`` only: deals come in blocks of :data:`GEN_BLOCK`,
    block *b* shuffled by ``numpy.random.default_rng([seed, b])``, so the same seed gives the
    same deals whatever the number of workers, the chunk size or ``start``.  ``fixed`` gives
    seats whose hands are fixed (:func:`parse_fixed_hands`); the other seats get the rest of the
    deck uniformly.  ``dealer``: a seat (default N), ``"rotate"`` (deal *i*, 1-based, dealt by
    N, E, S, W in turn: deal 1 by N) or ``"random"`` (each deal's dealer uniform, drawn from
    the block's generator after the hands, so the hands do not depend on this option).  Each
    record carries ``{"seed": seed}``.  Raises BatchError (at once, not
    on the first deal) for a negative ``n`` or ``seed`` or ``n`` over :data:`MAX_GENERATE`.
    """
    deck = get_deck(deck)
    fixed = dict(fixed or {})
    check_generate(n, seed)
    dealer = parse_dealer(dealer)                # a bad seat is refused now, not on the first deal
    blocks = ((b, max(start, b * GEN_BLOCK), min(n, (b + 1) * GEN_BLOCK))
              for b in range(start // GEN_BLOCK, (n + GEN_BLOCK - 1) // GEN_BLOCK))
    return RecordSource(blocks, functools.partial(_generate_block, seed=seed, deck=deck, fixed=fixed,
                                                  dealer=dealer), iter)


def check_generate(n: int, seed: int) -> None:
    """Raise BatchError unless ``0 <= n <= MAX_GENERATE`` and ``seed >= 0`` (``seed`` may be any
    size: numpy's generators take it whole)."""
    if n < 0:
        raise BatchError(f"--generate {n}: must not be negative")
    if seed < 0:
        raise BatchError(f"--seed {seed}: must not be negative (seeds are whole numbers ≥ 0)")
    if n > MAX_GENERATE:
        raise BatchError(f"--generate {n:,}: at most {MAX_GENERATE:,} deals a run (about four days at "
                         f"3,000 deals a second); split a larger study into runs of other seeds")


def _generate_block(block: tuple[int, int, int], seed: int, deck: DeckForm, fixed: dict, dealer) -> list[Record]:
    """The deals ``lo .. hi - 1`` of block ``b`` (``block = (b, lo, hi)``), block *b* shuffled by
    ``numpy.random.default_rng([seed, b])``."""
    b, lo, hi = block
    rest = rest_of_deck(deck, fixed)
    free = [s for s in Seat if s not in fixed]
    h = deck.hand
    rows, dealers = block_rows(seed, b, rest, random_dealers=dealer == "random")
    # the block at once with numpy (the reader's work holds the GIL that the solving threads
    # need): the hands sorted, the counts, the deal texts; each Deal as Deal(...) would make it
    rows = rows[lo - b * GEN_BLOCK:hi - b * GEN_BLOCK]
    m = len(rows)
    hands = np.empty((m, 4, h), dtype=np.int8)
    for k, s in enumerate(free):
        hands[:, s] = rows[:, k * h:(k + 1) * h]
    for s, cards in fixed.items():
        hands[:, s] = cards
    hands.sort(axis=2)
    counts = np.zeros((m, 4, 24), dtype=np.uint8)
    for c in range(24):
        counts[:, :, c] = (hands == c).sum(axis=2)
    pbns = pbn_texts(counts, deck.copies)
    flat = hands.reshape(m, 4 * h)
    seat = None if dealer in (None, "rotate", "random") else parse_seat(dealer)
    out = []
    for j, (i, cards) in enumerate(zip(range(lo, hi), hands.tolist())):
        who = Seat(int(dealers[j + lo - b * GEN_BLOCK])) if dealers is not None else \
            Seat(i % 4) if dealer == "rotate" else Seat.N if seat is None else seat
        deal = Deal._dealt(tuple(tuple(_CARDS[c] for c in hand) for hand in cards), deck, who)
        rec = Record(i, i + 1, deal, {"seed": seed})
        rec.prep = (pbns[j], counts[j], flat[j])
        out.append(rec)
    return out


_CARDS = tuple(Card(i) for i in range(24))


def block_rows(seed: int, block: int, rest: np.ndarray,
               random_dealers: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
    """Block ``block`` of the generation stream of ``seed``: ``(rows, dealers)``.  ``rows`` is
    ``(GEN_BLOCK, len(rest))`` int8, each row a uniform permutation of ``rest`` (the cards left
    for the seats not fixed, sorted: :func:`rest_of_deck`), from
    ``numpy.random.default_rng([seed, block])``; the free seats take consecutive slices of a
    row, in seat order.  With ``random_dealers``, ``dealers`` holds each row's dealer (0..3),
    drawn from the same generator after the hands (so the hands of a seed do not depend on the
    dealer option); else None.  :func:`generate_records` and, for ``--where``,
    :func:`bideuchre.batch.where.generate_where` deal from it."""
    rng = np.random.default_rng([seed, block])
    rows = rng.permuted(np.tile(rest, (GEN_BLOCK, 1)), axis=1)
    return rows, (rng.integers(0, 4, size=GEN_BLOCK) if random_dealers else None)


def row_hands(row: np.ndarray, fixed: dict, free: list, hand: int) -> list:
    """The four hands of one row of the generation stream: the fixed seats' hands, and the free
    seats (in seat order) taking consecutive slices of ``hand`` cards of the row."""
    hands: list = [None] * 4
    for s, cards in fixed.items():
        hands[s] = cards
    cards = row.tolist()
    for k, s in enumerate(free):
        hands[s] = cards[k * hand:(k + 1) * hand]
    return hands


def rest_of_deck(deck: DeckForm, fixed: dict) -> np.ndarray:
    """The cards left for the seats that are not fixed, sorted (the stream's row order)."""
    pack = Counter({c: deck.copies for c in deck.card_ids})
    for cards in fixed.values():
        pack.subtract(cards)
    return np.array(sorted(pack.elements()), dtype=np.int8)


def parse_dealer(dealer) -> Seat | str | None:
    """A dealer option of generated deals: None, a seat (``Seat``, int or text), ``"rotate"``
    or ``"random"`` (:data:`DEALER_MODES`).  Raises NotationError for anything else (naming the
    choices)."""
    if dealer is None or isinstance(dealer, Seat):
        return dealer
    if isinstance(dealer, str) and dealer.strip().lower() in DEALER_MODES:
        return dealer.strip().lower()
    try:
        return parse_seat(dealer)
    except (NotationError, ValueError):
        raise NotationError(f"unknown dealer {dealer!r} (expected a seat N E S W, or rotate or random)") from None
