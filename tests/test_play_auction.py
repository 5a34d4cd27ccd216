"""The auction as evidence in the play (``play --auction``, bideuchre.analysis.play_auction):
with a known deterministic bidding policy and no noise floor the weighting is rejection
sampling (every consistent deal enumerated, and sampled), an informative auction moves the
answer the way it must, and bad auctions are one line with exit code 2."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from standin_policy import TrumpCountPolicy
from bideuchre.analysis.auction import Auction
from bideuchre.analysis.play import play_advice
from bideuchre.analysis.play_auction import PLAY_PILOT, auction_deals, play_auction
from bideuchre.analysis.sampler import SeatView
from bideuchre.batch import generate_records
from bideuchre.bidding.play_match import bid_out, heuristic_card
from bideuchre.cli.app import app
from bideuchre.notation import Position, format_hand
from bideuchre.rules import Seat, Strain, get_preset

RACE = get_preset("racehorse")


def _fits(pol, preset, dealer, calls, me, dealt, declarer, bid, strain) -> np.ndarray:
    """Brute force: per deal (hands as dealt), whether every call but ``me``'s is the
    policy's choice from that seat's hand, and the declarer names ``strain``."""
    ok = np.ones(dealt.shape[0], dtype=bool)
    for i in range(dealt.shape[0]):
        for j, call in enumerate(calls):
            s = (int(dealer) + 1 + j) % 4
            if s == int(me):
                continue
            acts, idx = pol.choose(dealt[i:i + 1, s], s, int(dealer), list(calls[:j]))
            if acts[int(idx[0])] != call:
                ok[i] = False
        if ok[i] and bid.strain is None and int(declarer) != int(me):
            named = pol.declare_strain(dealt[i:i + 1, int(declarer)], int(declarer), int(dealer), bid)
            ok[i] = int(named[0]) == int(strain)
    return ok


def _position(seed: int, cards: int):
    """A racehorse deal (dealer N) whose auction under the stand-in policy ends in a contract,
    played ``cards`` cards by the heuristic from the contract's first lead: ``(deal, auction,
    declarer, bid, strain, played, seat to move)``."""
    pol = TrumpCountPolicy(RACE)
    for rec in generate_records(60, seed, "single24"):
        deal = rec.deal
        counts = deal.counts()
        auc = bid_out(pol, deal, RACE)
        if auc.contract is None:
            continue
        decl, bid = auc.contract
        strain = Strain(int(pol.declare_strain(np.array([counts[decl]], dtype=np.uint8), int(decl), 0, bid)[0]))
        pos = Position(deal, strain, decl)          # racehorse: the declarer leads (RULES.md §2)
        for _ in range(cards):
            pos.play(heuristic_card(pos))
        return deal, list(auc.actions), decl, bid, strain, list(pos.played), pos.to_move
    raise AssertionError("no contract in 60 deals")


@pytest.mark.parametrize("seed,cards", [(3, 9), (8, 10)])
def test_every_consistent_deal_weighted_is_rejection_sampling(seed, cards):
    """Few consistent deals (enumerated): with the deterministic policy and epsilon 0 each
    card's expected tricks are the shuffle-weighted mean over exactly the deals on which every
    other seat would have made its call -- found here by brute force, deal by deal."""
    deal, calls, decl, bid, strain, played, seat = _position(seed, cards)
    pol = TrumpCountPolicy(RACE)
    hand = format_hand(deal.hands[seat])
    plain = play_advice(hand, seat, strain, decl, decl, str(bid), RACE, played, dealer="N", workers=1)
    assert plain.exact
    view = SeatView(RACE.deck, seat, hand, strain, decl, played)
    counts, w0 = view.enumerate()
    fit = _fits(pol, RACE, Seat.N, calls, seat, counts + view.played_by[None], decl, bid, strain)
    assert 0 < fit.sum() < len(fit)            # the auction says something, and the deal fits it
    adv = play_advice(hand, seat, strain, decl, decl, str(bid), RACE, played, dealer="N", workers=1,
                      auction=calls, policy=pol, epsilon=0)
    assert adv.exact and adv.evidence.kept == int(fit.sum())
    col = {c.card: g for g, c in enumerate(plain.cards)}
    for c in adv.cards:
        t = plain.tricks[:, col[c.card]]
        want = float((t[fit] * w0[fit]).sum() / w0[fit].sum())
        assert c.tricks == pytest.approx(want, abs=1e-12)
        assert c.se == 0.0


def test_sampled_deals_with_a_deterministic_policy_are_rejection_sampling():
    """Sampled: the kept deals are exactly the view's own candidates after the pilot on which
    the policy would have made every call, in order, each of weight 1."""
    deal, calls, decl, bid, strain, played, seat = _position(3, 1)
    pol = TrumpCountPolicy(RACE)
    view = SeatView(RACE.deck, seat, format_hand(deal.hands[seat]), strain, decl, played)
    pa = play_auction(RACE, calls, "N", decl, bid, pol, 0.0)
    counts, w, ev = auction_deals(view, pa, RACE, False, None, None, 40, 5)
    cand = view.samples(5, 3000, PLAY_PILOT)
    fit = _fits(pol, RACE, Seat.N, calls, seat, cand + view.played_by[None], decl, bid, strain)
    assert fit.sum() >= 40 and (w == 1).all()
    np.testing.assert_array_equal(counts, cand[fit][:40])
    assert ev.kept == 40 and ev.n_eff == pytest.approx(40)


def test_a_high_bid_by_the_declarer_costs_the_defenders_tricks():
    """The model reads S's 5 in hearts: the defence (W, after S leads the right bower) expects
    fewer tricks than over deals dealt as if the auction said nothing, well beyond the noise;
    the line per seat says S holds hearts far more often than uniform dealing does."""
    kw = dict(declarer="S", bid="5", preset="racehorse", dealer="W", played="HJ", workers=1)
    plain = play_advice("AJ.K9.Q.A", "W", "H", **kw)
    read = play_advice("AJ.K9.Q.A", "W", "H", auction="pass pass 5 pass", **kw)
    for c in read.cards:
        p = next(x for x in plain.cards if x.card == c.card)
        assert c.tricks < p.tricks - 3 * (c.se + p.se)
    south = next(s for s in read.evidence.seats if s.seat == Seat.S)
    assert south.strain == Strain.H and south.p_strain > south.uniform_p_strain + 0.2
    assert read.evidence.n_eff > 100 and read.to_json()["auction"]["calls"] == "pass pass 5 pass"


@pytest.mark.parametrize("extra,needle", [
    (["--auction", "pass 4 5"], "is not over"),
    (["--auction", "pass 4 5 pass", "--declarer", "N"], "makes S declarer, not N"),
    (["--auction", "pass pass pass pass"], "the dealer must bid"),
    (["--auction", "pass 4 5", "--method", "alphamu"], "is not over"),
    (["--epsilon", "0.1"], "--epsilon goes with --auction"),
    (["--auction", "pass 4 5 pass", "--epsilon", "2"], "noise floor must be 0 to 1"),
    (["--auction", "pass 4 4 pass"], "S cannot '4': it does not beat the high bid 4"),
])
def test_bad_auctions_are_one_line_exit_2(extra, needle):
    args = ["play", "AJ.K9.Q.A", "--seat", "W", "-s", "H", "-p", "racehorse", "--dealer", "W",
            "--played", "HJ", "--leader", "S"] + extra
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and needle in lines[0], r.output


def test_play_without_dealer_names_it():
    r = CliRunner().invoke(app, ["play", "AJ.K9.Q.A", "--seat", "W", "-s", "H", "-p", "racehorse",
                                 "--played", "HJ", "--leader", "S", "--auction", "pass 4 5 pass"])
    assert r.exit_code == 2 and "needs the dealer" in r.output


def test_play_match_on_the_model_contracts():
    """``--contracts model``: each contract is the one the model policy's auction reaches (its
    DD tricks those of the declaring side, played DD by both sides to the same count);
    pimc+auction against itself is 0 on every deal, and par contracts refuse it."""
    from bideuchre.bidding.match import MatchError
    from bideuchre.bidding.play_match import model_contract, play_out, run_play_match
    seen = 0
    for rec in generate_records(6, 4, "single24", dealer="rotate"):
        (dealer, calls), c = model_contract(rec.deal, RACE)
        auc = Auction(RACE, dealer, calls)
        assert auc.is_over and dealer == rec.deal.dealer
        if c is None:
            assert auc.contract is None
            continue
        seen += 1
        assert (c.declarer, str(c.bid)) == (auc.contract[0], str(auc.contract[1]))
        assert play_out(rec.deal, RACE, c, "dd", "dd") == c.tricks
    assert seen >= 3
    # pimc+auction hands its auction (the model contract's) to the advice at every card
    import bideuchre.analysis.play as play_mod
    seen_auctions = []
    real = play_mod.advise_method

    def spy(*args, **kw):
        seen_auctions.append(kw.get("auction"))
        return real(*args, **kw)
    play_mod.advise_method = spy
    try:
        for rec in generate_records(4, 4, "single24", dealer="rotate"):
            heard, c = model_contract(rec.deal, RACE)
            if c is not None:
                play_out(rec.deal, RACE, c, "pimc+auction", "pimc", 20, 0, heard)
                break
    finally:
        play_mod.advise_method = real
    got = [a for a in seen_auctions if a is not None]
    assert got and all(list(a.calls) == list(heard[1]) and a.dealer == heard[0] for a in got)
    assert len(got) < len(seen_auctions)            # the defenders' pimc reads none
    with pytest.raises(MatchError, match="this contract has none"):
        play_out(rec.deal, RACE, c, "pimc+auction", "pimc", 20, 0, None)
    same = run_play_match("pimc+auction", "pimc+auction", RACE, 3, 4, samples=20, contracts="model",
                          jobs=1)
    assert same.points.edge == 0 and same.points.se == 0 and same.points.deals + same.skipped == 3
    with pytest.raises(MatchError, match="use --contracts model"):
        run_play_match("pimc+auction", "pimc", RACE, 2)
    with pytest.raises(MatchError, match="--contracts"):
        run_play_match("pimc", "heuristic", RACE, 2, contracts="auction")


def test_replay_single_dummy_reads_the_records_auction():
    """``replay --single-dummy --auction``: the auction must reach the record's contract (S 3
    in the Trickster record, dealer N); it reads as evidence, and a DD replay refuses it."""
    import json
    from bideuchre.analysis.explain import analyse_record
    from bideuchre.analysis.play import review_record
    from bideuchre.records import load_record
    from bideuchre.rules import RulesError
    ptn = str(Path(__file__).resolve().parent.parent / "positions/sources/trickster/basic_play.ptn")
    rec = load_record(ptn, 1)
    an = analyse_record(rec)
    with pytest.raises(RulesError, match="makes N declarer, not S"):
        review_record(rec, an, 50, 1, workers=1, auction="pass pass pass 4")
    r = CliRunner().invoke(app, ["replay", ptn, "--single-dummy",
                                 "--samples", "50", "--auction", "pass 3 pass pass", "--json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert obj["sd_auction"] == "pass 3 pass pass" and len(obj["steps"]) == len(rec.play)
    r = CliRunner().invoke(app, ["replay", ptn, "--auction", "pass 3 pass pass"])
    assert r.exit_code == 2 and "goes with --single-dummy" in r.output
    # the record holds its own auction (Trickster's): the note says which one is weighed
    assert rec.calls()
    r = CliRunner().invoke(app, ["replay", ptn, "--single-dummy", "--samples", "20",
                                 "--auction", "pass 3 pass pass", "--epsilon", "0.5"])
    assert r.exit_code == 0
    assert "note: the record's own auction (E 2 S 3 W Pass N Pass S 3♣) is not read" in r.output
    # --auction the record's own (its strain naming after the calls aside; its ladder starts
    # at 2): no note
    r = CliRunner().invoke(app, ["replay", ptn, "--single-dummy", "--samples", "20",
                                 "--auction", "2 3 pass pass", "--rule", "min_bid=2"])
    assert r.exit_code == 0, r.output
    assert "note:" not in r.output
    # an --auction that cannot be read: its one error line, no note before it
    r = CliRunner().invoke(app, ["replay", ptn, "--single-dummy", "--samples", "20",
                                 "--auction", "2 3 pass pass"])
    assert r.exit_code == 2 and "note:" not in r.output and "off the ladder" in r.output
    r = CliRunner().invoke(app, ["replay", ptn, "--single-dummy", "--epsilon", "0.5"])
    assert r.exit_code == 2 and "--epsilon goes with --auction" in r.output


def test_weighted_standard_errors_are_the_weighted_ones():
    """The play's mean and standard error with unequal weights (deals weighted by the auction)
    are :func:`weighted_mean_se`'s, column by column; with equal weights the usual s / sqrt(n)."""
    import math
    from bideuchre.analysis.advice.evidence import weighted_mean_se
    from bideuchre.analysis.play import _mean_se
    rng = np.random.default_rng(2)
    x = rng.integers(0, 7, size=(50, 3)).astype(float)
    w = rng.random(50) + 0.1
    m, se = _mean_se(x, w, False)
    for g in range(3):
        want_m, want_se = weighted_mean_se(x[:, g], w)
        assert m[g] == pytest.approx(want_m) and se[g] == pytest.approx(want_se)
    m1, se1 = _mean_se(x[:, 0], np.ones(50), False)
    assert se1 == pytest.approx(x[:, 0].std(ddof=1) / math.sqrt(50))
    assert _mean_se(x, w, True)[1].tolist() == [0.0, 0.0, 0.0]


def test_alphamu_with_the_auction_searches_exactly_the_worlds_that_fit():
    """αμ reads the auction as pimc does: with the deterministic policy and epsilon 0 its worlds
    are exactly the consistent deals on which every other seat would have made its call, and
    each card's expected tricks is the best shuffle-weighted mean of its front over them."""
    from bideuchre.analysis.alphamu import alphamu_fronts

    deal, calls, decl, bid, strain, played, seat = _position(8, 13)
    pol = TrumpCountPolicy(RACE)
    hand = format_hand(deal.hands[seat])
    view = SeatView(RACE.deck, seat, hand, strain, decl, played)
    counts, w0 = view.enumerate()
    fit = _fits(pol, RACE, Seat.N, calls, seat, counts + view.played_by[None], decl, bid, strain)
    assert 0 < fit.sum() < len(fit)
    adv = play_advice(hand, seat, strain, decl, decl, str(bid), RACE, played, dealer="N",
                      method="alphamu", objective="tricks", auction=calls, policy=pol, epsilon=0,
                      exact_limit=5000)
    assert adv.method == "alphamu" and adv.exact and adv.evidence.kept == int(fit.sum())
    groups, fronts, _ = alphamu_fronts(view, counts[fit], 2)
    w = w0[fit].astype(float)
    assert len(adv.cards) == len(groups) > 1
    for g, f in zip(groups, fronts):
        shown = next(c for c in adv.cards if int(c.card) in g)
        assert shown.tricks == pytest.approx(max(float(v @ w) for v in f) / w.sum(), abs=1e-12)


@pytest.mark.parametrize("preset,seed,cards", [("racehorse", 3, 9), ("racehorse", 8, 6), ("double32", 4, 14)])
def test_the_calls_asked_once_per_distinct_hand_are_those_of_every_deal(preset, seed, cards):
    """``call_probabilities`` and the strain's naming ask the bidding model once per distinct
    hand of each seat (``distinct_hands``); the weights are those of asking it for every deal
    (the formula of ``call_weights`` written out here), to the bit, on the enumerated deals of
    a late position, where the hands repeat."""
    from bideuchre.analysis.advice import evidence
    from bideuchre.analysis.play_auction import _weigh
    from bideuchre.bidding import get_policy
    from bideuchre.bidding.play_match import model_contract
    p = get_preset(preset)
    pol = get_policy("model", p)
    for rec in generate_records(40, seed, p.deck, dealer="rotate"):
        heard, c = model_contract(rec.deal, p)
        if c is None or c.bid.is_lone:
            continue
        pos = Position(rec.deal, c.strain, c.declarer)
        for _ in range(cards):
            pos.play(heuristic_card(pos))
        seat = pos.to_move
        view = SeatView(p.deck, seat, format_hand(rec.deal.hands[seat]), c.strain, c.declarer, list(pos.played))
        if view.count()[0] > 20_000:
            continue
        counts, _ = view.enumerate()
        dealt = counts + view.played_by[None]
        dealer, calls = int(heard[0]), list(heard[1])
        others = [(dealer + 1 + j) % 4 for j in range(len(calls))]
        if all(evidence.distinct_hands(dealt[:, s]) is None for s in others if s != int(seat)):
            continue                       # no seat's hands repeat: not the case tested
        pa = play_auction(p, calls, heard[0], c.declarer, c.bid, pol)
        got, legal = evidence.call_probabilities(pol, dealer, calls, dealt, int(seat))
        want = np.ones(len(dealt))
        for j, call in enumerate(calls):
            s = others[j]
            if s == int(seat):
                assert (got[:, j] == 1).all()
                continue
            acts, probs = pol.call_probs(np.ascontiguousarray(dealt[:, s]), s, dealer, calls[:j])
            col = np.asarray(probs, dtype=np.float64)[:, list(acts).index(call)]
            np.testing.assert_array_equal(got[:, j], col)
            assert legal[j] == len(acts)
            want *= (1.0 - pa.epsilon) * col + pa.epsilon / len(acts)
        if c.bid.strain is None and int(c.declarer) != int(seat):
            d = int(c.declarer)
            named = pol.declare_strain(np.ascontiguousarray(dealt[:, d]), d, dealer, c.bid)
            want = want * ((1.0 - pa.epsilon) * (named == int(c.strain)) + pa.epsilon / len(p.strains))
        np.testing.assert_array_equal(_weigh(view, pa, p, counts), want)
        return
    raise AssertionError("no late position with repeated hands in 40 deals")


def test_distinct_hands_keeps_every_hand():
    from bideuchre.analysis.advice.evidence import distinct_hands
    rng = np.random.default_rng(1)
    base = rng.integers(0, 3, size=(7, 24)).astype(np.uint8)
    hands = base[rng.integers(0, 7, size=200)]
    rows, inv = distinct_hands(hands)
    assert len(rows) == len({h.tobytes() for h in hands}) <= 7
    np.testing.assert_array_equal(hands[rows][inv], hands)
    assert distinct_hands(hands[:63]) is None                                  # too few to bother
    assert distinct_hands(rng.integers(0, 3, size=(200, 24)).astype(np.uint8)) is None  # all differ
