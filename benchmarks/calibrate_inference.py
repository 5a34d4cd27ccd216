"""Calibration of the inference from the calls heard (``bid --others model``), as Pidgin
publishes it: how much better than uniform dealing the weighted deals place the unseen cards,
by the number of calls heard.

Test deals: deal ``t`` from ``numpy.random.default_rng([seed, t])``, the dealer rotating N E S
W; every seat bids by the model policy (choosing, from its own hand).  For ``k`` = 0 … 3 calls
heard, the seat to speak next is advised: ``--samples`` uniform deals of the cards it does
not see (:class:`~bideuchre.analysis.advice.evidence.CandidateStream`'s uniform blocks for
the seed ``(seed, t, k)``), weighted by the policy's probability of the ``k`` calls heard
(:func:`~bideuchre.analysis.advice.evidence.call_weights`, noise floor ``--epsilon``).
Measured on the true deal:

- **placement log-loss** (nats per unseen card): ``−log P(the true seat of each unseen card
  copy)``, ``P(seat s holds card c)`` the weighted share of the copies of ``c`` in ``s`` over the
  sampled deals (at least 1e-6) — against uniform dealing (the exact value ``ln 3``: each of
  the three other seats equally likely) and the same deals unweighted (sampling noise only);
- **trick estimate error**: for each hidden hand, the trick model's expected tricks of its
  side in its best strain given that hand alone (:meth:`TrickModel.expected_tricks`, the
  hand's strength as the bidding reads it), estimated by the weighted mean over the sampled
  deals; the mean absolute error against the true hand's value, weighted and unweighted;
- the mean effective sample size of the weights.

Rows with k calls heard exist only where the auction was not over before (a moonshot ends
it).  Prints a markdown table; ``--json`` writes the figures.

    python benchmarks/calibrate_inference.py [--preset standard] [--deals 500] [--samples 2048]
                                             [--seed 1] [--epsilon 0.02] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bideuchre.analysis.advice.evidence import (EPSILON, CandidateStream,  # noqa: E402
                                                call_weights, n_eff)
from bideuchre.analysis.advice.sampling import Sampler  # noqa: E402
from bideuchre.analysis.auction import Auction  # noqa: E402
from bideuchre.bidding import TrickModel, get_policy  # noqa: E402
from bideuchre.rules import get_preset  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from hand_results import random_counts  # noqa: E402


def strength(model, hands: np.ndarray, seat: int, dealer: int) -> np.ndarray:
    """The trick model's expected tricks of the seat's side in its best strain, per hand."""
    return model.expected_tricks(np.ascontiguousarray(hands), seat, dealer).max(axis=1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--preset", default="standard")
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--samples", type=int, default=2048, help="at most 2048 (the pilot)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--epsilon", type=float, default=EPSILON)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    p = get_preset(args.preset)
    pol = get_policy("model", p)
    model = TrickModel.load(p)
    rows = {k: {"deals": 0, "ll_w": 0.0, "ll_u": 0.0, "mae_w": 0.0, "mae_u": 0.0, "hands": 0,
                "neff": 0.0} for k in range(4)}
    t0 = time.process_time()
    for t in range(args.deals):
        dealer = t % 4
        deal = random_counts(p, np.random.default_rng([args.seed, t]))
        auc = Auction(p, dealer)
        calls = []
        while not auc.is_over:
            s = int(auc.to_act)
            acts, idx = pol.choose(deal[s][None], s, dealer, list(auc.actions))
            calls.append(acts[int(idx[0])])
            auc.play(calls[-1])
        for k in range(len(calls)):        # the k-th speaker had heard k calls
            me = (dealer + 1 + k) % 4
            hand = [c for c in range(24) for _ in range(int(deal[me, c]))]
            heard = calls[:k]
            smp = Sampler(p, me, hand, None, 0)
            stream = CandidateStream(smp, lambda c: call_weights(pol, p, dealer, heard, c, me, None,
                                                                 args.epsilon),
                                     args.seed * 1_000_003 + t * 4 + k, 0)
            cand = stream.pilot[:args.samples]
            w = stream.pilot_w[:args.samples]
            if w.sum() <= 0:
                continue
            r = rows[k]
            r["deals"] += 1
            r["neff"] += n_eff(w)
            others = [s for s in range(4) if s != me]
            unseen = deal[others].sum()
            for weights, key in ((w, "ll_w"), (np.ones_like(w), "ll_u")):
                share = np.einsum("i,isc->sc", weights, cand[:, others].astype(np.float64)) / weights.sum()
                copies = np.maximum(deal[others].sum(axis=0), 1)
                prob = np.maximum(share / copies, 1e-6)
                r[key] += float(-(deal[others] * np.log(prob)).sum() / unseen)
            for s in others:
                truth = float(strength(model, deal[s][None], s, dealer)[0])
                est = strength(model, cand[:, s], s, dealer)
                r["mae_w"] += abs(float(np.dot(w, est) / w.sum()) - truth)
                r["mae_u"] += abs(float(est.mean()) - truth)
                r["hands"] += 1
    cpu = time.process_time() - t0
    print(f"preset {p.name}, {args.deals} deals, {args.samples} sampled deals each, seed {args.seed}, "
          f"epsilon {args.epsilon}, {cpu:.0f} s CPU\n")
    print("| calls heard | deals | log-loss (weighted) | log-loss (same deals unweighted) | uniform (ln 3) "
          "| trick-estimate MAE (weighted) | MAE (uniform) | mean n_eff |")
    print("|---|---|---|---|---|---|---|---|")
    out = []
    for k, r in rows.items():
        if not r["deals"]:
            continue
        d, h = r["deals"], r["hands"]
        row = {"calls": k, "deals": d, "log_loss": r["ll_w"] / d, "log_loss_unweighted": r["ll_u"] / d,
               "log_loss_uniform": math.log(3), "mae": r["mae_w"] / h, "mae_uniform": r["mae_u"] / h,
               "n_eff": r["neff"] / d}
        out.append(row)
        print(f"| {k} | {d} | {row['log_loss']:.4f} | {row['log_loss_unweighted']:.4f} | "
              f"{math.log(3):.4f} | {row['mae']:.3f} | {row['mae_uniform']:.3f} | {row['n_eff']:.0f} |")
    if args.json:
        Path(args.json).write_text(json.dumps({"preset": p.name, "deals": args.deals,
                                               "samples": args.samples, "seed": args.seed,
                                               "epsilon": args.epsilon, "rows": out}, indent=1))


if __name__ == "__main__":
    main()
