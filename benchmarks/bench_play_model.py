"""How much the play model (bideuchre.analysis.play_model) sharpens a seat's picture of the
unseen cards: the belief measure behind ``play --play-model``'s defaults (issue 26 §1).

    python benchmarks/bench_play_model.py [--deals 100] [--seed 8] [--samples 200]
                                          [--setting 4:6 --setting 1:6 ...] [--json]

Deals ``generate_records(deals, seed)`` of the racehorse preset; each deal's contract the
bidding model's (as ``match --play --contracts model``), played out by ``pimc`` at every seat
(100 deals a card).  At every second decision from the second trick on where the seat to move
has a choice, ``--samples`` consistent deals of its view are drawn (seed 1000 + the deal's
index), and the measure is the **weighted share of the unseen cards placed in their true seat**
(per drawn deal, the cards each hidden seat holds that it truly holds, over the unseen cards;
averaged with the deals' weights): uniform weights (the play without the model) against each
``--setting BETA:HISTORY`` of the play model.  Reported: the measure, and each setting's
paired difference from uniform with its standard error over the decisions.

One core; about 30 s for 100 deals and one setting.
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from bideuchre.analysis.lone import lone_leader
from bideuchre.analysis.play_model import play_model, play_weights
from bideuchre.analysis.sampler import SeatView
from bideuchre.batch import generate_records
from bideuchre.bidding.play_match import _chooser, model_contract
from bideuchre.notation import Position
from bideuchre.rules import BidEuchreError, get_preset
from bideuchre.search.solve import first_leader


def _setting(text: str) -> tuple[float, int]:
    try:
        b, h = text.split(":")
        return float(b), int(h)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--setting {text!r}: expected BETA:HISTORY, like 4:6") from None


def measure(deals: int, seed: int, samples: int, settings: list[tuple[float, int]]) -> dict:
    """``{"decisions", "uniform", "settings": [{"beta", "history", "share", "diff", "se"}]}``
    (module docstring)."""
    p = get_preset("racehorse")
    models = [play_model(b, h) for b, h in settings]
    base, got = [], [[] for _ in models]
    for k, rec in enumerate(generate_records(deals, seed, p.deck, dealer="rotate")):
        deal = rec.deal
        _, c = model_contract(deal, p)
        if c is None:
            continue
        lone = c.declarer if c.bid.is_lone else None
        leader = (lone_leader(p, lone, deal.dealer) if lone is not None
                  else first_leader(p, c.declarer, deal.dealer))
        pos = Position(deal, c.strain, leader, (), lone)
        pick = _chooser("pimc", p, c, leader, lone, 100, k)
        size = 3 if lone is not None else 4
        while not pos.is_over:
            legal = pos.legal_cards()
            s = pos.to_move
            if len(pos.played) >= size and len(legal) > 1 and len(pos.played) % 2 == 0:
                view = SeatView(deal.deck, s, deal.hands[s], pos.strain, leader, list(pos.played), lone)
                counts = view.samples(1000 + k, samples)
                true = np.array(pos.hands, dtype=np.int64)
                hid = [h for h in view.hidden if h != view.out]
                right = np.minimum(counts[:, hid], true[hid][None]).sum(axis=(1, 2))
                total = true[hid].sum()
                base.append(right.mean() / total)
                for m, out in zip(models, got):
                    f, _ = play_weights(view, counts, m)
                    out.append(float((right * f).sum() / f.sum()) / total)
            pos.play(legal[0] if len(legal) == 1 else pick(pos))
    b = np.array(base)
    res = {"deals": deals, "seed": seed, "samples": samples, "decisions": int(b.size),
           "uniform": round(float(b.mean()), 4), "settings": []}
    for (beta, hist), out in zip(settings, got):
        d = np.array(out) - b
        res["settings"].append({"beta": beta, "history": hist, "share": round(float(np.mean(out)), 4),
                                "diff": round(float(d.mean()), 4),
                                "se": round(float(d.std(ddof=1) / np.sqrt(d.size)), 4) if d.size > 1 else None})
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=8)
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--setting", type=_setting, action="append", help="BETA:HISTORY (repeatable; default 4:6)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    if a.deals < 1 or a.samples < 1:
        ap.error("--deals and --samples must be at least 1")
    try:
        res = measure(a.deals, a.seed, a.samples, a.setting or [(4.0, 6)])
    except BidEuchreError as e:     # a bad setting (play_model's RulesError): one line, exit 2
        print(f"error: {e}", file=sys.stderr)
        return 2
    if a.json:
        print(json.dumps(res))
        return 0
    print(f"{res['decisions']} decisions over {a.deals} deals: unseen cards in their true seat, "
          f"uniform {res['uniform']:.4f}")
    for s in res["settings"]:
        print(f"  beta {s['beta']:g}, history {s['history']}: {s['share']:.4f}  "
              f"{s['diff']:+.4f} ± {s['se']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
