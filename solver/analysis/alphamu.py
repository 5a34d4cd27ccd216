"""Single-dummy play that keeps one strategy over the worlds: the αμ search.

Perfect Information Monte Carlo (:func:`bideuchre.analysis.play.advise_view`) scores each card
by its double-dummy value averaged over the consistent deals ("worlds"), so it assumes that
after this card the player will know the deal: it credits a line that wins in every world by a
different later play (strategy fusion, Frank & Basin 1998).  αμ (Cazenave & Ventos, "The αμ
search algorithm for the game of bridge", 2019) searches the worlds together instead: a
position of the search holds the set of worlds in which the cards played so far are possible,
and a value is a vector over those worlds (the player's side's whole-hand tricks in each).

- At the **searcher's** turn (the seat advised; its hand and every card played are the same
  in all the worlds of the position, so it cannot tell them apart) one card is chosen for all
  of them: the position's value is the union of its cards' values (a set of vectors, kept as
  a Pareto front: a vector no better than another in every world is dropped).
- At **another seat's** turn the card may differ from world to world: the opponents play in
  each world the card that is worst for the searcher's side (αμ's assumption: the defence
  knows the deal, a best response in each world), the searcher's partner the best one (as
  PIMC assumes of every player: the partner is credited with seeing the deal).  The value is
  the product of the cards' fronts, combined world by world with min (opponents) or max
  (partner), then Pareto-reduced.
- ``depth`` M counts the searcher's cards chosen jointly, this one included: at its M+1-th
  turn (or when a single world is left, or the hand is over) each world is scored double dummy
  (the core's ``Solver.solve``, RULES.md §3).  M = 1 is PIMC; M ≥ the searcher's cards left
  with every consistent world is an exact information-set search for the searcher against
  the assumptions above.

The card recommended is the one whose front holds the vector of the best weighted mean under
``objective`` (expected tricks, the chance to make or set, or the expected hand result:
each a non-decreasing function of the side's tricks, so the front kept in tricks serves all
three).  Where the consistent worlds number at most ``exact_limit`` they are all searched
with their shuffle weights (:meth:`~bideuchre.analysis.sampler.SeatView.enumerate`); otherwise
``worlds`` of them are sampled as :func:`~bideuchre.analysis.play.advise_view` samples (the
first ``worlds`` deals of the same seed).  Standard errors are those of the chosen vectors'
means over the sampled worlds (the choice is made on the same worlds, so they are a little
optimistic).

Against PIMC the vectors can only be lower or equal world by world (a joint strategy is one of
the per-world ones), so the method gives up PIMC's over-optimism, not its speed: the search
grows with the worlds and M (M = 2 is the default; ``exact_limit`` small).
"""

from __future__ import annotations

import numpy as np

from ..rules import RulesError, effective_suit, next_active, trick_winner
from ..search.solve import get_solver
from .explain import card_groups
from .sampler import SeatView, view_groups


__all__ = ["default_alphamu_worlds", "DEFAULT_DEPTH", "MAX_DEPTH", "DEFAULT_AM_EXACT_LIMIT",
           "SearchStats"]

DEFAULT_DEPTH = 2
MAX_DEPTH = 3       # past it the search runs for minutes (six cards, six worlds: over eight)
DEFAULT_AM_EXACT_LIMIT = 64
FRONT_CAP = 128     # vectors kept per front (memory bound); past it, those of the best sums


def default_alphamu_worlds(deck) -> int:
    """Worlds αμ samples unless told (where the consistent deals exceed its exact limit):
    64 for every deck form (the search's cost grows with the worlds times the branching of
    the other seats' cards)."""
    return 64


class SearchStats:
    """Counts of one search: ``nodes`` (positions visited), ``leaves`` (DD solves),
    ``front_max`` (the largest Pareto front kept)."""

    def __init__(self) -> None:
        self.nodes = 0
        self.leaves = 0
        self.front_max = 0


def _pareto(vs: list) -> list:
    """The vectors of ``vs`` (equal-length int arrays) that no other one dominates (at least as
    good in every world), duplicates dropped; order kept.  At most :data:`FRONT_CAP` are kept
    (those of the largest sums: past the cap the search is a lower bound of the exact αμ
    value; memory stays bounded, about 16 (4 x cap)**2 x worlds bytes)."""
    if len(vs) <= 1:
        return vs
    uniq = {}
    for v in vs:
        uniq.setdefault(v.tobytes(), v)
    vs = list(uniq.values())
    if len(vs) == 1:
        return vs
    a = np.stack(vs)
    if len(vs) > 4 * FRONT_CAP:                               # memory bound: best means first
        keep = np.argsort(-a.sum(axis=1), kind="stable")[:4 * FRONT_CAP]
        a = a[keep]
        vs = [vs[k] for k in keep]
    ge = (a[:, None, :] >= a[None, :, :]).all(axis=2)        # ge[i, j]: i >= j everywhere
    np.fill_diagonal(ge, False)
    dominated = ge.any(axis=0)                                # some other i >= j (and != j)
    out = [v for v, d in zip(vs, dominated) if not d]
    if len(out) > FRONT_CAP:
        out = sorted(out, key=lambda v: -int(v.sum()))[:FRONT_CAP]
    return out


class _Search:
    """The αμ search over ``counts`` ((W, 4, 24) uint8, the remaining cards of each world at
    the view's position; changed in place during the search and restored)."""

    def __init__(self, view: SeatView, counts: np.ndarray):
        self.view = view
        self.counts = np.ascontiguousarray(counts.copy())
        self.st = int(view.strain)
        self.out = view.out
        self.seat = int(view.seat)
        self.side = self.seat % 2
        self.n = view.deck.hand
        self.solver = get_solver(view.deck)
        self.stats = SearchStats()
        s = self.st
        self.suit = np.array([int(effective_suit(c, s)) for c in range(24)])
        self.suit_mask = np.array([[self.suit[c] == u for c in range(24)] for u in range(4)])
        self.size = 3 if self.out is not None else 4
        # plain-Python tables for the per-node work (numpy scalars are slow one at a time)
        self._suit = [int(x) for x in self.suit]
        self._next = [int(next_active(p, self.out)) for p in range(4)]
        self._others = [x for x in range(4) if x != self.seat and x != self.out]
        self._groups: dict = {}       # own_groups by (the searcher's cards, the rest, the trick)

    # -- helpers ---------------------------------------------------------------------------------
    def _dd(self, idx: np.ndarray, trick: list, leader: int, mine: int, done: int) -> np.ndarray:
        """Whole-hand tricks of the searcher's side in each world of ``idx``, double dummy from
        the position (``trick``: the cards on the table, led by ``leader``)."""
        out = np.empty(len(idx), dtype=np.int16)
        cards = [c for _, c in trick]
        o = -1 if self.out is None else int(self.out)
        rest = self.n - done
        for k, w in enumerate(idx):
            ns = self.solver.solve(self.counts[w], self.st, leader, o, cards)
            out[k] = mine + (ns if self.side == 0 else rest - ns)
        self.stats.leaves += len(idx)
        return out

    def _dd_cards(self, idx: np.ndarray, trick: list, leader: int, mine: int, done: int) -> list:
        """Per group of the searcher's legal cards, the vector over the worlds of ``idx`` of
        the searcher's side's whole-hand tricks after that card, double dummy (one solve and
        one ``Solver.values`` call per world)."""
        reps = [g[0] for g in self.own_groups(idx[0], trick)]
        cards = [c for _, c in trick]
        o = -1 if self.out is None else int(self.out)
        rest = self.n - done
        out = np.empty((len(reps), len(idx)), dtype=np.int16)
        for k, w in enumerate(idx):
            c = self.counts[w]
            r = self.solver.solve(c, self.st, leader, o, cards)
            v = np.asarray(self.solver.values(c, self.st, leader, o, cards, reps, r, True))
            out[:, k] = mine + (v if self.side == 0 else rest - v)
        self.stats.leaves += len(idx)
        return list(out)

    def _after(self, trick: list, leader: int, p: int, card: int, mine: int, done: int):
        """The state after ``p`` plays ``card``: (trick, leader, to_move, mine, done)."""
        t = trick + [(p, card)]
        if len(t) == self.size:
            w = t[trick_winner([c for _, c in t], self.st)][0]
            return [], w, w, mine + (w % 2 == self.side), done + 1
        return t, leader, self._next[p], mine, done

    def own_groups(self, w: int, trick: list) -> list[list[int]]:
        """The searcher's legal cards in groups of equivalent ones (the same in every world:
        the searcher's hand is, and so are the cards left elsewhere taken together)."""
        c = self.counts[w]
        own = tuple(c[self.seat].nonzero()[0].tolist())
        rest = tuple(c[self._others].any(axis=0).nonzero()[0].tolist())
        played = tuple(x for _, x in trick)
        key = (own, rest, played)
        got = self._groups.get(key)
        if got is None:
            legal: list = []
            if trick:
                led = self._suit[trick[0][1]]
                legal = [x for x in own if self._suit[x] == led]
            got = self._groups[key] = card_groups(legal or list(own), list(rest) + list(played),
                                                  self.st)
        return got

    # -- the search --------------------------------------------------------------------------------
    def front(self, idx: np.ndarray, trick: list, leader: int, to_move: int, mine: int,
              done: int, m: int) -> list:
        """The Pareto front (list of (len(idx),) int16 vectors of whole-hand tricks of the
        searcher's side) of the position; ``m``: the searcher's cards still chosen jointly."""
        self.stats.nodes += 1
        if done == self.n:
            return [np.full(len(idx), mine, dtype=np.int16)]
        if len(idx) == 1 or m == 0:
            return [self._dd(idx, trick, leader, mine, done)]
        counts = self.counts
        if to_move == self.seat and m == 1:
            return _pareto(self._dd_cards(idx, trick, leader, mine, done))
        if to_move == self.seat:
            top = mine + self.n - done
            res: list = []
            for g in self.own_groups(idx[0], trick):
                c = g[0]
                counts[idx, to_move, c] -= 1
                t, ld, nx, mi, dn = self._after(trick, leader, to_move, c, mine, done)
                f = self.front(idx, t, ld, nx, mi, dn, m - 1)
                counts[idx, to_move, c] += 1
                res = _pareto(res + f)
                if any((v == top).all() for v in res):
                    break                     # every world at its most: no card does better
            self.stats.front_max = max(self.stats.front_max, len(res))
            return res
        # another seat: its card may differ by world
        held = counts[idx, to_move, :] > 0                         # (W', 24)
        if trick:
            follow = held & self.suit_mask[self.suit[trick[0][1]]]
            legal = np.where(follow.any(axis=1)[:, None], follow, held)
        else:
            legal = held
        partner = to_move % 2 == self.side
        op = np.maximum if partner else np.minimum
        init = np.int16(-1) if partner else np.int16(self.n + 1)
        acc = [np.full(len(idx), init, dtype=np.int16)]
        for c in legal.any(axis=0).nonzero()[0].tolist():
            pos = legal[:, c].nonzero()[0]
            sub = idx[pos]
            counts[sub, to_move, c] -= 1
            t, ld, nx, mi, dn = self._after(trick, leader, to_move, c, mine, done)
            f = self.front(sub, t, ld, nx, mi, dn, m)
            counts[sub, to_move, c] += 1
            new = []
            for a in acc:
                for v in f:
                    b = a.copy()
                    b[pos] = op(b[pos], v)
                    new.append(b)
            acc = _pareto(new)
        self.stats.front_max = max(self.stats.front_max, len(acc))
        return acc


def alphamu_fronts(view: SeatView, counts: np.ndarray, depth: int = DEFAULT_DEPTH):
    """The αμ fronts of the searcher's cards at the view's position over the worlds
    ``counts`` ((W, 4, 24) uint8 remaining cards, each consistent with ``view``).

    Returns ``(groups, fronts, stats)``: the searcher's legal cards in groups of equivalent
    ones (:func:`~bideuchre.analysis.explain.card_groups`, best first in effective-suit order),
    per group its Pareto front (a list of (W,) int16 vectors: the searcher's side's whole-hand
    tricks in each world under one joint strategy), and the :class:`SearchStats`.  ``depth``
    (1 to :data:`MAX_DEPTH`): the searcher's cards chosen jointly, this one included (module
    docstring).  Raises RulesError for a depth outside 1 to MAX_DEPTH or no world.
    """
    if not 1 <= depth <= MAX_DEPTH:
        raise RulesError(f"--depth must be 1 to {MAX_DEPTH} (the joint search grows "
                         f"exponentially with it), got {depth}")
    if counts.shape[0] == 0:
        raise RulesError("no world to search")
    s = _Search(view, counts)
    idx = np.arange(counts.shape[0])
    trick = [(int(p), int(c)) for p, c in view.trick]
    leader = int(view.trick_leader)
    mine = view.won[view.seat.side]
    done = sum(view.won.values())
    groups = view_groups(view)
    fronts = []
    for g in groups:
        c = g[0]
        s.counts[idx, s.seat, c] -= 1
        t, ld, nx, mi, dn = s._after(trick, leader, s.seat, c, mine, done)
        fronts.append(s.front(idx, t, ld, nx, mi, dn, depth - 1))
        s.counts[idx, s.seat, c] += 1
    return groups, fronts, s.stats


