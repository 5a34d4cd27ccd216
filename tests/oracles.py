"""Test oracles written from RULES.md §2 independently of the library: an own table of each
preset's bidding rules and scoring (:data:`RULES`), the actions allowed at each turn, a plain
recursive walk over every complete auction (:func:`brute_force`), and lone values computed with
``solve_position`` alone (:func:`lone_values`; the ``standard`` 12 by enumerating every exchange,
the ``double32`` exchange loners from ``bideuchre.analysis.lone``).  Used by test_par.py and
test_advice.py."""

from __future__ import annotations

from bideuchre.analysis.lone import lone_table
from bideuchre.notation import Deal, Position
from bideuchre.rules import PRESETS, Seat, Side, Strain
from bideuchre.search.solve import solve_position


# ---------------------------------------------------------------------------------------------
# An independent reading of RULES.md §2 (test only)

SUITS = ["S", "H", "D", "C"]
RULES = {
    #            numbers       strain named with   lone (name, value)                          dealer must  dealer equal  set penalty  defenders vs lone  ends auction  strains
    "standard": dict(numbers=[3, 4, 5, 6], with_bid=False, lone=[("12", 12), ("24", 24)], must=False, equal=False, pen=None, def_lone=True, ends=(), strains=SUITS + ["NT", "NTL"]),
    "pepper": dict(numbers=[3, 4, 5, 6], with_bid=False, lone=[("alone", 12)], must=True, equal=False, pen=6, def_lone=False, ends=(), strains=SUITS),
    "double32": dict(numbers=[3, 4, 5, 6, 7], with_bid=True, lone=[("two-card", 16), ("one-card", 24), ("moonshot", 32)], must=True, equal=False, pen=None, def_lone=True, ends=("moonshot",), strains=SUITS + ["NT"]),
    "racehorse": dict(numbers=[3, 4, 5, 6], with_bid=False, lone=[], must=True, equal=True, pen=None, def_lone=True, ends=(), strains=SUITS + ["NT", "NTL"]),
    # double48 played with its double32 deck option (8 tricks): number bids 1..8
    "double48": dict(numbers=list(range(1, 9)), with_bid=True, lone=[], must=False, equal=False, pen=None, def_lone=True, ends=(), strains=SUITS + ["NT"]),
}


def bf_bids(r):
    """Every bid as (rung, name, strain or None), low → high."""
    out = []
    for k in r["numbers"]:
        if r["with_bid"]:
            out += [(k, str(k), st) for st in r["strains"]]
        else:
            out.append((k, str(k), None))
    top = max(r["numbers"])
    out += [(top + 1 + i, name, None) for i, (name, _) in enumerate(r["lone"])]
    return out


def bf_score(r, n, bid, tricks):
    """(declaring side points, defenders' points)."""
    rung, name, _ = bid
    values = dict(r["lone"])
    if name in values and rung > max(r["numbers"]):
        if tricks == n:
            return values[name], 0
        return -values[name], (n - tricks if r["def_lone"] else 0)
    if tricks >= rung:
        return tricks, n - tricks
    return -(rung if r["pen"] is None else r["pen"]), n - tricks


def bf_leaf(r, n, tricks_of, seat, bid):
    """Declarer's choice of strain: (diff, tricks, strain)."""
    rung, name, st = bid
    options = [st] if st is not None else r["strains"]
    best = None
    for s in options:
        t = tricks_of(seat, bid, s)
        a, b = bf_score(r, n, bid, t)
        if best is None or (a - b, t) > best[:2]:
            best = (a - b, t, s)
    return best


def bf_actions(r, bids, turn, high):
    """Actions of the turn-th speaker (0 = dealer's left): None = pass, then bids."""
    acts = []
    dealer = turn == 3
    if not (dealer and high is None and r["must"]):
        acts.append(None)
    for b in bids:
        if high is None or b[0] > high[0] or (dealer and r["equal"] and b[0] == high[0]):
            acts.append(b)
    return acts


def brute_force(r, n, dealer, tricks_of):
    """Walk every complete auction; return (NS − EW, the auction, final (declarer, bid) or None)."""
    bids = bf_bids(r)
    leaves = {}  # the strain choice of each (declarer, bid), worked out once

    def walk(turn, high, high_seat):
        if turn == 4 or (high is not None and high[1] in r["ends"]):
            if high is None:
                return 0, [], None
            if (high_seat, high) not in leaves:
                leaves[(high_seat, high)] = bf_leaf(r, n, tricks_of, high_seat, high)[0]
            diff = leaves[(high_seat, high)]
            return (diff if high_seat % 2 == 0 else -diff), [], (high_seat, high)
        seat = (dealer + 1 + turn) % 4
        best = None
        for a in bf_actions(r, bids, turn, high):
            v, line, final = walk(turn + 1, high if a is None else a, high_seat if a is None else seat)
            mine = v if seat % 2 == 0 else -v
            if best is None or mine > best[0]:
                best = (mine, v, [a] + line, final)
        return best[1], best[2], best[3]

    return walk(0, None, None)


# ---------------------------------------------------------------------------------------------
# Double-dummy inputs

def lone_values(deal: Deal, name: str, dealer: int) -> dict:
    """(seat, bid name, strain) -> lone tricks, computed here (exchange-free bids and the
    standard 12 by enumeration; double32 exchange loners from bideuchre.analysis.lone)."""
    r = RULES[name]
    n = len(deal.hands[0])
    out = {}
    if not r["lone"]:
        return out
    preset = PRESETS[name]
    for seat in range(4):
        # standard: left of the dealer leads (Position passes over the empty seat); else the bidder
        leader = (dealer + 1) % 4 if name == "standard" else seat
        for st in r["strains"]:
            plain = solve_position(Position(deal, st, leader, lone=seat))[Side(seat % 2)]
            for lname, _ in r["lone"]:
                if lname in ("24", "alone", "moonshot"):
                    out[(seat, lname, st)] = plain
                elif lname == "12":
                    best = plain
                    partner = (seat + 2) % 4
                    for g in set(deal.hands[partner]):
                        for x in set(deal.hands[seat]):
                            hands = [list(h) for h in deal.hands]
                            hands[seat].remove(x)
                            hands[seat].append(g)
                            hands[partner].remove(g)
                            hands[partner].append(x)
                            d2 = Deal(hands, deal.deck, deal.dealer)
                            best = max(best, solve_position(Position(d2, st, leader, lone=seat))[Side(seat % 2)])
                            if best == n:
                                break
                        if best == n:
                            break
                    out[(seat, lname, st)] = best
    if name == "double32":
        table = lone_table(deal, preset, dealer=dealer)
        for seat in range(4):
            for st in r["strains"]:
                for res in table.results[Seat(seat)][Strain[st]]:
                    if res.bid in ("two-card", "one-card"):
                        out[(seat, res.bid, st)] = res.tricks
    return out
