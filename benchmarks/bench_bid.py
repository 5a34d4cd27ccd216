"""Benchmark of bid advice (issue 6): seconds for a 1,000-sample advice on a single24 hand.

The full model: for every sampled deal the DD tricks of every strain for each seat that can
still declare, "every trick alone?" for every lone bid of those seats (after the numpy filter),
exact lone counts where they change a result, and the double-dummy auction continuation of
every legal action.  Default: preset ``standard`` (lone bids 12 and 24), the hand
``AJ.KQ..JT`` in seat E with dealer N — E speaks first, so all four seats can still declare
(the most work).

Runs: one core (``sched_setaffinity`` to one CPU, one worker) and two cores (two CPUs, two
workers).  Each run is repeated; the median wall time and the process CPU time are printed, with
the CPU split between the DD searches, the lone searches and the rest (auction, sampling).
Other programs sharing the machine inflate wall times; CPU time is the steadier figure.

    python benchmarks/bench_bid.py [--samples 1000] [--preset standard] [--hand AJ.KQ..JT]
                                   [--seat E] [--dealer N] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bideuchre.analysis import advice as A  # noqa: E402
from bideuchre.notation import parse_hand  # noqa: E402
from bideuchre.rules import get_preset, parse_seat  # noqa: E402


def run(args, workers: int) -> dict:
    preset = get_preset(args.preset)
    seat, dealer = parse_seat(args.seat), parse_seat(args.dealer)
    hand = parse_hand(args.hand)
    # warm up: imports, allocation, thread-local search contexts
    A.advise(hand, seat, dealer, preset, args.auction, samples=20, seed=99, workers=workers)
    walls, cpus, dd, lone = [], [], [], []
    for r in range(args.repeat):
        seed = 1 + r
        w0, c0 = time.perf_counter(), time.process_time()
        A.advise(hand, seat, dealer, preset, args.auction, samples=args.samples, seed=seed, workers=workers)
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
        # the split: sampling + DD alone, then DD + lone searches
        counts = A.sample_deals(preset, seat, hand, {}, args.samples, seed)
        seats = [0, 1, 2, 3]  # as advise() with the dealer's left to speak first
        c0 = time.process_time()
        A._dd_rows(counts, preset, dealer, seats, workers, None, int(seat))
        dd.append(time.process_time() - c0)
        c0 = time.process_time()
        A._Data(counts, preset, dealer, seats, workers, None, int(seat))
        lone.append(max(0.0, time.process_time() - c0 - dd[-1]))
    return {"wall": statistics.median(walls), "cpu": statistics.median(cpus),
            "dd": statistics.median(dd), "lone": statistics.median(lone)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--preset", default="standard")
    ap.add_argument("--hand", default="AJ.KQ..JT")
    ap.add_argument("--seat", default="E")
    ap.add_argument("--dealer", default="N")
    ap.add_argument("--auction", default="")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    print(f"bid advice: preset {args.preset}, hand {args.hand} in {args.seat}, dealer {args.dealer}, "
          f"auction {args.auction or '-'}, {args.samples} samples, median of {args.repeat}")
    for ncores in (1, 2):
        if len(cpus) < ncores:
            print(f"{ncores} cores: skipped (only {len(cpus)} available)")
            continue
        if cpus:
            os.sched_setaffinity(0, cpus[:ncores])
        r = run(args, ncores)
        rest = max(0.0, r["cpu"] - r["dd"] - r["lone"])
        print(f"{ncores} core{'s' if ncores > 1 else ' '} ({ncores} worker{'s' if ncores > 1 else ''}): "
              f"{r['wall']:.2f} s wall, {r['cpu']:.2f} s CPU  "
              f"[CPU: DD {r['dd']:.2f} s, lone {r['lone']:.2f} s, auction and the rest {rest:.2f} s]")
    if cpus:
        os.sched_setaffinity(0, cpus)


if __name__ == "__main__":
    main()
