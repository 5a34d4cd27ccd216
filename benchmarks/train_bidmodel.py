"""Make the bidding model's learned data (``solver/bidding/data/*.npz``): seeded DD results of
generated deals, then a fit.  Rerun it to reproduce the shipped files exactly.

Two steps, each resumable (parts of :data:`PART` deals are written as they finish and kept):

    # 1. deals and their DD results (nice: the machine is shared)
    nice -n 10 python benchmarks/train_bidmodel.py deals single24 --deals 100000 --seed 1
    nice -n 10 python benchmarks/train_bidmodel.py deals double32 --deals 30000 --seed 2
    nice -n 10 python benchmarks/train_bidmodel.py deals double48 --deals 2000 --seed 3
    # 2. the fit (seconds), held-out calibration printed and written next to the data
    python benchmarks/train_bidmodel.py fit single24

Step 1 deals with :func:`bideuchre.batch.generate_records` (deal *i* a function of the seed and
*i*; the dealer rotating N E S W) and solves every deal with the core's batch table
(``solve_tables``) with **each seat leading** in every strain of the deck form, so one solve
serves every first-lead rule (the declarer leads; ``standard``: the seat left of the dealer).
For the presets with lone bids it also asks "can the lone hand take every trick, with its best
exchange?" (:func:`bideuchre.analysis.lone.lone_values`, the preset's first lead) for every
seat and strain.  Parts go to ``--work`` (default ``/tmp/bidmodel-train``).

Step 2 (:func:`bideuchre.bidding.train.fit_deck`) keeps the last tenth of the deals (by index)
out of the fit and reports the calibration on them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

PART = 2000


def _work(args) -> Path:
    p = Path(args.work) / args.deck
    p.mkdir(parents=True, exist_ok=True)
    return p


def lone_presets(deck: str) -> list[str]:
    from bideuchre.rules import PRESETS
    return [p.name for p in PRESETS.values() if p.deck.name == deck and p.lone_bids]


def solve_part(deck_name: str, seed: int, lo: int, hi: int, jobs: int, lone: bool) -> dict:
    """DD results of deals ``lo .. hi-1`` of the seed's stream (see the module docstring)."""
    from concurrent.futures import ThreadPoolExecutor

    from bideuchre.analysis.lone import lone_leader, lone_values
    from bideuchre.batch import generate_records
    from bideuchre.batch.readers import prepare
    from bideuchre.rules import Seat, Strain, get_deck, get_preset
    from bideuchre.search import _search
    from bideuchre.search.solve import exact_above_for, tt_bits_for

    deck = get_deck(deck_name)
    recs = [r for r in generate_records(hi, seed, deck, dealer="rotate", start=lo)]
    counts = np.array([r.deal.counts() for r in recs], dtype=np.uint8).reshape(-1, 4, 24)
    dealers = np.array([int(r.deal.dealer) for r in recs], dtype=np.int8)
    strains = [Strain.S, Strain.H, Strain.D, Strain.C, Strain.NT] + ([Strain.NTL] if deck.name == "single24" else [])
    st_arr = np.array([int(s) for s in strains], dtype=np.intc)
    n = len(recs)
    leaders = np.tile(np.arange(4, dtype=np.intc), (n, 1))

    def solve(sl):
        c = np.ascontiguousarray(counts[sl])
        return _search.solve_tables(c, st_arr, np.ascontiguousarray(leaders[sl]), -1,
                                    tt_bits_for(deck), exact_above_for(deck))

    step = max(1, (n + jobs - 1) // jobs)
    slices = [slice(i, min(n, i + step)) for i in range(0, n, step)]
    with ThreadPoolExecutor(jobs) as ex:
        ns = np.concatenate(list(ex.map(solve, slices))).astype(np.int8)
    out = {"counts": counts, "dealers": dealers, "ns": ns,
           "strains": np.array([int(s) for s in strains], dtype=np.int8)}
    if lone:
        for pname in lone_presets(deck.name):
            preset = get_preset(pname)
            pst = list(preset.strains)
            nb = len(preset.lone_bids)

            def lone_rows(sl, preset=preset, pst=pst, nb=nb):
                res = np.zeros((sl.stop - sl.start, 4, len(pst), nb), dtype=bool)
                for k, i in enumerate(range(sl.start, sl.stop)):
                    c = np.ascontiguousarray(counts[i])
                    for seat in Seat:
                        lead = lone_leader(preset, seat, int(dealers[i]))
                        for j, st in enumerate(pst):
                            res[k, seat, j] = lone_values(c, preset, seat, st, lead, all_only=True)
                return res

            with ThreadPoolExecutor(jobs) as ex:
                out[f"lone_{pname}"] = np.concatenate(list(ex.map(lone_rows, slices)))
    return out


def cmd_deals(args) -> None:
    work = _work(args)
    meta = {"deck": args.deck, "seed": args.seed, "part": PART}
    (work / "meta.json").write_text(json.dumps(meta))
    t0 = time.time()
    for lo in range(0, args.deals, PART):
        hi = min(args.deals, lo + PART)
        f = work / f"part-{args.seed}-{lo:07d}-{hi:07d}.npz"
        if f.exists():
            continue
        t1 = time.time()
        part = solve_part(args.deck, args.seed, lo, hi, args.jobs, not args.no_lone)
        tmp = f.with_suffix(".tmp.npz")
        np.savez_compressed(tmp, **part)
        os.replace(tmp, f)
        print(f"{f.name}: {hi - lo} deals in {time.time() - t1:.1f} s (total {time.time() - t0:.0f} s)",
              file=sys.stderr, flush=True)


def load_parts(work: Path) -> dict:
    """Every part of a work folder, concatenated in deal order."""
    files = sorted(work.glob("part-*.npz"), key=lambda p: (int(p.name.split("-")[1]), int(p.name.split("-")[2])))
    if not files:
        raise SystemExit(f"no parts in {work}: run the deals step first")
    parts = [dict(np.load(f)) for f in files]
    keys = [k for k in parts[0] if all(k in p for p in parts)]
    out = {k: (parts[0][k] if k == "strains" else np.concatenate([p[k] for p in parts])) for k in keys}
    return out


def cmd_fit(args) -> None:
    from bideuchre.bidding.train import fit_deck
    data = load_parts(_work(args))
    out = Path(args.out) if args.out else Path(__file__).resolve().parents[1] / "solver" / "bidding" / "data"
    report = fit_deck(args.deck, data, out)
    print(json.dumps(report, indent=1))


def cmd_report(args) -> None:
    """The held-out calibration of the shipped data as markdown tables."""
    data = Path(__file__).resolve().parents[1] / "solver" / "bidding" / "data"
    reports = [json.loads(f.read_text()) for f in sorted(data.glob("*.calibration.json"))]
    names = {"leader0": "declarer", "leader1": "declarer's left", "leader2": "partner", "leader3": "declarer's right"}
    tricks = [(r["deck"], kind, names[lead], e) for r in reports for kind, rows in r["tricks"].items()
              for lead, e in rows.items()]
    lone = [(preset, key, e) for r in reports for preset, rows in r["lone"].items() for key, e in rows.items()]
    print("| deck | strains | first lead | held-out hands | MAE model | MAE hand-blind | log-loss model | log-loss hand-blind |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for deck, kind, lead, e in tricks:
        print(f"| {deck} | {kind} | {lead} | {e['n']:,} | {e['mae']:.3f} | {e['mae_blind']:.3f} | "
              f"{e['logloss']:.3f} | {e['logloss_blind']:.3f} |")
    print()
    print("| preset | lone bid, strains | held-out hands | rate | mean P | log-loss model | log-loss hand-blind |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for preset, key, e in lone:
        print(f"| {preset} | {key} | {e['n']:,} | {e['rate']:.4f} | {e['mean_p']:.4f} | "
              f"{e['logloss']:.4f} | {e['logloss_blind']:.4f} |")


def cmd_reliability(args) -> None:
    """Calibration of the shipped model on the held-out deals (the last tenth, as in the fit):
    the hands cut into tenths by the model's expected tricks (declarer leading; every seat and
    strain), each tenth's mean expected against its mean DD tricks, and P(k) against the
    frequency of k over all held-out hands."""
    from bideuchre.bidding.model import TrickModel
    from bideuchre.bidding.train import HOLDOUT, side_tricks
    from bideuchre.rules import PRESETS

    data = load_parts(_work(args))
    preset = next(p for p in PRESETS.values() if p.deck.name == args.deck and p.first_lead == "declarer")
    m = TrickModel.load(preset)
    n = len(data["counts"])
    test = np.arange(int(round(n * (1 - HOLDOUT))), n)
    tr = side_tricks(data["ns"], preset.tricks)
    cols = [int(s) for s in data["strains"]]
    exp, obs, probs = [], [], []
    for seat in range(4):
        pr = m.trick_probs(data["counts"][test, seat], seat, (seat + 3) % 4)
        for j, st in enumerate(preset.strains):
            probs.append(pr[:, j])
            exp.append(pr[:, j] @ np.arange(preset.tricks + 1))
            obs.append(tr[test, seat, seat, cols.index(int(st))])      # the declarer leads
    exp, obs, probs = np.concatenate(exp), np.concatenate(obs), np.concatenate(probs)
    print(f"{args.deck} ({preset.name}'s rule: the declarer leads), {len(exp):,} held-out hands")
    print("| tenth | mean expected tricks | mean DD tricks |")
    print("|---:|---:|---:|")
    order = np.argsort(exp, kind="stable")
    for k, part in enumerate(np.array_split(order, 10)):
        print(f"| {k + 1} | {exp[part].mean():.3f} | {obs[part].mean():.3f} |")
    print()
    print("| tricks | mean P | frequency |")
    print("|---:|---:|---:|")
    for k in range(preset.tricks + 1):
        print(f"| {k} | {probs[:, k].mean():.4f} | {(obs == k).mean():.4f} |")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("deals", help="generate and solve deals (resumable)")
    d.add_argument("deck", choices=["single24", "double32", "double48"])
    d.add_argument("--deals", type=int, required=True)
    d.add_argument("--seed", type=int, required=True)
    d.add_argument("--jobs", type=int, default=2)
    d.add_argument("--no-lone", action="store_true", help="skip the lone 'every trick?' searches")
    d.add_argument("--work", default="/tmp/bidmodel-train")
    f = sub.add_parser("fit", help="fit the model on the deals made, write the .npz")
    f.add_argument("deck", choices=["single24", "double32", "double48"])
    f.add_argument("--work", default="/tmp/bidmodel-train")
    f.add_argument("--out", default=None)
    sub.add_parser("report", help="the shipped data's held-out calibration, as markdown")
    r = sub.add_parser("reliability", help="expected against DD tricks on the held-out deals, by tenths")
    r.add_argument("deck", choices=["single24", "double32", "double48"])
    r.add_argument("--work", default="/tmp/bidmodel-train")
    args = ap.parse_args(argv)
    {"deals": cmd_deals, "fit": cmd_fit, "report": cmd_report, "reliability": cmd_reliability}[args.cmd](args)


if __name__ == "__main__":
    main()
