"""``bideuchre batch``: DD tables (and lone tables, par) of many deals, all cores, resumable.

Thin over :mod:`bideuchre.batch`.  Results go to ``--output`` (or stdout for jsonl/csv); bad
lines, the progress bar and the summary go to stderr.  Exit codes: 0 ok, 1 internal error,
2 bad input (a bad line, even when skipped: every good deal is still written), 130 on Ctrl-C
(every finished chunk is written; rerun with ``--resume``).
"""

from __future__ import annotations

import itertools
import json
import os
from typing import List, Optional

import typer
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)
from rich.table import Table
from rich.markup import escape
from rich.text import Text

from bideuchre import batch as B
from bideuchre.notation import counted
from bideuchre.rules import get_deck, get_preset

from .common import err, fail, guard, simple_table, source_name


class _RateColumn(ProgressColumn):
    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{rate_text(speed)} deals/s", style="cyan")


def _workers(n: int, executor: str) -> str:
    """``2 worker threads``, ``1 worker process``, ``4 Dask workers``."""
    one, many = {"thread": ("worker thread", "worker threads"),
                 "process": ("worker process", "worker processes"),
                 "dask": ("Dask worker", "Dask workers")}[executor]
    return f"{n:,} {one if n == 1 else many}"


def rate_text(per_second: float) -> str:
    """A rate for display: whole numbers from 10 up, two significant digits below (a double48
    run solves well under one deal a second)."""
    return f"{per_second:,.0f}" if per_second >= 10 else f"{per_second:.2g}"


def summary_tables(s: B.Summary) -> list[Table]:
    """The summary as rich tables: DD tricks per strain, make rates by bid level, par.
    Shares are percentages of the (deal, declarer) rows, without the sign; in the tricks table
    whole percents when a hand has more than 8 tricks (``<1`` for a share under one half), so
    every table fits 80 columns with every deck form."""
    obj = s.to_json()
    rows = max(1, obj["declarer_rows"])
    names = list(obj["strains"])
    dec = 1 if s.tricks <= 8 else 0

    def pct(v: float) -> str:
        return "<1" if dec == 0 and 0 < v < 0.005 else f"{100 * v:.{dec}f}"

    t1 = simple_table("DD tricks of the declaring side, % of rows")
    t1.caption = f"{counted(obj['deals'], 'deal')} × 4 declarers · preset {obj['preset']}"
    t1.add_column("strain", style="bold cyan")
    t1.add_column("mean", justify="right")
    t1.add_column("top\nseat", justify="right")
    for k in range(s.tricks + 1):
        t1.add_column(f"{k}", justify="right")
    t1.add_column("best", justify="right", style="bold")
    for st in names:
        d = obj["strains"][st]
        t1.add_row(st, f"{d['mean']:.2f}", f"{d['top_seat_mean']:.2f}",
                   *(pct(v / rows) for v in d["distribution"].values()), pct(d["best_share"]))
    b = obj["best_strain"]
    t1.add_row("best", f"{b['mean']:.2f}", "", *(pct(v / rows) for v in b["distribution"].values()), "",
               style="dim")
    t2 = simple_table("Make rates, % of rows (DD tricks ≥ bid)")
    t2.add_column("bid", style="bold cyan", justify="right")
    for st in names:
        t2.add_column(st, justify="right")
    t2.add_column("best strain", justify="right", style="bold")
    for level, row in obj["make_rates"].items():
        t2.add_row(level, *(f"{100 * row[st]:.1f}" for st in names), f"{100 * row['best']:.1f}")
    tables = [t1, t2]
    if "par_contracts" in obj:
        pc = obj["par_contracts"]
        t3 = simple_table("Par contracts, % of deals")
        t3.caption = counted(pc["deals"], "deal")
        t3.add_column("par contract", style="bold cyan")
        t3.add_column("deals", justify="right")
        t3.add_column("share", justify="right")
        for label, n in list(pc["by_contract"].items())[:20]:
            t3.add_row(label, f"{n:,}", f"{100 * n / max(1, pc['deals']):.1f}")
        tables.append(t3)
    return tables


def batch(
    input: Optional[str] = typer.Argument(None, help="File of deals, one a line (PBN-style or JSON with a 'deal' key), or - for stdin. Not with --generate."),
    preset: str = typer.Option("standard", "--preset", "-p", help="Rules preset: standard pepper double32 racehorse double48."),
    deck: Optional[str] = typer.Option(None, "--deck", help="Deck form, overriding the preset's: single24 double32 double40 double48."),
    dealer: Optional[str] = typer.Option(None, "--dealer", "-d", help="Default dealer seat (a JSON line's 'dealer' wins; default: the seat before the colon)."),
    alone: bool = typer.Option(False, "--alone", help="Also the lone table of each deal (bideuchre.analysis.lone)."),
    par: bool = typer.Option(False, "--par", help="Also the par result of each deal (bideuchre.analysis.par)."),
    fmt: Optional[str] = typer.Option(None, "--format", "-f", help="jsonl, csv or npz (default: from the output's name, else jsonl)."),
    output: Optional[str] = typer.Option(None, "--output", "-o", help="Output file (default: stdout; npz and --resume need a file)."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, help="Workers (default: all cores)."),
    chunk_size: Optional[int] = typer.Option(None, "--chunk-size", help="Deals per chunk (default 250; 2000 on Dask)."),
    resume: bool = typer.Option(False, "--resume", help="Skip the ids already in the output and append the rest."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace an existing output."),
    strict: bool = typer.Option(False, "--strict", help="Stop at the first malformed line (after writing the deals before it)."),
    generate: Optional[int] = typer.Option(None, "--generate", help="Solve N uniform random deals of the preset's deck instead of reading input."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed for --generate (default: random, printed)."),
    hand: List[str] = typer.Option([], "--hand", help="With --generate, fix a hand: SEAT=HAND (N=AJ.KQ..JT); repeatable."),
    dask_scheduler: Optional[str] = typer.Option(None, "--dask-scheduler", help="Run chunks on the Dask cluster at this address (or 'local')."),
    dask: Optional[str] = typer.Option(None, "--dask", help="'local': run chunks on a local Dask cluster of --jobs workers."),
    executor: str = typer.Option("auto", "--executor", help="auto, thread, process or dask (auto: threads, the solver releases the GIL; Dask with --dask or --dask-scheduler; dask alone: a local cluster)."),
    summary_json: Optional[str] = typer.Option(None, "--summary-json", help="Write the summary numbers as JSON to this file."),
    no_summary: bool = typer.Option(False, "--no-summary", help="Do not print the summary tables."),
) -> None:
    """Solve many deals: DD tables (with --alone lone tables, with --par par), written chunk by chunk, resumable."""
    with guard(output=output):
        p = get_preset(preset)
        d = get_deck(deck) if deck else p.deck
        if generate is None and input is None:
            raise B.BatchError("give an input file (or - for stdin) or --generate N")
        if generate is not None and input is not None:
            raise B.BatchError("give either an input file or --generate N, not both")
        if hand and generate is None:
            raise B.BatchError("--hand needs --generate")
        if dask and dask_scheduler:
            raise B.BatchError("give either --dask or --dask-scheduler")
        B.check_run_options(executor, chunk_size)
        B.check_output(output, resume, overwrite)
        if summary_json and os.path.isdir(summary_json):
            raise B.BatchError(f"--summary-json {summary_json!r} is a directory; give a file name")
        if summary_json and not os.path.isdir(os.path.dirname(os.path.abspath(summary_json))):
            raise B.BatchError(f"--summary-json {summary_json!r}: its directory does not exist")
        if alone and not p.lone_bids and not p.extra.get("lone_exchange"):
            raise B.BatchError(f"--alone: preset {p.name!r} has no lone bids")
        if generate is not None and generate < 1:
            raise B.BatchError(f"--generate takes a number of deals of at least 1 (got {generate})")
        if dask is not None and dask != "local":
            raise B.BatchError(f"--dask takes 'local' (got {dask!r}); use --dask-scheduler ADDRESS for a cluster")
        address = dask_scheduler or dask
        again = ""          # what an interrupted run must add to the command to finish
        if generate is not None and seed is None:
            if resume:
                raise B.BatchError("--resume with --generate needs the --seed of the first run")
            seed = int.from_bytes(os.urandom(4), "little")
            again = f" --seed {seed}"
            err.print(f"seed {seed}", highlight=False)
        # the input is checked before the output is created: a mistake leaves no empty file
        if generate is not None:
            fixed = B.parse_fixed_hands(hand, d)
            records = B.generate_records(generate, seed, d, fixed, dealer)
            total = generate
        else:
            records = B.read_records(input, d, dealer)
            total = B.count_input_lines(input)
            if total is None:       # stdin: wait for its first line before making any output
                first = next(records, None)
                if first is not None:
                    records = itertools.chain([first], records)
            if total == 0 or (total is None and first is None):
                raise B.BatchError(f"{source_name(input)}: no deals (only blank or # lines)")
        summary = B.Summary(p, d)
        writer = B.open_writer(fmt, output, p, d, alone=alone, par=par, resume=resume,
                               overwrite=overwrite, summary=summary)
        if total is not None:
            total = max(0, total - len(writer.done))

        progress = Progress(TextColumn("[bold]batch[/bold]"), BarColumn(), MofNCompleteColumn(),
                            _RateColumn(), TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
                            console=err, disable=not err.is_terminal, transient=False)

        in_name = "" if input is None or input == "-" else f"{source_name(input)}: "

        def bad_line(b: B.BadLine) -> None:
            if strict:
                return          # the run stops on it: the closing error names it once
            (progress.console if err.is_terminal else err).print(
                f"[red]error:[/red] {escape(in_name + str(b))}", soft_wrap=True, highlight=False)

        with progress:
            task = progress.add_task("batch", total=total)
            try:
                report = B.run_batch(records, writer, alone=alone, par=par, jobs=jobs,
                                     chunk_size=chunk_size,
                                     executor="dask" if address else executor, dask=address,
                                     strict=strict, summary=summary,
                                     on_progress=lambda n: progress.advance(task, n),
                                     on_bad_line=bad_line)
            except KeyboardInterrupt:
                if output is None:
                    raise
                raise fail(f"interrupted: {counted(writer.written, 'deal')} of this run saved in {output}; "
                           f"rerun the same command with{again} --resume to finish", 130) from None
        obj = summary.to_json()
        if seed is not None:
            obj["seed"] = seed
        obj["run"] = {"solved": report.solved, "skipped": report.skipped, "bad_lines": report.bad_count,
                      "seconds": round(report.seconds, 3), "deals_per_second": round(report.rate, 1),
                      "executor": report.executor, "jobs": report.jobs}
        if summary_json:
            try:
                with open(summary_json, "w", encoding="utf-8") as fh:
                    json.dump(obj, fh, indent=1)
                    fh.write("\n")
            except OSError as exc:      # a full disk names the file, not the output
                raise OSError(exc.errno, exc.strerror, summary_json) from None
        if not no_summary and summary.deals:
            for t in summary_tables(summary):
                err.print(t)
        where = f" → {output}" if output else ""
        # two lines: what was solved and how fast; what else happened and where it went
        secs = f"{report.seconds:.1f} s" if report.seconds >= 0.95 else f"{report.seconds * 1000:.0f} ms"
        err.print(f"solved {counted(report.solved, 'deal')} in {secs} "
                  f"({rate_text(report.rate)} deals/s, {_workers(report.jobs, report.executor)})",
                  highlight=False, soft_wrap=True)
        err.print(f"{report.skipped:,} already done; {counted(report.bad_count, 'bad line')}{where}",
                  highlight=False, soft_wrap=True)
    if report.stopped is not None:
        raise fail(f"stopped at {in_name}line {report.stopped.lineno} (--strict): {report.stopped.message}")
    if report.bad_count:
        raise typer.Exit(2)


def register(app: typer.Typer) -> None:
    """Add the ``batch`` command to the app (called by cli/app.py)."""
    app.command("batch")(batch)
