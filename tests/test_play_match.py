"""The duplicate play match (``bideuchre match --play``, bideuchre.bidding.play_match): the
declarer/defence split, the results independent of the workers and chunks, and an output
that is resumed, never overwritten."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from bideuchre.bidding.match import MatchError
from bideuchre.bidding.play_match import run_play_match
from bideuchre.cli.app import app
from bideuchre.rules import get_preset

RACE = get_preset("racehorse")


def _lines(path):
    with open(path) as f:
        return [json.loads(x) for x in f][1:]


def test_the_split_parts_the_edge_and_b_plays_both_sides_of_the_third_run(tmp_path):
    """heuristic against dd: the third run is dd at both sides, so its tricks are the par
    contract's DD tricks; against a DD defence no declarer takes more, and against a DD
    declarer no defence holds it to fewer, so both parts are <= 0 on every deal; the parts add
    up to twice the edge."""
    out = tmp_path / "m.jsonl"
    res = run_play_match("heuristic", "dd", RACE, 16, 5, split=True, jobs=1, output=out)
    lines = [ln for ln in _lines(out) if not ln.get("skipped")]
    assert len(lines) == res.points.deals > 10
    for ln in lines:
        assert ln["r3"]["tricks"] == ln["dd"]
        assert ln["edge_declarer_tricks"] <= 0 and ln["edge_defence_tricks"] <= 0
        assert ln["edge_declarer"] + ln["edge_defence"] == 2 * ln["edge"]
    decl, dfn = res.split["declarer"], res.split["defence"]
    assert decl[1].edge < 0                       # the heuristic declares worse than DD
    assert decl[0].edge + dfn[0].edge == pytest.approx(2 * res.points.edge)
    assert res.to_json()["declarer"]["edge_tricks"] == decl[1].edge
    plain = run_play_match("heuristic", "dd", RACE, 16, 5, jobs=1)
    assert plain.split is None and plain.points.edge == res.points.edge


def test_results_do_not_depend_on_workers_or_chunks():
    one = run_play_match("heuristic", "dd", RACE, 10, 7, split=True, jobs=1)
    two = run_play_match("heuristic", "dd", RACE, 10, 7, split=True, jobs=2, chunk_size=3)
    assert one.to_json() == two.to_json()


def test_an_output_is_resumed_and_never_overwritten(tmp_path):
    out = tmp_path / "m.jsonl"
    full = run_play_match("heuristic", "dd", RACE, 12, 2, jobs=1, output=out)
    text = out.read_text()
    with pytest.raises(MatchError, match="exists"):
        run_play_match("heuristic", "dd", RACE, 12, 2, jobs=1, output=out)
    assert out.read_text() == text                      # refused: not a byte lost
    with pytest.raises(MatchError, match=r"holds another match \(a: 'heuristic' there, 'dd' here; "
                                         r"b: 'dd' there, 'heuristic' here\)"):
        run_play_match("dd", "heuristic", RACE, 12, 2, jobs=1, output=out, resume=True)
    keep = text.splitlines(keepends=True)[:6]
    out.write_text("".join(keep) + keep[-1][:20])       # a killed run: five deals and a partial line
    again = run_play_match("heuristic", "dd", RACE, 12, 2, jobs=1, output=out, resume=True)
    assert again.to_json() == full.to_json() and out.read_text() == text


@pytest.mark.parametrize("extra,needle", [
    (["--split"], "--split goes with --play"),
    (["--samples", "5"], "--samples goes with --play"),
    (["--play", "--plot", "x.png"], "--plot draws a bidding match"),
    (["--play", "--contracts", "par"], None),
    (["--play", "--resume"], "--resume continues an --output file"),
])
def test_match_flags_are_checked(extra, needle, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["match", "heuristic", "dd", "-p", "racehorse", "-n", "3", "--seed", "1", "-j", "1"] + extra
    r = CliRunner().invoke(app, args)
    if needle is None:
        assert r.exit_code == 0 and "edge of heuristic" in r.output
        return
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and needle in lines[0], r.output


def test_thrown_in_lines_count_as_read_and_resume_across_them(tmp_path):
    """A thrown-in deal writes a ``skipped`` line: the tally counts it as read (so a resume
    starts after it) and as skipped, never as an edge."""
    from bideuchre.bidding.match import _read_output
    from bideuchre.bidding.play_match import PlayTally
    run = {"tricks": 4, "points": 4, "made": True}
    lines = [{"deal": 1, "pbn": "x", "r1": run, "r2": dict(run, made=False), "r3": run, "edge": 1.0,
              "edge_tricks": 0.5, "edge_declarer": 2, "edge_declarer_tricks": 1, "edge_defence": 0,
              "edge_defence_tricks": 0},
             {"deal": 2, "pbn": "y", "skipped": True},
             {"deal": 3, "pbn": "z", "r1": run, "r2": run, "r3": run, "edge": -1.0,
              "edge_tricks": 0.0, "edge_declarer": -2, "edge_declarer_tricks": 0, "edge_defence": 0,
              "edge_defence_tricks": 0}]
    header = {"match": {"preset": "racehorse", "a": "x", "b": "y", "seed": 1}}
    out = tmp_path / "m.jsonl"
    out.write_text("".join(json.dumps(x) + "\n" for x in [header] + lines))
    t = PlayTally()
    _read_output(out, header, t, 10)
    res = t.result(RACE, "x", "y", 1)
    assert (t.n, t.skipped, res.points.deals) == (3, 1, 2)
    assert res.points.edge == 0.0 and res.split["declarer"][0].edge == 0.0
    assert res.points.stats["B"].set == 1          # r2's declaring side (B's) was set


def test_sampling_policies_do_not_depend_on_workers_and_alphamu_reads_the_auction():
    one = run_play_match("pimc", "heuristic", RACE, 3, 7, samples=6, jobs=1)
    two = run_play_match("pimc", "heuristic", RACE, 3, 7, samples=6, jobs=2, chunk_size=1)
    assert one.to_json() == two.to_json()
    same = run_play_match("alphamu+auction", "alphamu+auction", RACE, 2, 4, samples=6,
                          contracts="model", jobs=1)
    assert same.points.edge == 0 and same.points.deals + same.skipped == 2
    with pytest.raises(MatchError, match="alphamu\\+auction reads the auction"):
        run_play_match("alphamu+auction", "pimc", RACE, 2)


def test_an_output_of_an_older_build_is_named_not_overwritten(tmp_path):
    out = tmp_path / "old.jsonl"
    out.write_text(json.dumps({"i": 0, "deal": "N:..."}) + "\n")
    with pytest.raises(MatchError, match="line 1 is not a match header"):
        run_play_match("heuristic", "dd", RACE, 2, 1, jobs=1, output=out, resume=True)
    changed = RACE.with_options(target=42)
    run_play_match("heuristic", "dd", changed, 2, 1, jobs=1, output=tmp_path / "r.jsonl")
    with pytest.raises(MatchError, match=r"holds another match \(rules: \{'target': 42\} there, None here\)"):   # other rules: not the same match
        run_play_match("heuristic", "dd", RACE, 3, 1, jobs=1, output=tmp_path / "r.jsonl", resume=True)


def test_a_play_policy_in_a_bidding_match_says_add_play():
    from typer.testing import CliRunner
    from bideuchre.cli.app import app
    r = CliRunner().invoke(app, ["match", "hybrid", "pimc", "-p", "racehorse", "-n", "2"])
    assert r.exit_code == 2 and "'hybrid' is a play policy: add --play" in " ".join(r.output.split())
    r = CliRunner().invoke(app, ["match", "nosuch", "model", "-p", "racehorse", "-n", "2"])
    assert r.exit_code == 2 and "unknown policy 'nosuch'" in r.output and "add --play" not in r.output
