"""``bideuchre match``: a duplicate match of two bidding policies (thin over
:mod:`bideuchre.bidding.match`).  Exit codes: 0 ok, 1 internal error, 2 bad input, 130 on
Ctrl-C (every finished chunk is in ``--output``; rerun with ``--resume``)."""

from __future__ import annotations

from typing import Optional

import typer

from .common import BadInput, err, guard, out, print_json
from .options import preset_with_rules, rule_option
from .views import simple_table


def match_cmd(
    a: str = typer.Argument(..., help="Policy A: heuristic, model, advice, advice-dd, par (or a registered one); with --play: heuristic, pimc, pimc+auction, alphamu, alphamu+auction, hybrid, hybrid+auction, pimc+cards, pimc+auction+cards, hybrid+auction+cards (+cards: the cards played read by the play model), dd."),
    b: str = typer.Argument(..., help="Policy B."),
    preset: str = typer.Option("standard", "--preset", "-p", help="The rules (standard pepper double32 racehorse double48)."),
    deals: int = typer.Option(1000, "--deals", "-n", help="Deals, each played twice with the seats swapped."),
    seed: int = typer.Option(1, "--seed", help="Deal i is a function of the seed and i."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, help="Worker processes (default: every core); results do not depend on it."),
    output: Optional[str] = typer.Option(None, "--output", "-o", help="JSON lines, one per deal (calls, contracts, points)."),
    resume: bool = typer.Option(False, "--resume", help="Keep the deals already in --output and play the rest."),
    plot: Optional[str] = typer.Option(None, "--plot", help="Draw the running edge and the edges' histogram (.png/.svg)."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
    play: bool = typer.Option(False, "--play", help="A play match: each deal's contract (--contracts), the declaring side played by A and the defenders by B, then swapped (--split: and B at both sides)."),
    samples: Optional[int] = typer.Option(None, "--samples", help="With --play: the sampling policies' deals (default each method's)."),
    split: bool = typer.Option(False, "--split", help="With --play: a third run, B at both sides, so A's edge is shown as declarer and as defence apart."),
    contracts: str = typer.Option("par", "--contracts", help="With --play: par (each deal's par contract) or model (the contract the bidding model reaches, with its auction: pimc+auction, alphamu+auction and hybrid+auction read it)."),
    rule: list[str] = rule_option(),
) -> None:
    """A duplicate match: the same seeded deals twice, A north-south then east-west, the dealer
    rotating; each seat bids by its policy from its own hand, the dealer and the calls so far;
    the contract is played double dummy.  Prints A's edge in points a deal (NS − EW, averaged
    over the two runs), its standard error clustered by deal, the 95 % interval, and how often
    each policy's side declared and was set."""
    with guard(output):
        from bideuchre.bidding.match import plot_match, run_match
        from bideuchre.batch.plot import check_plot

        p = preset_with_rules(preset, rule)
        if contracts != "par" and not play:
            raise BadInput("--contracts goes with --play (a bidding match's contracts are those its auctions reach)")
        if resume and output is None:
            raise BadInput("--resume continues an --output file: name it")
        for flag, given in (("--split", split), ("--samples", samples is not None)):
            if given and not play:
                raise BadInput(f"{flag} goes with --play")
        if play:
            if plot is not None:
                raise BadInput("--plot draws a bidding match; a play match has none")
            return _play_match(a, b, p, deals, seed, samples, output, json_out, contracts, split,
                               jobs, resume)
        from bideuchre.bidding.play_match import PLAY_POLICIES
        from bideuchre.bidding.policy import policy_names
        for name in (a, b):
            if name in PLAY_POLICIES and name not in policy_names():
                raise BadInput(f"{name!r} is a play policy: add --play")
        if plot is not None:
            check_plot(plot)
            from bideuchre.batch import check_new_file
            check_new_file(plot, "--plot", resume, "--resume to draw its match again")
        res = run_match(a, b, p, deals, seed, jobs=jobs, output=output, resume=resume)
        if plot is not None:
            plot_match(res, plot)
        if json_out:
            print_json(res.to_json())
            return
        lo, hi = res.ci95
        out.print(f"[bold]{a}[/bold] vs [bold]{b}[/bold] · {p.name} · {res.deals:,} deals × 2 · seed {seed}",
                  highlight=False)
        out.print(f"edge of {a}: {res.edge:+.3f} ± {res.se:.3f} points a deal "
                  f"(95 % interval {lo:+.3f} .. {hi:+.3f})", highlight=False)
        tab = simple_table()
        for col in ("policy", "hands", "declared", "set (of declared)"):
            tab.add_column(col, justify="left" if col == "policy" else "right")
        for key, name in (("A", a), ("B", b)):
            s = res.stats[key].to_json()
            tab.add_row(f"{name} ({key})", f"{s['hands']:,}", f"{s['declared']:,} ({s['declare_rate']:.1%})",
                        f"{s['set']:,} ({s['set_rate']:.1%})")
        out.print(tab)
        if res.thrown_in:
            out.print(f"thrown in: {res.thrown_in:,} hands of {2 * res.deals:,}", highlight=False)
        if plot is not None:
            err.print(f"plot written to {plot}", highlight=False)


def _play_match(a, b, p, deals, seed, samples, output, json_out, contracts="par", split=False,
                jobs=None, resume=False) -> None:
    """``match --play``: thin over :func:`bideuchre.bidding.play_match.run_play_match`."""
    from bideuchre.bidding.play_match import run_play_match

    res = run_play_match(a, b, p, deals, seed, samples, output, contracts=contracts, split=split,
                         jobs=jobs, resume=resume)
    if json_out:
        print_json(res.to_json())
        return
    out.print(f"[bold]{a}[/bold] vs [bold]{b}[/bold] · play · {p.name} · {res.points.deals:,} deals × {3 if split else 2} "
              f"({'par contracts' if contracts == 'par' else 'the contracts the bidding model reaches'}) · seed {seed}",
              highlight=False)
    rows = [("", res.points, res.tricks)]
    if res.split is not None:
        rows += [(" as declarer", *res.split["declarer"]), (" as defence", *res.split["defence"])]
    for what, pts, trk in rows:
        if what == " as declarer":
            out.print(f"apart (the third run: {b} at both sides the yardstick):", highlight=False)
        for r, unit in ((pts, "points"), (trk, "tricks")):
            lo, hi = r.ci95
            out.print(f"edge of {a}{what}: {r.edge:+.3f} ± {r.se:.3f} {unit} a deal "
                      f"(95 % interval {lo:+.3f} .. {hi:+.3f})", highlight=False)
    if res.skipped:
        out.print(f"skipped (thrown in): {res.skipped:,}", highlight=False)


def register(app: typer.Typer) -> None:
    """Add the ``match`` command to the app."""
    app.command("match", short_help="A duplicate match of two bidding policies: seats swapped, "
                "contracts played double dummy, A's edge ± SE.")(match_cmd)
