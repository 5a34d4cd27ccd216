"""Two builds' command lines side by side: the same ``bideuchre`` command, interleaved.

    python benchmarks/compare_cli.py OLD_BIDEUCHRE NEW_BIDEUCHRE --runs 3 [--pause PGID] -- bid AKJ.KQJ.KQJJ.QQ --seat E --dealer N -p double48

``OLD_BIDEUCHRE`` and ``NEW_BIDEUCHRE`` are the ``bideuchre`` scripts of two venvs (each build
installed in its own).  The command after ``--`` runs ``--runs`` times with each, alternating
old and new, so both see the same machine load; prints each build's wall times (seconds,
start-up included) with their median and the ratio of the medians (new/old), then whether the
two outputs (stdout of the first run of each) are the same, and their difference if not.
``--pause PGID`` stops that process group (SIGSTOP) for the runs and lets it go on (SIGCONT)
after, however the runs end (Ctrl-C, SIGTERM, SIGHUP): a long job on the same cores (a match)
does not disturb them.
Exit code 1 when a run fails.
"""

from __future__ import annotations

import argparse
import difflib
import os
import signal
import statistics
import subprocess
import sys
import time


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--pause", type=int, default=None, metavar="PGID")
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--" not in argv:
        ap.error("give the command after --")
    cut = argv.index("--")
    args = ap.parse_args(argv[:cut])
    cmd = argv[cut + 1:]
    if not cmd:
        ap.error("give the command after --")
    times: dict = {"old": [], "new": []}
    outs: dict = {}
    failed = False
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    for arm in ("old", "new"):
        exe = getattr(args, arm)
        if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
            ap.error(f"{arm} {exe!r}: not an executable file (a venv's bin/bideuchre)")
    if args.pause is not None:
        def end(signum, frame):     # SIGTERM, SIGHUP: the finally below lets the group go on
            raise SystemExit(128 + signum)
        for sig in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, end)
        os.killpg(args.pause, signal.SIGSTOP)
    try:
        for _ in range(args.runs):
            for arm, exe in (("old", args.old), ("new", args.new)):
                t = time.perf_counter()
                p = subprocess.run([exe, *cmd], capture_output=True, text=True)
                times[arm].append(time.perf_counter() - t)
                outs.setdefault(arm, p.stdout)
                if p.returncode:
                    failed = True
                    print(f"{arm}: exit {p.returncode}: {p.stderr.strip()[-300:]}")
    finally:
        if args.pause is not None:
            os.killpg(args.pause, signal.SIGCONT)
    med = {k: statistics.median(v) for k, v in times.items()}
    for k in ("old", "new"):
        print(f"{k}: median {med[k]:.2f} s  ({', '.join(f'{x:.2f}' for x in times[k])})")
    print(f"ratio new/old {med['new'] / med['old']:.2f}")
    if outs["old"] == outs["new"]:
        print("the same output")
    else:
        print("the outputs differ:")
        print("\n".join(list(difflib.unified_diff(outs["old"].splitlines(), outs["new"].splitlines(),
                                                  "old", "new", lineterm=""))[:60]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
