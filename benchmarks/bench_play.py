"""Benchmark of single-dummy play (bideuchre.analysis.play, issue 13): speed and strength.

    python benchmarks/bench_play.py speed [--repeat 3] [--json]
    python benchmarks/bench_play.py strength [--deals 500] [--seed 13] [--samples 200]
                                             [--exact-limit 2000] [--out FILE] [--json]
    python benchmarks/bench_play.py match --a alphamu --b pimc [--deals 500] [--seed 26]
                                          [--preset racehorse] [--contracts par|model] [--split]
                                          [--samples N] [--jobs J] [--out FILE [--resume]] [--json]

**speed** (one worker; each figure the median of ``--repeat`` runs, the thread's TT cleared
first; CPU time of the process, which a busy shared machine does not inflate, and wall time):

- ``single24_lead``: the opening lead of the first real deal of positions/sources (preset
  racehorse, its par contract, the declarer on lead) with 1,000 samples (target ≤ 1 s);
- ``single24_review``: a whole single24 hand reviewed single dummy (every card of the first
  real deal played by the principal variation, 500 samples each, exact where the consistent
  deals are at most 20,000; target ≤ 15 s);
- ``double32_lead`` / ``double48_lead``: an opening lead with 200 samples (double32 preset,
  random deal of seed 32; double48 preset, random deal of seed 48, 4 spades as trumps, declarer
  N; reported).

**match**: the duplicate play match of ``bideuchre match --play A B``
(:func:`bideuchre.bidding.play_match.run_play_match`: each deal's par contract, A declaring
and B defending, then swapped; A's edge in points and tricks with the SE clustered by deal
and the 95 % interval), each policy at its defaults.

**strength**: self-play over ``--deals`` random single24 deals (deal i from
``random.Random(seed * 1_000_003 + i)``), preset racehorse, the par contract of each deal
played from its declarer's lead.  One partnership plays every card by ``play_advice`` from its
own view (objective tricks, ``--samples`` samples, exact up to ``--exact-limit`` deals, sample
seed = the deal's index); the other by the **baseline**: on lead, its highest card (trumps
first, the bowers highest); following, the lowest card when partner is winning the trick,
else the cheapest card that beats the card winning it (following suit before trumping), else
its lowest card (a side-suit card before a trump).  The same deal is then played with the
partnerships swapped.  Per deal, the gain is the tricks N-S take when N-S play by
``play_advice`` minus the tricks N-S take when N-S play by the baseline (E-W the other);
reported: its mean with a 95 % interval (mean ± 1.96 standard errors), and the deals each way.  ``--out`` writes one JSON line per deal as it
goes (a killed run keeps what it did; rerunning skips the deals already written).
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bideuchre.analysis.explain import analyse_play, principal_variation  # noqa: E402
from bideuchre.analysis.par import par  # noqa: E402
from bideuchre.analysis.play import play_advice, review_play  # noqa: E402
from bideuchre.notation import Deal, Position, format_hand  # noqa: E402
from bideuchre.rules import DECKS, Card, Side  # noqa: E402
from bideuchre.search.solve import get_solver  # noqa: E402
from bideuchre.bidding.play_match import heuristic_card, run_play_match  # noqa: E402


def random_deal(seed: int, deck: str = "single24") -> Deal:
    form = DECKS[deck]
    pack = [c for c in form.card_ids for _ in range(form.copies)]
    random.Random(seed).shuffle(pack)
    n = form.hand
    return Deal([pack[i * n:(i + 1) * n] for i in range(4)], form)


def first_real_deal() -> Deal:
    text = (ROOT / "positions/sources/real_deals_single24.txt").read_text().split("\n")[0]
    return Deal.from_pbn(text)


# ---------------------------------------------------------------------------------------------
# speed

def _median_time(fn, repeat: int, deck: str) -> dict:
    """Median CPU time of the process (one worker: the time the machine's other tenants do not
    inflate) and median wall time, in seconds."""
    cpu, wall = [], []
    for _ in range(repeat):
        get_solver(deck).clear()
        c0, t0 = time.process_time(), time.perf_counter()
        fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - t0)
    return {"cpu_s": round(statistics.median(cpu), 3), "wall_s": round(statistics.median(wall), 3)}


def speed(a) -> dict:
    out = {}
    deal = first_real_deal()
    pr = par(deal, "racehorse")
    c = pr.contract
    hand = format_hand(deal.hands[c.declarer])
    out["single24_lead"] = _median_time(lambda: play_advice(
        hand, c.declarer, c.strain, declarer=c.declarer, bid=c.bid.name, preset="racehorse",
        samples=1000, seed=1), a.repeat, "single24")
    pos = Position(deal, c.strain, c.declarer)
    pv = [card for tr in principal_variation(pos) for _, card in tr.cards]
    an = analyse_play(deal, c.strain, c.declarer, pv)
    out["single24_review"] = _median_time(lambda: review_play(
        deal, c.strain, c.declarer, pv, an, "racehorse", samples=500, seed=1), a.repeat, "single24")
    d32 = random_deal(32, "double32")
    out["double32_lead"] = _median_time(lambda: play_advice(
        format_hand(d32.hands[0]), "N", "S", declarer="N", bid="5", preset="double32",
        samples=200, seed=1), a.repeat, "double32")
    if not a.skip48:
        d48 = random_deal(48, "double48")
        out["double48_lead"] = _median_time(lambda: play_advice(
            format_hand(d48.hands[0]), "N", "S", declarer="N", bid="6", preset="double48",
            samples=200, seed=1), 1, "double48")
    return out


# ---------------------------------------------------------------------------------------------
# strength

def baseline_card(pos: Position) -> Card:
    """The baseline's card (module docstring): the play match's ``heuristic`` policy."""
    return heuristic_card(pos)


def play_deal(deal: Deal, contract, smart: Side, a, index: int) -> int:
    """Play the deal out; ``smart`` plays by play_advice.  Returns N-S tricks."""
    pos = Position(deal, contract.strain, contract.declarer)
    while not pos.is_over:
        p = pos.to_move
        if p.side == smart and len(pos.legal_cards()) > 1:
            adv = play_advice(format_hand(deal.hands[p]), p, contract.strain, declarer=contract.declarer,
                              bid=contract.bid.name, preset="racehorse", played=list(pos.played),
                              samples=a.samples, seed=index, exact_limit=a.exact_limit,
                              objective="tricks")
            card = adv.recommend.card
        else:
            card = baseline_card(pos)
        pos.play(card)
    return pos.tricks_won[Side.NS]


def _ci(xs: list) -> dict:
    m = statistics.fmean(xs)
    se = statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return {"mean": round(m, 4), "se": round(se, 4), "lo95": round(m - 1.96 * se, 4),
            "hi95": round(m + 1.96 * se, 4), "n": len(xs)}


def strength(a) -> dict:
    done = {}
    if a.out and Path(a.out).exists():
        for line in Path(a.out).read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                done[r["i"]] = r
    fh = open(a.out, "a") if a.out else None
    t0 = time.perf_counter()
    for i in range(a.deals):
        if i in done:
            continue
        deal = random_deal(a.seed * 1_000_003 + i)
        c = par(deal, "racehorse").contract
        ns_smart = play_deal(deal, c, Side.NS, a, i)
        ns_base = play_deal(deal, c, Side.EW, a, i)
        r = {"i": i, "deal": deal.pbn(), "declarer": c.declarer.name, "bid": c.bid.name,
             "strain": c.strain.name, "dd": c.tricks, "ns_smart": ns_smart, "ns_base": ns_base}
        done[i] = r
        if fh:
            fh.write(json.dumps(r) + "\n")
            fh.flush()
        if a.progress and (i + 1) % 10 == 0:
            sys.stderr.write(f"{i + 1} deals, {time.perf_counter() - t0:.0f} s\n")
    rows = [done[i] for i in sorted(done) if i < a.deals]
    gain = [r["ns_smart"] - r["ns_base"] for r in rows]
    return {"deals": len(rows), "gain_per_deal": _ci(gain),
            "smart_wins": sum(g > 0 for g in gain), "baseline_wins": sum(g < 0 for g in gain),
            "samples": a.samples, "exact_limit": a.exact_limit, "seed": a.seed}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["speed", "strength", "match"])
    ap.add_argument("--a", default="alphamu")
    ap.add_argument("--b", default="pimc")
    ap.add_argument("--preset", default="racehorse")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip48", action="store_true", help="speed: skip the double48 lead")
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--samples", type=int, default=None, help="strength: 200; match: each method's default")
    ap.add_argument("--exact-limit", type=int, default=2000)
    ap.add_argument("--out", default=None)
    ap.add_argument("--contracts", default="par", help="match: par or model")
    ap.add_argument("--split", action="store_true", help="match: declarer and defence apart")
    ap.add_argument("--jobs", type=int, default=None, help="match: worker processes")
    ap.add_argument("--resume", action="store_true", help="match: continue --out")
    ap.add_argument("--progress", action="store_true")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if a.what == "strength" and a.samples is None:
        a.samples = 200
    if a.what == "match":
        r = run_play_match(a.a, a.b, a.preset, a.deals, a.seed, a.samples,
                           a.out, contracts=a.contracts, split=a.split, jobs=a.jobs, resume=a.resume)
        res = r.to_json()
    else:
        res = speed(a) if a.what == "speed" else strength(a)
    res["machine"] = f"{platform.machine()} {platform.python_version()}"
    if a.json:
        print(json.dumps(res))
    else:
        for k, v in res.items():
            print(f"{k}: {v:.3f} s" if isinstance(v, float) else f"{k}: {v}")


if __name__ == "__main__":
    main()
