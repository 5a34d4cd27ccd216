"""What the commands show: rich text of cards, hands, tricks and tables, the replay of a
recorded hand, and the ``"rules"`` echo of JSON output.  Display only (the library computes);
rich loads inside the functions, when a command first prints."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from bideuchre.notation import Deal, format_hand
from bideuchre.rules import Card, Seat, Side, Suit, format_rules

from .common import out

if TYPE_CHECKING:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from bideuchre.analysis.explain import PlayAnalysis, TrickLine


SUIT_STYLE = {Suit.S: "bold", Suit.H: "bold red", Suit.D: "bold red", Suit.C: "bold"}


def simple_table(title: str | None = None, **kw) -> Table:
    """A table in the compact style that fits 80 columns: a rule under the header only, no
    outer padding, adjacent paddings collapsed."""
    from rich import box
    from rich.table import Table

    return Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True, **kw)


def with_rules(obj: dict, preset) -> dict:
    """``obj`` with ``"rules": {...}`` (the table options that differ from the preset's,
    :meth:`~bideuchre.rules.Preset.changed_options`) after its ``"preset"`` key, when any does."""
    changed = preset.changed_options()
    if not changed:
        return obj
    out: dict = {}
    for k, v in obj.items():
        out[k] = v
        if k == "preset":
            out["rules"] = changed
    out.setdefault("rules", changed)
    return out


# What each analysis assumes, in plain words: one line under its output
DOUBLE_DUMMY = "double dummy: every hand visible, best play by all"


def cards_text(cards) -> "Text":
    """Cards in a row with coloured suit symbols (``♠A ♥10``), for tables."""
    from rich.text import Text

    t = Text()
    for i, c in enumerate(cards):
        if i:
            t.append(" ")
        t.append_text(card_text(c))
    return t


def trick_text(trick, prefix: str = "") -> "Text":
    """The cards on the table, each after its seat (``N ♠A  E ♠9``), after ``prefix``."""
    from rich.text import Text

    t = Text(prefix)
    for i, (seat, card) in enumerate(trick):
        if i:
            t.append("  ")
        t.append(seat.name + " ", style="cyan")
        t.append_text(card_text(card))
    return t


def hand_text(cards: Iterable[int]) -> Text:
    """A hand as four lines, one per suit, with coloured suit symbols (``♠ A K 9``)."""
    from rich.text import Text

    parts = format_hand(cards).split(".")
    t = Text()
    for suit, ranks in zip(Suit, parts):
        if suit:
            t.append("\n")
        t.append(suit.symbol + " ", style=SUIT_STYLE[suit])
        t.append(" ".join("10" if r == "T" else r for r in ranks) or "—")
    return t


def card_text(card: int) -> Text:
    """A card with its suit symbol coloured (``♠A``)."""
    from rich.text import Text

    c = Card(card)
    return Text.assemble((c.suit.symbol, SUIT_STYLE[c.suit]), "10" if c.rank.char == "T" else c.rank.char)


def show_evidence(ev, n_eff: float, deals: int, exact: bool = False) -> None:
    """What the calls weighed on the deals (``bid`` and ``play --auction``): the effective
    sample of the ``deals`` rated, a line per other seat, and the warning of an unlikely
    auction; nothing for ``ev`` None.  ``exact``: every consistent deal was weighed (none
    drawn)."""
    if ev is None:
        return
    if ev.calls:
        how = (f"every one of {ev.candidates:,} consistent deals weighed" if exact else
               f"{ev.candidates:,} uniform drawn")
        _print_whole(f"calls heard: effective sample {n_eff:,.0f} of {deals:,} deals "
                     f"({how}, mean weight {ev.p_calls:.3g})", "  ")
    for si in ev.seats:
        _print_whole(si.text(), "    ", "  ")
    if ev.warning:
        out.print(f"[bold yellow]warning: {ev.warning}[/bold yellow]", highlight=False)


def _print_whole(text: str, indent: str, first: str = "") -> None:
    """``text`` wrapped to the terminal's width between words, never between a number and its
    unit or its ± (``46 %``, ``2.8 ± 0.7``); the lines after the first indented by ``indent``."""
    import textwrap
    glued = text.replace(" %", "\x00%").replace(" ± ", "\x01±\x01")
    lines = textwrap.wrap(glued, width=max(20, out.width), initial_indent=first,
                          subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)
    for line in lines:
        out.print(line.replace("\x00", " ").replace("\x01", " "), highlight=False, soft_wrap=True)


def compass(hands: list, title: str = "", dealer: Seat | None = None,
            out_seat: Seat | None = None) -> "Table | Group":
    """The four hands drawn as a compass (N top, W left, E right, S bottom), under ``title``
    (the deal line) on a line of its own: a deal line is wider than the drawing."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    def label(seat: Seat) -> Text:
        t = Text(seat.name, style="bold cyan")
        if dealer == seat:
            t.append(" (dealer)", style="dim")
        if out_seat == seat:
            t.append(" (sits out)", style="dim")
        return t + Text("\n") + hand_text(hands[seat])

    g = Table.grid(padding=(0, 3))
    for _ in range(3):
        g.add_column()
    g.add_row("", label(Seat.N), "")
    g.add_row(label(Seat.W), "", label(Seat.E))
    g.add_row("", label(Seat.S), "")
    return Group(Text(title, style="italic", overflow="fold"), g) if title else g


def deal_hands(deal: Deal) -> list:
    """The deal's four hands as lists of cards, N E S W (what :func:`compass` draws)."""
    return [list(h) for h in deal.hands]


def rules_text(preset) -> str:
    """``preset standard`` and the table options that differ from it: ``preset standard
    (stick=true, min_bid=4)``."""
    opts = format_rules(preset.changed_options())
    return f"preset {preset.name}" + (f" ({opts})" if opts else "")


# ---------------------------------------------------------------------------------------------
# replay: a recorded hand card by card

REPLAY_ASSUMES = (DOUBLE_DUMMY + "; a ✗ card lost tricks against that, yet with the hands "
                  "hidden it may have been a sensible card")


def line_trick_text(tr: "TrickLine") -> "Text":
    """``N ♠A  E ♠9  S ♠K  W ♠Q → N`` (cards already on the table dimmed)."""
    from rich.text import Text

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


def show_analysis(rec, an: "PlayAnalysis", score=None, preset=None, why: str = "") -> None:
    """``replay``'s text: the deal, the contract, every card with the DD value after it and the
    mistakes (✗), then the contract made or set with each side's points (``score``, under
    ``preset``) or why there is no score (``why``)."""
    from rich.table import Table
    from rich.text import Text

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
    tab = Table(title="the play: after each card, the tricks each side takes (DD value)",
                title_justify="left")
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
            note.append_text(cards_text(st.best))
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
    if score is not None:
        side = score.declarer.side
        took = (f"took {score.tricks} of {pos.tricks_left} (needed {score.needed})" if score.complete
                else f"take {score.tricks} of {pos.tricks_left} with best play from here "
                     f"(need {score.needed})")
        verdict = "[bold green]made[/bold green]" if score.made else "[bold red]set[/bold red]"
        out.print(f"contract {score.declarer.name} {score.bid.name} {score.strain.symbol}: "
                  f"{side.name} {took}, {verdict} · NS {score.points[Side.NS]:+d} · "
                  f"EW {score.points[Side.EW]:+d}" + ("" if score.complete else " (projected)"),
                  highlight=False)
        out.print(f"scored under {rules_text(preset)}", style="dim", highlight=False)
    elif why:
        out.print(f"no score: {why}", style="dim", highlight=False)
    out.print(REPLAY_ASSUMES, style="dim", highlight=False)
