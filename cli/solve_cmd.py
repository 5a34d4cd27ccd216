"""``bideuchre solve``: the double-dummy table of a deal (with ``--alone``, the lone table too),
or the value of one position (``--strain``; a lone position with ``--lone``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional

import typer

from bideuchre.notation import Deal, Position, parse_cards
from bideuchre.rules import IllegalPlayError, RulesError, Seat, Side, get_deck, parse_seat, parse_strain

from .common import (DOUBLE_DUMMY, card_text, compass, deal_hands, each_stdin_line, err, guard,
                     out, preset_with_rules, print_json, refuse_file, rule_option, simple_table,
                     with_rules)

if TYPE_CHECKING:
    from bideuchre.analysis.lone import LoneTable

# The search (NumPy and the Cython core) and rich's tables load inside the functions that use
# them: registering the command costs no more than its signature (bideuchre --version, --help).


def _load_deal(text: str, preset, deck: Optional[str], dealer: Optional[str]) -> Deal:
    return Deal.from_pbn(text, get_deck(deck) if deck else preset.deck, dealer)


def table_json(deal: Deal, preset, dealer, alone: bool = False) -> dict:
    """JSON of the DD table (issue 2 shape); with ``alone``, the lone table under ``"alone"``
    (issue 3 shape: ``{"N": {"H": [{"bid": "12", "tricks": 6, "all": true, "give": ["HJ"],
    "discard": ["C9"]}, ...], ...}, ...}``); ``"rules"`` when a table option differs from the
    preset's."""
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


def position_json(pos: Position, preset=None) -> dict:
    """JSON of one solved position (issue 2 shape); ``"rules"`` when a table option of
    ``preset`` differs from the preset's."""
    from bideuchre.search.solve import solve_position

    tricks = solve_position(pos)
    obj = {"deal": pos.deal.pbn(), "deck": pos.deal.deck.name, "strain": pos.strain.name,
           "leader": pos.leader.name, "played": [str(c) for c in pos.played],
           "tricks": {"NS": tricks[Side.NS], "EW": tricks[Side.EW]}}
    if pos.lone is not None:
        obj["lone"] = pos.lone.name
    return obj if preset is None else with_rules(obj, preset)


def _position_options(preset, strain: str, leader: Optional[str], played: str,
                      lone: Optional[str]) -> tuple:
    """The checks of one position's options that need no deal, made once (before a line of
    stdin is read): the strain in the preset, --leader or --lone given, the seats and cards
    readable.  Returns (strain, lone seat or None, leader or None, played cards)."""
    from bideuchre.analysis.lone import lone_bids

    st = preset.check_strain(parse_strain(strain))
    if lone is None and leader is None:
        raise RulesError("--strain needs --leader (the seat that leads the first trick), or "
                         "--lone for a lone hand")
    lone_seat = parse_seat(lone) if lone is not None else None
    if lone_seat is not None and not lone_bids(preset):
        raise RulesError(f"preset {preset.name!r} has no lone hands (RULES.md §2); try --preset standard")
    lead = parse_seat(leader) if leader is not None else None
    return st, lone_seat, lead, parse_cards(played) if played else []


def _make_position(deal: Deal, preset, strain: str, leader: Optional[str], played: str,
                   lone: Optional[str], dealer: Optional[str] = None) -> Position:
    """One position.  With ``lone`` the lone seat's partner sits out; the first leader
    defaults to the preset's rule (the lone player, or in ``standard`` left of the dealer),
    and a lead falling on the empty seat passes to the next seat (RULES.md §1, §2)."""
    from bideuchre.analysis.lone import lone_leader

    st, lone_seat, lead, cards = _position_options(preset, strain, leader, played, lone)
    if lead is not None:
        if lone_seat is not None and lead == lone_seat.partner:
            err.print(f"note: {lead.name} sits out (lone {lone_seat.name}): the lead passes to "
                      f"{Seat((lead + 1) % 4).name}", soft_wrap=True)
    else:
        dealer_seat = deal.dealer if dealer is None else parse_seat(dealer)
        lead = lone_leader(preset, lone_seat, dealer_seat)
    try:
        return Position(deal, st, lead, cards, lone=lone_seat)
    except IllegalPlayError as exc:
        if leader is not None:
            raise
        why = (f"left of dealer {dealer_seat.name}" + (", passing over the empty seat" if
               Seat((dealer_seat + 1) % 4) == lone_seat.partner else "")
               if preset.first_lead == "left_of_dealer" else "the lone player")
        raise IllegalPlayError(f"{exc} (first leader {lead.name}: {why}, preset {preset.name}; "
                               "set --leader or --dealer)") from None


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


def rules_text(preset) -> str:
    """``preset standard`` and the table options that differ from it: ``preset standard
    (stick=true, min_bid=4)``."""
    changed = preset.changed_options()
    opts = ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in changed.items())
    return f"preset {preset.name}" + (f" ({opts})" if opts else "")


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


def show_position(pos: Position) -> None:
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
            _position_options(p, strain, leader, played, lone)
        if deal != "-":
            refuse_file(deal, "solve")
            d = _load_deal(deal, p, deck, dealer)
            if strain is None:
                print_json(table_json(d, p, dealer, alone)) if json_out else show_table(d, p, dealer, alone)
            else:
                pos = _make_position(d, p, strain, leader, played, lone, dealer)
                print_json(position_json(pos, p)) if json_out else show_position(pos)
            return
    # one deal a line on stdin: one result a line; a bad line is reported and skipped
    def one(lineno: int, text: str) -> None:
        d = _load_deal(text, p, deck, dealer)
        if strain is None:
            obj = table_json(d, p, dealer, alone)
        else:
            obj = position_json(_make_position(d, p, strain, leader, played, lone, dealer), p)
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
