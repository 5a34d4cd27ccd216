"""Table options (RULES.md §2): Preset.with_options validates each option and each one changes
what it should — the auction, the scoring, the deck, the lone bids."""

from __future__ import annotations

import random

import pytest

from bideuchre.analysis.auction import Auction, hand_result, ladder, parse_bid
from bideuchre.analysis.lone import lone_bids
from bideuchre.analysis.par import par
from bideuchre.rules import DECKS, PRESETS, BidEuchreError, RulesError, get_preset
from helpers import random_deal


def test_every_preset_lists_its_options():
    assert list(PRESETS["standard"].options()) == ["stick", "min_bid", "penalty", "target", "lone_12", "lone_24"]
    assert PRESETS["pepper"].options() == {"stick": True, "min_bid": 3, "penalty": 6, "target": 42,
                                           "lone_alone": 12}
    assert PRESETS["double32"].options()["hands"] == 10
    assert "target" not in PRESETS["double32"].options()
    assert PRESETS["double48"].options()["deck"] == "double48"
    assert PRESETS["double48"].options()["lone_exchange"] == "off"
    for p in PRESETS.values():
        assert p.changed_options() == {}
        assert p.with_options() == p


@pytest.mark.parametrize("name, key, value, words", [
    ("standard", "stick", "maybe", "allowed: true false"),
    ("standard", "min_bid", "0", "allowed: 1..6"),
    ("standard", "min_bid", "7", "allowed: 1..6"),
    ("double32", "min_bid", "8", "allowed: 1..7"),
    ("standard", "penalty", "-1", "bid, or points"),
    ("standard", "penalty", "x", "bid, or points"),
    ("standard", "target", "0", "points 1..999999999"),
    ("standard", "target", "4.5", "points 1..999999999"),
    ("standard", "lone_12", "0", "points 1..999999999"),
    ("standard", "penalty", "1000000000", "points 0..999999999"),
    ("standard", "deck", "double40", "played with single24 only"),
    ("double32", "target", "40", "not to a target: use hands"),
    ("standard", "hands", "10", "use target"),
    ("racehorse", "lone_12", "5", "no lone bids"),
    ("standard", "lone_alone", "5", "lone bids: 12 24"),
    ("pepper", "lone_exchange", "1", "table option of double48"),
    ("double48", "deck", "single24", "allowed: double48 double40 double32"),
    ("double48", "lone_exchange", "13", "allowed: off, or 0..12"),
    ("standard", "colour", "red", "unknown table option 'colour'"),
])
def test_bad_options_name_the_key_and_the_allowed_values(name, key, value, words):
    with pytest.raises(RulesError, match=key) as exc:
        get_preset(name).with_options(**{key: value})
    assert words in str(exc.value)
    assert isinstance(exc.value, BidEuchreError)


def test_option_values_from_text_or_python():
    p = PRESETS["standard"]
    assert p.with_options(stick="true") == p.with_options(stick=True)
    assert p.with_options(min_bid="4").min_bid == 4
    assert p.with_options(penalty="bid").set_penalty is None
    assert p.with_options(set_penalty=6).set_penalty == 6          # the field's name reads as penalty
    assert p.with_options(**{"lone-12": 18}).changed_options() == {"lone_12": 18}
    assert p.with_options(dealer_may_equal=True).dealer_may_equal  # other fields: replaced as given


def test_stick_changes_the_auction():
    std = PRESETS["standard"]
    assert None in Auction.parse("pass pass pass", std, "N").legal_actions()
    assert None not in Auction.parse("pass pass pass", std.with_options(stick=True), "N").legal_actions()
    pepper = PRESETS["pepper"]
    assert None not in Auction.parse("pass pass pass", pepper, "N").legal_actions()
    loose = pepper.with_options(stick=False)
    assert loose.options()["stick"] is False
    a = Auction.parse("pass pass pass pass", loose, "N")
    assert a.is_over and a.contract is None                        # thrown in


def test_min_bid_changes_the_ladder_and_the_dealers_duty():
    p = PRESETS["racehorse"].with_options(min_bid=5)
    assert [b.name for b in ladder(p)] == ["5", "6"]
    with pytest.raises(RulesError, match="off the ladder"):
        parse_bid("4", p)
    stuck = Auction.parse("pass pass pass", p, "N")
    assert [b.name for b in stuck.legal_actions()] == ["5", "6"]


def test_penalty_and_lone_values_change_the_score():
    std = PRESETS["standard"]
    four = parse_bid("4", std)
    assert hand_result(std, four, 3) == (-4, 3)
    assert hand_result(std.with_options(penalty=6), four, 3) == (-6, 3)
    assert hand_result(std.with_options(penalty=6), four, 5) == (5, 1)     # made: the tricks
    cheap = std.with_options(lone_12=7)
    twelve = parse_bid("12", cheap)
    assert hand_result(cheap, twelve, 6) == (7, 0)
    assert hand_result(cheap, twelve, 5) == (-7, 1)
    assert hand_result(cheap, parse_bid("24", cheap), 6) == (24, 0)        # the other bid unchanged


def test_deck_option_changes_the_hand_and_the_ladder():
    p = PRESETS["double48"].with_options(deck="double40")
    assert p.deck == DECKS["double40"] and p.tricks == 10 and p.top_bid == 10
    assert [b.name for b in ladder(p)][-1] == "10"
    assert p.with_options(deck=DECKS["double32"]).tricks == 8              # a DeckForm too
    assert p.changed_options() == {"deck": "double40"}


def test_lone_exchange_adds_a_lone_bid_the_auction_sees():
    p = PRESETS["double48"].with_options(deck="double32", lone_exchange="2")
    assert [b.name for b in lone_bids(p)] == ["lone-2"]
    assert [b.name for b in p.lone_bids] == ["lone-2"]                     # in the preset itself
    assert ladder(p)[-1].name == "lone-2" and ladder(p)[-1].lone.value == 16   # 2 × 8 tricks
    assert p.with_options(deck="double40").lone_bids[0].value == 20        # follows the deck
    valued = p.with_options(lone_value=30)
    assert valued.lone_bids[0].value == 30 and lone_bids(valued)[0].value == 30
    assert p.with_options(lone_exchange="off").lone_bids == ()


def test_options_change_par():
    """Par under changed options agrees with par of a preset built with those values
    directly, and the options do move par on some deals."""
    rng = random.Random(15)
    std = PRESETS["standard"]
    changed = 0
    for i in range(12):
        deal = random_deal(rng, "single24")
        a = par(deal, std, i % 4)
        b = par(deal, std.with_options(stick=True, min_bid=4, penalty=6, lone_12=6, lone_24=12), i % 4, dd=a.dd)
        changed += a.value != b.value or a.auction != b.auction
        assert b.contract is not None                                     # stuck: never thrown in
        assert b.contract.bid.is_lone or b.contract.bid.level >= 4
    assert changed > 0
