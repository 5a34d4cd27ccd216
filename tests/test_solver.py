"""The Cython solver against the plain reference solver (solver/reference.py)."""

import random

import numpy as np
import pytest

from bideuchre.search import _search
from bideuchre.notation import Deal, Position
from bideuchre.search.reference import reference_tricks
from bideuchre.rules import PRESETS, Seat, Side, Strain
from bideuchre.search.solve import _position_args, dd_table, first_leader, get_solver, solve_position

from helpers import random_deal, random_position, real_deals

GROUPS = 15  # 15 groups of 20 random single24 positions = 300


def _check(pos, narrow=False):
    fast = solve_position(pos)
    # narrow: the reference's first alpha-beta window is centred on the fast answer (still an
    # exact search: a value outside the window is searched again with the full window)
    ref = reference_tricks(pos, fast if narrow else None)
    assert fast == ref, repr(pos)
    assert fast[Side.NS] + fast[Side.EW] == len(pos.deal.hands[0])
    return fast


@pytest.mark.parametrize("group", range(GROUPS))
def test_random_single24_positions(group):
    rng = random.Random(1000 + group)
    mid_trick = 0
    for _ in range(20):
        pos = random_position(rng, "single24")
        mid_trick += bool(pos.trick)
        _check(pos)


def test_random_positions_cover_strains_leaders_and_mid_trick():
    seen = set()
    mid = 0
    for group in range(GROUPS):
        rng = random.Random(1000 + group)
        for _ in range(20):
            pos = random_position(rng, "single24")
            seen.add((pos.strain, pos.leader))
            mid += bool(pos.trick)
    assert len(seen) == 24 and mid >= 30


@pytest.mark.parametrize("group", range(5))
def test_double32_deals(group):
    rng = random.Random(2000 + group)
    strains = PRESETS["double32"].strains
    for _ in range(10):
        deal = random_deal(rng, "double32")
        _check(Position(deal, rng.choice(strains), Seat(rng.randrange(4))), narrow=True)


@pytest.mark.parametrize("deck", ["double40", "double48"])
def test_partial_double_deck_positions(deck):
    rng = random.Random(3000 + len(deck))
    for _ in range(25):
        pos = random_position(rng, deck, cards=rng.choice([4, 5, 6]), max_played=9)
        _check(pos)


def test_real_deals_every_strain_and_leader():
    for i, line in enumerate(real_deals(48)):
        deal = Deal.from_pbn(line)
        _check(Position(deal, Strain(i % 6), Seat((i // 6) % 4)))


def test_real_deal_full_tables_match_reference():
    for line, preset, dealer in [(real_deals(1)[0], "racehorse", Seat.N),
                                 (real_deals(2)[1], "standard", Seat.W)]:
        deal = Deal.from_pbn(line)
        table = dd_table(deal, preset, dealer)
        p = PRESETS[preset]
        for seat in Seat:
            for strain in p.strains:
                pos = Position(deal, strain, first_leader(p, seat, dealer))
                ref = reference_tricks(pos)
                assert table.tricks[seat][strain] == ref[seat.side], (seat, strain)


def test_trickster_single24_deal():
    # basic_play.ptn, first record: "N:AJ9.K.AT. K.T.J9.AK T.AJ..JT9 Q.Q9.KQ.Q", clubs, E leads
    deal = Deal.from_pbn("N:AJ9.K.AT. K.T.J9.AK T.AJ..JT9 Q.Q9.KQ.Q")
    _check(Position(deal, Strain.C, Seat.E))
    _check(Position(deal, Strain.C, Seat.E, played=["D9", "C9"]))


def test_standard_table_uses_left_of_dealer_lead():
    deal = Deal.from_pbn(real_deals(3)[2])
    for dealer in Seat:
        table = dd_table(deal, "standard", dealer)
        leader = Seat((dealer + 1) % 4)
        for strain in PRESETS["standard"].strains:
            ns = solve_position(Position(deal, strain, leader))[Side.NS]
            assert table.tricks[Seat.N][strain] == table.tricks[Seat.S][strain] == ns
            assert table.tricks[Seat.E][strain] == table.tricks[Seat.W][strain] == 6 - ns


def test_tables_are_independent_of_tt_history():
    # the TT persists between calls; a fresh solver must give the same tables
    lines = real_deals(30)
    counts = np.array([Deal.from_pbn(l).counts() for l in lines], dtype=np.uint8)
    leaders = np.array([[0, 1, 2, 3]] * len(lines), dtype=np.intc)
    strains = np.arange(6, dtype=np.intc)
    warm = _search.solve_tables(counts, strains, leaders, -1, 16)
    for i in (0, 13, 29):
        cold = _search.solve_tables(counts[i:i + 1], strains, leaders[i:i + 1], -1, 10)
        assert (cold[0] == warm[i]).all()


def test_exact_table_setting_changes_no_result():
    # exact_above only moves work between the two tables: whole tables of every deck form, and
    # lone and mid-trick positions (against the reference on the single deck), are the same
    rng = random.Random(8080)
    strains = np.arange(6, dtype=np.intc)
    for deck, n in (("single24", 8), ("double32", 4), ("double40", 2)):
        counts = np.stack([np.array(random_deal(rng, deck).counts(), dtype=np.uint8)
                           for _ in range(n)])
        leaders = np.tile(np.array([0, 1, 2, 3], dtype=np.intc), (n, 1))
        tables = [_search.solve_tables(counts, strains, leaders, -1, 14, x) for x in (0, 3, 12)]
        assert (tables[0] == tables[1]).all() and (tables[0] == tables[2]).all()
    for deck in ("single24", "double32"):
        for _ in range(12):
            pos = random_position(rng, deck, cards=5 if deck == "double32" else None,
                                  lone=rng.random() < 0.4)
            counts, strain, leader, out, trick = _position_args(pos)
            got = {x: _search.Solver(12, x).solve(counts, strain, leader, out, trick)
                   for x in (0, 2, 12)}
            assert got[0] == got[2] == got[12]
            if deck == "single24":
                assert got[0] + pos.tricks_won[Side.NS] == reference_tricks(pos)[Side.NS]
    s = _search.Solver(10)
    assert s.exact_above == 0
    s.exact_above = 8
    assert s.exact_above == 8
    with pytest.raises(ValueError, match="exact_above"):
        s.exact_above = -1
    with pytest.raises(ValueError, match="exact_above"):
        _search.Solver(10, 13)


def test_core_rejects_bad_arguments():
    s = get_solver("single24")
    counts = np.zeros((4, 24), dtype=np.uint8)
    with pytest.raises(ValueError):
        s.solve(counts, 6, 0)
    with pytest.raises(ValueError):
        s.solve(counts, 0, 1, out=1)
    with pytest.raises(ValueError):
        s.solve(counts, 0, 0, -1, (1, 2, 3, 4))
    counts[0, 5] = 1                     # N holds card 5 only: card 6 is not N's
    with pytest.raises(ValueError, match="not held"):
        s.values(counts, 0, 0, -1, (), [6], 0)
    with pytest.raises(ValueError, match="out of range"):
        s.values(counts, 0, 0, -1, (), [24], 0)
    with pytest.raises(ValueError, match="not held"):   # also the card last_keeps skips
        s.values(counts, 0, 0, -1, (), [5, 6], 0, True)


def test_reference_guess_does_not_change_the_answer():
    rng = random.Random(77)
    for _ in range(20):
        pos = random_position(rng, "single24")
        exact = reference_tricks(pos)
        for delta in (-2, 0, 3):
            guess = {Side.NS: exact[Side.NS] + delta, Side.EW: exact[Side.EW] - delta}
            assert reference_tricks(pos, guess) == exact


def test_can_take_and_window_tables_match_exact_tables():
    # the yes/no batch entry and the windowed table against the exact counts, every cell
    rng = random.Random(4321)
    for deck, n in (("single24", 12), ("double32", 6)):
        deals = [random_deal(rng, deck) for _ in range(n)]
        counts = np.stack([np.array(d.counts(), dtype=np.uint8) for d in deals])
        strains = np.array([0, 2, 4, 5], dtype=np.intc)
        leaders = np.tile(np.array([0, 1, 2, 3], dtype=np.intc), (n, 1))
        leaders[1, 3] = -1
        exact = _search.solve_tables(counts, strains, leaders, -1, 14)
        tricks = len(deals[0].hands[0])
        shape = exact.shape
        targets = np.array([rng.randint(-1, tricks + 1) for _ in range(exact.size)],
                           dtype=np.intc).reshape(shape)
        yes = _search.can_take_tables(counts, strains, leaders, targets)
        skip = (targets < 0) | (leaders[:, :, None] < 0)
        assert (yes[skip] == -1).all()
        assert (yes[~skip] == (exact >= targets)[~skip]).all()
        assert yes[~skip].min() == 0 and yes[~skip].max() == 1
        lo = np.array([rng.randint(0, tricks) for _ in range(exact.size)], dtype=np.intc).reshape(shape)
        hi = np.ascontiguousarray(lo + rng.randint(0, 2), dtype=np.intc)
        res = np.full(shape, -1, dtype=np.intc)
        _search.Solver(14).window_tables(counts, strains, leaders, -1, lo, hi, res)
        ok = leaders[:, :, None].repeat(len(strains), 2) >= 0
        assert (res[ok] == np.clip(exact, lo, hi)[ok]).all()
    with pytest.raises(ValueError):
        _search.can_take_tables(counts, strains, leaders, targets[:, :2])


def test_partition_tt_serves_positions_differing_in_small_cards():
    # Two spade-trump positions that differ only in who holds two low hearts (N's 9 and E's 10
    # swapped): the bound stored for the first holds for the second (same suit lengths, same
    # owners of the relevant ranks), so the second is answered from the table at its root --
    # each of MTD(f)'s null-window searches in one node (the probe prefers the most general of
    # the deciding bounds, whose value may be less extreme: 2 or 3 searches) -- while a fresh
    # solver has to search it (no sure-trick bound settles it at the root: the positions of
    # this test before lead_wins and the entry to partner now are).  Both agree with the
    # reference.
    a = Position(Deal.from_pbn("N:.9.9.Q9 9.T.K.J A.AKJ.. K..AT.K"), Strain.S, Seat.N)
    b = Position(Deal.from_pbn("N:.T.9.Q9 9.9.K.J A.AKJ.. K..AT.K"), Strain.S, Seat.N)
    s = _search.Solver(12)
    va = s.solve(np.array(a.hands, dtype=np.uint8), int(a.strain), int(a.leader))
    s.reset_nodes()
    counts_b = np.array(b.hands, dtype=np.uint8)
    vb = s.solve(counts_b, int(b.strain), int(b.leader))
    shared = s.nodes
    fresh = _search.Solver(12)
    assert fresh.solve(counts_b, int(b.strain), int(b.leader)) == vb
    assert shared <= 3 < 20 < fresh.nodes
    assert va == reference_tricks(a)[Side.NS] and vb == reference_tricks(b)[Side.NS] == 1


@pytest.mark.parametrize("pbn,strain", [
    # N leads a spade to S's ace (strictly above every other spade), S cashes the AK of diamonds
    ("N:9.T9.. K.A.Q. A..AK. Q.K.J.", Strain.NT),
    # N leads a heart, S (void) ruffs with the 9 of trumps (nobody can overruff), cashes AK
    ("N:.T9.9. .A.Q.Q 9..AK. .K.J.K", Strain.S),
])
def test_entry_to_partner_settles_the_root(pbn, strain):
    # The leader holds no sure trick, so the plain quick tricks settle nothing; the entry to
    # partner and partner's cashing (entry_bound) give all three tricks at the root: each of
    # MTD(f)'s null-window searches is one node.  Agrees with the reference.
    pos = Position(Deal.from_pbn(pbn), strain, Seat.N)
    s = _search.Solver(12)
    v = s.solve(np.array(pos.hands, dtype=np.uint8), int(pos.strain), int(pos.leader))
    assert v == reference_tricks(pos)[Side.NS] == 3
    assert s.nodes <= 3


@pytest.mark.parametrize("deck", ["single24", "double32", "double40", "double48"])
def test_second_seat_positions_match_reference(deck):
    # Positions with the second seat to play (one card in the trick), where the second seat's
    # side needing one trick that surely wins this one ends the search (second_wins): top
    # cards, equal copies (the first played wins), ruffs and overruffs; some lone (tricks of
    # three: the cut is not used there).  Every result against the reference solver.
    rng = random.Random(2024 + len(deck))
    s = _search.Solver(12)
    for i in range(40):
        d = random_deal(rng, deck, cards=3)
        pos = Position(d, rng.choice(list(Strain)[:5]), Seat(rng.randrange(4)),
                       lone=Seat(rng.randrange(4)) if i % 5 == 0 else None)
        for _ in range(1 + pos.trick_size * rng.randrange(2)):
            pos.play(rng.choice(pos.legal_cards()))
        counts, strain, leader, out, trick = _position_args(pos)
        v = s.solve(counts, strain, leader, out, trick)
        assert v + pos.tricks_won[Side.NS] == reference_tricks(pos)[Side.NS]


def test_second_seat_sure_trick_settles_the_search():
    # N leads the heart 9 in NT; E holds the heart ace, so E-W surely win this trick and N-S
    # cannot take both tricks: the null-window search "N-S take 2?" ends at E's node, the
    # root (second_wins; without it E, S and W would each play a card first)
    pos = Position(Deal.from_pbn("N:.9.A. .A.9. .T..9 .K.T."), Strain.NT, Seat.N, ["H9"])
    counts, strain, leader, out, trick = _position_args(pos)
    s = _search.Solver(12)
    assert s.can_take(counts, strain, leader, out, trick, 2) is False
    assert s.nodes == 1
    assert s.solve(counts, strain, leader, out, trick) == reference_tricks(pos)[Side.NS] == 1


def test_partition_table_keeps_many_bounds_per_suit_length_pattern():
    # A bucket holds the bounds of one suit-length pattern (seat, suit lengths, leader); a
    # whole double32 table stores bounds for many positions of one pattern that differ in who
    # holds the relevant ranks, and the table keeps several of them (a bug once kept only the
    # first slot of a bucket).  Every bucket stays within its 64 slots, and the table's answers
    # match a fresh solver's.
    from bideuchre.search.solve import dd_table, get_solver
    rng = random.Random(5)
    deal = random_deal(rng, "double32")
    solver = get_solver(deal.deck)
    solver.clear()
    table = dd_table(deal, "double32")
    used, total, most = solver.partition_load()
    assert 0 < used <= total and 1 < most <= 64 and total > used
    solver.clear()
    assert solver.partition_load() == (0, 0, 0)
    assert dd_table(deal, "double32").array().tolist() == table.array().tolist()
