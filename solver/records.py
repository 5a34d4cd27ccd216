"""Hand records: our own PBN-like format, and the Trickster Cards PTN importer.

A :class:`HandRecord` is one hand: the deal (some hands may be hidden), deck form, preset,
dealer, declarer, strain, bid, lone seat, auction and the cards played.  Two text forms:

**Our format** (parse and format round-trip; RULES.md §4 for the deal).  Tag pairs, one a line,
in this order, then optional sections; records are separated by a blank line::

    [Event "Example"]
    [Deck "single24"]
    [Preset "standard"]
    [Dealer "N"]
    [Deal "N:AJ9.K.AT. K.T.J9.AK T.AJ..JT9 Q.Q9.KQ.Q"]
    [Declarer "S"]
    [Strain "C"]
    [Bid "3"]
    [Lone "S"]
    [Auction "E"]
    2 3 Pass Pass
    [Play "E"]
    D9 C9 DA DK
    CA ...

Every tag is optional except ``Deal``.  ``Deal`` may show ``-`` for a hidden hand; ``Strain`` is
``S H D C NT NTL``; ``Bid`` is the winning bid as written (``4``, ``12``, ``alone``); ``Lone`` the
lone seat.  ``Auction "X"``: the calls from seat X on, clockwise (``-`` for a seat that makes no
call).  ``Play "X"``: X leads the first trick; then **one trick a line, the cards in the order
played, the trick's leader first** (unlike PBN's fixed seat columns, so a line reads as the
trick went).

**PTN** (Trickster Cards, Bid Euchre variation; read only).  ``[Deal "W:..."]`` (first seat,
hands clockwise, ``-`` hidden), ``[Declarer]``, ``[Contract "6♠"]`` (``NT``, ``NT↓`` = NTL,
``Alone``/``Call1``/``Call2`` = a lone hand by the declarer), ``[Auction "E"]`` and rows of calls
from that seat, ``[Play "S"]`` and one row a trick whose **columns are the seats clockwise from
the Play seat**, not the play order: the first trick is led by the Play seat, each later one by
the previous trick's winner; ``-`` marks a seat that plays no card (a lone hand's partner, an
unfinished last trick).  ``GameOptionsJson`` gives the deck: ``numDecks`` 2 makes a double deck,
``deckSize`` 16 (J–A per copy) double32, 20 double40, otherwise double48.

Decisions where the sources are silent: a PTN record's dealer is the seat before the first
caller (the auction starts left of the dealer); a PTN record without ``Declarer``/``Contract``
takes them from the auction (the call naming a strain, else the last call that is not a pass).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .textio import checked_lines
from .notation import Deal, Position, counted, format_hand, parse_card, parse_hand, split_deal
from .rules import (
    PRESETS, ArgumentError, Card, DeckForm, IllegalPlayError, NotationError, Seat, Strain,
    get_deck, get_preset, next_active, parse_seat, parse_strain, read_int, shown, trick_winner,
    BidEuchreError,
)

__all__ = ["HandRecord", "read_records", "load_record", "parse_records", "parse_ptn", "parse_text",
           "format_record", "format_records", "write_records"]


@dataclass
class HandRecord:
    """One hand of Bid Euchre as recorded.

    Fields: ``deal`` (:class:`~bideuchre.notation.Deal`, None when any hand is hidden); ``hands``
    (per seat, index = Seat: the cards, or None for a hidden hand); ``deck`` (DeckForm);
    ``preset`` (name or None); ``dealer``, ``declarer`` (Seat or None); ``strain`` (Strain or
    None); ``bid`` (the winning bid as written: ``"4"``, ``"Alone"``, or None); ``lone`` (the
    lone seat or None); ``auction`` (the calls in order from ``auction_first``: ``auction[i]``
    belongs to seat ``(auction_first + i) % 4``, ``"-"`` where that seat made no call — see
    :meth:`calls`); ``play`` (cards in play order, each trick's leader first); ``leader`` (the
    seat that led the first trick); ``event``; ``source`` (``file:line`` of the record, for
    messages); ``deal_first`` (the seat the deal was written from); ``options`` (PTN
    ``GameOptionsJson``, else {}).
    """

    deal: Deal | None
    hands: list[list[Card] | None]
    deck: DeckForm
    preset: str | None = None
    dealer: Seat | None = None
    declarer: Seat | None = None
    strain: Strain | None = None
    bid: str | None = None
    lone: Seat | None = None
    auction: list[str] = field(default_factory=list)
    auction_first: Seat | None = None
    play: list[Card] = field(default_factory=list)
    event: str = ""
    source: str = field(default="", compare=False)
    leader: Seat | None = None
    deal_first: Seat = Seat.N
    options: dict = field(default_factory=dict)

    @property
    def hidden(self) -> list[Seat]:
        """The seats whose hand is hidden."""
        return [Seat(s) for s, h in enumerate(self.hands) if h is None]

    def calls(self) -> list[tuple[Seat, str]]:
        """The auction as (seat, call) pairs in order, skipping ``-`` (no call)."""
        if self.auction_first is None:
            return []
        return [(Seat((self.auction_first + i) % 4), c) for i, c in enumerate(self.auction) if c != "-"]

    def position(self) -> Position:
        """The position after the recorded play.  Raises NotationError if a hand is hidden or
        the strain or first leader is unknown; IllegalPlayError for an illegal card."""
        if self.deal is None:
            raise NotationError(f"{self.source}: hand(s) {' '.join(s.name for s in self.hidden)} hidden")
        if self.strain is None or self.leader is None:
            raise NotationError(f"{self.source}: the record names no strain or no first leader")
        return Position(self.deal, self.strain, self.leader, self.play, self.lone)

    def position_at(self, trick: int | None = None) -> Position:
        """The position before trick ``trick`` (1-based) of the recorded play: the first
        ``trick - 1`` tricks played; ``None``: after the whole recorded play (as
        :meth:`position`).  Raises NotationError as :meth:`position` does, and for a trick
        out of range: below 1, past the hand's last trick, or after more tricks than the
        record plays."""
        pos = self.position()
        if trick is None:
            return pos
        size = pos.trick_size
        total = len(self.deal.hands[0])
        done = len(self.play) // size
        if not 1 <= trick <= total:
            raise NotationError(f"{self.source}: trick {trick} is out of range (a hand has tricks 1..{total})")
        if trick - 1 > done:
            raise NotationError(f"{self.source}: trick {trick} comes after the recorded play "
                                f"({done} complete trick{'' if done == 1 else 's'}; --trick 1..{done + 1})")
        return Position(self.deal, self.strain, self.leader, self.play[:(trick - 1) * size], self.lone)

    def deal_text(self) -> str:
        """The deal in RULES.md §4 notation from ``deal_first``, ``-`` for a hidden hand."""
        f = self.deal_first
        return f"{f.name}:" + " ".join(
            "-" if self.hands[(f + i) % 4] is None else format_hand(self.hands[(f + i) % 4])
            for i in range(4))

    def to_json(self) -> dict:
        return {"event": self.event, "deal": self.deal_text(), "deck": self.deck.name,
                "preset": self.preset, "dealer": _name(self.dealer), "declarer": _name(self.declarer),
                "strain": _name(self.strain), "bid": self.bid, "lone": _name(self.lone),
                "auction_first": _name(self.auction_first), "auction": list(self.auction),
                "leader": _name(self.leader), "play": [str(c) for c in self.play],
                "source": self.source}


def _name(x) -> str | None:
    return None if x is None else x.name


# ---------------------------------------------------------------------------------------------
# Reading: tag blocks

_TAG_RE = re.compile(r'^\[\s*(\w+)\s+"(.*)"\s*\]\s*$')


@dataclass
class _Block:
    tags: dict          # name -> (value, line)
    sections: dict      # name -> list of (line, text)
    line: int           # first line


def _blocks(text: str, source: str) -> list[_Block]:
    """Split text into records: tag pairs with the lines under them; a blank line or a tag seen
    before in the record starts a new one."""
    blocks: list[_Block] = []
    cur: _Block | None = None
    section: str | None = None
    for i, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("%") or line.startswith("#"):
            if not line:
                cur, section = None, None
            continue
        m = _TAG_RE.match(line)
        if m:
            name, value = m.group(1), m.group(2)
            if cur is None or name in cur.tags:
                cur = _Block({}, {}, i)
                blocks.append(cur)
            cur.tags[name] = (value.replace('\\"', '"'), i)
            section = name
            cur.sections.setdefault(name, [])
            continue
        if cur is None or section is None:
            raise NotationError(f"{source}:{i}: text outside a record: {line!r} (expected a tag like [Deal \"N:...\"])")
        cur.sections[section].append((i, line))
    return blocks


def _is_ptn(blocks: list[_Block], path: str) -> bool:
    if path.lower().endswith(".ptn"):
        return True
    for b in blocks:
        if "GameOptionsJson" in b.tags or "Contract" in b.tags:
            return True
        if "Strain" in b.tags or "Deck" in b.tags or "Preset" in b.tags:
            return False
    return False


def _parse_deal(value: str, deck: DeckForm, where: str) -> tuple[Seat, list[list[Card] | None]]:
    try:
        first, fields = split_deal(value)
    except NotationError as exc:
        raise NotationError(f"{where}: {exc}") from None
    hands: list[list[Card] | None] = [None] * 4
    for i, f in enumerate(fields):
        seat = Seat((first + i) % 4)
        if f == "-":
            continue
        if f.count(".") != 3:
            raise NotationError(f"{where}: hand {seat.name} {f!r} has {f.count('.') + 1} suits; "
                                "expected 4 (spades.hearts.diamonds.clubs)")
        try:
            hands[seat] = parse_hand(f, where=f"hand {seat.name}")
        except NotationError as exc:
            raise NotationError(f"{where}: {exc}") from None
    allowed = set(deck.card_ids)
    seen: dict[Card, int] = {}
    for seat, h in enumerate(hands):
        for c in h or ():
            if c not in allowed:
                raise NotationError(f"{where}: hand {Seat(seat).name}: card {c} is not in the {deck.name} deck")
            seen[c] = seen.get(c, 0) + 1
            if seen[c] > deck.copies:
                raise NotationError(f"{where}: card {c} held {seen[c]} times; the {deck.name} deck has "
                                    f"{deck.copies} cop{'y' if deck.copies == 1 else 'ies'}")
    return first, hands


def _make_deal(hands, deck: DeckForm, dealer: Seat | None, first: Seat, where: str) -> Deal | None:
    if any(h is None for h in hands):
        return None
    try:
        return Deal(hands, deck, dealer, first=first)
    except NotationError as exc:
        raise NotationError(f"{where}: {exc}") from None


def _check_play(rec: HandRecord, lines: list[str] | None) -> None:
    """With every hand known, the play must be legal.  An error names ``lines[i]``, the file
    and line of the i-th card."""
    if rec.deal is None or not rec.play:
        return
    pos = Position(rec.deal, rec.strain, rec.leader, [], rec.lone)
    for card, at in zip(rec.play, lines):
        try:
            pos.play(card)
        except IllegalPlayError as exc:
            raise IllegalPlayError(f"{at}: {exc}") from None


def _seat_tag(b: _Block, name: str, where: str) -> Seat | None:
    if name not in b.tags:
        return None
    value, line = b.tags[name]
    if value.strip() in ("", "-", "?"):
        return None
    try:
        return parse_seat(value)
    except NotationError as exc:
        raise NotationError(f"{where.rsplit(':', 1)[0]}:{line}: {exc}") from None


# ---------------------------------------------------------------------------------------------
# Our format

def parse_records(text: str, source: str = "<text>") -> list[HandRecord]:
    """Parse records in our format (module docstring).  Returns the records in order.
    Raises NotationError / IllegalPlayError naming ``source`` and the line."""
    return [_ours(b, source) for b in _blocks(text, source)]


def _ours(b: _Block, source: str) -> HandRecord:
    where = f"{source}:{b.line}"

    def at(name: str) -> str:
        return f"{source}:{b.tags[name][1]}" if name in b.tags else where

    if "Deal" not in b.tags:
        raise NotationError(f"{where}: record has no [Deal] tag")
    preset = b.tags["Preset"][0].strip() or None if "Preset" in b.tags else None
    if preset is not None:
        try:
            preset = get_preset(preset).name
        except BidEuchreError as exc:
            raise NotationError(f"{at('Preset')}: {exc}") from None
    if "Deck" in b.tags:
        try:
            deck = get_deck(b.tags["Deck"][0])
        except NotationError as exc:
            raise NotationError(f"{at('Deck')}: {exc}") from None
    else:
        deck = get_preset(preset).deck if preset else get_deck("single24")
    dealer = _seat_tag(b, "Dealer", at("Dealer"))
    first, hands = _parse_deal(b.tags["Deal"][0], deck, at("Deal"))
    deal = _make_deal(hands, deck, dealer, first, at("Deal"))
    strain = None
    if "Strain" in b.tags and b.tags["Strain"][0].strip() not in ("", "-"):
        try:
            strain = parse_strain(b.tags["Strain"][0])
        except NotationError as exc:
            raise NotationError(f"{at('Strain')}: {exc}") from None
    bid = b.tags["Bid"][0].strip() or None if "Bid" in b.tags else None
    numbers = _number_bids(deck)
    if bid is not None and bid.isdigit() and (
            not re.fullmatch(r"[0-9]{1,9}", bid) or int(bid) not in numbers):
        # a bid written with digits is a number bid (or standard's lone 12/24): ASCII digits
        # only (int() would read '٣' and fail on '²'), at most 9 of them (Python refuses to
        # convert more than 4,300)
        lone_numbers = " ".join(str(k) for k in sorted(numbers) if k > deck.hand) or "none"
        raise NotationError(f"{at('Bid')}: no bid {bid if len(bid) <= 12 else shown(bid)} with the "
                            f"{deck.name} deck (a hand has {deck.hand} tricks; lone bids {lone_numbers})")
    auction: list[str] = []
    for _, text in b.sections.get("Auction", []):
        auction.extend(text.split())
    leader = _seat_tag(b, "Play", at("Play"))
    play: list[Card] = []
    play_at: list[str] = []          # the file and line of each card, for errors
    lone = _seat_tag(b, "Lone", at("Lone"))
    size = 3 if lone is not None else 4
    for line, text in b.sections.get("Play", []):
        tokens = text.split()
        if len(tokens) > size:
            raise NotationError(f"{source}:{line}: a trick line holds at most {size} cards, got {len(tokens)}")
        for t in tokens:
            try:
                play.append(parse_card(t))
            except NotationError as exc:
                raise NotationError(f"{source}:{line}: {exc}") from None
            play_at.append(f"{source}:{line}")
    if play and leader is None:
        raise NotationError(f"{at('Play')}: the [Play] tag must name the first leader")
    rec = HandRecord(deal, hands, deck, preset, dealer, _seat_tag(b, "Declarer", at("Declarer")),
                     strain, bid, lone, auction, _seat_tag(b, "Auction", at("Auction")), play,
                     b.tags.get("Event", ("", 0))[0], where, leader, first, {})
    if play and strain is None:
        raise NotationError(f"{where}: a record with play needs a [Strain]")
    _check_play(rec, play_at)
    return rec


def _number_bids(deck: DeckForm) -> set[int]:
    """The bids written as numbers with a deck form: 1 to the tricks of a hand, and the lone
    bids named by numbers in the presets of that deck (``standard``'s 12 and 24)."""
    out = set(range(1, deck.hand + 1))
    for p in PRESETS.values():
        if p.deck == deck:
            out |= {int(lb.name) for lb in p.lone_bids if lb.name.isdigit()}
    return out


def _q(value: str) -> str:
    return value.replace('"', '\\"')


def format_record(rec: HandRecord) -> str:
    """One record in our format (module docstring), ending with a newline.
    ``parse_records(format_record(r))[0] == r`` for every record."""
    lines = [f'[Event "{_q(rec.event)}"]', f'[Deck "{rec.deck.name}"]']
    if rec.preset is not None:
        lines.append(f'[Preset "{rec.preset}"]')
    if rec.dealer is not None:
        lines.append(f'[Dealer "{rec.dealer.name}"]')
    lines.append(f'[Deal "{rec.deal_text()}"]')
    if rec.declarer is not None:
        lines.append(f'[Declarer "{rec.declarer.name}"]')
    if rec.strain is not None:
        lines.append(f'[Strain "{rec.strain.name}"]')
    if rec.bid is not None:
        lines.append(f'[Bid "{_q(rec.bid)}"]')
    if rec.lone is not None:
        lines.append(f'[Lone "{rec.lone.name}"]')
    if rec.auction_first is not None or rec.auction:
        first = rec.auction_first.name if rec.auction_first is not None else "-"
        lines.append(f'[Auction "{first}"]')
        for i in range(0, len(rec.auction), 4):
            lines.append(" ".join(rec.auction[i:i + 4]))
    if rec.leader is not None:
        lines.append(f'[Play "{rec.leader.name}"]')
        size = 3 if rec.lone is not None else 4
        for i in range(0, len(rec.play), size):
            lines.append(" ".join(str(c) for c in rec.play[i:i + size]))
    return "\n".join(lines) + "\n"


def format_records(records) -> str:
    """Records in our format, separated by blank lines."""
    return "\n".join(format_record(r) for r in records)


def write_records(path: str | Path, records) -> None:
    """Write records in our format to ``path`` (UTF-8).  Raises OSError naming ``path`` (a
    full disk too)."""
    try:
        Path(path).write_text(format_records(records), encoding="utf-8")
    except OSError as exc:
        if exc.filename:
            raise
        raise OSError(exc.errno, exc.strerror, str(path)) from None


# ---------------------------------------------------------------------------------------------
# PTN (Trickster Cards)

_STRAIN_TOKENS = (("NT↓", Strain.NTL), ("NTL", Strain.NTL), ("NT", Strain.NT), ("♠", Strain.S),
                  ("♥", Strain.H), ("♦", Strain.D), ("♣", Strain.C))
_LONE_WORDS = ("alone", "call1", "call2")


def _contract(text: str) -> tuple[str | None, Strain | None, bool]:
    """PTN contract or call → (bid, strain, lone).  ``6♠`` → ("6", S, False);
    ``NTAlone`` → ("Alone", NT, True); ``6NT↓`` → ("6", NTL, False); ``Pass`` → (None, None, False)."""
    t = text.strip()
    strain = None
    for tok, st in _STRAIN_TOKENS:
        if tok in t:
            strain = st
            t = t.replace(tok, "", 1).strip()
            break
    if not t or t.lower() == "pass":
        return None, strain, False
    return t, strain, t.lower() in _LONE_WORDS


def _ptn_deck(options: dict, where: str) -> DeckForm:
    """The deck form of PTN ``GameOptionsJson`` (module docstring).  Raises NotationError
    naming ``where`` for options that are not a JSON object, or a ``numDecks``/``deckSize``
    that is not a whole number (a number or a string of digits)."""
    if not isinstance(options, dict):
        raise NotationError(f"{where}: GameOptionsJson is {type(options).__name__} "
                            f"{shown(options)}; expected a JSON object like {{\"numDecks\": 2}}")

    def number(key: str, default: int) -> int:
        v = options.get(key, default)
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        try:
            return read_int(v, f"GameOptionsJson {key}", 4)
        except NotationError as exc:
            raise NotationError(f"{where}: {exc}") from None

    if number("numDecks", 1) == 2:
        size = number("deckSize", 24)
        return get_deck({16: "double32", 20: "double40"}.get(size, "double48"))
    return get_deck("single24")


def parse_ptn(text: str, source: str = "<text>") -> list[HandRecord]:
    """Import Trickster PTN records (module docstring).  Returns the records in order.
    Raises NotationError / IllegalPlayError naming ``source`` and the line."""
    return [_ptn(b, source) for b in _blocks(text, source)]


def _ptn(b: _Block, source: str) -> HandRecord:
    where = f"{source}:{b.line}"

    def at(name: str) -> str:
        return f"{source}:{b.tags[name][1]}" if name in b.tags else where

    options: dict = {}
    if "GameOptionsJson" in b.tags:
        try:
            options = json.loads(b.tags["GameOptionsJson"][0])
        except (ValueError, RecursionError) as exc:   # JSONDecodeError; nesting too deep
            why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
            raise NotationError(f"{at('GameOptionsJson')}: cannot read GameOptionsJson: {why}") from None
    deck = _ptn_deck(options, at("GameOptionsJson"))
    if "Deal" not in b.tags:
        raise NotationError(f"{where}: record has no [Deal] tag")
    first, hands = _parse_deal(b.tags["Deal"][0], deck, at("Deal"))

    # auction: rows of calls, columns = seats clockwise from the Auction seat
    auction_first = _seat_tag(b, "Auction", at("Auction"))
    auction: list[str] = []
    for line, text in b.sections.get("Auction", []):
        row = text.split()
        if len(row) > 4:
            raise NotationError(f"{source}:{line}: an auction row holds at most 4 calls, got {len(row)}")
        auction.extend(row + ["-"] * (4 - len(row)) if line != b.sections["Auction"][-1][0] else row)
    dealer = None if auction_first is None else Seat((auction_first + 3) % 4)

    declarer = _seat_tag(b, "Declarer", at("Declarer"))
    bid = strain = None
    lone_flag = False
    if "Contract" in b.tags:
        bid, strain, lone_flag = _contract(b.tags["Contract"][0])
    # the call naming a strain (or the last real call) fills what the tags leave out
    named = last = None
    if auction_first is not None:
        for i, call in enumerate(auction):
            if call == "-":
                continue
            cb, cs, cl = _contract(call)
            seat = Seat((auction_first + i) % 4)
            if cb is not None:
                last = (seat, cb, cs, cl)
            if cs is not None:
                named = (seat, cb, cs, cl)
    pick = named or last
    if pick is not None:
        if declarer is None:
            declarer = pick[0]
        if bid is None and strain is None:
            _, bid, strain, lone_flag = pick
    lone = declarer if lone_flag else None

    leader = _seat_tag(b, "Play", at("Play"))
    play: list[Card] = []
    play_at: list[str] | None = None
    rows = b.sections.get("Play", [])
    if rows:
        if strain is None:
            raise NotationError(f"{at('Play')}: play given but no contract names the strain")
        if leader is None:
            raise NotationError(f"{at('Play')}: the [Play] tag must name the seat of the first "
                                "column (the first leader)")
        play, play_at = _ptn_play(rows, leader, strain, lone, source)
    deal = _make_deal(hands, deck, dealer, first, at("Deal"))
    rec = HandRecord(deal, hands, deck, None, dealer, declarer, strain, bid, lone, auction,
                     auction_first, play, b.tags.get("Event", ("", 0))[0], where, leader, first,
                     options)
    _check_play(rec, play_at)
    return rec


def _ptn_play(rows, column0: Seat, strain: Strain, lone: Seat | None,
              source: str) -> tuple[list[Card], list[str]]:
    """PTN play rows (columns: seats clockwise from ``column0``) → cards in play order, and the
    file and line of each (for errors)."""
    out = None if lone is None else lone.partner
    size = 3 if lone is not None else 4
    leader = column0
    play: list[Card] = []
    play_at: list[str] = []
    finished = False
    for n, (line, text) in enumerate(rows, 1):
        row = text.split()
        if len(row) != 4:
            raise NotationError(f"{source}:{line}: a play row needs 4 columns (seats from "
                                f"{column0.name} clockwise, '-' for no card), got {len(row)}")
        if finished:
            raise NotationError(f"{source}:{line}: trick {n} follows an unfinished trick")
        by_seat = {Seat((column0 + i) % 4): tok for i, tok in enumerate(row)}
        if out is not None and by_seat[out] != "-":
            raise NotationError(f"{source}:{line}: seat {out.name} sits out (lone {lone.name}) but "
                                f"plays {by_seat[out]}")
        trick: list[tuple[Seat, Card]] = []
        seat = leader
        stopped = False
        for _ in range(size):
            tok = by_seat[seat]
            if tok == "-":
                stopped = True
            elif stopped:
                raise NotationError(f"{source}:{line}: trick {n}: {seat.name} plays {tok} after a seat "
                                    f"that played no card (leader {leader.name})")
            else:
                try:
                    trick.append((seat, parse_card(tok)))
                except NotationError as exc:
                    raise NotationError(f"{source}:{line}: {exc}") from None
            seat = next_active(seat, out)
        if not trick:
            raise NotationError(f"{source}:{line}: trick {n}: the leader {leader.name} plays no card")
        play.extend(c for _, c in trick)
        play_at.extend([f"{source}:{line}"] * len(trick))
        if len(trick) == size:
            leader = trick[trick_winner([c for _, c in trick], strain)][0]
        else:
            finished = True
    return play, play_at


# ---------------------------------------------------------------------------------------------
# Files

def read_records(path: str | Path) -> list[HandRecord]:
    """Every record of a file, in our format or PTN (detected: a ``.ptn`` name, or PTN tags
    ``GameOptionsJson``/``Contract``).  ``source`` of each record is ``file:line``.
    Raises NotationError / IllegalPlayError naming the file and the line; OSError for a file
    that cannot be read."""
    path, blocks, parse = _file_blocks(path)
    return [parse(b, path) for b in blocks]


def _file_blocks(path: str | Path) -> tuple[str, list[_Block], Callable[[_Block, str], HandRecord]]:
    """A record file split into blocks, with the parser of its format (ours or PTN)."""
    path = str(path)
    # lines of at most textio.MAX_LINE bytes, UTF-8 (else NotationError "PATH: line N: ...")
    text = "\n".join(t for _, t in checked_lines(path, content_only=False))
    blocks = _blocks(text, path)
    return path, blocks, (_ptn if _is_ptn(blocks, path) else _ours)


def parse_text(text: str, source: str = "<text>") -> list[HandRecord]:
    """Records given as text (pasted, uploaded), in our format or PTN, detected as
    :func:`read_records` detects a file's (``source`` ending ``.ptn``, or PTN tags).  Raises
    NotationError / IllegalPlayError naming ``source`` and the line."""
    blocks = _blocks(text, source)
    parse = _ptn if _is_ptn(blocks, source) else _ours
    return [parse(b, source) for b in blocks]


def load_record(path: str | Path, index: int = 1) -> HandRecord:
    """The ``index``-th record (1-based) of a file (see :func:`read_records`).  The file is
    split into records first and only that record is parsed, so a record elsewhere with a bad
    card, tag or play does not stand in the way (a file that cannot be split into records --
    not text, or text outside any record -- still fails).
    Raises NotationError when the index is out of range (naming the file and its count), or
    for a bad record at ``index``."""
    if isinstance(index, bool) or not isinstance(index, int):
        raise ArgumentError(f"record index {shown(index)}: expected a whole number (1 = the first)")
    path, blocks, parse = _file_blocks(path)
    if not blocks:
        raise NotationError(f"{path}: no records found")
    if not 1 <= index <= len(blocks):
        raise NotationError(f"{path}: no record {index}; the file holds {counted(len(blocks), 'record')} "
                            f"(1..{len(blocks)})")
    return parse(blocks[index - 1], path)
