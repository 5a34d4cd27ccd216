"""``bideuchre solve``: the double-dummy table of a deal, or the value of one position."""

from __future__ import annotations

from typing import Optional

import typer
from rich.table import Table

from solver.notation import Deal, Position, parse_cards
from solver.rules import RulesError, Seat, Side, Strain, get_deck, get_preset, parse_seat, parse_strain
from solver.solve import dd_table, solve_position

from .common import compass, deal_hands, err, guard, out, print_json, read_lines


def _load_deal(text: str, preset, deck: Optional[str], dealer: Optional[str]) -> Deal:
    return Deal.from_pbn(text, get_deck(deck) if deck else preset.deck, dealer)


def table_json(deal: Deal, preset, dealer) -> dict:
    """JSON of the DD table (issue 2 shape)."""
    return dd_table(deal, preset, dealer).to_json()


def position_json(pos: Position) -> dict:
    """JSON of one solved position (issue 2 shape)."""
    tricks = solve_position(pos)
    obj = {"deal": pos.deal.pbn(), "deck": pos.deal.deck.name, "strain": pos.strain.name,
           "leader": pos.leader.name, "played": [str(c) for c in pos.played],
           "tricks": {"NS": tricks[Side.NS], "EW": tricks[Side.EW]}}
    if pos.lone is not None:
        obj["lone"] = pos.lone.name
    return obj


def _make_position(deal: Deal, preset, strain: str, leader: Optional[str], played: str,
                   lone: Optional[str]) -> Position:
    st = preset.check_strain(parse_strain(strain))
    if lone is None and leader is None:
        raise RulesError("--strain needs --leader (the seat that leads the first trick)")
    lead = parse_seat(leader) if leader is not None else None
    lone_seat = parse_seat(lone) if lone is not None else None
    if lone_seat is not None and lead is None:
        lead = lone_seat
    return Position(deal, st, lead, parse_cards(played) if played else (), lone=lone_seat)


def show_table(deal: Deal, preset, dealer) -> None:
    t = dd_table(deal, preset, dealer)
    out.print(compass(deal_hands(deal), title=f"{deal.pbn()}", dealer=t.dealer))
    lead = ("first lead: left of dealer (" + Seat((t.dealer + 1) % 4).name + ")"
            if preset.first_lead == "left_of_dealer" else "first lead: declarer")
    tab = Table(title=f"Double-dummy tricks for the declaring side · preset {preset.name} · {lead}")
    tab.add_column("declarer", justify="center", style="bold cyan")
    for st in t.strains:
        tab.add_column(st.symbol, justify="right")
    for seat in Seat:
        tab.add_row(seat.name, *(str(t.tricks[seat][st]) for st in t.strains))
    out.print(tab)


def show_position(pos: Position) -> None:
    obj = position_json(pos)
    out.print(compass([pos.hand(s) for s in Seat], title=pos.deal.pbn(), out_seat=pos.out))
    played = " ".join(obj["played"]) or "none"
    out.print(f"strain {pos.strain.symbol} · first leader {pos.leader.name} · played: {played}"
              + (f" · lone {pos.lone.name}" if pos.lone is not None else ""))
    out.print(f"[bold]NS {obj['tricks']['NS']}[/bold] · [bold]EW {obj['tricks']['EW']}[/bold] "
              f"tricks with best play (to move: {pos.to_move.name})")


def solve(
    deal: str = typer.Argument(..., help="Deal 'N:<hand> <hand> <hand> <hand>', or - for one deal a line on stdin."),
    preset: str = typer.Option("standard", "--preset", "-p", help="Rules preset: standard pepper double32 racehorse double48."),
    dealer: Optional[str] = typer.Option(None, "--dealer", "-d", help="Dealer seat (default: the seat before the colon)."),
    deck: Optional[str] = typer.Option(None, "--deck", help="Deck form, overriding the preset's: single24 double32 double40 double48."),
    strain: Optional[str] = typer.Option(None, "--strain", "-s", help="Solve one position in this strain: S H D C NT NTL."),
    leader: Optional[str] = typer.Option(None, "--leader", "-l", help="Seat leading the first trick (with --strain)."),
    played: str = typer.Option("", "--played", help="Cards played since the first lead, in play order: 'SA SK ...'."),
    lone: Optional[str] = typer.Option(None, "--lone", help="Lone seat (partner sits out) for one position."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON instead of tables."),
) -> None:
    """Double-dummy tricks: the full table (declarer × strain) or one position (--strain)."""
    with guard():
        p = get_preset(preset)
        if deck:
            get_deck(deck)
        if deal != "-":
            d = _load_deal(deal, p, deck, dealer)
            if strain is None:
                if leader or played or lone:
                    raise RulesError("--leader, --played and --lone need --strain")
                print_json(table_json(d, p, dealer)) if json_out else show_table(d, p, dealer)
            else:
                pos = _make_position(d, p, strain, leader, played, lone)
                print_json(position_json(pos)) if json_out else show_position(pos)
            return
    # one deal a line on stdin: one result a line; a bad line is reported and skipped
    bad = 0
    with guard():
        for lineno, text in read_lines("-"):
            try:
                d = _load_deal(text, p, deck, dealer)
                if strain is None:
                    obj = table_json(d, p, dealer)
                else:
                    obj = position_json(_make_position(d, p, strain, leader, played, lone))
            except (ValueError, RulesError) as exc:
                bad += 1
                err.print(f"[red]error:[/red] line {lineno}: {exc}", soft_wrap=True)
                continue
            if json_out:
                print_json(obj)
            elif strain is None:
                row = " ".join(f"{s}:" + ",".join(str(v) for v in obj["table"][s].values()) for s in "NESW")
                out.print(f"{obj['deal']}  {row}", soft_wrap=True)
            else:
                out.print(f"{obj['deal']}  NS {obj['tricks']['NS']} EW {obj['tricks']['EW']}", soft_wrap=True)
    if bad:
        raise typer.Exit(2)
