"""``bideuchre solve``: the double-dummy table of a deal (with ``--alone``, the lone table too),
or the value of one position (``--strain``; a lone position with ``--lone``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional

import typer

from bideuchre.notation import Deal, Position
from bideuchre.rules import RulesError, Seat, get_deck, parse_seat

from .common import each_stdin_line, guard, out, print_json, refuse_file
from .options import load_deal, make_position, position_options, preset_with_rules, rule_option
from .views import (DOUBLE_DUMMY, card_text, compass, deal_hands, rules_text, simple_table,
                    with_rules)

if TYPE_CHECKING:
    from bideuchre.analysis.lone import LoneTable

# The search (NumPy and the Cython core) and rich's tables load inside the functions that use
# them: registering the command costs no more than its signature (bideuchre --version, --help).


def register(app: typer.Typer) -> None:
    """Add the ``solve`` command to the app."""
    # a one-line summary for the command list (the docstring's line breaks would show there)
    app.command("solve", short_help="Double-dummy tricks: the table (declarer × strain; "
                "--alone adds the lone table) or one position (--strain, --lone).")(solve)


def table_json(deal: Deal, preset, dealer, alone: bool = False) -> dict:
    """JSON of the DD table (:meth:`~bideuchre.search.solve.DDTable.to_json`); with ``alone``,
    the lone table under ``"alone"`` (:meth:`~bideuchre.analysis.lone.LoneTable.to_json`:
    ``{"N": {"H": [{"bid": "12", "tricks": 6, "all": true, "give": ["HJ"], "discard": ["C9"]},
    ...], ...}, ...}``); ``"rules"`` when a table option differs from the preset's."""
    from bideuchre.analysis.lone import lone_table
    from bideuchre.search.solve import dd_table

    obj = with_rules(dd_table(deal, preset, dealer).to_json(), preset)
    if alone:
        obj["alone"] = lone_table(deal, preset, dealer).to_json()
    return obj


def _check_alone(preset) -> None:
    from bideuchre.analysis.lone import lone_bids

    if not lone_bids(preset):
        hint = ("; its lone bids come with --rule lone_exchange=K" if preset.lone_option
                else "")
        raise RulesError(f"preset {preset.name!r} has no lone bids (RULES.md §2){hint}; --alone "
                         "needs one of: " + " ".join(n for n, p in _presets() if lone_bids(p)))


def _presets():
    from bideuchre.rules import PRESETS
    return PRESETS.items()


def _exchange_text(r, order: str):
    """``5 +♦A −♥Q``: lone tricks (green with ✓ when every trick), then the best exchange
    (``keep`` when the best is the hand as dealt: the card given is discarded again)."""
    from rich.text import Text

    t = Text()
    t.append(f"{r.tricks}✓" if r.all else f"{r.tricks}", style="bold green" if r.all else "")
    if order == "none":
        return t
    if sorted(r.give) == sorted(r.discard):
        return t.append(" keep", style="dim")
    for sign, cards in (("+", r.give), ("−", r.discard)):
        t.append(" " + sign)
        for c in cards:
            t.append_text(card_text(c))
    return t


_EXCHANGE_WORDS = {"none": "the hand as dealt",
                   "give-first": "partner gives {k}, then the bidder discards {k}",
                   "discard-first": "the bidder lays down {k}, partner sends {k}"}


def show_lone_table(lt: "LoneTable", preset) -> None:
    """One rich table per lone bid: seats × strains, lone tricks and the best exchange."""
    from bideuchre.analysis.lone import exchange_order, lone_bids

    lead = ("left of dealer (" + Seat((lt.dealer + 1) % 4).name + ") or the next seat"
            if preset.first_lead == "left_of_dealer" else "the lone player")
    for j, bid in enumerate(lone_bids(preset)):
        order = exchange_order(preset, bid)
        words = _EXCHANGE_WORDS[order].format(k=bid.give)
        # the long heading and key go on lines of their own (wrapped at word boundaries): a
        # narrow table would fold them into its own width
        out.print()
        name = "Alone" if bid.name == "alone" else f"Lone {bid.name}"     # pepper's bid is "alone"
        out.print(f"[bold]{name}[/bold] · {words} · first lead: {lead}", highlight=False)
        tab = simple_table(padding=(0, 1, 0, 0))
        tab.add_column("lone", justify="center", style="bold cyan", no_wrap=True, min_width=4)
        for st in lt.strains:
            # one-card exchanges fit 80 columns on one line; wider ones wrap rather than clip
            tab.add_column(st.symbol, justify="left", no_wrap=bid.give <= 1, overflow="fold")
        for seat in lt.seats:
            tab.add_row(seat.name, *(_exchange_text(lt.results[seat][st][j], order) for st in lt.strains))
        out.print(tab)
        out.print("lone tricks with the best exchange: + given, − discarded, keep = as dealt; ✓ every trick"
                  if order != "none" else "lone tricks; ✓ every trick", style="dim", highlight=False)


def show_table(deal: Deal, preset, dealer, alone: bool = False) -> None:
    from bideuchre.analysis.lone import lone_table
    from bideuchre.search.solve import dd_table
    from rich.table import Table

    t = dd_table(deal, preset, dealer)
    out.print(compass(deal_hands(deal), title=f"{deal.pbn()}", dealer=t.dealer))
    lead = ("first lead: left of dealer (" + Seat((t.dealer + 1) % 4).name + ")"
            if preset.first_lead == "left_of_dealer" else "first lead: declarer")
    tab = Table(title="Tricks for the declaring side, by declarer and strain")
    tab.add_column("declarer", justify="center", style="bold cyan")
    for st in t.strains:
        tab.add_column(st.symbol, justify="right")
    for seat in Seat:
        tab.add_row(seat.name, *(str(t.tricks[seat][st]) for st in t.strains))
    out.print(tab)
    out.print(f"{rules_text(preset)} · {lead}", soft_wrap=True)
    held, dealt = len(deal.hands[0]), deal.deck.hand
    if held < dealt:     # a deal of another deck form under the wrong preset looks like this
        out.print(f"[yellow]partial deal: {held} of the {dealt} cards a hand of {deal.deck.name}"
                  "[/yellow]", highlight=False)
    if alone:
        show_lone_table(lone_table(deal, preset, dealer), preset)
    out.print(DOUBLE_DUMMY, style="dim", highlight=False)


def solved_position_json(pos: Position, preset) -> dict:
    """:func:`bideuchre.search.solve.position_json` with ``"rules"`` when a table option of
    ``preset`` differs from the preset's."""
    from bideuchre.search.solve import position_json

    return with_rules(position_json(pos), preset)


def show_position(pos: Position) -> None:
    from bideuchre.search.solve import position_json

    obj = position_json(pos)
    out.print(compass([pos.hand(s) for s in Seat], title=pos.deal.pbn(), out_seat=pos.out))
    played = " ".join(obj["played"]) or "none"
    out.print(f"strain {pos.strain.symbol} · first leader {pos.leader.name} · played: {played}"
              + (f" · lone {pos.lone.name}" if pos.lone is not None else ""))
    to_move = ("the hand is over: no one is to move" if pos.is_over
               else f"to move: {pos.to_move.name}")
    out.print(f"[bold]NS {obj['tricks']['NS']}[/bold] · [bold]EW {obj['tricks']['EW']}[/bold] "
              f"tricks with best play ({to_move})")
    if pos.lone is not None:
        n = len(pos.deal.hands[0])
        got = obj["tricks"][pos.lone.side.name]
        verdict = "every trick: the lone hand is made" if got == n else f"{n - got} short: the lone hand is set"
        out.print(f"lone {pos.lone.name} takes {got} of {n} ({verdict}; {pos.out.name} sits out)")
    out.print(DOUBLE_DUMMY, style="dim", highlight=False)


def _alone_row(alone: dict) -> str:
    """One line of lone tricks: ``N:S=12/5,24/3;H=...`` per seat (bid/tricks, * every trick)."""
    parts = []
    for seat, by_strain in alone.items():
        cells = ";".join(f"{st}=" + ",".join(f"{r['bid']}/{r['tricks']}{'*' if r['all'] else ''}" for r in rs)
                         for st, rs in by_strain.items())
        parts.append(f"{seat}:{cells}")
    return " ".join(parts)


def solve(
    deal: str = typer.Argument(..., help="Deal 'N:<hand> <hand> <hand> <hand>', or - for one deal a line on stdin."),
    preset: str = typer.Option("standard", "--preset", "-p", help="Rules preset: standard pepper double32 racehorse double48."),
    dealer: Optional[str] = typer.Option(None, "--dealer", "-d", help="Dealer seat (default: the seat before the colon)."),
    deck: Optional[str] = typer.Option(None, "--deck", help="Deck form, overriding the preset's: single24 double32 double40 double48."),
    strain: Optional[str] = typer.Option(None, "--strain", "-s", help="Solve one position in this strain: S H D C NT NTL."),
    leader: Optional[str] = typer.Option(None, "--leader", "-l", help="Seat leading the first trick (with --strain)."),
    played: str = typer.Option("", "--played", help="Cards played since the first lead, in play order: 'SA SK ...'."),
    lone: Optional[str] = typer.Option(None, "--lone", help="Lone seat for one position (with --strain): partner sits out; the first lead follows the preset unless --leader."),
    alone: bool = typer.Option(False, "--alone", help="Add the lone table: every lone bid of the preset for each seat × strain, with its best card exchange."),
    rule: List[str] = rule_option(),
    json_out: bool = typer.Option(False, "--json", help="Print JSON instead of tables."),
) -> None:
    """Double-dummy tricks: the full table (declarer × strain), with --alone the lone table
    too, or one position (--strain; a lone hand with --lone)."""
    with guard():
        p = preset_with_rules(preset, rule)
        if deck:
            get_deck(deck)
        if dealer is not None:
            parse_seat(dealer)          # a bad --dealer once, not once a line of stdin
        if alone:
            if strain is not None:
                raise RulesError("--alone adds the lone table of a deal; for one lone position use "
                                 "--strain X --lone SEAT (without --alone)")
            _check_alone(p)
        # every option is checked once, before a deal is read (with -, before stdin is read)
        if strain is None:
            if leader or played or lone:
                raise RulesError("--leader, --played and --lone need --strain (one lone position: "
                                 "--strain X --lone SEAT; every seat and strain: --alone)")
        else:
            position_options(p, strain, leader, played, lone)
        if deal != "-":
            refuse_file(deal, "solve")
            d = load_deal(deal, p, deck, dealer)
            if strain is None:
                print_json(table_json(d, p, dealer, alone)) if json_out else show_table(d, p, dealer, alone)
            else:
                pos = make_position(d, p, strain, leader, played, lone, dealer)
                print_json(solved_position_json(pos, p)) if json_out else show_position(pos)
            return
    # one deal a line on stdin: one result a line; a bad line is reported and skipped
    def one(lineno: int, text: str) -> None:
        d = load_deal(text, p, deck, dealer)
        if strain is None:
            obj = table_json(d, p, dealer, alone)
        else:
            obj = solved_position_json(make_position(d, p, strain, leader, played, lone, dealer), p)
        if json_out:
            print_json(obj)
        elif strain is None:
            row = " ".join(f"{s}:" + ",".join(str(v) for v in obj["table"][s].values()) for s in "NESW")
            if alone:
                row += "  alone " + _alone_row(obj["alone"])
            out.print(f"{obj['deal']}  {row}", soft_wrap=True)
        else:
            out.print(f"{obj['deal']}  NS {obj['tricks']['NS']} EW {obj['tricks']['EW']}", soft_wrap=True)

    if each_stdin_line(one, progress="solve"):
        raise typer.Exit(2)
