"""Bid advice (issue 6): against expected values worked out here from the DD tables of given
deals, sanity cases whose answer is certain, reproducibility, and the CLI.

The expected values use the independent auction brute force of ``test_par`` (its own reading
of RULES.md §2), the DD table of each deal (``bideuchre.search.solve.dd_table``) and lone values from
``solve_position`` (``test_par.lone_values``), with the advised seat's strain fixed per bid by
the mean over the deals (ties: more DD tricks — or more lone hands taking every trick — then
the first strain in the preset's order).

These tests check the all-seeing table (``others="dd"``, ``bid --others dd``); the bidding
model's table and the calls heard as evidence are tested in ``test_inference``.
"""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest
from typer.testing import CliRunner

from helpers import SOURCES, random_deal, real_deals
from oracles import RULES, bf_actions, bf_bids, bf_leaf, bf_score, lone_values
from functools import partial

from bideuchre.analysis.advice import advise as _advise, default_samples, sample_deals, sampling_plan
from bideuchre.analysis.auction import parse_bid
from bideuchre.notation import Deal, format_hand, parse_hand
from bideuchre.rules import DECKS, PRESETS, BidEuchreError, Seat, Strain
from bideuchre.search.solve import dd_table, solve_position

advise = partial(_advise, others="dd")


def deals_around(text: str, seat: int, k: int, seed: int, deck: str = "single24") -> list[Deal]:
    """k deals that keep ``seat``'s hand of the deal ``text`` and shuffle the other cards."""
    base = Deal.from_pbn(text, deck)
    rng = random.Random(seed)
    rest = [c for s in range(4) if s != seat for c in base.hands[s]]
    n = len(base.hands[seat])
    out = []
    for _ in range(k):
        rng.shuffle(rest)
        hands, pos = [], 0
        for s in range(4):
            if s == seat:
                hands.append(list(base.hands[s]))
            else:
                hands.append(rest[pos:pos + n])
                pos += n
        out.append(Deal(hands, deck))
    return out


def expected(name: str, deals: list[Deal], seat: int, dealer: int, prefix: list[str],
             lone_fix=None) -> dict:
    """Per action: (strain, ev, se, p_make, p_declare), worked out deal by deal.
    ``lone_fix(deal, lone)`` may change the lone values of a deal (our seat's loners)."""
    r = RULES[name]
    preset = PRESETS[name]
    n = preset.tricks
    bids = bf_bids(r)
    top_number = max(r["numbers"])
    tables = []
    for d in deals:
        dd = dd_table(d, preset, dealer)
        lone = lone_values(d, name, dealer)
        if lone_fix is not None:
            lone_fix(d, lone)
        tables.append((dd, lone))

    def tricks_of_for(dd, lone):
        def tricks_of(s, bid, st):
            if bid[0] > top_number:
                return lone[(s, bid[1], st)]
            return dd.tricks[Seat(s)][Strain[st]]
        return tricks_of

    # the prefix as brute-force bids
    high, high_seat = None, None
    for i, text in enumerate(prefix):
        b = parse_bid(text, preset)
        if b is not None:
            high = (b.level, b.name, None if b.strain is None else b.strain.name)
            high_seat = (dealer + 1 + i) % 4
    t0 = len(prefix)
    assert (dealer + 1 + t0) % 4 == seat

    def walk(turn, hi, hs, tricks_of, my_strain):
        if turn == 4 or (hi is not None and hi[1] in r["ends"]):
            if hi is None:
                return 0, None, False
            if hs == seat:
                st = hi[2] if hi[2] is not None else my_strain
                t = tricks_of(hs, hi, st)
                a, b = bf_score(r, n, hi, t)
                diff = a - b
            else:
                diff, t, st = bf_leaf(r, n, tricks_of, hs, hi)
            return (diff if hs % 2 == 0 else -diff), hs, None
        s = (dealer + 1 + turn) % 4
        best = None
        for a in bf_actions(r, bids, turn, hi):
            v, decl, _ = walk(turn + 1, hi if a is None else a, hs if a is None else s, tricks_of, my_strain)
            mine = v if s % 2 == 0 else -v
            if best is None or mine > best[0]:
                best = (mine, v, decl)
        return best[1], best[2], None

    sign = 1 if seat % 2 == 0 else -1
    out = {}
    for a in bf_actions(r, bids, t0, high):
        if a is None:
            vals = [sign * walk(t0 + 1, high, high_seat, tricks_of_for(*tb), None)[0] for tb in tables]
            out["pass"] = (None, vals, None, 0.0)
            continue
        options = [a[2]] if a[2] is not None else r["strains"]
        best = None
        for st in options:
            vals, declared, made, tr = [], [], [], []
            for tb in tables:
                tricks_of = tricks_of_for(*tb)
                v, decl, _ = walk(t0 + 1, a, seat, tricks_of, st)
                vals.append(sign * v)
                declared.append(decl == seat)
                t = tricks_of(seat, a, st)
                made.append(t == n if a[0] > top_number else t >= a[0])
                tr.append(t == n if a[0] > top_number else t)
            key = (np.mean(vals), np.mean(tr), -options.index(st))
            if best is None or key > best[0]:
                best = (key, st, vals, float(np.mean(made)), float(np.mean(declared)))
        label = a[1] + (a[2] if a[2] is not None else "")
        out[label] = (best[1], best[2], best[3], best[4])
    return out


CASES = [
    # preset, real deal index, seat, dealer, auction so far
    ("standard", 3, Seat.E, Seat.N, []),
    ("standard", 7, Seat.W, Seat.N, ["pass", "3"]),
    ("pepper", 11, Seat.N, Seat.N, ["pass", "pass", "pass"]),
    ("racehorse", 5, Seat.N, Seat.N, ["4", "pass", "pass"]),
    ("racehorse", 9, Seat.W, Seat.E, ["pass"]),
]


@pytest.mark.parametrize("name,index,seat,dealer,prefix", CASES)
def test_advice_matches_dd_tables_of_given_deals(name, index, seat, dealer, prefix):
    deals = deals_around(real_deals(index + 1)[index], seat, 10, seed=index)
    adv = advise(deals[0].hands[seat], seat, dealer, name, prefix, deals=deals, exact=True)
    want = expected(name, deals, seat, dealer, prefix)
    assert [r.action for r in adv.actions] == list(want)
    k = len(deals)
    for r in adv.actions:
        st, vals, p_make, p_declare = want[r.action]
        assert r.exact
        assert r.strain == st, r.action
        assert r.ev == pytest.approx(float(np.mean(vals)))
        assert r.se == pytest.approx(float(np.std(vals, ddof=1) / math.sqrt(k)))
        if r.action != "pass":
            assert r.p_make == pytest.approx(p_make)
            assert r.p_declare == pytest.approx(p_declare)
    best = max(want, key=lambda a: np.mean(want[a][1]))  # first of the best: pass, then low
    assert adv.recommend.action == best
    vb = np.array(want[best][1])
    for r in adv.actions:
        diff = np.array(want[r.action][1]) - vb
        assert r.se_vs_best == pytest.approx(float(np.std(diff, ddof=1) / math.sqrt(k)))
    # per strain: the DD tricks of our seat declaring
    preset = PRESETS[name]
    for st, stats in adv.strains.items():
        tricks = [dd_table(d, preset, dealer).tricks[seat][st] for d in deals]
        assert stats.tricks_hist == [tricks.count(t) for t in range(preset.tricks + 1)]
        for lv, p in stats.p_at_least.items():
            assert p == pytest.approx(np.mean([t >= lv for t in tricks]))


def test_advice_double32_given_deals():
    """A double-deck preset with the strain named with the bid and exchange loners."""
    rng = random.Random(3)
    form = DECKS["double32"]
    pack = [c for c in form.card_ids for _ in range(2)]
    rng.shuffle(pack)
    text = Deal([pack[i * 8:(i + 1) * 8] for i in range(4)], form).pbn()
    deals = deals_around(text, Seat.W, 4, seed=4, deck="double32")
    adv = advise(deals[0].hands[Seat.W], Seat.W, Seat.N, "double32", ["5S", "pass"], deals=deals, exact=True)

    def fixed_laid_down(deal, lone):
        """Our loners: the advice's laid-down cards on every deal, the partner's best gift."""
        from itertools import combinations

        from bideuchre.notation import Position
        from bideuchre.rules import Side
        for name, cards in adv.laid_down.items():
            d = parse_hand(" ".join(cards))
            for st in RULES["double32"]["strains"]:
                best = 0
                for g in set(combinations(sorted(deal.hands[Seat.E]), len(d))):
                    hands = [list(h) for h in deal.hands]
                    for c in d:
                        hands[Seat.W].remove(c)
                        hands[Seat.E].append(c)
                    for c in g:
                        hands[Seat.E].remove(c)
                        hands[Seat.W].append(c)
                    pos = Position(Deal(hands, "double32"), st, Seat.W, lone=Seat.W)
                    best = max(best, solve_position(pos)[Side.EW])
                lone[(int(Seat.W), name, st)] = best

    want = expected("double32", deals, Seat.W, Seat.N, ["5S", "pass"], fixed_laid_down)
    assert [r.action for r in adv.actions] == list(want)
    for r in adv.actions:
        st, vals, _, _ = want[r.action]
        assert r.ev == pytest.approx(float(np.mean(vals)))
        assert r.strain == st


# ---------------------------------------------------------------------------------------------
# Certain answers

def test_four_aces_two_kings_take_six_in_nt_when_leading():
    hand = parse_hand("AK.AK.A.A")
    adv = advise(hand, Seat.S, Seat.E, "racehorse", samples=60, seed=5)  # declarer leads
    nt = adv.strains[Strain.NT]
    assert nt.tricks_hist == [0, 0, 0, 0, 0, 0, 60]
    assert all(p == 1.0 for p in nt.p_at_least.values())
    six = next(r for r in adv.actions if r.action == "6")
    assert six.strain == "NT" and six.p_make == 1.0


def test_six_top_trumps_take_all_alone():
    hand = parse_hand(".AKQJT.J.")  # right and left bower, A K Q 10 of hearts
    adv = advise(hand, Seat.E, Seat.N, "pepper", samples=60, seed=2)
    assert adv.strains[Strain.H].p_all_alone == {"alone": 1.0}
    assert adv.recommend.action == "alone" and adv.recommend.strain == "H"
    assert adv.recommend.ev == 12.0 and adv.recommend.se == 0.0
    std = advise(hand, Seat.E, Seat.N, "standard", samples=40, seed=2)  # opponents lead first
    assert std.strains[Strain.H].p_all_alone == {"12": 1.0, "24": 1.0}
    assert std.recommend.action == "24" and std.recommend.ev == 24.0


# ---------------------------------------------------------------------------------------------
# Sampling

def test_default_samples_by_deck():
    """The adaptive cap: 10,000 deals on single24, 4,000 double32, 500 double48 (a deal there
    takes seconds); the looks of the rule fall on whole blocks, the last at the cap."""
    assert [default_samples(p) for p in ("standard", "racehorse", "double32", "double48")] == [10_000, 10_000, 4_000, 500]
    plan = sampling_plan("standard")
    marks = plan.checkpoints(10_000)
    assert marks[0] == 200 and marks[-1] == 10_000
    assert all(m % plan.block == 0 and m % plan.chunk == 0 for m in marks)
    assert all(b > a for a, b in zip(marks, marks[1:]))
    assert sampling_plan("double48").checkpoints(500)[:3] == [20, 30, 40]


# ---------------------------------------------------------------------------------------------
# Adaptive sampling

def test_adaptive_stops_early_when_the_answer_is_certain():
    """Six top trumps alone in pepper: 'alone' makes on every deal (+12 each time), so the
    rule stops at its first look (200 deals of a cap of 10,000)."""
    adv = advise(".AKQJT.J.", "E", "N", "pepper", seed=2)
    assert adv.stopped == "clear" and adv.samples == 200 and adv.cap == 10_000
    assert adv.recommend.action == "alone" and adv.recommend.ev == 12.0
    assert adv.runner_up is not None and adv.difference > 0 and not adv.close
    assert adv.difference > 3 * adv.difference_se
    obj = adv.to_json()
    assert obj["sampling"] == {"stopped": "clear", "cap": 10_000, "max_seconds": None}
    assert obj["close"] is False and obj["samples"] == 200


def test_actions_with_the_recommendations_result_on_every_deal_are_named():
    """Racehorse AQT.T.J.J, 200 deals (seed 3): pass is recommended and 3 has its result on
    every deal (the same choice on these deals), so the runner-up is 4, the best action that
    differs; the text and the JSON name 3 beside it."""
    adv = advise("AQT.T.J.J", "E", "N", "racehorse", seed=3, samples=200, workers=1)
    assert adv.recommend.action == "pass" and adv.runner_up.action == "4"
    assert [a.action for a in adv.same_as_recommend] == ["3"]
    same = adv.same_as_recommend[0]
    assert same.ev == adv.recommend.ev and same.se_vs_best == 0 and adv.runner_up.se_vs_best > 0
    assert adv.to_json()["same_as_recommend"] == ["3"]
    from bideuchre.cli.app import app
    res = CliRunner().invoke(app, ["bid", "--others", "dd", "AQT.T.J.J", "-s", "E", "-d", "N", "-p", "racehorse",
                                   "--seed", "3", "--samples", "200", "--workers", "1"])
    assert res.exit_code == 0, res.output
    assert "the same result on every deal: 3♠" in " ".join(res.stdout.split())


def test_a_clear_lead_over_a_runner_up_is_not_told_as_all_actions_tied():
    """The README's first bid example stops clear with a runner-up: the text says by how much
    the recommendation leads it, and not that every other action has the same result (a line
    printed only when there is no runner-up; a fresh user saw both)."""
    from bideuchre.cli.app import app
    res = CliRunner().invoke(app, ["bid", "--others", "dd", "AJ.KQ..JT", "--seat", "E", "--dealer", "N",
                                   "--seed", "1", "--workers", "1"])
    assert res.exit_code == 0, res.output
    text = " ".join(res.stdout.split())
    assert "ahead of " in text and "clear (over 3 standard errors)" in text
    assert "every other action has the same result" not in text


def test_adaptive_continues_on_a_close_hand_and_says_too_close_to_call():
    """Pass and 3 differ on very few deals with this racehorse hand: the rule looks at 200,
    400, … and never sees a lead of 3 standard errors, so sampling runs to the cap; the
    two are within one standard error: too close to call, in the text and the JSON."""
    adv = advise("AQT.T.J.J", "E", "N", "racehorse", seed=1, cap=1000, workers=1)
    assert adv.samples == 1000 and adv.stopped == "cap"
    assert (adv.recommend.action, adv.runner_up.action) == ("pass", "3")
    v = np.array([r.ev for r in adv.actions])
    assert v.max() == adv.recommend.ev
    # the paired difference: its mean is the difference of the EVs, its standard error the
    # runner-up's ±best
    assert adv.difference == pytest.approx(adv.recommend.ev - adv.runner_up.ev)
    assert adv.difference_se == pytest.approx(adv.runner_up.se_vs_best)
    assert 0 < adv.difference <= adv.difference_se and adv.close
    sym = Strain[adv.runner_up.strain].symbol
    assert adv.close_text() == (f"too close to call: pass {adv.recommend.ev:+.2f} vs 3{sym} "
                                f"{adv.runner_up.ev:+.2f}, difference {adv.difference:.3f} ± "
                                f"{adv.difference_se:.3f}")     # below 0.05: three decimals
    assert adv.to_json()["close"] is True and adv.to_json()["runner_up"] == "3"
    # the same deals with --samples: exactly the same ratings (the adaptive loop adds nothing)
    fixed = advise("AQT.T.J.J", "E", "N", "racehorse", seed=1, samples=1000, workers=1)
    assert [a.to_json() for a in fixed.actions] == [a.to_json() for a in adv.actions]
    assert fixed.stopped == "samples" and fixed.cap is None and fixed.close


def test_samples_n_gives_exactly_n():
    for n in (1, 41, 333):
        adv = advise("AJ.KQ..JT", "E", "N", "standard", samples=n, seed=3)
        assert adv.samples == n and adv.stopped == "samples"
        assert sum(adv.strains[Strain.S].tricks_hist) == n
    adv = advise("SA SA SK HK DA CA CK CQ", "E", "N", "double32", samples=7, seed=3, workers=2)
    assert adv.samples == 7 and sum(adv.strains[Strain.S].tricks_hist) == 7


def test_adaptive_results_do_not_depend_on_workers():
    """The stop is decided on whole blocks in index order: the same deals, the same answer."""
    one = advise("AJ.KQ..JT", "E", "N", "standard", seed=4, workers=1)
    two = advise("AJ.KQ..JT", "E", "N", "standard", seed=4, workers=2)
    assert one.samples == two.samples and one.samples > 200     # more than one look
    assert one.to_json() == two.to_json()


def test_forked_workers_give_the_same_advice():
    """``processes=True`` (bid's workers: forked processes, the model's Python off the GIL):
    the same deals and answer as one thread, with the calls heard weighed and lone bids."""
    args = ("AQ.AAJ.AQ.Q", "S", "N", "double32")
    one = advise(*args, auction="pass", seed=2, samples=240, workers=1)
    forked = advise(*args, auction="pass", seed=2, samples=240, workers=2, processes=True)
    assert one.samples == forked.samples == 240
    assert one.to_json() == forked.to_json()


def test_max_seconds_stops_and_reports_what_it_has():
    adv = advise("AJ.KQ..JT", "E", "N", "standard", seed=4, max_seconds=1e-6, workers=1)
    assert adv.stopped == "time" and 1 <= adv.samples < 200
    assert adv.to_json()["sampling"]["max_seconds"] == 1e-6
    # the deals it has are the first ones: the same ratings as --samples of that many
    same = advise("AJ.KQ..JT", "E", "N", "standard", seed=4, samples=adv.samples, workers=1)
    assert [a.to_json() for a in same.actions] == [a.to_json() for a in adv.actions]


def test_sample_limit_is_refused_before_any_work():
    with pytest.raises(BidEuchreError, match="must be 1 to 100,000"):
        advise("AJ.KQ..JT", "E", "N", "standard", samples=100_000_000)
    with pytest.raises(BidEuchreError, match="must be 1 to 100,000"):
        sample_deals("standard", Seat.E, parse_hand("AJ.KQ..JT"), samples=10 ** 12)
    with pytest.raises(BidEuchreError, match="must be 1 to 100,000"):
        advise("AJ.KQ..JT", "E", "N", "standard", samples=0)


def test_double_deck_lone_filter_is_sound():
    """Where the double-deck filter rules a lone bid out, the lone search agrees (it never
    rules out a bid that takes every trick), and it does rule out most moonshots."""
    from bideuchre.analysis.advice.deal_data import lone_possible_bid, suit_tops
    from bideuchre.analysis.lone import bid_values, lone_bids, lone_leader, lone_searcher
    from bideuchre.search.solve import tt_bits_for

    preset = PRESETS["double32"]
    counts = sample_deals(preset, Seat.E, parse_hand("SA SK HA HA DK CA CA CK"), samples=60, seed=6)
    searcher = lone_searcher(tt_bits_for(preset.deck))
    ruled_out = checked = 0
    for seat in range(4):
        leader = lone_leader(preset, seat, Seat.N)
        for st in preset.strains:
            tops = suit_tops(counts, int(st))
            for lb in lone_bids(preset):
                ok = lone_possible_bid(counts, preset, seat, int(st), lb, int(leader), tops)
                for i in np.flatnonzero(~ok)[:6]:
                    made = bid_values(searcher, counts[i], preset, [lb], Seat(seat), st, leader, True)[0]
                    assert not made, (seat, st, lb.name, i)
                    checked += 1
                ruled_out += int((~ok).sum())
    assert checked > 100 and ruled_out > 0.3 * 60 * 4 * 5 * 3 * 0.5


def test_samples_follow_seed_and_index_and_known_cards():
    hand = parse_hand("AJ.KQ..JT")
    known = {Seat.W: parse_hand("SK")}
    a = sample_deals("standard", Seat.E, hand, known, 12, seed=9)
    b = sample_deals("standard", Seat.E, hand, known, 5, seed=9)
    c = sample_deals("standard", Seat.E, hand, known, 7, seed=9, start=5)
    assert np.array_equal(a[:5], b) and np.array_equal(a[5:], c)
    assert (a.sum(axis=1) == 1).all() and (a.sum(axis=2) == 6).all()
    assert (a[:, Seat.W, parse_hand("SK")[0]] == 1).all()
    assert not np.array_equal(a, sample_deals("standard", Seat.E, hand, known, 12, seed=10))


def test_results_do_not_depend_on_workers():
    one = advise("AJ.KQ..JT", "E", "N", "standard", samples=150, seed=4, workers=1)
    two = advise("AJ.KQ..JT", "E", "N", "standard", samples=150, seed=4, workers=2)
    assert one.to_json() == two.to_json()
    assert one.to_json()["seed"] == 4


def test_game_target():
    # 25-20 to 32: only a lone bid reaches 32 this hand
    adv = advise(".AKQT9.J.", "N", "N", "standard", ["pass", "pass", "pass"], samples=60,
                 seed=1, score=(25, 20))
    assert adv.best_for_game.action in ("12", "24")
    assert adv.best_for_game.p_win > 0
    for r in adv.actions:
        if r.action in ("pass", "3", "4", "5"):
            assert r.p_win == 0.0
    # far behind, no action wins the game this hand: the game choice stays the EV choice
    far = advise(".AKQT9.J.", "N", "N", "standard", ["pass", "pass", "pass"], samples=30,
                 seed=1, score=(-20, 28))
    assert max(r.p_win for r in far.actions) == 0.0 and far.best_for_game is far.recommend
    with pytest.raises(BidEuchreError, match="already over"):
        advise("AJ.KQ..JT", "E", "N", "standard", samples=5, score=(40, 20))


def test_bad_input():
    with pytest.raises(BidEuchreError):
        advise("AJ.KQ..JT", "S", "N", "standard")  # E speaks first
    with pytest.raises(BidEuchreError):
        advise("AJ.KQ..J", "E", "N", "standard")  # five cards
    with pytest.raises(BidEuchreError):
        advise("AJ.KQ..JT", "E", "N", "standard", known={"W": "SA"})  # SA is in the hand
    with pytest.raises(BidEuchreError, match="the hand holds SA 2 times; the single24 deck has one"):
        advise("AA.J.Q.A9", "E", "N", "standard")
    # a hand wrong in itself is told first, before whose turn it is (S does not speak first)
    with pytest.raises(BidEuchreError, match="the hand holds 5 cards; single24 deals 6"):
        advise("AJ.KQ..J", "S", "N", "standard")
    for bad in (0, -1, float("nan"), float("inf"), 1e7, 1e300):   # inf, 1e7: a wait's timeout overflowed
        with pytest.raises(BidEuchreError, match="--max-seconds must be more than 0 and at most 1,000,000"):
            advise("AJ.KQ..JT", "E", "N", "standard", max_seconds=bad, samples=5)


@pytest.mark.parametrize("value", ["0", "inf", "1e7", "1e10"])
def test_bid_cli_max_seconds_out_of_range_is_one_line(value):
    from bideuchre.cli.app import app
    res = CliRunner().invoke(app, ["bid", "AJ.KQ..JT", "--seat", "E", "--dealer", "N", "--samples", "5",
                                   "--max-seconds", value])
    assert res.exit_code == 2, res.output
    assert "must be more than 0 and at most 1,000,000" in res.output
    assert "Traceback" not in res.output and "internal error" not in res.output


# ---------------------------------------------------------------------------------------------
# CLI

def test_bid_cli_json_and_record(tmp_path):
    from bideuchre.cli.app import app
    runner = CliRunner()
    res = runner.invoke(app, ["bid", "--others", "dd", "AJ.KQ..JT", "--seat", "E", "--dealer", "N", "--samples", "40",
                              "--seed", "3", "--json"])
    assert res.exit_code == 0, res.output
    obj = json.loads(res.stdout)
    assert obj["seed"] == 3 and obj["samples"] == 40
    assert {"recommend", "strain", "actions", "strains"} <= set(obj)
    assert obj["actions"][0]["action"] == "pass"
    assert set(obj["strains"]["H"]) >= {"tricks_hist", "mean"}
    # --deals: exactly the given deals
    deals = deals_around(real_deals(4)[3], Seat.E, 6, seed=1)
    f = tmp_path / "deals.txt"
    f.write_text("\n".join(d.pbn() for d in deals) + "\n")
    res = runner.invoke(app, ["bid", "--others", "dd", format_hand(deals[0].hands[Seat.E]), "--seat", "E", "--dealer", "N",
                              "--deals", str(f), "--json"])
    assert res.exit_code == 0, res.output
    obj = json.loads(res.stdout)
    assert obj["samples"] == 6 and obj["seed"] is None
    # a Trickster record: N is dealer and last to bid after three passes
    rec = SOURCES / "trickster" / "last_to_bid.ptn"
    res = runner.invoke(app, ["bid", "--others", "dd", "--record", str(rec), "--index", "1", "--samples", "30", "--json"])
    assert res.exit_code == 0, res.output
    obj = json.loads(res.stdout)
    assert obj["seat"] == "N" and obj["auction"] == ["pass", "pass", "pass"]
    assert obj["record_call"] == "3"
    assert obj["actions"][0]["action"] != "pass" or obj["preset"] == "standard"
    bad = runner.invoke(app, ["bid", "--others", "dd", "AJ.KQ..JT", "--seat", "S", "--dealer", "N"])
    assert bad.exit_code == 2 and "turn" in bad.output
    # a deal or a file where the hand goes: one line saying what bid takes instead
    deal = real_deals(1)[0]
    for wrong, what in [(deal, "is a deal; bid takes one hand"),
                        (deal.split(":", 1)[1], "is a deal; bid takes one hand"),
                        ("E:AJ.KQ..JT", "give the hand without its seat"),
                        (str(rec), "is a file; bid takes one hand")]:
        bad = runner.invoke(app, ["bid", "--others", "dd", wrong, "--seat", "E", "--dealer", "N"])
        assert bad.exit_code == 2 and what in bad.stderr and len(bad.stderr.splitlines()) == 1, bad.output


def test_bid_cli_deals_file_errors_name_the_line(tmp_path):
    """A bad line of --deals (not a deal; a deal without the hand) is named by its line."""
    from bideuchre.cli.app import app
    runner = CliRunner()
    deals = deals_around(real_deals(4)[3], Seat.E, 3, seed=1)
    hand = format_hand(deals[0].hands[Seat.E])
    f = tmp_path / "deals.txt"
    other = Deal.from_pbn(real_deals(5)[4])
    for lines, lineno, what in [([deals[0].pbn(), "# a comment", "N:AKQ.J9 nonsense"], 3, "line 3: "),
                                ([deals[0].pbn(), "", deals[1].pbn(), other.pbn()], 4, f"does not give seat E the hand {hand}")]:
        f.write_text("\n".join(lines) + "\n")
        res = runner.invoke(app, ["bid", "--others", "dd", hand, "--seat", "E", "--dealer", "N", "--deals", str(f)])
        assert res.exit_code == 2, res.output
        assert f"deals.txt: line {lineno}" in res.output and what in res.output, res.output
        assert "Traceback" not in res.output and len(res.output.strip().splitlines()) == 1


def test_bid_cli_tables_fit_80_columns():
    """The strain and action tables keep every header and value whole in 80 columns, with
    the double32 lone bids, the game column of --score and double48's twelve levels."""
    from bideuchre.cli.app import app
    runner = CliRunner()
    for args, words in [(["SA SA SK HK DA CA CK CQ", "--preset", "double32", "--samples", "6"],
                         ["two-card", "one-card", "moonshot", "P(decl)"]),
                        (["AJ.KQ..JT", "--samples", "20", "--score", "25-28"],
                         ["P(win)", "±best", "NT↓", "recommend: 5♣ (EV"]),
                        # double48: 12 levels, the columns of the undecided ones
                        (["AKJ.KQJ.KQJJ.QQ", "--preset", "double48", "--samples", "3"],
                         ["mean", "P≥7", "--json has every level"])]:
        res = runner.invoke(app, ["bid", "--others", "dd", args[0], "--seat", "E", "--dealer", "N", *args[1:]],
                            env={"COLUMNS": "80"})
        assert res.exit_code == 0, res.output
        lines = res.stdout.splitlines()
        assert max(len(line) for line in lines) <= 80
        for w in words:
            assert w in res.stdout, w
        # the recommendation names its strain once, as the messages do ("5♣", "4NT", never
        # "4NT NT": a double32 bid carries its strain)
        rec = next(line for line in lines if line.startswith("recommend: "))
        named = rec.split(" (EV")[0].removeprefix("recommend: ")
        assert sum(named.count(t) for t in ("♠", "♥", "♦", "♣", "NT")) <= 1, rec
        # strains drawn as in the other tables: the recommended row too (unless a pass)
        if "recommend: pass" not in res.stdout:
            assert any("◀" in line and any(sym in line for sym in "♠♥♦♣") for line in lines)
        # double32 and double48 name the strain with the bid: an action row says it once
        # ("3♠", never "3S  ♠")
        if "--preset" in args:
            import re
            assert any(re.match(r"^\s*3♠\s", line) for line in lines)
            assert not any(re.match(r"^\s*\d+(S|H|D|C|NT\s+NT)\b", line) for line in lines)
        # no cell cut short: an ellipsis only inside EV ranges (digits on both sides)
        for line in lines:
            for i, ch in enumerate(line):
                if ch == "…":
                    assert line[i - 1].isdigit() and line[i + 1] in "+-0123456789", line


def test_lazy_lone_counts_agree_with_exact():
    """By default failing lone hands are counted exactly only where that changes a result:
    every EV marked exact equals the fully exact run, and the ranges hold the exact value."""
    for hand, seat, dealer, auction in [("AJ.KQ..JT", "E", "N", ""), ("A.AKJ.J.A", "S", "W", "pass 3")]:
        lazy = advise(hand, seat, dealer, "standard", auction, samples=150, seed=8)
        full = advise(hand, seat, dealer, "standard", auction, samples=150, seed=8, exact=True)
        assert lazy.recommend.action == full.recommend.action
        for a, b in zip(lazy.actions, full.actions):
            assert b.exact
            if a.exact:
                assert (a.action, a.strain, a.ev, a.p_declare) == (b.action, b.strain, b.ev, b.p_declare)
            else:
                assert a.ev <= b.ev + 1e-9 and b.ev <= a.ev_max + 1e-9


def test_double32_laid_down_cards_fixed_across_deals():
    """double32 loners: the laid-down cards are one choice for every deal and strain, the
    partner's gift the best per deal.  Against every choice of laid-down cards and every gift,
    enumerated here with ``solve_position``: the chosen cards reach the best share of deals
    taking every trick, and the per-strain shares are those of the chosen cards."""
    from itertools import combinations

    from bideuchre.notation import Position
    from bideuchre.rules import Side

    rng = random.Random(11)
    form = DECKS["double32"]
    pack = [c for c in form.card_ids for _ in range(2)]
    rng.shuffle(pack)
    text = Deal([pack[i * 8:(i + 1) * 8] for i in range(4)], form).pbn()
    seat, partner = Seat.W, Seat.E
    deals = deals_around(text, seat, 3, seed=12, deck="double32")
    own = list(deals[0].hands[seat])
    adv = advise(own, seat, Seat.N, "double32", ["pass", "pass"], deals=deals)
    strains = PRESETS["double32"].strains

    def takes_all(deal, d, g, st):
        hands = [list(h) for h in deal.hands]
        for c in d:
            hands[seat].remove(c)
            hands[partner].append(c)
        for c in g:
            hands[partner].remove(c)
            hands[seat].append(c)
        pos = Position(Deal(hands, "double32"), st, seat, lone=seat)
        return solve_position(pos)[Side(seat % 2)] == 8

    for name, k in (("one-card", 1), ("two-card", 2)):
        shares = {}
        for d in sorted(set(combinations(sorted(own), k))):
            shares[d] = [np.mean([any(takes_all(deal, d, g, st)
                                      for g in sorted(set(combinations(sorted(deal.hands[partner]), k))))
                                  for deal in deals]) for st in strains]
        chosen = tuple(sorted(parse_hand(" ".join(adv.laid_down[name]))))
        assert max(shares[chosen]) == max(max(v) for v in shares.values())
        for st, want in zip(strains, shares[chosen]):
            assert adv.strains[st].p_all_alone[name] == pytest.approx(want)


def test_bid_cli_close_call_limit_and_echo():
    """The text says 'too close to call' on a close hand; --samples beyond the limit is one
    line, exit 2; --known and how sampling stopped are echoed."""
    from bideuchre.cli.app import app
    runner = CliRunner()
    res = runner.invoke(app, ["bid", "--others", "dd", "AQT.T.J.J", "-s", "E", "-d", "N", "-p", "racehorse",
                              "--samples", "1000", "-j", "1"], env={"COLUMNS": "100"})
    assert res.exit_code == 0, res.output
    assert "too close to call: pass " in res.stdout and " vs 3" in res.stdout
    res = runner.invoke(app, ["bid", "--others", "dd", "AJ.KQ..JT", "-s", "E", "-d", "N", "--samples", "100000000"])
    assert res.exit_code == 2 and len(res.stderr.strip().splitlines()) == 1
    assert "--samples 100000000: must be 1 to 100,000" in res.stderr
    res = runner.invoke(app, ["bid", "--others", "dd", ".AKQJT.J.", "-s", "E", "-d", "N", "-p", "pepper",
                              "--known", "W:SA", "--json"])
    assert res.exit_code == 0, res.output
    obj = json.loads(res.stdout)
    assert obj["known"] == {"W": "A..."} and obj["sampling"]["stopped"] == "clear"
    assert obj["samples"] == 200 and obj["close"] is False
    res = runner.invoke(app, ["bid", "--others", "dd", ".AKQJT.J.", "-s", "E", "-d", "N", "-p", "pepper",
                              "--known", "W:SA"], env={"COLUMNS": "100"})
    text = " ".join(res.stdout.split())     # the console's width may wrap the line
    assert "known W: A..." in text
    assert "sampling stopped at 200 deals: clear (over 3 standard errors)" in text


def test_model_evaluated_in_slices_gives_the_same_ratings(monkeypatch):
    """The auction model runs a slice of deals at a time (bounded memory): slices of 7 deals
    give exactly the ratings of one slice, lone refinements included."""
    from bideuchre.analysis.advice import rating
    whole = advise("AJ.KQ..JT", "E", "N", "standard", "", samples=60, seed=8, workers=1)
    monkeypatch.setattr(rating, "EVAL_SLICE", 7)
    sliced = advise("AJ.KQ..JT", "E", "N", "standard", "", samples=60, seed=8, workers=1)
    assert sliced.to_json() == whole.to_json()


def test_one_deal_gives_valid_json_without_a_standard_error():
    """With one deal a paired difference has no standard error: JSON null (it printed
    ``Infinity``, which is not JSON) and words in the text, never ``± inf``."""
    from bideuchre.cli.app import app
    runner = CliRunner()
    res = runner.invoke(app, ["bid", "--others", "dd", "AJ.KQ..JT", "-s", "E", "-d", "N", "--samples", "1", "--json"])
    assert res.exit_code == 0, res.output
    assert "Infinity" not in res.stdout and "NaN" not in res.stdout
    obj = json.loads(res.stdout)
    assert obj["samples"] == 1 and obj["difference_se"] is None
    res = runner.invoke(app, ["bid", "--others", "dd", "AJ.KQ..JT", "-s", "E", "-d", "N", "--samples", "1"])
    assert res.exit_code == 0 and "inf" not in res.stdout.replace("info", "")


def test_best_of_strains_is_the_exact_maximum_whatever_the_order_and_guess():
    """Each other seat's most DD tricks over the strains (advice's per-deal search): the
    order of the strains and MTD(f)'s first guess (taken from our seat's tricks) change only
    the work; the result is the maximum of exact solves in every order and with any guess."""
    import itertools
    from bideuchre.analysis.advice.deal_data import _best_of_strains, _side_estimate, _solver
    from bideuchre.search.solve import get_solver

    rng = np.random.default_rng(12)
    for name, deck in (("double32", "double32"), ("double48", "double32")):
        preset = PRESETS[name] if deck == name else PRESETS[name].with_options(deck=deck)
        n = preset.tricks
        strains = np.array([int(s) for s in preset.strains], dtype=np.intc)
        solver, exact = _solver(preset), get_solver(preset.deck)
        counts = sample_deals(preset, Seat.E, parse_hand("SA SK HA HJ DK DQ CA CJ"), samples=4, seed=4)
        for c in counts:
            c = np.ascontiguousarray(c)
            own = np.array([n - exact.solve(c, int(st), int(Seat.E), -1) for st in strains])
            for seat in range(4):
                want = max((exact.solve(c, int(st), seat, -1) if seat % 2 == 0
                            else n - exact.solve(c, int(st), seat, -1)) for st in strains)
                est = _side_estimate(own, int(Seat.E), seat, n)
                orders = [np.argsort(-est, kind="stable")] + [np.array(o) for o in itertools.permutations(range(len(strains)))][::29]
                for order in orders:
                    for guess in (-1, 0, int(rng.integers(0, n + 1)), n):
                        assert _best_of_strains(solver, c, strains, seat, n, order, guess) == want


@pytest.mark.parametrize("name, k, hand", [
    ("double32", None, "SA SK HA HA DK CA CA CK"),
    ("double48", 2, "SA SA SK HA HJ HJ DA DK CA CA CK CQ"),
])
def test_laid_down_checks_equal_every_gift_searched(name, k, hand):
    """The C laid-down check (dominant gifts, sound filters) gives, for every deal, laid-down
    choice, strain and first leader, exactly "some gift of the partner's cards takes every
    trick", searched over every distinct gift with no filter (``fixed_tricks`` exact), including
    choices that are not dominant and leaders other than the lone hand."""
    from bideuchre.analysis.advice.deal_data import _dominant_choices, _laid_down_made, fixed_tricks
    from bideuchre.analysis.lone import exchange_order, lone_bids

    preset = PRESETS[name] if k is None else PRESETS[name].with_options(lone_exchange=k)
    me = int(Seat.E)
    own = parse_hand(hand)
    counts = sample_deals(preset, Seat.E, own, samples=10 if k is None else 3, seed=3)
    rng = random.Random(4)
    n = preset.tricks
    checked = made = 0
    for lb in lone_bids(preset):
        if not (lb.discard > 0 and exchange_order(preset, lb) == "discard-first"):
            continue
        choices = sorted({d for st in preset.strains
                          for d in _dominant_choices(list(own), int(st), lb.discard, highest=False)})
        choices += [tuple(sorted(rng.sample(own, lb.discard))) for _ in range(3)]
        for leader in (me, (me + 1) % 4):
            got = _laid_down_made(preset, counts, me, leader, lb, choices)
            assert got.shape == (counts.shape[0], len(choices), len(preset.strains))
            for i in range(counts.shape[0]):
                for ci, d in enumerate(choices):
                    for kk, st in enumerate(preset.strains):
                        want = fixed_tricks(preset, counts[i], me, leader, lb, int(st), d,
                                            exact=True) == n
                        assert bool(got[i, ci, kk]) == want, (lb.name, leader, i, d, st)
                        checked += 1
                        made += want
    assert checked > 300 and 0 < made < checked


def test_recommend_line_names_a_double32_bid_with_its_strain_once():
    """double32 names the strain with the bid ("5NT"): the recommendation reads ``5NT``, as the
    table's action column and the JSON do, not ``5NT NT``."""
    from bideuchre.cli.app import app
    runner = CliRunner()
    args = ["bid", "SA SA SK HK DA CA CK CQ", "-s", "E", "-d", "N", "-p", "double32", "--samples", "100"]
    obj = json.loads(runner.invoke(app, args + ["--json"]).stdout)
    assert obj["recommend"] != "pass" and obj["recommend"].endswith(obj["strain"])
    text = runner.invoke(app, args, env={"COLUMNS": "100"}).stdout
    rec = next(line for line in text.splitlines() if line.startswith("recommend: "))
    sym = {"NT": "NT", "S": "♠", "H": "♥", "D": "♦", "C": "♣"}[obj["strain"]]
    assert rec.startswith(f"recommend: {obj['recommend'][:-len(obj['strain'])]}{sym} (EV"), rec


def test_recommend_line_names_a_lone_bid_apart_from_its_strain():
    """standard's lone bids are 12 and 24, digits as the number bids are: the recommendation
    reads ``24 ♥`` (the lone bid, then its strain), not ``24♥``."""
    from bideuchre.cli.app import app
    runner = CliRunner()
    args = ["bid", "A.AKQJ.J.", "-s", "N", "-d", "W", "--samples", "200"]
    obj = json.loads(runner.invoke(app, args + ["--json"]).stdout)
    lone = [lb.name for lb in PRESETS["standard"].lone_bids]
    assert obj["recommend"] in lone and obj["strain"] is not None
    text = runner.invoke(app, args, env={"COLUMNS": "100"}).stdout
    sym = {"NT": "NT", "NTL": "NT↓", "S": "♠", "H": "♥", "D": "♦", "C": "♣"}[obj["strain"]]
    assert f"recommend: {obj['recommend']} {sym} (EV" in text, text[-400:]


@pytest.mark.parametrize("name,seat,dealer,calls,merged", [
    ("racehorse", 1, 0, [], True), ("double32", 2, 0, ["pass"], True), ("standard", 0, 3, [], True),
    ("standard", 3, 1, ["3"], False), ("double48", 1, 0, [], True)])
def test_continuation_asked_once_per_state_equals_once_per_path(name, seat, dealer, calls, merged,
                                                                  monkeypatch):
    """model_paths asks a state-only policy once per (speaker, high bid, its seat): the same
    paths, bid by bid, as asking it once per path of calls; fewer questions where two paths
    reach one state (``merged``: on these 40 deals; after this 3 none happen to, though two
    could)."""
    import copy
    from bideuchre.analysis.advice.table import model_paths
    from bideuchre.bidding import get_policy
    p = PRESETS[name]
    pol = get_policy("model", p)
    plain = copy.copy(pol)
    plain.state_only = False
    deal = np.array(random_deal(random.Random(7), p.deck.name).counts())
    own = [c for c in range(24) for _ in range(int(deal[seat, c]))]
    counts = sample_deals(p, seat, own, samples=40, seed=11)
    acts = [parse_bid(c, p) if c != "pass" else None for c in calls]
    asked = {"n": 0}
    from bideuchre.bidding import ModelPolicy
    inner = ModelPolicy.choose

    def choose(self, *a, **kw):         # on the class: memo_policy's copy (its memo model) too
        asked["n"] += 1
        return inner(self, *a, **kw)
    monkeypatch.setattr(ModelPolicy, "choose", choose)

    got = model_paths(pol, p, dealer, acts, seat, counts)
    n_state = asked["n"]
    asked["n"] = 0
    want = model_paths(plain, p, dealer, acts, seat, counts)
    n_path = asked["n"]
    for f in ("declarer", "bid", "strain"):     # (the tricks are path_tricks' to fill)
        assert np.array_equal(getattr(got, f), getattr(want, f)), f
    assert ((got.declarer >= 0) & (got.declarer != seat)).any()     # other seats declare
    assert (n_state < n_path) if merged else (n_state == n_path)


def test_bid_cli_legend_explains_an_ev_range_only_when_one_is_shown():
    """A lone bid not counted exactly shows its EV as a range ("-7.72…-4.45"); the legend
    under the table says what that is, and only when some row shows one."""
    from bideuchre.cli.app import app
    runner = CliRunner()
    base = ["bid", "AJ.KQ..JT", "--seat", "E", "--dealer", "N", "--samples", "60"]
    for extra in ([], ["--exact"]):
        res = runner.invoke(app, base + extra, env={"COLUMNS": "200"})
        assert res.exit_code == 0, res.output
        rows = [line for line in res.stdout.splitlines() if "…" in line and "recommend" not in line]
        legend = "two EVs: the bounds of a lone bid not counted exactly" in res.stdout
        assert legend == bool(rows)
        assert bool(rows) == (not extra)    # --exact counts every lone bid: no range
