"""The three play functions and the presets (RULES.md §1, §2)."""

import pytest

from bideuchre.rules import (
    PRESETS, Card, RulesError, Seat, Side, Strain, Suit, effective_suit, get_preset, legal_cards,
    next_active, rank_order, trick_winner,
)


def test_seats_clockwise_and_partners():
    assert [s.left for s in Seat] == [Seat.E, Seat.S, Seat.W, Seat.N]
    assert Seat.N.partner == Seat.S and Seat.E.partner == Seat.W
    assert Seat.E.side == Side.EW and Seat.S.side == Side.NS


@pytest.mark.parametrize("trump,left", [(Strain.S, Card.CJ), (Strain.C, Card.SJ),
                                        (Strain.H, Card.DJ), (Strain.D, Card.HJ)])
def test_left_bower_is_trump(trump, left):
    assert effective_suit(left, trump) == Suit(int(trump))
    assert left.suit != Suit(int(trump))
    # the right bower is top, the left bower next, then the ace
    right = Card.make(int(trump), 2)
    ace = Card.make(int(trump), 5)
    assert rank_order(right, trump) > rank_order(left, trump) > rank_order(ace, trump)


def test_jacks_are_plain_in_no_trump_and_other_suits():
    for strain in (Strain.NT, Strain.NTL):
        for jack in (Card.SJ, Card.HJ, Card.DJ, Card.CJ):
            assert effective_suit(jack, strain) == jack.suit
    # under hearts, the black jacks are plain cards of their suits
    assert effective_suit(Card.SJ, Strain.H) == Suit.S
    assert rank_order(Card.SQ, Strain.H) > rank_order(Card.SJ, Strain.H) > rank_order(Card.ST, Strain.H)


def test_orders_per_strain():
    spades = [Card.S9, Card.ST, Card.SJ, Card.SQ, Card.SK, Card.SA]
    nt = [rank_order(c, Strain.NT) for c in spades]
    ntl = [rank_order(c, Strain.NTL) for c in spades]
    assert nt == sorted(nt) and len(set(nt)) == 6          # 9 < 10 < J < Q < K < A
    assert ntl == sorted(ntl, reverse=True)                # NTL: the nine best, the ace worst
    trump = sorted(spades + [Card.CJ], key=lambda c: rank_order(c, Strain.S), reverse=True)
    assert trump == [Card.SJ, Card.CJ, Card.SA, Card.SK, Card.SQ, Card.ST, Card.S9]


def test_trick_winner_trump_and_led_suit():
    # a low trump from a void player beats a later ace of the suit led
    assert trick_winner([Card.CK, Card.S9, Card.CA, Card.CQ], Strain.S) == 1
    # an off-suit card never wins
    assert trick_winner([Card.C9, Card.SA, Card.HA, Card.DA], Strain.NT) == 0
    # NTL: the lowest of the suit led
    assert trick_winner([Card.HA, Card.H9, Card.HT, Card.SK], Strain.NTL) == 1
    # the left bower beats the ace of trump, the right bower beats both
    assert trick_winner([Card.HA, Card.DJ, Card.HJ], Strain.H) == 2
    assert trick_winner([Card.HA, Card.DJ, Card.HK], Strain.H) == 1


def test_identical_cards_first_played_wins():
    assert trick_winner([Card.SA, Card.SA, Card.SK, Card.SQ], Strain.NT) == 0
    assert trick_winner([Card.SK, Card.SA, Card.SA, Card.SQ], Strain.NT) == 1
    assert trick_winner([Card.C9, Card.HJ, Card.HJ], Strain.H) == 1


def test_legal_cards_follow_effective_suit():
    hand = [Card.DJ, Card.DQ, Card.S9]
    # hearts trump: DJ is a heart, so on a diamond lead only DQ may be played
    assert legal_cards(hand, Card.DA, Strain.H) == [Card.DQ]
    # on a heart lead DJ must be played
    assert legal_cards(hand, Card.HA, Strain.H) == [Card.DJ]
    # no duty to trump: void in clubs, any card
    assert legal_cards(hand, Card.CA, Strain.H) == sorted(hand)
    assert legal_cards(hand, None, Strain.H) == sorted(hand)


def test_next_active_skips_the_empty_seat():
    assert next_active(Seat.N, None) == Seat.E
    assert next_active(Seat.N, Seat.E) == Seat.S
    assert next_active(Seat.W, Seat.N) == Seat.E


def test_presets_as_data():
    assert set(PRESETS) == {"standard", "pepper", "double32", "racehorse", "double48"}
    assert get_preset("standard").first_lead == "left_of_dealer"
    assert get_preset("racehorse").dealer_may_equal and not get_preset("racehorse").lone_bids
    assert get_preset("pepper").set_penalty == 6 and Strain.NT not in get_preset("pepper").strains
    assert [b.name for b in get_preset("double32").lone_bids] == ["two-card", "one-card", "moonshot"]
    assert get_preset("double48").deck.cards == 48 and get_preset("double32").deck.hand == 8
    with pytest.raises(RulesError, match="strain NTL is not allowed in preset 'double32'"):
        get_preset("double32").check_strain(Strain.NTL)
    with pytest.raises(RulesError, match="unknown preset 'euchre'"):
        get_preset("euchre")
