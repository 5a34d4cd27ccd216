"""Benchmark of bideuchre.analysis.explain: scoring every card, and analysing a whole played hand.

    python benchmarks/bench_explain.py [--deals N] [--json]

On the first N (500) real single24 deals of positions/sources/real_deals_single24.txt, each at
the start of the hand with strain ``i % 6`` and first leader ``i % 4`` (seat order N E S W):

- ``solve``: one exact DD count of the position (solve_position);
- ``cards``: every legal card's DD value (card_values: one solve, then a null-window check per
  group of equivalent cards, an exact count only for a card that loses tricks);
- ``ratio``: median(cards) / median(solve) — the issue's target is ≤ 3;
- ``explain``: card values plus the principal variation and every losing card's line;
- ``analyse``: the analysis of a complete played hand (24 cards): ``random`` plays random legal
  cards (many mistakes, each one scored card by card), ``dd`` plays the principal variation
  (no mistakes).  Target: ≤ 20 ms a hand.

The transposition table is cleared before every timed call, so no measurement profits from an
earlier one; calls are interleaved deal by deal.  Medians in microseconds, one core.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bideuchre.analysis.explain import analyse_play, card_values, explain, principal_variation  # noqa: E402
from bideuchre.notation import Deal, Position  # noqa: E402
from bideuchre.rules import Seat, Strain  # noqa: E402
from bideuchre.search.solve import get_solver, solve_position  # noqa: E402


def _timed(solver, fn, *args, **kw) -> float:
    solver.clear()
    t0 = time.perf_counter()
    fn(*args, **kw)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    lines = [ln for ln in (ROOT / "positions/sources/real_deals_single24.txt").read_text().split("\n") if ln.strip()]
    rng = random.Random(24)
    solver = get_solver("single24")
    t = {k: [] for k in ("solve", "cards", "explain", "analyse_random", "analyse_dd")}
    mistakes = []
    for i, text in enumerate(lines[:a.deals]):
        deal = Deal.from_pbn(text)
        strain, leader = Strain(i % 6), Seat(i % 4)
        pos = Position(deal, strain, leader)
        # the played hands (built before timing)
        rand = pos.copy()
        while not rand.is_over:
            rand.play(rng.choice(rand.legal_cards()))
        dd = [c for tr in principal_variation(pos) for _, c in tr.cards]
        t["solve"].append(_timed(solver, solve_position, pos))
        t["cards"].append(_timed(solver, card_values, pos))
        t["explain"].append(_timed(solver, explain, pos))
        t["analyse_random"].append(_timed(solver, analyse_play, deal, strain, leader, rand.played))
        t["analyse_dd"].append(_timed(solver, analyse_play, deal, strain, leader, dd))
        mistakes.append(len(analyse_play(deal, strain, leader, rand.played).mistakes))
    med = {k: statistics.median(v) * 1e6 for k, v in t.items()}
    res = {
        "deals": a.deals, "python": platform.python_version(), "machine": platform.machine(),
        "solve_us_median": round(med["solve"], 1),
        "cards_us_median": round(med["cards"], 1),
        "cards_to_solve_ratio": round(med["cards"] / med["solve"], 2),
        "explain_us_median": round(med["explain"], 1),
        "analyse_random_us_median": round(med["analyse_random"], 1),
        "analyse_random_us_max": round(max(t["analyse_random"]) * 1e6, 1),
        "analyse_random_mistakes_median": statistics.median(mistakes),
        "analyse_dd_us_median": round(med["analyse_dd"], 1),
    }
    if a.json:
        print(json.dumps(res))
        return
    print(f"single24, {a.deals} real deals at the start of the hand (TT cleared before each call)")
    print(f"  one solve            {res['solve_us_median']:>9.1f} µs median")
    print(f"  every card's value   {res['cards_us_median']:>9.1f} µs median   "
          f"ratio {res['cards_to_solve_ratio']:.2f} × one solve (target ≤ 3)")
    print(f"  explain (+ lines)    {res['explain_us_median']:>9.1f} µs median")
    print(f"  whole hand analysed  {res['analyse_random_us_median']:>9.1f} µs median "
          f"(random play, {res['analyse_random_mistakes_median']:g} mistakes median; "
          f"max {res['analyse_random_us_max']:.0f} µs; target ≤ 20,000 µs)")
    print(f"  whole hand analysed  {res['analyse_dd_us_median']:>9.1f} µs median (DD play, no mistakes)")


if __name__ == "__main__":
    main()
