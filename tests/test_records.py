"""Tests of bideuchre.records: our record format round-trips; every Trickster PTN record imports,
with the PTN play columns turned into play order (hand-checked on basic_play.ptn)."""

from __future__ import annotations

import random

import pytest

from helpers import SOURCES, random_position
from bideuchre.analysis.explain import analyse_record
from bideuchre.notation import Position
from bideuchre.records import (
    HandRecord, format_record, format_records, load_record, parse_ptn, parse_records, read_records,
    write_records,
)
from bideuchre.search.reference import reference_tricks
from bideuchre.rules import (
    Card, IllegalPlayError, NotationError, RulesError, Seat, Side, Strain, get_deck,
)

TRICKSTER = SOURCES / "trickster"
PTN_FILES = sorted(TRICKSTER.glob("*.ptn"))


def _cards(cards) -> list[str]:
    return [str(c) for c in cards]


def test_every_trickster_record_imports():
    counts = {}
    for path in PTN_FILES:
        recs = read_records(path)
        assert recs, path
        counts[path.name] = len(recs)
        for i, rec in enumerate(recs, 1):
            assert rec.source.startswith(str(path) + ":")
            assert rec.strain is not None or path.name == "last_to_bid.ptn"
            assert rec.bid is not None and rec.declarer is not None and rec.dealer is not None
            assert load_record(path, i) == rec
            if rec.deal is None:
                # hidden hands import for bid advice, refused for replay
                assert rec.hidden and all((h is None) == (Seat(s) in rec.hidden) for s, h in enumerate(rec.hands))
                with pytest.raises(RulesError, match="cannot replay: hand\\(s\\) .* hidden"):
                    analyse_record(rec)
            else:
                an = analyse_record(rec)  # the full deals replay
                assert len(an.steps) == len(rec.play)
    assert counts == {"basic_play.ptn": 3, "bid_alone.ptn": 8, "bid_nt.ptn": 2, "last_to_bid.ptn": 3}


def test_basic_play_single24_hand_checked():
    """basic_play.ptn record 1: ``[Deal "N:AJ9.K.AT. K.T.J9.AK T.AJ..JT9 Q.Q9.KQ.Q"]``,
    ``[Contract "3♣"]`` by S, ``[Auction "E"]``, ``[Play "E"]`` and the row ``D9 C9 - -``.

    The Play columns are E S W N.  E leads (the Play seat opens): ♦9; S, void in diamonds,
    ruffs with the ♣9; W and N have not played (an unfinished trick).  So the play is
    E ♦9, S ♣9 and W is to move.  DD by hand: clubs are trump, S holds the right bower ♣J and
    ♣10 ♣9, N the left bower ♠J; E's ♣A ♣K and W's ♣Q fall under the two bowers, and NS's
    ♠A, ♥A ♥K, ♦A then take the rest: NS 6, EW 0, before and after these two cards."""
    rec = read_records(TRICKSTER / "basic_play.ptn")[0]
    assert rec.deck == get_deck("single24")
    assert (rec.declarer, rec.strain, rec.bid, rec.lone) == (Seat.S, Strain.C, "3", None)
    assert (rec.auction_first, rec.dealer, rec.leader) == (Seat.E, Seat.N, Seat.E)
    assert rec.auction == ["2", "3", "Pass", "Pass", "-", "3♣", "-", "-"]
    assert rec.calls() == [(Seat.E, "2"), (Seat.S, "3"), (Seat.W, "Pass"), (Seat.N, "Pass"), (Seat.S, "3♣")]
    assert _cards(rec.play) == ["D9", "C9"]
    pos = rec.position()
    assert pos.trick == [(Seat.E, Card.D9), (Seat.S, Card.C9)] and pos.to_move == Seat.W
    assert rec.deal.pbn() == "N:AJ9.K.AT. K.T.J9.AK T.AJ..JT9 Q.Q9.KQ.Q"
    start = Position(rec.deal, rec.strain, rec.leader)
    assert reference_tricks(start) == {Side.NS: 6, Side.EW: 0}
    an = analyse_record(rec)
    assert an.start == {Side.NS: 6, Side.EW: 0}
    assert [(s.seat, str(s.card), s.value[Side.NS], s.cost) for s in an.steps] == [
        (Seat.E, "D9", 6, 0), (Seat.S, "C9", 6, 0)]


def _tricks(rec: HandRecord):
    """(leader, cards in play order, winner) per trick of the record's play."""
    pos = Position(rec.deal, rec.strain, rec.leader, (), rec.lone)
    out, cur, lead = [], [], pos.to_move
    for c in rec.play:
        if not pos.trick:
            lead = pos.to_move
        cur.append(str(c))
        w = pos.play(c)
        if w is not None:
            out.append((lead.name, cur, w.name))
            cur = []
    if cur:
        out.append((lead.name, cur, None))
    return out


def test_basic_play_double_decks_trick_leaders():
    """Record 2 (double48, spades, Play "S": columns S W N E) and record 3 (double32, hearts,
    Play "N": columns N E S W), worked by hand: each trick's leader is the previous winner."""
    r48 = read_records(TRICKSTER / "basic_play.ptn")[1]
    assert r48.deck == get_deck("double48") and r48.strain == Strain.S and r48.leader == Seat.S
    assert _tricks(r48) == [
        ("S", ["SJ", "ST", "ST", "S9"], "S"),   # right bower wins
        ("S", ["SQ", "SK", "SJ", "S9"], "N"),   # N's copy of the right bower
        ("N", ["C9", "CQ", "CA", "CK"], "S"),   # row "CA CK C9 CQ" read from N
        ("S", ["CJ", "SK", "C9", "SQ"], "S"),   # ♣J is the left bower: a trump lead
        ("S", ["HA", "H9", "HT", "HJ"], "S"),
    ]
    r32 = read_records(TRICKSTER / "basic_play.ptn")[2]
    assert r32.deck == get_deck("double32") and r32.strain == Strain.H and r32.leader == Seat.N
    assert (r32.declarer, r32.bid, r32.dealer) == (Seat.S, "7", Seat.W)
    assert _tricks(r32) == [
        ("N", ["HQ", "DJ", "HJ", "HK"], "S"),   # E follows trump with the left bower ♦J
        ("S", ["HJ", "DJ", "CJ", "HQ"], "S"),   # row "CJ HQ HJ DJ" read from S
        ("S", ["HA", "CQ", "SJ", "HK"], "S"),
        ("S", ["CA"], None),                    # "-  -  CA -": unfinished
    ]


def test_ptn_contracts_lone_and_low():
    nt = read_records(TRICKSTER / "bid_nt.ptn")
    assert [(r.strain, r.bid, r.declarer) for r in nt] == [(Strain.NT, "6", Seat.E), (Strain.NTL, "6", Seat.E)]
    alone = read_records(TRICKSTER / "bid_alone.ptn")
    assert [(r.strain, r.bid, r.lone) for r in alone[:4]] == [
        (Strain.NT, "Alone", Seat.E), (Strain.H, "Alone", Seat.E),
        (Strain.NT, "Call1", Seat.E), (Strain.H, "Call1", Seat.E)]
    assert alone[4].lone is None and alone[4].bid == "5"
    assert [str(c) for c in alone[0].hands[Seat.E]] == ["SK", "SA", "HK", "HA", "DA", "CA"]
    last = read_records(TRICKSTER / "last_to_bid.ptn")
    assert [(r.declarer, r.bid, r.strain) for r in last] == [
        (Seat.N, "3", None), (Seat.S, "3", None), (Seat.N, "Alone", None)]
    assert last[0].hidden == [Seat.E, Seat.S, Seat.W]


def _assert_errors(parse, text: str, source: str, cases) -> None:
    """Each (old, new, error type, message pattern): parsing ``text`` with ``old`` replaced by
    ``new`` raises that error, its message matching the pattern."""
    for old, new, exc, pattern in cases:
        with pytest.raises(exc, match=pattern):
            parse(text.replace(old, new), source)


def test_ptn_lone_play_and_errors(tmp_path):
    # a lone hand: S alone in spades; N's column is '-' and tricks have three cards
    text = """[Event "lone"]
[Deal "N:AJ9.K.AT. K.T.J9.AK T.AJ..JT9 Q.Q9.KQ.Q"]
[Declarer "S"]
[Contract "♣Alone"]
[Auction "E"]
Alone Pass Pass Pass
[Play "E"]
D9 C9 DK -
CA CJ CQ -
"""
    rec = parse_ptn(text, "x.ptn")[0]
    assert rec.lone == Seat.S and rec.strain == Strain.C
    # trick 1: E ♦9, S ♣9 (ruff), W ♦K → S; trick 2 led by S: ♣J, W ♣Q, E ♣A
    assert _cards(rec.play) == ["D9", "C9", "DK", "CJ", "CQ", "CA"]
    assert rec.position().tricks_won == {Side.NS: 2, Side.EW: 0}
    _assert_errors(parse_ptn, text, "x.ptn", [
        ("D9 C9 DK -", "D9 C9 DK DA", NotationError, r"x\.ptn:8: seat N sits out"),
        ("D9 C9 DK -", "D9 CA DK -", IllegalPlayError, r"x\.ptn:8: trick 1: S cannot play CA"),  # the play row
        ("D9 C9 DK -", "D9 C9 DK", NotationError, r"x\.ptn:8: a play row needs 4 columns"),
        ("K.T.J9.AK", "K.T.J8.AK", NotationError, r"x\.ptn:2: .*hand E.*unknown rank"),
    ])
    bad = tmp_path / "bad.ptn"
    bad.write_text(text.replace('[Play "E"]', '[Play "Q"]'))
    with pytest.raises(NotationError, match="bad.ptn:7: unknown seat 'Q'"):
        read_records(bad)


def _random_record(rng: random.Random) -> HandRecord:
    deck = rng.choice(["single24", "double32", "double40", "double48"])
    lone = rng.random() < 0.3
    pos = random_position(rng, deck, cards=None if deck == "single24" else rng.choice([3, 5]), lone=lone)
    hands = [list(h) for h in pos.deal.hands]
    hidden = rng.random() < 0.3
    if hidden:
        for s in rng.sample(range(4), rng.choice([1, 3])):
            hands[s] = None
    first = Seat(rng.randrange(4))
    calls = rng.choice([[], ["Pass", "3", "4", "Pass", "Pass", "Pass"], ["-", "6♠", "-", "-"]])
    return HandRecord(
        deal=None if hidden else pos.deal.__class__(pos.deal.hands, pos.deal.deck, Seat(rng.randrange(4)), first=first),
        hands=hands, deck=pos.deal.deck, preset=rng.choice([None, "standard", "double48"]),
        dealer=rng.choice([None, *Seat]), declarer=rng.choice([None, *Seat]),
        strain=None if hidden and rng.random() < 0.5 else pos.strain,
        bid=rng.choice([None, "4", "alone", "Call1"]), lone=pos.lone,
        auction=calls, auction_first=Seat(rng.randrange(4)) if calls else None,
        play=[] if hidden else list(pos.played), event=rng.choice(["", "club night", 'a "quoted" name']),
        leader=None if hidden else pos.leader, deal_first=first)


def test_our_format_round_trips():
    rng = random.Random(4)
    recs = []
    for _ in range(60):
        rec = _random_record(rng)
        if rec.deal is not None:
            rec.dealer = rec.deal.dealer
        text = format_record(rec)
        back = parse_records(text, "mem")[0]
        assert back == rec, text
        assert format_record(back) == text
        recs.append(rec)
    # several records a file
    text = format_records(recs)
    assert parse_records(text) == recs
    # every Trickster record, exported to our format and read back
    for path in PTN_FILES:
        for rec in read_records(path):
            back = parse_records(format_record(rec))[0]
            rec.options = {}
            assert back == rec


def test_write_read_and_load(tmp_path):
    recs = read_records(TRICKSTER / "basic_play.ptn")
    for r in recs:
        r.options = {}
    path = tmp_path / "hands.txt"
    write_records(path, recs)
    again = read_records(path)
    assert again == recs
    assert [r.source for r in again] == [f"{path}:1", f"{path}:14", f"{path}:31"]
    assert load_record(path, 2) == recs[1]
    with pytest.raises(NotationError, match=r"hands\.txt: no record 4; the file holds 3 records \(1\.\.3\)"):
        load_record(path, 4)
    with pytest.raises(NotationError, match="no record 0"):
        load_record(path, 0)
    # a bad record does not stand in the way of the others
    bad = path.with_name("bad.txt")
    text = path.read_text()
    bad.write_text(text + "\n[Event \"broken\"]\n[Deal \"N:AK\"]\n")
    assert load_record(bad, 2) == recs[1]
    with pytest.raises(NotationError, match=r"bad\.txt:\d+: .*has 1 hand;"):
        load_record(bad, 4)
    an = analyse_record(again[2])
    assert an.start == analyse_record(recs[2]).start


def test_our_format_errors_name_file_and_line():
    good = """[Event "x"]
[Deck "single24"]
[Deal "N:AJ9.K.AT. K.T.J9.AK T.AJ..JT9 Q.Q9.KQ.Q"]
[Strain "C"]
[Play "E"]
D9 C9 DK DA
"""
    rec = parse_records(good, "f.txt")[0]
    assert _cards(rec.play) == ["D9", "C9", "DK", "DA"] and rec.leader == Seat.E
    assert parse_records(good.replace('[Strain "C"]', '[Strain "C"]\n[Bid "12"]'), "f.txt")[0].bid == "12"  # standard's lone 12
    _assert_errors(parse_records, good, "f.txt", [
        ("DA", "DX", NotationError, r"f\.txt:6: cannot read card 'DX'"),
        ('"C"', '"Z"', NotationError, r"f\.txt:4: unknown strain 'Z'"),
        ("single24", "single99", NotationError, r"f\.txt:2: unknown deck form"),
        ("K.T.J9.AK", "A.T.J9.AK", NotationError, r"f\.txt:3: card SA held 2 times"),
        ('[Strain "C"]', '[Strain "C"]\n[Bid "9"]', NotationError, r"f\.txt:5: no bid 9 with the single24 deck \(a hand has 6 tricks; lone bids 12 24\)"),
        ("D9 C9 DK DA", "D9 DA", IllegalPlayError, r"f\.txt:6: trick 1: S cannot play DA"),
        # the error names the line of the card, not of the record
        ("D9 C9 DK DA", "D9 C9 DK DA\nSA", IllegalPlayError, r"f\.txt:7: trick 2: [NESW] cannot play SA"),
    ])
    with pytest.raises(NotationError, match=r"f\.txt:1: record has no \[Deal\] tag"):
        parse_records('[Event "x"]\n[Strain "C"]\n', "f.txt")
    with pytest.raises(NotationError, match=r"f\.txt:7: a trick line holds at most 4 cards"):
        parse_records(good + "SA SK SQ SJ ST\n", "f.txt")
