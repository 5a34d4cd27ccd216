"""Bid advice that reads the table (``others="model"``): the calls heard weight the deals, the
later seats bid by a policy from their own hands.  Checked on constructed cases whose answer is
known exactly, with a small deterministic policy (``standin_policy``) so that the weighted
sample can be compared with rejection sampling done here, and the EVs with a brute force over
each deal's DD table (``bideuchre.search.solve.dd_table``) and RULES.md §1 scoring
(``hand_result``), the auction walked here seat by seat."""

from __future__ import annotations

import math

import numpy as np
import pytest

from standin_policy import TrumpCountPolicy
from bideuchre.analysis.advice import advise
from bideuchre.analysis.advice.evidence import (CANDIDATE_BLOCK, CandidateStream, candidate_block, mass_quantile,
                                                n_eff, weighted_mean_se)
from bideuchre.analysis.advice.sampling import Sampler
from bideuchre.analysis.auction import Auction, hand_result, parse_bid
from bideuchre.notation import Deal, parse_hand
from bideuchre.rules import RulesError, Seat, Strain, get_preset
from bideuchre.search.solve import dd_table


class AceOfHeartsPolicy(TrumpCountPolicy):
    """As the trump-count policy, but the first speaker bids 3 exactly when it holds the ♥A
    (else passes): the call "3" has probability 0 for every hand without it."""

    def choose(self, hands, seat, dealer, calls, score=None):
        if calls:
            return super().choose(hands, seat, dealer, calls, score)
        acts = Auction(self.p, dealer).legal_actions()
        three = acts.index(parse_bid("3", self.p))
        return acts, np.where(hands[:, 11] > 0, three, 0)


def to_deals(counts, preset, dealer):
    return [Deal([[c for c in range(24) for _ in range(int(row[s, c]))] for s in range(4)],
                 get_preset(preset).deck, dealer) for row in counts]


def random_deals(preset, seat, hand, k, seed):
    return to_deals(Sampler(preset, seat, parse_hand(hand), None, seed).deals(0, k), preset, 0)


def test_weighted_mean_and_n_eff_by_hand():
    """Kish's n_eff and the weighted mean's standard error, worked out by hand."""
    w = np.array([1.0, 1.0, 2.0])
    assert n_eff(w) == pytest.approx(16 / 6)
    v = np.array([0.0, 3.0, 6.0])
    m, se = weighted_mean_se(v, w)
    assert m == pytest.approx(15 / 4)
    var = (1 * (0 - 3.75) ** 2 + 1 * (3 - 3.75) ** 2 + 4 * (6 - 3.75) ** 2) / 16 * 3 / 2
    assert se == pytest.approx(math.sqrt(var))
    # equal weights: the usual s / sqrt(n)
    assert weighted_mean_se(v, np.ones(3))[1] == pytest.approx(np.std(v, ddof=1) / math.sqrt(3))
    # the threshold of rejection control: a few deals of weight 1 among many near 0 give 1
    assert mass_quantile(np.array([1e-6] * 1000 + [1.0] * 5), 0.5) == 1.0


def test_a_call_of_probability_zero_removes_exactly_those_deals():
    """E (first to speak) bid 3: with the noise floor 0 exactly the deals where E holds the ♥A
    are kept, and the advice equals the advice over those deals alone."""
    p = "standard"
    pol = AceOfHeartsPolicy(p)
    deals = random_deals(p, Seat.S, "AJ.KQ..JT", 60, seed=7)
    with_ace = [d for d in deals if 11 in d.hands[Seat.E]]
    assert 0 < len(with_ace) < len(deals)
    adv = advise("AJ.KQ..JT", "S", "N", p, "3", deals=deals, policy=pol, epsilon=0)
    only = advise("AJ.KQ..JT", "S", "N", p, "3", deals=with_ace, policy=pol, epsilon=0)
    assert adv.samples == len(with_ace) and adv.n_eff == pytest.approx(len(with_ace))
    counts, w = adv.sample
    assert (counts[:, Seat.E, 11] == 1).all() and (w == 1).all()
    assert [a.to_json() for a in adv.actions] == [a.to_json() for a in only.actions]
    # with a noise floor the other deals stay, thinned: weight eps/L each (L legal calls of E)
    eps = 0.1
    thin = advise("AJ.KQ..JT", "S", "N", p, "3", deals=deals, policy=pol, epsilon=eps)
    L = len(Auction(p, Seat.N).legal_actions())
    counts, w = thin.sample
    held = counts[:, Seat.E, 11] == 1
    assert thin.samples == len(deals)
    np.testing.assert_allclose(w[held], 1 - eps + eps / L)
    np.testing.assert_allclose(w[~held], eps / L)


def brute_force_ev(preset, deals, seat, dealer, calls, pol):
    """Per deal and per action of ``seat`` but its lone bids (its strain fixed by the best
    mean, as the advice does): the hand result for our side, the later seats calling one by one by ``pol``
    (scalar calls), the declarer naming its strain by ``pol``, scored from the DD table."""
    p = get_preset(preset)
    n = p.tricks
    auc0 = Auction(p, dealer, calls)
    acts = auc0.legal_actions()
    tables = [dd_table(d, p, dealer) for d in deals]
    res = {}
    for a in acts:
        if a is not None and a.lone is not None:
            continue                    # our lone bids: their lone tricks, not the DD table
        options = [None] if a is None else [a.strain] if a.strain is not None else list(p.strains)
        best = None
        for st in options:
            vals = []
            for d, dd in zip(deals, tables):
                auc = auc0.copy()
                auc.play(a)
                while not auc.is_over:
                    s = auc.to_act
                    hand = np.array([d.counts()[s]], dtype=np.uint8)
                    got, idx = pol.choose(hand, int(s), int(dealer), list(auc.actions))
                    auc.play(got[int(idx[0])])
                if auc.contract is None:
                    vals.append(0)
                    continue
                decl, bid = auc.contract
                if decl == seat:
                    strain = st if bid.strain is None else bid.strain
                else:
                    strain = bid.strain if bid.strain is not None else Strain(int(
                        pol.declare_strain(np.array([d.counts()[decl]], dtype=np.uint8), int(decl),
                                           int(dealer), bid)[0]))
                t = dd.tricks[Seat(decl)][Strain(strain)]
                x, y = hand_result(p, bid, t)
                vals.append((x - y) if decl % 2 == seat % 2 else (y - x))
            if best is None or np.mean(vals) > best[0]:
                best = (float(np.mean(vals)), vals)
        res["pass" if a is None else str(a)] = best
    return res


@pytest.mark.parametrize("preset,hand,seat,dealer,calls", [
    ("racehorse", "AK.J.AT.Q", Seat.W, Seat.N, ["pass", "4"]),
    ("standard", "AJ.KQ..JT", Seat.S, Seat.N, ["pass"]),
])
def test_weighted_sample_with_a_deterministic_policy_is_rejection_sampling(preset, hand, seat, dealer, calls):
    """With a deterministic policy and no noise floor the kept deals are exactly the uniform
    candidates on which every earlier seat would have made its call (checked here, call by
    call), in order; and every action's EV equals the brute force over those deals."""
    pol = TrumpCountPolicy(preset)
    adv = advise(hand, seat, dealer, preset, calls, policy=pol, epsilon=0, samples=25, seed=3,
                 workers=1)
    counts, w = adv.sample
    assert (w == 1).all() and adv.n_eff == pytest.approx(25)
    # rejection sampling here: the candidate stream's uniform deals after the pilot, kept
    # when each earlier call is the policy's choice for that seat's hand
    stream = CandidateStream(Sampler(preset, seat, parse_hand(hand), None, 3),
                             lambda c: np.ones(c.shape[0]), 3, 10 ** 6, reject=False,
                             block=candidate_block(25))
    cand, _ = stream.take(CANDIDATE_BLOCK * 40)
    ok = np.ones(cand.shape[0], dtype=bool)
    for j, call in enumerate(calls):
        s = (int(dealer) + 1 + j) % 4
        got, idx = pol.choose(cand[:, s], s, int(dealer), [parse_bid(c, preset) for c in calls[:j]])
        ok &= np.array([got[i] == parse_bid(call, preset) for i in idx])
    assert ok.sum() >= 25
    np.testing.assert_array_equal(counts, cand[ok][:25])
    # the same EVs as rejection sampling's deals given, and as the brute force
    deals = to_deals(cand[ok][:25], preset, dealer)
    given = advise(hand, seat, dealer, preset, calls, policy=pol, epsilon=0, deals=deals)
    assert [a.ev for a in given.actions] == pytest.approx([a.ev for a in adv.actions])
    bf = brute_force_ev(preset, deals, seat, dealer, [parse_bid(c, preset) for c in calls], pol)
    for r in adv.actions:
        if r.action in bf:
            assert r.ev == pytest.approx(bf[r.action][0]), r.action


def test_results_do_not_depend_on_the_workers():
    pol = TrumpCountPolicy("racehorse")
    one = advise("AK.J.AT.Q", "W", "N", "racehorse", "pass 4", policy=pol, seed=2, workers=1)
    two = advise("AK.J.AT.Q", "W", "N", "racehorse", "pass 4", policy=pol, seed=2, workers=2)
    assert one.to_json() == two.to_json()
    assert one.to_json()["evidence"]["kept"] == one.samples


def test_the_auction_tells_about_the_bidder():
    """After S bid 4 the stand-in's South holds at least 4 in trumps and side aces: the
    line about South shows more trumps than uniform dealing gives."""
    pol = TrumpCountPolicy("racehorse")
    adv = advise("AK.J.AT.Q", "W", "N", "racehorse", "pass 4", policy=pol, seed=2, samples=40)
    obj = adv.to_json()
    assert obj["others"] == "model" and obj["n_eff"] > 0
    assert len(obj["evidence"]["seats"]) == 3
    e_line = obj["evidence"]["seats"][0]
    assert e_line["seat"] == "N" or e_line["seat"] == "E"
    s = next(x for x in obj["evidence"]["seats"] if x["seat"] == "S")
    assert s["call"] == "4" and s["trumps"] > s["uniform"]["trumps"]


def test_bad_others_and_epsilon_are_one_line_errors():
    with pytest.raises(RulesError, match="--others 'x'"):
        advise("AJ.KQ..JT", "E", "N", "standard", others="x")
    with pytest.raises(RulesError, match="noise floor"):
        advise("AJ.KQ..JT", "E", "N", "standard", epsilon=2, policy=TrumpCountPolicy("standard"))


# ---------------------------------------------------------------------------------------------
# the game model

def test_game_model_race_to_two_by_hand():
    """One kind of hand: the declaring side takes 1 point and makes, each side declaring half
    the time; target 2.  standard (the higher total at or above the target wins): the chance
    of two heads before two tails — 1/2 from 0-0, 3/4 from 1-0.  racehorse (won only on a
    hand the side made its bid or set the bidders), both sides scoring 1 a hand: from 1-0 we
    win at once when we declare (1/2), else it goes on at 2-1 and the next declarer wins
    (1/2): 3/4."""
    from bideuchre.analysis.advice.game import GameModel
    g = GameModel(get_preset("standard"), 2, {"outcomes": [[1, 0, 1, 10]], "thrown_in": 0})
    assert g.value(0, 0) == pytest.approx(0.5)
    assert g.value(1, 0) == pytest.approx(0.75) and g.value(0, 1) == pytest.approx(0.25)
    assert g.value(1, 1) == pytest.approx(0.5)
    r = GameModel(get_preset("racehorse"), 2, {"outcomes": [[1, 1, 1, 3]], "thrown_in": 0})
    assert r.value(1, 0) == pytest.approx(0.75) and r.value(1, 1) == pytest.approx(0.5)
    # a thrown-in hand changes nothing: the same chances
    t = GameModel(get_preset("standard"), 2, {"outcomes": [[1, 0, 1, 10]], "thrown_in": 10})
    assert t.value(1, 0) == pytest.approx(0.75)


@pytest.mark.parametrize("preset", ["standard", "pepper", "racehorse"])
def test_shipped_game_model_is_fair_between_the_sides(preset):
    """Each side declares half the hands: from a score a-b we win as often as they would
    from b-a, and the game always ends: V(a, b) + V(b, a) = 1; a lead helps."""
    from bideuchre.analysis.advice.game import GameModel
    g = GameModel.for_preset(preset)
    tgt = get_preset(preset).target
    for a, b in [(0, 0), (25, 20), (tgt - 1, 0), (-10, 5)]:
        assert g.value(a, b) + g.value(b, a) == pytest.approx(1.0, abs=1e-6)
    assert g.value(25, 20) > g.value(20, 20) > g.value(20, 25)


def test_bid_cli_says_what_the_calls_heard_tell():
    """The default (--others model) shows the effective sample and a line per other seat,
    JSON too; --others dd is the all-seeing table with no evidence."""
    import json
    from typer.testing import CliRunner
    from bideuchre.cli.app import app
    runner = CliRunner()
    args = ["bid", "AJ.KQ..JT", "--seat", "W", "--dealer", "N", "--auction", "pass 4",
            "--samples", "60", "--seed", "5"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    text = " ".join(res.stdout.split())     # the console's width may wrap a line
    assert "effective sample" in text and "S, bid 4: best suit" in text
    assert "E, passed: best suit" in text and "N, to speak: best suit" in text
    obj = json.loads(runner.invoke(app, args + ["--json", "--score", "20-25"]).stdout)
    assert obj["others"] == "model" and 0 < obj["n_eff"] <= 60
    assert [s["seat"] for s in obj["evidence"]["seats"]] == ["E", "S", "N"]
    assert obj["p_win_of"] == "game" and all(0 <= a["p_win"] <= 1 for a in obj["actions"])
    dd = json.loads(runner.invoke(app, args + ["--json", "--others", "dd"]).stdout)
    assert dd["others"] == "dd" and "evidence" not in dd and dd["n_eff"] == 60
    bad = runner.invoke(app, args + ["--others", "all"])
    assert bad.exit_code == 2 and "--others 'all'" in bad.stderr


@pytest.mark.parametrize("width", ["60", "80"])
def test_calls_heard_lines_wrap_between_words_not_inside_a_figure(width):
    """In a narrow terminal the evidence lines wrap between words: never before a "%" or a
    "±" (a figure cut from its unit), each line within the width, the later lines indented."""
    from typer.testing import CliRunner
    from bideuchre.cli.app import app
    res = CliRunner().invoke(app, ["bid", "AJ.KQ..JT", "--seat", "W", "--dealer", "N",
                                   "--auction", "pass 4", "--samples", "60", "--seed", "5"],
                             env={"COLUMNS": width})
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("calls heard:"))
    block = lines[i:next(k for k in range(i + 1, len(lines)) if not lines[k].startswith("  "))]
    assert len(block) > 4                   # wrapped: more lines than the heading and 3 seats
    for line in block:
        assert len(line) <= int(width), line
        assert not line.strip().startswith(("%", "±")), line
        assert not line.rstrip().endswith("±"), line


def test_a_budget_spent_before_any_deal_is_kept_deals_on():
    """With a budget of one candidate nothing could be kept; the stream deals on (up to
    RESCUE_CANDIDATES) until deals fit the calls, so the advice still answers, thinly -- the
    same first deals as the rejection sampling of a larger budget."""
    from bideuchre.analysis.advice.evidence import RESCUE_CANDIDATES
    pol = TrumpCountPolicy("racehorse")
    kw = dict(policy=pol, epsilon=0, samples=5, seed=3, workers=1)
    thin = advise("AK.J.AT.Q", Seat.W, Seat.N, "racehorse", ["pass", "4"], candidates=1, **kw)
    full = advise("AK.J.AT.Q", Seat.W, Seat.N, "racehorse", ["pass", "4"], **kw)
    # dealt past the budget of 1 (a block at least), and within the rescue's cap
    assert 1 <= thin.evidence.kept <= 5 and 1 < thin.evidence.candidates <= RESCUE_CANDIDATES
    np.testing.assert_array_equal(thin.sample[0], full.sample[0][:thin.evidence.kept])
