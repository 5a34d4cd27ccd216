"""Exactness and node-count checks to run before and after every change to the search core
(needs the test extra: ``pip install -e '.[test]'``).

    python benchmarks/check_exact.py ref [--seconds 60] [--seed 1]
    python benchmarks/check_exact.py oracle [--deck double32] [--deals 200] [--seed 1] [--lone 0.3]
                                            [--played 0] [--dd ../shared/tools/ddoracle/dd.c]
    python benchmarks/check_exact.py nodes [--deck double48] [--deals 0,2,3,4]

- ``ref``: random positions of every deck form (single24 whole; double32/40/48 cut to 5-6
  cards a hand), 30 % lone, any number of cards played (often mid-trick), every strain, the
  core's count against the pure-Python reference solver; one TT kept between them.  Exits 1 at
  the first difference, printing the position.
- ``oracle``: whole deals (or, with ``--played K``, after K random legal cards) against the
  independent C solver ddoracle (``../shared/tools/ddoracle``, compiled into a temporary folder;
  not part of the project).  double32 deals take milliseconds there, double40 ~0.2 s, double48
  minutes.  Exits 1 on any difference.
- ``nodes``: the DD tables of the benchmark deals of ``bench_solve.py`` (same seeds; single24:
  the real deals of positions/sources, which caught a bound that random positions and ddoracle
  missed): nodes per table, the total and an md5 of the tables, so two builds can be compared
  exactly (node counts do not depend on the machine's load).  Run it on single24 0-999 too.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

try:                                # the tests' random deals and positions (pytest: the test extra)
    from helpers import random_deal, random_position  # noqa: E402
except ModuleNotFoundError as e:
    sys.exit(f"check_exact.py needs the test extra (pip install -e '.[test]'): {e}")
from bideuchre.notation import Position  # noqa: E402
from bideuchre.rules import Seat, Side, Strain  # noqa: E402
from bideuchre.search.reference import reference_tricks  # noqa: E402
from bideuchre.search.solve import dd_table, get_solver, solve_position  # noqa: E402
from deal_ranges import parse_deals  # noqa: E402

REF_FORMS = [("single24", None, 11), ("double32", 5, 11), ("double32", 6, 11),
             ("double40", 5, 11), ("double40", 6, 9), ("double48", 5, 9), ("double48", 6, 9)]
PRESET = {"single24": "racehorse", "double32": "double32", "double40": "double48",
          "double48": "double48"}


def check_ref(seconds: float, seed: int) -> int:
    rng = random.Random(seed)
    t0 = time.time()
    n = mid = lone = 0
    while time.time() - t0 < seconds:
        deck, cards, most = rng.choice(REF_FORMS)
        lo = rng.random() < 0.3
        pos = random_position(rng, deck, cards, lone=lo, max_played=most)
        fast = solve_position(pos)
        ref = reference_tricks(pos, fast)
        if fast != ref:
            print("MISMATCH", deck, repr(pos), "core", fast, "reference", ref)
            return 1
        n += 1
        mid += bool(pos.trick)
        lone += lo
    print(f"reference: {n} positions agree ({mid} mid-trick, {lone} lone), seed {seed}")
    return 0


def _find_oracle() -> str:
    for up in ROOT.parents:
        src = up / "shared" / "tools" / "ddoracle" / "dd.c"
        if src.exists():
            return str(src)
    return "../shared/tools/ddoracle/dd.c"


def _oracle_binary(source: str) -> str:
    src = Path(source)
    if os.access(src, os.X_OK) and src.suffix != ".c":
        return str(src)
    out = Path(tempfile.mkdtemp(prefix="ddoracle_")) / "dd"
    subprocess.run(["gcc", "-O2", "-o", str(out), str(src)], check=True)
    return str(out)


def check_oracle(deck: str, deals: int, seed: int, lone_frac: float, played: int, dd: str) -> int:
    binary = _oracle_binary(dd)
    rng = random.Random(seed)
    lines, ours = [], []
    for _ in range(deals):
        d = random_deal(rng, deck)
        strain = Strain(rng.randrange(6))
        leader = Seat(rng.randrange(4))
        lone = None
        if rng.random() < lone_frac:
            lone = Seat(rng.randrange(4))
            if leader == lone.partner:
                leader = Seat((leader + 1) % 4)
        pos = Position(d, strain, leader, lone=lone)
        line = f"{strain.name} {leader.name} {lone.name if lone is not None else '-'} {d.pbn()}"
        cards = []
        for _ in range(played):
            cards.append(rng.choice(pos.legal_cards()))
            pos.play(cards[-1])
        if cards:
            line += " " + " ".join(str(c) for c in cards)
        r = solve_position(pos)
        ours.append((r[Side.NS], r[Side.EW]))
        lines.append(line)
    t = time.perf_counter()
    out = subprocess.run([binary], input="\n".join(lines) + "\n", capture_output=True, text=True,
                         check=True).stdout.split("\n")
    t = time.perf_counter() - t
    bad = 0
    for line, o, mine in zip(lines, out, ours):
        got = tuple(map(int, o.split()[:2]))
        if got != mine:
            bad += 1
            print("MISMATCH", line, "oracle", got, "core", mine)
    print(f"oracle: {deck} {deals} positions ({played} cards played, {lone_frac:.0%} lone), "
          f"seed {seed}: {bad} differences (oracle {t:.1f} s)")
    return 1 if bad else 0


def count_nodes(deck: str, which: list[int]) -> int:
    from bench_solve import random_deals
    if deck == "single24":          # the real deals (a sharper check than random ones)
        from bideuchre.notation import Deal
        from helpers import real_deals
        deals = [Deal.from_pbn(t) for t in real_deals(max(which) + 1)]
    else:
        deals = random_deals(deck, max(which) + 1, int(deck[-2:]))
    digest = hashlib.md5()
    total = 0
    for i in which:
        s = get_solver(deals[i].deck)
        s.reset_nodes()
        t = time.perf_counter()
        tab = dd_table(deals[i], PRESET[deck])
        t = time.perf_counter() - t
        digest.update(repr(tab.array().tolist()).encode())
        total += s.nodes
        if len(which) <= 20:
            print(f"deal {i}: {s.nodes:,} nodes, {t * 1e3:,.0f} ms")
    print(f"{deck} {len(which)} deals: {total:,} nodes, tables md5 {digest.hexdigest()}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("ref")
    r.add_argument("--seconds", type=float, default=60)
    r.add_argument("--seed", type=int, default=1)
    o = sub.add_parser("oracle")
    o.add_argument("--deck", default="double32", choices=["single24", "double32", "double40", "double48"])
    o.add_argument("--deals", type=int, default=200)
    o.add_argument("--seed", type=int, default=1)
    o.add_argument("--lone", type=float, default=0.3)
    o.add_argument("--played", type=int, default=0)
    o.add_argument("--dd", default=_find_oracle(), help="dd.c or a built dd (default: the first "
                   "shared/tools/ddoracle/dd.c above the project, e.g. ../shared)")
    n = sub.add_parser("nodes")
    n.add_argument("--deck", default="double48", choices=sorted(PRESET))
    n.add_argument("--deals", default="0,2,3,4", help="indices and ranges, e.g. 0,2-4")
    a = ap.parse_args()
    if a.cmd == "ref":
        return check_ref(a.seconds, a.seed)
    if a.cmd == "oracle":
        if not Path(a.dd).is_file():
            ap.error(f"--dd: no such file {a.dd!r} (ddoracle's dd.c or a built dd)")
        return check_oracle(a.deck, a.deals, a.seed, a.lone, a.played, a.dd)
    try:
        which = parse_deals(a.deals)
    except ValueError as e:
        ap.error(f"--deals: {e}")
    return count_nodes(a.deck, which)


if __name__ == "__main__":
    sys.exit(main())
