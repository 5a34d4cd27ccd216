"""Options the commands share, read the same way everywhere: ``--rule`` (table options),
the deal and position options of ``solve`` and ``explain`` (:func:`load_deal`,
:func:`make_position`; ``explain``'s and ``board``'s declared once, :func:`position_option`)
and ``--known`` (:func:`parse_known`)."""

from __future__ import annotations

from typing import Iterable, Optional

import typer

from bideuchre.notation import Deal, Position, parse_cards, parse_hand
from bideuchre.rules import (IllegalPlayError, RulesError, Seat, get_deck, get_preset, parse_rules,
                             parse_seat, parse_strain)

from .common import BadInput, err


# ---------------------------------------------------------------------------------------------
# Table options: --rule KEY=VALUE (RULES.md §2), parsed here for every command

RULE_HELP = ("Table option KEY=VALUE, repeatable: stick=true min_bid=4 target=42 penalty=6 "
             "lone_12=18 deck=double40 lone_exchange=2 ('bideuchre rules PRESET' lists each "
             "preset's options and values).")


def rule_option():
    """The repeatable ``--rule KEY=VALUE`` option, one line in a command's signature:
    ``rule: List[str] = rule_option()``; read it with :func:`preset_with_rules`."""
    return typer.Option([], "--rule", metavar="KEY=VALUE", help=RULE_HELP)


def preset_with_rules(preset, rules: Iterable[str] = (), deck: str | None = None, **options):
    """The preset (a name or a Preset) with the ``--rule`` options applied; ``deck`` (a
    command's ``--deck``) is read as ``--rule deck=...``.  ``options``: a command's own options
    that name a table option too (bid's ``target=``, which the command applies itself): one
    that a --rule also sets must agree with it.  Raises RulesError (a malformed item, a bad
    key or value, naming the allowed values) or BadInput (an option and a --rule that
    disagree: ``--deck`` and ``--rule deck``, ``--target`` and ``--rule target``)."""
    p = get_preset(preset)
    changes = parse_rules(rules)
    for key, value in (("deck", deck), *options.items()):
        if value is not None and key in changes and \
                _option_value(p, key, changes[key]) != _option_value(p, key, value):
            raise BadInput(f"--{key} {value} and --rule {key}={changes[key]} disagree")
    if deck is not None:
        changes["deck"] = deck
    return p.with_options(**changes) if changes else p


def _option_value(preset, key: str, value):
    """The value table option ``key`` takes when set to ``value`` (text or not)."""
    return {o.key: o.value for o in preset.with_options(**{key: value}).table_options()}[key]


# ---------------------------------------------------------------------------------------------
# A deal and a position (solve, explain)

def load_deal(text: str, preset, deck: Optional[str], dealer: Optional[str]) -> Deal:
    """The deal of a DEAL argument or stdin line: ``deck`` (``--deck``) or the preset's deck
    form, ``dealer`` (``--dealer``) or the seat before the colon.  Raises NotationError."""
    return Deal.from_pbn(text, get_deck(deck) if deck else preset.deck, dealer)


def position_options(preset, strain: str, leader: Optional[str], played: str,
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


def make_position(deal: Deal, preset, strain: str, leader: Optional[str], played: str,
                   lone: Optional[str], dealer: Optional[str] = None) -> Position:
    """One position.  With ``lone`` the lone seat's partner sits out; the first leader
    defaults to the preset's rule (the lone player, or in ``standard`` left of the dealer),
    and a lead falling on the empty seat passes to the next seat (RULES.md §1, §2)."""
    from bideuchre.analysis.lone import lone_leader

    st, lone_seat, lead, cards = position_options(preset, strain, leader, played, lone)
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


# ---------------------------------------------------------------------------------------------
# The position options of explain (board takes the same): name -> (default, flags, help)

POSITION_OPTIONS = {
    "strain": (None, ("--strain", "-s"), "Strain: S H D C NT NTL"),
    "leader": (None, ("--leader", "-l"), "Seat leading the first trick"),
    "played": ("", ("--played",), "Cards played since the first lead, in play order: 'SA SK ...'"),
    "lone": (None, ("--lone",), "Lone seat (partner sits out)"),
    "preset": ("standard", ("--preset", "-p"), "Rules preset: standard pepper double32 racehorse double48"),
    "dealer": (None, ("--dealer", "-d"), "Dealer seat (default: the seat before the colon)"),
    "deck": (None, ("--deck",), "Deck form, overriding the preset's: single24 double32 double40 double48"),
    "record": (None, ("--record",), "Open a hand record instead (ours or Trickster PTN): its deal, strain and play"),
    "index": (1, ("--index", "-i"), "With --record: which record of the file (1-based)"),
    "trick": (None, ("--trick", "-t"), "With --record: the position before this trick (default: after the recorded play)"),
}


def position_option(name: str, more: str = ""):
    """``explain``'s option ``name`` (:data:`POSITION_OPTIONS`), one line in a command's
    signature: ``strain: Optional[str] = position_option("strain")``; ``more`` is added to its
    help (what it means to that command)."""
    default, flags, text = POSITION_OPTIONS[name]
    return typer.Option(default, *flags, help=f"{text}{more}.")


# ---------------------------------------------------------------------------------------------
# --known SEAT=CARDS (play, bid)

def parse_known(items: Iterable[str], like: str = "E=SA HK", read: bool = False) -> dict:
    """``--known`` items (``E=SA HK`` or ``E:SA HK``, repeatable; a seat given twice gathers its
    cards) → ``{Seat: cards}``.  The seat ends at the first ``=`` or ``:``.  ``read``: each item's
    cards read here (a list of cards, :func:`~bideuchre.notation.parse_hand`, errors naming
    ``--known SEAT``); else their text joined by spaces (the library reads it).  Raises
    BadInput for an item with no separator (quoting ``like`` as the example), NotationError for
    an unknown seat or card."""
    known: dict = {}
    for item in items:
        cut = min((i for i in (item.find("="), item.find(":")) if i >= 0), default=-1)
        if cut < 0:
            first, second = ("=", ":") if "=" in like else (":", "=")
            raise BadInput(f"cannot read --known {item!r}: expected SEAT{first}CARDS or "
                           f"SEAT{second}CARDS, like {like!r}")
        s, cs = item[:cut], item[cut + 1:]
        seat = parse_seat(s)
        known.setdefault(seat, []).extend(parse_hand(cs, where=f"--known {s}") if read else [cs])
    return known if read else {s: " ".join(v) for s, v in known.items()}
