"""Every batch input handled, nothing lost, memory bounded (issue 14 items 1-4, 11-13, 15, 19),
and the shared capped line reader (bideuchre.textio) in every command that reads lines."""

from __future__ import annotations

import io
import json
import os
import signal
import socket
import stat
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from bideuchre import batch as B
from bideuchre import textio
from bideuchre.cli.app import app
from bideuchre.records import read_records as read_hand_records
from bideuchre.rules import NotationError, get_preset

from helpers import real_deals

runner = CliRunner()
D = "N:JT.Q.J9.J Q.JT..KQT AK9.K.AQ. .A9.KT.A9"


def run_cli(*args: str, **kw):
    return runner.invoke(app, ["batch", *args], **kw)


def ids_of(path: Path) -> list:
    return [json.loads(line)["id"] for line in path.read_text().splitlines() if line.strip()]


# ---------------------------------------------------------------------------------------------
# 1-3: odd JSON fields, bytes that are not UTF-8, repeated ids: bad lines, every good deal kept

def test_odd_lines_are_bad_lines_and_every_good_deal_is_written(tmp_path):
    good = real_deals(30)
    odd = [json.dumps({"deal": D, "dealer": ["E"]}), json.dumps({"deal": D, "dealer": 1.5}),
           json.dumps({"deal": D, "dealer": {"seat": "E"}}),
           '{"deal": "%s", "k": %s%s}' % (D, "[" * 20000, "]" * 20000),     # RecursionError
           '{"deal": "%s", "k": %s%s}' % (D, "[" * 990, "]" * 990)]          # too deep to write back
    src = tmp_path / "in.txt"
    with open(src, "wb") as fh:
        fh.write("\n".join(good[:10] + odd + good[10:20]).encode() + b"\n")
        fh.write(b"N:JT.Q.J9.J \xff\xfe junk\n")                           # not UTF-8
        fh.write(("\n".join(good[20:]) + "\n").encode())
    out = tmp_path / "o.jsonl"
    r = run_cli(str(src), "-p", "racehorse", "-o", str(out), "--chunk-size", "4", "--no-summary")
    assert r.exit_code == 2, r.output
    for n in range(11, 16):
        assert f"{src}: line {n}: " in r.output
    assert "dealer '[\"E\"]' must be a seat" in r.output and "nested too deeply" in r.output
    assert f"{src}: line 26: not UTF-8 text (byte 0xff at column 13)" in r.output
    assert "6 bad lines" in r.output
    assert ids_of(out) == list(range(1, 11)) + list(range(16, 26)) + list(range(27, 37))


def test_an_explicit_id_may_not_take_another_lines_number(tmp_path):
    lines = real_deals(6)
    lines[4] = json.dumps({"id": 2, "deal": lines[4]})           # line 2 is named 2 already
    lines[5] = json.dumps({"id": "3", "deal": lines[5]})         # "3" and 3 are one id in every output
    lines[0] = json.dumps({"id": 4, "deal": lines[0]})           # line 4 comes later, without an id
    src = tmp_path / "in.txt"
    src.write_text("\n".join(lines) + "\n")
    out = tmp_path / "o.jsonl"
    r = run_cli(str(src), "-p", "racehorse", "-o", str(out), "--no-summary")
    assert r.exit_code == 2
    assert "line 4: this line's number is the id of line 1" in r.output
    assert "line 5: id '2' is the id of line 2" in r.output
    assert "line 6: id '3' is the id of line 3" in r.output
    assert ids_of(out) == [4, 2, 3]
    # every id names one deal, so the output can be resumed
    r = run_cli(str(src), "-p", "racehorse", "-o", str(out), "--resume", "--no-summary")
    assert r.exit_code == 2 and "3 already done" in r.output, r.output
    assert ids_of(out) == [4, 2, 3]


# ---------------------------------------------------------------------------------------------
# 4: an analysis that cannot run is refused before any work

def test_par_with_a_deck_par_cannot_play_is_refused_before_any_work(tmp_path):
    out = tmp_path / "o.jsonl"
    r = run_cli("--generate", "3", "--seed", "1", "-p", "double48", "--deck", "double40", "--par",
                "-o", str(out))
    assert r.exit_code == 2
    assert "--par: par solves the auction of preset 'double48', which deals double48; these deals are double40" in r.output
    assert not out.exists()
    writer = B.open_writer("jsonl", tmp_path / "lib.jsonl", "double48", "double40", par=True)
    with pytest.raises(B.BatchError, match="--par"):
        B.run_batch(B.generate_records(2, 1, "double40"), writer, par=True)


# ---------------------------------------------------------------------------------------------
# 11: lines of bounded length everywhere lines are read; bad input quoted cut short

class Zeros(io.RawIOBase):
    """An endless stream of zero bytes (``/dev/zero``) that counts what was read."""

    def __init__(self):
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        b[:] = bytes(len(b))
        self.read_bytes += len(b)
        return len(b)


def test_line_reader_caps_lines_and_quotes_them_short():
    long = b"x" * (textio.MAX_LINE + 10)
    data = b"\xef\xbb\xbfN:first\n\n# comment\n" + long + b"\nsecond \r\n\xffbad\nlast"
    got = list(textio.read_lines(io.BytesIO(data)))
    assert [n for n, _ in got] == [1, 4, 5, 6, 7]
    assert got[0][1] == "N:first" and got[2][1] == "second" and got[4][1] == "last"
    e = got[1][1]
    assert isinstance(e, textio.BadLine) and e.lineno == 4
    assert e.message.startswith(f"line too long: {len(long):,} bytes (at most {textio.MAX_LINE:,}): 'xxx")
    assert len(e.message) < 150 and len(e.text) == textio.QUOTE
    assert isinstance(got[3][1], textio.BadLine) and "not UTF-8 text (byte 0xff at column 1)" in got[3][1].message


def test_an_endless_line_stops_the_reading_with_memory_bounded():
    z = Zeros()
    got = list(textio.read_lines(io.BufferedReader(z), skip=1 << 20))
    assert len(got) == 1 and "reading stopped here" in got[0][1].message
    assert z.read_bytes < (1 << 20) + 4 * 65536
    with pytest.raises(NotationError, match="zeros: line 1: line too long"):
        list(textio.checked_lines(io.BufferedReader(Zeros()), "zeros"))


def test_batch_keeps_bounded_bad_lines_quoted_short(tmp_path):
    lines = real_deals(3) + ["N:" + "AK" * 40000] + ["oops " * 50] * 150 + real_deals(5)[3:]
    src = tmp_path / "in.txt"
    src.write_text("\n".join(lines) + "\n")
    writer = B.open_writer("jsonl", tmp_path / "o.jsonl", "racehorse")
    rep = B.run_batch(B.read_records(src, "single24"), writer, jobs=1)
    assert rep.solved == 5 and rep.bad_count == 151 and len(rep.bad) == B.KEEP_BAD
    assert rep.bad[0].lineno == 4 and rep.bad[0].message.startswith("line too long: 80,002 bytes")
    assert all(len(b.text) <= textio.QUOTE and len(b.message) <= 300 for b in rep.bad)
    r = run_cli(str(src), "-p", "racehorse", "--no-summary")
    assert r.exit_code == 2 and max(len(x) for x in r.output.splitlines()) < 400


def test_solve_and_par_stdin_take_a_long_line_as_a_bad_line():
    good = real_deals(2)
    text = good[0] + "\n" + "N:" + "Q" * 100000 + "\n" + good[1] + "\n"
    for cmd in (["solve", "-"], ["par", "-"]):
        r = runner.invoke(app, cmd, input=text)
        assert r.exit_code == 2, r.output
        assert "line 2: line too long: 100,002 bytes (at most 65,536): 'N:QQQ" in r.output
        assert good[1].split()[0] in r.output           # the line after it is still solved
        assert len(r.output) < 5000


def test_hand_records_and_bid_deals_refuse_a_long_line(tmp_path):
    rec = tmp_path / "r.txt"
    rec.write_text('[Preset "standard"]\n[Deal "' + "N" * 70000 + '"]\n')
    with pytest.raises(NotationError, match=r"r.txt: line 2: line too long: more than 65,536 bytes: '\[Deal \"NNN"):
        read_hand_records(rec)
    deals = tmp_path / "d.txt"
    deals.write_text(real_deals(1)[0] + "\n" + "x" * 70000 + "\n")
    r = runner.invoke(app, ["bid", "AJ.KQ..JT", "-s", "N", "-d", "N", "--deals", str(deals)])
    assert r.exit_code == 2 and "d.txt: line 2: line too long: more than 65,536 bytes: 'xxx" in r.output, r.output


# ---------------------------------------------------------------------------------------------
# 12, 13: a clear limit for --generate; one rule for a missing output folder

def test_generate_has_a_clear_limit(tmp_path):
    r = run_cli("--generate", str(10**30), "--seed", "1", "-o", str(tmp_path / "o.jsonl"))
    assert r.exit_code == 2 and f"at most {B.MAX_GENERATE:,} deals a run" in r.output
    assert not (tmp_path / "o.jsonl").exists()
    with pytest.raises(B.BatchError, match="at most"):
        B.generate_records(B.MAX_GENERATE + 1, 1)           # at once, not on the first deal


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "npz"])
def test_output_in_a_missing_folder_is_refused_for_every_format(tmp_path, fmt):
    out = tmp_path / "no" / "such" / f"out.{fmt}"
    r = run_cli("--generate", "2", "--seed", "1", "-o", str(out))
    assert r.exit_code == 2 and "its directory does not exist" in r.output, r.output
    assert not (tmp_path / "no").exists()


# ---------------------------------------------------------------------------------------------
# 15: the count said on Ctrl-C is what the file holds

@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_interrupt_while_a_chunk_is_written_counts_true(tmp_path, monkeypatch, fmt):
    from bideuchre.batch import writers
    real = writers._fsync
    calls = []

    def fsync_then_ctrl_c(fh):
        real(fh)
        calls.append(1)
        if len(calls) == 4:                         # the csv header is one call too
            signal.raise_signal(signal.SIGINT)      # Ctrl-C lands as the chunk is synced

    monkeypatch.setattr(writers, "_fsync", fsync_then_ctrl_c)
    src = tmp_path / "in.txt"
    src.write_text("\n".join(real_deals(60)) + "\n")
    out = tmp_path / f"o.{fmt}"
    writer = B.open_writer(fmt, out, "racehorse")
    with pytest.raises(KeyboardInterrupt):
        B.run_batch(B.read_records(src, "single24"), writer, jobs=1, chunk_size=10)
    rows = len(out.read_text().splitlines()) - (fmt == "csv")
    assert rows in (30, 40) and writer.written == rows


# ---------------------------------------------------------------------------------------------
# 19: --dask local prints no raw warning (another cluster may hold the dashboard port)

def test_dask_local_prints_no_raw_warning(tmp_path):
    holder = socket.socket()
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        holder.bind(("", 8787))          # as another engineer's cluster does
        holder.listen()
    except OSError:
        pass                             # already taken: the same situation
    try:        # a process of its own: pytest would catch the warning before it is printed
        r = subprocess.run([sys.executable, "-m", "bideuchre.cli.app", "batch", "--generate", "8",
                            "--seed", "5", "-p", "racehorse", "-o", str(tmp_path / "o.jsonl"),
                            "--dask", "local", "--jobs", "1", "--no-summary"],
                           capture_output=True, text=True, timeout=300)
    finally:
        holder.close()
    assert r.returncode == 0, r.stderr
    assert "Warning" not in r.stderr and "warnings.warn" not in r.stderr, r.stderr
    assert "solved 8 deals" in r.stderr


# ---------------------------------------------------------------------------------------------
# 18: the default uses both cores: parsing off the main thread, processes for --alone/--par

@pytest.mark.parametrize("source", ["file", "generate"])
def test_the_readers_work_runs_on_the_worker_threads(tmp_path, monkeypatch, source):
    import threading
    from bideuchre.batch import readers
    where = set()

    def spied(real):
        def spy(*args):
            where.add(threading.current_thread() is threading.main_thread())
            return real(*args)
        return spy

    # a line's deal is prepared by prepare(); a generated block's texts are made at once
    monkeypatch.setattr(readers, "prepare", spied(readers.prepare))
    monkeypatch.setattr(readers, "pbn_texts", spied(readers.pbn_texts))
    src = tmp_path / "in.txt"
    src.write_text("\n".join(real_deals(600)) + "\n")
    records = B.read_records(src, "single24") if source == "file" else B.generate_records(1500, 2)
    writer = B.open_writer("jsonl", tmp_path / "o.jsonl", "racehorse")
    rep = B.run_batch(records, writer, jobs=2)
    assert rep.solved == (600 if source == "file" else 1500)
    assert where == {False}                     # never on the main thread
    # iterating a source by itself still gives every record, in order, on this thread
    where.clear()
    assert [r.seq for r in B.read_records(src, "single24")] == list(range(600))
    assert where == {True}


def test_auto_runs_lone_and_par_on_processes():
    assert B.auto_executor(2, par=True) == "process" and B.auto_executor(2, alone=True) == "process"
    assert B.auto_executor(2) == "thread" and B.auto_executor(1, par=True) == "thread"
    r = run_cli("--generate", "4", "--seed", "2", "-p", "pepper", "--par", "-j", "2", "--no-summary")
    assert r.exit_code == 0 and "2 worker processes" in r.output, r.output


# ---------------------------------------------------------------------------------------------
# issue 16: --dealer rotate|random for generated deals

def test_generated_dealers_rotate_or_random(tmp_path):
    rotate = [int(r.deal.dealer) for r in B.generate_records(9, 3, dealer="rotate")]
    assert rotate == [0, 1, 2, 3, 0, 1, 2, 3, 0]
    fixed = [r.deal for r in B.generate_records(2100, 3)]
    rand = [r.deal for r in B.generate_records(2100, 3, dealer="random")]
    assert [d.hands for d in rand] == [d.hands for d in fixed]       # the hands do not change
    counts = np.bincount([int(d.dealer) for d in rand], minlength=4)
    assert all(abs(c - 525) < 4 * np.sqrt(2100 * 0.25 * 0.75) for c in counts), counts
    tail = [int(r.deal.dealer) for r in B.generate_records(2100, 3, dealer="random", start=1500)]
    assert tail == [int(d.dealer) for d in rand[1500:]]            # deal i from (seed, i) only
    outs = []
    for jobs, chunk in (("1", "7"), ("2", "50")):
        out = tmp_path / f"o{jobs}.jsonl"
        r = run_cli("--generate", "120", "--seed", "4", "--dealer", "random", "-p", "racehorse",
                    "-j", jobs, "--chunk-size", chunk, "-o", str(out), "--no-summary")
        assert r.exit_code == 0, r.output
        outs.append(out.read_text())
    assert outs[0] == outs[1] and len({json.loads(x)["dealer"] for x in outs[0].splitlines()}) == 4
    src = tmp_path / "in.txt"
    src.write_text(real_deals(1)[0] + "\n")
    r = run_cli(str(src), "--dealer", "rotate")
    assert r.exit_code == 2 and "--dealer rotate needs --generate" in r.output


def test_overwrite_never_removes_a_device_or_a_pipe(tmp_path):
    """``-o FIFO --overwrite`` wrote a regular file in the pipe's place (as root, ``-o /dev/full
    --overwrite`` replaced the device): a device or a pipe holds no results to protect, so it is
    written to and never removed; npz/parquet (assembled and renamed into place) refuse it, and
    so does --resume."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    src = tmp_path / "in.txt"
    src.write_text("\n".join(real_deals(3)) + "\n")
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    r = run_cli(str(src), "-p", "racehorse", "-o", str(fifo), "--overwrite", "--no-summary")
    reader.join(timeout=60)
    assert r.exit_code == 0, r.output
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)            # still the pipe
    assert len([ln for ln in got[0].splitlines() if ln.strip()]) == 3
    for fmt in ("npz", "parquet"):
        r = run_cli(str(src), "-p", "racehorse", "-o", str(fifo), "--format", fmt, "--overwrite")
        assert r.exit_code == 2 and "not a regular file" in r.output
    r = run_cli(str(src), "-p", "racehorse", "-o", str(fifo), "--resume")
    assert r.exit_code == 2 and "not a regular file" in r.output
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
