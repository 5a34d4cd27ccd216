"""Make ``solver/analysis/advice/hand_results.json``: the distribution of one hand's result per
preset, which the game model of ``bid --score`` (:mod:`bideuchre.analysis.advice.game`) draws
the hands still to come from.

For each preset, ``--deals`` random deals (deal ``i`` from ``numpy.random.default_rng([seed,
i])``, the dealer rotating N E S W), bid by ``--policy``: ``model`` (every seat by the bidding
policy from its own hand, choosing; the declarer names its strain by the policy where it is
named after the auction; the contract scored with the declarer's DD tricks in that strain,
a lone bid with its lone tricks — :mod:`bideuchre.analysis.advice.table`) or ``par`` (all
four hands seen, :func:`bideuchre.analysis.par.par`).  Stored: the counts of (declarer
points, defender points, made) and of thrown-in hands, with the deals, seed and policy.

    python benchmarks/hand_results.py [--presets standard pepper racehorse double48]
                                      [--deals 2000] [--seed 1] [--policy model]
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bideuchre.analysis.advice.deal_data import _deal_of, _lone_searcher, _solver  # noqa: E402
from bideuchre.analysis.advice.model import points  # noqa: E402
from bideuchre.analysis.advice.table import OURS, model_paths, path_tricks  # noqa: E402
from bideuchre.analysis.auction import ladder  # noqa: E402
from bideuchre.rules import get_preset  # noqa: E402

OUT = ROOT / "solver" / "analysis" / "advice" / "hand_results.json"


def random_counts(preset, rng) -> np.ndarray:
    """One uniform deal of the preset's deck as 4 × 24 counts."""
    pool = np.repeat(np.array(preset.deck.card_ids), preset.deck.copies)
    perm = rng.permutation(pool)
    n = preset.tricks
    c = np.zeros((4, 24), dtype=np.uint8)
    for s in range(4):
        np.add.at(c[s], perm[s * n:(s + 1) * n], 1)
    return c


def model_results(preset, deals: int, seed: int):
    """(declarer points, defender points, made) per played deal, and the thrown-in count,
    every seat bidding by the model policy."""
    from bideuchre.bidding import get_policy
    pol = get_policy("model", preset)
    bids = ladder(preset)
    out, thrown = collections.Counter(), 0
    for dealer in range(4):
        idx = list(range(dealer, deals, 4))
        if not idx:
            continue
        counts = np.stack([random_counts(preset, np.random.default_rng([seed, i])) for i in idx])
        first = (dealer + 1) % 4
        acts, pick = pol.choose(np.ascontiguousarray(counts[:, first]), first, dealer, [], None)
        paths = model_paths(pol, preset, dealer, [], first, counts)
        rows = np.arange(len(idx))
        # the first speaker's own call, and its strain where it declares
        a = np.asarray(pick)
        decl, bid, strain = paths.declarer[rows, a], paths.bid[rows, a], paths.strain[rows, a]
        mine = (decl == first) & (strain == OURS)
        for b in np.unique(bid[mine]).tolist():
            r = mine & (bid == b)
            strain[r] = np.asarray(pol.declare_strain(np.ascontiguousarray(counts[r, first]), first,
                                                      dealer, bids[b]), dtype=np.int8)
        paths.declarer[:, 0], paths.bid[:, 0], paths.strain[:, 0] = decl, bid, strain
        paths.declarer, paths.bid, paths.strain, paths.tricks = (x[:, :1].copy() for x in (
            paths.declarer, paths.bid, paths.strain, paths.tricks))
        dd = np.full((len(idx), 4, len(preset.strains)), -1, dtype=np.int16)
        path_tricks(paths, preset, dealer, -1, counts, dd, _solver(preset),
                    _lone_searcher(preset))
        for i in range(len(idx)):
            if paths.declarer[i, 0] < 0:
                thrown += 1
                continue
            d, f, m = points(preset, bids[int(paths.bid[i, 0])], np.array(int(paths.tricks[i, 0])))
            out[(int(d), int(f), int(bool(m)))] += 1
    return out, thrown


def par_results(preset, deals: int, seed: int):
    """As :func:`model_results`, every seat seeing all four hands (par)."""
    from bideuchre.analysis.par import par
    out, thrown = collections.Counter(), 0
    for i in range(deals):
        dealer = i % 4
        d = _deal_of(preset, dealer, random_counts(preset, np.random.default_rng([seed, i])))
        res = par(d, preset, dealer)
        c = res.contract
        if c is None:
            thrown += 1
            continue
        decl, dfn = c.points[c.side], c.points[c.side.other]
        out[(int(decl), int(dfn), int(c.tricks >= c.bid.needs(preset.tricks)))] += 1
    return out, thrown


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--presets", nargs="+", default=["standard", "pepper", "racehorse", "double48"])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--policy", choices=["model", "par"], default="model")
    args = ap.parse_args()
    table = json.loads(OUT.read_text()) if OUT.exists() else {}
    for name in args.presets:
        p = get_preset(name)
        t0 = time.process_time()
        res, thrown = (model_results if args.policy == "model" else par_results)(p, args.deals, args.seed)
        table[f"{p.name}/{p.deck.name}"] = {
            "deals": args.deals, "seed": args.seed, "policy": args.policy, "thrown_in": thrown,
            "outcomes": [[d, f, m, k] for (d, f, m), k in sorted(res.items())]}
        played = sum(res.values())
        mean = sum((d - f) * k for (d, f, m), k in res.items()) / max(1, played)
        print(f"{name}: {played} played, {thrown} thrown in, declarer's mean margin {mean:+.2f}, "
              f"{time.process_time() - t0:.1f} s CPU", flush=True)
    OUT.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
