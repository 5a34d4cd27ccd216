"""``bideuchre par`` (all four hands known) and ``bideuchre bid`` (advice for one hand).

Thin over :mod:`solver.par` and :mod:`solver.advice` (issue 6).
"""

from __future__ import annotations

from typing import List, Optional

import typer
from rich.table import Table

from solver.auction import format_action
from solver.notation import Deal
from solver.rules import RulesError, Seat, Side, get_preset, parse_seat

from .common import compass, deal_hands, err, guard, out, print_json


def register(app: typer.Typer) -> None:
    """Add the ``par`` and ``bid`` commands to the app."""
    app.command("par")(par_cmd)
    app.command("bid")(bid_cmd)


# ---------------------------------------------------------------------------------------------
# par

def par_cmd(
    deal: str = typer.Argument(..., help="Deal 'N:<hand> <hand> <hand> <hand>'."),
    preset: str = typer.Option("standard", "--preset", "-p", help="Rules preset: standard pepper double32 racehorse double48."),
    dealer: Optional[str] = typer.Option(None, "--dealer", "-d", help="Dealer seat (default: the seat before the colon)."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Par: the double-dummy auction and play with all four hands known."""
    from solver.par import par

    with guard():
        p = get_preset(preset)
        d = Deal.from_pbn(deal, p.deck, dealer)
        res = par(d, p, d.dealer)
        if json_out:
            print_json(res.to_json())
            return
        out.print(compass(deal_hands(d), title=d.pbn(), dealer=res.dealer))
        order = [Seat((res.dealer + 1 + i) % 4) for i in range(4)]
        line = "  ".join(f"{s.name} {format_action(a)}" for s, a in zip(order, res.auction))
        out.print(f"preset {p.name} · auction (DD): {line}")
        if res.contract is None:
            out.print("[bold]par: thrown in[/bold] (all pass) · NS 0 · EW 0")
        else:
            c = res.contract
            out.print(f"[bold]par: {c.declarer.name} {c.bid.name} {c.strain.symbol}[/bold] · "
                      f"{c.tricks} tricks · NS {c.points[Side.NS]:+d} · EW {c.points[Side.EW]:+d}")
        tab = Table(title="Best contract each seat could declare against passes")
        for col in ("seat", "bid", "strain", "tricks", "NS", "EW"):
            tab.add_column(col, justify="right" if col in ("tricks", "NS", "EW") else "left")
        for s, c in res.best_vs_passes.items():
            tab.add_row(s.name, c.bid.name, c.strain.symbol, str(c.tricks),
                        f"{c.points[Side.NS]:+d}", f"{c.points[Side.EW]:+d}")
        out.print(tab)


# ---------------------------------------------------------------------------------------------
# bid

def bid_cmd(
    hand: Optional[str] = typer.Argument(None, help="The hand: 'AJ.KQ9..JT' or card tokens 'SA SJ HK ...'."),
    seat: Optional[str] = typer.Option(None, "--seat", "-s", help="The hand's seat (N E S W)."),
    dealer: Optional[str] = typer.Option(None, "--dealer", "-d", help="Dealer seat."),
    preset: Optional[str] = typer.Option(None, "--preset", "-p", help="Rules preset (default standard, or the record's)."),
    auction: str = typer.Option("", "--auction", "-a", help="Actions so far from the dealer's left: 'pass 4'."),
    known: List[str] = typer.Option([], "--known", "-k", help="Cards known in another seat: 'E:SA HK' (repeatable)."),
    samples: int = typer.Option(500, "--samples", "-n", help="Random deals of the unseen cards."),
    seed: int = typer.Option(1, "--seed", help="Random seed (echoed; results do not depend on the workers)."),
    deals: Optional[str] = typer.Option(None, "--deals", help="Evaluate over the full deals of this file (one a line) instead of sampling."),
    score: Optional[str] = typer.Option(None, "--score", help="Game score 'US-THEM' before this hand (with --target or the preset's)."),
    target: Optional[int] = typer.Option(None, "--target", help="Game target (default: the preset's)."),
    record: Optional[str] = typer.Option(None, "--record", help="Hand-record file (ours or Trickster .ptn) with one known hand."),
    index: int = typer.Option(1, "--index", help="Record number in --record (1-based)."),
    workers: int = typer.Option(1, "--workers", "-j", help="Worker threads."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Bid advice for one hand: sample the unseen cards, solve each deal double-dummy, and
    rate every legal action by its expected hand result."""
    with guard():
        _run_bid(hand=hand, seat=seat, dealer=dealer, preset=preset, auction=auction,
                     known=known, samples=samples, seed=seed, deals=deals, score=score,
                     target=target, record=record, index=index, workers=workers,
                     json_out=json_out)


def _run_bid(**kw) -> None:
    raise RulesError("bid advice is not available yet")
