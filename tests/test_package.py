"""The package face (issue 15): one import name, the public API at the top, no stray top-level
packages in site-packages."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version

import bideuchre


def test_public_api_resolves_and_is_listed():
    for name in bideuchre.__all__:
        assert getattr(bideuchre, name) is not None, name
    assert {"Deal", "Position", "dd_table", "solve_position", "lone_table", "card_values", "par",
            "advise", "BidEuchreError"} <= set(bideuchre.__all__)
    from bideuchre.rules import BidEuchreError
    from bideuchre.search.solve import dd_table
    assert bideuchre.dd_table is dd_table and bideuchre.BidEuchreError is BidEuchreError


def test_top_level_api_solves_a_deal():
    deal = bideuchre.Deal.from_pbn("N:JT.Q.J9.J Q.JT..KQT AK9.K.AQ. .A9.KT.A9")
    table = bideuchre.dd_table(deal, "racehorse")
    assert table.tricks[bideuchre.Seat.N][bideuchre.Strain.H] == 2
    pos = bideuchre.Position(deal, "H", "E", ["SQ", "S9"])
    assert bideuchre.solve_position(pos) == {bideuchre.Side.NS: 1, bideuchre.Side.EW: 5}


def test_version_matches_the_distribution():
    assert bideuchre.__version__ == version("bideuchre")


def test_no_top_level_solver_or_cli_outside_the_repository(tmp_path):
    """Run from another folder: only ``bideuchre`` is importable, and it is typed."""
    code = ("import importlib.util as u, bideuchre, pathlib;"
            "print(u.find_spec('solver') is None, u.find_spec('cli') is None,"
            " (pathlib.Path(bideuchre.__file__).parent / 'py.typed').exists())")
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["True", "True", "True"]


def test_unknown_name_is_an_attribute_error():
    try:
        bideuchre.no_such_name
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("bideuchre.no_such_name resolved")
