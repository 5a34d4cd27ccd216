"""Parquet batch output (issue 16 §2): the CSV's columns with numeric types, durable parts and
resume as npz, bideuchre.batch.load giving the CSV's DataFrame, and the missing-extra error.

Real deals: positions/sources/real_deals_single24.txt."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bideuchre import batch as B
from bideuchre.cli.app import app
from bideuchre.rules import get_preset

from helpers import failing_at, real_deals

pa = pytest.importorskip("pyarrow")         # the 'parquet' extra (in the test extra too)
pq = pytest.importorskip("pyarrow.parquet")
pd = pytest.importorskip("pandas")
runner = CliRunner()
ANALYSES = ("-p", "standard", "--alone", "--par")


def write_input(path: Path, n: int) -> Path:
    lines = real_deals(n)
    lines[0] = json.dumps({"deal": lines[0], "board": 7, "room": "open"})
    lines[3] = json.dumps({"id": "x4", "deal": lines[3], "board": 9, "tags": ["late", 1]})
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("pq")
    src = write_input(tmp / "in.txt", 7)
    outs = {}
    for fmt in ("csv", "parquet"):
        outs[fmt] = tmp / f"out.{fmt}"
        r = runner.invoke(app, ["batch", str(src), *ANALYSES, "-o", str(outs[fmt]), "--chunk-size", "3",
                                "-j", "1", "--no-summary"])
        assert r.exit_code == 0, r.output
    return outs


def test_parquet_has_the_csv_columns_and_values_with_numeric_types(both):
    with open(both["csv"], newline="") as fh:
        header, *rows = list(csv.reader(fh))
    t = pq.read_table(both["parquet"])
    # every carried key is a column (tags first appears in the second chunk: the CSV's 'extra')
    assert t.column_names == header[:-1] + ["tags", "extra"]
    layout = B.Layout(get_preset("standard"), get_preset("standard").deck, True, True)
    assert header[:len(layout.columns)] == layout.columns and header[-3:] == ["board", "room", "extra"]
    types = {f.name: f.type for f in t.schema}
    assert types["tricks_W_NTL"] == pa.int8() and not t.schema.field("tricks_W_NTL").nullable
    assert types["alone_E_NT_12"] == pa.int8() and types["alone_E_NT_12_all"] == pa.int8()
    assert types["par_tricks"] == pa.int8() and types["par_ns"] == types["par_ew"] == pa.int16()
    assert types["par_declarer"] == types["deal"] == types["id"] == pa.string()
    assert types["board"] == pa.int64() and types["room"] == types["tags"] == pa.string()
    got = t.to_pylist()
    assert len(got) == len(rows) == 7
    for row, g in zip(rows, got):
        for name, cell in zip(header[:-1], row):
            assert ("" if g[name] is None else str(g[name])) == cell, name
    assert json.loads(rows[3][-1]) == {"tags": ["late", 1]} and json.loads(got[3]["tags"]) == ["late", 1]
    assert got[1]["board"] is None and all(g["extra"] is None for g in got)
    # a hand thrown in: empty contract cells in the CSV, nulls here, the points still numbers
    thrown = [g for g in got if g["par_declarer"] is None]
    assert all(g["par_bid"] is None and g["par_tricks"] is None and g["par_ns"] is not None for g in thrown)


def test_load_gives_the_csv_frame(both):
    c, p = B.load(both["csv"]), B.load(both["parquet"])
    # tags: a list from the CSV's extra column and from the Parquet column of its own (JSON
    # text there, read back as the value the input had)
    assert p["tags"][3] == c["tags"][3] == ["late", 1] and p["tags"].isna().sum() == 6
    pd.testing.assert_frame_equal(c, p)
    assert p["tricks_W_NTL"].dtype == "int64" and p["id"].tolist() == [1, 2, 3, "x4", 5, 6, 7]


def test_interrupted_run_resumes_to_the_same_file(tmp_path, monkeypatch):
    src = write_input(tmp_path / "in.txt", 10)
    whole = tmp_path / "whole.parquet"
    base = ["batch", str(src), *ANALYSES, "--chunk-size", "2", "-j", "1"]
    r = runner.invoke(app, [*base, "-o", str(whole), "--summary-json", str(tmp_path / "w.json")])
    assert r.exit_code == 0, r.output
    out = tmp_path / "out.parquet"
    parts = Path(str(out) + ".parts")
    real = B.solve_table_chunk
    monkeypatch.setattr(B.runner, "solve_table_chunk", failing_at(real, 3))
    with pytest.raises(RuntimeError, match="injected"):
        B.run_batch(B.read_records(src, "single24"),
                    B.open_writer(None, out, "standard", alone=True, par=True),
                    alone=True, par=True, jobs=1, chunk_size=2, executor="thread")
    monkeypatch.setattr(B.runner, "solve_table_chunk", real)
    # only whole parts, one per chunk written before the failure; no output yet
    assert not out.exists() and sorted(p.name for p in parts.iterdir()) == \
        [f"part-0001-00000{k}.parquet" for k in range(3)]
    assert [pq.read_table(p).num_rows for p in sorted(parts.iterdir())] == [2, 2, 2]
    r = runner.invoke(app, [*base, "-o", str(out), "--no-summary"])
    assert r.exit_code == 2 and "--resume" in r.output
    r = runner.invoke(app, ["batch", str(src), "-p", "standard", "--par", "-o", str(out), "--resume", "--no-summary"])
    assert r.exit_code == 2 and "its columns are not this command's" in r.output, r.output
    r = runner.invoke(app, [*base, "-o", str(out), "--resume", "--summary-json", str(tmp_path / "s.json")])
    assert r.exit_code == 0 and "6 already done" in r.output, r.output
    assert not parts.exists()
    assert pq.read_table(out).equals(pq.read_table(whole))
    got, want = (json.loads((tmp_path / n).read_text()) for n in ("s.json", "w.json"))
    got.pop("run"), want.pop("run")
    assert got == want and got["deals"] == 10       # the lone and par results read back for the summary


def test_missing_pyarrow_is_one_line_naming_the_extra(tmp_path, monkeypatch):
    src = write_input(tmp_path / "in.txt", 4)
    monkeypatch.setitem(sys.modules, "pyarrow", None)       # import pyarrow raises ImportError
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    for args in (["-o", str(tmp_path / "o.parquet")], ["-f", "parquet", "-o", str(tmp_path / "o.data")]):
        r = runner.invoke(app, ["batch", str(src), *args, "--no-summary"])
        assert r.exit_code == 2, r.output
        assert r.output.strip() == "error: Parquet output needs pyarrow: pip install 'bideuchre[parquet]'"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt"]       # nothing created
    with pytest.raises(ImportError, match=r"bideuchre\[parquet\]"):
        B.load(tmp_path / "o.parquet")


def test_parquet_needs_an_output_file(tmp_path):
    r = runner.invoke(app, ["batch", "--generate", "2", "--seed", "1", "-f", "parquet", "--no-summary"])
    assert r.exit_code == 2 and "--format parquet needs --output FILE" in r.output
