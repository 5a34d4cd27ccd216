"""Benchmark of the double-dummy core: full DD tables and single solves.

    python benchmarks/bench_solve.py [--single N] [--double32 N] [--double40 N] [--double48 N] [--json]

Prints, per deck form, the median microseconds per full DD table (4 declarers × the strains;
wall time, and CPU time of the thread, which other jobs on a shared machine inflate less),
the median microseconds per solve (wall) and the median nodes per solve, on one core:
- single24: the first N (1,000) real deals of positions/sources/real_deals_single24.txt,
  preset racehorse (the declarer leads: 4 leaders × 6 strains = 24 solves a table);
- double32: N (50) random deals (seed 32), preset double32 (4 × 5 strains);
- double40: N (50) random deals (seed 40) of the 40-card deck, preset double48's options (4 × 5);
- double48: N (20) random deals (seed 48), preset double48 (4 × 5 strains).
A solve here is one exact count (a few null-window searches); the TT is kept between deals.
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
sys.path.insert(0, str(ROOT / "benchmarks"))

from deal_ranges import LIMIT  # noqa: E402
from bideuchre.notation import Deal  # noqa: E402
from bideuchre.rules import DECKS, get_preset  # noqa: E402
from bideuchre.search.solve import dd_table, get_solver  # noqa: E402


def random_deals(deck: str, n: int, seed: int) -> list[Deal]:
    rng = random.Random(seed)
    form = DECKS[deck]
    out = []
    for _ in range(n):
        pack = [c for c in form.card_ids for _ in range(form.copies)]
        rng.shuffle(pack)
        out.append(Deal([pack[i * form.hand:(i + 1) * form.hand] for i in range(4)], form))
    return out


def deal_count(text: str) -> int:
    """A number of deals on the command line: 0 (skip) to 10,000 (the real deals there are)."""
    if not text.isdigit() or int(text) > LIMIT:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of deals from 0 to {LIMIT}")
    return int(text)


def measure(deals: list[Deal], preset: str) -> dict:
    p = get_preset(preset)
    solver = get_solver(deals[0].deck)   # the deal's deck form (double40 under preset double48)
    solves = 4 * len(p.strains)
    times, cpus, nodes = [], [], []
    for d in deals:
        solver.reset_nodes()
        c0 = time.thread_time()
        t0 = time.perf_counter()
        dd_table(d, p)
        times.append(time.perf_counter() - t0)
        cpus.append(time.thread_time() - c0)
        nodes.append(solver.nodes)
    med = statistics.median(times)
    return {"deals": len(deals), "preset": preset, "solves_per_table": solves,
            "table_us_median": round(med * 1e6, 1),
            "table_us_mean": round(statistics.mean(times) * 1e6, 1),
            "table_us_max": round(max(times) * 1e6, 1),
            "table_cpu_us_median": round(statistics.median(cpus) * 1e6, 1),
            "solve_us_median": round(med * 1e6 / solves, 1),
            "nodes_per_solve_median": round(statistics.median(nodes) / solves)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--single", type=deal_count, default=1000, help="real single24 deals (0-10000)")
    ap.add_argument("--double32", type=deal_count, default=50)
    ap.add_argument("--double40", type=deal_count, default=50)
    ap.add_argument("--double48", type=deal_count, default=20)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    lines = (ROOT / "positions/sources/real_deals_single24.txt").read_text().split()
    pbn = [" ".join(lines[i:i + 4]) for i in range(0, 4 * a.single, 4)]
    results = {}
    if a.single:
        results["single24"] = measure([Deal.from_pbn(x) for x in pbn], "racehorse")
    if a.double32:
        results["double32"] = measure(random_deals("double32", a.double32, 32), "double32")
    if a.double40:
        results["double40"] = measure(random_deals("double40", a.double40, 40), "double48")
    if a.double48:
        results["double48"] = measure(random_deals("double48", a.double48, 48), "double48")
    results["machine"] = f"{platform.machine()} {platform.processor() or ''} python {platform.python_version()}".strip()
    if a.json:
        print(json.dumps(results, indent=2))
        return
    print(f"{'deck':10} {'deals':>6} {'table µs (median)':>18} {'CPU µs (median)':>16} "
          f"{'solve µs (median)':>18} {'nodes/solve':>12}")
    for k, r in results.items():
        if k == "machine":
            continue
        print(f"{k:10} {r['deals']:>6} {r['table_us_median']:>18,.0f} {r['table_cpu_us_median']:>16,.0f} "
              f"{r['solve_us_median']:>18,.1f} {r['nodes_per_solve_median']:>12,}")
    print(results["machine"])


if __name__ == "__main__":
    main()
