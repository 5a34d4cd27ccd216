"""Tests of the αμ search (bideuchre.analysis.alphamu): a constructed ending where PIMC fuses
strategies (checked here by enumerating every strategy of the seat with the rules alone and
every world with the reference solver), one world equals double dummy, depth 1 equals PIMC,
and exact searches against a brute force over the seat's strategies."""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pytest
from typer.testing import CliRunner

from helpers import random_deal
from bideuchre.analysis.alphamu import alphamu_fronts
from bideuchre.analysis.play import DEFAULT_EXACT_LIMIT, advise_view, alphamu_view, play_advice, view_groups
from bideuchre.analysis.sampler import SeatView
from bideuchre.notation import Deal, Position, parse_cards
from bideuchre.rules import RulesError, Seat, Side, get_preset
from bideuchre.search.reference import reference_card_values

RACE = get_preset("racehorse")

# The ending (found by a random search, checked by hand and below): no trump, W led the first
# trick; after three tricks E is on lead holding HA HJ D9, W holds HK DT CA (shown), N holds
# DJ and S holds C9 (shown), and N and S hold two each of DA H9 HT HQ: six worlds.  EW have
# won one trick.
#  - HJ: W must overtake with its lone HK and cash CA: two more tricks in every world, with no
#    later guess.
#  - HA: W's lone HK falls under it; E must then lead HJ (good where NS's heart honour is
#    gone) or D9 (to reach W's CA) -- in each world one of them takes a second trick, but the
#    trick-1 cards do not tell E which.  PIMC counts HA as sure as HJ.
FUSION_DEAL = "N:AQ.QT.J.K KT.AJ.K9. .9.AQ.QJ9 J9.K.T.AT"
FUSION_PLAYED = "CT CK DK CJ SA ST DQ SJ SQ SK CQ S9"
FUSION_UNSEEN = parse_cards("DA H9 HT HQ")


def _fusion_view() -> tuple[Deal, SeatView]:
    deal = Deal.from_pbn(FUSION_DEAL)
    hidden = set(FUSION_UNSEEN)
    known = {s: [c for c in deal.hands[s] if c not in hidden] for s in (Seat.N, Seat.S, Seat.W)}
    return deal, SeatView("single24", "E", deal.hands[Seat.E], "NT", "W", parse_cards(FUSION_PLAYED),
                          None, known)


def _worlds(deal: Deal) -> list[Deal]:
    """The six deals consistent with E's view, built here from the unseen cards."""
    out = []
    for north in itertools.combinations(FUSION_UNSEEN, 2):
        south = [c for c in FUSION_UNSEEN if c not in north]
        hands = [list(h) for h in deal.hands]
        for s, mine in ((Seat.N, north), (Seat.S, south)):
            hands[s] = [c for c in hands[s] if c not in FUSION_UNSEEN] + list(mine)
        out.append(Deal(hands, deal.deck))
    return out


def _side_value(pos: Position, me: Seat, sigma: dict, hist: tuple) -> int:
    """Whole-hand tricks of ``me``'s side when ``me`` plays by ``sigma`` (public history ->
    card, where it has a choice), its partner maximises and the opponents minimise: plain
    minimax on the rules (Position), independent of the search."""
    if pos.is_over:
        return pos.tricks_won[me.side]
    p = pos.to_move
    legal = pos.legal_cards()
    if p == me and len(legal) > 1:
        cards = [sigma(pos, hist) if callable(sigma) else sigma[hist]]
    else:
        cards = legal
    vals = []
    for c in cards:
        pos.play(c)
        vals.append(_side_value(pos, me, sigma, hist + (int(c),)))
        pos.undo()
    return max(vals) if p.side == me.side else min(vals)


def _info_sets(positions: list[Position], me: Seat) -> dict:
    """Every public history (cards since the positions) at which ``me`` has a choice, with
    its legal cards, over every play of every world."""
    found: dict = {}

    def walk(pos: Position, hist: tuple) -> None:
        if pos.is_over:
            return
        legal = pos.legal_cards()
        if pos.to_move == me and len(legal) > 1:
            found[hist] = tuple(int(c) for c in legal)
        for c in legal:
            pos.play(c)
            walk(pos, hist + (int(c),))
            pos.undo()

    for p in positions:
        walk(p, ())
    return found


def _best_strategy(positions: list[Position], me: Seat, first: int, limit: int = 4096,
                   count: bool = False):
    """Over every pure strategy of ``me`` that plays ``first`` now: (the best mean over the
    worlds of its side's tricks, the best worst case over the worlds); None when there are
    more than ``limit`` strategies.  ``count``: only (the number of strategies, None)."""
    after = []
    for p in positions:
        q = p.copy()
        q.play(first)
        after.append(q)
    sets = _info_sets(after, me)
    keys = sorted(sets)
    n = np.prod([len(sets[k]) for k in keys], dtype=float)
    if count:
        return n, None
    if n > limit:
        return None
    best_mean, best_min = -1.0, -1
    for choice in itertools.product(*(sets[k] for k in keys)):
        sigma = dict(zip(keys, choice))
        vals = [_side_value(q, me, sigma, ()) for q in after]
        best_mean = max(best_mean, sum(vals) / len(vals))
        best_min = max(best_min, min(vals))
    return best_mean, best_min


def test_the_fusion_ending_is_as_described():
    deal, view = _fusion_view()
    assert view.count() == (6, 6)
    worlds = _worlds(deal)
    positions = [Position(d, "NT", "W", FUSION_PLAYED) for d in worlds]
    ha, hj = parse_cards("HA HJ")
    for p in positions:
        v = reference_card_values(p)
        assert 6 - v[ha] == 3 and 6 - v[hj] == 3        # double dummy both take 2 more tricks
    # after HJ one strategy (keep HA to the end) keeps 3 tricks in every world
    keep_ha = lambda pos, hist: next(c for c in pos.legal_cards() if c != ha)  # noqa: E731
    for p in positions:
        q = p.copy()
        q.play(hj)
        assert _side_value(q, Seat.E, keep_ha, ()) == 3
    # after HA no strategy does (every one enumerated)
    mean_ha, worst_ha = _best_strategy(positions, Seat.E, ha)
    assert worst_ha == 2 and mean_ha < 3


def test_alphamu_keeps_the_sure_line_where_pimc_fuses():
    deal, view = _fusion_view()
    positions = [Position(d, "NT", "W", FUSION_PLAYED) for d in _worlds(deal)]
    pimc = advise_view(view, RACE, objective="tricks", workers=1)
    am = alphamu_view(view, RACE, objective="tricks", depth=3)
    pt = {str(c.card): c.tricks for c in pimc.cards}
    at = {str(c.card): c.tricks for c in am.cards}
    assert pimc.exact and am.exact
    assert pt["HA"] == pt["HJ"] == 3.0            # PIMC: the guess counts as sure
    assert str(pimc.recommend.card) == "HA"       # ... and its tie-break takes it
    assert str(am.recommend.card) == "HJ" and at["HJ"] == 3.0
    mean_ha, _ = _best_strategy(positions, Seat.E, parse_cards("HA")[0])
    assert at["HA"] == pytest.approx(mean_ha)     # the exact information-set value
    assert at["HA"] < 3.0
    # depth 2 decides the same: the guess is the seat's next card
    am2 = alphamu_view(view, RACE, objective="tricks", depth=2)
    assert str(am2.recommend.card) == "HJ"


def _late(rng: random.Random, deck: str, left: int) -> Position:
    """A random deal played with random legal cards until the player to move holds at most
    ``left`` cards and has a choice."""
    while True:
        pos = Position(random_deal(rng, deck), rng.choice([0, 1, 4, 5]), Seat(rng.randrange(4)))
        while not pos.is_over and (sum(pos.hands[pos.to_move]) > left or len(pos.legal_cards()) < 2):
            pos.play(rng.choice(pos.legal_cards()))
        if not pos.is_over:
            return pos


def _view(pos: Position, hide: int, rng: random.Random) -> SeatView:
    """The view of the player to move with every other card shown except ``hide`` random
    remaining cards of the other seats."""
    me = pos.to_move
    d = pos.deal
    rest = [(s, c) for s in Seat if s != me for c in pos.hand(s)]
    hidden = rng.sample(rest, min(hide, len(rest)))
    known = {}
    for s in Seat:
        if s == me:
            continue
        cs = list(d.hands[s])
        for hs, c in hidden:
            if hs == s:
                cs.remove(c)
        known[s] = cs
    return SeatView(d.deck, me, d.hands[me], pos.strain, pos.leader, pos.played, None, known)


@pytest.mark.parametrize("deck", ["single24", "double32"])
def test_one_world_is_double_dummy(deck):
    rng = random.Random(26 if deck == "single24" else 32)
    for _ in range(6):
        pos = _late(rng, deck, 4)
        view = _view(pos, 0, rng)
        assert view.count()[0] == 1
        am = alphamu_view(view, RACE.on_deck(deck) if deck != "single24" else RACE,
                          objective="tricks", depth=2)
        ref = reference_card_values(pos)
        for c in am.cards:
            ns = ref[c.card]
            assert c.tricks == (ns if pos.to_move.side == Side.NS else len(pos.deal.hands[0]) - ns)


def test_depth_one_is_pimc_and_deeper_never_higher():
    rng = random.Random(7)
    for _ in range(8):
        pos = _late(rng, "single24", 3)
        view = _view(pos, 4, rng)
        pimc = advise_view(view, RACE, objective="tricks", workers=1)
        one = alphamu_view(view, RACE, objective="tricks", depth=1, exact_limit=DEFAULT_EXACT_LIMIT)
        assert {c.card: c.tricks for c in one.cards} == pytest.approx({c.card: c.tricks for c in pimc.cards})
        counts, _ = view.enumerate()
        g1, f1, _ = alphamu_fronts(view, counts, 1)
        g3, f3, _ = alphamu_fronts(view, counts, 3)
        assert g1 == g3
        for a, b in zip(f1, f3):
            assert len(a) == 1                           # no joint choice: one vector
            assert all((v <= a[0]).all() for v in b)     # a joint strategy is one of PIMC's


def test_exact_search_equals_the_best_strategy():
    """Three tricks left, every world, depth past the hand's end: each card's value is the
    best mean over the seat's pure strategies (enumerated)."""
    rng = random.Random(11)
    checked = 0
    for _ in range(200):
        if checked == 2:
            break
        pos = _late(rng, "single24", 3)
        view = _view(pos, 3, rng)
        counts, _ = view.enumerate()
        worlds = [Position(Deal(view.dealt_hands(c), pos.deal.deck), pos.strain, pos.leader, pos.played)
                  for c in counts]
        groups = view_groups(view)
        if max(_best_strategy(worlds, pos.to_move, g[0], count=True)[0] for g in groups) > 32:
            continue                                     # too many strategies to enumerate
        best = [_best_strategy(worlds, pos.to_move, g[0]) for g in groups]
        am = alphamu_view(view, RACE, objective="tricks", depth=3)
        got = {c.card: c.tricks for c in am.cards}
        for g, (mean, _) in zip(groups, best):
            assert got[g[0]] == pytest.approx(mean)
        checked += 1
    assert checked == 2


def test_play_method_alphamu_and_cli():
    from bideuchre.cli.app import app
    r = CliRunner().invoke(app, ["play", "JT.Q.J9.J", "--seat", "N", "-s", "S", "--declarer", "N",
                                 "--bid", "3", "-p", "racehorse", "--method", "alphamu", "--samples", "8",
                                 "--json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.output)
    assert obj["method"] == "alphamu" and obj["depth"] == 2 and obj["deals"] == 8
    r = CliRunner().invoke(app, ["play", "JT.Q.J9.J", "--seat", "N", "-s", "S", "--declarer", "N",
                                 "--bid", "3", "-p", "racehorse", "--method", "alpha"])
    assert r.exit_code == 2 and "--method" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(app, ["play", "JT.Q.J9.J", "--seat", "N", "-s", "S", "--declarer", "N",
                                 "--bid", "3", "-p", "racehorse", "--depth", "2"])
    assert r.exit_code == 2 and "--depth" in r.output
    with pytest.raises(RulesError):
        play_advice("JT.Q.J9.J", "N", "S", declarer="N", bid="3", preset="racehorse", method="pimc", depth=3)


def test_play_match_dd_both_sides_is_the_par_tricks_and_antisymmetric():
    from bideuchre.analysis.par import par
    from bideuchre.batch import generate_records
    from bideuchre.bidding.play_match import play_out, run_play_match
    for rec in generate_records(4, 5, RACE.deck, dealer="rotate"):
        c = par(rec.deal, RACE).contract
        if c is not None:
            assert play_out(rec.deal, RACE, c, "dd", "dd") == c.tricks          # DD both sides
            assert play_out(rec.deal, RACE, c, "dd", "heuristic") >= c.tricks   # a weaker defence
    ab = run_play_match("heuristic", "dd", RACE, 4, 5)
    ba = run_play_match("dd", "heuristic", RACE, 4, 5)
    assert ab.points.edge == pytest.approx(-ba.points.edge)
    assert ab.tricks.edge == pytest.approx(-ba.tricks.edge) and ab.tricks.edge <= 0
    same = run_play_match("heuristic", "heuristic", RACE, 4, 5)
    assert same.points.edge == 0 and same.tricks.edge == 0 and same.points.se == 0
    from bideuchre.bidding.match import MatchError
    with pytest.raises(MatchError):
        run_play_match("heuristic", "oracle", RACE, 2)


def test_hybrid_keeps_the_sure_line_in_the_endgame():
    """E holds three cards in the fusion ending: the hybrid searches all of them jointly (αμ
    at depth 3) and keeps the sure HJ where PIMC takes the guess HA."""
    from bideuchre.analysis.play import advise_method
    _, view = _fusion_view()
    assert view.left == 3
    hy = advise_method(view, RACE, None, None, "hybrid", objective="tricks", workers=1)
    am = alphamu_view(view, RACE, objective="tricks", depth=3)
    assert hy.method == "hybrid" and hy.depth == 3 and hy.stage == "alphamu"
    assert hy.to_json()["stage"] == "alphamu"
    assert str(hy.recommend.card) == "HJ"
    assert {str(c.card): c.tricks for c in hy.cards} == {str(c.card): c.tricks for c in am.cards}
    # with the endgame set at two cards it is PIMC here, and takes the guess
    hy2 = advise_method(view, RACE, None, None, "hybrid", objective="tricks", workers=1, late=2)
    assert hy2.depth == 1 and hy2.stage == "pimc" and str(hy2.recommend.card) == "HA"
    assert "stage" not in am.to_json()


def test_hybrid_is_pimc_before_the_endgame_and_alphamu_in_it():
    """Before the endgame, or where the consistent worlds are more than αμ's exact limit, the
    hybrid is PIMC (its own samples); in the endgame with at most that many worlds, αμ over
    every one of them at depth = the cards held."""
    from bideuchre.analysis.alphamu import DEFAULT_AM_EXACT_LIMIT
    from bideuchre.analysis.play import advise_method
    rng = random.Random(5)
    seen = set()
    for left in (5, 4, 3, 3, 2):
        for hide in (4, 6, 8):
            pos = _late(rng, "single24", left)
            view = _view(pos, hide, rng)
            worlds = view.count()[0]
            endgame = view.left <= 3 and worlds <= DEFAULT_AM_EXACT_LIMIT
            hy = advise_method(view, RACE, None, None, "hybrid", 40, 3, objective="tricks", workers=1)
            if endgame:
                ref = alphamu_view(view, RACE, None, None, worlds, 3, worlds, objective="tricks", depth=view.left)
                assert hy.exact and hy.deals == worlds
            else:
                ref = advise_method(view, RACE, None, None, "pimc", 40, 3, objective="tricks", workers=1)
            seen.add((view.left <= 3, endgame))
            assert hy.depth == (view.left if endgame else 1)
            assert hy.stage == ("alphamu" if endgame else "pimc")
            assert [(c.card, c.tricks) for c in hy.cards] == [(c.card, c.tricks) for c in ref.cards]
    assert seen == {(False, False), (True, False), (True, True)}


def test_hybrid_options_are_checked():
    from bideuchre.cli.app import app
    base = ["play", "JT.Q.J9.J", "--seat", "N", "-s", "S", "--declarer", "N", "--bid", "3", "-p", "racehorse"]
    r = CliRunner().invoke(app, base + ["--method", "hybrid", "--samples", "8", "--json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.output)
    assert obj["method"] == "hybrid" and obj["stage"] == "pimc" and obj["depth"] == 1 and obj["deals"] == 8
    r = CliRunner().invoke(app, base + ["--method", "hybrid", "--samples", "8"])
    flat = lambda out: " ".join(out.split())  # noqa: E731  (the text wraps at the width)
    assert r.exit_code == 0 and "hybrid: pimc here (alphamu only in the endgame, over at most 64 deals)" in flat(r.output)
    # the label follows the stage run, not the depth (αμ at the last card has depth 1)
    # three tricks played by the heuristic, every card shown but E's and S's last diamonds:
    # N holds three cards, six worlds: αμ over all three
    from bideuchre.bidding.play_match import heuristic_card
    pos = Position(Deal.from_pbn("N:JT.Q.J9.J AK.AK.AK. Q9.JT.QT. .9..AKQT9"), "S", "N")
    while len(pos.played) < 12 or pos.to_move != Seat.N:
        pos.play(heuristic_card(pos))
    played = " ".join(str(c) for c in pos.played)
    known = [x for s in (Seat.E, Seat.S, Seat.W) for x in (
        "--known", f"{s.name}=" + " ".join(str(c) for c in pos.hand(s) if str(c) not in ("DA", "DK", "DQ", "DT")))]
    r = CliRunner().invoke(app, base + known + ["--method", "hybrid", "--played", played])
    assert r.exit_code == 0, r.output
    assert "hybrid, alphamu in the endgame: one strategy over them, 3 cards of N's" in flat(r.output)
    r = CliRunner().invoke(app, base + ["--method", "alphamu", "--depth", "1", "--samples", "8"])
    assert r.exit_code == 0 and " · alphamu: one strategy over them, 1 card of N's" in flat(r.output)
    r = CliRunner().invoke(app, base + ["--method", "alphamu", "--depth", "4"])
    assert r.exit_code == 2 and "--depth must be 1 to 3" in flat(r.output)
    r = CliRunner().invoke(app, base + ["--method", "hybrid", "--late", "4"])
    assert r.exit_code == 2 and "--late must be 1 to 3" in flat(r.output)
    r = CliRunner().invoke(app, base + ["--late", "3"])
    assert r.exit_code == 2 and "--late goes with --method hybrid" in r.output
    r = CliRunner().invoke(app, base + ["--method", "hybrid", "--depth", "2"])
    assert r.exit_code == 2 and "--depth" in r.output and "Traceback" not in r.output
    with pytest.raises(RulesError):
        play_advice("JT.Q.J9.J", "N", "S", declarer="N", bid="3", preset="racehorse", method="pimc", late=3)
    with pytest.raises(RulesError):
        play_advice("JT.Q.J9.J", "N", "S", declarer="N", bid="3", preset="racehorse", method="hybrid", late=0)
    with pytest.raises(RulesError, match="--depth"):
        play_advice("JT.Q.J9.J", "N", "S", declarer="N", bid="3", preset="racehorse", method="hybrid", depth=2)
