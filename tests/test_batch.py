"""Batch evaluation (issue 5): results equal single-deal results, reproducible generation,
nothing lost across kills and bad lines, the three output formats, Dask, the summary.

Real deals: positions/sources/real_deals_single24.txt (see positions/sources/README.md).
"""

from __future__ import annotations

import csv
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from bideuchre.cli.app import app
from bideuchre import batch as B
from bideuchre.notation import Deal, Position
from bideuchre.search.reference import reference_tricks
from bideuchre.rules import NotationError, Seat, get_preset
from bideuchre.search.solve import dd_table, first_leader

from helpers import ROOT, SOURCES, batch_cli, failing_at, read_jsonl, real_deals

REAL = SOURCES / "real_deals_single24.txt"
runner = CliRunner()


run_cli = batch_cli


def write_lines(path: Path, lines) -> Path:
    path.write_text("\n".join(lines) + "\n")
    return path


def lib_run(path: Path, records, preset="racehorse", fmt="jsonl", **kw):
    p = get_preset(preset)
    summary = kw.pop("summary", None)
    writer = B.open_writer(fmt, path, p, resume=kw.pop("resume", False),
                           overwrite=kw.pop("overwrite", False), summary=summary,
                           alone=kw.get("alone", False), par=kw.get("par", False))
    return B.run_batch(records, writer, summary=summary, **kw)


# ---------------------------------------------------------------------------------------------
# Exactness: batch == bideuchre solve --json == dd_table, and the reference solver

@pytest.mark.parametrize("preset", ["racehorse", "standard"])
def test_batch_equals_single_deal_results_on_real_deals(tmp_path, preset):
    deals = real_deals(60)
    # JSON lines with a dealer that varies: under `standard` the first lead depends on it
    lines = [json.dumps({"id": f"r{k}", "deal": d, "dealer": "NESW"[k % 4], "src": "phpEuchre"})
             for k, d in enumerate(deals)]
    out = tmp_path / "out.jsonl"
    rep = lib_run(out, B.read_records(write_lines(tmp_path / "in.jsonl", lines), "single24"),
                  preset, jobs=2, chunk_size=16)
    assert rep.solved == 60 and rep.bad_count == 0
    got = read_jsonl(out)
    assert [g["id"] for g in got] == [f"r{k}" for k in range(60)]
    for k, g in enumerate(got):
        assert g["src"] == "phpEuchre"
        want = {"schema": 1, **dd_table(Deal.from_pbn(deals[k]), preset, "NESW"[k % 4]).to_json()}
        assert {key: g[key] for key in want} == want
    # the command line: one `solve --json` per deal, same keys and values
    for k in range(0, 60, 6):
        r = runner.invoke(app, ["solve", deals[k], "--preset", preset, "--dealer", "NESW"[k % 4], "--json"])
        assert r.exit_code == 0, r.output
        single = json.loads(r.stdout)
        assert {key: got[k][key] for key in single} == single


def test_batch_tables_match_reference_solver(tmp_path):
    deals = real_deals(3)
    out = tmp_path / "o.jsonl"
    lib_run(out, B.read_records(write_lines(tmp_path / "in.txt", deals), "single24"), "standard", jobs=1)
    got = read_jsonl(out)
    p = get_preset("standard")
    for k, (seat, strain) in enumerate([("N", "S"), ("E", "NT"), ("W", "NTL")]):
        deal = Deal.from_pbn(deals[k])
        decl = Seat[seat]
        lead = first_leader(p, decl, deal.dealer)
        ref = reference_tricks(Position(deal, strain, lead))
        assert got[k]["table"][seat][strain] == ref[decl.side]


def test_default_chunks_spread_a_short_double_deck_run_over_the_jobs():
    # a chunk is about a second of one core's work or less: 100 double48 deals make ten
    # chunks for two jobs (with 250 for every deck they made one chunk, on one core)
    sizes = {d: B.default_chunk_size(d, "thread") for d in ("single24", "double32", "double40", "double48")}
    assert sizes == {"single24": 250, "double32": 100, "double40": 25, "double48": 10}
    assert B.default_chunk_size("double48", "dask") == 80 and -(-100 // sizes["double48"]) >= 2 * 2


def test_results_do_not_depend_on_the_table_size(tmp_path):
    src = write_lines(tmp_path / "in.txt", real_deals(30))
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    lib_run(a, B.read_records(src, "single24"), "standard", jobs=2, chunk_size=8, tt_bits=5)
    lib_run(b, B.read_records(src, "single24"), "standard", jobs=1)
    assert B.batch_tt_bits("single24") != 5 and a.read_text() == b.read_text()


# ---------------------------------------------------------------------------------------------
# Formats

def test_jsonl_csv_npz_agree(tmp_path):
    src = write_lines(tmp_path / "in.txt", real_deals(45))
    outs = {}
    for fmt in ("jsonl", "csv", "npz"):
        outs[fmt] = tmp_path / f"out.{fmt}"
        r = run_cli(str(src), "-p", "racehorse", "-o", str(outs[fmt]), "--jobs", "2",
                    "--chunk-size", "10", "--no-summary")
        assert r.exit_code == 0, r.output
    js = read_jsonl(outs["jsonl"])
    strains = ["S", "H", "D", "C", "NT", "NTL"]
    want = np.array([[[g["table"][s][st] for st in strains] for s in "NESW"] for g in js], dtype=np.int8)
    with open(outs["csv"], newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [int(r["id"]) for r in rows] == list(range(1, 46))
    assert [r["deal"] for r in rows] == [g["deal"] for g in js]
    csv_tab = np.array([[[int(r[f"tricks_{s}_{st}"]) for st in strains] for s in "NESW"] for r in rows])
    assert (csv_tab == want).all()
    with np.load(outs["npz"]) as z:
        assert z["tables"].dtype == np.int8 and z["tables"].shape == (45, 4, 6)
        assert (z["tables"] == want).all()
        assert list(z["strains"]) == strains and str(z["preset"]) == "racehorse"
        assert list(z["ids"]) == [str(i) for i in range(1, 46)]
        assert z["deals"].shape == (45, 24)
        for k in (0, 17, 44):
            deal = Deal.from_pbn(js[k]["deal"])
            assert z["deals"][k].tolist() == [int(c) for h in deal.hands for c in h]
    assert not Path(str(outs["npz"]) + ".parts").exists()


# ---------------------------------------------------------------------------------------------
# Generated deals

def test_generate_same_seed_same_deals_whatever_jobs_and_chunks(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    r1 = run_cli("--generate", "70", "--seed", "11", "-p", "standard", "-o", str(a), "--jobs", "1",
                 "--chunk-size", "7", "--no-summary")
    r2 = run_cli("--generate", "70", "--seed", "11", "-p", "standard", "-o", str(b), "--jobs", "2",
                 "--chunk-size", "30", "--no-summary")
    assert r1.exit_code == 0 and r2.exit_code == 0, r1.output + r2.output
    assert a.read_text() == b.read_text()
    got = read_jsonl(a)
    assert [g["id"] for g in got] == list(range(1, 71)) and all(g["seed"] == 11 for g in got)
    deals = [Deal.from_pbn(g["deal"]) for g in got]
    assert all(sorted(c for h in d.hands for c in h) == list(range(24)) for d in deals)
    assert len({d.pbn() for d in deals}) == 70
    for k in (0, 33, 69):
        assert got[k]["table"] == dd_table(deals[k], "standard").to_json()["table"]
    # deal i depends on (seed, i) only: a later start gives the same tail; another seed differs
    tail = [r.deal.pbn() for r in B.generate_records(1100, 11, "single24", start=1030)]
    full = [r.deal.pbn() for r in B.generate_records(1100, 11, "single24")]
    assert tail == full[1030:] and full[:70] == [d.pbn() for d in deals]
    assert [r.deal.pbn() for r in B.generate_records(5, 12)] != full[:5]


def test_generate_fixed_hand_is_uniform_over_the_rest():
    fixed = B.parse_fixed_hands(["S=AKQJT9..."], "single24")
    recs = list(B.generate_records(400, 3, "single24", fixed))
    spades = set(range(6))
    seen = set()
    for r in recs:
        assert list(r.deal.hands[Seat.S]) == sorted(fixed[Seat.S])
        assert sorted(c for h in r.deal.hands for c in h) == list(range(24))
        seen.update(r.deal.hands[Seat.N])
    assert seen == set(range(24)) - spades     # every other card reaches North
    with pytest.raises(NotationError):
        B.parse_fixed_hands(["N=AKQ..."], "single24")
    with pytest.raises(NotationError):
        B.parse_fixed_hands(["N=AKQJT9...", "E=A....KQJT9"], "single24")


# ---------------------------------------------------------------------------------------------
# Nothing lost: kills, injected failures, bad lines

def _ids(path: Path) -> list:
    return [g["id"] for g in read_jsonl(path)]


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT], ids=["SIGKILL", "SIGINT"])
def test_killed_run_resumes_to_the_full_set(tmp_path, sig):
    """A run killed (SIGKILL) or interrupted (Ctrl-C) part-way, then rerun with --resume,
    gives exactly the full result set, with no duplicate and no missing id."""
    n = 1000
    src = write_lines(tmp_path / "in.txt", real_deals(n))
    out = tmp_path / "out.jsonl"
    cmd = [sys.executable, "-m", "bideuchre.cli.app", "batch", str(src), "-p", "racehorse", "-o", str(out),
           "--jobs", "1", "--chunk-size", "25", "--no-summary"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        if out.exists() and out.read_bytes().count(b"\n") >= 100:
            break
        time.sleep(0.01)
    proc.send_signal(sig)
    _, stderr = proc.communicate()
    if sig == signal.SIGKILL:
        assert proc.returncode == -signal.SIGKILL
    else:
        assert proc.returncode == 130 and "interrupted" in stderr and "--resume" in stderr, stderr
    partial = _ids(out)
    assert 100 <= len(partial) < n and partial == list(range(1, len(partial) + 1))
    if sig == signal.SIGKILL:
        with open(out, "a") as fh:            # a line half-written when the process died
            fh.write('{"id": 9999, "schema": 1, "deal": "N:AK')
    r = subprocess.run(cmd + ["--resume"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert f"{len(partial):,} already done" in r.stderr
    ids = _ids(out)
    assert sorted(ids) == list(range(1, n + 1))        # no duplicate, none missing
    # and the same results as one uninterrupted run
    ref = tmp_path / "ref.jsonl"
    lib_run(ref, B.read_records(src, "single24"), "racehorse", jobs=2)
    assert out.read_text() == ref.read_text()


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "npz"])
def test_injected_failure_then_resume(tmp_path, monkeypatch, fmt):
    src = write_lines(tmp_path / "in.txt", real_deals(90))
    out = tmp_path / f"out.{fmt}"
    real = B.solve_table_chunk
    monkeypatch.setattr(B.runner, "solve_table_chunk", failing_at(real, 3))
    with pytest.raises(RuntimeError, match="injected"):
        lib_run(out, B.read_records(src, "single24"), fmt=fmt, jobs=2, chunk_size=10)
    monkeypatch.setattr(B.runner, "solve_table_chunk", real)
    # without --resume an existing output is refused, never clobbered
    r = run_cli(str(src), "-p", "racehorse", "-o", str(out), "--no-summary")
    assert r.exit_code == 2 and "--resume" in r.output
    # resuming with other rules is refused: the results would mix two presets
    r = run_cli(str(src), "-p", "standard", "-o", str(out), "--resume", "--no-summary")
    assert r.exit_code == 2 and "preset racehorse" in r.output
    # resuming from another input is refused: the same ids would name other deals
    other = write_lines(tmp_path / "other.txt", real_deals(180)[90:])
    r = run_cli(str(other), "-p", "racehorse", "-o", str(out), "--resume", "--no-summary")
    assert r.exit_code == 2 and "id '1' with another deal" in r.output, r.output
    r = run_cli(str(src), "-p", "racehorse", "-o", str(out), "--resume", "--chunk-size", "10",
                "--summary-json", str(tmp_path / "s.json"), "--no-summary")
    assert r.exit_code == 0, r.output
    assert "30 already done" in r.output            # chunks 0-2 were written before the failure
    summary = json.loads((tmp_path / "s.json").read_text())
    assert summary["deals"] == 90 and summary["run"]["solved"] == 60
    if fmt == "jsonl":
        ids = _ids(out)
    elif fmt == "csv":
        with open(out, newline="") as fh:
            ids = [int(r["id"]) for r in csv.DictReader(fh)]
    else:
        with np.load(out) as z:
            ids = [int(i) for i in z["ids"]]
            assert (z["seq"] == np.arange(90)).all()
        assert not Path(str(out) + ".parts").exists()
    assert sorted(ids) == list(range(1, 91))


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "npz"])
def test_resume_refuses_another_input(tmp_path, fmt):
    """An output is resumed only from the input it was started from: the same deal (hands and
    dealer, however written) under each id already done, starting with the input's first."""
    out = tmp_path / f"g.{fmt}"
    r = run_cli("--generate", "6", "--seed", "7", "-o", str(out), "--no-summary")
    assert r.exit_code == 0, r.output
    before = out.read_bytes()
    other = write_lines(tmp_path / "other.txt",
                        [json.dumps({"id": f"y{i}", "deal": d}) for i, d in enumerate(real_deals(3))])
    for args, why in [(["--generate", "9", "--seed", "8"], "holds id '1' with another deal"),
                      (["--generate", "9", "--seed", "7", "--dealer", "E"], "another deal or dealer"),
                      ([str(other)], "does not start with this input's first deal (id 'y0')")]:
        r = run_cli(*args, "-o", str(out), "--resume", "--no-summary")
        assert r.exit_code == 2 and why in r.output, (args, r.output)
        # refused before anything is solved: the output is as it was
        assert out.read_bytes() == before and not Path(str(out) + ".parts").exists()
    r = run_cli("--generate", "9", "--seed", "7", "-o", str(out), "--resume", "--no-summary")
    assert r.exit_code == 0 and "6 already done" in r.output, r.output


def test_resume_takes_the_same_deal_written_from_another_seat(tmp_path):
    deals = real_deals(4)
    out = tmp_path / "o.jsonl"
    assert run_cli(str(write_lines(tmp_path / "a.txt", deals[:2])), "-o", str(out), "--no-summary").exit_code == 0
    d = Deal.from_pbn(deals[1])
    from_e = Deal(d.hands, d.deck, d.dealer, first=Seat.E).pbn()
    assert from_e.startswith("E:")
    src = write_lines(tmp_path / "b.txt", [deals[0], json.dumps({"deal": from_e, "dealer": "N"})] + deals[2:])
    r = run_cli(str(src), "-o", str(out), "--resume", "--no-summary")
    assert r.exit_code == 0 and "2 already done" in r.output, r.output
    assert _ids(out) == [1, 2, 3, 4]


def test_bad_lines_reported_good_lines_kept(tmp_path):
    lines = real_deals(40)
    lines[4] = "N:AKQ.J.T.9 oops"
    lines[20] = '{"id": 5, "deal": 17}'
    lines[30] = lines[30].replace("A", "Q", 1)          # a card held twice
    lines[35] = json.dumps({"id": "dup", "deal": lines[35]})
    lines[36] = json.dumps({"id": "dup", "deal": lines[36]})  # an id given twice
    src = write_lines(tmp_path / "in.txt", lines)
    out = tmp_path / "out.jsonl"
    r = run_cli(str(src), "-p", "racehorse", "-o", str(out), "--chunk-size", "8", "--no-summary")
    assert r.exit_code == 2
    for n in (5, 21, 31, 37):
        assert f"{src}: line {n}:" in r.output
    assert "repeats the id of line 36" in r.output
    assert "4 bad lines" in r.output
    assert _ids(out) == [("dup" if k == 36 else k) for k in range(1, 41) if k not in (5, 21, 31, 37)]
    # --strict: stops at the first bad line; every deal before it is written
    out2 = tmp_path / "strict.jsonl"
    r = run_cli(str(src), "-p", "racehorse", "-o", str(out2), "--strict", "--chunk-size", "3", "--no-summary")
    assert r.exit_code == 2 and f"stopped at {src}: line 5" in r.output
    assert r.output.count("oops") == 1          # the bad line is named once, as the reason
    assert _ids(out2) == [1, 2, 3, 4]


def test_closing_line_counts_in_words(tmp_path):
    r = run_cli("--generate", "1", "--seed", "3", "-j", "1", "-o", str(tmp_path / "o.jsonl"), "--no-summary")
    assert r.exit_code == 0, r.output
    assert "solved 1 deal in" in r.output and "1 worker thread)" in r.output and "0 bad lines" in r.output


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "npz"])
def test_a_mistake_leaves_no_output_in_the_way(tmp_path, fmt):
    """Bad options or a missing input fail before the output is created, so the corrected
    command runs without --overwrite; an empty output left by an older failed start does not
    count as results either."""
    out = tmp_path / f"out.{fmt}"
    for args in (["--generate", "5", "--seed", "1", "--hand", "Q=AKQJT9..."],
                 [str(tmp_path / "missing.txt")]):
        r = run_cli(*args, "-o", str(out), "--no-summary")
        assert r.exit_code == 2, r.output
        assert not out.exists() and not Path(str(out) + ".parts").exists()
    if fmt != "npz":
        out.write_text("")
    r = run_cli("--generate", "5", "--seed", "1", "-o", str(out), "--no-summary")
    assert r.exit_code == 0, r.output
    if fmt == "jsonl":
        ids = _ids(out)
    elif fmt == "csv":
        ids = [row["id"] for row in csv.DictReader(out.open(newline=""))]
    else:
        with np.load(out) as z:
            ids = z["ids"].tolist()
    assert sorted(map(str, ids)) == ["1", "2", "3", "4", "5"]
    r = run_cli("--generate", "5", "--seed", "1", "-o", str(out), "--no-summary")
    assert r.exit_code == 2 and "exists" in r.output


def test_stdin_and_carried_keys(tmp_path):
    deals = real_deals(5)
    text = "\n".join([deals[0], "# a comment", "", json.dumps({"deal": deals[1], "id": "x", "note": [1, 2]})]) + "\n"
    r = runner.invoke(app, ["batch", "-", "-p", "pepper", "--no-summary"], input=text)
    assert r.exit_code == 0, r.output
    got = [json.loads(x) for x in r.stdout.splitlines()]
    assert [g["id"] for g in got] == [1, "x"] and got[1]["note"] == [1, 2]
    assert list(got[0]["table"]["N"]) == ["S", "H", "D", "C"]
    r = run_cli("-", "--resume", "--no-summary")
    assert r.exit_code == 2 and "--output" in r.output


# ---------------------------------------------------------------------------------------------
# Summary

def test_summary_numbers(tmp_path):
    out = tmp_path / "out.jsonl"
    summary = B.Summary(get_preset("racehorse"))
    lib_run(out, B.read_records(write_lines(tmp_path / "in.txt", real_deals(50)), "single24"),
            jobs=2, chunk_size=9, summary=summary)
    s = summary.to_json()
    rows = [[g["table"][seat][st] for st in ["S", "H", "D", "C", "NT", "NTL"]]
            for g in read_jsonl(out) for seat in "NESW"]
    assert s["deals"] == 50 and s["declarer_rows"] == 200
    for j, st in enumerate(["S", "H", "D", "C", "NT", "NTL"]):
        col = [r[j] for r in rows]
        assert s["strains"][st]["mean"] == round(sum(col) / 200, 4)
        assert s["strains"][st]["top_seat_mean"] == round(sum(max(col[i:i + 4]) for i in range(0, 200, 4)) / 50, 4)
        assert s["strains"][st]["distribution"] == {str(k): col.count(k) for k in range(7)}
        share = sum(1 / r.count(max(r)) for r in rows if r[j] == max(r))
        assert s["strains"][st]["best_share"] == round(share / 200, 4)
        for b in range(3, 7):
            assert s["make_rates"][str(b)][st] == round(sum(v >= b for v in col) / 200, 4)
    assert abs(sum(v["best_share"] for v in s["strains"].values()) - 1) < 1e-3
    assert s["make_rates"]["6"]["best"] == round(sum(max(r) >= 6 for r in rows) / 200, 4)


@pytest.mark.parametrize("preset", ["standard", "racehorse", "pepper", "double32", "double48"])
def test_summary_tables_fit_80_columns(preset):
    """Every cell of the summary shows whole at 80 columns (double48 has 13 trick columns)."""
    import io
    from rich.console import Console
    from bideuchre.cli.batch_cmd import summary_tables
    p = get_preset(preset)
    s = B.Summary(p)
    rng = np.random.default_rng(5)
    s.add(rng.integers(0, p.deck.hand + 1, size=(40, 4, len(p.strains))))
    con = Console(width=80, file=io.StringIO(), record=True)
    for t in summary_tables(s):
        con.print(t)
    text = con.export_text()
    assert "…" not in text and max(map(len, text.splitlines())) <= 80
    assert f"{s.to_json()['strains'][p.strains[0].name]['top_seat_mean']:.2f}" in text


# ---------------------------------------------------------------------------------------------
# Dask

def test_dask_local_cluster_same_results(tmp_path):
    from distributed import Client, LocalCluster

    a, b = tmp_path / "thread.jsonl", tmp_path / "dask.jsonl"
    recs = lambda: B.generate_records(60, 5, "single24")  # noqa: E731
    lib_run(a, recs(), "standard", jobs=2, chunk_size=12)
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        # resume through Dask too: the first 24 deals are already there
        lib_run(b, B.generate_records(24, 5, "single24"), "standard", executor="dask", dask=client,
                chunk_size=12)
        rep = lib_run(b, recs(), "standard", executor="dask", dask=client, chunk_size=12, resume=True)
    assert rep.skipped == 24 and rep.solved == 36 and rep.executor == "dask"
    assert a.read_text() == b.read_text()


def test_cli_dask_scheduler_address(tmp_path):
    from distributed import LocalCluster

    out = tmp_path / "o.jsonl"
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster:
        r = run_cli("--generate", "30", "--seed", "8", "-p", "racehorse", "-o", str(out),
                    "--dask-scheduler", cluster.scheduler_address, "--chunk-size", "10", "--no-summary")
    assert r.exit_code == 0, r.output
    ref = tmp_path / "ref.jsonl"
    lib_run(ref, B.generate_records(30, 8, "single24"), "racehorse", jobs=2)
    assert out.read_text() == ref.read_text()


def test_cli_dask_local(tmp_path):
    out = tmp_path / "o.jsonl"
    r = run_cli("--generate", "40", "--seed", "5", "-p", "standard", "-o", str(out), "--dask", "local",
                "--jobs", "2", "--chunk-size", "20", "--no-summary")
    assert r.exit_code == 0, r.output
    assert "dask" in r.output
    ref = tmp_path / "ref.jsonl"
    lib_run(ref, B.generate_records(40, 5, "single24"), "standard", jobs=1)
    assert out.read_text() == ref.read_text()


# ---------------------------------------------------------------------------------------------
# --alone and --par: the lone table and the par result of each deal, as for one deal

@pytest.mark.parametrize("preset,executor", [("standard", "thread"), ("pepper", "process")])
def test_alone_and_par_equal_single_deal_results(tmp_path, preset, executor):
    from bideuchre.analysis.lone import lone_table
    from bideuchre.analysis.par import par

    deals = real_deals(24)
    out = tmp_path / "o.jsonl"
    r = run_cli(str(write_lines(tmp_path / "in.txt", deals)), "-p", preset, "--alone", "--par",
                "-o", str(out), "--jobs", "2", "--chunk-size", "7", "--executor", executor,
                "--summary-json", str(tmp_path / "s.json"), "--no-summary")
    assert r.exit_code == 0, r.output
    got = read_jsonl(out)
    drop = ("deal", "preset", "dealer", "dd")
    labels = {}
    for g, text in zip(got, deals):
        deal = Deal.from_pbn(text)
        assert g["alone"] == lone_table(deal, preset).to_json()
        pj = par(deal, preset).to_json()
        assert pj["dd"] == g["table"]
        assert g["par"] == {k: v for k, v in pj.items() if k not in drop}
        c = pj["par"]
        lone_names = [b.name for b in get_preset(preset).lone_bids]
        key = ("thrown in" if c is None else
               ("lone " if c["bid"] in lone_names else "") + f"{c['bid']} {c['strain']}")
        labels[key] = labels.get(key, 0) + 1
    s = json.loads((tmp_path / "s.json").read_text())
    assert s["par_contracts"]["deals"] == 24 and s["par_contracts"]["by_contract"] == labels
