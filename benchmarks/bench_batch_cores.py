"""Wall time of ``bideuchre batch`` on 1 job against 2 jobs, the whole process (start-up,
generation, solving, writing, summary), interleaved rounds, medians.

    python benchmarks/bench_batch_cores.py [--generate 20000] [--preset racehorse] [--rounds 5]
        [--other PYTHONPATH]

Each round runs every configuration once, in an order that turns by one each round, so a
change of load on a shared machine falls on all of them alike; the figure is the ratio of the
medians (1 job / 2 jobs).  ``--other DIR`` adds the same runs of another build (a tree whose
``bideuchre`` package is in ``DIR``, put first on PYTHONPATH), for a before/after in one run.
The load average is printed before and after.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def run(pythonpath: str | None, jobs: int, args, out: str) -> float:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    cmd = [sys.executable, "-m", "bideuchre.cli.app", "batch", "--generate", str(args.generate), "--seed", "1",
           "-p", args.preset, "-o", out, "--overwrite", "--no-summary", "--jobs", str(jobs)]
    t0 = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--generate", type=int, default=20000)
    ap.add_argument("--preset", default="racehorse")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--other", default=None, help="PYTHONPATH of another build to measure alongside")
    args = ap.parse_args()
    builds = [("this", None)] + ([("other", args.other)] if args.other else [])
    configs = [(name, path, jobs) for name, path in builds for jobs in (1, 2)]
    times: dict = {(name, jobs): [] for name, _, jobs in configs}
    print(f"load average before: {os.getloadavg()}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.jsonl")
        for r in range(args.rounds):
            order = configs[r % len(configs):] + configs[:r % len(configs)]
            for name, path, jobs in order:
                t = run(path, jobs, args, out)
                times[(name, jobs)].append(t)
                print(f"round {r + 1} {name} jobs {jobs}: {t:.2f} s", flush=True)
    print(f"load average after: {os.getloadavg()}")
    for name, _ in builds:
        one, two = statistics.median(times[(name, 1)]), statistics.median(times[(name, 2)])
        print(f"{name}: median 1 job {one:.2f} s, 2 jobs {two:.2f} s, ratio {one / two:.2f}x "
              f"(per round: {', '.join(f'{a / b:.2f}' for a, b in zip(times[(name, 1)], times[(name, 2)]))})")


if __name__ == "__main__":
    main()
