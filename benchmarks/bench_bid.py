"""Benchmark of bid advice (issues 6 and 12): seconds for an advice, and what the per-deal
searches of :mod:`bideuchre.analysis.advice.deal_data` save against full DD tables.

Cases (``--case``, default all three; the issue 12 targets on 2 cores in brackets):

- ``single24``: preset standard, ``AJ.KQ..JT`` in E, dealer N, 1,000 samples (as before or better);
- ``double32``: ``SA SA SK HK DA CA CK CQ`` in E, dealer N, 1,000 samples (<= 10 s);
- ``double48``: ``AKJ.KQJ.KQJJ.QQ`` in E, dealer N, 200 samples (<= 60 s).

E speaks first, so every seat can still declare (the most work).  Each advice runs with
``--samples`` fixed (so every run does the same work) on one core (one worker) and on two
cores (two workers); the wall time and the process CPU time are printed (other programs
sharing the machine inflate wall times; CPU time is the steadier figure).

Side by side (``--compare K``, default 100 deals, 10 for double48): on the same K deals,
interleaved deal by deal on one thread, the CPU time and the search nodes of the DD searches
advice now makes (our seat exact in every strain; each other seat's most tricks over the
strains by null-window searches) against the full DD table (every seat that can declare,
every strain, exact), with their medians and ratio.

Before and after (``--before REF``, a git commit of this repository): the per-deal work of an
advice (:func:`~bideuchre.analysis.advice.deal_data.solve_chunk`, everything a deal costs
but the rating) of the code at REF and of the working tree, on the same K deals, interleaved
group by group on one thread (each in its own chunk size), with the CPU time a deal (medians
over the groups and totals) and a check that both give the same data for every deal.  The
old ``deal_data`` and ``sampling`` modules are read from git; the search core is the installed
one for both.

    python benchmarks/bench_bid.py [--case single24 double32 double48] [--repeat 1]
                                   [--compare K] [--no-advice] [--before REF]
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bideuchre.analysis.advice import advise, sample_deals  # noqa: E402
from bideuchre.analysis.advice.deal_data import DealPlan, _dd_chunk, _solver  # noqa: E402
from bideuchre.analysis.auction import Auction  # noqa: E402
from bideuchre.notation import parse_hand  # noqa: E402
from bideuchre.rules import Seat, get_preset  # noqa: E402

CASES = {
    "single24": ("standard", "AJ.KQ..JT", 1000, 100),
    "double32": ("double32", "SA SA SK HK DA CA CK CQ", 1000, 100),
    "double48": ("double48", "AKJ.KQJ.KQJJ.QQ", 200, 10),
}


def run_advice(preset, hand, samples, workers, repeat) -> tuple[float, float, str]:
    walls, cpus = [], []
    adv = None
    for r in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        adv = advise(hand, Seat.E, Seat.N, preset, samples=samples, seed=1 + r, workers=workers)
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    rec = f"{adv.recommend.action} {adv.recommend.strain or ''} EV {adv.recommend.ev:+.2f}"
    return statistics.median(walls), statistics.median(cpus), rec


def compare(preset, hand, k) -> None:
    """Per deal, interleaved: advice's DD searches against the full table (same deals)."""
    p = get_preset(preset)
    cards = parse_hand(hand)
    auc = Auction(p, Seat.N, [])
    plan = DealPlan.make(p, auc, int(Seat.E), cards)
    counts = sample_deals(p, Seat.E, cards, {}, k, seed=77)
    strains = np.array([int(s) for s in p.strains], dtype=np.intc)
    seats = [s for s in plan.seats]
    solver = _solver(p)
    ours, full, n_ours, n_full = [], [], [], []
    for i in range(k):
        one = counts[i:i + 1]
        solver.clear()
        solver.reset_nodes()
        c0 = time.process_time()
        _dd_chunk(plan, one)
        ours.append(time.process_time() - c0)
        n_ours.append(solver.nodes)
        solver.clear()
        solver.reset_nodes()
        leaders = np.array([seats], dtype=np.intc)
        res = np.zeros((1, len(seats), len(strains)), dtype=np.intc)
        c0 = time.process_time()
        if plan.left_of_dealer:
            solver.tables(np.ascontiguousarray(one), strains,
                          np.array([[(Seat.N + 1) % 4]], dtype=np.intc), -1, res[:, :1])
        else:
            solver.tables(np.ascontiguousarray(one), strains, leaders, -1, res)
        full.append(time.process_time() - c0)
        n_full.append(solver.nodes)
    mo, mf = statistics.median(ours), statistics.median(full)
    print(f"  per deal, {k} deals, one thread: advice's DD searches {mo * 1e3:.1f} ms CPU "
          f"(median; {statistics.median(n_ours):,.0f} nodes) vs full DD table "
          f"{mf * 1e3:.1f} ms ({statistics.median(n_full):,.0f} nodes): ratio {mo / mf:.2f} "
          f"(total {sum(ours):.2f} s vs {sum(full):.2f} s; nodes {sum(n_ours) / sum(n_full):.2f})")


def _module_at(ref: str, path: str, name: str):
    """The module at ``path`` (in this repository) as of git commit ``ref``, imported as
    ``bideuchre.analysis.advice.<name>`` (its relative imports resolve in the package)."""
    src = subprocess.run(["git", "-C", str(ROOT), "show", f"{ref}:{path}"], check=True,
                         capture_output=True, text=True).stdout
    full = f"bideuchre.analysis.advice.{name}"
    spec = importlib.util.spec_from_loader(full, loader=None)
    mod = importlib.util.module_from_spec(spec)
    mod.__package__ = "bideuchre.analysis.advice"
    sys.modules[full] = mod
    exec(compile(src, f"{ref}:{path}", "exec"), mod.__dict__)
    return mod


def before_after(preset, hand, k, ref) -> None:
    """Per deal, interleaved: solve_chunk at ``ref`` against the working tree (same deals)."""
    from bideuchre.analysis.advice import deal_data as new_dd
    from bideuchre.analysis.advice.sampling import sampling_plan
    old_dd = _module_at(ref, "solver/analysis/advice/deal_data.py", "_deal_data_before")
    old_sp = _module_at(ref, "solver/analysis/advice/sampling.py", "_sampling_before")
    p = get_preset(preset)
    cards = parse_hand(hand)
    auc = Auction(p, Seat.N, [])
    counts = sample_deals(p, Seat.E, cards, {}, k, seed=77)
    sides = {"before": (old_dd, old_sp.sampling_plan(p).chunk), "after": (new_dd, sampling_plan(p).chunk)}
    group = math.lcm(*(c for _, c in sides.values()))
    cpu = {name: [] for name in sides}
    nodes = {name: 0 for name in sides}
    same = True
    for g, a in enumerate(range(0, k, group)):
        b = min(k, a + group)
        got = {}
        for name in (("before", "after") if g % 2 == 0 else ("after", "before")):
            mod, chunk = sides[name]
            plan = mod.DealPlan.make(p, auc, int(Seat.E), cards)
            solver = mod._solver(p)
            solver.reset_nodes()
            c0 = time.process_time()
            chunks = [mod.solve_chunk(plan, x, counts[x:min(b, x + chunk)]) for x in range(a, b, chunk)]
            cpu[name].append((time.process_time() - c0) / (b - a))
            nodes[name] += solver.nodes
            got[name] = chunks
        for x, y in zip(np.concatenate([c.dd for c in got["before"]]), np.concatenate([c.dd for c in got["after"]])):
            same &= bool(np.array_equal(x, y))
        same &= bool(np.array_equal(np.concatenate([c.made for c in got["before"]]),
                                    np.concatenate([c.made for c in got["after"]])))
        for j in got["before"][0].fixed:
            same &= bool(np.array_equal(np.concatenate([c.fixed[j] for c in got["before"]]),
                                        np.concatenate([c.fixed[j] for c in got["after"]])))
    mb, ma = statistics.median(cpu["before"]), statistics.median(cpu["after"])
    tb, ta = sum(cpu["before"]) / len(cpu["before"]), sum(cpu["after"]) / len(cpu["after"])
    print(f"  per deal, {k} deals in groups of {group}, one thread, before ({ref}) vs after: "
          f"{mb * 1e3:.2f} vs {ma * 1e3:.2f} ms CPU (median of the groups; ratio {ma / mb:.2f}), "
          f"mean {tb * 1e3:.2f} vs {ta * 1e3:.2f} ms (ratio {ta / tb:.2f}); DD nodes "
          f"{nodes['before']:,} vs {nodes['after']:,} ({nodes['after'] / max(1, nodes['before']):.2f}); "
          f"same data for every deal: {'yes' if same else 'NO'}", flush=True)
    if not same:
        raise SystemExit("before and after differ")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--case", nargs="+", default=list(CASES), choices=list(CASES))
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--compare", type=int, default=None, help="deals side by side (default per case)")
    ap.add_argument("--no-advice", action="store_true", help="only the side-by-side comparison")
    ap.add_argument("--cores", nargs="+", type=int, default=[1, 2])
    ap.add_argument("--before", metavar="REF", default=None,
                    help="also compare the per-deal work with the code at this git commit")
    ap.add_argument("--no-compare", action="store_true", help="skip the DD-search comparison")
    args = ap.parse_args()
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    for name in args.case:
        preset, hand, samples, k = CASES[name]
        print(f"{name}: preset {preset}, hand {hand} in E, dealer N, {samples} samples")
        if args.before:
            before_after(preset, hand, args.compare or k, args.before)
        if not args.no_compare:
            compare(preset, hand, args.compare or k)
        if args.no_advice:
            continue
        for ncores in args.cores:
            if len(cpus) < ncores:
                print(f"  {ncores} cores: skipped (only {len(cpus)} available)")
                continue
            if cpus:
                os.sched_setaffinity(0, cpus[:ncores])
            wall, cpu, rec = run_advice(preset, hand, samples, ncores, args.repeat)
            print(f"  {ncores} core{'s' if ncores > 1 else ' '} ({ncores} worker{'s' if ncores > 1 else ''}): "
                  f"{wall:.2f} s wall, {cpu:.2f} s CPU ({cpu / samples * 1e3:.1f} ms CPU a deal); {rec}",
                  flush=True)
        if cpus:
            os.sched_setaffinity(0, cpus)


if __name__ == "__main__":
    main()
