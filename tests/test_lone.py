"""Lone hands (issue 3): three-handed play against the reference solver, and the best card
exchange of every lone bid against brute force over every legal exchange (RULES.md §1 "Lone
hands", §2 "Lone bids and card exchanges")."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from itertools import combinations

import pytest
from typer.testing import CliRunner

from bideuchre.cli.app import app
from bideuchre.analysis.lone import (
    LoneResult, apply_exchange, can_take_all, exchange_order, lone_bids, lone_leader,
    lone_results, lone_table, lone_values,
)
from bideuchre.notation import Deal, Position
from bideuchre.search.reference import reference_tricks
from bideuchre.rules import Card, NotationError, RulesError, Seat, Side, Strain, get_preset
from bideuchre.search.solve import solve_position

from helpers import random_deal, random_position, real_deals

runner = CliRunner()


# ---------------------------------------------------------------------------------------------
# Three-handed play: the core against the reference solver

@pytest.mark.parametrize("deck,cards,n", [("single24", None, 120), ("double32", None, 16),
                                          ("double40", 6, 40), ("double48", 6, 40)])
def test_lone_play_matches_reference(deck, cards, n):
    """216 random lone positions in all: start of hand, mid-hand and mid-trick, every strain,
    every lone seat and leader (a leader falling on the empty seat passes on)."""
    rng = random.Random(f"lone-play-{deck}")
    mid_trick = mid_hand = 0
    for _ in range(n):
        pos = random_position(rng, deck, cards, lone=True)
        assert pos.trick_size == 3 and pos.out == pos.lone.partner
        mid_trick += bool(pos.trick)
        mid_hand += len(pos.played) >= 3
        assert solve_position(pos) == reference_tricks(pos), repr(pos)
    assert mid_trick >= n // 5 and mid_hand >= n // 3


def test_lead_falling_on_the_empty_seat_passes_on():
    d = Deal.from_pbn(real_deals(1)[0])
    pos = Position(d, "H", leader="S", lone="N")  # S sits out: the lead passes to W
    assert pos.leader == Seat.W and pos.to_move == Seat.W
    assert lone_leader("standard", "W", dealer="N") == Seat.S  # left of N is E, W's partner
    assert lone_leader("standard", "N", dealer="N") == Seat.E
    assert lone_leader("pepper", "W", dealer="N") == Seat.W


# ---------------------------------------------------------------------------------------------
# Exchanges against brute force (no pruning: every legal exchange, solved by the plain core)

def lone_tricks_of(deal: Deal, preset, seat: Seat, strain: Strain, dealer: Seat) -> int:
    pos = Position(deal, strain, lone_leader(preset, seat, dealer), lone=seat)
    return solve_position(pos)[seat.side]


def all_exchanges(deal: Deal, preset, bid, seat: Seat):
    """Every legal (give, discard) of a lone bid, as card lists."""
    order = exchange_order(preset, bid)
    hand, partner = list(deal.hands[seat]), list(deal.hands[seat.partner])
    if order == "none":
        yield [], []
        return
    for give in sorted(set(combinations(partner, bid.give))):
        pool = hand + list(give) if order == "give-first" else hand
        for disc in sorted(set(combinations(sorted(pool), bid.discard))):
            yield list(give), list(disc)


def brute_force(deal: Deal, preset, seat: Seat, strain: Strain, dealer: Seat) -> list[int]:
    out = []
    for bid in lone_bids(preset):
        out.append(max(lone_tricks_of(apply_exchange(deal, seat, g, d), preset, seat, strain, dealer)
                       for g, d in all_exchanges(deal, preset, bid, seat)))
    return out


def check_results(deal: Deal, preset, seat: Seat, strain: Strain, dealer: Seat,
                  results: list[LoneResult]):
    preset = get_preset(preset)
    n = len(deal.hands[0])
    expected = brute_force(deal, preset, seat, strain, dealer)
    assert [r.bid for r in results] == [b.name for b in lone_bids(preset)]
    assert [r.tricks for r in results] == expected, (deal.pbn(), seat, strain)
    for r, bid in zip(results, lone_bids(preset)):
        assert r.all == (r.tricks == n)
        assert len(r.give) == bid.give and len(r.discard) == bid.discard
        # the exchange reported is legal and reaches the value reported
        after = apply_exchange(deal, seat, r.give, r.discard)
        if exchange_order(preset, bid) == "discard-first":
            assert all(deal.hands[seat].count(c) >= r.discard.count(c) for c in r.discard)
        assert lone_tricks_of(after, preset, seat, strain, dealer) == r.tricks
    flags = can_take_all(deal, preset, seat, strain, dealer)
    assert flags == {r.bid: r.all for r in results}


@pytest.mark.parametrize("i", range(30))
def test_standard_exchanges_match_brute_force(i):
    """standard 12 (partner gives 1, bidder discards 1 of 7) and 24: every seat and strain of
    30 real deals, the dealer moving round."""
    deal = Deal.from_pbn(real_deals(30)[i])
    dealer = Seat(i % 4)
    for seat in Seat:
        for strain in Strain:
            check_results(deal, "standard", seat, strain, dealer,
                          lone_results(deal, "standard", seat, strain, dealer))


def test_standard_exchanges_that_take_everything():
    """Deals where the 12 bid takes every trick only thanks to the exchange (found among the
    real deals), checked against brute force."""
    found = 0
    for text in real_deals(400):
        deal = Deal.from_pbn(text)
        table = lone_table(deal, "standard")
        for seat in Seat:
            for strain, (r12, r24) in table.results[seat].items():
                if r12.all and not r24.all:
                    found += 1
                    check_results(deal, "standard", seat, strain, deal.dealer, [r12, r24])
        if found >= 12:
            break
    assert found >= 12


@pytest.mark.parametrize("i", range(30))
def test_double32_exchanges_match_brute_force(i):
    """double32 two-card and one-card loners (lay down k of the hand as dealt, receive k) and
    the moonshot, on 30 random deals: one lone seat, two strains each."""
    rng = random.Random(f"double32-{i}")
    deal = random_deal(rng, "double32")
    seat = Seat(rng.randrange(4))
    for strain in rng.sample(get_preset("double32").strains, 2):
        check_results(deal, "double32", seat, strain, deal.dealer,
                      lone_results(deal, "double32", seat, strain))


@pytest.mark.parametrize("i", range(30))
def test_double48_option_matches_brute_force(i):
    """The double48 option (blind exchange of k each way, bid ``lone-k``) on 30 partial
    double48 deals of 5 cards a hand, k = 1 or 2."""
    rng = random.Random(f"double48-{i}")
    k = 1 + i % 2
    preset = get_preset("double48").with_options(lone_exchange=k)
    assert [b.name for b in lone_bids(preset)] == [f"lone-{k}"]
    deal = random_deal(rng, "double48", cards=5)
    seat = Seat(rng.randrange(4))
    strain = rng.choice(preset.strains)
    check_results(deal, preset, seat, strain, deal.dealer, lone_results(deal, preset, seat, strain))


def test_pepper_alone_is_the_hand_as_dealt():
    for i, text in enumerate(real_deals(40)):
        deal = Deal.from_pbn(text)
        seat = Seat(i % 4)
        for strain in get_preset("pepper").strains:
            (r,) = lone_results(deal, "pepper", seat, strain)
            pos = Position(deal, strain, seat, lone=seat)  # pepper: the bidder leads
            check = reference_tricks if i < 5 else solve_position
            assert r.tricks == check(pos)[seat.side]
            assert r.all == (r.tricks == 6)
            assert (r.bid, r.give, r.discard) == ("alone", [], [])


# ---------------------------------------------------------------------------------------------
# The exchange claims of positions/lone.txt (each line's value is checked by test_corpus)

def test_corpus_lone12_needs_the_exchange():
    deal = Deal.from_pbn("N:.J..Q .K..A .A.9. A..K.")
    r12, r24 = lone_results(deal, "standard", "N", "H", dealer="W")
    assert (r24.tricks, r24.all) == (1, False)
    assert (r12.tricks, r12.all, r12.give, r12.discard) == (2, True, [Card.HA], [Card.CQ])
    assert apply_exchange(deal, "N", r12.give, r12.discard).pbn() == "N:.AJ.. .K..A ..9.Q A..K."
    assert brute_force(deal, get_preset("standard"), Seat.N, Strain.H, Seat.W) == [2, 1]
    # the only winning exchange: every other (give, discard) takes fewer
    winners = [(g, d) for g, d in all_exchanges(deal, get_preset("standard"), get_preset("standard").lone_bids[0], Seat.N)
               if lone_tricks_of(apply_exchange(deal, Seat.N, g, d), "standard", Seat.N, Strain.H, Seat.W) == 2]
    assert winners == [([Card.HA], [Card.CQ])]


def test_corpus_lone12_no_exchange_saves():
    deal = Deal.from_pbn("N:.J..Q .AQ.. .K.9. A..K.")
    r12, r24 = lone_results(deal, "standard", "N", "H", dealer="W")
    assert (r12.tricks, r12.all, r24.tricks, r24.all) == (1, False, 1, False)
    assert can_take_all(deal, "standard", "N", "H", dealer="W") == {"12": False, "24": False}


def test_corpus_double32_loners():
    deal = Deal.from_pbn("N:...KQ A.A.. JJ... K...A", "double32")
    two, one, moon = lone_results(deal, "double32", "N", "S")
    assert (two.tricks, two.all, sorted(two.give), sorted(two.discard)) == (2, True, [Card.SJ] * 2, [Card.CQ, Card.CK])
    assert (one.tricks, one.all, one.give) == (1, False, [Card.SJ])
    assert (moon.tricks, moon.all) == (0, False)


def test_corpus_lead_skip_in_the_table():
    deal = Deal.from_pbn("N:.AK.. ..AK. K9... AQ...")
    table = lone_table(deal, "standard", dealer="N", strains=["NT"])
    assert [r.tricks for r in table["W", "NT"]] == [2, 2]  # S leads into W's tenace


# ---------------------------------------------------------------------------------------------
# API shape and errors

def test_table_shape_and_json():
    deal = Deal.from_pbn(real_deals(1)[0])
    table = lone_table(deal, "standard")
    js = table.to_json()
    assert list(js) == ["N", "E", "S", "W"]
    assert list(js["N"]) == ["S", "H", "D", "C", "NT", "NTL"]
    for seat in Seat:
        for strain in Strain:
            assert [r.to_json() for r in table[seat.name, strain.name]] == js[seat.name][strain.name]
            assert table.results[seat][strain] == lone_results(deal, "standard", seat, strain)
    r12, r24 = js["N"]["H"]
    assert r12["bid"] == "12" and r24["bid"] == "24"
    assert set(r12) == {"bid", "tricks", "all", "give", "discard"}
    assert r24["give"] == [] and r24["discard"] == []
    assert all(isinstance(c, str) and len(c) == 2 for c in r12["give"] + r12["discard"])
    json.dumps(js)
    small = lone_table(deal, "standard", strains=["H"], seats=["E"])
    assert list(small.to_json()) == ["E"] and list(small.to_json()["E"]) == ["H"]


def test_lone_values_from_counts():
    """The counts entry point (batch callers) gives what lone_results gives."""
    import numpy as np
    for text in real_deals(5):
        deal = Deal.from_pbn(text)
        counts = np.array(deal.counts(), dtype=np.uint8)
        for seat in Seat:
            leader = lone_leader("standard", seat, deal.dealer)
            for strain in (Strain.H, Strain.NT):
                expected = lone_results(deal, "standard", seat, strain)
                assert lone_values(counts, "standard", seat, strain, leader) == expected
                assert lone_values(counts, "standard", seat, strain, leader, all_only=True) == \
                    [r.all for r in expected]


@pytest.mark.parametrize("preset", ["standard", "double32"])
def test_one_bid_valued_alone_is_its_entry_in_lone_results(preset):
    """The advice values only the lone bid a seat named (``bid_plan`` of that bid alone):
    each bid's value does not depend on the others valued with it, on random deals, every
    seat and two strains."""
    import numpy as np
    from bideuchre.analysis.lone import bid_plan, bid_values, lone_searcher
    from bideuchre.search.solve import tt_bits_for
    p = get_preset(preset)
    rng = random.Random(f"one-bid-{preset}")
    searcher = lone_searcher(tt_bits_for(p.deck))
    for _ in range(4 if preset == "double32" else 10):
        deal = random_deal(rng, p.deck.name)
        counts = np.array(deal.counts(), dtype=np.uint8)
        for seat in Seat:
            leader = lone_leader(p, seat, deal.dealer)
            for strain in (Strain.S, Strain.NT):
                whole = lone_results(deal, p, seat, strain)
                for lb, expected in zip(lone_bids(p), whole):
                    got = bid_values(searcher, counts, p, None, seat, strain, leader, False,
                                     bid_plan(p, [lb]))
                    assert got == [expected]


def test_presets_without_lone_bids_and_bad_input():
    deal = Deal.from_pbn(real_deals(1)[0])
    assert lone_results(deal, "racehorse", "N", "H") == []
    assert can_take_all(deal, "racehorse", "N", "H") == {}
    with pytest.raises(RulesError, match="strain NT is not allowed in preset 'pepper'"):
        lone_results(deal, "pepper", "N", "NT")
    with pytest.raises(NotationError, match="unknown seat 'X'"):
        lone_results(deal, "standard", "X", "H")
    with pytest.raises(RulesError, match="cannot give"):
        apply_exchange(deal, "N", give=[deal.hands[Seat.E][0]], discard=[])
    tiny = random_deal(random.Random(1), "double32", cards=1)
    with pytest.raises(RulesError, match="exchanges 2 cards, but the hands hold 1"):
        lone_results(tiny, "double32", "N", "S")
    with pytest.raises(RulesError, match="lone_exchange"):
        replace(get_preset("double48"), lone_exchange=-1)


def test_exchange_orders():
    std, d32 = get_preset("standard"), get_preset("double32")
    assert [exchange_order(std, b) for b in std.lone_bids] == ["give-first", "none"]
    assert [exchange_order(d32, b) for b in d32.lone_bids] == ["discard-first"] * 2 + ["none"]
    assert [exchange_order("pepper", b) for b in get_preset("pepper").lone_bids] == ["none"]


# ---------------------------------------------------------------------------------------------
# CLI

DEAL = real_deals(1)[0]


def test_cli_alone_json():
    r = runner.invoke(app, ["solve", DEAL, "--alone", "--json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert "table" in obj
    expected = lone_table(Deal.from_pbn(DEAL), "standard").to_json()
    assert obj["alone"] == expected


def test_cli_alone_text_and_single_lone_position():
    r = runner.invoke(app, ["solve", DEAL, "--alone"])
    assert r.exit_code == 0, r.output
    assert "12" in r.stdout and "24" in r.stdout
    r = runner.invoke(app, ["solve", DEAL, "--strain", "H", "--lone", "N", "--json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    pos = Position(Deal.from_pbn(DEAL), "H", "E", lone="N")  # standard: left of dealer N
    assert obj["leader"] == "E" and obj["lone"] == "N"
    assert obj["tricks"] == {"NS": solve_position(pos)[Side.NS], "EW": solve_position(pos)[Side.EW]}
    r = runner.invoke(app, ["solve", DEAL, "--strain", "H", "--lone", "W", "--json"])
    assert json.loads(r.stdout)["leader"] == "S"  # left of N is E, W's partner: passes to S
    # mid-trick, an explicit leader, and a leader on the empty seat (the lead passes on)
    pos = Position(Deal.from_pbn(DEAL), "H", "W", lone="N")
    card = str(pos.legal_cards()[0])
    pos.play(card)
    r = runner.invoke(app, ["solve", DEAL, "--strain", "H", "--lone", "N", "--leader", "W",
                            "--played", card, "--json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert (obj["leader"], obj["played"]) == ("W", [card])
    assert obj["tricks"] == {"NS": reference_tricks(pos)[Side.NS], "EW": reference_tricks(pos)[Side.EW]}
    r = runner.invoke(app, ["solve", DEAL, "--strain", "H", "--lone", "N", "--leader", "S", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["leader"] == "W"


@pytest.mark.parametrize("args,msg", [
    (["--alone", "--preset", "racehorse"], "no lone bids"),
    (["--strain", "H", "--lone", "X"], "unknown seat 'X'"),
    (["--strain", "NT", "--lone", "N", "--preset", "pepper"], "strain NT is not allowed"),
    (["--strain", "H", "--lone", "N", "--preset", "racehorse"], "no lone hands"),
    (["--strain", "H", "--lone", "N", "--played", "SA SA"], "cannot play"),
    (["--lone", "N"], "need --strain"),
    (["--alone", "--strain", "H"], "--alone"),
])
def test_cli_bad_lone_input(args, msg):
    r = runner.invoke(app, ["solve", DEAL, *args])
    assert r.exit_code == 2, r.output
    assert msg in " ".join(r.output.split())
    assert "Traceback" not in r.output
