"""The board's answers: one function per endpoint, each a JSON-ready dict computed by the
library's own functions (the page only shows them).

A request names a position by its **state**, the same keys as the page's URL query:
``preset`` (default ``standard``), ``rule`` (table options ``KEY=VALUE``, a list or one string
split on spaces, as ``--rule``), ``deck`` (a deck form overriding the preset's, as ``--deck``),
``deal`` (RULES.md §4 notation), ``dealer``, ``strain``, ``leader`` (the first leader),
``lone`` (the lone seat), ``played`` (the cards played since the first lead, in play order),
``line`` (a longer line of play the position is on: the recorded play, or the cards undone,
for redo and replay), ``declarer`` and ``bid`` (the contract, for single-dummy P(make) and
the score).  Every value is text.  The position is read as ``explain`` reads its options
(:func:`bideuchre.cli.options.make_position`), so a bad one gets the command line's message.

Work is bounded per request (:data:`LIMITS`): text fields are capped in length, single-dummy
sampling at the deck's default samples, bid advice at :data:`BID_SECONDS` of sampling; a
request past a limit raises :class:`BoardError`.
"""

from __future__ import annotations

from typing import Any

from ..notation import Deal, Position, parse_cards
from ..rules import BidEuchreError, PRESETS, RulesError, Seat, Side, get_preset, parse_seat

__all__ = ["BoardError", "LIMITS", "BID_SECONDS", "STATE_KEYS", "read_state", "text_field", "presets_json",
           "view_json", "values_json", "table_json", "replay_json", "sd_json", "review_json",
           "bid_json", "parse_json", "record_state", "export_json", "edit_json", "is_slow"]


class BoardError(BidEuchreError):
    """A board request refused: a field missing or of the wrong type, or past the limits of
    one request (:data:`LIMITS`)."""


STATE_KEYS = ("preset", "rule", "deck", "deal", "dealer", "strain", "leader", "lone", "played",
              "line", "declarer", "bid")

LIMITS = {
    "field": 2_000,         # characters of one state field (a deal, a line of play)
    "text": 200_000,        # characters of pasted or uploaded text (a record file)
    "records": 1_000,       # records in one pasted text
    "rules": 20,            # --rule items
    "sd_samples": 1_000,    # single-dummy deals per card (at most; the deck's default if fewer)
}
BID_SECONDS = 6.0           # bid advice: sampling stops after this many seconds (wall clock)


# ---------------------------------------------------------------------------------------------
# Reading a request

def text_field(body: dict, key: str, limit: int | None = None) -> str:
    """``body[key]`` as stripped text ("" when absent).  Raises BoardError for a value that is
    not text or longer than ``limit`` characters (default ``LIMITS["field"]``)."""
    value = body.get(key)
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise BoardError(f"{key}: expected text, got {type(value).__name__}")
    value = str(value)
    limit = LIMITS["field"] if limit is None else limit
    if len(value) > limit:
        raise BoardError(f"{key}: {len(value):,} characters, more than the board takes ({limit:,})")
    return value.strip()


def read_state(body: Any) -> dict:
    """The state of a request body (a JSON object): every key of :data:`STATE_KEYS` as text
    ("" when absent), ``rule`` as a list of ``KEY=VALUE`` items.  Raises BoardError for a body
    that is not an object or a field past the limits."""
    if not isinstance(body, dict):
        raise BoardError("the request body must be a JSON object")
    st = {k: text_field(body, k) for k in STATE_KEYS if k != "rule"}
    rules = body.get("rule") or []
    if isinstance(rules, str):
        rules = rules.split()
    if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
        raise BoardError("rule: expected a list of KEY=VALUE items")
    if len(rules) > LIMITS["rules"]:
        raise BoardError(f"rule: {len(rules)} items, more than the board takes ({LIMITS['rules']})")
    st["rule"] = [r.strip() for r in rules if r.strip()]
    return st


def _preset(st: dict):
    from ..cli.options import preset_with_rules
    return preset_with_rules(st["preset"] or "standard", st["rule"])


def _deal(st: dict, p) -> Deal:
    from ..cli.options import load_deal

    if not st["deal"]:
        raise BoardError("no deal: paste one (like 'N:AJ.KQ..JT ...') or a record")
    return load_deal(st["deal"], p, st["deck"] or None, st["dealer"] or None)


def _leader(st: dict, p, deal: Deal) -> str | None:
    """The first leader: the state's, else the preset's rule where it needs no declarer
    (RULES.md §2 "first lead": left of the dealer in ``standard``; the declarer's lead needs
    ``declarer``); a lone hand's is :func:`~bideuchre.analysis.lone.lone_leader`'s."""
    from ..search.solve import first_leader

    if st["leader"] or st["lone"]:
        return st["leader"] or None
    if st["declarer"]:
        return first_leader(p, parse_seat(st["declarer"]), deal.dealer).name
    if p.first_lead == "left_of_dealer":
        return first_leader(p, deal.dealer, deal.dealer).name
    raise BoardError(f"choose the first leader (preset {p.name}: the declarer leads; give the "
                     "leader or the declarer)")


def _position(st: dict, key: str = "played"):
    """(preset, deal, Position after the cards of ``st[key]``)."""
    from ..cli.options import make_position

    p = _preset(st)
    d = _deal(st, p)
    if not st["strain"]:
        raise BoardError("choose a strain")
    pos = make_position(d, p, st["strain"], _leader(st, p, d), st[key], st["lone"] or None,
                         st["dealer"] or None)
    return p, d, pos


def is_slow(st: dict) -> bool:
    """Whether the state's deal is of a deck form whose analyses take long (above 8 tricks a
    hand: double40 and double48), so the server runs them in its slow lane."""
    from ..rules import get_deck
    try:
        p = _preset(st)
        deck = get_deck(st["deck"]) if st["deck"] else p.deck
    except BidEuchreError:
        return False
    return deck.hand > 8


# ---------------------------------------------------------------------------------------------
# Answers

def presets_json() -> dict:
    """Every preset with what the page's choosers need: deck forms, strains (name and
    symbol), lone hands or not, the first-lead rule and the table options (RULES.md §2)."""
    from ..analysis.lone import lone_bids

    out = {}
    for name, p in PRESETS.items():
        out[name] = {
            "deck": p.deck.name, "decks": list(p.decks) or [p.deck.name],
            "strains": [{"name": s.name, "symbol": s.symbol} for s in p.strains],
            "lone": bool(lone_bids(p)), "first_lead": p.first_lead,
            "options": [{"key": o.key, "value": o.value, "allowed": o.allowed, "meaning": o.meaning}
                        for o in p.table_options()],
        }
    return {"presets": out, "seats": [s.name for s in Seat]}


def _hand(cards) -> list[str]:
    return [str(c) for c in cards]


def view_json(st: dict) -> dict:
    """The position to draw, no search: the deal (as dealt, per seat), the preset and deck;
    with a strain, the cards played (each with its seat, trick and the trick's winner), the
    trick on the table, tricks won per side, the seat to move, its legal cards and each seat's
    remaining cards.  ``line``: the state's line when the played cards begin it (for redo)."""
    p = _preset(st)
    d = _deal(st, p)
    obj: dict = {"deal": d.pbn(), "deck": d.deck.name, "dealer": d.dealer.name,
                 "preset": p.name, "rules": p.changed_options(), "tricks_per_hand": d.deck.hand,
                 "hands": {s.name: _hand(d.hands[s]) for s in Seat}, "strain": None}
    if not st["strain"]:
        return obj
    p, d, pos = _position(st)
    line = parse_cards(st["line"]) if st["line"] else []
    if line[:len(pos.played)] != pos.played or len(line) <= len(pos.played):
        line = list(pos.played)
    else:
        Position(d, pos.strain, pos.leader, line, pos.lone)       # the line must be legal too
    walk = Position(d, pos.strain, pos.leader, (), pos.lone)
    played = []
    for i, card in enumerate(pos.played):
        seat, trick = walk.to_move, walk.trick_number
        winner = walk.play(card)
        played.append({"card": str(card), "seat": seat.name, "trick": trick,
                       "winner": None if winner is None else winner.name})
    obj.update({
        "strain": pos.strain.name, "strain_symbol": pos.strain.symbol, "leader": pos.leader.name,
        "lone": None if pos.lone is None else pos.lone.name,
        "out": None if pos.out is None else pos.out.name,
        "played": played, "line": [str(c) for c in line],
        "trick": [{"seat": s.name, "card": str(c)} for s, c in pos.trick],
        "trick_number": pos.trick_number, "trick_size": pos.trick_size,
        "won": {"NS": pos.tricks_won[Side.NS], "EW": pos.tricks_won[Side.EW]},
        "over": pos.is_over,
        "to_move": None if pos.is_over else pos.to_move.name,
        "legal": [] if pos.is_over else _hand(pos.legal_cards()),
        "remaining": {s.name: _hand(pos.hand(s)) for s in Seat},
    })
    return obj


def values_json(st: dict, pv: bool = False) -> dict:
    """Every legal card's DD value for the seat to move (:func:`bideuchre.analysis.explain.
    explain` without the lines): ``value`` (tricks per side over the whole hand), ``cards``
    (one per group of equivalent cards, best first: ``card``, ``cards`` every card of the
    group, ``tricks`` per side, ``mine`` the mover's side's tricks, ``optimal``, ``cost`` in
    tricks); with ``pv``, the principal variation trick by trick."""
    from ..analysis.explain import explain

    _p, _d, pos = _position(st)
    ex = explain(pos, lines=False)
    obj = {"played": [str(c) for c in pos.played],
           "to_move": None if ex.to_move is None else ex.to_move.name,
           "value": {"NS": ex.value[Side.NS], "EW": ex.value[Side.EW]}, "cards": []}
    for cv in ex.cards:
        obj["cards"].append({"card": str(cv.card), "cards": [str(c) for c in cv.cards],
                             "tricks": {"NS": cv.tricks[Side.NS], "EW": cv.tricks[Side.EW]},
                             "mine": cv.tricks[ex.to_move.side], "optimal": cv.optimal,
                             "cost": cv.cost})
    if pv:
        obj["pv"] = [t.to_json() for t in ex.pv]
    return obj


def table_json(st: dict) -> dict:
    """The deal's DD table and par (:func:`bideuchre.analysis.par.par`, as ``par --json``:
    ``dd`` tricks per declarer × strain, ``par`` the contract or None, ``points``, ``auction``,
    ``best_vs_passes``)."""
    from ..analysis.par import par

    p = _preset(st)
    d = _deal(st, p)
    if st["deck"] and d.deck != p.deck:
        p = p.on_deck(d.deck)
    return par(d, p, d.dealer).to_json()


def _line_position(st: dict):
    """(preset, deal, position at the start, the line's cards): the state's line, else the
    cards played."""
    p, d, pos = _position(st)
    line = parse_cards(st["line"]) if st["line"] else list(pos.played)
    start = Position(d, pos.strain, pos.leader, (), pos.lone)
    return p, d, start, line


def replay_json(st: dict) -> dict:
    """The DD analysis of the line (:func:`bideuchre.analysis.explain.analyse_play`, as
    ``replay --json``): ``start`` and per card its ``value`` after, ``cost`` and the ``best``
    cards when it lost tricks; ``lost`` per seat; with a declarer and bid, ``contract``
    (:func:`~bideuchre.analysis.explain.score_play`) or ``no_score`` saying why not."""
    from ..analysis.explain import analyse_play, score_play

    p, d, start, line = _line_position(st)
    an = analyse_play(d, start.strain, start.leader, line, start.lone, st["declarer"] or None)
    obj = an.to_json()
    obj["contract"], obj["no_score"] = None, ""
    if st["declarer"] and st["bid"]:
        try:
            obj["contract"] = score_play(an, p, st["declarer"], st["bid"]).to_json()
        except RulesError as exc:
            obj["no_score"] = str(exc)
    else:
        obj["no_score"] = "no declarer or no bid"
    return obj


def _sd_samples(deck) -> int:
    from ..analysis.play import default_play_samples
    return min(default_play_samples(deck), LIMITS["sd_samples"])


def sd_json(st: dict, seat: str, seed: int = 1) -> dict:
    """Single-dummy advice for ``seat`` when it is to move (:func:`bideuchre.analysis.play.
    play_advice` from its view: its hand as dealt and the cards played; as ``play --json``):
    per group of cards the expected tricks of its side (± ``se``), ``p_make`` with a contract.
    ``{"seat": S, "to_move": T, "cards": []}`` when another seat is to move."""
    from ..analysis.play import play_advice

    p, d, pos = _position(st)
    me = parse_seat(seat)
    if pos.is_over or pos.to_move != me:
        return {"seat": me.name, "to_move": None if pos.is_over else pos.to_move.name, "cards": []}
    decl = st["declarer"] or None
    adv = play_advice(d.hands[me], me, pos.strain, pos.leader, decl, (st["bid"] or None) if decl else None,
                      p, pos.played, pos.lone, samples=_sd_samples(d.deck), seed=seed,
                      deck=d.deck if d.deck != p.deck else None)
    obj = adv.to_json()
    obj["samples"] = _sd_samples(d.deck)
    return obj


def review_json(st: dict, seed: int = 1) -> dict:
    """The single-dummy review of the line (:func:`bideuchre.analysis.play.review_play`, as
    ``replay --single-dummy --json``): per card ``sd`` (best cards from the player's view,
    expected ``loss`` ± ``se``, ``verdict`` mistake / unlucky) beside the DD ``steps``."""
    from ..analysis.explain import analyse_play
    from ..analysis.play import review_play

    p, d, start, line = _line_position(st)
    an = analyse_play(d, start.strain, start.leader, line, start.lone)
    rev = review_play(d, start.strain, start.leader, line, an, p, start.lone,
                      samples=_sd_samples(d.deck), seed=seed)
    obj = an.to_json()
    for step, sd in zip(obj["steps"], rev.steps):
        step["sd"] = sd.to_json()
    obj["sd_summary"] = rev.to_json()
    return obj


def bid_json(st: dict, seat: str, auction: str = "", seed: int = 1) -> dict:
    """Bid advice for ``seat``'s hand at the auction so far (:func:`bideuchre.analysis.advice.
    advise`, as ``bid --json``: each action's expected result with its standard error, the
    recommendation, the DD trick histograms), sampling adaptively for at most
    :data:`BID_SECONDS` seconds on one worker thread."""
    from ..analysis.advice import advise

    p = _preset(st)
    d = _deal(st, p)
    if len(auction) > LIMITS["field"]:
        raise BoardError(f"auction: more than {LIMITS['field']:,} characters")
    me = parse_seat(seat)
    adv = advise(list(d.hands[me]), me, d.dealer, p, auction, seed=seed, workers=1,
                 max_seconds=BID_SECONDS)
    return adv.to_json()


def parse_json(st: dict, text: str, index: int = 1) -> dict:
    """A pasted or uploaded deal or record, read as the CLI reads them, as a new state: a deal
    line (RULES.md §4, read with the state's preset and deck) gives ``deal`` (and keeps the
    rest); a record (ours or Trickster PTN, or a PBN ``[Deal "..."]`` tag: text starting with
    ``[``) gives its deal, dealer, preset, deck, strain, first leader, lone seat, declarer,
    bid and its play as ``line`` (record ``index``, 1-based).  Returns ``{"state": {...},
    "records": n, "event": ...}``."""
    from ..records import parse_text

    if len(text) > LIMITS["text"]:
        raise BoardError(f"the text holds {len(text):,} characters, more than the board takes "
                         f"({LIMITS['text']:,})")
    text = text.strip().lstrip("\ufeff")
    if not text:
        raise BoardError("nothing to read: paste a deal or a record")
    if not text.startswith("["):
        new = dict(st, deal=" ".join(text.split()), played="", line="")
        p = _preset(new)
        d = _deal(new, p)
        new["deal"] = d.pbn()
        return {"state": new, "records": 0, "event": ""}
    recs = parse_text(text, "pasted text")
    if not recs:
        raise BoardError("pasted text: no records found")
    if len(recs) > LIMITS["records"]:
        raise BoardError(f"pasted text: {len(recs):,} records, more than the board takes "
                         f"({LIMITS['records']:,})")
    if not 1 <= index <= len(recs):
        raise BoardError(f"pasted text: no record {index}; it holds {len(recs)} (1..{len(recs)})")
    rec = recs[index - 1]
    new = record_state(rec)
    if new["strain"]:
        view_json(new)              # the record's play is checked card by card
    return {"state": new, "records": len(recs), "event": rec.event}


def record_state(rec, preset=None) -> dict:
    """The state of a :class:`~bideuchre.records.HandRecord` (all four hands shown): its deal,
    dealer, strain, first leader, lone seat, declarer and bid, its play as ``line`` (none of it
    played yet), under ``preset`` or the record's own
    (:func:`~bideuchre.analysis.explain.record_preset`; a deck form other than the preset's
    as ``rule`` ``deck=...``).  Raises BoardError for a hidden hand."""
    from ..analysis.explain import record_preset

    if rec.deal is None:
        hidden = " ".join(s.name for s in rec.hidden)
        raise BoardError(f"{rec.source}: hand(s) {hidden} hidden ('-'); the board needs all four")
    p, _how = record_preset(rec, preset)
    new = {k: "" for k in STATE_KEYS}
    new.update({"preset": p.name, "rule": [f"{k}={v}" for k, v in p.changed_options().items()],
                "deal": rec.deal.pbn(), "dealer": rec.deal.dealer.name,
                "strain": "" if rec.strain is None else rec.strain.name,
                "leader": "" if rec.leader is None else rec.leader.name,
                "lone": "" if rec.lone is None else rec.lone.name,
                "declarer": "" if rec.declarer is None else rec.declarer.name,
                "bid": rec.bid or "", "line": " ".join(str(c) for c in rec.play)})
    return new


def export_json(st: dict) -> dict:
    """The position as a deal line (RULES.md §4) and as our record (the cards played as its
    play; :func:`bideuchre.records.format_record`)."""
    from ..records import HandRecord, format_record

    p = _preset(st)
    d = _deal(st, p)
    rec = HandRecord(deal=d, hands=[list(h) for h in d.hands], deck=d.deck, preset=p.name,
                     dealer=d.dealer, event="bideuchre board", deal_first=d.first)
    if st["strain"]:
        _p, _d, pos = _position(st)
        rec.strain, rec.lone, rec.leader, rec.play = pos.strain, pos.lone, pos.leader, list(pos.played)
        if st["declarer"]:
            rec.declarer = parse_seat(st["declarer"])
        rec.bid = st["bid"] or None
    return {"deal": d.pbn(), "record": format_record(rec)}


def edit_json(st: dict, hands: dict) -> dict:
    """The deal with its hands as given (``{"N": ["SA", ...], ...}``, an edit of the page: two
    cards swapped between hands), checked as a deal is (:class:`~bideuchre.notation.Deal`:
    each card at most as often as the deck holds it, hands of one size) and written in RULES.md
    §4 notation from the state's first seat.  Returns ``{"deal": text}``."""
    from ..rules import get_deck

    p = _preset(st)
    old = _deal(st, p)
    if sorted(hands) != [s.name for s in sorted(Seat, key=lambda s: s.name)]:
        raise BoardError("hands: give the four seats N E S W")
    deck = get_deck(st["deck"]) if st["deck"] else p.deck
    d = Deal([hands[s.name] for s in Seat], deck, old.dealer, first=old.first)
    return {"deal": d.pbn()}
