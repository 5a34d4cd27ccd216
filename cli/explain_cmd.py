"""``bideuchre explain`` (every card's value and the principal line of a position) and
``bideuchre replay`` (the analysis of a recorded hand, trick by trick).  Thin over
:mod:`bideuchre.analysis.explain` and :mod:`bideuchre.records`."""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional

import typer

from bideuchre.rules import RulesError, Seat, Side, get_deck

from .common import BadInput, err, guard, out, print_json, refuse_file
from .options import load_deal, make_position, position_option, preset_with_rules, rule_option
from .views import (DOUBLE_DUMMY, card_text, cards_text, compass, line_trick_text, show_analysis,
                    trick_text, with_rules)

if TYPE_CHECKING:
    from bideuchre.analysis.explain import Explanation

# the analysis (NumPy and the Cython core) and rich's tables load inside the commands


def show_explanation(ex: "Explanation", source: str = "") -> None:
    from rich.table import Table
    from rich.text import Text

    pos = ex.position
    if source:
        out.print(source, style="italic", highlight=False, soft_wrap=True)
    out.print(compass([pos.hand(s) for s in Seat], title=pos.deal.pbn(), out_seat=pos.out))
    info = (f"strain {pos.strain.symbol} · first leader {pos.leader.name}"
            + (f" · lone {pos.lone.name}" if pos.lone is not None else "")
            + f" · trick {pos.trick_number}")
    out.print(info, soft_wrap=True)
    if pos.played:
        out.print(Text("played: ") + cards_text(pos.played))
    if pos.trick:
        out.print(trick_text(pos.trick, "on the table: "))
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
    tab.add_column("verdict", justify="left")
    for cv in ex.cards:
        mark = Text("best", style="bold green") if cv.optimal else Text(f"loses {cv.cost}", style="red")
        tab.add_row(card_text(cv.card), cards_text(cv.equivalent), str(cv.tricks[Side.NS]),
                    str(cv.tricks[Side.EW]), mark)
    out.print(tab)
    out.print("NS, EW: the tricks each side takes over the hand if that card is played; same as: "
              "cards worth the same", highlight=False)
    out.print(Text("principal line (best play by all)", style="bold"))
    for tr in ex.pv:
        out.print(Text(f"{tr.number:>2}. ") + line_trick_text(tr))
    losing = [cv for cv in ex.cards if not cv.optimal and cv.line]
    if losing:
        out.print(Text("why the other cards lose (best play after each)", style="bold"))
        for cv in losing:
            t = card_text(cv.card)
            t.append(f" loses {cv.cost}:", style="red")
            out.print(t)
            for tr in cv.line:
                out.print(Text(f"    {tr.number:>2}. ") + line_trick_text(tr))
    out.print(DOUBLE_DUMMY, style="dim", highlight=False)


def explain_position(p, deal: Optional[str], strain: Optional[str], leader: Optional[str],
                     played: str, lone: Optional[str], dealer: Optional[str], deck: Optional[str],
                     record: Optional[str], index: int = 1, trick: Optional[int] = None,
                     command: str = "explain"):
    """The position that ``explain``'s options name (``board`` opens the same): a DEAL with
    ``--strain``, ``--leader`` or ``--lone``, ``--played``; or ``--record FILE --index K``
    (``--trick T``: before trick T, else after the recorded play).  ``p``: the preset with its
    table options.  Returns ``(Position, source line or "", HandRecord or None)``.  Raises
    RulesError for options that do not go together; NotationError / IllegalPlayError for a
    bad deal, card or record (RULES.md §4).  ``command`` names the command in the message for
    a DEAL that is a file."""
    if deck:
        get_deck(deck)
    source, rec = "", None
    if record is not None:
        if deal is not None or strain or leader or played or lone:
            raise RulesError("--record gives the deal, strain, first leader and play; give "
                             "no DEAL, --strain, --leader, --played or --lone with it")
        from bideuchre.records import load_record
        rec = load_record(record, index)
        pos = rec.position_at(trick)
        where = (f"before trick {trick}" if trick is not None else
                 f"after the recorded play ({len(pos.played)} cards)")
        source = f"{rec.source}" + (f" · {rec.event}" if rec.event else "") + f" · {where}"
    else:
        if deal is None or strain is None:
            raise RulesError("give a DEAL and --strain (and --leader or --lone), or --record FILE")
        if trick is not None:
            raise RulesError("--trick goes with --record (a DEAL takes --played)")
        refuse_file(deal, command, stdin=False)
        d = load_deal(deal, p, deck, dealer)
        pos = make_position(d, p, strain, leader, played, lone)
    return pos, source, rec


def explain_command(
    deal: Optional[str] = typer.Argument(None, help="Deal 'N:<hand> <hand> <hand> <hand>' (or --record)."),
    strain: Optional[str] = position_option("strain"),
    leader: Optional[str] = position_option("leader"),
    played: str = position_option("played"),
    lone: Optional[str] = position_option("lone"),
    preset: str = position_option("preset"),
    dealer: Optional[str] = position_option("dealer"),
    deck: Optional[str] = position_option("deck"),
    record: Optional[str] = position_option("record"),
    index: int = position_option("index"),
    trick: Optional[int] = position_option("trick"),
    rule: List[str] = rule_option(),
    json_out: bool = typer.Option(False, "--json", help="Print JSON instead of tables."),
) -> None:
    """Every legal card's double-dummy value for the player to move, and the principal line."""
    from bideuchre.analysis.explain import explain

    with guard():
        p = preset_with_rules(preset, rule)
        pos, source, rec = explain_position(p, deal, strain, leader, played, lone, dealer, deck,
                                            record, index, trick)
        ex = explain(pos)
        if json_out:
            obj = ex.to_json()
            if record is not None:
                obj.update({"record": rec.source, "trick": trick})
            print_json(with_rules(obj, p))
        else:
            show_explanation(ex, source)


def replay_command(
    record_file: str = typer.Argument(..., help="Hand record file: our format or Trickster PTN."),
    index: int = typer.Option(1, "--index", "-i", help="Which record of the file (1-based)."),
    preset: Optional[str] = typer.Option(None, "--preset", "-p", help="Rules preset for the score (default: the record's, else its deck's: single24 standard)."),
    rule: List[str] = rule_option(),
    json_out: bool = typer.Option(False, "--json", help="Print JSON instead of tables."),
    single_dummy: bool = typer.Option(False, "--single-dummy", help="Also judge each card from its player's view: unlucky or a mistake."),
    samples: Optional[int] = typer.Option(None, "--samples", "-n", min=1, help="With --single-dummy: deals sampled where the consistent deals are many."),
    seed: int = typer.Option(1, "--seed", help="With --single-dummy: random seed."),
    auction: Optional[str] = typer.Option(None, "--auction", "-a", help="With --single-dummy: the hand's whole auction from the record's dealer's left ('pass 4 5 pass'), read as evidence by every player (as play --auction)."),
    epsilon: Optional[float] = typer.Option(None, "--epsilon", help="With --auction: the noise floor of each call (default 0.02)."),
) -> None:
    """Replay a recorded hand with the DD value after each card; mark the mistakes; the
    contract, made or set, and each side's points."""
    from bideuchre.analysis.explain import analyse_record, record_preset, score_play
    from bideuchre.records import load_record

    with guard():
        if auction is not None and not single_dummy:
            raise BadInput("--auction goes with --single-dummy (the DD replay sees every hand)")
        if epsilon is not None and auction is None:
            raise BadInput("--epsilon goes with --auction (the noise floor of the calls read)")
        rec = load_record(record_file, index)
        p, _how = record_preset(rec, preset)
        p = preset_with_rules(p, rule)
        if auction is not None and rec.calls() and _own_auction_differs(rec, auction, p):
            heard = " ".join(f"{s.name} {c}" for s, c in rec.calls())
            err.print(f"note: the record's own auction ({heard}) is not read; --auction {auction!r} "
                      "is the one weighed", highlight=False, soft_wrap=True)
        an = analyse_record(rec)
        score, why = None, ""
        if rec.declarer is None or not rec.bid:
            why = "the record names no declarer or no bid"
        else:
            try:
                score = score_play(an, p, rec.declarer, rec.bid)
            except RulesError as exc:
                why = f"{exc} (choose --preset)"
        if single_dummy:
            from .play_cmd import replay_single_dummy
            return replay_single_dummy(rec, an, samples, seed, json_out, preset=p, score=score, why=why,
                                       auction=auction, epsilon=epsilon)
        if json_out:
            obj = an.to_json()
            obj.update({"record": rec.source, "event": rec.event, "bid": rec.bid, "preset": p.name})
            obj["contract"] = None if score is None else score.to_json()
            print_json(with_rules(obj, p))
        else:
            show_analysis(rec, an, score, p, why)


def register(app: typer.Typer) -> None:
    """Add the ``explain`` and ``replay`` commands to the app."""
    app.command("explain")(explain_command)
    app.command("replay", short_help="Replay a recorded hand with the DD value after each card; "
                "the mistakes, the contract, made or set, and each side's points.")(replay_command)


def _own_auction_differs(rec, auction: str, preset) -> bool:
    """Whether the record's own auction is not ``auction`` (the --auction text), call for call:
    the note that it is not read is worth saying.  Both are read by the auction's parser; the
    record's calls once its auction is over (a declarer naming the strain) are not calls.  An
    --auction that cannot be read or is not over needs no note (its own error comes next); a record auction
    that cannot be read under the preset differs."""
    from bideuchre.analysis.auction import Auction, format_action
    from bideuchre.errors import BidEuchreError
    if rec.deal is None:            # hidden hands: replay says so next
        return False
    try:
        given = Auction.parse(auction, preset, rec.deal.dealer)
    except BidEuchreError:
        return False
    if not given.is_over:           # "not over": its own error comes next, alone
        return False
    try:
        own = Auction(preset, rec.deal.dealer)
        for _, call in rec.calls():
            if own.is_over:
                break
            own.play(call)
    except BidEuchreError:
        return True
    return [format_action(c) for c in given.actions] != [format_action(c) for c in own.actions]
