"""``bideuchre explain`` (every card's value and the principal line of a position) and
``bideuchre replay`` (the analysis of a recorded hand, trick by trick).  Thin over
:mod:`bideuchre.analysis.explain` and :mod:`bideuchre.records`."""

from __future__ import annotations

from typing import Optional

import typer
from rich.table import Table
from rich.text import Text

from bideuchre.analysis.explain import Explanation, PlayAnalysis, TrickLine, analyse_record, explain
from bideuchre.records import load_record
from bideuchre.rules import Seat, Side, get_deck, get_preset

from .common import card_text, compass, guard, out, print_json, refuse_file
from .solve_cmd import _load_deal, _make_position


def _cards_text(cards) -> Text:
    t = Text()
    for i, c in enumerate(cards):
        if i:
            t.append(" ")
        t.append_text(card_text(c))
    return t


def _trick_text(tr: TrickLine) -> Text:
    """``N ♠A  E ♠9  S ♠K  W ♠Q → N`` (cards already on the table dimmed)."""
    t = Text()
    for i, (seat, card) in enumerate(tr.cards):
        if i:
            t.append("  ")
        t.append(seat.name + " ", style="dim" if i < tr.played else "cyan")
        ct = card_text(card)
        if i < tr.played:
            ct.stylize("dim")
        t.append_text(ct)
    t.append(f" → {tr.winner.name}", style="bold")
    return t


def show_explanation(ex: Explanation) -> None:
    pos = ex.position
    out.print(compass([pos.hand(s) for s in Seat], title=pos.deal.pbn(), out_seat=pos.out))
    info = (f"strain {pos.strain.symbol} · first leader {pos.leader.name}"
            + (f" · lone {pos.lone.name}" if pos.lone is not None else "")
            + f" · trick {pos.trick_number}")
    out.print(info, soft_wrap=True)
    if pos.played:
        out.print(Text("played: ") + _cards_text(pos.played))
    if pos.trick:
        t = Text("on the table: ")
        for i, (seat, card) in enumerate(pos.trick):
            if i:
                t.append("  ")
            t.append(seat.name + " ", style="cyan")
            t.append_text(card_text(card))
        out.print(t)
    v = ex.value
    out.print(f"DD value: [bold]NS {v[Side.NS]}[/bold] · [bold]EW {v[Side.EW]}[/bold] "
              f"(tricks over the whole hand)")
    if ex.to_move is None:
        out.print("the hand is over")
        return
    side = ex.to_move.side
    tab = Table(title=f"{ex.to_move.name} to play ({side.name}) — each card's value", title_justify="left")
    tab.add_column("card")
    tab.add_column("same as")
    tab.add_column("NS", justify="right")
    tab.add_column("EW", justify="right")
    tab.add_column("", justify="left")
    for cv in ex.cards:
        mark = Text("best", style="bold green") if cv.optimal else Text(f"loses {cv.cost}", style="red")
        tab.add_row(card_text(cv.card), _cards_text(cv.equivalent), str(cv.tricks[Side.NS]),
                    str(cv.tricks[Side.EW]), mark)
    out.print(tab)
    out.print(Text("principal line", style="bold"))
    for tr in ex.pv:
        out.print(Text(f"{tr.number:>2}. ") + _trick_text(tr))
    losing = [cv for cv in ex.cards if not cv.optimal and cv.line]
    if losing:
        out.print(Text("why the other cards lose (best play after each)", style="bold"))
        for cv in losing:
            t = card_text(cv.card)
            t.append(f" loses {cv.cost}:", style="red")
            out.print(t)
            for tr in cv.line:
                out.print(Text(f"    {tr.number:>2}. ") + _trick_text(tr))


def show_analysis(rec, an: PlayAnalysis) -> None:
    pos = an.position
    deal = pos.deal
    out.print(compass([list(h) for h in deal.hands], title=deal.pbn(), dealer=rec.dealer, out_seat=pos.out))
    bits = []
    if rec.event:
        bits.append(rec.event)
    if rec.declarer is not None:
        bits.append(f"declarer {rec.declarer.name}")
    bits.append(f"strain {pos.strain.symbol}")
    if rec.bid:
        bits.append(f"bid {rec.bid}")
    if pos.lone is not None:
        bits.append(f"lone {pos.lone.name}")
    bits.append(f"first leader {pos.leader.name}")
    out.print(" · ".join(bits), soft_wrap=True)
    s = an.start
    out.print(f"DD value before the first card: [bold]NS {s[Side.NS]} · EW {s[Side.EW]}[/bold]")
    if not an.steps:
        out.print("the record has no play: nothing to replay (the value above is the hand's "
                  "with best play from the start)")
        return
    tab = Table(title="the play (DD value after each card)", title_justify="left")
    tab.add_column("trick", justify="right")
    tab.add_column("seat")
    tab.add_column("card")
    tab.add_column("NS", justify="right")
    tab.add_column("EW", justify="right")
    tab.add_column("note")
    prev_trick = 0
    for st in an.steps:
        note = Text()
        if st.cost:
            note.append(f"✗ −{st.cost} for {st.seat.side.name}", style="bold red")
            note.append("  better: ")
            note.append_text(_cards_text(st.best))
        if st.winner is not None:
            if note:
                note.append("  ")
            note.append(f"won by {st.winner.name}", style="dim")
        tab.add_row(str(st.trick) if st.trick != prev_trick else "", st.seat.name, card_text(st.card),
                    str(st.value[Side.NS]), str(st.value[Side.EW]), note,
                    end_section=st.winner is not None)
        prev_trick = st.trick
    out.print(tab)
    f = an.final
    out.print(f"after the last card: [bold]NS {f[Side.NS]} · EW {f[Side.EW]}[/bold]"
              + ("" if an.complete else " (play incomplete)"))
    lost = ", ".join(f"{seat.name} {n}" for seat, n in an.lost.items() if n)
    out.print("tricks lost by mistakes: " + (lost if lost else "none (every card kept the DD value)"))


def explain_command(
    deal: str = typer.Argument(..., help="Deal 'N:<hand> <hand> <hand> <hand>'."),
    strain: str = typer.Option(..., "--strain", "-s", help="Strain: S H D C NT NTL."),
    leader: Optional[str] = typer.Option(None, "--leader", "-l", help="Seat leading the first trick."),
    played: str = typer.Option("", "--played", help="Cards played since the first lead, in play order: 'SA SK ...'."),
    lone: Optional[str] = typer.Option(None, "--lone", help="Lone seat (partner sits out)."),
    preset: str = typer.Option("standard", "--preset", "-p", help="Rules preset: standard pepper double32 racehorse double48."),
    dealer: Optional[str] = typer.Option(None, "--dealer", "-d", help="Dealer seat (default: the seat before the colon)."),
    deck: Optional[str] = typer.Option(None, "--deck", help="Deck form, overriding the preset's: single24 double32 double40 double48."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON instead of tables."),
) -> None:
    """Every legal card's double-dummy value for the player to move, and the principal line."""
    with guard():
        p = get_preset(preset)
        if deck:
            get_deck(deck)
        refuse_file(deal, "explain", stdin=False)
        d = _load_deal(deal, p, deck, dealer)
        pos = _make_position(d, p, strain, leader, played, lone)
        ex = explain(pos)
        print_json(ex.to_json()) if json_out else show_explanation(ex)


def replay_command(
    record_file: str = typer.Argument(..., help="Hand record file: our format or Trickster PTN."),
    index: int = typer.Option(1, "--index", "-k", help="Which record of the file (1-based)."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON instead of tables."),
) -> None:
    """Replay a recorded hand with the DD value after each card; mark the mistakes."""
    with guard():
        rec = load_record(record_file, index)
        an = analyse_record(rec)
        if json_out:
            obj = an.to_json()
            obj.update({"record": rec.source, "event": rec.event, "bid": rec.bid})
            print_json(obj)
        else:
            show_analysis(rec, an)


def register(app: typer.Typer) -> None:
    """Add the ``explain`` and ``replay`` commands to the app."""
    app.command("explain")(explain_command)
    app.command("replay")(replay_command)
