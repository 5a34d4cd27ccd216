"""The presets of RULES.md §2 as data (:data:`PRESETS`): one :class:`Preset` per rule text, its
lone bids (:class:`LoneBid`) and its table options (:class:`TableOption`: every number of a
preset is a table option with the preset's value as default), and the text form of table options: :func:`parse_rules` reads
``--rule KEY=VALUE`` items, :func:`format_rules` writes changed options back."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Iterable

from .cards import DECKS, DeckForm, Strain, get_deck, parse_strain
from .errors import RulesError
from .inputs import shown, whole_number

__all__ = ["LoneBid", "Preset", "PRESETS", "TableOption", "get_preset", "parse_rules", "format_rules"]


# ---------------------------------------------------------------------------------------------
# Presets (RULES.md §2): every number is a table option with the preset's value as default

@dataclass(frozen=True)
class LoneBid:
    """A lone bid: its name, its rung (higher beats lower), the exchange, and its value.

    ``give``: cards the partner gives the bidder; ``discard``: cards the bidder lays out.
    ``blind``: both choose before seeing the other's cards.  ``value`` in points (made: +value,
    failed: -value).  ``ends_auction``: nothing may be bid after it (the moonshot).
    """

    name: str
    give: int = 0
    discard: int = 0
    value: int = 12
    blind: bool = False
    ends_auction: bool = False
    strain_named: str = "after"

    def __post_init__(self) -> None:
        """Check the fields' types and ranges; raise RulesError naming the field."""
        for name, ok in (("name", isinstance(self.name, str) and self.name.strip() != ""),
                         ("give", whole_number(self.give) is not None and 0 <= self.give <= 12),
                         ("discard", whole_number(self.discard) is not None and 0 <= self.discard <= 12),
                         ("value", whole_number(self.value) is not None and 0 <= self.value <= 10 ** 6),
                         ("blind", isinstance(self.blind, bool)),
                         ("ends_auction", isinstance(self.ends_auction, bool)),
                         ("strain_named", self.strain_named in ("after", "with"))):
            if not ok:
                raise RulesError(f"lone bid {shown(self.name, 30)}: bad {name} "
                                 f"{shown(getattr(self, name))}")


@dataclass(frozen=True)
class Preset:
    """One table's rules (RULES.md §2, one preset per rule text).

    Fields: ``rule_text`` (the id of the rule text the preset is read from: ``"000"`` for
    standard ... ``"004"`` for double48), ``deck`` (DeckForm), ``strains`` (allowed), ``min_bid``/``max_bid`` (number bids in
    tricks; ``max_bid`` None means all tricks), ``strain_named`` (``"after"`` the auction or
    ``"with"`` the bid), ``lone_bids`` (low → high, all above every number bid),
    ``dealer_must_bid`` (if the first three pass the dealer must bid ≥ min), ``dealer_may_equal``
    (racehorse), ``stick`` (the standard option), ``first_lead`` (``"declarer"`` or
    ``"left_of_dealer"``), ``set_penalty`` (``None``: the bid; an int: flat), ``defenders_vs_lone``
    (``"tricks"`` or ``"nothing"``), ``target`` (points) or ``hands`` (a fixed number of hands),
    ``win_needs_bid_result`` (the game can only be won on a hand the side made or set a bid),
    ``bidders_win_ties`` (pepper: both cross on one hand, the bidding side wins), ``decks``
    (the deck forms the table may choose, when it has a choice: ``double48``'s double48,
    double40 and double32), ``lone_option`` (the table may add a lone bid with a blind exchange:
    ``double48``), ``lone_exchange`` (that bid's k cards each way, None while off) and
    ``lone_value`` (its points, won or lost; None: 2 × tricks, a decision of RULES.md §2).

    ``lone_bids`` always holds every lone bid of the preset: with ``lone_exchange`` set it ends
    with the option's bid ``lone-k`` (made here from the three fields, so that it follows the
    deck's tricks), which is how the auction, par, advice and the lone table read it.

    The **table options** (RULES.md §2: "every number above ... is a table option with the
    preset's value as default") are read by :meth:`options` and changed by
    :meth:`with_options`; :meth:`table_options` lists them with their allowed values.
    """

    name: str
    rule_text: str
    deck: DeckForm
    strains: tuple[Strain, ...]
    min_bid: int = 3
    max_bid: int | None = None
    strain_named: str = "after"
    lone_bids: tuple[LoneBid, ...] = ()
    dealer_must_bid: bool = False
    dealer_may_equal: bool = False
    stick: bool = False
    first_lead: str = "declarer"
    set_penalty: int | None = None
    defenders_vs_lone: str = "tricks"
    target: int | None = 32
    hands: int | None = None
    win_needs_bid_result: bool = False
    bidders_win_ties: bool = False
    decks: tuple[str, ...] = ()
    lone_option: bool = False
    lone_exchange: int | None = None
    lone_value: int | None = None

    @property
    def tricks(self) -> int:
        """Tricks per hand."""
        return self.deck.hand

    @property
    def top_bid(self) -> int:
        """The highest number bid, in tricks."""
        return self.max_bid if self.max_bid is not None else self.tricks

    def __post_init__(self) -> None:
        """Check every table option's type and range (RULES.md §2); raise RulesError naming
        the option and the value."""
        def bad(name: str, want: str) -> RulesError:
            return RulesError(f"preset {shown(self.name, 30)}: option {name}={shown(getattr(self, name))} "
                              f"(expected {want})")

        def whole(name: str, lo: int, hi: int | None = None, none: bool = False) -> None:
            v = getattr(self, name)
            if v is None and none:
                return
            if whole_number(v) is None or v < lo or (hi is not None and v > hi):
                raise bad(name, f"a whole number {lo}..{hi if hi is not None else ''}"
                          + (" or None" if none else ""))

        if not isinstance(self.name, str):
            raise bad("name", "a string")
        if not isinstance(self.deck, DeckForm):
            raise bad("deck", "a DeckForm, like DECKS['single24']")
        if (not isinstance(self.strains, tuple) or not self.strains
                or not all(isinstance(s, Strain) for s in self.strains)
                or len(set(self.strains)) != len(self.strains)):
            raise bad("strains", "a tuple of distinct Strain values")
        whole("min_bid", 1, self.deck.hand)
        whole("max_bid", self.min_bid, self.deck.hand, none=True)
        whole("set_penalty", 0, None, none=True)
        whole("target", 1, None, none=True)
        whole("hands", 1, None, none=True)
        for name, allowed in (("strain_named", ("after", "with")),
                              ("first_lead", ("declarer", "left_of_dealer")),
                              ("defenders_vs_lone", ("tricks", "nothing"))):
            if getattr(self, name) not in allowed:
                raise bad(name, " or ".join(repr(a) for a in allowed))
        for name in ("dealer_must_bid", "dealer_may_equal", "stick", "win_needs_bid_result",
                     "bidders_win_ties", "lone_option"):
            if not isinstance(getattr(self, name), bool):
                raise bad(name, "True or False")
        if (not isinstance(self.lone_bids, tuple)
                or not all(isinstance(b, LoneBid) for b in self.lone_bids)):
            raise bad("lone_bids", "a tuple of LoneBid")
        whole("lone_exchange", 0, self.deck.hand, none=True)
        whole("lone_value", 1, None, none=True)
        # the option's lone bid is made from the fields (it follows the deck's tricks)
        bids = tuple(b for b in self.lone_bids if not _is_option_bid(b))
        k = self.lone_exchange
        if k is not None:
            bids += (LoneBid(f"lone-{k}", give=k, discard=k, blind=True,
                             value=self.lone_value or 2 * self.deck.hand),)
        object.__setattr__(self, "lone_bids", bids)

    # -- table options (RULES.md §2) ---------------------------------------------------------

    def table_options(self) -> list["TableOption"]:
        """This preset's table options, in a fixed order, each with its value, the values it
        allows and what it changes (RULES.md §2).  Which options a preset has:

        - every preset: ``stick``, ``min_bid``, ``penalty``;
        - ``target`` where a score ends the game, ``hands`` where a number of hands does
          (``double32``: 10, the long game 15);
        - one ``lone_<bid>`` per lone bid of the preset (its value in points, won or lost):
          ``lone_12``, ``lone_24`` (standard), ``lone_alone`` (pepper), ``lone_two_card``,
          ``lone_one_card``, ``lone_moonshot`` (double32);
        - ``double48``: ``deck`` (double48, double40, double32), ``lone_exchange`` (off, or a lone
          bid with a blind exchange of k cards each way) and ``lone_value`` (its points; default
          2 × tricks, a decision of RULES.md §2).
        """
        top = self.top_bid
        opts = []
        if self.decks:
            opts.append(TableOption("deck", self.deck.name, " ".join(self.decks), "deck form (RULES.md §1)"))
        opts += [
            TableOption("stick", self.dealer_must_bid or self.stick, "true false",
                        "first three pass: the dealer must bid"),
            TableOption("min_bid", self.min_bid, f"1..{top}", "lowest number bid (tricks)"),
            TableOption("penalty", "bid" if self.set_penalty is None else self.set_penalty,
                        "bid, or points 0..999999999", "a set side loses its bid, or that many points"),
        ]
        if self.target is not None:
            opts.append(TableOption("target", self.target, "points 1..999999999", "score that wins the game"))
        if self.hands is not None:
            opts.append(TableOption("hands", self.hands, "1..999999999", "hands in a game"))
        for b in self.lone_bids:
            if not _is_option_bid(b):
                opts.append(TableOption(_lone_key(b.name), b.value, "points 1..999999999",
                                        f"lone bid {b.name}: points, won or lost"))
        if self.lone_option:
            k = self.lone_exchange
            opts.append(TableOption("lone_exchange", "off" if k is None else k, f"off, or 0..{self.tricks}",
                                    "adds lone bid lone-k: k cards blind each way"))
            v = self.lone_value
            opts.append(TableOption("lone_value", "2x" if v is None else v, "2x, or points 1..999999999",
                                    "its points, won or lost (2x: 2 × tricks)"))
        return opts

    def options(self) -> dict:
        """``{key: value}`` of the table options (JSON values: ``true``, ``4``, ``"bid"``,
        ``"double40"``, ``"off"``)."""
        return {o.key: o.value for o in self.table_options()}

    def changed_options(self) -> dict:
        """The table options whose value differs from the named preset's (``{}`` for a preset
        as defined, or one not in :data:`PRESETS`): what JSON output echoes as ``"rules"``."""
        base = PRESETS.get(self.name)
        if base is None:
            return {}
        ref = base.options()
        return {k: v for k, v in self.options().items() if ref.get(k) != v}

    def on_deck(self, deck: "DeckForm | str") -> "Preset":
        """The preset over another deck form: its ``deck`` table option where it has one
        (double48's double40 and double32, RULES.md §2, via :meth:`with_options`), else the
        preset's strains, bids and scoring over positions of that deck (as ``solve --deck`` and
        ``play --deck`` read them).  Raises RulesError for an unknown deck form."""
        deck = get_deck(deck)
        if deck == self.deck:
            return self
        if deck.name in self.decks:
            return self.with_options(deck=deck.name)
        return replace(self, deck=deck)

    def with_options(self, **changes) -> "Preset":
        """A copy with some table options changed: ``preset.with_options(target=42)``,
        ``with_options(stick="true", min_bid="4", deck="double40", lone_exchange=2)``.

        Keys are those of :meth:`table_options` (``-`` and ``_`` alike); values may be given as
        text (``"true"``, ``"4"``, ``"bid"``, ``"off"``) or as Python values.  ``set_penalty`` is
        read as ``penalty``; any other field of the dataclass (``dealer_may_equal``, ``lone_option``)
        is replaced as given.  The lone bid of the ``double48`` option is kept in ``lone_bids``
        (so the auction and scoring see it) and follows the deck's tricks.

        Raises RulesError naming the key and the allowed values for an option this preset does
        not have or a value out of range (RULES.md §2).
        """
        keys = [o.key for o in self.table_options()]
        opts: dict = {}
        raw: dict = {}
        for key, value in changes.items():
            k = str(key).strip().lower().replace("-", "_")
            if k == "set_penalty":
                k, value = "penalty", ("bid" if value is None else value)
            if k in keys:
                opts[k] = value
            elif k in _OPTION_KEYS or k.startswith("lone_"):
                raise RulesError(f"table option {k!r}: {self._missing(k)} (options of preset "
                                 f"{self.name!r}: {' '.join(keys)}; RULES.md §2)")
            elif k in _FIELDS and k not in ("name", "rule_text"):
                raw[k] = value
            else:
                raise RulesError(f"unknown table option {key!r} (options of preset {self.name!r}: "
                                 f"{' '.join(keys)})")
        p = replace(self, **raw) if raw else self
        return p._apply_options(opts)

    def _missing(self, key: str) -> str:
        """Why this preset has no option ``key``, in words."""
        if key == "deck":
            return (f"preset {self.name!r} is played with {self.deck.name} only; the deck is a "
                    "table option of double48 (double48 double40 double32)")
        if key == "target" and self.hands is not None:
            return f"preset {self.name!r} is played over {self.hands} hands, not to a target: use hands"
        if key == "hands" and self.target is not None:
            return f"preset {self.name!r} is played to a target score, not over a number of hands: use target"
        if key in ("lone_exchange", "lone_value"):
            return "the lone exchange is a table option of double48"
        names = " ".join(b.name for b in self.lone_bids if not _is_option_bid(b))
        return f"preset {self.name!r} has no such lone bid ({'lone bids: ' + names if names else 'no lone bids'})"

    def _apply_options(self, opts: dict) -> "Preset":
        allowed = {o.key: o.allowed for o in self.table_options()}
        ch: dict = {}

        def bad(key, value, why=""):
            return RulesError(f"table option {key}={value!r}: {why or 'allowed: ' + allowed[key]} "
                              f"(preset {self.name!r}, RULES.md §2)")

        deck = self.deck
        if "deck" in opts:
            v = opts["deck"]
            name = v.name if isinstance(v, DeckForm) else str(v).strip().lower()
            if name not in allowed["deck"].split():
                raise bad("deck", v)
            deck = ch["deck"] = DECKS[name]
        tricks = deck.hand
        top = self.max_bid if self.max_bid is not None else tricks
        if "stick" in opts:
            ch["stick"] = ch["dealer_must_bid"] = _option_bool("stick", opts["stick"], bad)
        if "min_bid" in opts:
            v = _option_int(opts["min_bid"])
            if v is None or not 1 <= v <= top:
                raise bad("min_bid", opts["min_bid"], f"allowed: 1..{top}")
            ch["min_bid"] = v
        elif self.min_bid > top:
            raise RulesError(f"table option deck={deck.name!r}: min_bid {self.min_bid} is above the "
                             f"top bid {top}; set min_bid too")
        if "penalty" in opts:
            ch["set_penalty"] = _int_or_word("penalty", opts["penalty"], "bid", 0, None, bad)
        for key in ("target", "hands"):
            if key in opts:
                v = _option_int(opts[key])
                if v is None or v < 1:
                    raise bad(key, opts[key])
                ch[key] = v
        bids = list(self.lone_bids)
        for i, b in enumerate(bids):
            key = _lone_key(b.name)
            if key in opts and not _is_option_bid(b):
                v = _option_int(opts[key])
                if v is None or v < 1:
                    raise bad(key, opts[key])
                bids[i] = replace(b, value=v)
        if "lone_exchange" in opts:
            ch["lone_exchange"] = _int_or_word("lone_exchange", opts["lone_exchange"], "off", 0,
                                               tricks, bad, f"allowed: off, or 0..{tricks}")
        if "lone_value" in opts:
            ch["lone_value"] = _int_or_word("lone_value", opts["lone_value"], "2x", 1, None, bad)
        # the double48 option's lone bid is made by __post_init__ from these fields
        ch["lone_bids"] = tuple(bids)
        return replace(self, **ch)

    def check_strain(self, strain: int) -> Strain:
        """Return ``strain`` as a Strain, or raise RulesError if this preset does not allow it
        (NotationError for a value that names no strain)."""
        strain = parse_strain(strain)
        if strain not in self.strains:
            allowed = " ".join(s.name for s in self.strains)
            raise RulesError(f"strain {strain.name} is not allowed in preset {self.name!r} (allowed: {allowed})")
        return strain


@dataclass(frozen=True)
class TableOption:
    """One table option of a preset (RULES.md §2): ``key`` (as ``--rule KEY=VALUE`` names it),
    ``value`` (its value, JSON-ready), ``allowed`` (the values it takes, as text) and
    ``meaning`` (what it changes, in words)."""

    key: str
    value: object
    allowed: str
    meaning: str


_OPTION_KEYS = frozenset({"deck", "stick", "min_bid", "penalty", "target", "hands",
                          "lone_exchange", "lone_value"})
_FIELDS = frozenset(f for f in Preset.__dataclass_fields__)
_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


def _lone_key(name: str) -> str:
    """The table option naming a lone bid's value: ``lone_12``, ``lone_two_card``."""
    return "lone_" + name.lower().replace("-", "_")


def _is_option_bid(bid: LoneBid) -> bool:
    """Whether a lone bid is the one the ``double48`` option adds (``lone-k``, blind)."""
    return bid.blind and bid.name.startswith("lone-")


def _option_int(value) -> int | None:
    """A whole number from an int or its text; None for anything else (a bool, ``"4.5"``)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return int(value)
    text = str(value).strip()
    return int(text) if re.fullmatch(r"[+-]?[0-9]{1,9}", text) else None


def _int_or_word(key: str, value, word: str, lo: int, hi: int | None, bad, why: str = "") -> int | None:
    """An option that is a whole number in ``lo..hi`` or a word meaning the default (None):
    ``penalty`` (``bid``), ``lone_exchange`` (``off``), ``lone_value`` (``2x``)."""
    if value is None or str(value).strip().lower() in (word, "none"):
        return None
    n = _option_int(value)
    if n is None or n < lo or (hi is not None and n > hi):
        raise bad(key, value, why)
    return n


def _option_bool(key: str, value, bad) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise bad(key, value)


_SUITS = (Strain.S, Strain.H, Strain.D, Strain.C)

PRESETS: dict[str, Preset] = {
    "standard": Preset(
        name="standard", rule_text="000", deck=DECKS["single24"], strains=_SUITS + (Strain.NT, Strain.NTL),
        min_bid=3, max_bid=6, lone_bids=(LoneBid("12", give=1, discard=1, value=12),
                                          LoneBid("24", value=24)),
        stick=False, first_lead="left_of_dealer", target=32),
    "pepper": Preset(
        name="pepper", rule_text="001", deck=DECKS["single24"], strains=_SUITS, min_bid=3, max_bid=6,
        lone_bids=(LoneBid("alone", value=12),), dealer_must_bid=True, set_penalty=6,
        defenders_vs_lone="nothing", target=42, bidders_win_ties=True),
    "double32": Preset(
        name="double32", rule_text="002", deck=DECKS["double32"], strains=_SUITS + (Strain.NT,),
        min_bid=3, max_bid=7, strain_named="with",
        lone_bids=(LoneBid("two-card", give=2, discard=2, value=16),
                   LoneBid("one-card", give=1, discard=1, value=24),
                   LoneBid("moonshot", value=32, ends_auction=True)),
        dealer_must_bid=True, target=None, hands=10),
    "racehorse": Preset(
        name="racehorse", rule_text="003", deck=DECKS["single24"], strains=_SUITS + (Strain.NT, Strain.NTL),
        min_bid=3, max_bid=6, dealer_must_bid=True, dealer_may_equal=True, target=32,
        win_needs_bid_result=True),
    "double48": Preset(
        name="double48", rule_text="004", deck=DECKS["double48"], strains=_SUITS + (Strain.NT,),
        min_bid=1, max_bid=None, strain_named="with", target=52, win_needs_bid_result=True,
        lone_option=True, decks=("double48", "double40", "double32")),
}


def get_preset(name: str | Preset) -> Preset:
    """Look up a preset by name.  Raises RulesError for an unknown name or a value that is
    neither a name nor a Preset."""
    if isinstance(name, Preset):
        return name
    if isinstance(name, str) and name.strip().lower() in PRESETS:
        return PRESETS[name.strip().lower()]
    raise RulesError(f"unknown preset {shown(name)} (expected one of: {' '.join(PRESETS)})")


# ---------------------------------------------------------------------------------------------
# The text form of table options: --rule KEY=VALUE (RULES.md §2)

def parse_rules(items: Iterable[str]) -> dict[str, str]:
    """``["stick=true", "min_bid=4"]`` → ``{"stick": "true", "min_bid": "4"}`` (keys lower
    case, ``-`` read as ``_``).  Raises RulesError for an item without ``=`` or a key given
    twice; the values are checked by :meth:`Preset.with_options`."""
    out: dict[str, str] = {}
    for item in items:
        key, eq, value = str(item).partition("=")
        key = key.strip().lower().replace("-", "_")
        if not eq or not key or not value.strip():
            raise RulesError(f"--rule {shown(str(item), 42)}: expected KEY=VALUE, like stick=true "
                             "('bideuchre rules' lists the options)")
        if key in out:
            raise RulesError(f"--rule {key} given twice ({key}={out[key]}, {key}={value.strip()})")
        out[key] = value.strip()
    return out


def format_rules(options: dict) -> str:
    """Table options as text, the inverse of :func:`parse_rules`: ``{"stick": True,
    "min_bid": 4}`` → ``"stick=true, min_bid=4"`` (booleans lower case)."""
    return ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in options.items())
