"""The cards played as evidence (``play --play-model``, bideuchre.analysis.play_model): the
weight of each consistent deal is the softmax probability of the other seats' recent choices
computed from the pure-Python reference solver's values (cards chosen by a heuristic and
double-dummy best, partnership and lone), the decisions rebuild the hands at each card, the
weights do not depend on the threads and are those the advice uses, and bad settings are
one line (exit code 2 in the CLI)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from typer.testing import CliRunner

from bideuchre.analysis.explain import card_groups, card_values
from bideuchre.analysis.play import advise_method, play_advice
from bideuchre.analysis.play_model import (DEFAULT_HISTORY, past_decisions, play_model,
                                           play_weights)
from bideuchre.analysis.sampler import SeatView
from bideuchre.batch import generate_records
from bideuchre.bidding.play_match import heuristic_card
from bideuchre.cli.app import app
from bideuchre.notation import Deal, Position
from bideuchre.rules import BidEuchreError, RulesError, get_preset
from bideuchre.search.reference import reference_card_values

RACE = get_preset("racehorse")


def _dd_best(pos: Position):
    return card_values(pos)[0].card


def _played(deal, strain, leader, cards: int, lone=None, chooser=heuristic_card) -> Position:
    pos = Position(deal, strain, leader, (), lone)
    for _ in range(cards):
        pos.play(chooser(pos))
    return pos


def _reference_loglik(view: SeatView, remaining: np.ndarray, beta: float, history: int) -> float:
    """Brute force: replay the deal as dealt card by card; at each of the last ``history``
    cards of another seat, the reference solver's NS tricks after each legal card, the groups
    of equivalent cards among them, and the softmax log-probability of the group played."""
    deal = Deal(view.dealt_hands(remaining), view.deck)
    out = None if view.out is None else int(view.out)
    pos = Position(deal, view.strain, view.first_leader, (), view.lone)
    steps = []
    for card in view.played:
        seat = int(pos.to_move)
        if seat != int(view.seat):
            vals = reference_card_values(pos)
            legal = sorted(int(c) for c in vals)
            elsewhere = [int(c) for s in range(4) if s not in (seat, out) for c in pos.hand(s)]
            elsewhere += [int(c) for _, c in pos.trick]
            groups = card_groups(legal, elsewhere, int(view.strain))
            steps.append((seat, int(card), groups, vals))
        pos.play(card)
    ll = 0.0
    for seat, card, groups, vals in steps[::-1][:history]:
        if len(groups) < 2:
            continue
        gain = [vals[g[0]] if seat % 2 == 0 else -vals[g[0]] for g in groups]
        z = [-beta * (max(gain) - x) for x in gain]
        mine = next(k for k, g in enumerate(groups) if card in g)
        ll += z[mine] - math.log(sum(math.exp(x) for x in z))
    return ll


@pytest.mark.parametrize("seed,cards,beta,history,lone,dd", [
    (3, 9, 4.0, DEFAULT_HISTORY, False, False), (4, 13, 1.0, 3, False, False),
    (5, 10, 2.5, 12, False, True), (6, 7, 4.0, 4, True, False), (7, 14, 8.0, DEFAULT_HISTORY, False, True)])
def test_weights_are_the_softmax_of_the_reference_solvers_values(seed, cards, beta, history, lone, dd):
    deal = next(iter(generate_records(1, seed, "single24"))).deal
    lone_seat = 0 if lone else None
    leader = 1
    pos = _played(deal, 2, leader, cards, lone_seat, _dd_best if dd else heuristic_card)
    seat = int(pos.to_move)
    view = SeatView("single24", seat, deal.hands[seat], 2, leader, list(pos.played), lone_seat)
    counts, _ = view.enumerate()
    counts = counts[::max(1, len(counts) // 12)][:12]      # a spread of them (the reference is slow)
    model = play_model(beta, history)
    got, read = play_weights(view, counts, model)
    assert read == min(history, sum(1 for k, s in enumerate(_seats(pos)) if s != seat))
    ref = np.array([_reference_loglik(view, counts[i], beta, history) for i in range(len(counts))])
    want = np.exp(ref - ref.max())
    assert got.shape == (len(counts),)
    assert np.allclose(got, want, rtol=1e-9, atol=1e-12)
    assert got.max() == 1.0 and (got > 0).all()
    assert got.min() < 1.0      # the cards played tell these deals apart


def _card_values_loglik(view: SeatView, remaining: np.ndarray, beta: float, history: int) -> float:
    """The same through explain's card values (their groups and costs, another code path):
    each earlier position rebuilt as a Position from the deal as dealt."""
    deal = Deal(view.dealt_hands(remaining), view.deck)
    pos = Position(deal, view.strain, view.first_leader, (), view.lone)
    reads = []
    for k, card in enumerate(view.played):
        if int(pos.to_move) != int(view.seat):
            reads.append((k, int(card)))
        pos.play(card)
    ll = 0.0
    for k, card in reads[::-1][:history]:
        vals = card_values(Position(deal, view.strain, view.first_leader, view.played[:k], view.lone))
        if len(vals) < 2:
            continue
        z = [-beta * v.cost for v in vals]
        mine = next(i for i, v in enumerate(vals) if card in [int(v.card)] + [int(x) for x in v.equivalent])
        ll += z[mine] - math.log(sum(math.exp(x) for x in z))
    return ll


@pytest.mark.parametrize("deck,strain,lone,seed,cards,leader", [
    ("double32", 1, 2, 3, 9, 0), ("double40", 3, 1, 4, 10, 2), ("double48", 5, None, 5, 14, 3),
    ("double48", 4, 3, 6, 13, 1)])
def test_double_decks_and_lone_hands_agree_with_the_card_values(deck, strain, lone, seed, cards, leader):
    deal = next(iter(generate_records(1, seed, deck))).deal
    pos = _played(deal, strain, leader, cards, lone)
    seat = int(pos.to_move)
    view = SeatView(deck, seat, deal.hands[seat], strain, leader, list(pos.played), lone)
    counts = np.concatenate([view.samples(9, 6), np.array(pos.hands, dtype=np.uint8)[None]])
    for beta, history in ((4.0, 6), (1.5, 24)):
        got, _ = play_weights(view, counts, play_model(beta, history))
        want = np.array([_card_values_loglik(view, counts[i], beta, history) for i in range(len(counts))])
        assert np.allclose(got, np.exp(want - want.max()), rtol=1e-9, atol=1e-12)


def _seats(pos: Position) -> list[int]:
    """The seat of each card played so far."""
    p = Position(pos.deal, pos.strain, pos.leader, (), pos.lone)
    seats = []
    for card in pos.played:
        seats.append(int(p.to_move))
        p.play(card)
    return seats


def test_past_decisions_rebuild_the_hands_at_each_card():
    deal = next(iter(generate_records(1, 11, "double32"))).deal
    pos = _played(deal, 0, 3, 13)
    seat = int(pos.to_move)
    view = SeatView("double32", seat, deal.hands[seat], 0, 3, list(pos.played))
    remaining = np.array(pos.hands, dtype=np.uint8)
    seats = _seats(pos)
    decisions = past_decisions(view, 24)
    others = [k for k, s in enumerate(seats) if s != seat][::-1]
    assert [d[0] for d in decisions] == [seats[k] for k in others]
    for (s, card, lead, trick, later), k in zip(decisions, others):
        at = Position(deal, 0, 3, pos.played[:k])
        assert card == int(pos.played[k]) and s == int(at.to_move)
        assert np.array_equal(remaining + later, np.array(at.hands, dtype=np.uint8))
        assert trick == [int(c) for _, c in at.trick]
        assert lead == int(at.trick[0][0] if at.trick else at.to_move)


def test_the_weights_do_not_depend_on_the_threads():
    deal = next(iter(generate_records(1, 31, "double40"))).deal
    pos = _played(deal, 3, 2, 11)
    seat = int(pos.to_move)
    view = SeatView("double40", seat, deal.hands[seat], 3, 2, list(pos.played))
    counts = view.samples(5, 60)
    one, _ = play_weights(view, counts, play_model())
    two, _ = play_weights(view, counts, play_model(), workers=2)
    assert np.array_equal(one, two)


def test_the_advice_weighs_its_deals_by_the_play_model():
    deal = next(iter(generate_records(1, 41, "single24"))).deal
    pos = _played(deal, 0, 1, 9)
    seat = int(pos.to_move)
    view = SeatView("single24", seat, deal.hands[seat], 0, 1, list(pos.played))
    model = play_model()
    plain = advise_method(view, RACE, None, None, "pimc", workers=1)
    read = advise_method(view, RACE, None, None, "pimc", workers=1, play_model=model)
    assert plain.exact and read.exact and plain.deals == read.deals
    counts, weights = view.enumerate()
    f, n = play_weights(view, counts, model)
    assert np.allclose(read.weights, weights * f)
    assert read.play_model["decisions"] == n and read.play_model["beta"] == model.beta
    assert read.play_model["n_eff"] < plain.deals
    # the weighted mean of each card's tricks over the deals, as the advice reports it
    for k, c in enumerate(read.cards):
        assert c.tricks == pytest.approx(float((read.tricks[:, k] * read.weights).sum() / read.weights.sum()))
    hybrid = advise_method(view, RACE, None, None, "hybrid", workers=1, play_model=model)
    assert hybrid.play_model["decisions"] == n


@pytest.mark.parametrize("beta,history,needle", [
    (0, None, "--beta 0"), (-1.0, None, "--beta -1.0"), (float("nan"), None, "--beta nan"),
    (None, 0, "--history 0"), (None, 25, "--history 25"), (True, None, "--beta True"),
    (10 ** 400, None, "--beta 1000"), ("4", None, "--beta '4'"), (None, 2.5, "--history 2.5")])
def test_bad_settings_are_one_line(beta, history, needle):
    assert play_model(np.float32(2.5), np.int64(3)).to_json() == {"beta": 2.5, "history": 3}
    with pytest.raises(RulesError) as e:
        play_model(beta, history)
    assert isinstance(e.value, BidEuchreError) and needle in str(e.value) and "\n" not in str(e.value)


def test_play_with_the_play_model_on_the_command_line():
    r = CliRunner().invoke(app, ["play", "AJ.KQ..JT", "--seat", "N", "--strain", "S", "--declarer", "N",
                                 "--bid", "4", "--played", "AD KD QD", "--leader", "E", "-p", "racehorse",
                                 "--play-model", "--json", "-j", "1"])
    assert r.exit_code == 0, r.output
    import json
    obj = json.loads(r.output)
    assert obj["play_model"]["decisions"] == 3 and obj["play_model"]["beta"] == 4.0
    r = CliRunner().invoke(app, ["play", "AJ.KQ..JT", "--seat", "N", "--strain", "S", "--declarer", "N",
                                 "--bid", "4", "--played", "AD KD QD", "--leader", "E", "-p", "racehorse",
                                 "--play-model", "--beta", "0"])
    assert r.exit_code == 2 and "--beta 0" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(app, ["play", "AJ.KQ..JT", "--seat", "N", "--strain", "S", "--declarer", "N",
                                 "--bid", "4", "--leader", "N", "-p", "racehorse", "--beta", "2"])
    assert r.exit_code == 2 and "--play-model" in r.output
