"""Benchmark of the lone table (issue 3): time per deal of the full lone table.

- ``standard``: the first 1,000 real deals (positions/sources/real_deals_single24.txt), every
  seat × strain (4 × 6) × lone bid (12 and 24), dealer N;
- ``double32``: 50 random deals (seeded), every seat × strain (4 × 5) × lone bid (two-card,
  one-card, moonshot).

One process, one thread, pinned to one core (``sched_setaffinity``).  Each deal's table is
timed in CPU seconds of this thread (``time.thread_time``: other programs sharing the machine
do not inflate it) and in wall seconds; the median, mean and 90th percentile are printed with
the searches run per deal (null-window and exact), the exact counts among them, and the
distinct final hands enumerated.  The transposition table is kept between deals, as in
``bideuchre.analysis.lone.lone_table`` (its entries are keyed on the hands, valid across deals).

    python benchmarks/bench_lone.py [--deals 1000] [--double32 50] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bideuchre.analysis.lone import lone_searcher, lone_table  # noqa: E402
from bideuchre.search.solve import tt_bits_for  # noqa: E402
from bideuchre.notation import Deal  # noqa: E402
from bideuchre.rules import DECKS  # noqa: E402

REAL = ROOT / "positions" / "sources" / "real_deals_single24.txt"


def random_deal(rng: random.Random, deck: str) -> Deal:
    form = DECKS[deck]
    pack = [c for c in form.card_ids for _ in range(form.copies)]
    rng.shuffle(pack)
    n = form.hand
    return Deal([pack[i * n:(i + 1) * n] for i in range(4)], form)


def measure(deals: list[Deal], preset: str) -> dict:
    s = lone_searcher(tt_bits_for(deals[0].deck))
    lone_table(deals[0], preset)  # warm up (imports, allocation)
    s0 = (s.searches, s.exact, s.classes)
    cpu, wall = [], []
    for d in deals:
        w0, c0 = time.perf_counter(), time.thread_time()
        lone_table(d, preset)
        cpu.append(time.thread_time() - c0)
        wall.append(time.perf_counter() - w0)
    n = len(deals)

    def q90(xs):
        return sorted(xs)[int(0.9 * (len(xs) - 1))]

    return {"deals": n, "cpu_median_ms": 1e3 * statistics.median(cpu), "cpu_mean_ms": 1e3 * statistics.mean(cpu),
            "cpu_p90_ms": 1e3 * q90(cpu), "wall_median_ms": 1e3 * statistics.median(wall),
            "wall_mean_ms": 1e3 * statistics.mean(wall),
            "searches": (s.searches - s0[0]) / n, "exact": (s.exact - s0[1]) / n,
            "classes": (s.classes - s0[2]) / n}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=1000, help="real single24 deals for standard")
    ap.add_argument("--double32", type=int, default=50, help="random double32 deals")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    lines = [ln for ln in REAL.read_text().split("\n") if ln.strip()][:args.deals]
    rows = [("standard", f"first {len(lines)} real deals", measure([Deal.from_pbn(ln) for ln in lines], "standard"))]
    if args.double32:
        rng = random.Random(args.seed)
        rows.append(("double32", f"{args.double32} random deals (seed {args.seed})",
                     measure([random_deal(rng, "double32") for _ in range(args.double32)], "double32")))
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("| preset | deals | CPU median | CPU mean | CPU p90 | wall median | searches/deal | exact/deal | final hands/deal |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, what, r in rows:
        print(f"| {name} | {what} | {r['cpu_median_ms']:.2f} ms | {r['cpu_mean_ms']:.2f} ms | {r['cpu_p90_ms']:.2f} ms "
              f"| {r['wall_median_ms']:.2f} ms | {r['searches']:.0f} | {r['exact']:.1f} | {r['classes']:.0f} |")


if __name__ == "__main__":
    main()
