"""The deals bid advice rates: random deals of the unseen cards, drawn reproducibly and in
blocks, or given full deals; and how many are drawn (the adaptive plan and the limits).

Deal ``i`` of a seed is drawn by a generator seeded from ``(seed, i)`` alone
(:func:`sample_rng`), so the deals, and every result, do not depend on the number of workers
or on the order in which blocks are solved.  Deals are drawn a chunk at a time: memory is
bounded by the number of deals kept (about 0.5 kB a deal), never by a request.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from ...notation import Deal, counted, format_hand
from ...rules import NotationError, Preset, RulesError, Seat, check_seed, get_preset

__all__ = ["MAX_SAMPLES", "SamplingPlan", "sampling_plan", "default_samples", "sample_rng",
           "sample_deals", "deals_for_hand", "Sampler", "check_samples", "check_hand"]

#: The most deals one advice rates (``--samples``, given ``--deals``): about 0.5 kB of
#: per-deal data each, so at most some 50 MB, and hours of searching on the double decks.
MAX_SAMPLES = 100_000


@dataclass(frozen=True)
class SamplingPlan:
    """How a preset's deals are drawn and checked (by hand size: the time a deal takes).

    ``chunk``: deals solved together by one worker (a 12-card deal alone: the progress bar
    moves per deal); ``block``: deals between two looks of the adaptive rule (the first look
    after ``min_blocks`` blocks); ``cap``: the most deals adaptive sampling draws."""

    chunk: int
    block: int
    min_blocks: int
    cap: int

    def checkpoints(self, cap: int) -> list[int]:
        """The sample counts at which the adaptive rule looks, up to ``cap``: every block at
        first, then growing by a quarter (re-rating all deals at each look stays a small
        share of the work), always whole blocks, the last at ``cap``."""
        out, n = [], self.block * self.min_blocks
        while n < cap:
            out.append(n)
            n += max(self.block, (n // 4) // self.block * self.block)
        out.append(cap)
        return out


def sampling_plan(preset: Preset | str) -> SamplingPlan:
    """The :class:`SamplingPlan` of a preset's deck, smaller as a deal costs more to solve:
    single24 up to 10,000 deals in blocks of 200 (chunks of 100); double32 4,000 in blocks of
    100 (chunks of 50); double40 1,000 in blocks of 40 (chunks of 10); double48 500 in blocks
    of 10 (chunks of 10).  A chunk is what one worker solves at once: the lone filters and the
    later seats' model calls are vectorised over its deals, so a chunk of one double48 deal paid
    the model's Python ten times over (benchmarks/RESULTS.md § 0.8.3).  The chunk changes only
    the work, never the answer: the deals depend on their index alone, the stops on whole
    blocks."""
    hand = get_preset(preset).deck.hand
    if hand <= 6:
        return SamplingPlan(chunk=100, block=200, min_blocks=1, cap=10_000)
    if hand <= 8:
        return SamplingPlan(chunk=50, block=100, min_blocks=1, cap=4_000)
    if hand <= 10:
        return SamplingPlan(chunk=10, block=40, min_blocks=1, cap=1_000)
    return SamplingPlan(chunk=10, block=10, min_blocks=2, cap=500)


def default_samples(preset: Preset | str) -> int:
    """The most random deals :func:`~bideuchre.analysis.advice.advise` draws unless told (the
    adaptive cap; it stops earlier once the answer is clear): 10,000 for single24 presets,
    4,000 for double32, 1,000 for double40, 500 for double48."""
    return sampling_plan(preset).cap


def check_samples(samples: int, what: str = "--samples") -> int:
    """``samples`` if it is 1 … :data:`MAX_SAMPLES`; else RulesError (one line)."""
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)):
        raise RulesError(f"{what} must be a whole number, got {samples!r}")
    if not 1 <= samples <= MAX_SAMPLES:
        raise RulesError(f"{what} {samples}: must be 1 to {MAX_SAMPLES:,} (the most deals one "
                         "advice rates)")
    return int(samples)


def sample_rng(seed: int, index: int) -> np.random.Generator:
    """The generator of deal ``index`` for ``seed``: depends on nothing else, so the deals do
    not depend on the number of workers or the order they are drawn in.  Raises ArgumentError
    for a negative seed (:func:`~bideuchre.rules.check_seed`: the rule of ``batch --generate``
    too)."""
    return np.random.default_rng([check_seed(seed), int(index)])


def _deck_counts(preset: Preset) -> np.ndarray:
    c = np.zeros(24, dtype=np.int64)
    for card in preset.deck.card_ids:
        c[card] = preset.deck.copies
    return c


def check_hand(preset: Preset, hand: Sequence[int], known: dict) -> np.ndarray:
    """The cards not yet placed (24 counts); raises NotationError for impossible input."""
    left = _deck_counts(preset)
    n = preset.tricks
    if len(hand) != n:
        raise NotationError(f"the hand holds {counted(len(hand), 'card')}; {preset.deck.name} deals {n}")
    for c in hand:
        if left[c] == 0:
            many = hand.count(c)
            raise NotationError(f"the hand holds {c} {many} times; the {preset.deck.name} deck has "
                                f"{'one' if preset.deck.copies == 1 else 'two'}"
                                if many > preset.deck.copies else
                                f"card {c} is not in the {preset.deck.name} deck "
                                f"(ranks {' '.join(r.char for r in preset.deck.ranks)})")
        left[c] -= 1
    for s, cards in known.items():
        if len(cards) > n:
            raise NotationError(f"--known {s.name}: {counted(len(cards), 'card')}, more than a hand of {n}")
        for c in cards:
            if left[c] == 0:
                raise NotationError(f"--known {s.name}: card {str(c)} is already placed (or not in the deck)")
            left[c] -= 1
    return left


class Sampler:
    """Random deals consistent with ``hand`` in ``seat`` and the ``known`` cards
    (``{Seat: [cards]}``), drawn by index: :meth:`deals` ``(start, k)`` is deals ``start`` …
    ``start + k - 1`` as a ``(k, 4, 24)`` uint8 array of card counts.  Raises NotationError
    for an impossible hand or known cards."""

    def __init__(self, preset: Preset | str, seat: int, hand: Sequence[int],
                 known: dict | None = None, seed: int = 1):
        preset = get_preset(preset)
        seat = Seat(seat)
        known = {Seat(s): list(c) for s, c in (known or {}).items()}
        if seat in known:
            raise NotationError(f"--known names the advised seat {seat.name}; its cards are the hand")
        left = check_hand(preset, hand, known)
        self.seed = seed
        self.pool = np.repeat(np.arange(24), left)
        n = preset.tricks
        need = [0 if s == seat else n - len(known.get(Seat(s), [])) for s in range(4)]
        self.need = need
        self.bounds = np.cumsum([0] + need)
        base = np.zeros((4, 24), dtype=np.uint8)
        for c in hand:
            base[seat, c] += 1
        for s, cards in known.items():
            for c in cards:
                base[s, c] += 1
        self.base = base

    def deals(self, start: int, k: int) -> np.ndarray:
        out = np.empty((k, 4, 24), dtype=np.uint8)
        for j in range(k):
            perm = sample_rng(self.seed, start + j).permutation(self.pool)
            cur = self.base.copy()
            for s in range(4):
                if self.need[s]:
                    np.add.at(cur[s], perm[self.bounds[s]:self.bounds[s + 1]], 1)
            out[j] = cur
        return out


def sample_deals(preset: Preset | str, seat: int, hand: Sequence[int], known: dict | None = None,
                 samples: int = 500, seed: int = 1, start: int = 0) -> np.ndarray:
    """``samples`` random deals consistent with ``hand`` in ``seat`` and ``known`` cards
    (``{Seat: [cards]}``): an ``(samples, 4, 24)`` uint8 array of card counts.  Deal ``i``
    (from ``start``) uses :func:`sample_rng` ``(seed, i)``.  Raises NotationError, and
    RulesError for ``samples`` outside 1 … :data:`MAX_SAMPLES`."""
    check_samples(samples, "samples")
    return Sampler(preset, seat, hand, known, seed).deals(start, samples)


def deals_for_hand(deals: Iterable[Deal], seat: int, hand: Sequence[int],
                   known: dict | None = None, labels: Sequence[str] | None = None) -> np.ndarray:
    """Given full deals as an ``(k, 4, 24)`` count array, after checking that each holds
    ``hand`` in ``seat`` and the ``known`` cards.  Raises NotationError naming the deal (by
    ``labels[i]``, e.g. ``"deals.txt: line 7"``, else ``"deal i"``)."""
    want = np.zeros(24, dtype=np.uint8)
    for c in hand:
        want[c] += 1
    rows = []
    for i, d in enumerate(deals, 1):
        where = labels[i - 1] if labels is not None else f"deal {i}"
        c = np.array(d.counts(), dtype=np.uint8)
        if not np.array_equal(c[seat], want):
            raise NotationError(f"{where} ({d.pbn()}) does not give seat {Seat(seat).name} the hand "
                                f"{format_hand(hand)}")
        for s, cards in (known or {}).items():
            for card in cards:
                if c[s, card] == 0:
                    raise NotationError(f"{where} ({d.pbn()}): seat {Seat(s).name} lacks known card {str(card)}")
        rows.append(c)
        if len(rows) > MAX_SAMPLES:
            raise RulesError(f"more than {MAX_SAMPLES:,} deals given (the most deals one advice rates)")
    if not rows:
        raise NotationError("no deals given")
    return np.stack(rows)


