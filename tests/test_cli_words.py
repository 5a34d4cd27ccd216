"""The command line's face: start-up imports, --rule on every command that plays or scores,
the words under each analysis, explain --record, replay's contract and score (issue 15)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from bideuchre.cli.app import app

DEAL = "N:JT.Q.J9.J Q.JT..KQT AK9.K.AQ. .A9.KT.A9"
PTN = "positions/sources/trickster/basic_play.ptn"
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


# ---------------------------------------------------------------------------------------------
# start-up

def test_cli_import_does_not_load_numpy_the_core_or_rich():
    """Registering the commands imports no heavy module: NumPy, the Cython core, the analyses
    and rich load inside the commands that use them (bideuchre --version pays none of them)."""
    code = ("import sys, bideuchre.cli.app\n"
            "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'rich', 'pydantic')\n"
            "               or m.startswith(('bideuchre.search', 'bideuchre.batch', 'bideuchre.analysis.lone',\n"
            "                                'bideuchre.analysis.par', 'bideuchre.analysis.advice',\n"
            "                                'bideuchre.analysis.explain')))\n"
            "print(' '.join(heavy))\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert res.stdout.split() == []


def test_version_loads_no_heavy_module():
    code = ("import sys\nsys.argv = ['bideuchre', '--version']\nfrom bideuchre.cli.app import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(' '.join(sorted({m.split('.')[0] for m in sys.modules} & {'numpy', 'rich', 'pydantic'})))\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    lines = res.stdout.split("\n")
    assert lines[0] == __import__("bideuchre").__version__
    assert lines[1] == ""


# ---------------------------------------------------------------------------------------------
# --rule

def test_rule_changes_par_and_is_echoed():
    base = json.loads(run("par", DEAL, "--json").stdout)
    assert "rules" not in base
    assert base["par"]["bid"] == "12"           # E makes a lone 12 in NT (README)
    cheap = run("par", DEAL, "--json", "--rule", "lone_12=3", "--rule", "lone_24=3")
    obj = json.loads(cheap.stdout)
    assert obj["rules"] == {"lone_12": 3, "lone_24": 3}
    assert obj["par"]["bid"] != "12"            # a lone hand worth 3 no longer pays
    forced = json.loads(run("par", DEAL, "--json", "--rule", "min_bid=5", "--rule", "stick=true",
                            "--rule", "penalty=1", "--rule", "lone_12=3", "--rule", "lone_24=3").stdout)
    assert forced["auction"][:3] == ["pass", "pass", "pass"]   # nobody bids 5 ...
    assert forced["par"]["declarer"] == "N" and forced["par"]["bid"] == "5"   # ... the dealer is stuck
    assert forced["points"]["NS"] == -1         # set: the flat penalty of 1


@pytest.mark.parametrize("args, words", [
    (["--rule", "stick"], "expected KEY=VALUE"),
    (["--rule", "stick=maybe"], "allowed: true false"),
    (["--rule", "min_bid=9"], "allowed: 1..6"),
    (["--rule", "deck=double40"], "played with single24 only"),
    (["--rule", "target=1", "--rule", "target=2"], "given twice"),
    (["--rule", "nonsense=1"], "unknown table option 'nonsense'"),
    (["--deck", "double32"], "played with single24 only"),
])
def test_bad_rule_is_one_line_exit_2(args, words):
    res = run("par", DEAL, *args)
    assert res.exit_code == 2
    assert words in res.stderr and len(res.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["solve", "par", "explain", "replay", "bid", "batch", "rules"])
def test_every_command_that_plays_or_scores_takes_rule(command):
    res = run(command, "--help")
    assert "--rule" in res.stdout


def test_solve_deck_rule_and_lone_exchange_reach_the_lone_table():
    d32 = "N:J.KKQ.AJ.AQ AKJ.Q.KQJ.A AQ.AAJ.AQ.Q KQ.J.K.KKJJ"
    res = run("solve", d32, "-p", "double48", "--rule", "deck=double32", "--rule", "lone_exchange=1",
              "--alone", "--json")
    assert res.exit_code == 0, res.output
    obj = json.loads(res.stdout)
    assert obj["deck"] == "double32" and obj["rules"] == {"deck": "double32", "lone_exchange": 1}
    assert {r["bid"] for rs in obj["alone"]["N"].values() for r in rs} == {"lone-1"}


def test_bid_target_rule_is_the_default_target():
    common = ["bid", "AJ.KQ..JT", "--seat", "E", "--dealer", "N", "--samples", "20", "--score", "30-20", "--json"]
    by_rule = json.loads(run(*common, "--rule", "target=40").stdout)
    by_option = json.loads(run(*common, "--target", "40").stdout)
    assert by_rule["rules"] == {"target": 40}
    assert by_rule["target"] == by_option["target"] == 40
    assert [a["p_win"] for a in by_rule["actions"]] == [a["p_win"] for a in by_option["actions"]]


def test_bid_target_and_rule_target_must_agree():
    """``--rule target=5 --target 7`` used 7 while the JSON reported both: refused, one line."""
    common = ["bid", "AJ.KQ..JT", "--seat", "E", "--dealer", "N", "--samples", "5", "--score", "3-2"]
    res = run(*common, "--rule", "target=5", "--target", "7")
    assert res.exit_code == 2
    assert [ln for ln in res.output.splitlines() if ln.strip()] == [
        "error: --target 7 and --rule target=5 disagree"]
    res = run(*common, "--rule", "target=07", "--target", "7", "--json")        # the same value
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["target"] == 7


def _one_deal_file(tmp_path):
    """A file of one full deal, and East's hand in it."""
    from bideuchre.notation import Deal, format_hand
    d = Deal.from_pbn(DEAL)
    f = tmp_path / "one.txt"
    f.write_text(d.pbn() + "\n")
    return f, format_hand(d.hands[1])


def test_bid_one_given_deal_has_no_standard_error_and_names_its_file(tmp_path):
    """One deal: the difference is what it is on that deal, not "too close to call ... ± ?";
    the footer says the deals came from the file, not "sampled: random deals"."""
    f, hand = _one_deal_file(tmp_path)
    res = run("bid", hand, "--seat", "E", "--dealer", "N", "--deals", str(f), "--others", "dd")
    assert res.exit_code == 0, res.output
    assert "too close to call" not in res.stdout and "± ?" not in res.stdout
    assert "on the one deal rated (one deal gives no standard error)" in res.stdout
    assert "sampled: random deals" not in res.stdout
    assert f"given: the 1 full deal of {f}, each bid and played double dummy" in " ".join(res.stdout.split())
    obj = json.loads(run("bid", hand, "--seat", "E", "--dealer", "N", "--deals", str(f), "--json").stdout)
    assert obj["close"] is False and obj["difference_se"] is None and obj["samples"] == 1


def test_bid_index_needs_record():
    res = run("bid", "AJ.KQ..JT", "--seat", "E", "--dealer", "N", "--index", "3")
    assert res.exit_code == 2
    assert [ln for ln in res.output.splitlines() if ln.strip()] == [
        "error: --index 3 goes with --record FILE (the record number in it)"]


def test_play_echoes_known_cards_as_bid_does():
    args = ["play", "AK9.K.AQ.", "--seat", "S", "--strain", "H", "--leader", "S", "--known", "W=HA ST"]
    res = run(*args)
    assert res.exit_code == 0, res.output
    assert "known W: T.A.." in res.stdout.splitlines()[0], res.stdout
    obj = json.loads(run(*args, "--json").stdout)
    assert obj["known"] == {"W": "T.A.."}
    bid = json.loads(run("bid", "AJ.KQ..JT", "--seat", "E", "--dealer", "N", "--samples", "3",
                         "--known", "W:HA ST", "--json").stdout)
    assert bid["known"] == obj["known"]                 # the same form as bid's


@pytest.mark.parametrize("args", [
    ["bid", "AJ.KQ..JT", "--seat", "E", "--dealer", "N", "--deals", "a\0b"],
    ["bid", "--record", "x\0.ptn"],
    ["replay", "r\0.txt"],
    ["explain", "--record", "r\0.txt"],
    ["batch", "in\0.txt", "-o", "out.jsonl"],
    ["batch", "--generate", "3", "-o", "o\0.jsonl"],
    ["batch", "--generate", "3", "--plot", "p\0.png"],
    ["solve", "-", "--strain", "H", "--leader", "E\0"],
])
def test_a_nul_in_an_argument_is_one_line(args, capsys):
    """``open()`` says "ValueError: embedded null byte" (an internal error, exit 1): every
    command refuses the argument in one line, exit 2."""
    from bideuchre.cli.app import main
    with pytest.raises(SystemExit) as info:
        main(args)
    err = capsys.readouterr().err
    assert info.value.code == 2, err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "contains a NUL character" in lines[0], err


def test_a_nul_in_a_file_name_in_the_api():
    from bideuchre.records import load_record, read_records, write_records
    from bideuchre.rules import ArgumentError
    from bideuchre.textio import checked_lines
    for call in (lambda: load_record("r\0.txt"), lambda: read_records("r\0.txt"),
                 lambda: write_records("w\0.txt", []), lambda: list(checked_lines("b\0.txt"))):
        with pytest.raises(ArgumentError, match="contains a NUL character"):
            call()


def test_help_keeps_sentences_whole():
    """The docstring's line breaks reached the help ("runner-up by" / "more than 3 ...")."""
    res = subprocess.run([sys.executable, "-m", "bideuchre.cli.app", "bid", "--help"], capture_output=True,
                         text=True, env={**__import__("os").environ, "COLUMNS": "200"})
    text = res.stdout
    assert "leads the runner-up by more than 3 standard errors of their paired difference" in text, text
    assert "and rate every legal action by its expected hand result." in text


def test_single_value_ev_range_prints_one_value():
    from types import SimpleNamespace

    from bideuchre.cli.bid_cmd import _ev_text
    assert _ev_text(SimpleNamespace(ev=-5.04, ev_max=-5.0401, exact=False)) == "-5.04"
    assert _ev_text(SimpleNamespace(ev=-5.40, ev_max=-2.90, exact=False)) == "-5.40…-2.90"
    assert _ev_text(SimpleNamespace(ev=1.5, ev_max=None, exact=True)) == "+1.50"


def test_rules_command_lists_options():
    res = run("rules", "double48")
    assert res.exit_code == 0
    for key in ("deck", "stick", "min_bid", "penalty", "target", "lone_exchange", "lone_value"):
        assert key in res.stdout
    obj = json.loads(run("rules", "double48", "--rule", "deck=double40", "--json").stdout)
    assert obj["presets"]["double48"]["options"]["deck"] == "double40"
    assert obj["presets"]["double48"]["rules"] == {"deck": "double40"}
    assert obj["presets"]["double48"]["options"]["min_bid"] == 1
    everything = json.loads(run("rules", "--json").stdout)["presets"]
    assert set(everything) == {"standard", "pepper", "double32", "racehorse", "double48"}
    assert everything["double32"]["options"]["hands"] == 10
    assert run("rules", "--rule", "stick=true").exit_code == 2
    from bideuchre.rules import get_preset
    penalty = next(o for o in get_preset("standard").table_options() if o.key == "penalty")
    assert penalty.meaning == "a set side loses its bid, or that many points"


# ---------------------------------------------------------------------------------------------
# plain words

def test_each_analysis_says_what_it_assumes():
    assert "double dummy: every hand visible, best play by all" in run("solve", DEAL).stdout
    assert "double dummy: every hand visible" in run("solve", DEAL, "--strain", "H", "--leader", "E").stdout
    assert "double dummy: every hand visible" in run("explain", DEAL, "--strain", "H", "--leader", "E").stdout
    assert "par: every hand visible" in run("par", DEAL).stdout
    assert "may have been a sensible card" in run("replay", PTN).stdout


def test_replay_shows_contract_result_and_points():
    res = run("replay", PTN, "--index", "2", "--json")
    obj = json.loads(res.stdout)
    c = obj["contract"]
    # S bid 6 spades, double48; the record stops after 5 tricks: the rest is double dummy
    assert (c["declarer"], c["bid"], c["strain"], c["complete"]) == ("S", "6", "S", False)
    assert c["tricks"] == obj["steps"][-1]["value"]["NS"]
    assert c["made"] == (c["tricks"] >= 6)
    assert c["points"]["NS"] == (c["tricks"] if c["made"] else -6)
    assert c["points"]["EW"] == 12 - c["tricks"]
    text = run("replay", PTN, "--index", "2").stdout
    assert "contract S 6 ♠" in text and ("made" in text or "set" in text)
    flat = json.loads(run("replay", PTN, "--index", "2", "--json", "--rule", "min_bid=7").stdout)
    assert flat["contract"] is None             # bid 6 is off the ladder at min_bid 7


def test_explain_record_opens_the_position_before_a_trick():
    from bideuchre.records import load_record

    rec = load_record(PTN, 2)
    res = run("explain", "--record", PTN, "--index", "2", "--trick", "3", "--json")
    assert res.exit_code == 0, res.output
    obj = json.loads(res.stdout)
    assert obj["played"] == [str(c) for c in rec.play[:8]]
    assert obj["deal"] == rec.deal.pbn()
    too_far = run("explain", "--record", PTN, "--index", "2", "--trick", "9")
    assert too_far.exit_code == 2 and "after the recorded play" in too_far.stderr
    both = run("explain", DEAL, "--record", PTN)
    assert both.exit_code == 2


def test_the_base_install_needs_no_click():
    """The base install brings numpy, typer and rich only; typer 0.28 bundles its own copy of
    Click, so the CLI must not import ``click`` itself (it did: every command failed after
    ``pip install -e .``).  Run with ``click`` made unimportable wherever typer does not need it."""
    from importlib.metadata import requires

    typer_needs_click = any(r.replace(" ", "").lower().startswith("click") for r in (requires("typer") or []))
    block = "" if typer_needs_click else "sys.modules['click'] = None; "
    code = (f"import sys; {block}from bideuchre.cli.app import main; "
            "main(['solve', 'N:JT.Q.J9.J Q.JT..KQT AK9.K.AQ. .A9.KT.A9', '--preset', 'racehorse', '--json'])")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["table"]["N"]["H"] == 2
    helped = subprocess.run([sys.executable, "-c", f"import sys; {block}from bideuchre.cli.app import main; "
                             "main(['solve', '--help'])"], capture_output=True, text=True)
    assert helped.returncode == 0 and "DEAL" in helped.stdout and "<str>" not in helped.stdout
