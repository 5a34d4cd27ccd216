"""Duplicate matches of bidding policies (bideuchre.bidding.match): the figures of the README.

    nice -n 10 python benchmarks/bench_match.py -p racehorse -p standard --deals 20000 \
        --pair model:heuristic --pair par:heuristic --work /tmp/bench-match

Every pair is played on the same seeded deals of each preset (``--seed``, default 1); each
match keeps its per-deal lines in ``--work`` (``PRESET-A-B-SEED.jsonl``) and resumes from
them, so a run can be stopped and started again.  Prints one line per match and, with
``--json FILE``, writes every result (edge, se, ci95, deals, declare and set rates).  Only
counts and points are reported: no timings.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def main(argv=None) -> None:
    from bideuchre import BidEuchreError
    from bideuchre.bidding.match import run_match

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-p", "--preset", action="append", required=True)
    ap.add_argument("--pair", action="append", required=True, help="A:B, e.g. model:heuristic")
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--work", default="/tmp/bench-match")
    ap.add_argument("--json", dest="json_out", default=None)
    args = ap.parse_args(argv)
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    results = []
    for preset in args.preset:
        for pair in args.pair:
            a, _, b = pair.partition(":")
            f = work / f"{preset}-{a}-{b}-{args.seed}.jsonl"
            try:
                r = run_match(a, b, preset, args.deals, args.seed, jobs=args.jobs, output=f, resume=f.exists())
            except BidEuchreError as e:                 # one line, exit 2, as the CLI
                print(f"error: --pair {pair}: {e}", file=sys.stderr)
                return 2
            obj = r.to_json()
            results.append(obj)
            sa, sb = obj["stats"]["a"], obj["stats"]["b"]
            print(f"{preset:10s} {a:>10s} vs {b:<10s} {r.deals:6d} deals  edge {r.edge:+.3f} ± {r.se:.3f}  "
                  f"95% [{r.ci95[0]:+.3f}, {r.ci95[1]:+.3f}]  declares {sa['declare_rate']:.1%}/{sb['declare_rate']:.1%}  "
                  f"set {sa['set_rate']:.1%}/{sb['set_rate']:.1%}", flush=True)
            if args.json_out:
                Path(args.json_out).write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    sys.exit(main())
