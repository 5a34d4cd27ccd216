"""Tests of bideuchre.analysis.explain (every card's value, the principal variation, the analysis of a played
hand) against the pure-Python reference solver, and of the ``explain``/``replay`` commands."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from helpers import SOURCES, random_position, real_deals
from bideuchre.analysis.explain import (
    analyse_play, analyse_record, card_values, equivalent_groups, explain, principal_variation,
)
from bideuchre.notation import Deal, Position
from bideuchre.records import read_records
from bideuchre.search.reference import reference_card_values, reference_tricks
from bideuchre.rules import Card, IllegalPlayError, RulesError, Seat, Side, Strain

TRICKSTER = SOURCES / "trickster"

# (deck, cards per hand or None for a full deal, lone?) × count: 120 random positions in all,
# partnership and lone, start of hand, between tricks and mid-trick (random_position plays a
# random number of random legal cards).
MIX = [("single24", None, False, 50), ("single24", None, True, 20), ("double32", 5, False, 15),
       ("double32", 5, True, 5), ("double40", 4, False, 15), ("double48", 4, False, 15)]


def _positions(seed: int):
    rng = random.Random(seed)
    for deck, cards, lone, n in MIX:
        for _ in range(n):
            pos = random_position(rng, deck, cards=cards, lone=lone)
            if not pos.is_over:
                yield pos


def _replay_line(pos: Position, line) -> Position:
    """Play a line (list of TrickLine) on a copy of pos, checking seats and winners."""
    p = pos.copy()
    for tr in line:
        assert [s for s, _ in tr.cards[:tr.played]] == [s for s, _ in p.trick]
        winner = None
        for seat, card in tr.cards[tr.played:]:
            assert p.to_move == seat
            winner = p.play(card)
        assert winner == tr.winner
    assert p.is_over
    return p


def test_card_values_match_reference_card_by_card():
    seen = {"mid": 0, "lone": 0, "start": 0, "decks": set()}
    for pos in _positions(20261130):
        ref = reference_card_values(pos)
        vals = card_values(pos)
        got = {}
        for v in vals:
            for c in v.cards:
                assert c not in got, f"{c} in two groups: {pos!r}"
                got[c] = v
        assert set(got) == set(ref), repr(pos)
        ns_moves = pos.to_move.side == Side.NS
        best = max(ref.values()) if ns_moves else min(ref.values())
        total = pos.tricks_won[Side.NS] + pos.tricks_won[Side.EW] + (
            len(pos.hand(pos.trick[0][0] if pos.trick else pos.to_move)) + (1 if pos.trick else 0))
        for card, ns in ref.items():
            v = got[card]
            assert v.tricks[Side.NS] == ns, f"{card}: {v.tricks} vs reference NS {ns} in {pos!r}"
            assert v.tricks[Side.EW] == total - ns
            assert v.optimal == (ns == best)
            assert v.cost == abs(best - ns)
        costs = [v.cost for v in vals]
        assert costs == sorted(costs), "best first"
        seen["mid"] += bool(pos.trick)
        seen["lone"] += pos.lone is not None
        seen["start"] += not pos.played
        seen["decks"].add(pos.deal.deck.name)
    assert seen["mid"] >= 20 and seen["lone"] >= 15 and seen["start"] >= 5
    assert seen["decks"] == {"single24", "double32", "double40", "double48"}


def test_lines_and_principal_variation_replay_to_their_values():
    for i, pos in enumerate(_positions(7)):
        if i % 3:
            continue
        ex = explain(pos)
        ref = reference_tricks(pos)
        assert ex.value == ref
        end = _replay_line(pos, ex.pv)
        assert end.tricks_won == ref
        assert [t.number for t in ex.pv] == list(range(pos.trick_number, pos.trick_number + len(ex.pv)))
        for v in ex.cards:
            end = _replay_line(pos, v.line)
            assert end.tricks_won == v.tricks
            first = v.line[0].cards[v.line[0].played]
            assert first == (pos.to_move, v.card)


def test_equivalent_groups_touching_and_copies():
    # N holds ♠A ♠K (touching: the other spades are lower) and ♥A ♥Q with ♥K in E's hand.
    deal = Deal.from_pbn("N:AK.AQ.9.9 Q9.K9.T.T JT.JT.J.J ..AKQ.AKQ", "single24")
    groups = [[str(c) for c in g] for g in equivalent_groups(Position(deal, "NT", "N"))]
    assert ["SA", "SK"] in groups and ["HA"] in groups and ["HQ"] in groups
    # clubs trump, S to lead: the right and left bowers touch (the ♠J is a trump), the ♠10 is
    # a spade of its own; ♥J ♥10 touch
    groups = [[str(c) for c in g] for g in equivalent_groups(Position(deal, "C", "S"))]
    assert sorted(map(sorted, groups)) == sorted(map(sorted, [["CJ", "SJ"], ["ST"], ["HJ", "HT"], ["DJ"]]))
    # no trump low: the order reverses, ♥10 over ♥J still touching; ♠J ♠10 touch too
    groups = [[str(c) for c in g] for g in equivalent_groups(Position(deal, "NTL", "S"))]
    assert ["ST", "SJ"] in groups and ["HT", "HJ"] in groups
    # double deck: a copy held elsewhere separates (first played wins): N ♠A ♠K, E the other ♠A
    deal = Deal([[Card.SA, Card.SK], [Card.SA, Card.HA], [Card.HK, Card.HQ], [Card.DA, Card.DK]], "double32")
    groups = equivalent_groups(Position(deal, "NT", "N"))
    assert [Card.SA] in groups and [Card.SK] in groups
    deal = Deal([[Card.SA, Card.SK], [Card.HJ, Card.HA], [Card.HK, Card.HQ], [Card.DA, Card.DK]], "double32")
    assert [Card.SA, Card.SK] in equivalent_groups(Position(deal, "NT", "N"))


def _reference_line(pos: Position, plant_at: int, rng: random.Random):
    """Play DD-optimal cards (by the reference solver) to the end, except one losing card at
    the first turn ≥ plant_at that has one; returns (cards, index, seat, cost, right cards)."""
    p = pos.copy()
    cards, planted = [], None
    while not p.is_over:
        vals = reference_card_values(p)
        ns_moves = p.to_move.side == Side.NS
        best = max(vals.values()) if ns_moves else min(vals.values())
        optimal = sorted(c for c, v in vals.items() if v == best)
        losing = sorted(c for c, v in vals.items() if v != best)
        if planted is None and len(cards) >= plant_at and losing:
            card = rng.choice(losing)
            planted = (len(cards), p.to_move, abs(vals[card] - best), optimal)
        else:
            card = rng.choice(optimal)
        cards.append(card)
        p.play(card)
    return cards, planted


@pytest.mark.parametrize("case", [
    ("single24", 0, None, 1), ("single24", 3, None, 5), ("single24", 7, "E", 9),
    ("double32", 2, None, 6), ("double40", 1, "S", 4),
])
def test_planted_mistake_is_found_with_its_cost(case):
    deck, line, lone, plant_at = case
    rng = random.Random(1000 * line + plant_at)
    if deck == "single24":
        deal = Deal.from_pbn(real_deals(20)[line])
    else:
        from helpers import random_deal
        deal = random_deal(rng, deck, cards=5)
    strain = Strain(line % 6) if deck == "single24" else Strain(line % 5)
    pos = Position(deal, strain, Seat(line % 4), lone=lone)
    cards, planted = _reference_line(pos, plant_at, rng)
    assert planted is not None, "the test deal needs a position with a losing card"
    index, seat, cost, optimal = planted
    an = analyse_play(deal, strain, Seat(line % 4), cards, lone=lone)
    assert an.start == reference_tricks(pos)
    assert [(s.index, s.seat, s.cost) for s in an.mistakes] == [(index, seat, cost)]
    assert sorted(an.mistakes[0].best) == optimal
    assert an.lost == {s: (cost if s == seat else 0) for s in Seat}
    assert an.final == Position(deal, strain, Seat(line % 4), cards, lone).tricks_won
    # the value moves only at the planted card, by its cost, against the side that played it
    for st in an.steps:
        delta = st.before[seat.side] - st.value[seat.side]
        assert delta == (cost if st.index == index else 0)


def test_analysis_values_match_reference_after_every_card():
    """The played Trickster hands: each step's value and cost against the reference solver.
    The double decks' early positions are too big for the pure-Python reference in a test's
    time: there the reference takes over from card ``ref_from`` on, solve_position before."""
    from bideuchre.search.solve import solve_position
    ref_from = {"single24": 0, "double32": 5, "double48": 19}
    for rec in read_records(TRICKSTER / "basic_play.ptn"):
        an = analyse_record(rec)
        pos = Position(rec.deal, rec.strain, rec.leader, (), rec.lone)
        first = ref_from[rec.deck.name]
        assert an.start == (reference_tricks(pos) if first == 0 else solve_position(pos))
        for st in an.steps:
            assert pos.to_move == st.seat
            if st.index >= first:
                before = reference_card_values(pos)
                ns_moves = st.seat.side == Side.NS
                best = max(before.values()) if ns_moves else min(before.values())
                assert st.cost == abs(best - before[st.card])
                if st.cost:
                    assert sorted(st.best) == sorted(c for c, v in before.items() if v == best)
            pos.play(st.card)
            assert st.value == (reference_tricks(pos) if st.index >= first else solve_position(pos))


def test_whole_random_hands_analysed_match_reference():
    rng = random.Random(99)
    for i, text in enumerate(real_deals(4)):
        deal = Deal.from_pbn(text)
        lone = Seat(i) if i % 2 else None
        pos = Position(deal, Strain((i + 2) % 6), Seat(i), lone=lone)
        cards = []
        while not pos.is_over:
            c = rng.choice(pos.legal_cards())
            cards.append(c)
            pos.play(c)
        an = analyse_play(deal, Strain((i + 2) % 6), Seat(i), cards, lone=lone)
        p = Position(deal, Strain((i + 2) % 6), Seat(i), lone=lone)
        for st in an.steps:
            p.play(st.card)
            if st.index % 3 == 0 or st.cost:
                assert st.value == reference_tricks(p)
        assert an.final == p.tricks_won
        assert sum(an.lost.values()) == sum(s.cost for s in an.steps)


def test_illegal_play_is_refused_with_trick_and_seat():
    deal = Deal.from_pbn(real_deals(1)[0])
    with pytest.raises(IllegalPlayError, match="trick 1: E cannot play SK"):
        analyse_play(deal, "H", "E", "SK")


def test_hidden_record_refused_for_replay():
    rec = read_records(TRICKSTER / "bid_nt.ptn")[0]
    with pytest.raises(RulesError, match=r"bid_nt\.ptn:1: cannot replay: hand\(s\) N S W hidden"):
        analyse_record(rec)


def test_over_position_explains_empty():
    deal = Deal.from_pbn(real_deals(1)[0])
    pos = Position(deal, "S", "N")
    for tr in principal_variation(pos):
        for _, c in tr.cards:
            pos.play(c)
    ex = explain(pos)
    assert ex.to_move is None and ex.cards == [] and ex.pv == []
    assert card_values(pos) == []


# ---------------------------------------------------------------------------------------------
# CLI

runner = CliRunner()


def _app():
    from bideuchre.cli.app import app
    return app


def test_cli_explain_json_shape_and_values():
    deal = real_deals(3)[2]
    r = runner.invoke(_app(), ["explain", deal, "--strain", "S", "--leader", "W", "--played", "", "--json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    pos = Position(Deal.from_pbn(deal), "S", "W")
    ref = reference_card_values(pos)
    assert {"cards", "pv"} <= set(obj)
    for entry in obj["cards"]:
        assert set(entry) >= {"card", "tricks", "optimal", "equivalent"}
        for c in [entry["card"]] + entry["equivalent"]:
            assert ref[Card.parse(c)] == entry["tricks"]["NS"]
        assert entry["tricks"]["NS"] + entry["tricks"]["EW"] == 6
    assert sum(len(t["cards"]) for t in obj["pv"]) == 24
    assert obj["cards"][0]["optimal"] is True


def test_cli_explain_text_fits_80_columns():
    deal = real_deals(5)[4]
    lead = Position(Deal.from_pbn(deal), "NTL", "E").legal_cards()[0]
    r = runner.invoke(_app(), ["explain", deal, "-s", "NTL", "-l", "E", "--played", str(lead)],
                      env={"COLUMNS": "80"})
    assert r.exit_code == 0, r.output
    assert "principal line" in r.stdout and "best" in r.stdout
    assert max(len(line) for line in r.stdout.splitlines()) <= 80


def test_cli_explain_lone_double_deck():
    r = runner.invoke(_app(), ["explain", "N:J.KKQ.AJ.AQ AKJ.Q.KQJ.A AQ.AAJ.AQ.Q KQ.J.K.KKJJ",
                               "--deck", "double32", "--preset", "double32", "-s", "H", "--lone", "S",
                               "--json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert obj["lone"] == "S" and obj["to_move"] == "S"
    assert all(len(t["cards"]) == 3 for t in obj["pv"])


def test_cli_replay_json_and_text():
    path = str(TRICKSTER / "basic_play.ptn")
    r = runner.invoke(_app(), ["replay", path, "--index", "3", "--json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    rec = read_records(path)[2]
    assert [s["card"] for s in obj["steps"]] == [str(c) for c in rec.play]
    assert set(obj["steps"][0]) >= {"card", "seat", "value", "cost"}
    r = runner.invoke(_app(), ["replay", path, "-i", "3"], env={"COLUMNS": "80"})
    assert r.exit_code == 0, r.output
    assert "tricks lost by mistakes" in r.stdout
    assert max(len(line) for line in r.stdout.splitlines()) <= 80


def test_cli_replay_says_whether_the_play_is_complete(tmp_path):
    """A record of all six tricks is complete; Trickster's first record stops after 2 cards."""
    rec = tmp_path / "rec.txt"
    rec.write_text("""[Event "real deal 3"]
[Deck "single24"]
[Dealer "N"]
[Deal "N:Q.KT.J.T9 AT9.J.AK. K..Q.AKQJ J.AQ9.T9."]
[Declarer "E"]
[Strain "S"]
[Bid "4"]
[Play "E"]
SA CJ SJ SQ
HA HT HJ SK
CA H9 C9 S9
ST DQ D9 CT
DA CQ DT DJ
DK CK HQ HK
""")
    r = runner.invoke(_app(), ["replay", str(rec)])
    assert r.exit_code == 0, r.output
    assert "after the last card: NS 1 · EW 5" in r.stdout and "incomplete" not in r.stdout
    r = runner.invoke(_app(), ["replay", str(TRICKSTER / "basic_play.ptn"), "--index", "1"])
    assert r.exit_code == 0 and "(play incomplete)" in r.stdout, r.output


def test_cli_replay_errors():
    r = runner.invoke(_app(), ["replay", str(TRICKSTER / "bid_alone.ptn"), "--index", "2"])
    assert r.exit_code == 2
    assert "cannot replay" in r.output and "hidden" in r.output and "Traceback" not in r.output
    r = runner.invoke(_app(), ["replay", str(TRICKSTER / "basic_play.ptn"), "--index", "9"])
    assert r.exit_code == 2 and "no record 9; the file holds 3 records" in r.output
    r = runner.invoke(_app(), ["replay", "/nonexistent/file.ptn"])
    assert r.exit_code == 2
    r = runner.invoke(_app(), ["explain", real_deals(1)[0], "-s", "X", "-l", "N"])
    assert r.exit_code == 2 and "unknown strain" in r.output
