"""The portable build of the core (BIDEUCHRE_PORTABLE=1: no pext/popcnt instructions, the
table fallbacks instead) against the reference solver.

The installed build uses the instructions where the CPU has them (setup.py); this test
compiles the other code path in a scratch copy so that both stay exact (Cython and
setuptools come with the ``test`` extra).
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bideuchre.search import _search

ROOT = Path(__file__).resolve().parent.parent

CHECK = r"""
import random, sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
from bideuchre.search import _search
from bideuchre.search.reference import reference_tricks
from bideuchre.search.solve import solve_position, dd_table
from bideuchre.notation import Deal
from helpers import random_position, real_deals
assert _search.__file__.startswith(sys.argv[1]), _search.__file__
assert not _search.FEATURES["bmi2"] and not _search.FEATURES["popcnt"], _search.FEATURES
rng = random.Random(7)
n = 0
for deck, cards, lone, k in [("single24", None, False, 40), ("single24", None, True, 15),
                             ("double32", 5, False, 15), ("double48", 4, False, 15)]:
    for _ in range(k):
        pos = random_position(rng, deck, cards, lone=lone)
        fast = solve_position(pos)
        assert fast == reference_tricks(pos, fast), (deck, repr(pos))
        n += 1
print("ok", n, dd_table(Deal.from_pbn(real_deals(1)[0]), "racehorse").to_json()["table"])
"""


@pytest.mark.skipif(shutil.which(os.environ.get("CC", "cc")) is None, reason="no C compiler")
def test_portable_build_matches_reference(tmp_path):
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tmp_path / name)
    for f in (ROOT / "solver").rglob("*"):
        if f.suffix in (".py", ".pyx", ".pxd", ".pxi"):
            dest = tmp_path / f.relative_to(ROOT)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(f, dest)
    env = dict(os.environ, BIDEUCHRE_PORTABLE="1")
    build = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tmp_path,
                           env=env, capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stderr[-2000:]
    assert "-march=native" not in build.stdout + build.stderr
    (tmp_path / "bideuchre").symlink_to("solver")   # the import name of the solver/ folder
    run = subprocess.run([sys.executable, "-c", CHECK, str(tmp_path), str(ROOT / "tests")],
                         cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    # the same DD table as the installed build
    from bideuchre.notation import Deal
    from bideuchre.search.solve import dd_table
    from helpers import real_deals
    table = dd_table(Deal.from_pbn(real_deals(1)[0]), "racehorse").to_json()["table"]
    assert run.stdout.split()[:2] == ["ok", "85"]
    assert run.stdout.split(" ", 2)[2].strip() == str(table)


def _cpu_flags() -> set[str]:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return set()
    return {f for line in text.splitlines() if line.startswith("flags") for f in line.split()}


@pytest.mark.skipif(not {"bmi2", "popcnt"} <= _cpu_flags() or bool(os.environ.get("BIDEUCHRE_PORTABLE")),
                    reason="the CPU lacks BMI2/POPCNT (or a portable build was asked for)")
def test_native_build_uses_the_instructions():
    """setup.py builds for the CPU it runs on: where the CPU has them, pext and popcnt are used."""
    assert _search.FEATURES == {"bmi2": True, "popcnt": True}
