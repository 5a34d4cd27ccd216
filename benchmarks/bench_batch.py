"""Benchmark of ``bideuchre batch`` (issue 5): deals per second, scaling, peak memory.

Runs the whole pipeline (read and parse the file, solve in chunks, write JSON lines with a
flush and fsync per chunk, summary) exactly as ``bideuchre batch`` does, each measurement in a
fresh subprocess so that its peak memory (``ru_maxrss``) is its own:

- the 10,000 real deals (positions/sources/real_deals_single24.txt), preset racehorse, DD
  table only, with 1 job pinned to one core (``sched_setaffinity``: the reader thread shares
  that core too, a true one-core figure), 1 job unpinned, and 2 jobs; the ratio 2 jobs / 1 core;
- the thread executor against the process executor at 2 jobs;
- with ``--repeat N``, N rounds that interleave the configurations, keeping the fastest run of
  each (other programs on the machine only ever slow a run down);
- the solver alone in short interleaved bursts (1,000 deals, one core against two threads,
  fastest of 15), a scaling figure that survives a busy machine better;
- peak memory at two input sizes (the first 1,000 deals and all 10,000): streaming means it
  does not grow with the number of deals.

Other programs sharing the machine slow the figures: the load average is printed before and
after, and CPU seconds are given beside wall seconds.

With ``--scaling``, 1 job against 2 jobs of the default executor (threads for DD tables,
processes with ``--alone``/``--par``), in CPU time (:func:`cpu_scaling`): on a machine shared
with other programs wall time measures them, CPU seconds do not.

    python benchmarks/bench_batch.py [--file F] [--preset racehorse] [--repeat N] [--quick]
    python benchmarks/bench_batch.py --scaling [--par] [--alone] [--limit N | --generate N] [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "positions" / "sources" / "real_deals_single24.txt"
GENERATE = 0          # --generate N: the measured runs generate N deals instead of reading


def worker(args) -> None:
    """One measured run in this process; prints a JSON line."""
    if args.pin:
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    sys.path.insert(0, str(ROOT))
    from bideuchre import batch as B
    from bideuchre.rules import get_preset

    p = get_preset(args.preset)
    src = args.file
    if args.limit:
        lines = Path(src).read_text().splitlines()[: args.limit]
        src = os.path.join(args.tmp, f"in{args.limit}.txt")
        Path(src).write_text("\n".join(lines) + "\n")
    out = os.path.join(args.tmp, "out.jsonl")
    summary = B.Summary(p)
    writer = B.open_writer("jsonl", out, p, overwrite=True, summary=summary, alone=args.alone, par=args.par)
    c0 = time.process_time()
    m0 = time.thread_time()
    t0 = time.perf_counter()
    records = (B.generate_records(args.generate, 1, p.deck) if args.generate
               else B.read_records(src, p.deck))
    rep = B.run_batch(records, writer, jobs=args.jobs, executor=args.executor,
                      summary=summary, alone=args.alone, par=args.par)
    wall = time.perf_counter() - t0
    main_cpu = time.thread_time() - m0
    cpu = time.process_time() - c0
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(json.dumps({"deals": rep.solved, "wall": wall, "cpu": cpu + kids.ru_utime + kids.ru_stime,
                      "main_cpu": main_cpu,
                      "rate": rep.solved / wall, "maxrss_mb": max(
                          resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, kids.ru_maxrss) / 1024,
                      "jobs": args.jobs, "executor": rep.executor, "pin": args.pin}))


def burst_scaling(file, preset, deals=1000, rounds=15) -> tuple[float, float]:
    """The solver alone, in short interleaved bursts: the fastest (wall, CPU) seconds for
    ``deals`` deals with one thread pinned to one core, and with two threads (chunks of 125
    deals through :func:`bideuchre.batch.solve_table_chunk`).  Short runs catch the moments when the other programs leave a core
    free; the pipeline figures above need a quiet machine for a full 10-30 s run."""
    from concurrent.futures import ThreadPoolExecutor

    import numpy as np
    sys.path.insert(0, str(ROOT))
    from bideuchre import batch as B
    from bideuchre.rules import get_preset

    p = get_preset(preset)
    recs = [r for r, _ in zip(B.read_records(file, p.deck), range(deals))]
    chunks = [B.ChunkTask(i, p, p.deck, np.array([r.deal.counts() for r in recs[k:k + 125]], np.uint8),
                          np.array([int(r.deal.dealer) for r in recs[k:k + 125]], np.int8),
                          np.array([6] * len(recs[k:k + 125])), tt_bits=B.batch_tt_bits(p.deck))
              for i, k in enumerate(range(0, len(recs), 125))]
    cpus = sorted(os.sched_getaffinity(0))
    best = {1: (float("inf"), 0.0), 2: (float("inf"), 0.0)}
    for _ in range(rounds):
        for jobs in (1, 2):
            os.sched_setaffinity(0, set(cpus[:jobs]))
            with ThreadPoolExecutor(jobs) as ex:
                c0, t0 = time.process_time(), time.perf_counter()
                list(ex.map(B.solve_table_chunk, chunks))
                wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            best[jobs] = min(best[jobs], (wall, cpu))
    os.sched_setaffinity(0, set(cpus))
    return best[1], best[2]


def _measure(file, preset, jobs, executor, pin, limit, analyses=()) -> dict:
    """One run in a fresh subprocess (``--worker``); its JSON figures."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, __file__, "--worker", "--file", str(file), "--preset", preset,
               "--jobs", str(jobs), "--executor", executor, "--tmp", tmp, "--limit", str(limit),
               "--generate", str(GENERATE), *analyses]
        if pin:
            cmd.append("--pin")
        r = subprocess.run(cmd, capture_output=True, text=True, check=True)
        return json.loads(r.stdout.strip().splitlines()[-1])


def line(label: str, m: dict) -> str:
    return (f"{label:<34} {m['deals']:>6} deals  {m['wall']:6.2f} s wall  {m['cpu']:6.2f} s CPU "
            f"(main thread {m['main_cpu']:5.2f})  {m['rate']:7.0f} deals/s  peak RSS {m['maxrss_mb']:6.1f} MB")


def cpu_scaling(one: dict, two: dict) -> tuple[float, float]:
    """Scaling from 1 to 2 jobs in CPU time, for a machine shared with other programs (where
    wall time measures the others): ``(bound, efficiency)``.

    One job takes at least ``max(worker CPU, main-thread CPU)`` of wall time: the reader and
    writer (main thread) overlap the solving (worker) on a second core, whatever ``--jobs``.
    Two jobs take at least ``max(total CPU / 2, main-thread CPU)``.  ``bound`` is the ratio of
    the two: the scaling two free cores give, from CPU seconds that other programs do not
    inflate (GIL waits aside: with threads, the Python of the main thread and of the workers
    shares one GIL; the solver releases it).  ``efficiency`` is the 1-job CPU over the 2-job CPU
    (work added by running in parallel: start-up, pickling, contention)."""
    w1 = max(one["cpu"] - one["main_cpu"], one["main_cpu"])
    w2 = max(two["cpu"] / 2, two["main_cpu"])
    return w1 / w2, one["cpu"] / two["cpu"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--file", default=str(REAL))
    ap.add_argument("--preset", default="racehorse")
    ap.add_argument("--quick", action="store_true", help="only the 2-job run and the memory pair")
    ap.add_argument("--repeat", type=int, default=1, help="runs per figure; the fastest is kept")
    ap.add_argument("--alone", action="store_true", help="also lone tables")
    ap.add_argument("--par", action="store_true", help="also par")
    ap.add_argument("--limit", type=int, default=0, help="only the first N deals of the file")
    ap.add_argument("--generate", type=int, default=0, help="N generated deals (seed 1) instead of the file")
    ap.add_argument("--scaling", action="store_true",
                    help="only 1 job against 2 jobs with the default executor, in CPU time")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--jobs", type=int, default=1, help=argparse.SUPPRESS)
    ap.add_argument("--executor", default="auto", help=argparse.SUPPRESS)
    ap.add_argument("--pin", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--tmp", default="", help=argparse.SUPPRESS)
    args = ap.parse_args()
    global GENERATE
    GENERATE = args.generate
    if args.worker:
        worker(args)
        return
    cores = len(os.sched_getaffinity(0))
    analyses = [f for f, on in (("--alone", args.alone), ("--par", args.par)) if on]
    what = " ".join(analyses) or "DD table only"
    print(f"bideuchre batch · {f'{args.generate:,} generated deals' if args.generate else args.file} · preset {args.preset} · {what} · {cores} cores")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.scaling:
        runs = {1: [], 2: []}
        for r in range(args.repeat):
            for jobs in (1, 2):
                m = _measure(args.file, args.preset, jobs, "auto", False, args.limit, analyses)
                runs[jobs].append(m)
                print(line(f"{jobs} job{'s' * (jobs > 1)}, default ({m['executor']}) (run {r + 1})", m),
                      f" load {os.getloadavg()[0]:.2f}", flush=True)
        one = min(runs[1], key=lambda m: m["cpu"])
        two = min(runs[2], key=lambda m: m["cpu"])
        bound, eff = cpu_scaling(one, two)
        print(f"scaling 1 -> 2 jobs in CPU time: {bound:.2f}x (CPU-time efficiency {eff:.2f}); "
              f"wall {one['wall'] / two['wall']:.2f}x on this machine's load")
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        return
    configs = {"two": dict(jobs=2)}
    if not args.quick:
        configs = {"one_core": dict(jobs=1, pin=True), "one_job": dict(jobs=1), "two": dict(jobs=2),
                   "two_proc": dict(jobs=2, executor="process")}
    labels = {"one_core": "1 job, pinned to one core", "one_job": "1 job (reader thread unpinned)",
              "two": "2 jobs, threads", "two_proc": "2 jobs, processes"}
    runs: dict[str, list] = {k: [] for k in configs}
    for r in range(args.repeat):          # rounds interleave the configurations
        for key, kw in configs.items():
            m = _measure(args.file, args.preset, kw["jobs"], kw.get("executor", "thread"),
                         kw.get("pin", False), 0)
            runs[key].append(m)
            print(line(f"{labels[key]} (run {r + 1})", m), f" load {os.getloadavg()[0]:.2f}", flush=True)
    res = {k: min(v, key=lambda m: m["wall"]) for k, v in runs.items()}
    print("fastest of each:")
    for key in configs:
        print(line(labels[key], res[key]))
    if not args.quick:
        print(f"scaling 1 core → 2 jobs: {res['one_core']['wall'] / res['two']['wall']:.2f}×   "
              f"1 job → 2 jobs: {res['one_job']['wall'] / res['two']['wall']:.2f}×")
    one, two = burst_scaling(args.file, args.preset)
    print(f"solver bursts, 1,000 deals (fastest of 15 interleaved): 1 core {one[0]:.2f} s, "
          f"2 threads {two[0]:.2f} s: scaling {one[0] / two[0]:.2f}×; CPU seconds per wall second "
          f"{one[1] / one[0]:.2f} and {two[1] / two[0]:.2f} (the cores this process was given)", flush=True)
    small = _measure(args.file, args.preset, 2, "thread", False, 1000)
    print(line("memory: first 1,000 deals, 2 jobs", small))
    print(line("memory: all deals, 2 jobs", res["two"]))
    print(f"peak RSS ratio (all / 1,000): {res['two']['maxrss_mb'] / small['maxrss_mb']:.2f}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
