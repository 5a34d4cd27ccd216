"""Every input handled, nothing lost (issue 14, items 5-10, 14, 16, 19): bad values raise a
distinct error under BidEuchreError in the API and give one line with exit 2 in the command
line; closed and full streams, early readers, Ctrl-C and SIGTERM end cleanly.

The command line is run as the console script runs it (``bideuchre.cli.app.main``): in process
where the streams do not matter, in a subprocess where they do (closed descriptors, signals).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bideuchre import (ArgumentError, BidEuchreError, Deal, IllegalPlayError, NotationError,
                       Position, RulesError, dd_table, get_preset, solve_position)
from bideuchre.analysis.advice import advise
from bideuchre.analysis.auction import Auction, parse_bid
from bideuchre.records import load_record, parse_ptn, parse_records, read_records, write_records
from bideuchre.rules import Card, as_card, check_seed, parse_seat, parse_strain, read_int

ROOT = Path(__file__).resolve().parents[1]
D = "N:JT.Q.J9.J Q.JT..KQT AK9.K.AQ. .A9.KT.A9"
R = ROOT / "positions" / "sources" / "real_deals_single24.txt"
BASIC = ROOT / "positions" / "sources" / "trickster" / "basic_play.ptn"
BIG = "9" * 5000        # more digits than Python converts (4,300)


def run_main(argv, capsys) -> tuple[int, str, str]:
    """``bideuchre ARGV`` in process through the console script's entry point."""
    from bideuchre.cli.app import main
    with pytest.raises(SystemExit) as info:
        main(list(argv))
    cap = capsys.readouterr()
    return info.value.code, cap.out, cap.err


def run_cli(args, **kw) -> subprocess.CompletedProcess:
    """``bideuchre ARGS`` in a subprocess (the console script's code path)."""
    code = "import sys; from bideuchre.cli.app import main; sys.argv[0] = 'bideuchre'; main()"
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, timeout=300, **kw)


def one_error_line(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err and "internal error" not in err, err
    return lines[0]


# ---------------------------------------------------------------------------------------------
# 5. bad hand records

def _ptn(options: str) -> str:
    return f'[GameOptionsJson "{options}"]\n[Deal "{D}"]\n'


@pytest.mark.parametrize("options, pattern", [
    (r'\"[1]\"', "GameOptionsJson is str '\\[1\\]'; expected a JSON object"),
    (r'\"\"', "GameOptionsJson is str ''"),
    (r'{\"numDecks\": 2, \"deckSize\": \"x\"}', "deckSize: 'x' is not a whole number"),
    (r'{\"numDecks\": 2, \"deckSize\": []}', r"deckSize: \[\] is not a whole number"),
    (r'{\"numDecks\": 2, \"deckSize\": Infinity}', "deckSize: inf is not a whole number"),
    (r'{\"numDecks\": {\"a\": 1}}', "numDecks: .* is not a whole number"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
])
def test_ptn_game_options_errors(options, pattern):
    with pytest.raises(NotationError, match="fuzz.ptn:1: .*" + pattern):
        parse_ptn(_ptn(options), "fuzz.ptn")


def test_ptn_game_options_numbers_as_text_or_float_still_read():
    rec = parse_ptn(_ptn(r'{\"numDecks\": \"2\", \"deckSize\": 16.0}').replace(
        D, "N:J.KKQ.AJ.AQ AKJ.Q.KQJ.A AQ.AAJ.AQ.Q KQ.J.K.KKJJ"), "x.ptn")[0]
    assert rec.deck.name == "double32"


@pytest.mark.parametrize("bid, shown", [("²", "²"), ("٣", "٣"), (BIG, "'99999"), ("7", "7")])
def test_record_bid_numbers_are_checked(bid, shown):
    text = f'[Deal "{D}"]\n[Strain "H"]\n[Bid "{bid}"]\n'
    with pytest.raises(NotationError, match=f"f.txt:3: no bid {shown}"):
        parse_records(text, "f.txt")
    assert parse_records(text.replace(bid, "4"), "f.txt")[0].bid == "4"


def test_record_files_and_cli(tmp_path, capsys):
    bad = tmp_path / "bad.ptn"
    bad.write_text(_ptn(r'\"[1]\"'), encoding="utf-8")
    for call in (lambda: read_records(bad), lambda: load_record(bad, 1)):
        with pytest.raises(NotationError, match="bad.ptn:1: GameOptionsJson"):
            call()
    with pytest.raises(ArgumentError, match="record index '1'"):
        load_record(BASIC, "1")
    ours = tmp_path / "big.txt"
    ours.write_text(f'[Deal "{D}"]\n[Bid "{BIG}"]\n', encoding="utf-8")
    for argv in (["replay", str(bad)], ["replay", str(ours)], ["bid", "--record", str(bad)]):
        code, out, err = run_main(argv, capsys)
        assert code == 2 and out == "", argv
        assert len(one_error_line(err)) < 300


def test_ptn_play_without_a_play_seat():
    text = (f'[Deal "{D}"]\n[Contract "4♥"]\n[Declarer "N"]\n[Play "?"]\nSA S9 SK SQ\n')
    with pytest.raises(NotationError, match="x.ptn:4: the \\[Play\\] tag must name"):
        parse_ptn(text, "x.ptn")


# ---------------------------------------------------------------------------------------------
# 6. numbers too long to convert

def test_long_numbers():
    with pytest.raises(RulesError, match="is off the ladder"):
        parse_bid(BIG, "standard")
    with pytest.raises(RulesError, match="is off the ladder"):
        Auction.parse("pass " + BIG, "standard", "N")
    with pytest.raises(NotationError, match="too large"):
        read_int(BIG, "deckSize")
    assert read_int(" 16 ", "deckSize") == 16 and read_int(-3, "x") == -3


@pytest.mark.parametrize("option", [["--auction", BIG], ["--score", BIG + "-1"],
                                    ["--score", "1-" + BIG]])
def test_long_numbers_cli(option, capsys):
    code, out, err = run_main(["bid", "AJ.KQ..JT", "--seat", "E", "--dealer", "N", *option],
                              capsys)
    assert code == 2 and out == ""
    assert len(one_error_line(err)) < 300


# ---------------------------------------------------------------------------------------------
# 7. the API: every bad value under BidEuchreError, each of its own kind

DEAL = Deal.from_pbn(D)


@pytest.mark.parametrize("call, exc, pattern", [
    (lambda: Deal([[30], [1], [2], [3]]), NotationError, "hand N: card index 30 out of range"),
    (lambda: Deal([[-1], [1], [2], [3]]), NotationError, "card index -1 out of range"),
    (lambda: Deal([[1.5], [1], [2], [3]]), NotationError, "cannot read card 1.5"),
    (lambda: Deal([[True], [1], [2], [3]]), NotationError, "cannot read card True"),
    (lambda: Deal(None), NotationError, "a deal needs 4 hands, got None"),
    (lambda: Deal(D), NotationError, "got the text"),
    (lambda: Deal([[0], [1], [2], 3]), NotationError, "hand W: cannot read 3"),
    (lambda: Deal([[0]] * 5), NotationError, "more than 4"),
    (lambda: Deal.from_pbn(D, dealer=[1]), NotationError, "cannot read seat \\[1\\]"),
    (lambda: Deal.from_pbn(D, deck=5), NotationError, "unknown deck form 5"),
    (lambda: Deal.from_pbn(5), NotationError, "cannot read deal 5"),
    (lambda: Deal.from_pbn(D, dealer=9), NotationError, "seat 9 out of range"),
    (lambda: Position(DEAL, 9), NotationError, "strain 9 out of range"),
    (lambda: Position(DEAL, None), NotationError, "cannot read strain None"),
    (lambda: Position(DEAL, 1.5), NotationError, "cannot read strain 1.5"),
    (lambda: Position(DEAL, "H", 7), NotationError, "seat 7 out of range"),
    (lambda: Position(DEAL, "H", "N", lone=7), NotationError, "seat 7 out of range"),
    (lambda: Position(DEAL, "H", "N", [99]), NotationError, "card index 99 out of range"),
    (lambda: Position(DEAL, "H", "N", None), NotationError, "cannot read cards None"),
    (lambda: Position(DEAL, "H", "N", [1.5]), NotationError, "cannot read card 1.5"),
    (lambda: Position(D, "H", "N"), ArgumentError, "a Position needs a Deal"),
    (lambda: Position(DEAL, "H", "N", ["HA"]), IllegalPlayError, "not in hand N"),
    (lambda: solve_position("x"), ArgumentError, "solve_position needs a Position, got str"),
    (lambda: dd_table(D), ArgumentError, "dd_table needs a Deal"),
    (lambda: dd_table(DEAL, 5), RulesError, "unknown preset 5"),
    (lambda: dd_table(DEAL, "standard", 9), NotationError, "seat 9 out of range"),
    (lambda: dd_table(DEAL, "standard", None, (9,)), NotationError, "strain 9 out of range"),
    (lambda: dd_table(DEAL, "pepper", None, ("NT",)), RulesError, "not allowed in preset"),
    (lambda: get_preset(None), RulesError, "unknown preset None"),
    (lambda: get_preset("standard").with_options(target="x"), RulesError, "option target='x'"),
    (lambda: get_preset("standard").with_options(min_bid=9), RulesError, "option min_bid=9"),
    (lambda: get_preset("standard").with_options(stick="maybe"), RulesError, "table option stick='maybe'"),
    (lambda: get_preset("standard").with_options(strains=()), RulesError, "option strains"),
    (lambda: get_preset("standard").with_options(foo=1), RulesError, "unknown table option 'foo'"),
    (lambda: parse_seat(object()), NotationError, "cannot read seat <object"),
    (lambda: parse_strain(b"H"), NotationError, "cannot read strain b'H'"),
    (lambda: as_card(24), NotationError, "card index 24 out of range"),
    (lambda: Card.parse(None), NotationError, "cannot read card None"),
    (lambda: Auction.parse(5, "standard", "N"), RulesError, "cannot read auction 5"),
    (lambda: parse_bid(None, "standard"), RulesError, "cannot read bid None"),
    (lambda: check_seed(-1), ArgumentError, "seed -1: must not be negative"),
    (lambda: check_seed("1"), ArgumentError, "seed '1': expected a whole number"),
])
def test_api_bad_values(call, exc, pattern):
    with pytest.raises(exc, match=pattern) as info:
        call()
    assert isinstance(info.value, BidEuchreError)
    assert "\n" not in str(info.value) and len(str(info.value)) < 400


def test_api_good_values_still_accepted():
    import numpy as np
    # indexes of any integer kind, tokens, Card values; hands as text
    d = Deal([["SJ", "ST"], [3, 4], [Card.H9, Card.HT], [np.int16(12), np.int64(13)]])
    assert d.pbn() == "N:JT... KQ... .T9.. ..T9."
    assert Deal(["JT.Q.J9.J", "Q.JT..KQT", "AK9.K.AQ.", ".A9.KT.A9"]) == DEAL
    pos = Position(DEAL, np.int8(1), np.int64(1), ["SQ", Card.S9])
    assert pos.strain.name == "H" and pos.leader.name == "E" and len(pos.played) == 2
    assert get_preset("standard").with_options(target=42, stick=True).target == 42
    assert dd_table(DEAL, "racehorse", None, ("H", "H", 1)).strains == (parse_strain("H"),)


def test_long_text_is_quoted_short():
    with pytest.raises(NotationError) as info:
        Deal.from_pbn("x" * 1_000_000)
    assert len(str(info.value)) < 200 and "…" in str(info.value)


# ---------------------------------------------------------------------------------------------
# 8, 10. closed and full streams, early readers; every output error names its path

def _close(fd):
    return lambda: os.close(fd)


@pytest.mark.parametrize("args", [
    ["solve", D, "--json"], ["solve", D], ["par", D, "--json"],
    ["replay", str(BASIC)], ["bid", "AJ.KQ..JT", "--seat", "E", "--dealer", "N", "--samples", "3"],
    ["batch", "-", "-p", "racehorse"], ["--version"],
])
def test_closed_stdout(args):
    proc = run_cli(args, input=b"" if "batch" not in args else D.encode() + b"\n",
                   preexec_fn=_close(1), stdout=None)
    assert proc.returncode == 2, proc.stderr
    assert one_error_line(proc.stderr.decode()) == "error: stdout: it is closed"


@pytest.mark.parametrize("args", [["solve", "-"], ["batch", "-"], ["par", "-"]])
def test_closed_stdin(args):
    proc = run_cli(args, preexec_fn=_close(0), stdin=None)
    assert proc.returncode == 2, proc.stderr
    assert one_error_line(proc.stderr.decode()) == "error: stdin: it is closed"


def test_closed_stderr_keeps_exit_codes():
    ok = run_cli(["solve", D, "--json"], preexec_fn=_close(2), stderr=None)
    assert ok.returncode == 0 and b'"table"' in ok.stdout
    bad = run_cli(["solve", "N:bad"], preexec_fn=_close(2), stderr=None)
    assert bad.returncode == 2 and bad.stdout == b""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("args", [["--help"], ["solve", D, "--json"], ["solve", D]])
def test_full_stdout_names_it(args):
    with open("/dev/full", "w") as full:
        proc = run_cli(args, stdout=full)
    assert proc.returncode == 2
    assert one_error_line(proc.stderr.decode()) == \
        "error: stdout (/dev/full): No space left on device"


def test_reader_that_stops_early_ends_quietly():
    import threading

    def feed(stream, data: bytes) -> None:
        try:
            stream.write(data)
            stream.close()
        except OSError:         # the command ended first
            pass

    for args in (["--help"], ["solve", "-"], ["batch", "-", "-p", "racehorse"]):
        code = "import sys; from bideuchre.cli.app import main; sys.argv[0] = 'bideuchre'; main()"
        proc = subprocess.Popen([sys.executable, "-c", code, *args], cwd=ROOT,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        data = b"" if args == ["--help"] else R.read_bytes()[:200_000]
        feeder = threading.Thread(target=feed, args=(proc.stdin, data))
        feeder.start()
        assert proc.stdout.readline()
        proc.stdout.close()             # like `| head -n 1`
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=300) == 0, (args, err)
        feeder.join()
        assert "Traceback" not in err and "error" not in err, err


@pytest.mark.skipif(not os.path.exists("/proc/version"), reason="needs /proc (Linux)")
def test_unwritable_output_is_named(tmp_path, capsys):
    src = tmp_path / "five.txt"
    src.write_text("\n".join(R.read_text().splitlines()[:5]) + "\n")
    code, _, err = run_main(["batch", str(src), "-o", "/proc/version"], capsys)
    assert code == 2
    assert one_error_line(err) == "error: /proc/version: Invalid argument"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_write_records_names_a_full_disk():
    with pytest.raises(OSError) as info:
        write_records("/dev/full", read_records(BASIC))
    assert info.value.filename == "/dev/full"


# ---------------------------------------------------------------------------------------------
# 9. Ctrl-C while starting, SIGTERM while working

def _signal_during_import(module: str, sig: int, args: list[str],
                          script: bool = False) -> subprocess.CompletedProcess:
    """Run the command with ``sig`` sent to itself as ``module`` starts importing (a real
    signal, at a known point: no race).  ``script``: named as the ``bideuchre`` script from
    the start (bideuchre's first lines hold a signal then), else only once imported."""
    code = textwrap.dedent(f"""
        import os, signal, sys
        {'sys.argv[0] = "/somewhere/bin/bideuchre"' if script else ''}
        class Hook:
            def find_spec(self, name, path=None, target=None):
                if name == {module!r}:
                    sys.meta_path.remove(self)
                    os.kill(os.getpid(), {int(sig)})
                return None
        sys.meta_path.insert(0, Hook())
        from bideuchre.cli.app import main
        sys.argv[0] = "bideuchre"
        main()
    """)
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


@pytest.mark.parametrize("module", ["bideuchre.cli", "bideuchre.rules"])
@pytest.mark.parametrize("sig,code,line", [(signal.SIGINT, 130, "error: interrupted"),
                                            (signal.SIGTERM, 143, "error: terminated (SIGTERM)"),
                                            (signal.SIGHUP, 129, "error: hung up (SIGHUP)")])
def test_signal_while_the_script_imports_its_helpers_is_held(sig, code, line, module):
    """Run as the ``bideuchre`` script, a signal that lands in bideuchre's first imports (the
    ``cli`` package right after the top package's first lines; ``rules``, which cli.app's
    helpers import) is held until main() has its handlers and takes effect there: one line and
    the exit code, not a KeyboardInterrupt traceback or a silent kill."""
    proc = _signal_during_import(module, sig, ["solve", D], script=True)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == code, (proc.returncode, proc.stderr)
    assert one_error_line(proc.stderr).startswith(line), proc.stderr


def test_nohup_keeps_sighup_ignored():
    """Under ``nohup`` (SIGHUP ignored when the process starts) the command outlives its
    terminal: a SIGHUP mid-run changes nothing (exit 0, the whole output), and the script's
    first lines do not hold it either."""
    def ignore_hup():
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from bideuchre.cli.app import main; "
                             "sys.argv[0] = 'bideuchre'; main()", "bid", "SA SA SK HK DA CA CK CQ",
                             "-s", "E", "-d", "N", "-p", "double32", "--samples", "600", "--json"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=ignore_hup)
    time.sleep(0.6)
    proc.send_signal(signal.SIGHUP)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert json.loads(out)["samples"] == 600
    src = ("import signal, sys; signal.signal(signal.SIGHUP, signal.SIG_IGN); "
           "sys.argv[0] = '/somewhere/bin/bideuchre'; import bideuchre; "
           "print(signal.getsignal(signal.SIGHUP) is signal.SIG_IGN, "
           "signal.getsignal(signal.SIGTERM) is signal.SIG_DFL)")
    res = subprocess.run([sys.executable, "-c", src], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert res.stdout.split() == ["True", "False"], res.stderr


def test_a_multiprocessing_worker_with_the_scripts_argv_keeps_its_signals():
    """A spawned worker gets the parent's argv (``.../bin/bideuchre``); it never runs main(),
    so bideuchre's import must not hold its signals (a SIGTERM would be swallowed)."""
    src = ("import multiprocessing, signal, sys; sys.argv[0] = '/somewhere/bin/bideuchre'; "
           "import bideuchre; print(signal.getsignal(signal.SIGTERM) is signal.SIG_DFL)")
    res = subprocess.run([sys.executable, "-c", src], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert res.stdout.split() == ["True"], res.stderr


def test_ctrl_c_while_starting():
    proc = _signal_during_import("typer", signal.SIGINT, ["solve", D])
    assert proc.returncode == 130, proc.stderr
    assert one_error_line(proc.stderr).startswith("error: interrupted")


def test_sigterm_during_bid_says_what_was_lost():
    proc = _signal_during_import("bideuchre.analysis.advice", signal.SIGTERM,
                                 ["bid", "AJ.KQ..JT", "--seat", "E", "--dealer", "N"])
    assert proc.returncode == 143, proc.stderr
    assert one_error_line(proc.stderr) == ("error: terminated (SIGTERM) before the command "
                                           "finished; nothing more was written")


def test_sighup_during_bid_says_what_was_lost():
    """A closed terminal sends SIGHUP: the run ends as for SIGTERM, with its one line, exit
    129 (it was the default action: killed with no line)."""
    proc = _signal_during_import("bideuchre.analysis.advice", signal.SIGHUP,
                                 ["bid", "AJ.KQ..JT", "--seat", "E", "--dealer", "N"])
    assert proc.returncode == 129, proc.stderr
    assert one_error_line(proc.stderr) == ("error: hung up (SIGHUP) before the command "
                                           "finished; nothing more was written")


def test_sigterm_inside_a_weakref_callback_or_del_is_not_lost():
    """A signal whose handler runs inside code that Python calls where no exception can
    propagate (a ``__del__``; the import system's module-lock weakref callback is one) was
    printed as "Exception ignored ... raise KeyboardInterrupt" and lost: exit 0.  It is raised
    again a moment later, where it propagates: exit 143, one line."""
    code = textwrap.dedent(f"""
        import os, signal, sys
        class Dying:
            def __del__(self):
                os.kill(os.getpid(), signal.SIGTERM)
                for _ in range(1000):       # the handler runs here, inside __del__
                    pass
        class Hook:
            def find_spec(self, name, path=None, target=None):
                if name == "bideuchre.search.solve":
                    sys.meta_path.remove(self)
                    Dying()                 # dropped at once: __del__ runs now
                return None
        sys.meta_path.insert(0, Hook())
        from bideuchre.cli.app import main
        sys.argv[0] = "bideuchre"
        main()
    """)
    proc = subprocess.run([sys.executable, "-c", code, "solve", D], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert "Exception ignored" not in proc.stderr, proc.stderr
    assert proc.returncode == 143, (proc.returncode, proc.stderr, proc.stdout)
    assert one_error_line(proc.stderr).startswith("error: terminated (SIGTERM)")


def test_sigterm_that_a_library_turns_into_its_own_error_is_still_sigterm(tmp_path):
    """A SIGTERM that lands inside a library which catches the interrupt and raises its own
    error (matplotlib's savefig cut short says "ValueError: Invalid bounding box"; a lock's
    exit cut short, "RuntimeError: release unlocked lock") ended a batch with "internal error"
    and exit 1.  It is the SIGTERM: exit 143 and its one line, the batch's output whole."""
    out = tmp_path / "x.jsonl"
    code = textwrap.dedent(f"""
        import os, signal, sys
        import bideuchre.batch.plot as plot
        def cut_short(obj, path):
            try:
                os.kill(os.getpid(), signal.SIGTERM)
                for _ in range(10**6):      # the handler runs here
                    pass
            except KeyboardInterrupt:
                raise ValueError("Invalid bounding box") from None
        plot.plot_summary = cut_short
        from bideuchre.cli.app import main
        sys.argv[0] = "bideuchre"
        main()
    """)
    proc = subprocess.run([sys.executable, "-c", code, "batch", "--generate", "5", "--seed", "1",
                           "-o", str(out), "--plot", str(tmp_path / "p.png"), "--jobs", "1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 143, proc.stderr
    assert "internal error" not in proc.stderr, proc.stderr
    _tables, line = proc.stderr.split("error: ", 1)     # the summary tables, then the one line
    assert one_error_line("error: " + line).startswith("error: terminated (SIGTERM)"), proc.stderr
    assert len(out.read_text().splitlines()) == 5       # the output was whole before the plot


def _console_script() -> str:
    """The installed ``bideuchre`` console script (the venv's), else ``python -m``."""
    script = Path(sys.executable).with_name("bideuchre")
    return str(script) if script.exists() else ""


@pytest.mark.parametrize("command", ["solve", "batch"])
def test_sigterm_at_many_delays_ends_with_143_and_one_line(tmp_path, command):
    """SIGTERM sent at 24 delays over the run of ``solve`` (a double48 table) and of a batch
    with Parquet output, --by and --plot: each run ends with exit 143 and exactly the one
    line, or -- only when the signal came before the Python program started (the kernel's
    default action: the process had not run a line of bideuchre) -- killed by the signal with
    nothing on stderr; or, only when the command had finished, exit 0 with its whole output.
    Never "Exception ignored", a traceback, exit 0 with work missing, or 143 with no line."""
    from bideuchre.batch import generate_records
    deal = next(iter(generate_records(1, 3, "double48"))).deal.pbn()
    base = [_console_script()] if _console_script() else [sys.executable, "-m", "bideuchre.cli.app"]
    out = tmp_path / "x.parquet"
    args = (["solve", deal, "-p", "double48"] if command == "solve" else
            ["batch", "--generate", "400", "--seed", "1", "-o", str(out), "--overwrite",
             "--by", "trumps(S, H)", "--plot", str(tmp_path / "p.png"), "--jobs", "1"])
    # the delays spread over one unsignalled run's length (however fast this machine is), so
    # most signals land while the command runs
    lengths = []
    for _ in range(2):              # the shorter of two runs (the first may load cold files)
        start = time.perf_counter()
        subprocess.run(base + args, cwd=ROOT, capture_output=True, timeout=300)
        lengths.append(time.perf_counter() - start)
    length = min(lengths)
    seen = {}
    for k in range(24):
        delay = 0.01 + 0.9 * length * k / 23
        proc = subprocess.Popen(base + args, cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        time.sleep(delay)
        running = proc.poll() is None
        if running:
            proc.send_signal(signal.SIGTERM)
        stdout, stderr = proc.communicate(timeout=300)
        what = f"delay {delay:.2f} s: exit {proc.returncode}, stderr {stderr!r}"
        assert "Exception ignored" not in stderr and "Traceback" not in stderr, what
        if proc.returncode == 143:
            # batch prints its summary tables on stderr as it finishes: the one error line
            # comes after whatever it had printed by then
            said = stderr.split("error: terminated (SIGTERM)")[0] if command == "batch" else ""
            assert said.endswith("\n") or not said, what
            assert one_error_line(stderr[len(said):]).startswith("error: terminated (SIGTERM)"), what
        elif proc.returncode == -signal.SIGTERM:
            assert stderr == "", what            # before the program ran: nothing could say it
        else:       # the command was done (before the signal, or as it came)
            assert proc.returncode == 0 and stderr.count("error:") == 0, what
            assert not running or stdout or command == "batch", what
        seen[proc.returncode] = seen.get(proc.returncode, 0) + 1
    assert seen.get(143, 0) >= 8, seen         # many signals land while the command runs


def test_sigterm_to_the_whole_group_during_a_forked_bid_never_hangs(tmp_path):
    """``bid`` solves on forked workers.  SIGTERM sent to the whole process group (a service
    manager's stop) at 12 delays over the run: each run ends at once with exit 143 and the one
    line (or, before the program ran, killed with nothing said; or done, with its output),
    and every worker is gone with it (the pipes they inherited close: ``communicate``
    returns).  The workers ignore the signal; the parent kills them."""
    base = [_console_script()] if _console_script() else [sys.executable, "-m", "bideuchre.cli.app"]
    args = ["bid", "AQ.AAJ.AQ.Q", "--seat", "S", "--dealer", "N", "-p", "double32",
            "--auction", "pass", "--samples", "400", "--workers", "2"]
    start = time.perf_counter()
    whole = subprocess.run(base + args, cwd=ROOT, capture_output=True, text=True, timeout=300)
    length = time.perf_counter() - start
    assert whole.returncode == 0 and "recommend" in whole.stdout.lower(), whole.stderr
    seen = {}
    for k in range(12):
        delay = 0.01 + 0.9 * length * k / 11
        proc = subprocess.Popen(base + args, cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        time.sleep(delay)
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        stdout, stderr = proc.communicate(timeout=60)      # a hang fails here
        what = f"delay {delay:.2f} s: exit {proc.returncode}, stderr {stderr!r}"
        assert "Exception ignored" not in stderr and "Traceback" not in stderr, what
        if proc.returncode == 143:
            assert one_error_line(stderr).startswith("error: terminated (SIGTERM)"), what
        elif proc.returncode == -signal.SIGTERM:
            assert stderr == "", what
        else:
            assert proc.returncode == 0 and stdout == whole.stdout, what
        seen[proc.returncode] = seen.get(proc.returncode, 0) + 1
    assert seen.get(143, 0) >= 6, seen


def test_entry_point_is_light():
    code = ("import sys; import bideuchre.cli.app; "
            "print(sorted(m for m in ('typer', 'rich', 'numpy', 'bideuchre.search._search') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "[]", out


# ---------------------------------------------------------------------------------------------
# 14. options checked once, before stdin is read

def test_setup_error_once_before_reading_stdin():
    lines = R.read_text().splitlines()[:100]
    proc = run_cli(["solve", "-", "--strain", "H"], input="\n".join(lines).encode())
    assert proc.returncode == 2
    assert one_error_line(proc.stderr.decode()).startswith("error: --strain needs --leader")
    assert proc.stdout == b""
    for args, msg in ((["--leader", "N"], "need --strain"),
                      (["--strain", "H", "--leader", "N", "--played", "XX"], "cannot read card 'XX'"),
                      (["--strain", "NTL", "--leader", "N", "-p", "pepper"], "not allowed")):
        proc = run_cli(["solve", "-", *args], input="\n".join(lines[:3]).encode())
        assert proc.returncode == 2 and proc.stdout == b""
        assert msg in one_error_line(proc.stderr.decode())


# ---------------------------------------------------------------------------------------------
# 16. one seed rule; every input of bid echoed

def test_negative_seed_refused_like_batch(capsys):
    code, out, err = run_main(["bid", "AJ.KQ..JT", "--seat", "E", "--dealer", "N", "--seed", "-1",
                               "--samples", "2"], capsys)
    assert code == 2 and out == ""
    assert "--seed -1: must not be negative" in one_error_line(err)
    with pytest.raises(ArgumentError):
        advise("AJ.KQ..JT", "E", "N", samples=2, seed=-1)
    code, _, err = run_main(["batch", "--generate", "2", "--seed", "-1"], capsys)
    assert code == 2 and "negative" in one_error_line(err)


def test_large_seeds_do_not_alias():
    a = advise("AJ.KQ..JT", "E", "N", samples=8, seed=1)
    b = advise("AJ.KQ..JT", "E", "N", samples=8, seed=2 ** 32 + 1)
    assert a.to_json()["strains"] != b.to_json()["strains"]


def test_known_cards_echoed(capsys):
    args = ["bid", "AJ.KQ..JT", "--seat", "E", "--dealer", "N", "--samples", "3",
            "--known", "W:S9 HT", "--known", "N:C9"]
    code, out, _ = run_main(args + ["--json"], capsys)
    import json
    assert code == 0 and json.loads(out)["known"] == {"N": "...9", "W": "9.T.."}    # hand notation
    code, out, _ = run_main(args, capsys)
    text = " ".join(out.split())
    assert code == 0 and "known N: ...9" in text and "known W: 9.T.." in text


# ---------------------------------------------------------------------------------------------
# 19. small things

def test_solve_with_every_card_played_names_no_one_to_move(capsys):
    code, out, _ = run_main(["solve", "N:9... T... J... Q...", "--strain", "H", "--leader", "N",
                             "--played", "S9 ST SJ SQ"], capsys)
    assert code == 0 and "the hand is over: no one is to move" in out and "to move: " not in out


def test_replay_without_play_says_so(tmp_path, capsys):
    rec = tmp_path / "noplay.txt"
    rec.write_text(f'[Deal "{D}"]\n[Strain "H"]\n[Declarer "N"]\n[Play "E"]\n', encoding="utf-8")
    code, out, _ = run_main(["replay", str(rec)], capsys)
    assert code == 0 and "the record has no play" in out
    assert "tricks lost by mistakes" not in out


@pytest.mark.parametrize("command", [[], ["solve"], ["bid"], ["batch"], ["par"], ["explain"],
                                     ["replay"]])
def test_help_shows_no_bool_or_str(command, capsys):
    code, out, _ = run_main([*command, "--help"], capsys)
    assert code == 0 and "--help" in out
    assert "<bool>" not in out and "<str>" not in out and "list[str]" not in out


def test_generate_errors_name_the_option_that_is_wrong():
    # each of --generate and --seed is named alone when it is the one that is negative, the
    # same from the reader and from the --where generator (one check)
    from bideuchre.batch import BatchError, check_generate
    from bideuchre.batch.where import generate_where
    with pytest.raises(BatchError, match=r"^--seed -2: must not be negative"):
        check_generate(10, -2)
    with pytest.raises(BatchError, match=r"^--generate -1: must not be negative"):
        check_generate(-1, 3)
    with pytest.raises(BatchError, match=r"^--seed -2: must not be negative"):
        list(generate_where(5, -2, "single24"))


# ---------------------------------------------------------------------------------------------
# Fresh-user findings of 0.8.3: side outputs, devices, one line

def test_summary_json_and_plot_never_replace_an_existing_file_unasked(tmp_path, capsys):
    """``--summary-json`` and ``--plot`` replaced any existing file silently (only ``-o`` was
    guarded): now one line and exit 2, the file untouched; ``--overwrite`` replaces it, and a
    device is always written."""
    pytest.importorskip("matplotlib")
    keep = tmp_path / "keep.json"
    keep.write_text("earlier results\n")
    png = tmp_path / "keep.png"
    png.write_text("an earlier figure\n")
    base = ["batch", "--generate", "4", "--seed", "1"]
    for opt, path in (("--summary-json", keep), ("--plot", png)):
        code, _, err = run_main(base + ["-o", str(tmp_path / f"o{opt}.jsonl"), opt, str(path)], capsys)
        assert code == 2 and one_error_line(err) == (
            f"error: {opt} {str(path)!r} exists: give another name, or --overwrite to replace it "
            "(--resume rewrites its run's own)")
        assert not (tmp_path / f"o{opt}.jsonl").exists()
    code, _, err = run_main(["match", "model", "heuristic", "-n", "3", "--plot", str(png)], capsys)
    assert code == 2 and "--plot" in one_error_line(err) and "--resume" in err
    assert keep.read_text() == "earlier results\n" and png.read_text() == "an earlier figure\n"
    code, _, _ = run_main(base + ["-o", str(tmp_path / "new.jsonl"), "--summary-json", str(keep),
                                  "--overwrite"], capsys)
    assert code == 0 and json.loads(keep.read_text())["deals"] == 4
    code, _, _ = run_main(base + ["-o", os.devnull, "--summary-json", os.devnull], capsys)
    assert code == 0


def test_match_writes_to_a_device_and_names_a_directory(tmp_path, capsys):
    """``match -o /dev/null`` failed with "Invalid argument" (a device cannot be synced); a
    directory was said to exist "(use --resume …)"."""
    code, out, err = run_main(["match", "model", "heuristic", "-n", "3", "-o", os.devnull, "--json"], capsys)
    assert code == 0 and json.loads(out)["deals"] == 3, err
    code, _, err = run_main(["match", "model", "heuristic", "-n", "3", "-o", str(tmp_path)], capsys)
    assert code == 2 and one_error_line(err) == f"error: {tmp_path}: is a directory; give a file name"
    code, _, err = run_main(["match", "model", "heuristic", "-n", "3", "-o", os.devnull, "--resume"], capsys)
    assert code == 2 and "--resume needs a regular file" in one_error_line(err)


def test_replay_with_an_unfinished_auction_says_one_line(capsys):
    """The note that the record's own auction is not read came before the error of an
    --auction that is not over: two lines.  Now the error alone."""
    code, _, err = run_main(["replay", str(BASIC), "-i", "3", "--single-dummy", "--auction", "pass pass"],
                            capsys)
    assert code == 2 and "is not over" in one_error_line(err)


def test_a_bad_strain_in_a_bid_is_quoted_as_typed():
    with pytest.raises(NotationError, match="unknown strain 'Z'"):
        parse_bid("5Z", get_preset("double32"))
