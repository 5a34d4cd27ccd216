"""Flat numeric batch results (issue 16 §2, issue 14 item 17): CSV columns per declarer ×
strain, lone bid and par; numeric npz arrays with their legend; carried keys as columns;
bideuchre.batch.load gives the same DataFrame for every format."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from bideuchre import batch as B
from bideuchre.cli.app import app
from bideuchre.rules import Card, Seat

from helpers import real_deals

pd = pytest.importorskip("pandas")      # the 'study' extra (in the test extra too)
runner = CliRunner()
FORMATS = ("jsonl", "csv", "npz")


def solve_all(tmp_path: Path, *args: str) -> dict[str, Path]:
    lines = real_deals(7)
    lines[0] = json.dumps({"deal": lines[0], "board": 7, "room": "open"})
    lines[3] = json.dumps({"id": "x4", "deal": lines[3], "board": 9, "tags": ["late", 1]})
    src = tmp_path / "in.txt"
    src.write_text("\n".join(lines) + "\n")
    outs = {}
    for fmt in FORMATS:
        outs[fmt] = tmp_path / f"out.{fmt}"
        r = runner.invoke(app, ["batch", str(src), *args, "-o", str(outs[fmt]), "--chunk-size", "3",
                                "--no-summary"])
        assert r.exit_code == 0, r.output
    return outs


def same(a, b) -> bool:
    """Equal values (a number read as 5 or 5.0 alike), or both missing."""
    if isinstance(a, list) or isinstance(b, list):
        return a == b
    if pd.isna(a) or pd.isna(b):
        return pd.isna(a) and pd.isna(b)
    try:
        return float(a) == float(b)
    except (TypeError, ValueError):
        return str(a) == str(b)


@pytest.fixture(scope="module")
def standard(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("flat")
    return solve_all(tmp, "-p", "standard", "--alone", "--par")


def test_csv_has_a_column_per_number(standard):
    js = [json.loads(x) for x in standard["jsonl"].read_text().splitlines()]
    with open(standard["csv"], newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 7
    for g, r in zip(js, rows):
        for s in "NESW":
            for st in ("S", "H", "D", "C", "NT", "NTL"):
                assert int(r[f"tricks_{s}_{st}"]) == g["table"][s][st]
                for res in g["alone"][s][st]:
                    assert int(r[f"alone_{s}_{st}_{res['bid']}"]) == res["tricks"]
                    assert int(r[f"alone_{s}_{st}_{res['bid']}_all"]) == int(res["all"])
        p = g["par"]
        assert (int(r["par_ns"]), int(r["par_ew"])) == (p["points"]["NS"], p["points"]["EW"])
        c = p["par"]
        got = [r["par_declarer"], r["par_bid"], r["par_strain"], r["par_tricks"]]
        assert got == (["", "", "", ""] if c is None else
                       [c["declarer"], c["bid"], c["strain"], str(c["tricks"])])
    # carried keys are columns of their own; a key first seen after the header goes to 'extra'
    assert rows[0]["board"] == "7" and rows[0]["room"] == "open" and rows[0]["extra"] == ""
    assert rows[3]["board"] == "9" and json.loads(rows[3]["extra"]) == {"tags": ["late", 1]}
    assert rows[1]["board"] == "" and rows[3]["id"] == "x4"


def test_npz_is_numeric_with_its_legend(standard):
    js = [json.loads(x) for x in standard["jsonl"].read_text().splitlines()]
    with np.load(standard["npz"]) as z:
        assert list(z["cards"]) == [str(Card(i)) for i in range(24)]
        assert list(z["seats"]) == ["N", "E", "S", "W"] and list(z["lone_bids"]) == ["12", "24"]
        assert "alone_tricks" in str(z["legend"]) and "(n, 4, S, B)" in str(z["legend"])
        assert "alone" not in z.files and "par" not in z.files      # no JSON text any more
        assert z["alone_tricks"].dtype == np.int8 and z["alone_tricks"].shape == (7, 4, 6, 2)
        assert z["alone_give"].shape == (7, 4, 6, 2, 1) and z["par_points"].dtype == np.int16
        cards, strains = list(z["cards"]), list(z["strains"])
        for i, g in enumerate(js):
            for s in Seat:
                for j, st in enumerate(strains):
                    for k, res in enumerate(g["alone"][s.name][st]):
                        assert z["alone_tricks"][i, s, j, k] == res["tricks"]
                        assert z["alone_all"][i, s, j, k] == res["all"]
                        give = [cards[c] for c in z["alone_give"][i, s, j, k] if c >= 0]
                        assert give == res["give"]
            c = g["par"]["par"]
            assert z["par_status"][i] == (0 if c is None else 1)
            if c is not None:
                assert (z["seats"][z["par_declarer"][i]], z["par_bid"][i], strains[z["par_strain"][i]],
                        z["par_tricks"][i]) == (c["declarer"], c["bid"], c["strain"], c["tricks"])
            assert tuple(z["par_points"][i]) == (g["par"]["points"]["NS"], g["par"]["points"]["EW"])


def test_load_gives_the_same_frame_for_every_format(standard):
    frames = {fmt: B.load(path) for fmt, path in standard.items()}
    base = frames["jsonl"]
    assert base.shape == (7, 5 + 24 + 4 * 6 * 2 * 2 + 1 + 7 + 3)
    assert list(base.columns[-3:]) == ["board", "room", "tags"]
    assert base["id"].tolist() == [1, 2, 3, "x4", 5, 6, 7]
    assert base.loc[0, "board"] == 7 and base.loc[3, "tags"] == ["late", 1]
    for fmt in ("csv", "npz"):
        df = frames[fmt]
        assert list(df.columns) == list(base.columns), fmt
        for col in base.columns:
            if col == "tags":           # a list: JSON text in CSV cells
                continue
            assert all(same(a, b) for a, b in zip(base[col], df[col])), (fmt, col)
    js = json.loads(standard["jsonl"].read_text().splitlines()[2])
    assert frames["npz"].loc[2, "tricks_W_NTL"] == js["table"]["W"]["NTL"]


@pytest.mark.parametrize("fmt", ["csv", "npz", "parquet"])
def test_resume_reads_the_flat_par_back_for_the_summary(tmp_path, fmt):
    if fmt == "parquet":
        pytest.importorskip("pyarrow")      # the 'parquet' extra (in the test extra too)
    out = tmp_path / f"o.{fmt}"
    whole = tmp_path / "whole.json"
    args = ["batch", "--generate", "12", "--seed", "4", "-p", "pepper", "--par", "--chunk-size", "4",
            "--no-summary"]
    assert runner.invoke(app, [*args, "-o", str(tmp_path / f"w.{fmt}"), "--summary-json", str(whole)]).exit_code == 0
    first = runner.invoke(app, ["batch", "--generate", "8", "--seed", "4", "-p", "pepper", "--par",
                                "--chunk-size", "4", "--no-summary", "-o", str(out)])
    assert first.exit_code == 0, first.output
    r = runner.invoke(app, [*args, "-o", str(out), "--resume", "--summary-json", str(tmp_path / "s.json")])
    assert r.exit_code == 0 and "8 already done" in r.output, r.output
    got = json.loads((tmp_path / "s.json").read_text())
    want = json.loads(whole.read_text())
    assert got["par_contracts"] == want["par_contracts"] and got["deals"] == 12
    # resuming with another set of analyses is refused: the columns would not match
    if fmt in ("csv", "parquet"):
        r = runner.invoke(app, ["batch", "--generate", "12", "--seed", "4", "-p", "pepper", "-o", str(out),
                                "--resume", "--no-summary"])
        assert r.exit_code == 2 and "columns are not this command's" in r.output
