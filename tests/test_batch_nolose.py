"""Batch outputs that nothing overwrites, two runs cannot share, resumes that keep one set of
rules, and load(): the same values from every format, one error class for a corrupted file,
the solved columns kept whatever the carried keys are named; the bounded --where tries.

Real deals: positions/sources/real_deals_single24.txt (see positions/sources/README.md).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bideuchre import batch as B
from bideuchre.analysis.conditions import parse_condition
from bideuchre.rules import BidEuchreError, get_preset
from bideuchre.search.solve import dd_table

from helpers import ROOT, batch_cli, real_deals

pd = pytest.importorskip("pandas")
FORMATS = ("jsonl", "csv", "npz", "parquet")


def one_line_error(output: str) -> str:
    lines = [ln for ln in output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), output
    assert "internal error" not in output and "Traceback" not in output
    return lines[0]


# ---------------------------------------------------------------------------------------------
# No two of input, output, summary and plot the same file

def test_a_summary_or_plot_naming_the_output_is_refused_before_any_work(tmp_path):
    out = tmp_path / "r.jsonl"
    assert batch_cli("--generate", "20", "--seed", "1", "-o", str(out), "--no-summary").exit_code == 0
    before = out.read_bytes()
    link = tmp_path / "link.json"
    link.symlink_to(out)
    hard = tmp_path / "hard.json"
    os.link(out, hard)
    for other in (str(out), str(link), str(hard), str(tmp_path / "." / "r.jsonl")):
        r = batch_cli("--generate", "40", "--seed", "1", "-o", str(out), "--resume", "--summary-json", other)
        assert r.exit_code == 2
        line = one_line_error(r.output)
        assert "--summary-json" in line and "--output" in line and "same file" in line
        assert out.read_bytes() == before
    png = tmp_path / "x.png"
    r = batch_cli("--generate", "5", "--seed", "1", "-o", str(png), "--format", "jsonl", "--plot", str(png))
    assert r.exit_code == 2 and "--plot" in one_line_error(r.output) and not png.exists()
    s = tmp_path / "s.svg"
    r = batch_cli("--generate", "5", "--seed", "1", "--summary-json", str(s), "--plot", str(s))
    assert r.exit_code == 2 and "same file" in one_line_error(r.output) and not s.exists()
    # the same file through another spelling of a path still to be made
    r = batch_cli("--generate", "5", "--seed", "1", "-o", str(tmp_path / "new.jsonl"),
                  "--summary-json", str(tmp_path / "sub" / ".." / "new.jsonl"))
    assert r.exit_code == 2 and not (tmp_path / "new.jsonl").exists()


def test_an_input_that_is_the_output_is_never_emptied(tmp_path):
    src = tmp_path / "in.txt"
    src.write_text("\n".join(real_deals(5)) + "\n")
    before = src.read_bytes()
    for extra in (["--overwrite"], ["--resume"], []):
        r = batch_cli(str(src), "-o", str(src), "--format", "jsonl", *extra)
        assert r.exit_code == 2 and "input" in one_line_error(r.output)
        assert src.read_bytes() == before
    assert batch_cli(str(src), "-o", "/dev/null", "--summary-json", "/dev/null").exit_code == 0


# ---------------------------------------------------------------------------------------------
# One run at a time on an output

@pytest.mark.parametrize("fmt", FORMATS)
def test_a_second_writer_on_a_locked_output_names_the_holder(tmp_path, fmt):
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    out = tmp_path / f"o.{fmt}"
    first = B.open_writer(fmt, out, "racehorse")
    assert (tmp_path / f"o.{fmt}.lock").read_text().strip() == str(os.getpid())
    with pytest.raises(B.BatchError, match=rf"in use by another run \(pid {os.getpid()}"):
        B.open_writer(fmt, out, "racehorse", resume=True)
    with pytest.raises(B.BatchError, match="in use"):
        B.open_writer(fmt, out, "racehorse", overwrite=True)
    first.close()
    assert not (tmp_path / f"o.{fmt}.lock").exists()
    B.open_writer(fmt, out, "racehorse", resume=True).close()      # free again


def test_two_cli_runs_on_one_output_never_both_write(tmp_path):
    out = tmp_path / "o.jsonl"
    holder = B.open_writer("jsonl", out, "racehorse")
    try:
        r = subprocess.run([sys.executable, "-m", "bideuchre.cli.app", "batch", "--generate", "50", "--seed", "2",
                            "-o", str(out), "--resume", "-p", "racehorse"],
                           capture_output=True, text=True, cwd=ROOT, timeout=120)
    finally:
        holder.close()
    assert r.returncode == 2, r.stderr
    assert f"pid {os.getpid()}" in one_line_error(r.stderr) and out.read_text() == ""


# ---------------------------------------------------------------------------------------------
# The output records --rule and --where; resume refuses a mismatch

@pytest.mark.parametrize("fmt", FORMATS)
def test_resume_refuses_other_rules_or_condition(tmp_path, fmt):
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    out = tmp_path / f"r.{fmt}"
    common = ["--seed", "1", "-o", str(out), "--no-summary", "--chunk-size", "10"]
    r = batch_cli("--generate", "20", "--rule", "penalty=100", *common)
    assert r.exit_code == 0, r.output
    kept = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    r = batch_cli("--generate", "40", "--resume", *common)
    assert r.exit_code == 2 and "--rule penalty=100" in one_line_error(r.output)
    r = batch_cli("--generate", "40", "--resume", "--rule", "penalty=50", *common)
    assert r.exit_code == 2 and "not --rule penalty=50" in one_line_error(r.output)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == kept
    r = batch_cli("--generate", "40", "--resume", "--rule", "penalty=100", *common)
    assert r.exit_code == 0, r.output
    df = B.load(out)
    assert df["id"].tolist() == list(range(1, 41))
    assert set(df["options"]) == {'{"rules":{"penalty":100}}'}


def test_resume_refuses_another_condition_on_read_deals(tmp_path):
    src = tmp_path / "in.txt"
    src.write_text("\n".join(real_deals(60)) + "\n")
    out = tmp_path / "w.csv"
    r = batch_cli(str(src), "--where", "aces(N) >= 1", "-o", str(out), "--no-summary")
    assert r.exit_code == 0, r.output
    before = out.read_bytes()
    r = batch_cli(str(src), "--where", "aces(N) >= 2", "-o", str(out), "--no-summary", "--resume")
    assert r.exit_code == 2 and "--where 'aces(N) >= 1'" in one_line_error(r.output)
    r = batch_cli(str(src), "-o", str(out), "--no-summary", "--resume")
    assert r.exit_code == 2 and out.read_bytes() == before


def test_deck_against_rule_deck_is_refused(tmp_path):
    out = tmp_path / "d.jsonl"
    r = batch_cli("-p", "double48", "--rule", "deck=double32", "--deck", "double40", "--generate", "1",
                  "--seed", "1", "-o", str(out))
    assert r.exit_code == 2 and "disagree" in one_line_error(r.output) and not out.exists()


# ---------------------------------------------------------------------------------------------
# load(): solved columns win, every format gives the same values

VALUES = [1, True, [1, 2], "1", "true", "[1, 2]", "", None, {"a": 1}, 2.5, "plain", "null", '"q"', -7]


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """Outputs in every format of deals carrying a key of every JSON type, and keys named like
    solved columns."""
    pytest.importorskip("pyarrow")
    tmp = tmp_path_factory.mktemp("mixed")
    deals = real_deals(len(VALUES))
    src = tmp / "in.jsonl"
    src.write_text("".join(json.dumps({"deal": d, "v": v, "tricks_N_S": "collide", "deal_": 3, "id_x": k,
                                       "carried_dealer": "mine"} | ({"dealer": "E"} if k == 2 else {}))
                           + "\n" for k, (d, v) in enumerate(zip(deals, VALUES))))
    outs = {}
    for fmt in FORMATS:
        outs[fmt] = tmp / f"o.{fmt}"
        r = batch_cli(str(src), "-p", "racehorse", "-o", str(outs[fmt]), "--chunk-size", "4", "--no-summary")
        assert r.exit_code == 0, r.output
    return deals, outs


def test_load_keeps_the_solved_columns_and_names_a_colliding_carried_key(mixed):
    deals, outs = mixed
    p = get_preset("racehorse")
    from bideuchre.notation import Deal
    want = [dd_table(Deal.from_pbn(d, p.deck, "E" if k == 2 else None), p)["N", "S"] for k, d in enumerate(deals[:3])]
    for fmt, path in outs.items():
        df = B.load(path)
        assert df["tricks_N_S"].tolist()[:3] == want, fmt
        assert set(df["carried_tricks_N_S"]) == {"collide"}, fmt
        assert df["id_x"].tolist() == list(range(len(VALUES))), fmt


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and a != a:
        return b != b
    return type(a) is type(b) and a == b


def test_load_gives_every_format_the_input_values_of_a_mixed_key(mixed):
    _, outs = mixed
    frames = {fmt: B.load(path) for fmt, path in outs.items()}
    for fmt, df in frames.items():
        got = df["v"].tolist()
        assert all(_same(a, b) for a, b in zip(got, VALUES)), (fmt, got)
        assert list(df.columns) == list(frames["jsonl"].columns), fmt
    pd.testing.assert_frame_equal(frames["csv"], frames["parquet"])


# ---------------------------------------------------------------------------------------------
# Corrupted files: one error class naming the file

def _corruptions(data: bytes, rng: random.Random):
    n = len(data)
    yield b""
    yield b"\xff\xfe\x00garbage"
    yield b"id,deal\n1\n"
    for cut in sorted({1, 2, 10, n // 3, n // 2, n - 30, n - 1} - {0}):
        yield data[:cut]
    for _ in range(25):
        b = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(n)] = rng.randrange(256)
        yield bytes(b)


@pytest.mark.parametrize("fmt", FORMATS)
def test_load_of_a_corrupted_file_raises_one_error_naming_it(mixed, tmp_path, fmt):
    _, outs = mixed
    data = outs[fmt].read_bytes()
    rng = random.Random(23)
    bad = tmp_path / f"bad.{fmt}"
    refused = 0
    for blob in _corruptions(data, rng):
        bad.write_bytes(blob)
        try:
            B.load(bad)
        except B.ResultFileError as exc:
            assert isinstance(exc, BidEuchreError) and str(bad) in str(exc) and "\n" not in str(exc)
            refused += 1
    assert refused >= 10
    (tmp_path / "csv.npz").write_bytes(outs["csv"].read_bytes())
    with pytest.raises(B.ResultFileError, match="csv.npz"):
        B.load(tmp_path / "csv.npz")
    with pytest.raises(FileNotFoundError):
        B.load(tmp_path / f"missing.{fmt}")


@pytest.mark.parametrize("how", ["truncated", "empty", "csv", "corrupt part", "pickled"])
def test_resume_over_a_bad_npz_is_one_line(tmp_path, how):
    import numpy as np

    out = tmp_path / "o.npz"
    args = ["--generate", "30", "--seed", "4", "-o", str(out), "--no-summary", "--chunk-size", "10"]
    assert batch_cli(*args).exit_code == 0
    if how == "truncated":
        out.write_bytes(out.read_bytes()[:200])
    elif how == "empty":
        out.write_bytes(b"")
    elif how == "csv":
        out.write_text("id,deal\n1,x\n")
    elif how == "pickled":
        np.savez(out, ids=np.array([{"x": 1}], dtype=object), preset=np.array("standard"),
                 deck=np.array("single24"))
    else:
        parts = Path(str(out) + ".parts")
        parts.mkdir()
        os.replace(out, parts / "part-0000-000000.npz")
        (parts / "part-0002-000001.npz").write_bytes(b"PK\x03\x04broken")
    r = batch_cli(*args[2:6], "--generate", "40", "--resume", "--no-summary")
    assert r.exit_code == 2
    line = one_line_error(r.output)
    assert "cannot resume" in line and "o.npz" in line


# ---------------------------------------------------------------------------------------------
# --where tries: capped, and stopped early by the acceptance rate

def test_impossible_condition_on_many_deals_stops_early_with_the_rate():
    never = parse_condition("trumps(N, H) == 6 and trumps(S, H) == 6", want="condition")
    assert not never.never           # the ranges alone cannot rule it out
    with pytest.raises(B.WhereBudgetError, match=r"no deal in [\d,]+ tries.*stopped early") as info:
        next(B.generate_where(10**9, 1, "single24", where=never))
    assert B.where.EARLY_TRIES <= info.value.tries <= 2 * B.where.EARLY_TRIES
    rare = parse_condition("bowers(S, H) == 2", want="condition")     # about 5.6% of deals
    got = []
    with pytest.raises(B.WhereBudgetError) as info:
        for r in B.generate_where(10**9, 1, "single24", where=rare):
            got.append(r)
    e = info.value
    assert e.tries < 2 * B.where.EARLY_TRIES and e.accepted == len(got)
    rate = e.accepted / e.tries
    assert 0.04 < rate < 0.07 and f"({100 * rate:.3g}%)" in str(e) and "stopped early" in str(e)
    assert B.default_max_tries(10**9) == B.MAX_TRIES


def test_max_tries_is_capped(tmp_path):
    out = tmp_path / "t.jsonl"
    r = batch_cli("--generate", "5", "--seed", "1", "--where", "aces(N) >= 1", "--max-tries", str(10**24),
                  "-o", str(out))
    assert r.exit_code == 2 and "--max-tries takes 1 to 10,000,000,000" in one_line_error(r.output)
    assert not out.exists()


# ---------------------------------------------------------------------------------------------
# Generation made with numpy a block at once: the deals and texts Deal(...) makes

@pytest.mark.parametrize("deck,hand", [("single24", "W=AJ.KQ..JT"), ("double48", "S=AAKK.QQ.JJ.TT99")])
def test_generated_blocks_are_the_checked_deals(deck, hand):
    from bideuchre.notation import Deal, format_hand

    for fixed in ({}, B.parse_fixed_hands([hand], deck)):
        for dealer in (None, "rotate", "random", "E"):
            for r in list(B.generate_records(1300, 11, deck, fixed, dealer, start=900))[::17]:
                d = Deal([list(h) for h in r.deal.hands], deck, r.deal.dealer)     # every check made
                assert d == r.deal and d.first == r.deal.first
                want = "N:" + " ".join(format_hand(h) for h in d.hands)
                assert r.prep[0] == d.pbn() == want
                assert r.prep[1].tolist() == d.counts()
                assert r.prep[2].tolist() == [c for h in d.hands for c in h]
