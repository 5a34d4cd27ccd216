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
