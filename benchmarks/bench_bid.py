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

What the rating reads (``--settle K``): on K deals, the share whose every action's outcome
(points, declarer, made) is settled when the other seats' DD tricks are known only within a
window — each other seat alone, then all together, in ``[0, n]`` (no search) or within one
trick of the exact count (what a few yes/no searches could give) — by interval arithmetic over
the auction (:class:`IntervalModel`), checked against the exact model at random values in each
window.  A deal not settled needs the exact counts, so this bounds what yes/no searches could
save while keeping every result.

Before and after (``--before REF``, a git commit of this repository): the per-deal work of an
advice (:func:`~bideuchre.analysis.advice.deal_data.solve_advice_chunk`, everything a deal costs
but the rating) of the code at REF and of the working tree, on the same K deals, interleaved
group by group on one thread (each in its own chunk size), with the CPU time a deal (medians
over the groups and totals) and a check that both give the same data for every deal.  The
old ``deal_data`` and ``sampling`` modules are read from git; the search core is the installed
one for both.

``--others model dd`` times the fixed-samples advice with the other seats by the bidding model
as well; ``--adaptive`` times ``bid``'s default (adaptive sampling, warm) for each mode.

    python benchmarks/bench_bid.py [--case single24 double32 double48] [--repeat 1]
                                   [--compare K] [--no-advice] [--before REF] [--settle K]
                                   [--others model dd] [--adaptive]
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
from typing import Optional

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bideuchre.analysis.advice import advise, sample_deals  # noqa: E402
from bideuchre.analysis.advice.deal_data import DealPlan, _dd_chunk, _solver  # noqa: E402
from bideuchre.analysis.advice.model import Outcome, points, walk_auction  # noqa: E402
from bideuchre.analysis.auction import Auction, Bid, ladder  # noqa: E402
from bideuchre.notation import parse_hand  # noqa: E402
from bideuchre.rules import Seat, Strain, get_preset  # noqa: E402

CASES = {
    "single24": ("standard", "AJ.KQ..JT", 1000, 100),
    "double32": ("double32", "SA SA SK HK DA CA CK CQ", 1000, 100),
    "double48": ("double48", "AKJ.KQJ.KQJJ.QQ", 200, 10),
}


def run_advice(preset, hand, samples, workers, repeat, others="dd") -> tuple[float, float, str]:
    walls, cpus = [], []
    adv = None
    for r in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        adv = advise(hand, Seat.E, Seat.N, preset, samples=samples, seed=1 + r, workers=workers,
                     others=others)
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    rec = f"{adv.recommend.action} {adv.recommend.strain or ''} EV {adv.recommend.ev:+.2f}"
    if samples is None:
        rec += f" ({adv.samples} deals, {adv.stopped})"
    return statistics.median(walls), statistics.median(cpus), rec


def adaptive(preset, hand, cores, repeat, modes) -> None:
    """``bid``'s default (adaptive sampling) for each ``--others`` mode, warm (one advice of
    each mode first: the bidding model's data loaded), interleaved mode by mode per repeat;
    medians over the repeats (seeds 1 … repeat)."""
    for m in modes:
        advise(hand, Seat.E, Seat.N, preset, samples=4, seed=99, workers=1, others=m)
    got = {m: ([], []) for m in modes}
    recs = {}
    for r in range(repeat):
        for m in modes:
            w0, c0 = time.perf_counter(), time.process_time()
            adv = advise(hand, Seat.E, Seat.N, preset, seed=1 + r, workers=cores, others=m)
            got[m][0].append(time.perf_counter() - w0)
            got[m][1].append(time.process_time() - c0)
            recs[m] = adv
    for m in modes:
        a = recs[m]
        print(f"  adaptive, --others {m}, {cores} workers: median {statistics.median(got[m][0]):.2f} s "
              f"wall, {statistics.median(got[m][1]):.2f} s CPU over {repeat}; last: "
              f"{a.recommend.action} {a.recommend.strain or ''} EV {a.recommend.ev:+.2f} "
              f"({a.samples} deals, {a.stopped}, n_eff {a.n_eff:.0f})", flush=True)


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
            chunks = [(getattr(mod, "solve_advice_chunk", None) or mod.solve_chunk)(plan, x, counts[x:min(b, x + chunk)]) for x in range(a, b, chunk)]
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


class IntervalModel:
    """Which deals' outcomes are settled by bounds alone: the auction of :class:`AuctionModel`
    over a *box* of values — each deal's DD tricks and lone tricks known only to lie in a
    range — telling per deal whether every value in the box gives the same :class:`Outcome`
    (the same points, declarer and made flag, not only the same result).

    ``box`` has ``dd_lo``, ``dd_hi`` ``(S, 4, strains)`` (tricks of the seat's side declaring)
    and ``lt_lo``, ``lt_hi`` ``(S, 4, lone bids, strains)`` (lone tricks, n where the lone hand
    takes every trick), plus ``preset``, ``dealer``, ``S``, ``n``, ``strains``, ``lone``.

    Why it is sound (RULES.md §1 "Scoring"; :func:`points`): a leaf's result for the declaring
    side rises with its tricks (made: 2t − n; set: t − n − penalty, below the made value at the
    bid; a lone hand: −value − (n − t) or −value when failing, +value with every trick), so
    the leaf's NS difference over the box lies between its values at the two ends, and its
    outcome is the same for all of the box when it is the same at both ends (points are
    strictly monotone in t except where a failing lone hand's defenders score nothing, and
    there the outcome is flat).  A node's NS difference lies between the max (or min) of its
    children's bounds (minimax is monotone).  The exact model picks, for the mover, the first
    action with the best difference (``select`` with a strict ``>``); the pick is the same for
    every value in the box when some child k has a settled outcome with difference d, every
    earlier child's bound for the mover is strictly worse than d and every later one's is no
    better than d.  Then the node's outcome is child k's, for every value in the box.  By
    induction from the leaves, a settled root outcome is what :class:`AuctionModel` gives with
    any values in the box, the exact ones included.
    """

    def __init__(self, box, me):
        self.d = box
        self.p = box.preset
        self.me = me
        self.bids = ladder(self.p)
        self.lone_index = {lb.name: j for j, lb in enumerate(box.lone)}
        self._leaf_cache: dict = {}
        self._memo: dict = {}

    def leaf(self, seat: int, bid: Bid, strain: Optional[int]):
        """``(lo, hi, settled, outcome)`` of ``seat`` declaring ``bid``: NS difference bounds,
        bool (S,), and the outcome (valid where settled)."""
        key = (seat, bid, strain)
        hit = self._leaf_cache.get(key)
        if hit is not None:
            return hit
        d = self.d
        ends = []
        for lo_hi in ((d.lt_lo, d.dd_lo), (d.lt_hi, d.dd_hi)):
            if bid.lone is not None:
                tr = lo_hi[0][:, seat, self.lone_index[bid.name]]
            else:
                tr = lo_hi[1][:, seat].astype(np.int64)
            if bid.strain is not None:
                t = tr[:, d.strains.index(bid.strain)]
            elif strain is not None:
                t = tr[:, d.strains.index(Strain(strain))]
            else:
                t = tr.max(axis=1)
            decl, defs, made = points(self.p, bid, np.asarray(t, dtype=np.int64))
            ns, ew = (decl, defs) if seat % 2 == 0 else (defs, decl)
            ends.append(Outcome.of(ns, ew, np.full(d.S, int(seat)), made))
        a, b = ends
        out = (np.minimum(a.diff, b.diff), np.maximum(a.diff, b.diff), (a.a == b.a).all(axis=0), a)
        self._leaf_cache[key] = out
        return out

    def settled(self, index: int, high: Optional[Bid], high_seat: Optional[int],
                my_strain: Optional[int]) -> np.ndarray:
        """Bool (S,): the deals whose outcome of :meth:`AuctionModel.continuation` with the
        same arguments is the same for every value in the box."""
        z = np.zeros(self.d.S, np.int64)
        zero = (z, z, np.ones(self.d.S, dtype=bool), Outcome.of(np.zeros(self.d.S, np.int32), 0, -1, 0))

        def settle_for_mover(sign, kids):
            H = d = rec = valid = None
            for lo_, hi_, det, o in kids:
                # the child's bounds for the mover (sign * NS difference)
                ml, mh = (lo_, hi_) if sign == 1 else (-hi_, -lo_)
                if H is None:
                    H, L, d, rec, valid = mh, ml, ml, o, det
                    continue
                pick = det & (ml > H)
                valid = pick | (valid & (mh <= d))
                d = np.where(pick, ml, d)
                rec = rec.select(pick, o)
                H = np.maximum(H, mh)
                L = np.maximum(L, ml)
            return (L, H, valid, rec) if sign == 1 else (-H, -L, valid, rec)

        return walk_auction(self, index, high, high_seat, my_strain, zero, settle_for_mover)[2]


def settle(preset, hand, k) -> None:
    """Print the share of deals settled with the other seats' DD tricks in windows."""
    from types import SimpleNamespace
    from bideuchre.analysis.advice.deal_data import DealData, solve_advice_chunk
    from bideuchre.analysis.advice.model import AuctionModel
    from bideuchre.analysis.advice.rating import rate
    p = get_preset(preset)
    cards = parse_hand(hand)
    auc = Auction(p, Seat.N, [])
    me = int(Seat.E)
    plan = DealPlan.make(p, auc, me, cards)
    data = DealData(plan, k)
    data.append(solve_advice_chunk(plan, 0, sample_deals(p, Seat.E, cards, {}, k, seed=77)))
    rate(data, auc, True)                       # exact lone counts where the rating reads them
    n, S = data.n, data.S
    index = len(auc.actions)
    calls = []
    for a in auc.legal_actions():
        if a is None:
            calls.append((index + 1, auc.high, auc.high_seat, None))
        elif a.strain is not None:
            calls.append((index + 1, a, me, None))
        else:
            calls.extend((index + 1, a, me, int(st)) for st in p.strains)
    base = dict(preset=p, dealer=data.dealer, n=n, strains=data.strains, lone=data.lone, S=S)
    dd = data.dd.astype(np.int64)
    lt = np.where(data.made, n, data.lo).astype(np.int64)

    def outcomes(ddv, ltv):
        made = ltv == n
        v = SimpleNamespace(**base, dd=ddv, made=made, lo=np.where(made, 0, ltv), hi=np.where(made, 0, ltv))
        m = AuctionModel(v, Seat(me), "lo", "lo")
        return [m.continuation(*c).a for c in calls]

    truth = outcomes(dd, lt)
    rng = np.random.default_rng(0)
    others = [s for s in plan.dd if s != me]

    def share(seats, lo_of, hi_of, lone_open: bool = False) -> float:
        dl, dh = dd.copy(), dd.copy()
        ll, lh = lt.copy(), lt.copy()
        for s in seats:
            dl[:, s], dh[:, s] = lo_of(dd[:, s]), hi_of(dd[:, s])
            if lone_open:                       # "every trick alone?" not asked: 0 … n tricks
                ll[:, s], lh[:, s] = 0, n
        m = IntervalModel(SimpleNamespace(**base, dd_lo=dl, dd_hi=dh, lt_lo=ll, lt_hi=lh), Seat(me))
        ok = np.ones(S, dtype=bool)
        for c in calls:
            ok &= m.settled(*c)
        for _ in range(3):                      # settled: the exact model agrees anywhere in the box
            for x, y in zip(outcomes(rng.integers(dl, dh + 1), rng.integers(ll, lh + 1)), truth):
                if not (x[:, ok] == y[:, ok]).all():
                    raise SystemExit("interval model unsound")
        return float(ok.mean())

    full = (lambda t: 0 * t, lambda t: 0 * t + n)
    near = (lambda t: np.maximum(t - 1, 0), lambda t: np.minimum(t + 1, n))
    exact = (lambda t: t, lambda t: t)
    parts = [f"{Seat(s).name} alone {share([s], *full):.0%}" for s in others]
    print(f"  settled without exact DD tricks of the other seats ({S} deals): "
          + ", ".join(parts) + (f"; all {', '.join(Seat(s).name for s in others)} in [0, {n}] "
                                f"{share(others, *full):.0%}, within one trick {share(others, *near):.0%}"
                                if others else "; no other seat is searched")
          + (f"; with their DD tricks exact but their lone answers open {share(others, *exact, True):.0%}"
             if others and data.lone else ""), flush=True)


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
    ap.add_argument("--settle", type=int, metavar="K", default=None,
                    help="share of K deals settled without the other seats' exact DD tricks")
    ap.add_argument("--others", nargs="+", default=["dd"], choices=["model", "dd"],
                    help="the other seats of the fixed-samples advice (default dd, as before)")
    ap.add_argument("--adaptive", action="store_true",
                    help="bid's default: adaptive sampling, warm, for each --others mode, on the most cores asked")
    args = ap.parse_args()
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    for name in args.case:
        preset, hand, samples, k = CASES[name]
        print(f"{name}: preset {preset}, hand {hand} in E, dealer N, {samples} samples")
        if args.settle:
            settle(preset, hand, args.settle)
        if args.before:
            before_after(preset, hand, args.compare or k, args.before)
        if not args.no_compare:
            compare(preset, hand, args.compare or k)
        if args.adaptive:
            nc = min(max(args.cores), len(cpus) or 1)
            adaptive(preset, hand, nc, args.repeat, args.others)
        if args.no_advice:
            continue
        for others in args.others:
          for ncores in args.cores:
            if len(cpus) < ncores:
                print(f"  {ncores} cores: skipped (only {len(cpus)} available)")
                continue
            if cpus:
                os.sched_setaffinity(0, cpus[:ncores])
            wall, cpu, rec = run_advice(preset, hand, samples, ncores, args.repeat, others)
            print(f"  --others {others}, {ncores} core{'s' if ncores > 1 else ' '} ({ncores} worker{'s' if ncores > 1 else ''}): "
                  f"{wall:.2f} s wall, {cpu:.2f} s CPU ({cpu / samples * 1e3:.1f} ms CPU a deal); {rec}",
                  flush=True)
        if cpus:
            os.sched_setaffinity(0, cpus)


if __name__ == "__main__":
    main()
