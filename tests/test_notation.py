"""Card, hand and deal notation (RULES.md §4) and Position play/undo."""

import pytest

from bideuchre.notation import Deal, Position, format_hand, parse_card, parse_hand
from bideuchre.rules import Card, IllegalPlayError, NotationError, Seat, Side

from helpers import real_deals


@pytest.mark.parametrize("text", ["SA", "AS", "sa", "a♠", "♠A", "As"])
def test_card_tokens(text):
    assert parse_card(text) == Card.SA


@pytest.mark.parametrize("text,card", [("10H", Card.HT), ("H10", Card.HT), ("ht", Card.HT),
                                       ("9d", Card.D9), ("CJ", Card.CJ), ("Q♣", Card.CQ)])
def test_card_tokens_more(text, card):
    assert parse_card(text) == card
    assert str(card) == str(card)[0] + str(card)[1] and parse_card(str(card)) == card


@pytest.mark.parametrize("bad,msg", [("S8", "unknown rank '8'"), ("XA", "cannot read card"),
                                     ("", "cannot read card"), ("SAK", "cannot read card")])
def test_bad_cards(bad, msg):
    with pytest.raises(NotationError, match=msg):
        parse_card(bad)


def test_real_deals_round_trip():
    for line in real_deals(500):
        deal = Deal.from_pbn(line)
        assert deal.pbn() == line
        assert sorted(c for h in deal.hands for c in h) == list(Card)


def test_rules_examples_round_trip():
    d = Deal.from_pbn("N:A.T.QJ.K9 .9.KT.AQT Q9.AQJ.A. KJT.K.9.J")
    assert d.hands[Seat.N] == (Card.SA, Card.HT, Card.DJ, Card.DQ, Card.C9, Card.CK)
    d2 = Deal.from_pbn("N:J.KKQ.AJ.AQ AKJ.Q.KQJ.A AQ.AAJ.AQ.Q KQ.J.K.KKJJ", "double32")
    assert d2.pbn() == "N:J.KKQ.AJ.AQ AKJ.Q.KQJ.A AQ.AAJ.AQ.Q KQ.J.K.KKJJ"


def test_lenient_input_canonical_output():
    d = Deal.from_pbn("e:a.10.qj.k9 .9.kt.aqt q9.aqj.a. kjt.k.9.j")
    assert d.first == Seat.E and d.dealer == Seat.E
    assert d.pbn() == "E:A.T.QJ.K9 .9.KT.AQT Q9.AQJ.A. KJT.K.9.J"
    assert d.pbn("N") == "N:KJT.K.9.J A.T.QJ.K9 .9.KT.AQT Q9.AQJ.A."
    assert Deal.from_pbn(d.pbn("N")).hands == d.hands
    assert parse_hand("SA SJ HK") == [Card.SJ, Card.SA, Card.HK]
    assert format_hand(parse_hand("AJ.KQ9..JT")) == "AJ.KQ9..JT"


def test_partial_deal():
    d = Deal.from_pbn("N:A.K.. Q..9. .9..A T...J")
    assert [len(h) for h in d.hands] == [2, 2, 2, 2]


@pytest.mark.parametrize("text,deck,msg", [
    ("N:A.T.QJ.K9 .9.KT.AQT Q9.AQJ.A.", "single24", "has 3 hands; expected 4"),
    ("N:A.T.QJ.K9 .9.KT.AQT Q9.AQJ.A. KJT.K.9.", "single24", r"hands must hold the same number of cards \(N 6, E 6, S 6, W 5"),
    ("N:A.T.QJ.K9 .9.KT.AQT Q9.AQJ.A. KJT.K.9.A", "single24", "card CA held twice in a single deck"),
    ("N:AAJ.KKQ.AJ.AQ AKJ.Q.KQJ.A AQ.AAJ.AQ.Q KQ.J.K.KKJJ", "double32", "card SA held 4 times; the double32 deck has 2 copies"),
    ("N:A.T.QJ.K9 .9.KT.AQT Q9.AQJ.A. KJT.K.9.X", "single24", "hand W 'KJT.K.9.X': unknown rank 'X' in C"),
    ("N:A.T.QJ.K9 .9.KT.AQT Q9.AQJ.A. KJT.K.9", "single24", "hand W 'KJT.K.9' has 3 suits"),
    ("N:9.KKQ.AJ.AQ AKJ.Q.KQJ.A AQ.AAJ.AQ.Q KQ.J.K.KKJJ", "double32", "hand N: card S9 is not in the double32 deck"),
    ("X:A.T.QJ.K9 .9.KT.AQT Q9.AQJ.A. KJT.K.9.J", "single24", "cannot read deal"),
    ("N:AKQJT9.9.. ... ... ...", "single24", "hand N holds 7 cards; single24 deals 6"),
])
def test_bad_deals(text, deck, msg):
    with pytest.raises(NotationError, match=msg):
        Deal.from_pbn(text, deck)


def test_position_play_undo_and_errors():
    d = Deal.from_pbn(real_deals(1)[0])
    pos = Position(d, "H", "E")
    assert pos.to_move == Seat.E and pos.tricks_left == 6
    with pytest.raises(IllegalPlayError, match=r"trick 1: E cannot play SA: not in hand E"):
        pos.play("SA")
    pos.play("SQ")                                  # E leads the spade queen
    assert pos.tricks_left == 6
    with pytest.raises(IllegalPlayError, match=r"trick 1: S cannot play HK: must follow S \(led SQ\)"):
        pos.play("HK")
    snapshot = [list(h) for h in pos.hands]
    pos.play("S9")
    pos.play("HA")                                  # W is void in spades: may trump
    winner = pos.play("SJ")                         # N follows with the jack of spades
    assert winner == Seat.W and pos.tricks_won == {Side.NS: 0, Side.EW: 1}
    assert pos.to_move == Seat.W and pos.tricks_left == 5
    for _ in range(3):
        pos.undo()
    assert pos.hands == snapshot and pos.tricks_won == {Side.NS: 0, Side.EW: 0}
    assert eval(repr(pos), {"Position": Position, "Deal": Deal}).played == pos.played


def test_lone_position_skips_empty_seat():
    d = Deal.from_pbn(real_deals(1)[0])
    pos = Position(d, "S", "S", lone="N")         # S's lead falls to the empty seat: W leads
    assert pos.out == Seat.S and pos.leader == Seat.W and pos.trick_size == 3
    pos.play(pos.legal_cards()[0])
    assert pos.to_move == Seat.N


def test_a_double_deck_deal_read_as_single_deck_names_the_deck_forms():
    # a double-deck deal read without its deck form: the error names the deck form its hand
    # size points to (every double deck for shorter hands: a partial deal) and how to name it
    with pytest.raises(NotationError, match=r"a double32 deal \(8-card hands\)\? name its deck "
                                            r"form: the preset double32, or deck=\"double32\""):
        Deal.from_pbn("N:J.KKQ.AJ.AQ AKJ.Q.KQJ.A AQ.AAJ.AQ.Q KQ.J.K.KKJJ")
    with pytest.raises(NotationError, match=r"a double48 deal \(12-card hands\)"):
        Deal.from_pbn("E:Q99.AJ.AKJT.QJT AAQJ.AQJ.JT.AJT KKT.K99.AQ99.AK JT.KQTT.KQ.KQ99")
    with pytest.raises(NotationError, match=r"a double-deck deal\? .*double40 \(the preset "
                                            r"double48 with --rule deck=double40\)"):
        Deal.from_pbn("N:J.K.A.A A.Q.J.A Q.A.A.Q K.J.K.J")
    assert Deal.from_pbn("N:J.KKQ.AJ.AQ AKJ.Q.KQJ.A AQ.AAJ.AQ.Q KQ.J.K.KKJJ", deck="double32")
