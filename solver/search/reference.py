"""A plain pure-Python double-dummy reference solver, for checking the fast one.

Textbook alpha-beta minimax over every legal card (no equivalence pruning, no null-window
targets, no relative-rank keys), with a memo of bounds keyed on the exact remaining hands at
trick boundaries.  It shares no search code with the Cython core: it keeps its own state
(tuples of card ids per seat), asks bideuchre.rules which cards may be played and who wins each
trick, and counts tricks itself.  Slow by design; used by the tests.
"""

from __future__ import annotations

from ..notation import Position
from ..rules import Card, Side, effective_suit, next_active, trick_winner

__all__ = ["reference_tricks", "reference_card_values"]


class _Ref:
    def __init__(self, pos: Position):
        self.strain = pos.strain
        self.out = pos.out
        self.size = pos.trick_size
        self.suit = [effective_suit(c, pos.strain) for c in range(24)]
        self.memo: dict = {}

    def legal(self, hand: tuple, trick: tuple) -> list:
        distinct = sorted(set(hand))
        if not trick:
            return distinct
        led = self.suit[trick[0][1]]
        follow = [c for c in distinct if self.suit[c] == led]
        return follow or distinct

    def value(self, hands: tuple, to_move: int, trick: tuple, alpha: int, beta: int) -> int:
        """NS tricks from here (the current trick included), fail-soft alpha-beta."""
        if not trick and not hands[to_move]:
            return 0
        key = None
        if not trick:
            key = (hands, to_move)
            lo, hi = self.memo.get(key, (0, 99))
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            alpha, beta = max(alpha, lo), min(beta, hi)
        a0, b0 = alpha, beta
        maximise = to_move % 2 == 0
        best = -1 if maximise else 99
        for card in self.legal(hands[to_move], trick):
            hand = list(hands[to_move])
            hand.remove(card)
            new_hands = hands[:to_move] + (tuple(hand),) + hands[to_move + 1:]
            new_trick = trick + ((to_move, card),)
            if len(new_trick) == self.size:
                w = new_trick[trick_winner([c for _, c in new_trick], self.strain)][0]
                gain = 1 if w % 2 == 0 else 0
                v = gain + self.value(new_hands, w, (), alpha - gain, beta - gain)
            else:
                v = self.value(new_hands, int(next_active(to_move, self.out)), new_trick, alpha, beta)
            if maximise:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        if key is not None:
            lo, hi = self.memo.get(key, (0, 99))
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.memo[key] = (lo, hi)
        return best


def _start(pos: Position) -> tuple:
    hands = tuple(tuple(pos.hand(s)) if s != pos.out else () for s in range(4))
    trick = tuple((int(s), int(c)) for s, c in pos.trick)
    return hands, int(pos.to_move), trick


def reference_tricks(position: Position, guess: dict | None = None) -> dict[Side, int]:
    """Tricks for each side over the whole hand with best play from ``position``.

    Returns ``{Side.NS: n, Side.EW: m}`` (tricks already won plus the rest).  ``guess`` (a
    result of the same shape, e.g. from the fast solver) only narrows the first alpha-beta
    window to it; a value outside the window is searched again with the full window, so the
    answer is exact whatever the guess.  Does not change ``position``.
    """
    ref = _Ref(position)
    hands, to_move, trick = _start(position)
    left = position.tricks_left
    rest = None
    if guess is not None:
        g = guess[Side.NS] - position.tricks_won[Side.NS]
        v = ref.value(hands, to_move, trick, g - 1, g + 1)
        if g - 1 < v < g + 1:
            rest = v
    if rest is None:
        rest = ref.value(hands, to_move, trick, -1, 99)
    return {Side.NS: position.tricks_won[Side.NS] + rest,
            Side.EW: position.tricks_won[Side.EW] + left - rest}


def reference_card_values(position: Position) -> dict[Card, int]:
    """For each distinct legal card of the player to move: the NS tricks over the whole hand
    after playing it, with best play thereafter.  Returns ``{Card: ns_tricks}``."""
    out = {}
    pos = position.copy()
    for card in pos.legal_cards():
        pos.play(card)
        out[card] = reference_tricks(pos)[Side.NS]
        pos.undo()
    return out
