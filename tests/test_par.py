"""Par (issue 6) against a brute-force enumeration of the whole auction tree.

The brute force (tests/oracles.py) is written from RULES.md §2 independently of ``bideuchre.analysis.auction`` and
``bideuchre.analysis.par``: its own table of each preset's bidding rules and scoring, its own list of the
actions allowed at each turn, a plain recursive walk over every complete auction (no
memoisation), and its own strain choice.  The double-dummy inputs are the DD table
(``bideuchre.search.solve.dd_table``, tested in the core's tests) and lone values computed here with
``solve_position`` (lone bids without exchange; the ``standard`` 12 by enumerating every
exchange); the ``double32`` exchange loners come from ``bideuchre.analysis.lone`` (tested in issue 3).

Tie rule shared by both (documented in solver/par.py): among equal results a player passes,
else bids the lowest rung, then the first strain in the preset's order; the declarer takes
the strain with the best result, then the most tricks, then the first in the preset's order.
"""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from helpers import random_deal, real_deals
from oracles import RULES, bf_bids, bf_leaf, bf_score, brute_force, lone_values
from bideuchre.analysis.auction import Auction, parse_bid
from bideuchre.notation import Deal
from bideuchre.analysis.par import par
from bideuchre.rules import DECKS, PRESETS, RulesError, Seat, Side, Strain
from bideuchre.search.solve import dd_table


def check_deal(name: str, deal: Deal, dealer: int, preset=None) -> dict:
    """Par against brute force on one deal; returns facts about the par for coverage checks."""
    r = RULES[name]
    preset = preset or PRESETS[name]
    n = preset.tricks
    dd = dd_table(deal, preset, dealer)
    lone = lone_values(deal, name, dealer)

    def tricks_of(seat, bid, st):
        if bid[0] > max(r["numbers"]):
            return lone[(seat, bid[1], st)]
        return dd.tricks[Seat(seat)][Strain[st]]

    value, line, final = brute_force(r, n, dealer, tricks_of)
    lone_arg = {(Seat(s), b, Strain[st]): t for (s, b, st), t in lone.items()}
    res = par(deal, preset, dealer, dd=dd, lone=lone_arg)
    assert res.value == value, (deal.pbn(), name)
    assert [None if a is None else (a.level, a.name, None if a.strain is None else a.strain.name)
            for a in res.auction] == line
    if final is None:
        assert res.contract is None
        assert res.points == {Side.NS: 0, Side.EW: 0}
    else:
        seat, bid = final
        diff, t, st = bf_leaf(r, n, tricks_of, seat, bid)
        a, b = bf_score(r, n, bid, t)
        c = res.contract
        assert (c.declarer, c.bid.name, c.strain.name, c.tricks) == (seat, bid[1], st, t)
        assert c.points == {Side(seat % 2): a, Side(1 - seat % 2): b}
    # best contract against passes: the best result, the highest bid among equals
    for seat in range(4):
        best = None
        for bid in bf_bids(r):
            diff, t, st = bf_leaf(r, n, tricks_of, seat, bid)
            if best is None or diff >= best[0]:
                best = (diff, bid, t, st)
        c = res.best_vs_passes[Seat(seat)]
        assert (c.bid.name, c.strain.name, c.tricks) == (best[1][1], best[3], best[2])
    bids = [a for a in line if a is not None]
    return {"thrown": final is None, "lone": final is not None and final[1][0] > max(r["numbers"]),
            "bid": None if final is None else final[1][1],
            "equal": len(bids) >= 2 and bids[-1][0] == bids[-2][0]}


# ---------------------------------------------------------------------------------------------
# Deals chosen to cover the rules

# a standard deal in which nobody gains by bidding: all four pass, the hand is thrown in
# (found by a random search over DD tables; every declarer takes at most 3 tricks in every strain)
THROWN_STANDARD = [("N:KT.A9.Q.T 9.KQT.KT. J.J.AJ.K9 AQ..9.AQJ", Seat.S),
                   ("N:A9.J.QT.J KT.AQ.KJ. Q.K.A.AQ9 J.T9.9.KT", Seat.S),
                   ("N:KT.KQ..KT Q.AT9.AJ. AJ.J.KQ.9 9..T9.AQJ", Seat.W)]


def moon_deal() -> Deal:
    """double32: E holds both right and both left bowers and both ace and king of hearts; N and
    S could shoot the moon in clubs and spades, but E speaks first (dealer N) and the
    moonshot ends the auction at once."""
    return Deal.from_pbn("N:...AAKKQQJJ .AAKKJJ.JJ. AAKKQQJJ... .QQ.AAKKQQ.", "double32")


@pytest.mark.parametrize("name", ["standard", "pepper", "racehorse"])
def test_par_matches_brute_force_single24(name):
    facts = []
    for i, text in enumerate(real_deals(50)):
        deal = Deal.from_pbn(text)
        facts.append(check_deal(name, deal, i % 4))
    if name in ("standard", "pepper"):
        assert any(f["lone"] for f in facts)  # lone bids reach par
    assert not any(f["thrown"] for f in facts) or name == "standard"


def test_par_standard_throw_in():
    for text, dealer in THROWN_STANDARD:
        f = check_deal("standard", Deal.from_pbn(text), dealer)
        assert f["thrown"]


def test_par_racehorse_dealer_equal_matters():
    """The dealer's right to equal the high bid changes par on real deals: brute force with
    and without it, against par with and without it."""
    changed = 0
    rh = PRESETS["racehorse"]
    no_equal = rh.with_options(dealer_may_equal=False)
    for i, text in enumerate(real_deals(20)):
        deal = Deal.from_pbn(text)
        dd = dd_table(deal, rh, i % 4)
        r_eq = dict(RULES["racehorse"])
        r_no = dict(r_eq, equal=False)
        tricks_of = lambda s, b, st: dd.tricks[Seat(s)][Strain[st]]  # noqa: E731
        v_eq = brute_force(r_eq, 6, i % 4, tricks_of)[0]
        v_no = brute_force(r_no, 6, i % 4, tricks_of)[0]
        assert par(deal, rh, i % 4, dd=dd).value == v_eq
        assert par(deal, no_equal, i % 4, dd=dd).value == v_no
        changed += v_eq != v_no
    assert changed > 0


@pytest.mark.parametrize("name", ["double32", "double48"])
def test_par_matches_brute_force_double(name):
    rng = random.Random(6)
    preset = PRESETS[name]
    if name == "double48":
        preset = preset.with_options(deck=DECKS["double32"])
    facts = []
    for i in range(50):
        deal = random_deal(rng, "double32")
        facts.append(check_deal(name, deal, i % 4, preset))
    if name == "double32":
        assert any(f["lone"] for f in facts)


def test_par_moonshot_ends_auction():
    deal = moon_deal()
    f = check_deal("double32", deal, Seat.N)  # E speaks first
    res = par(deal, "double32", "N")
    assert f["bid"] == "moonshot"
    assert [str(a) if a else "pass" for a in res.auction] == ["moonshot"]
    assert res.points == {Side.EW: 32, Side.NS: 0}


# ---------------------------------------------------------------------------------------------
# The auction model

def test_auction_rules():
    a = Auction.parse("pass 4 pass", "racehorse", "N")
    assert a.to_act == Seat.N
    assert [str(x) if x else "pass" for x in a.legal_actions()] == ["pass", "4", "5", "6"]
    a = Auction.parse("pass pass pass", "pepper", "N")
    assert None not in a.legal_actions()  # the dealer must bid
    a = Auction.parse("pass pass pass", "standard", "N")
    assert None in a.legal_actions()  # may pass: thrown in
    a.play(None)
    assert a.is_over and a.contract is None
    stick = PRESETS["standard"].with_options(stick=True)
    assert None not in Auction.parse("pass pass pass", stick, "N").legal_actions()
    a = Auction.parse("5H moonshot", "double32", "W")
    assert a.is_over and a.contract == (Seat.E, parse_bid("moonshot", "double32"))
    with pytest.raises(RulesError):
        Auction.parse("4H 4S", "double32", "N")  # a strain never breaks a tie
    with pytest.raises(RulesError):
        Auction.parse("4 4", "standard", "N")
    with pytest.raises(RulesError):
        parse_bid("4H", "standard")  # strain named after the auction
    with pytest.raises(RulesError):
        parse_bid("12", "racehorse")


# ---------------------------------------------------------------------------------------------
# CLI

def test_par_cli_json():
    from bideuchre.cli.app import app
    text = real_deals(1)[0]
    res = CliRunner().invoke(app, ["par", text, "--preset", "racehorse", "--dealer", "W", "--json"])
    assert res.exit_code == 0, res.output
    import json
    obj = json.loads(res.stdout)
    p = par(Deal.from_pbn(text), "racehorse", "W")
    assert obj["par"] == p.contract.to_json()
    assert set(obj["best_vs_passes"]) == {"N", "E", "S", "W"}
    bad = CliRunner().invoke(app, ["par", "N:AKQ", "--json"])
    assert bad.exit_code == 2
