"""``bideuchre solve`` through Typer's CliRunner."""

import json
from pathlib import Path

from typer.testing import CliRunner

from bideuchre.cli.app import app
from bideuchre.notation import Deal, Position
from bideuchre.rules import Side
from bideuchre.search.solve import dd_table, solve_position

from helpers import real_deals

runner = CliRunner()
DEAL = real_deals(1)[0]


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def test_table_json_shape_and_values():
    r = run("solve", DEAL, "--preset", "racehorse", "--json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert obj["deal"] == DEAL and obj["preset"] == "racehorse" and obj["dealer"] == "N"
    expected = dd_table(Deal.from_pbn(DEAL), "racehorse").to_json()["table"]
    assert obj["table"] == expected
    assert list(obj["table"]) == ["N", "E", "S", "W"]
    assert list(obj["table"]["N"]) == ["S", "H", "D", "C", "NT", "NTL"]


def test_table_rich_output_draws_the_deal():
    r = run("solve", DEAL, "--dealer", "E")
    assert r.exit_code == 0, r.output
    assert "♠" in r.stdout and "declarer" in r.stdout and "E (dealer)" in r.stdout
    assert "left of dealer (S)" in r.stdout


def test_position_json():
    r = run("solve", DEAL, "--strain", "H", "--leader", "E", "--played", "SQ S9", "--json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    pos = Position(Deal.from_pbn(DEAL), "H", "E", ["SQ", "S9"])
    t = solve_position(pos)
    assert obj["tricks"] == {"NS": t[Side.NS], "EW": t[Side.EW]}
    assert obj["played"] == ["SQ", "S9"] and obj["leader"] == "E" and obj["strain"] == "H"


def test_stdin_one_result_per_line_and_bad_line_reported():
    lines = real_deals(3)
    text = lines[0] + "\n" + "N:A.T.QJ.K9 .9.KT.AQT\n" + lines[1] + "\n"
    r = run("solve", "-", "--json", input=text)
    assert r.exit_code == 2
    out = [json.loads(x) for x in r.stdout.strip().splitlines()]
    assert [o["deal"] for o in out] == [lines[0], lines[1]]
    assert "line 2" in r.stderr and "has 2 hands; expected 4" in r.stderr


def test_deck_override_for_a_partial_double_deck_position():
    r = run("solve", "N:A... A... K... Q...", "--deck", "double32", "--strain", "NT", "--leader", "N", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["tricks"] == {"NS": 1, "EW": 0}


def test_bad_input_is_one_line_exit_2():
    cases = [
        (["solve", "N:A.T.QJ.K9 .9.KT.AQT Q9.AQJ.A. KJT.K.9.Z"], "unknown rank 'Z'"),
        (["solve", DEAL, "--preset", "bogus"], "unknown preset 'bogus'"),
        (["solve", DEAL, "--preset", "pepper", "--strain", "NT", "--leader", "N"], "strain NT is not allowed"),
        (["solve", DEAL, "--strain", "H", "--leader", "E", "--played", "SA"], "trick 1: E cannot play SA"),
        (["solve", DEAL, "--strain", "H"], "--strain needs --leader"),
        (["solve", DEAL, "--deck", "double99"], "unknown deck form"),
        (["solve", DEAL, "--strain", "X", "--leader", "N"], "unknown strain 'X'"),
    ]
    for args, msg in cases:
        r = run(*args)
        assert r.exit_code == 2, (args, r.output)
        assert msg in r.stderr, (args, r.stderr)
        assert "Traceback" not in r.output and len(r.stderr.strip().splitlines()) == 1


def test_a_file_of_deals_or_an_empty_one(tmp_path):
    """A file given where a deal goes says how to read it; a file with no deals is refused
    before any output is made."""
    f = tmp_path / "deals.txt"
    f.write_text(DEAL + "\n")
    r = run("solve", str(f))
    assert r.exit_code == 2 and "is a file, not a deal" in r.stderr and "solve - <" in r.stderr
    r = run("par", str(f))
    assert r.exit_code == 2 and "par - <" in r.stderr
    r = run("explain", str(f), "--strain", "H", "--leader", "E")     # explain reads no stdin
    assert r.exit_code == 2 and "give one deal itself" in r.stderr and " - <" not in r.stderr
    rec = Path(__file__).resolve().parent.parent / "positions/sources/trickster/basic_play.ptn"
    for cmd in (["solve", str(rec)], ["explain", str(rec), "--strain", "H"], ["par", str(rec)]):
        r = run(*cmd)
        assert r.exit_code == 2 and "is a hand record, not a deal" in r.stderr, (cmd, r.output)
        assert f"bideuchre replay {rec}" in r.stderr
    for args in (["-o", str(tmp_path)], ["-o", str(tmp_path / "o.jsonl"), "--summary-json", str(tmp_path)]):
        r = run("batch", str(f), *args)
        assert r.exit_code == 2 and "is a directory; give a file name" in r.stderr, r.output
    assert not (tmp_path / "o.jsonl").exists()
    e = tmp_path / "empty.txt"
    e.write_text("# nothing\n\n")
    r = run("batch", str(e), "-o", str(tmp_path / "out.jsonl"))
    assert r.exit_code == 2 and "empty.txt: no deals" in r.stderr
    assert not (tmp_path / "out.jsonl").exists()
    # stdin with no deal is refused the same way by solve, par and batch
    for args in (["solve", "-"], ["par", "-"], ["batch", "-", "-o", str(tmp_path / "out.jsonl")]):
        for text in ("", "# nothing\n\n"):
            r = run(*args, input=text)
            assert r.exit_code == 2 and r.stderr.strip() == "error: stdin: no deals (only blank or # lines)", (args, r.output)
    assert not (tmp_path / "out.jsonl").exists()


def test_a_deal_of_fewer_cards_than_the_preset_deals_is_called_partial():
    r = run("solve", DEAL, "--preset", "double48")          # a single24 deal: 6 cards a hand
    assert r.exit_code == 0, r.output
    assert "partial deal: 6 of the 12 cards a hand of double48" in r.stdout
    r = run("solve", DEAL, "--preset", "racehorse")
    assert r.exit_code == 0 and "partial" not in r.stdout


def test_lone_table_titles_name_the_bid():
    r = run("solve", DEAL, "--preset", "pepper", "--alone")       # pepper's lone bid is "alone"
    assert r.exit_code == 0 and "Alone ·" in r.stdout and "Lone alone" not in r.stdout, r.output
    r = run("solve", DEAL, "--alone")                               # standard: 12 and 24
    assert "Lone 12 ·" in r.stdout and "Lone 24 ·" in r.stdout, r.output


def test_par_reads_stdin_one_result_a_line():
    from bideuchre.analysis.par import par
    lines = real_deals(3)
    r = run("par", "-", "-p", "pepper", "--json", input="\n".join(lines[:2] + ["N:AK"] + lines[2:]) + "\n")
    assert r.exit_code == 2 and "line 3:" in r.stderr and "has 1 hand;" in r.stderr
    got = [json.loads(x) for x in r.stdout.splitlines()]
    assert [g["par"] for g in got] == [par(Deal.from_pbn(x), "pepper").to_json()["par"] for x in lines]


def test_a_reader_that_stops_early_ends_it_quietly(tmp_path):
    import subprocess
    import sys
    from helpers import ROOT
    src = tmp_path / "deals.txt"
    src.write_text("\n".join(real_deals(3000)) + "\n")       # more output than a pipe holds
    with open(src) as fin:
        proc = subprocess.Popen([sys.executable, "-m", "bideuchre.cli.app", "solve", "-"], cwd=ROOT, text=True,
                                stdin=fin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        first = proc.stdout.readline()
        proc.stdout.close()
        assert proc.wait(60) == 0 and proc.stderr.read() == ""
    assert first.startswith(real_deals(1)[0])


def test_batch_and_bid_refuse_bad_counts():
    r = run("batch", "--generate", "3", "--seed", "1", "--alone", "-p", "racehorse")
    assert r.exit_code == 2 and "preset 'racehorse' has no lone bids" in r.stderr
    r = run("batch", "--generate", "-3")
    assert r.exit_code == 2 and "at least 1" in r.stderr
    r = run("batch", "--generate", "3", "--seed", "1", "-o", "x.jsonl", "--resume", "--overwrite")
    assert r.exit_code == 2 and "either --resume" in r.stderr
    for bad in (["--executor", "foo"], ["--chunk-size", "0"]):
        r = run("batch", "--generate", "3", "--seed", "1", "-o", "y.jsonl", *bad)
        assert r.exit_code == 2 and not Path("y.jsonl").exists(), r.stderr   # no empty output left
    r = run("batch", "--generate", "3", "--seed", "1", "--summary-json", "/nonexistent/dir/s.json")
    assert r.exit_code == 2 and "--summary-json" in r.stderr and "directory does not exist" in r.stderr
