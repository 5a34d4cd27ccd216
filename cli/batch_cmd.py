"""``bideuchre batch``: DD tables (and lone tables, par) of many deals, all cores, resumable.

Thin over :mod:`bideuchre.batch`.  Results go to ``--output`` (or stdout for jsonl/csv); bad
lines, the progress bar and the summary go to stderr.  Exit codes: 0 ok, 1 internal error,
2 bad input (a bad line, even when skipped: every good deal is still written), 130 on Ctrl-C
(every finished chunk is written; rerun with ``--resume``).
"""

from __future__ import annotations

import itertools
import json
import math
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, List, Optional

import typer

from bideuchre.notation import counted
from bideuchre.rules import Seat, get_deck, parse_seat

if TYPE_CHECKING:
    from rich.table import Table

    from bideuchre import batch as B

from .common import err, fail, guard, source_name
from .options import preset_with_rules, rule_option
from .views import simple_table, with_rules

_STUDY = "Study: conditions, groups, plots"

# the condition language of bideuchre.analysis.conditions, for --help (kept here: that module
# loads NumPy, and the command list must start light)
LANGUAGE_HELP = (
    "Conditions (--where; --by takes a number of the same language): "
    "trumps(SEAT, SUIT) (the left bower is a trump), bowers(SEAT, SUIT), length(SEAT, SUIT) "
    "(printed suit), has(SEAT, CARD) (copies held), top(SEAT, SUIT, K) (how many of the K "
    "highest trumps; each double-deck copy one card), aces(SEAT); SEAT is N E S W or a side NS "
    "EW, SUIT S H D C; numbers, + -, == != < <= > >=, and or not, parentheses. Example: "
    "--where \"bowers(S, H) == 2 and trumps(S, H) >= 3\" --by \"trumps(S, H)\"."
)


def _rate_column():
    """The progress bar's deals/s column (rich loads when the command runs)."""
    from rich.progress import ProgressColumn
    from rich.text import Text

    class _RateColumn(ProgressColumn):
        def render(self, task) -> Text:
            speed = task.finished_speed or task.speed
            return Text("" if speed is None else f"{rate_text(speed)} deals/s", style="cyan")
    return _RateColumn()


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


def summary_tables(s: "B.Summary") -> list["Table"]:
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
    t1.caption = f"{counted(obj['deals'], 'deal')} × {_declarers(obj)} · preset {obj['preset']}"
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
    t2.caption = f"one standard error ≤ {_se(obj['declarer_rows'])} points"
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
    if "alone" in obj:
        tables.append(_lone_table(obj["alone"], names))
    if "by" in obj:
        groups = _group_tables(obj["by"], names, obj["declarers"])
        named = [Seat(x).name for x in getattr(s.by, "seats", ())]
        if named and len(named) < 4 and len(obj["declarers"]) == 4:
            # a --by on S's hand, over the rows of every declarer, is mostly other seats'
            # results: say so where the numbers are
            groups[0].caption = (f"rows: every declarer (N E S W), not only {' '.join(named)}; "
                                 f"--declarer {''.join(named)} for {'their' if len(named) > 1 else 'its'} own results")
        tables += groups
    return tables


def _declarers(obj: dict) -> str:
    """``4 declarers`` or ``declarer S`` / ``declarers N S`` for a summary's rows."""
    seats = obj.get("declarers", ["N", "E", "S", "W"])
    if len(seats) == 4:
        return "4 declarers"
    return ("declarer " if len(seats) == 1 else "declarers ") + " ".join(seats)


def _lone_table(lone: dict, names: list[str]) -> Table:
    """Per lone bid and strain, % of (deal, lone seat) rows where the lone hand takes every
    trick (with the best exchange), and in any strain."""
    t = simple_table("Lone hands: % of rows taking every trick (best exchange)")
    t.caption = f"{counted(lone['rows'], 'row')} (deal × lone seat)" + (
        f" · {counted(lone['errors'], 'deal')} without a lone table" if lone["errors"] else "")
    t.add_column("lone bid", style="bold cyan")
    for st in names:
        t.add_column(st, justify="right")
    t.add_column("any strain", justify="right", style="bold")
    for bid, d in lone["bids"].items():
        t.add_row(bid, *(f"{100 * d['strains'][st]['every_trick']:.1f}" if st in d["strains"] else "" for st in names),
                  f"{100 * d['any_strain']:.1f}")
    return t


def _group_label(by: dict, value: int) -> str:
    if by["kind"] == "condition":
        return "yes" if value else "no"
    return str(value)


def _se(rows: int) -> str:
    """The largest standard error of a rate over ``rows`` rows (at 50%), in percentage points.
    Rows of one deal are not independent across declarers, so this is a guide, not a bound."""
    return f"{50 / math.sqrt(max(1, rows)):.1f}"


def _group_tables(by: dict, names: list[str], declarers: list[str]) -> list[Table]:
    """The summary per value of --by: mean DD tricks, best-strain shares, make rates."""
    feature, groups = by["feature"], by["groups"]
    t1 = simple_table(f"By {feature}: mean DD tricks of the declaring side")
    t1.add_column(feature if len(feature) <= 16 else "value", style="bold cyan", justify="right")
    t1.add_column("deals", justify="right")
    t1.add_column("%", justify="right")
    for st in names:
        t1.add_column(st, justify="right")
    t1.add_column("best", justify="right", style="bold")
    t2 = simple_table(f"By {feature}: best strain, % of rows")
    t2.add_column(feature if len(feature) <= 16 else "value", style="bold cyan", justify="right")
    for st in names:
        t2.add_column(st, justify="right")
    t3 = simple_table(f"By {feature}: make rates, % of rows (DD tricks ≥ bid)")
    t3.add_column(feature if len(feature) <= 16 else "value", style="bold cyan", justify="right")
    t3.add_column("bid", justify="right")
    for st in names:
        t3.add_column(st, justify="right")
    t3.add_column("best strain", justify="right", style="bold")
    t3.add_column("±", justify="right", style="dim")
    t3.caption = "±: one standard error at most (a rate of 50%), percentage points"
    per_deal = len(declarers)
    for g in groups:
        label = _group_label(by, g["value"])
        t1.add_row(label, f"{g['deals']:,}", f"{100 * g['share']:.1f}",
                   *(f"{g['strains'][st]['mean']:.2f}" for st in names), f"{g['best_strain']['mean']:.2f}")
        t2.add_row(label, *(f"{100 * g['strains'][st]['best_share']:.1f}" for st in names))
        levels = list(g["make_rates"].items())
        for k, (level, row) in enumerate(levels):
            t3.add_row(label if k == 0 else "", level, *(f"{100 * row[st]:.1f}" for st in names),
                       f"{100 * row['best']:.1f}", _se(g["deals"] * per_deal) if k == 0 else "",
                       end_section=k == len(levels) - 1)
    return [t1, t2, t3]


def _until_budget(records, spent: list):
    """The generated deals until the budget of tries runs out: then the run ends normally
    (every deal found is solved and written, an npz assembled) and the error is kept in
    ``spent`` for the closing message."""
    from bideuchre import batch as B

    try:
        yield from records
    except B.WhereBudgetError as exc:
        spent.append(exc)


@dataclass
class _Study:
    """The study options, checked: the parsed --where and --by, the --declarer seats."""

    where: Optional[object] = None
    by: Optional[object] = None
    declarers: Optional[tuple] = None


def _expression(text: str, deck, what: str, want: str):
    """Parse a --where/--by expression; a mistake is one line naming its column and quoting
    the place."""
    from bideuchre.analysis.conditions import ConditionError, parse_condition

    try:
        return parse_condition(text, deck, what=what, want=want)
    except ConditionError as exc:
        raise fail(str(exc)) from None


def _study_options(deck, where, by, declarer, plot, generate, max_tries) -> _Study:
    """Check --where, --by, --declarer, --plot and --max-tries before any output is made."""
    from bideuchre import batch as B
    from bideuchre.batch.plot import check_plot

    st = _Study()
    if where is not None:
        st.where = _expression(where, deck, "--where", "condition")
        if st.where.never:
            raise B.BatchError(f"--where {where!r} can never hold in a {deck.name} deal ({st.where.ranges()})")
    if max_tries is not None and (generate is None or where is None):
        raise B.BatchError("--max-tries goes with --generate and --where")
    B.check_max_tries(max_tries)
    if by is not None:
        st.by = _expression(by, deck, "--by", "number")
    if declarer is not None:
        text = declarer.replace(",", "").replace(" ", "").upper()
        if not text or any(c not in "NESW" for c in text) or len(set(text)) != len(text):
            raise B.BatchError(f"--declarer {declarer!r}: give seats, like S or NS")
        st.declarers = tuple(parse_seat(c) for c in text)
    if plot is not None:
        check_plot(plot)
    return st


def batch(
    input: Optional[str] = typer.Argument(None, help="File of deals, one a line (PBN-style or JSON with a 'deal' key), or - for stdin. Not with --generate."),
    preset: str = typer.Option("standard", "--preset", "-p", help="Rules preset: standard pepper double32 racehorse double48."),
    deck: Optional[str] = typer.Option(None, "--deck", help="Deck form, overriding the preset's: single24 double32 double40 double48."),
    dealer: Optional[str] = typer.Option(None, "--dealer", "-d", help="Default dealer seat (a JSON line's 'dealer' wins; default: the seat before the colon); with --generate also 'rotate' (N E S W in turn) or 'random'."),
    alone: bool = typer.Option(False, "--alone", help="Also the lone table of each deal (bideuchre.analysis.lone)."),
    par: bool = typer.Option(False, "--par", help="Also the par result of each deal (bideuchre.analysis.par)."),
    fmt: Optional[str] = typer.Option(None, "--format", "-f", help="jsonl, csv, npz or parquet (the parquet extra: pyarrow) (default: from the output's name, else jsonl)."),
    output: Optional[str] = typer.Option(None, "--output", "-o", help="Output file (default: stdout; npz, parquet and --resume need a file)."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, help="Workers (default: all cores)."),
    chunk_size: Optional[int] = typer.Option(None, "--chunk-size", help="Deals per chunk (default by deck form: 250 single deck, 100 double32, 25 double40, 10 double48; 8× on Dask)."),
    resume: bool = typer.Option(False, "--resume", help="Skip the ids already in the output and append the rest."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace an existing output."),
    strict: bool = typer.Option(False, "--strict", help="Stop at the first malformed line (after writing the deals before it)."),
    generate: Optional[int] = typer.Option(None, "--generate", help="Solve N uniform random deals of the preset's deck instead of reading input (at most 10^9)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed for --generate (default: random, printed)."),
    hand: List[str] = typer.Option([], "--hand", help="With --generate, fix a hand: SEAT=HAND (N=AJ.KQ..JT); repeatable."),
    dask_scheduler: Optional[str] = typer.Option(None, "--dask-scheduler", help="Run chunks on the Dask cluster at this address (or 'local')."),
    dask: Optional[str] = typer.Option(None, "--dask", help="'local': run chunks on a local Dask cluster of --jobs workers."),
    executor: str = typer.Option("auto", "--executor", help="auto, thread, process or dask (auto: threads for DD tables, the solver releases the GIL; processes with --alone or --par on 2+ jobs; Dask with --dask or --dask-scheduler; dask alone: a local cluster)."),
    summary_json: Optional[str] = typer.Option(None, "--summary-json", help="Write the summary numbers as JSON to this file."),
    no_summary: bool = typer.Option(False, "--no-summary", help="Do not print the summary tables."),
    rule: List[str] = rule_option(),
    where: Optional[str] = typer.Option(None, "--where", rich_help_panel=_STUDY, help="Only deals satisfying this condition: generated by rejection (exactly N accepted), or read and the others skipped and counted. Example: \"bowers(S, H) == 2 and trumps(S, H) >= 3\"."),
    max_tries: Optional[int] = typer.Option(None, "--max-tries", min=1, rich_help_panel=_STUDY, help="With --generate and --where, give up after this many tries (default: 10,000 per deal, at least 1,000,000, at most 10^10; the run also stops early when the acceptance rate says the tries cannot be enough)."),
    by: Optional[str] = typer.Option(None, "--by", rich_help_panel=_STUDY, help="Group the summary by a number of the --where language, like \"trumps(S, H)\" (a condition groups into no/yes)."),
    declarer: Optional[str] = typer.Option(None, "--declarer", rich_help_panel=_STUDY, help="Summarise only these declarer seats' rows (S, or NS): the deal's results with that seat declaring."),
    plot: Optional[str] = typer.Option(None, "--plot", rich_help_panel=_STUDY, help="Draw the DD trick distribution per strain (per --by group) to FILE.png or FILE.svg (the plot extra: matplotlib)."),
) -> None:
    """Solve many deals: DD tables (with --alone lone tables, with --par par), written chunk by chunk, resumable."""
    from rich.markup import escape
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    from bideuchre import batch as B     # NumPy, the core and rich load when the command runs

    with guard(output=output):
        p = preset_with_rules(preset, rule)
        d = get_deck(deck) if deck else p.deck
        if deck and "deck" in p.changed_options() and p.deck != d:
            raise B.BatchError(f"--deck {deck} and --rule deck={p.deck.name} disagree; give one of them")
        study = _study_options(d, where, by, declarer, plot, generate, max_tries)
        if generate is None and input is None:
            raise B.BatchError("give an input file (or - for stdin) or --generate N")
        if generate is not None and input is not None:
            raise B.BatchError("give either an input file or --generate N, not both")
        if hand and generate is None:
            raise B.BatchError("--hand needs --generate")
        if generate is None and dealer is not None and dealer.lower() in B.DEALER_MODES:
            raise B.BatchError(f"--dealer {dealer} needs --generate (a file's deals name their dealer)")
        if dask and dask_scheduler:
            raise B.BatchError("give either --dask or --dask-scheduler")
        B.check_run_options(executor, chunk_size)
        B.check_output(output, resume, overwrite)
        B.check_distinct_files([("input", None if generate is not None else input), ("--output", output),
                                ("--summary-json", summary_json), ("--plot", plot)])
        for option, path in (("--summary-json", summary_json), ("--plot", plot)):
            # rewritten by --resume (the same run's summary) or --overwrite, else never replaced
            B.check_new_file(path, option, overwrite or resume,
                             "--overwrite to replace it (--resume rewrites its run's own)")
        if summary_json and os.path.isdir(summary_json):
            raise B.BatchError(f"--summary-json {summary_json!r} is a directory; give a file name")
        if summary_json and not os.path.isdir(os.path.dirname(os.path.abspath(summary_json))):
            raise B.BatchError(f"--summary-json {summary_json!r}: its directory does not exist")
        B.check_analyses(p, d, alone=alone, par=par)
        if generate is not None and generate < 1:
            raise B.BatchError(f"--generate takes a number of deals of at least 1 (got {generate})")
        if generate is not None:
            B.check_generate(generate, seed or 0)
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
        tally = None
        spent: list = []        # the WhereBudgetError that ended the generated deals, if any
        if generate is not None:
            fixed = B.parse_fixed_hands(hand, d)
            if study.where is not None:
                tally = B.WhereTally(study.where.text, generated=True)
            if study.where is not None:
                records = B.generate_where(generate, seed, d, fixed, study.where, dealer,
                                           max_tries=max_tries, tally=tally)
            else:
                records = B.generate_records(generate, seed, d, fixed, dealer)
            total = generate
            if study.where is not None:     # the first deal found (or the budget spent) before any output
                first = next(records, None)
                records = _until_budget(itertools.chain([first], records), spent)
        else:
            records = B.read_records(input, d, dealer)
            total = B.count_input_lines(input)
            # stdin: wait for its first lines before making any output
            if total == 0 or (total is None and not records.prime()):
                raise B.BatchError(f"{source_name(input)}: no deals (only blank or # lines)")
            if study.where is not None:     # how many pass is not known: a count, not a bar
                tally = B.WhereTally(study.where.text, generated=False)
                records = B.filter_records(records, study.where, tally)
                total = None
        summary = B.Summary(p, d, declarers=study.declarers, by=study.by)
        writer = B.open_writer(fmt, output, p, d, alone=alone, par=par, resume=resume,
                               overwrite=overwrite, summary=summary,
                               where=None if study.where is None else study.where.text)
        if total is not None:
            total = max(0, total - len(writer.done))

        progress = Progress(TextColumn("[bold]batch[/bold]"), BarColumn(), MofNCompleteColumn(),
                            _rate_column(), TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
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
            except (KeyboardInterrupt, Exception) as exc:
                from .common import interrupt_raised, interrupted_what
                if output is None or not (isinstance(exc, KeyboardInterrupt) or interrupt_raised()):
                    raise       # (an error after an interrupt is the interrupt: guard says so)
                raise fail(f"{interrupted_what()}: {counted(writer.written, 'deal')} of this run saved in {output}; "
                           f"rerun the same command with{again} --resume to finish", 130) from None
        obj = with_rules(summary.to_json(), p)
        if seed is not None:
            obj["seed"] = seed
        if tally is not None:
            obj["where"] = tally.to_json()
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
        if plot and summary.deals:
            from bideuchre.batch.plot import plot_summary
            plot_summary(obj, plot)
        elif plot:
            err.print(f"no deals to draw: {plot} not written", highlight=False, soft_wrap=True)
        if tally is not None:
            err.print(str(tally), highlight=False, soft_wrap=True)
        where = f" → {output}" if output else ""
        # two lines: what was solved and how fast; what else happened and where it went
        secs = f"{report.seconds:.1f} s" if report.seconds >= 0.95 else f"{report.seconds * 1000:.0f} ms"
        err.print(f"solved {counted(report.solved, 'deal')} in {secs} "
                  f"({rate_text(report.rate)} deals/s, {_workers(report.jobs, report.executor)})",
                  highlight=False, soft_wrap=True)
        err.print(f"{report.skipped:,} already done; {counted(report.bad_count, 'bad line')}{where}",
                  highlight=False, soft_wrap=True)
    if spent:
        e = fail(str(spent[0]))
        if output:
            err.print(f"{counted(report.solved, 'deal')} of this run saved in {output}: rerun with{again} "
                      f"--resume and a larger --max-tries to finish", highlight=False, soft_wrap=True)
        raise e
    if report.stopped is not None:
        raise fail(f"stopped at {in_name}line {report.stopped.lineno} (--strict): {report.stopped.message}")
    if report.bad_count:
        raise typer.Exit(2)


def register(app: typer.Typer) -> None:
    """Add the ``batch`` command to the app (called by cli/app.py)."""
    app.command("batch", epilog=LANGUAGE_HELP)(batch)
