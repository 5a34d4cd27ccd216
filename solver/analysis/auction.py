"""The auction of Bid Euchre and the result of a hand, from the presets (RULES.md §2).

One round of bidding, from the dealer's left to the dealer.  Each player once passes or bids
a higher rung of the **bid ladder**:

- number bids ``min_bid`` … ``top_bid`` (tricks the declaring side promises), ranked by the
  number alone: a strain never breaks a tie, so where the strain is named *with* the bid
  (``double32``, ``double48``) ``4H`` and ``4S`` are the same rung;
- lone bids above every number bid, low → high in the preset's order (``standard`` 12 < 24;
  ``pepper`` alone; ``double32`` two-card < one-card < moonshot).  A lone bid names no strain:
  the declarer names it after the auction, in every preset.

The dealer's rights (RULES.md §2, "dealer"):

- ``racehorse`` (``dealer_may_equal``): the dealer may take the contract by *equalling* the high
  bid;
- ``dealer_must_bid`` (``pepper``, ``double32``, ``racehorse``) or the ``standard`` option
  ``stick``: if the first three pass, the dealer may not pass and must bid at least the minimum;
- otherwise, if all four pass the hand is **thrown in**: nobody scores (and the deal passes
  left).

A bid with ``ends_auction`` (the ``double32`` moonshot) ends the auction at once: the players
still to speak get no turn.

Actions are :class:`Bid` objects, and ``None`` for a pass.  :func:`hand_result` scores a hand
(RULES.md §1 "Scoring" and the preset's ``set_penalty``, lone values and ``defenders_vs_lone``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

from ..rules import (
    LoneBid, Preset, RulesError, Seat, Side, Strain, get_preset, parse_seat, parse_strain, shown,
)

__all__ = ["Bid", "ladder", "parse_bid", "parse_action", "format_action", "Auction",
           "legal_actions", "hand_result", "contract_diff", "side_points", "bid_order"]


@dataclass(frozen=True)
class Bid:
    """One rung of the bid ladder (a pass is ``None``).

    ``level``: the rung, comparable across bids — a number bid's level is its tricks, a lone
    bid's is ``top_bid + 1 + i`` for the i-th lone bid of the preset.  ``name``: ``"4"``,
    ``"12"``, ``"24"``, ``"alone"``, ``"two-card"``, ``"one-card"``, ``"moonshot"``.
    ``strain``: named with the bid (number bids of ``double32``/``double48``), else None.
    ``lone``: the preset's :class:`~bideuchre.rules.LoneBid`, or None for a number bid.
    """

    level: int
    name: str
    strain: Optional[Strain] = None
    lone: Optional[LoneBid] = None

    @property
    def is_lone(self) -> bool:
        return self.lone is not None

    @property
    def ends_auction(self) -> bool:
        return self.lone is not None and self.lone.ends_auction

    def needs(self, total: int) -> int:
        """Tricks the declaring side must take: the number bid, or every trick (lone)."""
        return total if self.lone is not None else self.level

    def __str__(self) -> str:
        return self.name + (self.strain.name if self.strain is not None else "")

    def __repr__(self) -> str:
        return f"Bid({str(self)!r})"


def ladder(preset: Preset | str) -> list[Bid]:
    """Every bid of the preset, low → high (RULES.md §2).

    Where the strain is named with the bid, one Bid per (number, strain) in the preset's strain
    order; lone bids never carry a strain.  A fresh list each call (the Bids, immutable, are
    built once per preset).
    """
    preset = get_preset(preset)
    hit = _LADDERS.get(preset)
    if hit is not None:
        return list(hit)
    out: list[Bid] = []
    for k in range(preset.min_bid, preset.top_bid + 1):
        if preset.strain_named == "with":
            out.extend(Bid(k, str(k), st) for st in preset.strains)
        else:
            out.append(Bid(k, str(k)))
    for i, lb in enumerate(preset.lone_bids):
        out.append(Bid(preset.top_bid + 1 + i, lb.name, None, lb))
    if len(_LADDERS) >= 256:
        _LADDERS.clear()
    _LADDERS[preset] = tuple(out)
    return out


_LADDERS: dict = {}     # preset -> its ladder: a preset's bids built once (equal presets share it)


def bid_order(preset: Preset, bid: Optional[Bid]) -> tuple[int, int]:
    """Sort key of an action: pass first, then by rung, then by the preset's strain order."""
    if bid is None:
        return (-1, -1)
    return (bid.level, -1 if bid.strain is None else preset.strains.index(bid.strain))


_PASS = {"pass", "p", "-", "0", "no"}
_LONE_ALIASES = {"alone": ("alone", "24"), "lone": ("alone", "24"), "loner": ("alone",),
                 "2card": ("two-card",), "1card": ("one-card",), "twocard": ("two-card",),
                 "onecard": ("one-card",), "moon": ("moonshot",), "shoot": ("moonshot",),
                 "call2": ("two-card",), "call1": ("one-card", "12")}


def parse_bid(text: str, preset: Preset | str) -> Optional[Bid]:
    """Read one action: ``pass``/``p``, a number (``4``; ``4H`` or ``4NT`` where the strain is
    named with the bid), or a lone bid's name (``12``, ``24``, ``alone``, ``two-card``,
    ``one-card``, ``moonshot``).  Returns a Bid, or None for a pass.

    Raises RulesError quoting the text when the preset has no such bid or strain.
    """
    preset = get_preset(preset)
    if not isinstance(text, str):
        raise RulesError(f"cannot read bid {shown(text)}: expected text like 'pass', '4' or '12'")
    raw = text.strip()
    key = raw.lower().replace("_", "-")
    if key in _PASS:
        return None
    lone = {lb.name.lower(): lb for lb in preset.lone_bids}
    names = [key] + list(_LONE_ALIASES.get(key.replace("-", ""), ()))
    for nm in names:
        if nm in lone:
            i = preset.lone_bids.index(lone[nm])
            return Bid(preset.top_bid + 1 + i, lone[nm].name, None, lone[nm])
    # ASCII digits (int() would also read other scripts' digits), at most 9 of them: Python
    # refuses to convert more than 4,300, and every rung is below 100
    m = re.fullmatch(r"([0-9]+)\s*([a-z♠♥♦♣↓]*)", key)
    if not m:
        raise RulesError(f"cannot read bid {shown(raw)} in preset {preset.name!r} "
                         f"(bids: pass {' '.join(dict.fromkeys(b.name for b in ladder(preset)))})")
    k = int(m.group(1)) if len(m.group(1)) <= 9 else None
    if k is None or not preset.min_bid <= k <= preset.top_bid:
        raise RulesError(f"bid {shown(raw)} is off the ladder of preset {preset.name!r} "
                         f"(number bids {preset.min_bid}..{preset.top_bid})")
    st_text = m.group(2)
    if len(key) == len(raw):            # the strain as typed, for the message ('5Z': 'Z')
        st_text = raw[m.start(2):m.end(2)]
    if preset.strain_named == "with":
        if not st_text:
            raise RulesError(f"bid {shown(raw)}: preset {preset.name!r} names the strain with the bid "
                             f"(like {k}{preset.strains[0].name})")
        return Bid(k, str(k), preset.check_strain(parse_strain(st_text)))
    if st_text:
        raise RulesError(f"bid {shown(raw)}: in preset {preset.name!r} the strain is named after the "
                         f"auction, not with the bid")
    return Bid(k, str(k))


parse_action = parse_bid


def format_action(bid: Optional[Bid]) -> str:
    """``"pass"`` or the bid's text (``"4"``, ``"4H"``, ``"12"``)."""
    return "pass" if bid is None else str(bid)


class Auction:
    """An auction in progress: the dealer, the actions so far (from the dealer's left).

    ``to_act`` is the seat to speak next (None when the auction is over); ``high`` the high bid
    and ``high_seat`` its bidder; ``legal_actions()`` the passes and bids allowed now (RULES.md
    §2); ``play(action)`` / ``undo()``.  ``contract`` is ``(declarer, bid)`` once over, or None
    for a thrown-in hand.  Raises RulesError for an action the rules do not allow.
    """

    def __init__(self, preset: Preset | str, dealer: int | str, actions: Iterable[Optional[Bid]] = ()):
        self.preset = get_preset(preset)
        self.dealer = parse_seat(dealer)
        self.ladder = ladder(self.preset)
        self.actions: list[Optional[Bid]] = []
        self.high: Optional[Bid] = None
        self.high_seat: Optional[Seat] = None
        self._stack: list[tuple] = []
        for a in actions:
            self.play(a)

    @classmethod
    def parse(cls, text: str | Sequence[str], preset: Preset | str, dealer: int | str) -> "Auction":
        """From ``"pass 4 pass"`` (actions from the dealer's left, spaces or commas)."""
        preset = get_preset(preset)
        if isinstance(text, str):
            tokens = re.split(r"[\s,]+", text.strip())
        else:
            try:
                tokens = list(text)
            except TypeError:
                raise RulesError(f"cannot read auction {shown(text)}: expected text like "
                                 "'pass 4' or a list of calls") from None
        return cls(preset, dealer, [parse_bid(t, preset) for t in tokens
                                    if not isinstance(t, str) or t.strip()])

    # -- queries ----------------------------------------------------------------------------
    @property
    def order(self) -> tuple[Seat, ...]:
        """The four seats in speaking order: the dealer's left first, the dealer last."""
        return tuple(Seat((self.dealer + 1 + i) % 4) for i in range(4))

    @property
    def is_over(self) -> bool:
        return len(self.actions) == 4 or (self.high is not None and self.high.ends_auction)

    @property
    def to_act(self) -> Optional[Seat]:
        return None if self.is_over else Seat((self.dealer + 1 + len(self.actions)) % 4)

    @property
    def contract(self) -> Optional[tuple[Seat, Bid]]:
        """``(declarer, bid)`` of a finished auction; None if thrown in (or not over)."""
        if not self.is_over or self.high is None:
            return None
        return self.high_seat, self.high

    def legal_actions(self) -> list[Optional[Bid]]:
        """Pass (None) if allowed, then every legal bid low → high (RULES.md §2)."""
        if self.is_over:
            return []
        return legal_actions(self.preset, self.ladder, len(self.actions), self.high)

    # -- make / unmake ----------------------------------------------------------------------
    def play(self, action: Optional[Bid] | str) -> None:
        if isinstance(action, str):
            action = parse_bid(action, self.preset)
        seat = self.to_act
        if seat is None:
            raise RulesError(f"the auction is over; cannot add {format_action(action)!r}")
        if action not in self.legal_actions():
            why = ("the dealer must bid when the first three pass" if action is None
                   else f"it does not beat the high bid {format_action(self.high)}")
            raise RulesError(f"{seat.name} cannot {format_action(action)!r}: {why}")
        self._stack.append((self.high, self.high_seat))
        self.actions.append(action)
        if action is not None:
            self.high, self.high_seat = action, seat

    def undo(self) -> Optional[Bid]:
        if not self.actions:
            raise RulesError("no action to undo")
        self.high, self.high_seat = self._stack.pop()
        return self.actions.pop()

    def copy(self) -> "Auction":
        return Auction(self.preset, self.dealer, self.actions)

    def __str__(self) -> str:
        return " ".join(format_action(a) for a in self.actions)

    def __repr__(self) -> str:
        return f"Auction.parse({str(self)!r}, {self.preset.name!r}, {self.dealer.name!r})"


def legal_actions(preset: Preset, bids: Sequence[Bid], index: int,
                  high: Optional[Bid]) -> list[Optional[Bid]]:
    """The actions allowed to the ``index``-th speaker (0 = dealer's left, 3 = dealer) when
    ``high`` is the high bid (None: all passed so far).  Pass is None and comes first."""
    dealer = index == 3
    out: list[Optional[Bid]] = []
    if not (dealer and high is None and (preset.dealer_must_bid or preset.stick)):
        out.append(None)
    if high is None:
        out.extend(bids)
    elif dealer and preset.dealer_may_equal:
        out.extend(b for b in bids if b.level >= high.level)
    else:
        out.extend(b for b in bids if b.level > high.level)
    return out


def hand_result(preset: Preset | str, bid: Bid, tricks: int) -> tuple[int, int]:
    """Points ``(declaring side, defenders)`` for a hand in which the declaring side took
    ``tricks`` (of the preset's ``tricks`` per hand) on ``bid`` (RULES.md §1 "Scoring", §2).

    Number bid made (tricks ≥ bid): the declaring side scores its tricks.  Set: it loses the
    preset's ``set_penalty`` (None: the bid; ``pepper``: 6 flat).  Lone bid: +value when every
    trick is taken, else −value.  The defenders score their tricks, except against a lone hand
    in a preset whose ``defenders_vs_lone`` is ``"nothing"`` (``pepper``).
    """
    preset = get_preset(preset)
    n = preset.tricks
    if not 0 <= tricks <= n:
        raise RulesError(f"tricks {tricks} out of range 0..{n}")
    if bid.lone is not None:
        value = bid.lone.value
        made = tricks == n
        decl = value if made else -value
        defs = (n - tricks) if preset.defenders_vs_lone == "tricks" else 0
        return decl, defs
    if tricks >= bid.level:
        return tricks, n - tricks
    pen = bid.level if preset.set_penalty is None else preset.set_penalty
    return -pen, n - tricks


def contract_diff(preset: Preset, bid: Bid, tricks: int) -> int:
    """The declaring side's points minus the defenders' (see :func:`hand_result`)."""
    a, b = hand_result(preset, bid, tricks)
    return a - b


def side_points(declarer: Seat, decl: int, defs: int) -> dict[Side, int]:
    """``{Side.NS: …, Side.EW: …}`` from the declaring side's and the defenders' points."""
    side = Seat(declarer).side
    return {side: decl, side.other: defs}
