"""``bideuchre play`` (single-dummy advice for the player to move, from one seat's view) and the
single-dummy part of ``bideuchre replay --single-dummy``.  Thin over
:mod:`bideuchre.analysis.play`."""

from __future__ import annotations

from typing import List, Optional

from typing import TYPE_CHECKING

import typer

from bideuchre.notation import counted, format_hand
from bideuchre.rules import RulesError, Seat, Side, get_deck

from .common import BadInput, err, guard, out, print_json
from .options import parse_known, preset_with_rules, rule_option
from .views import card_text, cards_text, show_analysis, show_evidence, simple_table, trick_text, with_rules

if TYPE_CHECKING:       # NumPy, the core and rich load when a command runs (start-up stays light)
    from bideuchre.analysis.play import PlayAdvice, SDReview

# The difference between the two judgements, in one plain sentence.
SD_SENTENCE = ("Double dummy judges a card with every hand in view; single dummy judges it by "
               "what its player could see, so a card that lost tricks only because of where the "
               "unseen cards lay was unlucky, and one that gave up tricks on average over every "
               "deal the player could not rule out was a mistake.")


def register(app: typer.Typer) -> None:
    """Add the ``play`` command to the app."""
    app.command("play", short_help="Single-dummy advice: what to lead or play from one seat's view "
                "(the unseen cards dealt every consistent way, or sampled).")(play_command)



def play_command(
    hand: str = typer.Argument(..., help="The seat's cards as dealt: 'AJ.KQ..JT' or tokens 'SA SJ HK ...'."),
    seat: str = typer.Option(..., "--seat", help="The seat to advise (N E S W); it must be its turn."),
    strain: str = typer.Option(..., "--strain", "-s", help="Strain: S H D C NT NTL."),
    leader: Optional[str] = typer.Option(None, "--leader", "-l", help="Seat that led the first trick (default: the preset's rule)."),
    declarer: Optional[str] = typer.Option(None, "--declarer", help="The declarer (default: the lone seat)."),
    bid: Optional[str] = typer.Option(None, "--bid", "-b", help="The contract's bid: 3, 4, ... or a lone bid's name (12, 24, alone, ...) with --lone."),
    preset: str = typer.Option("standard", "--preset", "-p", help="Rules preset: standard pepper double32 racehorse double48."),
    dealer: Optional[str] = typer.Option(None, "--dealer", "-d", help="Dealer seat (for the default first leader in standard)."),
    played: str = typer.Option("", "--played", help="Every card played so far, in order from the first lead: 'SA SK ...' (may stop mid-trick)."),
    lone: Optional[str] = typer.Option(None, "--lone", help="Lone seat (its partner sits out)."),
    known: List[str] = typer.Option([], "--known", "-k", help="Cards known in another seat: 'E=SA HK' (E:SA HK too; repeatable)."),
    samples: Optional[int] = typer.Option(None, "--samples", "-n", min=1, help="Deals sampled when there are too many to enumerate (pimc: 1000 single24, 500 double32, 200 double40, 100 double48; alphamu: 64; hybrid: pimc's; at most 100,000 single24, 40,000 double32, 20,000 double40 and double48)."),
    seed: int = typer.Option(1, "--seed", help="Random seed (echoed; results do not depend on the workers)."),
    exact_limit: Optional[int] = typer.Option(None, "--exact-limit", min=0, help="Evaluate every consistent deal when there are at most this many (default pimc 20,000, alphamu 64, hybrid pimc's; at most as --samples)."),
    objective: str = typer.Option("score", "--objective", help="What the recommendation maximises: tricks, make (our side's chance) or score (expected hand result)."),
    workers: Optional[int] = typer.Option(None, "--workers", "-j", min=1, help="Worker threads (default: every core; results do not depend on it)."),
    method: str = typer.Option("pimc", "--method", "-m", help="pimc: each card double dummy over the deals; alphamu: one strategy of the seat kept over the deals (--depth of its cards chosen jointly); hybrid: pimc, but alphamu over every card left where the seat holds --late cards or fewer and the consistent deals are at most 64 (all of them searched)."),
    late: Optional[int] = typer.Option(None, "--late", min=1, help="With --method hybrid: the cards held from which alphamu chooses all of them jointly where the deals are few (1 to 3, default 3: the joint search grows exponentially with the cards)."),
    depth: Optional[int] = typer.Option(None, "--depth", min=1, help="With --method alphamu: the seat's cards chosen jointly, this one included (1 to 3, default 2; 1 is pimc)."),
    deck: Optional[str] = typer.Option(None, "--deck", help="Deck form, overriding the preset's: single24 double32 double40 double48."),
    auction: Optional[str] = typer.Option(None, "--auction", "-a", help="The whole auction from the dealer's left ('pass 4 5 pass'; needs --dealer): the deals (alphamu: the worlds) weighted by the bidding model's probability of every call; its contract gives --declarer and --bid."),
    epsilon: Optional[float] = typer.Option(None, "--epsilon", help="With --auction: the noise floor of each call, the share explained by a uniform choice among the legal calls (default 0.02)."),
    play_model_on: bool = typer.Option(False, "--play-model", help="Read the other seats' recent cards as evidence too: each deal weighted by the probability of their choices if they play close to double dummy (a softmax over the tricks each card gives up; each card read costs a solve of the deals at that earlier position)."),
    beta: Optional[float] = typer.Option(None, "--beta", help="With --play-model: its sharpness, per trick given up (default 4)."),
    history: Optional[int] = typer.Option(None, "--history", help="With --play-model: the other seats' most recent cards read (1 to 24, default 6)."),
    rule: List[str] = rule_option(),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """What to lead or play from one seat's view: the unseen cards are dealt every way
    consistent with what the seat has seen (or sampled), each deal is solved double dummy,
    and every legal card gets its expected tricks, P(make) and expected hand result."""
    from bideuchre.analysis.play import METHODS, OBJECTIVES, play_advice

    with guard():
        if objective not in OBJECTIVES:
            raise BadInput(f"unknown --objective {objective!r} (expected one of: {' '.join(OBJECTIVES)})")
        if method not in METHODS:
            raise BadInput(f"unknown --method {method!r} (expected one of: {' '.join(METHODS)})")
        if depth is not None and method != "alphamu":
            raise BadInput("--depth goes with --method alphamu")
        if late is not None and method != "hybrid":
            raise BadInput("--late goes with --method hybrid")
        if epsilon is not None and auction is None:
            raise BadInput("--epsilon goes with --auction (the noise floor of the calls read)")
        if epsilon is not None and not 0 <= epsilon <= 1:
            raise BadInput(f"--epsilon {epsilon}: the noise floor must be 0 to 1")
        if ":" in hand and len(hand.split()) > 1:
            raise BadInput(f"HAND {hand[:40]!r} is a deal; play takes the seat's own hand (like "
                           "'AJ.KQ..JT'); the other hands are what it cannot see (--known for cards shown)")
        if (beta is not None or history is not None) and not play_model_on:
            raise BadInput(f"{'--beta' if beta is not None else '--history'} goes with --play-model")
        pm = None
        if play_model_on:
            from bideuchre.analysis.play_model import play_model
            pm = play_model(beta, history)
        p = preset_with_rules(preset, rule)
        adv = play_advice(hand, seat, strain, leader, declarer, bid, p, played, lone, parse_known(known),
                          samples, seed, exact_limit, objective, workers, dealer,
                          get_deck(deck) if deck else None, method, depth, auction,
                          epsilon=epsilon, late=late, play_model=pm)
        if json_out:
            print_json(with_rules(adv.to_json(), p))
        else:
            show_play(adv)


def show_play(adv: PlayAdvice) -> None:
    """The advice as text: the view, then one row per choice, best first."""
    from rich.text import Text

    v = adv.view
    bits = [f"[bold]{v.seat.name}[/bold] holds {format_hand(v.own)} (dealt {format_hand(v.hand)})",
            f"strain {v.strain.symbol}"]
    if adv.bid is not None:
        bits.append(f"contract {adv.declarer.name} {adv.bid}")
    if v.lone is not None:
        bits.append(f"lone {v.lone.name}")
    bits.append(f"preset {adv.preset.name}")
    bits += [f"known {s.name}: {format_hand(cs)}" for s, cs in v.known.items()]    # as bid's
    out.print(" · ".join(bits), soft_wrap=True)
    info = f"trick {v.won[Side.NS] + v.won[Side.EW] + 1} · won NS {v.won[Side.NS]} EW {v.won[Side.EW]}"
    if v.trick:
        out.print(trick_text(v.trick, info + " · on the table: "))
    else:
        out.print(info + (" · opening lead" if not v.played else " · to lead"))
    voids = [f"{s.name} {' '.join('♠♥♦♣'[u] for u in sorted(v.voids[s]))}" for s in Seat if v.voids[s]]
    if voids:
        out.print("shown out: " + ", ".join(voids))
    from bideuchre.analysis.alphamu import DEFAULT_AM_EXACT_LIMIT

    joint = f"one strategy over them, {counted(adv.depth, 'card')} of {v.seat.name}'s chosen jointly"
    how = {"pimc": "", "alphamu": f" · alphamu: {joint}"}.get(adv.method, "")
    if adv.method == "hybrid":
        how = (f" · hybrid: pimc here (alphamu only in the endgame, over at most {DEFAULT_AM_EXACT_LIMIT} deals)"
               if adv.stage == "pimc" else
               f" · hybrid, alphamu in the endgame: {joint}")
    if adv.exact:
        out.print(f"exact: every one of the {counted(adv.consistent, 'consistent deal')}" + how)
    else:
        out.print(f"sampled: {adv.deals:,} of {counted(adv.consistent, 'consistent deal')} (seed {adv.seed})" + how)
    if adv.auction is not None:
        out.print(f"auction (dealer {adv.auction.dealer.name}): {adv.auction.text()} · the deals "
                  "weighted by the bidding model's probability of every call but "
                  f"{v.seat.name}'s", highlight=False)
        show_evidence(adv.evidence, adv.evidence.n_eff, adv.deals, adv.exact)
    if adv.play_model is not None and adv.play_model["decisions"]:     # nothing read on the opening lead
        m = adv.play_model
        out.print(f"play model: the last {counted(m['decisions'], 'card')} of the other seats read "
                  f"(beta {m['beta']:g} a trick given up) · effective deals {m['n_eff']:,.1f} of {adv.deals:,} "
                  "after every weight",
                  highlight=False)
    side = v.seat.side.name
    tab = simple_table()
    tab.add_column("card", no_wrap=True)
    tab.add_column("same as", no_wrap=True)
    tab.add_column(f"tricks {side}", justify="right", no_wrap=True)
    if not adv.exact:
        tab.add_column("± se", justify="right", no_wrap=True)
    if adv.bid is not None:
        tab.add_column("P(make)", justify="right", no_wrap=True)
        tab.add_column(f"EV {side}", justify="right", no_wrap=True)
    if not adv.exact:
        tab.add_column("±best", justify="right", no_wrap=True)
    for k, c in enumerate(adv.cards):
        mark = Text(" ◀", style="bold green") if k == 0 else Text(" ≈", style="yellow") if c.close else Text("")
        row = [card_text(c.card) + mark, cards_text(c.equivalent), f"{c.tricks:.2f}"]
        if not adv.exact:
            row.append(f"{c.se:.2f}")
        if adv.bid is not None:
            row += [f"{c.p_make:.2f}", f"{c.ev:+.2f}"]
        if not adv.exact:
            row.append("" if k == 0 else f"{c.se_vs_best:.2f}")
        tab.add_row(*row)
    out.print(tab)
    r = adv.recommend
    what = {"tricks": "expected tricks", "make": "chance to " + ("make" if adv.declarer is not None and
                                                                   adv.declarer.side == v.seat.side else "set"),
            "score": "expected hand result"}[adv.objective]
    line = f"[bold]play {r.card}[/bold] (best {what}"
    if adv.too_close:
        close = " ".join(str(c.card) for c in adv.cards[1:] if c.close)
        line += f"; too close to call against {close}: more --samples"
    out.print(line + ")")
    key = f"tricks: {side}'s over the whole hand"
    if adv.bid is not None:
        key += f"; P(make): the declaring side's; EV: {side}'s points minus the other side's"
    if not adv.exact:
        key += "; ±best: standard error of the difference to the best (≈: too close to call)"
    out.print(f"[dim]{key}[/dim]")


# ---------------------------------------------------------------------------------------------
# replay --single-dummy

def replay_single_dummy(rec, an, samples: Optional[int], seed: int, json_out: bool,
                        workers: Optional[int] = None, preset=None, score=None, why: str = "",
                        auction: Optional[str] = None, epsilon: Optional[float] = None) -> None:
    """``replay --single-dummy``: judge every card of the record from its player's view, then
    print the JSON (each step with ``"sd"``, and ``"sd_summary"``) or the text table.
    ``preset`` (the replay's preset, with its table options) scores the play; ``score`` and
    ``why`` are the contract's result as ``replay`` shows it; ``auction`` and ``epsilon``: the
    auction read as evidence and its noise floor (:func:`~bideuchre.analysis.play.review_record`)."""
    from bideuchre.analysis.play import default_play_samples, review_record

    if rec.deal is None:
        raise RulesError("cannot replay single dummy: a hand of the record is hidden")
    n = samples if samples is not None else default_play_samples(rec.deck)
    if err.is_terminal and not json_out:
        err.print(f"judging {counted(len(an.steps), 'card')} single dummy ({n} samples where the deals are many)…")
    rev = review_record(rec, an, n, seed, workers=workers, preset=preset, auction=auction, epsilon=epsilon)
    if json_out:
        obj = an.to_json()
        obj.update({"record": rec.source, "event": rec.event, "bid": rec.bid})
        if preset is not None:
            obj["preset"] = preset.name
            obj["contract"] = None if score is None else score.to_json()
            obj = with_rules(obj, preset)
        for st, sd in zip(obj["steps"], rev.steps):
            st["sd"] = sd.to_json()
        obj["sd_summary"] = rev.to_json()
        if auction is not None:
            obj["sd_auction"] = auction
        obj["sd_note"] = SD_SENTENCE
        print_json(obj)
        return
    show_single_dummy(rec, an, rev, score, preset, why, auction)


def show_single_dummy(rec, an, rev: SDReview, score=None, preset=None, why: str = "",
                      auction: Optional[str] = None) -> None:
    """The play with, per card, its DD cost and its single-dummy loss and verdict."""
    from rich.text import Text

    from bideuchre.analysis.play import DEFAULT_EXACT_LIMIT

    show_analysis(rec, an, score, preset, why)
    tab = simple_table("single dummy: each card from its player's view (expected tricks)")
    for col in ("trick", "seat", "card", "DD", "SD loss", "", "best single dummy"):
        tab.add_column(col, justify="right" if col in ("trick", "DD", "SD loss") else "left", no_wrap=col != "best single dummy")
    prev = 0
    for st, sd in zip(an.steps, rev.steps):
        verdict = Text("")
        if sd.verdict == "mistake":
            verdict = Text("mistake", style="bold red")
        elif sd.verdict == "unlucky":
            verdict = Text("unlucky", style="yellow")
        loss = "" if sd.deals == 0 else (f"{sd.loss:.2f}" + ("" if sd.exact else f"±{sd.se:.2f}"))
        tab.add_row(str(st.trick) if st.trick != prev else "", st.seat.name, card_text(st.card),
                    f"−{st.cost}" if st.cost else "", loss, verdict,
                    cards_text(sd.best) if sd.loss > 0 or sd.verdict else Text(""),
                    end_section=st.winner is not None)
        prev = st.trick
    out.print(tab)
    summ = simple_table("per seat")
    for col in ("seat", "DD lost", "unlucky", "mistakes", "SD lost"):
        summ.add_column(col, justify="left" if col == "seat" else "right")
    for s, row in rev.summary.items():
        summ.add_row(s.name, str(an.lost.get(s, 0)),
                     f"{row['unlucky']} ({row['unlucky_tricks']} DD)" if row["unlucky"] else "0",
                     str(row["mistakes"]), f"{row['sd_lost']:.2f}")
    out.print(summ)
    out.print(f"[dim]{rev.samples} samples a card where the consistent deals are more than "
              f"{DEFAULT_EXACT_LIMIT:,}, else every deal (seed {rev.seed}); SD lost: expected tricks "
              "given up against the best single-dummy card[/dim]")
    if auction is not None:
        out.print(f"[dim]each player's deals weighted by the bidding model's probability of the "
                  f"auction {auction!r} (every call but the player's own)[/dim]", highlight=False)
    out.print(SD_SENTENCE, soft_wrap=False)
