"""The public double-dummy API: solve a position, the DD table of a deal.

Results are tricks (ints).  The Cython core (``bideuchre.search._search``) does the search; this module
turns notation objects into the core's card counts and back.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np

from . import _search
from ..notation import Deal, Position
from ..rules import (
    ArgumentError, DeckForm, Preset, RulesError, Seat, Side, Strain, effective_suit, get_deck, get_preset,
    parse_seat, rank_order,
)

__all__ = ["solve_position", "position_json", "dd_table", "DDTable", "get_solver", "tt_bits_for",
           "exact_above_for", "first_leader"]

# The core's card layout, from the rules (RULES.md §1): effective suit slot * 8 + order.
_search.set_layout([[int(effective_suit(c, s)) * 8 + rank_order(c, s) for c in range(24)]
                    for s in range(6)])

_local = threading.local()


def tt_bits_for(deck: DeckForm | str) -> int:
    """Transposition-table size (log2 exact entries, 32 bytes each, plus about 0.45 of that for
    the partition table: see Solver) suited to a deck form: small enough for single24's table
    to stay in the L2 cache, larger for double decks, whose positions are many more (2**20:
    32 MiB + 14.3 MiB)."""
    n = get_deck(deck).hand
    return 12 if n <= 6 else 18 if n <= 8 else 20


def exact_above_for(deck: DeckForm | str) -> int:
    """Tricks left at or below which the core skips its exact-position table and relies on the
    partition table alone (``Solver.exact_above``): a speed setting, never a change of result.
    double32 (8 tricks) never uses the exact table: its partition table answers nearly every
    probe the exact one would, and the exact table's upkeep costs more than it saves; double40
    uses it only above 4 tricks left; single24 and double48 use it throughout (skipping it
    there searches more nodes and saves no time).  Chosen per deck form on whole DD tables (benchmarks/RESULTS.md).
    Raises NotationError for a deck form that names none."""
    n = get_deck(deck).hand
    return 8 if n == 8 else 4 if n == 10 else 0


def thread_cached(kind: str, bits: int, factory):
    """This thread's search context of one kind and TT size, made by ``factory(bits)`` on
    first use (contexts are not thread-safe; each keeps its TT between calls)."""
    cache = _local.__dict__.setdefault(kind, {})
    s = cache.get(bits)
    if s is None:
        s = cache[bits] = factory(bits)
    return s


def get_solver(deck: DeckForm | str) -> "_search.Solver":
    """This thread's search context for a deck form (its TT is reused between calls; deck
    forms of one table size share it, each call setting the deck's ``exact_above_for``)."""
    s = thread_cached("solvers", tt_bits_for(deck), _search.Solver)
    s.exact_above = exact_above_for(deck)
    return s


def _position_args(position: Position) -> tuple[np.ndarray, int, int, int, list[int]]:
    counts = np.array(position.hands, dtype=np.uint8)
    if position.trick:
        leader = position.trick[0][0]
        trick = [int(c) for _, c in position.trick]
    else:
        leader = position.to_move
        trick = []
    out = -1 if position.out is None else int(position.out)
    return counts, int(position.strain), int(leader), out, trick


def solve_position(position: Position) -> dict[Side, int]:
    """Double-dummy tricks for each side over the whole hand from ``position``.

    Returns ``{Side.NS: n, Side.EW: m}``: tricks already won in the played cards plus the DD
    value of the rest (so ``n + m`` is the hand's tricks).  Works at the start of the hand,
    between tricks and mid-trick, for every deck form, partnership or lone (RULES.md §1).
    Raises ArgumentError when ``position`` is not a :class:`Position`.
    """
    if not isinstance(position, Position):
        raise ArgumentError(f"solve_position needs a Position, got {type(position).__name__} "
                            "(make one with Position(deal, strain, leader, played))")
    left = position.tricks_left
    if left == 0:
        return dict(position.tricks_won)
    counts, strain, leader, out, trick = _position_args(position)
    ns = get_solver(position.deal.deck).solve(counts, strain, leader, out, trick)
    return {Side.NS: position.tricks_won[Side.NS] + ns,
            Side.EW: position.tricks_won[Side.EW] + left - ns}


def position_json(position: Position) -> dict:
    """JSON of one solved position, the shape ``solve --strain --json`` prints:
    ``{"deal": ..., "deck": "single24", "strain": "H", "leader": "E", "played": ["SA", ...],
    "tricks": {"NS": n, "EW": m}}`` (tricks over the whole hand, :func:`solve_position`),
    with ``"lone": "N"`` for a lone position.  Raises ArgumentError when ``position`` is not a
    :class:`Position`."""
    tricks = solve_position(position)
    obj = {"deal": position.deal.pbn(), "deck": position.deal.deck.name, "strain": position.strain.name,
           "leader": position.leader.name, "played": [str(c) for c in position.played],
           "tricks": {"NS": tricks[Side.NS], "EW": tricks[Side.EW]}}
    if position.lone is not None:
        obj["lone"] = position.lone.name
    return obj

def first_leader(preset: Preset, declarer: int, dealer: int) -> Seat:
    """The leader of the first trick under a preset's rule (RULES.md §2 "first lead"):
    the declarer, or in ``standard`` the seat left of the dealer."""
    if preset.first_lead == "left_of_dealer":
        return Seat((dealer + 1) % 4)
    return Seat(declarer)


@dataclass
class DDTable:
    """Double-dummy table of a deal: tricks for the declaring side, per declarer × strain.

    ``tricks[seat][strain]`` in tricks (0..deal.deck.hand).  ``to_json()`` gives the CLI shape
    ``{"deal", "preset", "dealer", "table": {"N": {"S": 4, ...}, ...}}``.
    """

    deal: Deal
    preset: Preset
    dealer: Seat
    strains: tuple[Strain, ...]
    tricks: dict[Seat, dict[Strain, int]] = field(default_factory=dict)

    def __getitem__(self, key: tuple[int | str, int | str]) -> int:
        from ..rules import parse_strain
        seat, strain = key
        return self.tricks[parse_seat(seat)][parse_strain(strain)]

    def to_json(self) -> dict:
        return {"deal": self.deal.pbn(), "preset": self.preset.name, "dealer": self.dealer.name,
                "deck": self.deal.deck.name,
                "table": {seat.name: {st.name: self.tricks[seat][st] for st in self.strains}
                          for seat in Seat}}

    def array(self) -> np.ndarray:
        """(4 declarers, strains) int8 array in seat and strain order."""
        return np.array([[self.tricks[s][st] for st in self.strains] for s in Seat], dtype=np.int8)


def table_leaders(preset: Preset, dealer: int) -> list[int]:
    """Leader slot per declarer seat for the core's batch table: the declarer itself, or the
    single seat left of the dealer (then one solve serves all four declarers)."""
    if preset.first_lead == "left_of_dealer":
        return [(dealer + 1) % 4, -1, -1, -1]
    return [0, 1, 2, 3]


def table_from_ns(ns: np.ndarray, preset: Preset, dealer: int, total: int) -> np.ndarray:
    """Turn the core's NS tricks per (leader slot, strain) into declaring-side tricks per
    (declarer, strain)."""
    return tables_from_ns(ns[None], preset, np.array([total]))[0]


def tables_from_ns(ns: np.ndarray, preset: Preset, totals: np.ndarray) -> np.ndarray:
    """:func:`table_from_ns` of many deals at once: ``ns`` ``(n, leader slots, strains)``, the
    tricks of each deal's hand ``totals`` ``(n,)``; returns ``(n, 4 declarers, strains)`` int8."""
    ns = np.asarray(ns)
    out = np.empty((ns.shape[0], 4, ns.shape[2]), dtype=np.int8)
    totals = np.asarray(totals).reshape(-1, 1)
    for d in range(4):
        row = ns[:, 0] if preset.first_lead == "left_of_dealer" else ns[:, d]
        out[:, d] = row if d % 2 == 0 else totals - row
    return out


def dd_table(deal: Deal, preset: Preset | str = "standard", dealer: int | str | None = None,
             strains: tuple[Strain, ...] | None = None) -> DDTable:
    """The DD table of ``deal`` under ``preset``: for each declarer seat and each of the
    preset's strains, the tricks the declaring side takes with best play, the first lead
    following the preset's rule (RULES.md §2).  ``dealer`` defaults to ``deal.dealer``.

    Raises RulesError if the deal's deck form does not suit a full table (partial deals are
    allowed: every hand must hold the same number of cards), or for a strain the preset lacks;
    ArgumentError when ``deal`` is not a :class:`Deal`; NotationError for a dealer or strain
    that names none.
    """
    if not isinstance(deal, Deal):
        raise ArgumentError(f"dd_table needs a Deal, got {type(deal).__name__} (read one with "
                            "Deal.from_pbn)")
    preset = get_preset(preset)
    dealer = deal.dealer if dealer is None else parse_seat(dealer)
    if strains is not None and (isinstance(strains, (str, bytes)) or not hasattr(strains, "__iter__")):
        raise ArgumentError(f"strains: expected a tuple of strains, got {type(strains).__name__}")
    strains = tuple(preset.strains if strains is None else
                    dict.fromkeys(preset.check_strain(s) for s in strains))
    if not strains:
        raise ArgumentError("strains: no strain given")
    total = len(deal.hands[0])
    if total == 0:
        raise RulesError("the deal holds no cards")
    counts = np.array(deal.counts(), dtype=np.uint8)[None]
    leaders = np.array([table_leaders(preset, dealer)], dtype=np.intc)
    ns = np.zeros((1, 4, len(strains)), dtype=np.intc)
    get_solver(deal.deck).tables(counts, _strain_array(strains), leaders, -1, ns)
    rows = table_from_ns(ns[0], preset, dealer, total).tolist()
    tricks = {seat: dict(zip(strains, rows[seat])) for seat in Seat}
    return DDTable(deal, preset, Seat(dealer), strains, tricks)


_STRAIN_ARRAYS: dict = {}


def _strain_array(strains: tuple) -> np.ndarray:
    """The strains as the core's int array (one per distinct tuple, reused)."""
    a = _STRAIN_ARRAYS.get(strains)
    if a is None:
        a = _STRAIN_ARRAYS[strains] = np.array([int(s) for s in strains], dtype=np.intc)
    return a
