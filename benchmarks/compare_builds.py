"""Two builds of the core side by side: the same DD tables, interleaved, in one process each.

    python benchmarks/compare_builds.py OLD_CHECKOUT NEW_CHECKOUT [--deck double48] [--deals 0,2-5]

Each checkout needs its own build: its own venv (``OLD_CHECKOUT/.venv``, e.g. the base commit
cloned into /tmp and ``pip install -e .`` there), or, without one, the core built in place
(``python setup.py build_ext --inplace`` in the checkout), run by this Python through a
temporary folder where ``bideuchre`` names the checkout's ``solver/``.  One worker process per build solves the deals of
``bench_solve.py`` (same seeds; single24: the real deals, preset racehorse) in turn, the order
of the two alternating from deal to deal, so both see the same machine load.  Prints per deal
the milliseconds per table (CPU time of the solving thread: fairer on a shared machine) and
the nodes of each build, then the medians, the median ratios
(new/old) and the ratio of total nodes.  Stops if any table differs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from deal_ranges import parse_deals  # noqa: E402

WORKER = r'''
import json, sys, time
sys.path.insert(0, "benchmarks")
from bench_solve import random_deals, ROOT
from bideuchre.notation import Deal
from bideuchre.search.solve import dd_table, get_solver
deck, preset, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
if deck == "single24":
    words = (ROOT / "positions/sources/real_deals_single24.txt").read_text().split()
    deals = [Deal.from_pbn(" ".join(words[i:i + 4])) for i in range(0, 4 * n, 4)]
else:
    deals = random_deals(deck, n, int(deck[-2:]))
for line in sys.stdin:
    d = deals[int(line)]
    s = get_solver(d.deck)
    s.reset_nodes()
    t = time.thread_time()
    tab = dd_table(d, preset)
    t = time.thread_time() - t
    print(json.dumps([t, s.nodes, tab.array().tolist()]), flush=True)
'''

PRESET = {"single24": "racehorse", "double32": "double32", "double48": "double48"}


def _worker(build: str, deck: str, n: int) -> subprocess.Popen:
    """A worker process solving the benchmark deals with the build in checkout ``build``."""
    venv = Path(build) / ".venv" / "bin" / "python"
    env = dict(os.environ)
    if venv.exists():
        python = str(venv)
    else:
        python = sys.executable
        shim = Path(tempfile.mkdtemp(prefix="build_"))
        (shim / "bideuchre").symlink_to(Path(build).resolve() / "solver")
        env["PYTHONPATH"] = str(shim)
    return subprocess.Popen([python, "-c", WORKER, deck, PRESET[deck], str(n)], cwd=build, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--deck", default="double48", choices=sorted(PRESET))
    ap.add_argument("--deals", default="0-4", help="deal numbers and ranges, e.g. 0,2-7")
    a = ap.parse_args()
    try:
        idx = parse_deals(a.deals)
    except ValueError as e:
        ap.error(f"--deals: {e}")
    for b in (a.old, a.new):
        if not (Path(b) / "solver").is_dir():
            ap.error(f"{b}: not a checkout of bideuchre (no solver/ folder)")
    n = max(idx) + 1
    builds = [a.old, a.new]
    procs = [_worker(b, a.deck, n) for b in builds]
    res: list[list] = [[], []]
    for q, i in enumerate(idx):
        out = {}
        for j in ([0, 1] if q % 2 == 0 else [1, 0]):
            procs[j].stdin.write(f"{i}\n")
            procs[j].stdin.flush()
            out[j] = json.loads(procs[j].stdout.readline())
        if out[0][2] != out[1][2]:
            sys.exit(f"deal {i}: the tables differ: {out[0][2]} vs {out[1][2]}")
        for j in (0, 1):
            res[j].append(out[j][:2])
        print(f"deal {i}: {out[0][0] * 1e3:.1f} ms {out[0][1]:,} nodes | {out[1][0] * 1e3:.1f} ms "
              f"{out[1][1]:,} nodes", flush=True)
    for j in (0, 1):
        print(f"{builds[j]}: median {statistics.median(x[0] for x in res[j]) * 1e3:.1f} ms a table, "
              f"{statistics.median(x[1] for x in res[j]):,.0f} nodes")
    rt = statistics.median(b[0] / o[0] for o, b in zip(*res))
    rn = statistics.median(b[1] / o[1] for o, b in zip(*res))
    tn = sum(x[1] for x in res[1]) / sum(x[1] for x in res[0])
    print(f"new/old: time median ratio {rt:.3f}, nodes median ratio {rn:.3f}, total nodes {tn:.3f}")


if __name__ == "__main__":
    main()
