"""Deals under a condition: ``--where`` on generated deals and on deals read from a
file, and the dealer of generated deals (a seat, ``rotate`` or ``random``).

**Generated deals** come from the stream of :func:`bideuchre.batch.generate_records`: *try* *t*
is the deal that generation without a condition would give as deal *t* (block ``t // GEN_BLOCK``
of the seed's stream, :func:`bideuchre.batch.readers.block_rows`).  Deal *i* under a condition
is the *i*-th try, in order, that satisfies it (rejection sampling): a function of ``(seed, condition, i)`` only, so
the deals do not depend on ``--jobs`` or the chunk size, a resume regenerates the same deals
(and skips those written), ``--where true`` gives exactly the deals of no condition, and the
accepted deals are uniform among the deals that satisfy the condition (the tries are uniform
and independent).  The condition is evaluated with numpy on a whole block of tries at once
(:meth:`bideuchre.analysis.conditions.Condition.evaluate_counts`).  A budget of tries
(:func:`default_max_tries`, at most :data:`MAX_TRIES`) bounds the work: when it runs out, or
as soon as the acceptance rate measured so far (from :data:`EARLY_TRIES` tries on) says that
even a generous rate cannot find the deals asked within it, :class:`WhereBudgetError` says
how many tries were made, how many were accepted, the acceptance rate and the tries the run
would need.

**Read deals** that fail the condition are skipped and counted (:class:`WhereTally`), not
reported as bad lines.

**Dealers** of generated deals: a seat (every deal; default the seat of the first hand, N),
``rotate`` (deal *i*, 0-based, dealt by N E S W in turn: ``i % 4``) or ``random`` (uniform,
drawn for each try from the block's generator after the hands, as
:func:`bideuchre.batch.readers.block_rows` does for plain generation, so choosing it does not
change the hands and ``--where true`` gives the same dealers too).  The dealer matters to ``standard``'s first lead (left of the dealer)
and to the auction (RULES.md §2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

import numpy as np

from ..analysis.conditions import Condition
from ..notation import Deal, counted
from ..rules import DeckForm, Seat, get_deck
from .base import BatchError
from .readers import (GEN_BLOCK, BadLine, Record, block_rows, check_generate, parse_dealer,
                      rest_of_deck, row_hands)

MIN_TRIES = 1_000_000            # the budget of tries is at least this ...
TRIES_PER_DEAL = 10_000          # ... and this many per deal asked (acceptance down to 0.01%) ...
MAX_TRIES = 10**10               # ... and at most this, the largest --max-tries too (hours of tries)
EARLY_TRIES = 100_000            # from this many tries on, the acceptance rate decides early
FILTER_BLOCK = 256               # read deals evaluated together


class WhereBudgetError(BatchError):
    """The budget of tries of a ``--where`` ran out before the deals asked for were found:
    ``tries`` made, ``accepted`` deals, ``wanted`` deals."""

    def __init__(self, message: str, tries: int, accepted: int, wanted: int):
        super().__init__(message)
        self.tries, self.accepted, self.wanted = tries, accepted, wanted


@dataclass
class WhereTally:
    """How a condition filtered: ``looked`` deals looked at (tries when generating, good lines
    when reading), ``accepted`` the deals that satisfied it."""

    condition: str
    generated: bool
    looked: int = 0
    accepted: int = 0

    @property
    def rate(self) -> float:
        """Accepted / looked at (0 before any)."""
        return self.accepted / self.looked if self.looked else 0.0

    def to_json(self) -> dict:
        """``{"condition", "tries" or "read", "accepted", "rate"}`` (rate: a fraction)."""
        return {"condition": self.condition, ("tries" if self.generated else "read"): self.looked,
                "accepted": self.accepted, "rate": round(self.rate, 6)}

    def __str__(self) -> str:
        what = "tries" if self.generated else "deals read"
        return (f"--where accepted {self.accepted:,} of {self.looked:,} {what} "
                f"({_percent(self.rate)})")


def _percent(rate: float) -> str:
    return f"{100 * rate:.3g}%"


def default_max_tries(n: int) -> int:
    """The budget of tries for ``n`` deals under a condition: ``max(MIN_TRIES, TRIES_PER_DEAL ×
    n)``, enough for conditions that hold in 1 deal in 10,000 or more often, and at most
    :data:`MAX_TRIES`."""
    return min(MAX_TRIES, max(MIN_TRIES, TRIES_PER_DEAL * int(n)))


def check_max_tries(max_tries: int | None) -> None:
    """Raise BatchError for a ``--max-tries`` below 1 or above :data:`MAX_TRIES`."""
    if max_tries is not None and not 1 <= max_tries <= MAX_TRIES:
        raise BatchError(f"--max-tries takes 1 to {MAX_TRIES:,} tries (got {max_tries:,})")


def _hopeless(tries: int, accepted: int, wanted: int, budget: int) -> bool:
    """Whether, after ``tries`` tries with ``accepted`` deals found, even a generous acceptance
    rate (an upper bound: ``(k + 4 sqrt(k) + 8) / tries``, above the true rate but with odds
    of about 1 in 3,000 at ``k = 0``) needs more tries than the budget has left."""
    high = (accepted + 4 * accepted ** 0.5 + 8) / tries
    return tries + (wanted - accepted) / high > budget


def _block_counts(rows: np.ndarray, free: list[Seat], fixed_counts: dict[Seat, np.ndarray],
                  hand: int) -> np.ndarray:
    """Card counts ``(len(rows), 4, 24)`` of a block of tries."""
    b = len(rows)
    counts = np.zeros((b, 4, 24), dtype=np.int64)
    base = (np.arange(b, dtype=np.int64) * 24)[:, None]
    for k, s in enumerate(free):
        idx = (base + rows[:, k * hand:(k + 1) * hand]).ravel()
        counts[:, s, :] = np.bincount(idx, minlength=b * 24).reshape(b, 24)
    for s, c in fixed_counts.items():
        counts[:, s, :] = c
    return counts


def generate_where(n: int, seed: int, deck: DeckForm | str = "single24",
                   fixed: dict[Seat, list[int]] | None = None, where: Condition | None = None,
                   dealer=None, start: int = 0, max_tries: int | None = None,
                   tally: WhereTally | None = None) -> Iterator[Record]:
    """Deals ``start+1 .. n`` of ``(seed, where)``: the tries of the generation stream that
    satisfy ``where`` (all of them without one), in order (the module's docstring).

    ``fixed``: seats whose hands are fixed (:func:`bideuchre.batch.parse_fixed_hands`);
    ``dealer``: a seat, ``"rotate"``, ``"random"`` or None (the seat of the first hand);
    ``max_tries``: the budget (default :func:`default_max_tries`); ``tally`` is updated as the
    tries go.  Records carry ``{"seed": seed}`` like every generated deal.  Raises
    :class:`WhereBudgetError` when the budget runs out (after yielding the deals found), and
    BatchError for a condition of another deck form or that is a number.
    """
    deck = get_deck(deck)
    fixed = dict(fixed or {})
    check_generate(n, seed)
    if where is not None and (where.kind != "condition" or where.deck != deck):
        raise BatchError(f"--where {where.text!r} must be a condition parsed for the {deck.name} deck")
    dealer = parse_dealer(dealer)
    check_max_tries(max_tries)
    budget = default_max_tries(n) if max_tries is None else int(max_tries)
    rest = rest_of_deck(deck, fixed)
    free = [s for s in Seat if s not in fixed]
    fixed_counts = {s: np.bincount(np.asarray(c, dtype=np.int64), minlength=24) for s, c in fixed.items()}
    h = deck.hand
    i = 0          # deals accepted so far
    b = 0
    while i < n:
        first = b * GEN_BLOCK
        if first >= budget:
            _out_of_tries(budget, i, n, where)
        rows, dealers = block_rows(seed, b, rest, random_dealers=dealer == "random")
        usable = min(GEN_BLOCK, budget - first)
        if where is None:
            ok = np.arange(usable)
        else:
            ok = np.flatnonzero(where.evaluate_counts(_block_counts(rows[:usable], free, fixed_counts, h)))
        for j in ok.tolist():
            if i >= start:
                hands = row_hands(rows[j], fixed, free, h)
                if dealer == "rotate":
                    who = Seat(i % 4)
                elif dealer == "random":
                    who = Seat(int(dealers[j]))
                else:
                    who = dealer
                if tally is not None:
                    tally.looked, tally.accepted = first + j + 1, i + 1
                yield Record(i, i + 1, Deal(hands, deck, who), {"seed": seed})
            i += 1
            if i >= n:
                break
        if tally is not None and i < n:
            tally.looked, tally.accepted = first + usable, i
        tries = first + usable
        if where is not None and i < n and tries >= EARLY_TRIES and _hopeless(tries, i, n, budget):
            _out_of_tries(tries, i, n, where, budget)
        b += 1


def _out_of_tries(tries: int, accepted: int, wanted: int, where: Condition | None,
                  budget: int | None = None) -> None:
    """Raise WhereBudgetError: the budget is spent (``budget`` None: ``tries`` is the budget) or,
    measured early, the acceptance rate so far says it will not be enough."""
    text = where.text if where is not None else "true"
    early = budget is not None and tries < budget
    budget = tries if budget is None else budget
    raise_it = "raise --max-tries (at most 10^10) or loosen the condition"
    if accepted == 0 and early:
        msg = (f"--where {text!r}: no deal in {tries:,} tries satisfies it; {counted(wanted, 'deal')} would "
               f"need more than the budget of {budget:,} tries: stopped early; {raise_it}")
    elif accepted == 0:
        msg = (f"--where {text!r}: no deal in {tries:,} tries satisfies it (the condition may be "
               f"impossible, or rarer than 1 in {tries:,}); {raise_it}")
    else:
        need = wanted * tries / accepted
        msg = (f"--where {text!r}: {accepted:,} of {tries:,} tries satisfied it ({_percent(accepted / tries)}); "
               f"{counted(wanted, 'deal')} need about {need:,.0f} tries, over the budget of {budget:,}"
               + (": stopped early" if early else "") + f"; {raise_it}")
    raise WhereBudgetError(msg, tries, accepted, wanted)


def filter_records(records: Iterable[Record | BadLine], where: Condition,
                   tally: WhereTally | None = None) -> Iterator[Record | BadLine]:
    """The records that satisfy ``where``, in order, and every BadLine where it was; the others
    are counted in ``tally`` (``looked``, ``accepted``) and dropped.  Deals are evaluated
    :data:`FILTER_BLOCK` at a time (a BadLine first passes the deals before it)."""
    buf: list[Record] = []

    def flush() -> Iterator[Record]:
        if not buf:
            return
        counts = np.array([r.deal.counts() for r in buf], dtype=np.int64).reshape(-1, 4, 24)
        ok = where.evaluate_counts(counts)
        if tally is not None:
            tally.looked += len(buf)
            tally.accepted += int(ok.sum())
        keep = [r for r, k in zip(buf, ok.tolist()) if k]
        buf.clear()
        yield from keep

    for rec in records:
        if isinstance(rec, BadLine):
            yield from flush()
            yield rec
            continue
        buf.append(rec)
        if len(buf) >= FILTER_BLOCK:
            yield from flush()
    yield from flush()
