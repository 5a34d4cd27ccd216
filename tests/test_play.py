"""Tests of single-dummy play (bideuchre.analysis.sampler, bideuchre.analysis.play; issue 13):
exact mode against an enumeration written here with the reference solver, the sampler's
constraints and frequencies, the fully known case against ``explain``, and the commands."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter

import pytest
from typer.testing import CliRunner

from helpers import random_deal, real_deals
from bideuchre.analysis.auction import hand_result
from bideuchre.analysis.explain import analyse_record, card_values
from bideuchre.analysis.play import make_bid, play_advice, review_record
from bideuchre.analysis.sampler import SeatView
from bideuchre.notation import Deal, Position, format_hand
from bideuchre.records import load_record
from bideuchre.rules import (
    DECKS, Card, IllegalPlayError, NotationError, RulesError, Seat, Side, Strain, effective_suit,
    get_preset,
)
from bideuchre.search.reference import reference_card_values

# deck form, preset, lone?  (lone hands: standard's 24 and double32's moonshot, no exchange)
FORMS = [("single24", "racehorse", False), ("single24", "standard", True),
         ("double32", "double32", False), ("double32", "double32", True),
         ("double40", "double48", False), ("double48", "double48", False)]


def _late_position(rng: random.Random, deck: str, lone: bool, left: int) -> Position:
    """A random full deal played with random legal cards until the player to move holds
    ``left`` cards (mid-trick or not) and has a choice (``left`` ≥ 2)."""
    while True:
        d = random_deal(rng, deck)
        lone_seat = Seat(rng.randrange(4)) if lone else None
        pos = Position(d, rng.choice(list(Strain)[:5] if deck != "single24" else list(Strain)),
                       Seat(rng.randrange(4)), lone=lone_seat)
        while sum(pos.hands[pos.to_move]) > left:
            pos.play(rng.choice(pos.legal_cards()))
        # stop at a random point of the trick in progress
        for _ in range(rng.randrange(pos.trick_size)):
            if sum(pos.hands[pos.to_move]) < left:
                break
            pos.play(rng.choice(pos.legal_cards()))
        if len(pos.legal_cards()) > 1:
            return pos


def _consistent_deals(pos: Position, seat: Seat) -> list[tuple]:
    """Every shuffle of the unseen cards consistent with ``seat``'s view, by brute force: the
    unseen cards (each copy a card of its own) dealt every way to the other seats' free
    places, kept when the play so far is legal with those hands (the definition of
    consistent: each seat held the cards it played, and when it did not follow the suit led it
    held none of it then — neither among its cards still unplayed nor among those it played
    later).  Returns per shuffle the remaining hands, a tuple of 4 sorted tuples."""
    deal = pos.deal
    n = deal.deck.hand
    st = int(pos.strain)
    played_by = {s: [] for s in Seat}
    shows = []                  # (seat, suit it did not follow, cards it played later)
    probe = Position(deal, pos.strain, pos.leader, (), pos.lone)
    for c in pos.played:
        p = probe.to_move
        if probe.trick:
            led = effective_suit(probe.trick[0][1], st)
            if effective_suit(c, st) != led:
                shows.append((p, led, len(played_by[p]) + 1))
        played_by[p].append(c)
        probe.play(c)
    pack = Counter({c: deal.deck.copies for c in deal.deck.card_ids})
    pack.subtract(deal.hands[seat])
    for s in Seat:
        if s != seat:
            pack.subtract(played_by[s])
    unseen = sorted(pack.elements())
    others = [s for s in Seat if s != seat]
    room = [n - len(played_by[s]) for s in others]
    own = tuple(sorted(pos.hand(seat)))
    out = []
    idx = range(len(unseen))
    for a in itertools.combinations(idx, room[0]):
        rest = [i for i in idx if i not in a]
        for b in itertools.combinations(rest, room[1]):
            c = [i for i in rest if i not in b]
            rem = [None] * 4
            rem[seat] = own
            for s, part in zip(others, (a, b, c)):
                rem[s] = tuple(sorted(unseen[i] for i in part))
            if all(effective_suit(x, st) != led for s, led, k in shows
                   for x in rem[s] + tuple(played_by[s][k:])):
                out.append(tuple(rem))
    return out


def _rest_position(pos: Position, rem: tuple) -> Position:
    """The position of ``pos`` with the remaining hands ``rem``, as a partial deal from the
    current trick's start (the trick's cards given back to their players); the seat out of a
    lone hand holds as many of its cards as the others (they are out of play)."""
    hands = [list(h) for h in rem]
    for s, c in pos.trick:
        hands[s].append(c)
    k = max(len(h) for i, h in enumerate(hands) if i != pos.out)
    if pos.out is not None:
        hands[pos.out] = hands[pos.out][:k]
    leader = pos.trick[0][0] if pos.trick else pos.to_move
    return Position(Deal(hands, pos.deal.deck), pos.strain, leader, [c for _, c in pos.trick], pos.lone)


def _view_args(pos: Position, seat: Seat) -> dict:
    return dict(hand=format_hand(pos.deal.hands[seat]), seat=seat, strain=pos.strain,
                leader=pos.leader, played=list(pos.played), lone=pos.lone)


def test_exact_mode_matches_enumeration_with_reference_solver():
    rng = random.Random(1313)
    seen = {"mid": 0, "lone": 0, "forms": set(), "deals": 0}
    for deck, preset, lone in FORMS:
        p = get_preset(preset)
        for k in range(7 if deck == "single24" else 4):
            pos = _late_position(rng, deck, lone, left=rng.choice([2, 2, 3]) if not lone else 2)
            seat = pos.to_move
            declarer = pos.lone if lone else Seat(rng.randrange(4))
            bid = make_bid(p.on_deck(DECKS[deck]),
                           (p.lone_bids[-1].name if lone else str(rng.randrange(p.min_bid, 5))),
                           pos.strain, pos.lone)
            deals = _consistent_deals(pos, seat)
            assert deals
            # per legal card of the seat: tricks of its side, made, points, over every shuffle
            n = DECKS[deck].hand
            want: dict = {}
            for rem in deals:
                q = _rest_position(pos, rem)
                base = pos.tricks_won[Side.NS]
                for card, ns in reference_card_values(q).items():
                    ns += base
                    mine = ns if seat % 2 == 0 else n - ns
                    dside = ns if declarer % 2 == 0 else n - ns
                    decl, defs = hand_result(p.on_deck(DECKS[deck]), bid, dside)
                    pts = (decl - defs) if declarer % 2 == seat % 2 else (defs - decl)
                    want.setdefault(card, []).append((mine, dside >= bid.needs(n), pts))
            adv = play_advice(**_view_args(pos, seat), declarer=declarer, bid=bid, preset=preset,
                              deck=deck, objective="tricks")
            assert adv.exact and adv.deals == adv.consistent
            assert adv.consistent == len(set(deals))
            assert adv.weights.sum() == len(deals)
            got = {c: ca for ca in adv.cards for c in ca.cards}
            assert set(got) == set(want)
            for card, rows in want.items():
                ca = got[card]
                assert ca.tricks == pytest.approx(sum(r[0] for r in rows) / len(rows), abs=1e-9)
                assert ca.p_make == pytest.approx(sum(r[1] for r in rows) / len(rows), abs=1e-9)
                assert ca.ev == pytest.approx(sum(r[2] for r in rows) / len(rows), abs=1e-9)
                assert ca.se == 0.0
            best = max(sum(r[0] for r in rows) for rows in want.values())
            assert sum(r[0] for r in want[adv.recommend.card]) == best
            seen["mid"] += bool(pos.trick)
            seen["lone"] += lone
            seen["forms"].add(deck)
            seen["deals"] += len(deals)
    assert seen["mid"] >= 8 and seen["lone"] >= 8 and len(seen["forms"]) == 4


def test_every_sample_respects_hands_counts_and_voids():
    rng = random.Random(7)
    checked = 0
    for deck, preset, lone in FORMS:
        for _ in range(3):
            pos = _late_position(rng, deck, lone, left=rng.randrange(2, DECKS[deck].hand))
            seat = pos.to_move
            view = SeatView(deck, seat, pos.deal.hands[seat], pos.strain, pos.leader,
                            pos.played, pos.lone)
            for i in range(60):
                rem = view.sample(5, i)
                # the seat's own cards, the counts each other seat still holds
                for s in Seat:
                    assert sum(rem[s]) == sum(pos.hands[s]) or (pos.out == s and sum(rem[s]) == DECKS[deck].hand)
                assert list(rem[seat]) == pos.hands[seat]
                d = Deal(view.dealt_hands(rem), deck)        # every copy once: Deal checks
                q = Position(d, pos.strain, pos.leader, pos.played, pos.lone)   # legal play
                for s, suits in view.voids.items():
                    for c in range(24):
                        if rem[s, c]:
                            assert int(effective_suit(c, pos.strain)) not in suits
                assert q.to_move == seat
                checked += 1
    assert checked == len(FORMS) * 3 * 60


# Hearts trump; W holds no trump (no heart, and not the left bower DJ), E holds the left bower
# and no other diamond.  Trick 1: N leads H9, E HT, S HA, W shows out of trumps (S9).  Trick 2:
# S leads DA, W DT, N shows out of diamonds (C9), E too (CA): E keeps the left bower, a trump.
LB_DEAL = "N:KA.J9..T9 Q.QT.J.AK .AK.AKQ9. JT9..T.QJ"
LB_PLAYED = "H9 HT HA S9 DA DT C9 CA"


def test_left_bower_belongs_to_the_trump_suit_in_the_voids():
    deal = Deal.from_pbn(LB_DEAL)
    Position(deal, "H", "N", LB_PLAYED)                      # the play is legal
    view = SeatView("single24", "S", deal.hands[Seat.S], "H", "N", LB_PLAYED)
    assert view.voids[Seat.W] == {int(Strain.H)}             # out of trumps
    assert view.voids[Seat.E] == {int(Strain.D)} == view.voids[Seat.N]
    where = Counter()
    for i in range(400):
        rem = view.sample(3, i)
        where.update(s.name for s in Seat if rem[s, Card.DJ])
    assert where["W"] == 0                                   # void in trumps: no left bower
    assert where["E"] > 50 and where["N"] > 50               # void in diamonds: may hold it
    counts, weights = view.enumerate()
    assert counts[:, Seat.W, Card.DJ].sum() == 0 and counts[:, Seat.E, Card.DJ].sum() > 0
    assert counts[:, Seat.W, Card.HJ].sum() == 0             # nor the right bower


def _chi2_sf(x: float, df: int) -> float:
    """Survival function of the chi-square distribution (integer df), closed forms."""
    if df % 2 == 0:
        return math.exp(-x / 2) * sum((x / 2) ** i / math.factorial(i) for i in range(df // 2))
    s = math.erfc(math.sqrt(x / 2))
    term = math.sqrt(x / 2) * math.exp(-x / 2) / math.sqrt(math.pi) * 2
    for i in range(1, (df + 1) // 2):
        s += term
        term *= x / (2 * i + 1)
    return s


def test_placement_frequencies_chi_square():
    """Sampled placements of each unseen card against the exact frequencies of the brute-force
    enumeration above, on positions with voids (a single and a double deck)."""
    rng = random.Random(2024)
    done = 0
    attempts = 0
    while done < 4 and attempts < 400:
        attempts += 1
        deck = "single24" if done < 2 else "double32"
        pos = _late_position(rng, deck, False, left=3 if deck == "single24" else 3)
        seat = pos.to_move
        view = SeatView(deck, seat, pos.deal.hands[seat], pos.strain, pos.leader, pos.played)
        if not any(view.voids.values()):
            continue
        deals = _consistent_deals(pos, seat)
        if len(deals) < 20:
            continue
        others = [s for s in Seat if s != seat]
        # exact: per unseen card, the distribution of its copies over the other seats
        rem_exact = [[Counter(h) for h in rem] for rem in deals]
        cards = [c for c in range(24) if any(h[s][c] for h in rem_exact for s in others)]
        N = 3000
        samples = view.samples(99, N)
        worst = 1.0
        for c in cards:
            key = lambda h: tuple(int(h[s][c]) for s in others)  # noqa: E731
            exact = Counter(key(h) for h in rem_exact)
            got = Counter(tuple(int(x[s, c]) for s in others) for x in samples)
            assert set(got) <= set(exact)          # never a placement the view rules out
            if len(exact) < 2:
                continue
            stat = 0.0
            for k, m in exact.items():
                e = N * m / len(deals)
                stat += (got.get(k, 0) - e) ** 2 / e
            worst = min(worst, _chi2_sf(stat, len(exact) - 1))
        assert worst > 1e-4, (pos, worst)
        done += 1
    assert done == 4


def test_with_every_hand_known_the_advice_is_explains_dd_values():
    rng = random.Random(99)
    n_lone = 0
    for deck, preset, lone in FORMS:
        for _ in range(6):
            pos = _late_position(rng, deck, lone, left=rng.randrange(2, DECKS[deck].hand + 1))
            seat = pos.to_move
            known = {s: list(pos.deal.hands[s]) for s in Seat if s != seat}
            adv = play_advice(**_view_args(pos, seat), known=known, preset=preset, deck=deck,
                              objective="tricks")
            assert adv.exact and adv.deals == 1 and adv.consistent == 1
            dd = card_values(pos)
            assert [c.cards for c in sorted(adv.cards, key=lambda c: c.card)] == \
                [v.cards for v in sorted(dd, key=lambda v: v.card)]
            for v in dd:
                ca = next(c for c in adv.cards if c.card == v.card)
                assert ca.tricks == v.tricks[seat.side]
            assert adv.recommend.tricks == max(v.tricks[seat.side] for v in dd)
            n_lone += lone
    assert n_lone == 12


def test_sampled_advice_does_not_depend_on_workers_and_is_reproducible():
    deal = Deal.from_pbn("N:JT.Q.J9.J Q.JT..KQT AK9.K.AQ. .A9.KT.A9")
    args = dict(hand=format_hand(deal.hands[Seat.S]), seat="S", strain="S", declarer="S", bid="4",
                preset="racehorse", samples=150, seed=4)
    one = play_advice(**args, workers=1).to_json()
    two = play_advice(**args, workers=2).to_json()
    assert one == two and not one["exact"] and one["deals"] == 150
    assert one["consistent_deals"] == math.factorial(18) // math.factorial(6) ** 3
    other = play_advice(**{**args, "seed": 5}).to_json()
    assert other["cards"] != one["cards"]
    for c in one["cards"]:
        assert c["se"] > 0 and 0 <= c["p_make"] <= 1


def test_objectives_and_scoring():
    # single24 racehorse, N declares 5 hearts; E to lead at trick 4 (exact)
    deal = Deal.from_pbn("N:JT.Q.J9.J Q.JT..KQT AK9.K.AQ. .A9.KT.A9")
    pos = Position(deal, "H", "N")
    rng = random.Random(3)
    while sum(pos.hands[pos.to_move]) > 3 or len(pos.legal_cards()) < 2:
        pos.play(rng.choice(pos.legal_cards()))
    seat = pos.to_move
    res = {o: play_advice(**_view_args(pos, seat), declarer="N", bid="5", preset="racehorse",
                          objective=o) for o in ("tricks", "make", "score")}
    for o, adv in res.items():
        assert adv.exact
        key = {"tricks": lambda c: c.tricks, "score": lambda c: c.ev,
               "make": (lambda c: c.p_make) if seat.side == Side.NS else (lambda c: -c.p_make)}[o]
        assert key(adv.recommend) == max(key(c) for c in adv.cards)
    # racehorse: made → tricks each side; set → −5 for the declarers (RULES.md §2)
    adv = res["score"]
    for c in adv.cards:
        assert -11 <= c.ev <= 6


def test_bad_input_is_one_clear_error():
    hand = "AK9.K.AQ."          # S: SA SK S9 HK DA DQ
    with pytest.raises(RulesError, match="N's turn"):
        play_advice(hand, "S", "H", leader="W", played="SQ")
    with pytest.raises(IllegalPlayError, match="not in HAND"):
        play_advice(hand, "S", "H", leader="E", played="SQ ST")
    with pytest.raises(IllegalPlayError, match="accounted for"):
        play_advice(hand, "S", "H", leader="E", played="SA")
    with pytest.raises(NotationError, match="HAND holds"):
        play_advice("AK9.K.A.", "S", "H", leader="S")
    with pytest.raises(RulesError, match="lone"):
        play_advice(hand, "S", "H", leader="S", declarer="S", bid="24")
    with pytest.raises(RulesError, match="sits out"):
        play_advice(hand, "S", "H", leader="E", lone="N", bid="24")
    # N showed out of spades at trick 1 and cannot play one at trick 2
    with pytest.raises(IllegalPlayError, match="trick 2: N cannot play ST: N showed out of S"):
        SeatView("single24", "S", hand, "H", "W", "SJ CA SQ S9 D9 DA DT ST", need_turn=False)


runner = CliRunner()


def _app():
    from bideuchre.cli.app import app
    return app


def test_play_command_json_keys_and_text():
    deal = Deal.from_pbn("N:JT.Q.J9.J Q.JT..KQT AK9.K.AQ. .A9.KT.A9")
    hand = format_hand(deal.hands[Seat.S])
    r = runner.invoke(_app(), ["play", hand, "--seat", "S", "--strain", "S", "--declarer", "S",
                               "--bid", "4", "--preset", "racehorse", "--samples", "100", "--json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.output)
    for k in ("seat", "exact", "deals", "seed", "recommend", "cards"):
        assert k in obj
    assert obj["seat"] == "S" and obj["exact"] is False and obj["deals"] == 100 and obj["seed"] == 1
    for c in obj["cards"]:
        assert {"card", "tricks", "se", "p_make", "ev", "equivalent"} <= set(c)
    assert obj["recommend"] == obj["cards"][0]["card"]
    # after three tricks: exact, every one of the consistent deals
    pos = Position(deal, "S", "S")
    rng = random.Random(5)
    while len(pos.played) < 12 or len(pos.legal_cards()) < 2:
        pos.play(rng.choice(pos.legal_cards()))
    p = pos.to_move
    r = runner.invoke(_app(), ["play", format_hand(deal.hands[p]), "--seat", p.name, "--strain", "S",
                               "--declarer", "S", "--bid", "4", "--preset", "racehorse", "--played",
                               " ".join(str(c) for c in pos.played), "--json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.output)
    assert obj["exact"] is True and obj["deals"] <= 1680 and all(c["se"] == 0 for c in obj["cards"])
    r = runner.invoke(_app(), ["play", hand, "--seat", "S", "--strain", "S", "--declarer", "S",
                               "--bid", "4", "--preset", "racehorse", "--samples", "50"])
    assert r.exit_code == 0 and "play " in r.output and "sampled: 50" in r.output


def test_play_command_bad_input_exit_2():
    r = runner.invoke(_app(), ["play", "AK9.K.AQ.", "--seat", "S", "--strain", "H", "--leader", "W",
                               "--played", "SQ"])
    assert r.exit_code == 2 and "N's turn" in r.output and "Traceback" not in r.output
    r = runner.invoke(_app(), ["play", "AK9.K.AQ.", "--seat", "S", "--strain", "H", "--leader", "S",
                               "--known", "E"])
    assert r.exit_code == 2 and "--known" in r.output


def test_samples_and_exact_limit_are_capped_by_deck_form(tmp_path):
    """--samples 100000000 was a MemoryError and --exact-limit 10**12 enumerated all 17 million
    consistent deals of an opening lead: each is refused at once (one line, exit 2) above the
    deck form's cap, in the library and in play and replay --single-dummy."""
    from bideuchre.analysis.play import check_play_deals, max_play_deals
    assert [max_play_deals(d) for d in ("single24", "double32", "double40", "double48")] == \
        [100_000, 40_000, 20_000, 20_000]
    check_play_deals("single24", 100_000, 100_000)           # the caps themselves are allowed
    check_play_deals("double48", 20_000, 0)
    for deck, samples, limit in (("single24", 100_001, 10), ("double32", None, 40_001),
                                 ("double48", 20_001, 10), ("single24", 0, 10), ("single24", 5, -1)):
        with pytest.raises(RulesError):
            check_play_deals(deck, samples, limit)
    with pytest.raises(RulesError, match=r"--samples 100,000,000: must be 1 to 100,000 on single24"):
        play_advice("AK9.K.AQ.", "S", "H", "S", samples=100_000_000)
    with pytest.raises(RulesError, match=r"--exact-limit 1,000,000,000,000: must be 0 to 100,000"):
        play_advice("AK9.K.AQ.", "S", "H", "S", exact_limit=10**12)
    for extra in (["--samples", "100000000"], ["--exact-limit", str(10**12)]):
        r = runner.invoke(_app(), ["play", "AK9.K.AQ.", "--seat", "S", "--strain", "H", "--leader", "S", *extra])
        assert r.exit_code == 2, r.output
        assert [ln for ln in r.output.splitlines() if ln.strip()] == [
            f"error: {extra[0]} {int(extra[1]):,}: must be {0 if 'exact' in extra[0] else 1} to 100,000 "
            "on single24 (the most deals one single-dummy advice evaluates)"]
    path = _record_file(tmp_path)
    r = runner.invoke(_app(), ["replay", path, "--single-dummy", "--samples", "100000000"])
    assert r.exit_code == 2 and "--samples 100,000,000: must be 1 to 100,000" in r.output, r.output


def _record_file(tmp_path) -> str:
    """A complete single24 hand (the first real deal, racehorse, N declares 4 hearts) played
    with random legal cards (so with DD mistakes), in our record format."""
    deal = Deal.from_pbn(real_deals(1)[0])
    pos = Position(deal, "H", "N")
    rng = random.Random(11)
    tricks, cur = [], []
    while not pos.is_over:
        c = rng.choice(pos.legal_cards())
        cur.append(str(c))
        if pos.play(c) is not None:
            tricks.append(" ".join(cur))
            cur = []
    text = ('[Event "random play"]\n[Deck "single24"]\n[Preset "racehorse"]\n[Dealer "W"]\n'
            f'[Deal "{deal.pbn()}"]\n[Declarer "N"]\n[Strain "H"]\n[Bid "4"]\n[Play "N"]\n'
            + "\n".join(tricks) + "\n")
    path = tmp_path / "random_play.txt"
    path.write_text(text)
    return str(path)


def test_replay_single_dummy_judges_every_card(tmp_path):
    path = _record_file(tmp_path)
    rec = load_record(path, 1)
    an = analyse_record(rec)
    assert an.complete and sum(an.lost.values()) > 0
    rev = review_record(rec, an, samples=60, seed=2)
    assert len(rev.steps) == len(an.steps) == 24
    verdicts = Counter(sd.verdict for sd in rev.steps)
    assert verdicts["mistake"] > 0
    for st, sd in zip(an.steps, rev.steps):
        assert sd.seat == st.seat and sd.card == st.card and sd.loss >= 0 and sd.best
        if sd.verdict == "mistake":
            assert sd.loss > 0 and (sd.exact or sd.loss > 2 * sd.se)
        elif st.cost:
            assert sd.verdict == "unlucky"
        else:
            assert sd.verdict is None
        if sd.loss == 0:
            assert st.card in sd.best
    for seat, row in rev.summary.items():
        mine = [sd for sd in rev.steps if sd.seat == seat]
        assert row["mistakes"] == sum(sd.verdict == "mistake" for sd in mine)
        assert row["sd_lost"] == pytest.approx(sum(sd.loss for sd in mine), abs=1e-3)
    # each step's judgement is play_advice's from the player's view at that moment
    for k in [i for i, sd in enumerate(rev.steps) if sd.deals][:4]:
        st = an.steps[k]
        adv = play_advice(format_hand(rec.deal.hands[st.seat]), st.seat, rec.strain, rec.leader,
                          played=rec.play[:k], samples=60, seed=2, objective="tricks",
                          preset="racehorse")
        mine = next(c for c in adv.cards if st.card in c.cards)
        assert rev.steps[k].loss == pytest.approx(adv.recommend.tricks - mine.tricks)
        assert rev.steps[k].exact == adv.exact and rev.steps[k].deals == adv.deals
    r = runner.invoke(_app(), ["replay", path, "--single-dummy", "--samples", "60", "--seed", "2", "--json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.output)
    assert [s["sd"]["loss"] for s in obj["steps"]] == [round(sd.loss, 4) for sd in rev.steps]
    assert all({"best", "loss"} <= set(s["sd"]) for s in obj["steps"])
    assert set(obj["sd_summary"]["summary"]) == {"N", "E", "S", "W"}
    r = runner.invoke(_app(), ["replay", path, "--single-dummy", "--samples", "60", "--seed", "2"])
    assert r.exit_code == 0 and "mistake" in r.output and "single dummy judges" in r.output


def _late_views():
    """Views late in random hands (single24 and double32, one with a lone hand): few enough
    unseen cards to place every copy every way by brute force."""
    from bideuchre.batch import generate_records
    from bideuchre.bidding.play_match import heuristic_card
    out = []
    for deck, n, left in (("single24", 6, 9), ("double32", 4, 9)):
        for k, rec in enumerate(generate_records(n, 21, deck)):
            deal = rec.deal
            st = Strain(k % 4)
            lone = Seat.E if (deck == "single24" and k == 5) else None
            leader = Seat(k % 4) if lone is None else lone
            pos = Position(deal, st, leader, (), lone)
            total = len(deal.hands[0]) * (3 if lone is not None else 4)
            while total - len(pos.played) > left:
                pos.play(heuristic_card(pos))
            seat = pos.to_move
            out.append(SeatView(deal.deck, seat, format_hand(deal.hands[seat]), st, leader,
                                list(pos.played), lone))
    return out


def test_enumeration_is_every_placement_with_its_shuffle_weight():
    """SeatView.enumerate against brute force: every copy of every unseen card put in every
    hidden seat (the room and the voids shown respected); a deal's weight is the number of
    copy placements that give it (2 where the two copies of a double-deck card part)."""
    from bideuchre.rules import effective_suit
    for view in _late_views():
        counts, weights = view.enumerate()
        copies = [c for c in range(24) for _ in range(int(view.pool[c]))]
        room = list(view.room)
        want: Counter = Counter()
        for seats in itertools.product(range(len(view.hidden)), repeat=len(copies)):
            if [seats.count(a) for a in range(len(room))] != room:
                continue
            if any(int(effective_suit(c, int(view.strain))) in view.voids[view.hidden[a]]
                   for c, a in zip(copies, seats)):
                continue
            d = view.base.copy()
            for c, a in zip(copies, seats):
                d[view.hidden[a], c] += 1
            want[d.tobytes()] += 1
        got = {counts[i].tobytes(): int(weights[i]) for i in range(len(weights))}
        assert len(got) == len(weights) == view.count()[0]        # no deal twice
        assert got == dict(want)


def test_samples_are_the_deals_sample_draws_one_by_one():
    for view in _late_views()[:6] + _late_views()[-2:]:
        block = view.samples(3, 40, 11)
        for k in range(40):
            assert (block[k] == view.sample(3, 11 + k)).all()
