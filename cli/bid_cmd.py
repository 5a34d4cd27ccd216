"""``bideuchre par`` (all four hands known) and ``bideuchre bid`` (advice for one hand).

Thin over :mod:`bideuchre.analysis.par` and :mod:`bideuchre.analysis.advice`.
"""

from __future__ import annotations

import math
from typing import List, Optional

import typer

from bideuchre.analysis.auction import format_action
from bideuchre.notation import Deal, counted
from bideuchre.rules import NotationError, RulesError, Seat, Side, parse_seat, parse_strain, shown

from .common import BadInput, each_stdin_line, err, guard, out, print_json, refuse_file
from .options import parse_known, preset_with_rules, rule_option
from .views import compass, deal_hands, rules_text, show_evidence, simple_table, with_rules


def register(app: typer.Typer) -> None:
    """Add the ``par`` and ``bid`` commands to the app."""
    app.command("par")(par_cmd)
    app.command("bid", short_help="Bid advice for one hand: sample the unseen cards, solve each "
                "deal double-dummy, rate every legal action.")(bid_cmd)


# ---------------------------------------------------------------------------------------------
# par

def _contract_text(c) -> str:
    """A par contract: ``E 5 ♥ · 5 tricks · NS +1 · EW +5``."""
    return (f"{c.declarer.name} {c.bid.name} {c.strain.symbol} · {c.tricks} tricks · "
            f"NS {c.points[Side.NS]:+d} · EW {c.points[Side.EW]:+d}")


def par_cmd(
    deal: str = typer.Argument(..., help="Deal 'N:<hand> <hand> <hand> <hand>', or - for one deal a line on stdin."),
    preset: str = typer.Option("standard", "--preset", "-p", help="Rules preset: standard pepper double32 racehorse double48."),
    dealer: Optional[str] = typer.Option(None, "--dealer", "-d", help="Dealer seat (default: the seat before the colon)."),
    deck: Optional[str] = typer.Option(None, "--deck", help="Deck form where the preset allows another (double48: double40 double32); as --rule deck=..."),
    rule: List[str] = rule_option(),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Par: the double-dummy auction and play with all four hands known."""
    from rich.table import Table

    from bideuchre.analysis.par import par

    with guard():
        p = preset_with_rules(preset, rule, deck)
        if dealer is not None:
            parse_seat(dealer)          # a bad --dealer once, not once a line of stdin
        if deal != "-":
            refuse_file(deal, "par")
    if deal == "-":
        # one deal a line on stdin: one result a line; a bad line is reported and skipped
        def one(lineno: int, text: str) -> None:
            d = Deal.from_pbn(text, p.deck, dealer)
            res = par(d, p, d.dealer)
            if json_out:
                print_json(with_rules(res.to_json(), p))
            else:
                what = "thrown in" if res.contract is None else _contract_text(res.contract)
                out.print(f"{d.pbn()}  par: {what}", soft_wrap=True, highlight=False)

        if each_stdin_line(one, progress="par"):
            raise typer.Exit(2)
        return
    with guard():
        d = Deal.from_pbn(deal, p.deck, dealer)
        res = par(d, p, d.dealer)
        if json_out:
            print_json(with_rules(res.to_json(), p))
            return
        out.print(compass(deal_hands(d), title=d.pbn(), dealer=res.dealer))
        order = [Seat((res.dealer + 1 + i) % 4) for i in range(4)]
        line = "  ".join(f"{s.name} {format_action(a)}" for s, a in zip(order, res.auction))
        out.print(f"{rules_text(p)} · auction: {line}")
        if res.contract is None:
            out.print("[bold]par: thrown in[/bold] (all pass) · NS 0 · EW 0")
        else:
            out.print(f"[bold]par:[/bold] {_contract_text(res.contract)}")
        tab = Table(title="Best contract each seat could declare against passes")
        for col in ("seat", "bid", "strain", "tricks", "NS", "EW"):
            tab.add_column(col, justify="right" if col in ("tricks", "NS", "EW") else "left")
        for s, c in res.best_vs_passes.items():
            tab.add_row(s.name, c.bid.name, c.strain.symbol, str(c.tricks),
                        f"{c.points[Side.NS]:+d}", f"{c.points[Side.EW]:+d}")
        out.print(tab)
        out.print("tricks: the declaring side's · NS, EW: each side's points for the hand",
                  highlight=False)
        out.print(PAR_ASSUMES, style="dim", highlight=False)


PAR_ASSUMES = "par: every hand visible, the best bid and the best play by all"


# ---------------------------------------------------------------------------------------------
# bid

def bid_cmd(
    hand: Optional[str] = typer.Argument(None, help="The hand: 'AJ.KQ..JT' or card tokens 'SA SJ HK ...'."),
    seat: Optional[str] = typer.Option(None, "--seat", "-s", help="The hand's seat (N E S W)."),
    dealer: Optional[str] = typer.Option(None, "--dealer", "-d", help="Dealer seat."),
    preset: Optional[str] = typer.Option(None, "--preset", "-p", help="Rules preset (default standard, or the record's)."),
    auction: str = typer.Option("", "--auction", "-a", help="Actions so far from the dealer's left: 'pass 4'."),
    known: List[str] = typer.Option([], "--known", "-k", help="Cards known in another seat: 'E=SA HK' (E:SA HK too; repeatable)."),
    samples: Optional[int] = typer.Option(None, "--samples", "-n", help="Rate exactly N random deals (default: adaptive, until the best action is clear or a cap; at most 100,000)."),
    max_seconds: Optional[float] = typer.Option(None, "--max-seconds", help="Stop drawing deals after T seconds and rate those solved (samples done and standard errors shown)."),
    seed: int = typer.Option(1, "--seed", help="Random seed (echoed; results do not depend on the workers)."),
    deals: Optional[str] = typer.Option(None, "--deals", help="Evaluate over the full deals of this file (one a line) instead of sampling."),
    score: Optional[str] = typer.Option(None, "--score", help="Game score 'US-THEM' before this hand (with --target or the preset's)."),
    target: Optional[int] = typer.Option(None, "--target", min=1, help="Game target (default: the preset's)."),
    record: Optional[str] = typer.Option(None, "--record", help="Hand-record file (ours or Trickster .ptn) with one known hand."),
    index: Optional[int] = typer.Option(None, "--index", "-i", help="Record number in --record (1-based; default 1)."),
    workers: Optional[int] = typer.Option(None, "--workers", "-j", min=1, help="Workers: processes forked from this one, threads where fork is missing (default: every core; results do not depend on it)."),
    exact: bool = typer.Option(False, "--exact", help="Exact EVs for our lone bids even where they cannot be the best (slower)."),
    others: str = typer.Option("model", "--others", help="How the other seats bid: model (from their own hands, by the bidding model; the calls heard weight the deals) or dd (seeing every hand: the par view, uniform deals)."),
    candidates: Optional[int] = typer.Option(None, "--candidates", min=1, help="With --others model: the most uniform deals drawn to find deals that fit the calls heard (default 100 times the deals wanted)."),
    epsilon: Optional[float] = typer.Option(None, "--epsilon", help="Noise floor of the calls heard: the share of each call explained by a uniform choice among the legal calls (default 0.02)."),
    deck: Optional[str] = typer.Option(None, "--deck", help="Deck form where the preset allows another (double48: double40 double32); as --rule deck=..."),
    rule: List[str] = rule_option(),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Bid advice for one hand: sample the unseen cards, solve each deal double-dummy, and
    rate every legal action by its expected hand result.

    With --others model (the default) each deal is weighted by the bidding model's chance of
    every call heard, given the hand of the seat that made it, and the seats after us bid by
    the model from their own hands; --others dd deals uniformly and lets every other seat bid
    seeing all four hands.

    By default deals are drawn in blocks until the recommended action leads the runner-up by
    more than 3 standard errors of their paired difference, or until a cap (10,000 deals on
    single24, 4,000 double32, 1,000 double40, 500 double48); a result within one standard
    error is reported as too close to call.  --samples N rates exactly N deals."""
    with guard():
        _run_bid(hand=hand, seat=seat, dealer=dealer, preset=preset, auction=auction,
                 known=known, samples=samples, seed=seed, deals=deals, score=score,
                 target=target, record=record, index=index, workers=workers,
                 exact=exact, json_out=json_out, max_seconds=max_seconds, rule=rule, deck=deck,
                 others=others, epsilon=epsilon, candidates=candidates)


def _parse_score(text: Optional[str]) -> Optional[tuple[int, int]]:
    if text is None:
        return None
    import re
    # ASCII digits, at most 9 a score (Python refuses to convert more than 4,300 digits)
    m = re.fullmatch(r"\s*(-?[0-9]{1,9})\s*[-:/,]\s*(-?[0-9]{1,9})\s*", text)
    if not m:
        raise RulesError(f"cannot read --score {shown(text, 42)}: expected US-THEM, like 24-18 "
                         "(at most 9 digits a score)")
    return int(m.group(1)), int(m.group(2))


def _from_record(path: str, index: int, preset: Optional[str]):
    """(hand, seat, dealer, preset name, auction prefix, the record's own call) of a hand
    record with one known hand: the calls before that seat's turn are the auction so far."""
    from bideuchre.records import load_record

    rec = load_record(path, index)
    shown = [Seat(s) for s, h in enumerate(rec.hands) if h is not None]
    if len(shown) != 1:
        raise RulesError(f"{rec.source}: bid advice needs exactly one known hand; the record shows "
                         f"{len(shown)} ({' '.join(s.name for s in shown) or 'none'})")
    seat = shown[0]
    if rec.dealer is None:
        raise RulesError(f"{rec.source}: the record names no dealer")
    prefix, own = [], None
    for who, call in rec.calls():
        if who == seat:
            own = call
            break
        prefix.append(call)
    return (list(rec.hands[seat]), seat, rec.dealer, preset or rec.preset or "standard",
            prefix, own)


def _refuse_not_a_hand(text: str) -> None:
    """A HAND that is a file, a whole deal or a hand with its seat: say what bid takes."""
    import os
    if os.path.isfile(text):
        raise BadInput(f"HAND {text!r} is a file; bid takes one hand (like 'AJ.KQ..JT'), full "
                       "deals with --deals FILE or a hand record with --record FILE")
    if ":" in text and len(text.split(":", 1)[1].split()) == 1:
        raise BadInput(f"HAND {shown(text, 42)}: give the hand without its seat "
                       "(like 'AJ.KQ..JT'); --seat says whose it is")
    if ":" in text or (text.count(".") > 3 and len(text.split()) > 1):
        raise BadInput(f"HAND {shown(text, 42)} is a deal; bid takes one hand (like 'AJ.KQ..JT') "
                       "with --seat, or full deals, one a line, with --deals FILE")


def _run_bid(*, hand, seat, dealer, preset, auction, known, samples, seed, deals, score, target,
             record, index, workers, exact=False, json_out, max_seconds=None, rule=(), deck=None,
             others="model", epsilon=None, candidates=None) -> None:
    from bideuchre.analysis.advice import MAX_SAMPLES, advise, default_samples
    from bideuchre.analysis.advice.advise import MAX_SECONDS
    from bideuchre.rules import check_seed
    from bideuchre.notation import parse_hand

    from .common import source_name
    from bideuchre.textio import checked_lines

    own_call = None
    if index is not None and record is None:
        raise RulesError(f"--index {index} goes with --record FILE (the record number in it)")
    if record is not None:
        if hand is not None:
            raise RulesError("give either a HAND or --record, not both")
        cards, st, dl, preset_name, prefix, own_call = _from_record(record, 1 if index is None else index, preset)
        seat_v, dealer_v = parse_seat(seat) if seat else st, parse_seat(dealer) if dealer else dl
        if seat_v != st:
            raise RulesError(f"--seat {seat_v.name} is not the record's known hand ({st.name})")
        auction_v = auction or " ".join(prefix)
    else:
        if hand is None:
            raise RulesError("give a HAND (like 'AJ.KQ..JT' or 'SA SJ HK') or --record FILE")
        _refuse_not_a_hand(hand)
        if seat is None or dealer is None:
            raise RulesError("--seat and --dealer are needed with a HAND")
        cards, seat_v, dealer_v, preset_name, auction_v = parse_hand(hand, where="HAND"), parse_seat(seat), parse_seat(dealer), preset or "standard", auction
    p = preset_with_rules(preset_name, rule, deck, target=target)
    check_seed(seed, "--seed")      # named as the option (the library says "seed")
    if others not in ("model", "dd"):
        raise BadInput(f"--others {shown(others, 20)}: expected model (the other seats bid from "
                       "their own hands) or dd (they see every hand)")
    if epsilon is not None and not 0 <= epsilon <= 1:
        raise BadInput(f"--epsilon {epsilon}: the noise floor must be 0 to 1")
    if samples is not None and not 1 <= samples <= MAX_SAMPLES:
        raise BadInput(f"--samples {samples}: must be 1 to {MAX_SAMPLES:,} (the most deals one advice rates)")
    if max_seconds is not None and not 0 < max_seconds <= MAX_SECONDS:
        raise BadInput(f"--max-seconds {max_seconds}: must be more than 0 and at most {MAX_SECONDS:,}")
    deal_list = labels = None
    if deals is not None:
        deal_list, labels = [], []
        for lineno, text in checked_lines(deals, source_name(deals)):
            if len(deal_list) == MAX_SAMPLES:
                raise BadInput(f"{source_name(deals)}: more than {MAX_SAMPLES:,} deals (the most "
                               "deals one advice rates)")
            where = f"{source_name(deals)}: line {lineno}"
            try:
                deal_list.append(Deal.from_pbn(text, p.deck, dealer_v))
            except NotationError as exc:
                raise NotationError(f"{where}: {exc}") from None
            labels.append(where)
    known_map = parse_known(known, read=True)
    total_hint = (len(deal_list) if deal_list is not None else
                  samples if samples is not None else default_samples(p))
    bar = progress_cb = None
    if (total_hint >= 200 or p.deck.hand > 8) and err.is_terminal:  # a long run: a progress bar on stderr
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
        what = ("solving deals" if samples is not None or deal_list is not None
                else "solving deals (until clear)")
        bar = Progress(TextColumn(what), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                       TimeElapsedColumn(), console=err, transient=True)
        task = bar.add_task("deals", total=total_hint)

        def progress_cb(done, total):
            bar.update(task, completed=done, total=total)
        bar.start()
    try:
        adv = advise(cards, seat_v, dealer_v, p, auction_v, known_map, samples, seed, deal_list,
                     _parse_score(score), target, workers, exact=exact, progress=progress_cb,
                     deal_labels=labels, max_seconds=max_seconds, others=others,
                     candidates=candidates, processes=True,
                     **({} if epsilon is None else {"epsilon": epsilon}))
    finally:
        if bar is not None:
            bar.stop()
    if json_out:
        obj = with_rules(adv.to_json(), p)
        if own_call is not None:
            obj["record_call"] = own_call
        print_json(obj)
        return
    _show_advice(adv, own_call, None if deals is None else source_name(deals))


_BARS = " ▁▂▃▄▅▆▇█"


def _ev_text(r) -> str:
    """An action's EV: ``+1.50``, or a range ``-5.40…-2.90`` where it was not counted exactly
    (one value when both ends round alike)."""
    lo = f"{r.ev:+.2f}"
    if r.exact or r.ev_max is None:
        return lo
    hi = f"{r.ev_max:+.2f}"
    return lo if hi == lo else f"{lo}…{hi}"


def _symbol(strain: Optional[str]) -> str:
    """A strain as the tables draw it (♠ ♥ ♦ ♣ NT NT↓); empty for none."""
    return parse_strain(strain).symbol if strain else ""


def _spark(hist: list) -> str:
    top = max(hist) or 1
    return "".join(_BARS[round(8 * h / top)] for h in hist)


def _shown_levels(stats: list, levels: list, most: int = 8) -> list:
    """The number-bid levels k that get a P≥k column: all of them when there are at most
    ``most`` (every preset but double48, whose 12 levels do not fit 80 columns); else ``most``
    levels in a row around those where some strain is neither sure (1.00) nor hopeless (0.00),
    the highest of them when they span more (the bidding is decided at the top); with no such
    level, around the first level some strain is not sure of."""
    if len(levels) <= most:
        return levels
    open_ = [i for i, k in enumerate(levels) if any(0.005 <= s.p_at_least[k] < 0.995 for s in stats)]
    if open_:
        i, j = open_[0], open_[-1]
    else:
        sure = [i for i, k in enumerate(levels) if any(s.p_at_least[k] >= 0.995 for s in stats)]
        i = j = min(sure[-1] + 1, len(levels) - 1) if sure else 0
    while j - i + 1 < most:             # room left: widen, upward first
        if j < len(levels) - 1:
            j += 1
        if j - i + 1 < most and i > 0:
            i -= 1
    return levels[max(i, j - most + 1):j + 1]


def _stop_text(adv) -> str:
    """How sampling ended (empty for exactly the deals asked for or given)."""
    if adv.stopped == "clear":
        return f"; sampling stopped at {adv.samples:,} deals: clear (over 3 standard errors)"
    if adv.stopped == "cap":
        return f"; sampling stopped at the cap of {adv.cap:,} deals"
    if adv.stopped == "time":
        return f"; sampling stopped at --max-seconds {adv.max_seconds:g} after {adv.samples:,} deals"
    if adv.stopped == "budget":
        return (f"; sampling stopped at {adv.samples:,} deals: the candidate budget was spent "
                "(few deals fit the calls heard)")
    return ""


def _show_advice(adv, own_call: Optional[str], deals_from: Optional[str] = None) -> None:
    """The advice as text; ``deals_from`` names the --deals file the deals came from."""
    from bideuchre.analysis.advice import action_label
    from bideuchre.analysis.advice.results import small
    from bideuchre.notation import format_hand

    p = adv.preset
    order = [Seat((adv.dealer + 1 + i) % 4) for i in range(4)]
    so_far = "  ".join(f"{s.name} {format_action(a)}" for s, a in zip(order, adv.auction)) or "none"
    src = (f"seed {adv.seed}, {adv.samples:,} random deals" if adv.seed is not None
           else counted(adv.samples, "given deal"))
    out.print(f"[bold]{adv.seat.name}[/bold] holds {format_hand(adv.hand)} · dealer {adv.dealer.name} · "
              f"preset {p.name}")
    known = "".join(f" · known {s.name}: {format_hand(c)}" for s, c in adv.known.items())
    out.print(f"bids so far: {so_far}{known} · {src}")
    show_evidence(adv.evidence, adv.n_eff, adv.samples)
    n = p.tricks
    # simple boxes and short headers: both tables fit 80 columns with every preset
    tab = simple_table(f"DD tricks with {adv.seat.name} declaring (histogram 0..{n})")
    tab.add_column("")
    tab.add_column(f"0..{n}", no_wrap=True, min_width=n + 1)
    tab.add_column("mean", justify="right")
    all_levels = sorted(next(iter(adv.strains.values())).p_at_least)
    levels = _shown_levels(list(adv.strains.values()), all_levels)
    for k in levels:
        tab.add_column(f"P≥{k}", justify="right")
    if levels != all_levels:
        tab.caption = (f"P≥k for k = {levels[0]}..{levels[-1]} of {all_levels[0]}..{all_levels[-1]} "
                       "(--json has every level)")
    lone_names = list(next(iter(adv.strains.values())).p_all_alone)
    for nm in lone_names:
        tab.add_column(f"all\n{nm}", justify="right", min_width=len(nm))
    for st, s in adv.strains.items():
        tab.add_row(st.symbol, _spark(s.tricks_hist), f"{s.mean:.2f}",
                    *(f"{s.p_at_least[k]:.2f}" for k in levels),
                    *(f"{s.p_all_alone[nm]:.2f}" for nm in lone_names))
    out.print(tab)
    out.print("P≥k: chance of k tricks or more" + (" · all X: chance lone X takes every trick"
                                                   if lone_names else ""), highlight=False)
    # the key on a line of its own: as a title it would be folded into the table's width
    rest = ("the later seats bidding by the model from their own hands"
            if adv.others == "model" else "the rest of the auction double-dummy")
    out.print(f"[bold]Actions[/bold]: expected hand result (our points − theirs), {rest}; "
              "±best: standard error of the difference to the best")
    act = simple_table()
    # where the strain is named with the bid (double32, double48) the action carries it
    # ("8♠", "two-card ♣"): no strain column to say it twice
    named_with = adv.preset.strain_named == "with"
    cols = ("action", "EV", "± se", "±best", "P(make)", "P(decl)") if named_with else \
        ("action", "strain", "EV", "± se", "±best", "P(make)", "P(decl)")
    for col in cols:
        act.add_column(col, justify="left" if col in ("action", "strain") else "right",
                       no_wrap=True)
    with_win = adv.score is not None and adv.best_for_game is not None
    if with_win:
        act.add_column("P(win)", justify="right", no_wrap=True)
    for r in adv.actions:
        mark = " ◀" if r is adv.recommend else ""
        lead = [action_label(r) + mark] if named_with else [r.action + mark, _symbol(r.strain)]
        row = [*lead, _ev_text(r), f"{r.se:.2f}", f"{r.se_vs_best:.2f}",
               "" if r.p_make is None else f"{r.p_make:.2f}", f"{r.p_declare:.2f}"]
        if with_win:
            row.append(f"{r.p_win:.3f}")
        act.add_row(*row)
    out.print(act)
    ranged = any(_ev_text(r) != f"{r.ev:+.2f}" for r in adv.actions)
    out.print("± se: standard error of the EV · P(make): our contract makes if it stands · "
              "P(decl): our bid wins the auction" + (
                  " · two EVs: the bounds of a lone bid not counted exactly, as it cannot be best (--exact "
                  "counts it)" if ranged else "") + (
                  (" · P(win): we win the game (the hands to come by a game model)"
                   if adv.game_model else " · P(win): we win the game this hand")
                  if with_win else ""), highlight=False)
    rec = adv.recommend
    # named as the messages below name actions ("4♣", "5NT", "24 ♥"): the strain once
    out.print(f"[bold]recommend: {action_label(rec)}[/bold] (EV {rec.ev:+.2f} ± {rec.se:.2f})")
    if adv.close:
        out.print(f"[bold yellow]{adv.close_text()}[/bold yellow]{_stop_text(adv)}")
    elif adv.runner_up is not None and not math.isfinite(adv.difference_se):
        out.print(f"ahead of {action_label(adv.runner_up)} by {small(adv.difference)} on the one "
                  f"deal rated (one deal gives no standard error){_stop_text(adv)}")
    elif adv.runner_up is not None:
        out.print(f"ahead of {action_label(adv.runner_up)} by {small(adv.difference)} ± "
                  f"{small(adv.difference_se)} per hand{_stop_text(adv)}")
    elif adv.stopped != "samples" and adv.stopped != "deals":
        out.print(f"every other action has the same result on every deal{_stop_text(adv)}")
    if adv.same_as_recommend and adv.runner_up is not None:
        names = [action_label(a) for a in adv.same_as_recommend]
        shown = ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
        out.print(f"[dim]the same result on every deal: {shown} (the runner-up is the best "
                  f"action that differs)[/dim]", highlight=False)
    if with_win:
        g = adv.best_for_game
        tag = " [yellow](differs)[/yellow]" if g.action != rec.action else ""
        out.print(f"best for the game ({adv.score[0]}-{adv.score[1]} to {adv.target}): "
                  f"{g.action}{tag}, P(win" + (")" if adv.game_model else " this hand)")
                  + f" {g.p_win:.3f}")
    if own_call is not None:
        out.print(f"the record's call: {own_call}")
    for note in adv.notes:
        out.print(f"[dim]note: {note}[/dim]")
    if deals_from is not None:
        what = f"given: the {counted(adv.samples, 'full deal')} of {deals_from}"
    else:
        what = "sampled: random deals of the unseen cards"
    if adv.others == "model":
        heard = deals_from is None and adv.evidence is not None and adv.evidence.calls
        out.print(f"{what}{' weighted by the calls heard' if heard else ''}; the later seats "
                  "bid by the model, each contract played double dummy", style="dim", highlight=False)
    else:
        out.print(f"{what}, each bid and played double dummy (every hand visible)", style="dim",
                  highlight=False)
