"""Our double48 DD table against DDS's bridge DD table, side by side on one core.

    pip install -e '.[bench]'          # endplay (DDS)
    python benchmarks/bench_vs_dds.py [--deals 30] [--tail 100] [--only vs|tail] [--json]

Both tables are the same size of game: 5 strains x 4 declarers, 12 tricks (double48, 48 cards)
against 13 tricks (bridge, 52 cards).
- vs: ``--deals`` (30) random double48 deals (``bench_solve.random_deals``, seed 4800), preset
  double48, by ``bideuchre.dd_table``; and as many bridge deals
  ``endplay.dealer.generate_deal(seed=52000+i)`` by ``endplay.dds.calc_dd_table``; the two
  interleaved (ours i, then DDS i) in one process pinned to one core
  (``os.sched_setaffinity``), DDS set to run in the calling thread (``SetThreading(0)``, its
  "basic" mode; checked: its CPU time is the calling thread's).  Prints both medians and their
  ratio, in wall time and in CPU time of the thread (the fairer figure on a shared machine).
- tail: the double48 p95 and max over ``--tail`` (100) deals of the same sequence (the first
  ``--deals`` are those of the comparison), wall and CPU time, and nodes per table.
Our TT is kept between deals (as in bench_solve.py); DDS keeps its own between calls.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_solve import random_deals  # noqa: E402
from bideuchre.rules import get_preset  # noqa: E402
from bideuchre.search.solve import dd_table, get_solver  # noqa: E402

SEED = 4800


def pin_one_core() -> int:
    """Pin the process to one core (the last one it may use); returns the core."""
    core = max(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return core


def dds_single_thread():
    """endplay's calc_dd_table with DDS in its single-threaded mode, or exit with a hint."""
    try:
        import endplay._dds as raw
        from endplay.dds import calc_dd_table
        from endplay.dealer import generate_deal
    except ImportError:
        sys.exit("bench_vs_dds: endplay is not installed (pip install -e '.[bench]')")
    # DDS_SYSTEM_THREAD_BASIC = 0: CalcDDtable runs its strains in the calling thread
    # (returns RETURN_NO_FAULT = 1); the CPU check below confirms it.
    if raw._dll.SetThreading(0) != 1:
        sys.exit("bench_vs_dds: DDS refused single-threaded mode")
    return calc_dd_table, generate_deal


def q(xs: list[float], p: float) -> float:
    """The p-quantile (nearest rank) of xs."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, int(round(p * len(s) + 0.5)) - 1))]


def ours(deal, preset, solver) -> tuple[float, float, int]:
    solver.reset_nodes()
    c0, t0 = time.thread_time(), time.perf_counter()
    dd_table(deal, preset)
    return time.perf_counter() - t0, time.thread_time() - c0, solver.nodes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=30, help="deals of each game compared (30)")
    ap.add_argument("--tail", type=int, default=100, help="double48 deals for p95 and max (100)")
    ap.add_argument("--only", choices=["vs", "tail"], help="run only one part")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    core = pin_one_core()
    preset = get_preset("double48")
    solver = get_solver(preset.deck)
    n_ours = a.tail if a.only != "vs" else a.deals
    deals = random_deals("double48", max(n_ours, a.deals), SEED)
    res: dict = {"core": core, "machine": f"{platform.machine()} {platform.processor() or ''} "
                 f"python {platform.python_version()}".strip()}
    wall, cpu, nodes = [], [], []
    if a.only != "tail":
        calc_dd_table, generate_deal = dds_single_thread()
        dw, dc = [], []
        for i in range(a.deals):
            w, c, n = ours(deals[i], preset, solver)
            wall.append(w)
            cpu.append(c)
            nodes.append(n)
            bridge = generate_deal(seed=52000 + i)
            c0, t0 = time.thread_time(), time.perf_counter()
            calc_dd_table(bridge)
            dw.append(time.perf_counter() - t0)
            dc.append(time.thread_time() - c0)
            print(f"  {i + 1}/{a.deals}: double48 {w * 1e3:8.1f} ms (CPU {c * 1e3:8.1f}), "
                  f"DDS {dw[-1] * 1e3:6.1f} ms (CPU {dc[-1] * 1e3:6.1f})", file=sys.stderr)
        mo, md = statistics.median(wall[:a.deals]), statistics.median(dw)
        co, cd = statistics.median(cpu[:a.deals]), statistics.median(dc)
        res["vs"] = {"deals": a.deals,
                     "double48_ms_median": round(mo * 1e3, 1), "dds_ms_median": round(md * 1e3, 1),
                     "ratio": round(mo / md, 2),
                     "double48_cpu_ms_median": round(co * 1e3, 1), "dds_cpu_ms_median": round(cd * 1e3, 1),
                     "cpu_ratio": round(co / cd, 2),
                     "dds_cpu_share": round(sum(dc) / sum(dw), 3),
                     "double48_nodes_median": round(statistics.median(nodes[:a.deals]))}
    if a.only != "vs":
        for i in range(len(wall), a.tail):
            w, c, n = ours(deals[i], preset, solver)
            wall.append(w)
            cpu.append(c)
            nodes.append(n)
            print(f"  {i + 1}/{a.tail}: double48 {w * 1e3:8.1f} ms (CPU {c * 1e3:8.1f})", file=sys.stderr)
        res["tail"] = {"deals": a.tail,
                       "ms_median": round(statistics.median(wall) * 1e3, 1),
                       "ms_p95": round(q(wall, 0.95) * 1e3, 1), "ms_max": round(max(wall) * 1e3, 1),
                       "cpu_ms_median": round(statistics.median(cpu) * 1e3, 1),
                       "cpu_ms_p95": round(q(cpu, 0.95) * 1e3, 1), "cpu_ms_max": round(max(cpu) * 1e3, 1),
                       "nodes_median": round(statistics.median(nodes)), "nodes_max": max(nodes),
                       "nodes_total": sum(nodes)}
    if a.json:
        print(json.dumps(res, indent=2))
        return
    if "vs" in res:
        v = res["vs"]
        print(f"{v['deals']} deals, one core: double48 table median {v['double48_ms_median']:,.1f} ms, "
              f"DDS bridge table {v['dds_ms_median']:,.1f} ms, ratio {v['ratio']:.2f} "
              f"(CPU of the thread: {v['double48_cpu_ms_median']:,.1f} vs {v['dds_cpu_ms_median']:,.1f} ms, "
              f"ratio {v['cpu_ratio']:.2f}; DDS CPU/wall {v['dds_cpu_share']:.2f})")
    if "tail" in res:
        t = res["tail"]
        print(f"double48 over {t['deals']} deals: median {t['ms_median']:,.0f} ms, p95 {t['ms_p95']:,.0f} ms, "
              f"max {t['ms_max']:,.0f} ms (CPU {t['cpu_ms_median']:,.0f} / {t['cpu_ms_p95']:,.0f} / "
              f"{t['cpu_ms_max']:,.0f} ms); nodes median {t['nodes_median']:,}, max {t['nodes_max']:,}, "
              f"total {t['nodes_total']:,}")
    print(res["machine"])


if __name__ == "__main__":
    main()
