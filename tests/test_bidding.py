"""The bidding model and policies (bideuchre.bidding) and the duplicate match (bideuchre.bidding.match).

Expected values are worked out here from the rules (RULES.md), not read off the code: the
heuristic's estimate card by card, a hand whose tricks are certain, the softmax of the model's
own values, and the match against par computed by bideuchre.analysis.par on the same deal.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from bideuchre.analysis.auction import Bid, parse_bid
from bideuchre.analysis.par import par
from bideuchre.bidding import (PolicyError, TrickModel, get_policy, heuristic_estimate, policy_names)
from bideuchre.bidding.match import MatchError, make_deals, run_match
from bideuchre.notation import Deal, parse_hand
from bideuchre.rules import PRESETS, Seat, Strain


def counts(*hands: str) -> np.ndarray:
    out = np.zeros((len(hands), 24), dtype=np.uint8)
    for i, h in enumerate(hands):
        for c in parse_hand(h):
            out[i, int(c)] += 1
    return out


def random_hands(p, n: int, seed: int) -> np.ndarray:
    """``n`` random hands of preset ``p``'s deck, ``(n, 24)`` card counts."""
    rng = np.random.default_rng(seed)
    deck = np.repeat(np.array([int(c) for c in p.deck.card_ids]), p.deck.copies)
    h = np.zeros((n, 24), dtype=np.uint8)
    for i in range(n):
        np.add.at(h[i], rng.permutation(deck)[:p.tricks], 1)
    return h


def have_data(preset: str) -> bool:
    try:
        TrickModel.load(preset)
        return True
    except Exception:
        return False


SINGLE = ["standard", "pepper", "racehorse"]
ALL_WITH_DATA = [p for p in PRESETS if have_data(p)]


# ---------------------------------------------------------------------------------------------
# decisions whose answer is clear

# both bowers (SJ CJ), A K of trumps, a side ace (HA), a small diamond
STRONG = {6: "AKJ.A.9.J", 8: "AKJ.A.KQ.JQ", 12: "AKJT9.A.Q9.JT99"}
# no trump above a 10 in any suit strain (no jack: no bower) and no ace
WEAK = {6: "T9.T9.T.9", 12: "TT99.TT99.T9.99"}


def first_three_calls(pol, h):
    """The action the policy takes with hand ``h`` for every dealer and each of the first
    three seats to speak, after passes: ``[(dealer, k, action)]``."""
    out = []
    for dealer in range(4):
        for k in range(3):
            actions, idx = pol.choose(h, (dealer + 1 + k) % 4, dealer, [None] * k)
            out.append((dealer, k, actions[idx[0]]))
    return out


@pytest.mark.parametrize("preset", ALL_WITH_DATA)
@pytest.mark.parametrize("policy", ["model", "heuristic"])
def test_strong_hand_bids_at_least_four(preset, policy):
    p = PRESETS[preset]
    h = counts(STRONG[p.tricks])
    pol = get_policy(policy, p)
    for dealer, k, a in first_three_calls(pol, h):   # an opponent still to speak
        assert a is not None and a.level >= 4, (preset, policy, dealer, k, a)
    for dealer in range(4):
        # the dealer after three passes: nobody can outbid it, and a made contract scores the
        # tricks taken whatever the bid (RULES.md §1), so any bid is as good as 4 -- but it bids
        actions, idx = pol.choose(h, dealer, dealer, [None] * 3)
        assert actions[idx[0]] is not None


@pytest.mark.parametrize("preset", ["pepper"])
@pytest.mark.parametrize("policy", ["model", "heuristic"])
def test_weak_hand_passes_where_it_may(preset, policy):
    # pepper has no NTL, where a hand of 9s and 10s would be strong (standard, racehorse), and
    # bids start at 3 of 6 (double48's start at 1 of 12, where bidding low is no clear mistake;
    # double32 has no card below a jack, so no such hand)
    p = PRESETS[preset]
    h = counts(WEAK[p.tricks])
    pol = get_policy(policy, p)
    # the dealer after three passes may have to bid: the first three seats
    assert [a for _, _, a in first_three_calls(pol, h)] == [None] * 12
    for dealer in range(4):
        # partner bid 3: still pass
        actions, idx = pol.choose(h, dealer, dealer, [None, parse_bid("3" if p.strain_named == "after" else "3S", p), None])
        assert actions[idx[0]] is None


def test_dealer_who_must_bid_bids():
    p = PRESETS["pepper"]
    for policy in ("model", "heuristic"):
        actions, idx = get_policy(policy, p).choose(counts(WEAK[6]), 3, 3, [None, None, None])
        assert None not in actions and actions[idx[0]] == Bid(3, "3")


# ---------------------------------------------------------------------------------------------
# the heuristic's estimate, card by card (policy module docstring)

def test_heuristic_estimate_by_hand():
    est = heuristic_estimate(counts("AKJ.A.9.J"), "standard")[0]
    # S: SJ right bower 1, CJ left bower 1, SA 1, SK 1 (nothing higher out), side ace HA 0.5
    assert est[Strain.S] == pytest.approx(4.5)
    # C: CJ right bower 1; SJ left bower 1; no other club; side aces SA HA 0.5 each
    assert est[Strain.C] == pytest.approx(3.0)
    # H: HA is the third trump (both bowers out: 0.5); side ace SA 0.5
    assert est[Strain.H] == pytest.approx(1.0)
    # NT: SA 1, SK 1, SJ 0.75 (SQ out, three spades), HA 1; D9 and CJ nothing
    assert est[Strain.NT] == pytest.approx(3.75)
    # NTL (9 best): D9 1 (a singleton but nothing above it); everything else has 2+ above
    assert est[Strain.NTL] == pytest.approx(1.0)


def test_heuristic_double_deck_copies():
    # double32 spades: one SJ (right bower: 1), the other copy out, so each of the two CJ
    # (left bowers) has one higher trump out: 0.75 + 0.75; no ace
    est = heuristic_estimate(counts("J.KQ.KQ.JJQ"), "double32")[0]
    assert est[Strain.S] == pytest.approx(2.5)
    # both SJ: the held copies are the first two slots (1 + 1), then CJ CJ (1 + 1)
    est = heuristic_estimate(counts("JJ.KQ.KQ.JJ"), "double32")[0]
    assert est[Strain.S] == pytest.approx(4.0)


# ---------------------------------------------------------------------------------------------
# the trick model

@pytest.mark.parametrize("preset", ALL_WITH_DATA)
def test_trick_probs_shape_and_sums(preset):
    p = PRESETS[preset]
    m = TrickModel.load(p)
    h = random_hands(p, 50, 5)
    pr = m.trick_probs(h, 1, 0)
    assert pr.shape == (50, len(p.strains), p.tricks + 1)
    assert np.allclose(pr.sum(axis=2), 1.0) and (pr > 0).all()
    q = m.lone_probs(h, 1, 0)
    assert q.shape == (50, len(p.strains), len(p.lone_bids))
    assert ((q >= 0) & (q <= 1)).all()


@pytest.mark.parametrize("preset", ALL_WITH_DATA)
def test_stacked_lookup_is_the_lookup_strain_by_strain(preset):
    """The model reads the four trump suits' rows in one stacked lookup (and remembers hand
    sets): the same probabilities, to the bit, as each strain's own features, categories and
    table read one strain at a time from the shipped arrays."""
    from bideuchre.bidding.features import (CATEGORIES, _live_cols, features, losers, strain_kind,
                                            strain_view, top_runs)
    from bideuchre.bidding.model import bin_index
    from bideuchre.analysis.lone import lone_leader
    p = PRESETS[preset]
    m = TrickModel.load(p)
    h = random_hands(p, 40, 11)
    a = m._a

    def read(prefix, s, r):
        x = features(h, s, p.deck)
        cat = np.minimum(losers(h, s, p.deck), CATEGORIES - 1)
        return a[prefix + "_p"][r, cat, bin_index(a[prefix + "_edges"], x @ a[prefix + "_w"], cat)]

    for seat, dealer in ((1, 0), (0, 0), (3, 1)):
        r = m.lead_rel(seat, dealer)
        pr = m.trick_probs(h, seat, dealer)
        for j, s in enumerate(p.strains):
            np.testing.assert_array_equal(pr[:, j], read(strain_kind(int(s)), int(s), r))
        assert m.trick_probs(h.copy(), seat, dealer) is pr          # remembered by its bytes
        if m.has_lone:
            rl = (int(lone_leader(p, seat, dealer)) - seat) % 4
            q = m.lone_probs(h, seat, dealer)
            for j, s in enumerate(p.strains):
                for b in range(len(p.lone_bids)):
                    np.testing.assert_array_equal(
                        q[:, j, b], read(f"lone_{p.name}_{b}_{strain_kind(int(s))}", int(s), rl))
    # top runs by hand: the cards in an unbroken run from the top of each effective suit, each
    # copy counted (a card held once in a double deck: its first copy runs, then the run stops)
    for s in p.strains:
        v = strain_view(h, int(s))
        runs = top_runs(h, int(s), p.deck)
        for i in range(h.shape[0]):
            for row in range(4):
                want = 0
                for c in _live_cols(row, int(s), p.deck):
                    want += int(v[i, row, c])
                    if v[i, row, c] < p.deck.copies:
                        break
                assert runs[i, row] == want, (s, i, row)


def test_certain_hand_is_certain():
    # the six highest spades in spades, declarer leading (racehorse): every trick, surely
    h = counts("AKQJ..T.J")          # SJ SA SK SQ, CJ, and DT: the diamond may lose
    top = counts("AKQJT...J")        # SJ CJ SA SK SQ ST: all six trumps, every trick
    m = TrickModel.load("racehorse")
    assert m.trick_probs(top, 0, 3)[0, Strain.S, 6] > 0.9
    assert m.trick_probs(h, 0, 3)[0, Strain.S, 6] < m.trick_probs(top, 0, 3)[0, Strain.S, 6]
    # and going alone (pepper: the bidder leads, no exchange)
    assert TrickModel.load("pepper").lone_probs(top, 0, 3)[0, Strain.S, 0] > 0.9


def test_model_call_probs_is_softmax_of_values():
    pol = get_policy("model", "standard")
    h = counts("AKJ.A.9.J", "T9.KQ.AK.QJ", "9.T9.KQJ.AK")
    legal, vals = pol.action_values(h, 2, 0, [None])
    legal2, probs = pol.call_probs(h, 2, 0, [None])
    assert legal == legal2 and np.allclose(probs.sum(axis=1), 1)
    i, j = 0, len(legal) - 1
    assert np.allclose(np.log(probs[:, i] / probs[:, j]), (vals[:, i] - vals[:, j]) / pol.temperature)
    _, idx = pol.choose(h, 2, 0, [None])
    assert (idx == np.argmax(vals, axis=1)).all()


def test_bad_calls_and_names():
    pol = get_policy("model", "standard")
    with pytest.raises(PolicyError, match="turn"):
        pol.choose(counts("AKJ.A.9.J"), 2, 0, [])
    with pytest.raises(PolicyError, match="not legal"):
        pol.choose(counts("AKJ.A.9.J"), 3, 0, [parse_bid("4", "standard"), parse_bid("3", "standard")])
    with pytest.raises(PolicyError, match="unknown policy"):
        get_policy("nope", "standard")
    assert {"heuristic", "model", "par", "advice-dd"} <= set(policy_names())


# ---------------------------------------------------------------------------------------------
# the match

def test_match_antisymmetric_and_self_zero():
    ab = run_match("model", "heuristic", "racehorse", 60, seed=11, jobs=1)
    ba = run_match("heuristic", "model", "racehorse", 60, seed=11, jobs=1)
    assert np.array_equal(ab.edges, -ba.edges)
    assert ab.edge == pytest.approx(-ba.edge) and ab.se == pytest.approx(ba.se)
    for name in ("model", "heuristic"):
        same = run_match(name, name, "standard", 40, seed=4, jobs=1)
        assert (same.edges == 0).all()


def test_match_par_against_par_is_par():
    # both sides par: each run's NS − EW is the deal's par value (bideuchre.analysis.par)
    p = PRESETS["standard"]
    lines = []
    res = run_match("par", "par", p, 12, seed=2, jobs=1, output=None)
    ds = make_deals(p, 2, 0, 12)
    for i in range(12):
        deal = Deal.from_pbn(ds.pbns[i], p.deck, int(ds.dealers[i]))
        lines.append(par(deal, p).value)
    from bideuchre.bidding.match import ChunkSpec, play_chunk
    got = play_chunk(ChunkSpec(p, "par", "par", 2, 0, 12))
    assert [g["r1"]["diff"] for g in got] == lines
    assert [g["r2"]["diff"] for g in got] == lines
    assert (res.edges == 0).all()


def test_match_independent_of_workers_and_chunks(tmp_path):
    one = run_match("model", "heuristic", "standard", 45, seed=9, jobs=1, chunk_size=45)
    two = run_match("model", "heuristic", "standard", 45, seed=9, jobs=2, chunk_size=7)
    assert np.array_equal(one.edges, two.edges)
    assert one.stats["A"].to_json() == two.stats["A"].to_json()


def test_match_resume(tmp_path):
    f = tmp_path / "m.jsonl"
    run_match("model", "heuristic", "racehorse", 20, seed=3, jobs=1, output=f, chunk_size=8)
    with open(f, "a") as fh:
        fh.write('{"deal": 21, "pbn": "N:')        # a line cut short by a killed run
    full = run_match("model", "heuristic", "racehorse", 50, seed=3, jobs=1, output=f, resume=True, chunk_size=8)
    straight = run_match("model", "heuristic", "racehorse", 50, seed=3, jobs=1, chunk_size=50)
    assert np.array_equal(full.edges, straight.edges)
    assert len(f.read_text().splitlines()) == 51
    with pytest.raises(MatchError, match="exists"):
        run_match("model", "heuristic", "racehorse", 50, seed=3, jobs=1, output=f)
    with pytest.raises(MatchError, match=r"holds another match \(seed: 3 there, 4 here\)"):
        run_match("model", "heuristic", "racehorse", 50, seed=4, jobs=1, output=f, resume=True)


def test_match_cli():
    from bideuchre.cli.app import app
    r = CliRunner().invoke(app, ["match", "model", "heuristic", "-p", "racehorse", "--deals", "20",
                                 "--seed", "5", "-j", "1", "--json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    lo, hi = obj["ci95"]
    assert obj["deals"] == 20 and lo <= obj["edge"] <= hi
    assert hi - obj["edge"] == pytest.approx(1.96 * obj["se"])
    r = CliRunner().invoke(app, ["match", "model", "nobody", "--deals", "5"])
    assert r.exit_code == 2 and "unknown policy" in r.output
    r = CliRunner().invoke(app, ["match", "model", "heuristic", "--deals", "5", "-j", "0"])
    assert r.exit_code == 2 and "--jobs" in r.output        # no workers is no match


def test_remembered_auction_states_and_ladders_are_fresh_lists():
    """auction_state and ladder remember their answers: what a caller does to the lists it
    gets never reaches the next caller."""
    from bideuchre.analysis.auction import ladder
    from bideuchre.bidding.policy import auction_state
    from bideuchre.rules import get_preset
    p = get_preset("double48")
    first = ladder(p)
    n = len(first)
    first.clear()
    assert len(ladder(p)) == n and ladder(p)[0].level == p.min_bid
    idx, high, seat, legal = auction_state(p, 0, [])
    k = len(legal)
    legal.pop()
    assert len(auction_state(p, 0, [])[3]) == k and idx == 0 and high is None
    # after a bid the legal calls shrink: the state is per auction, not per preset
    b = auction_state(p, 0, [])[3][5]
    assert len(auction_state(p, 0, [b])[3]) < k


@pytest.mark.parametrize("name", ["racehorse", "double48"])
def test_number_bids_valued_together_are_each_bid_valued_alone(name):
    """ModelPolicy values every number bid of a decision at once (its plan); each column
    equals that bid valued on its own -- the expected result in its strain (or the best one),
    mixed with the chance an opponent outbids it -- to the bit."""
    from bideuchre.bidding.policy import auction_state
    from bideuchre.rules import get_preset
    p = get_preset(name)
    pol = get_policy("model", p)
    rng = np.random.default_rng(5)
    deck = np.repeat(np.array([int(c) for c in p.deck.card_ids]), p.deck.copies)
    sidx = {s: j for j, s in enumerate(p.strains)}
    checked = 0
    for dealer in range(4):
        calls = []
        for _ in range(3):
            index, high, _, legal = auction_state(p, dealer, calls)
            seat = (dealer + 1 + index) % 4
            rows = rng.permuted(np.tile(deck, (12, 1)), axis=1)[:, :p.tricks]
            h = np.zeros((12, 24), dtype=np.uint8)
            np.add.at(h, (np.repeat(np.arange(12), p.tricks), rows.ravel()), 1)
            acts, vals = pol.action_values(h, seat, dealer, list(calls))
            pr = pol.model.trick_probs(h, seat, dealer)
            for j, a in enumerate(acts):
                if a is None or a.is_lone:
                    continue
                ev = pr @ pol._diffk(a)
                ev = ev[:, sidx[a.strain]] if a.strain is not None else ev.max(axis=1)
                po = pol._outbid_of(seat, dealer, index, a.level)
                if po:
                    nxt = min(a.level + 1, p.top_bid)
                    ev = (1 - po) * ev + po * pol._against(pr, Bid(nxt, str(nxt)), sidx)
                np.testing.assert_array_equal(vals[:, j], ev)
                checked += 1
            calls.append(legal[min(len(legal) - 1, 1 + int(rng.integers(3)))])
            if calls[-1] is not None and calls[-1].ends_auction:
                break
    assert checked > 20
