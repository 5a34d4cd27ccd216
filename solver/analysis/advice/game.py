"""The chance of winning the *game*, not only this hand: a short game model over the hands
still to come (``bid --score``).

**A future hand** is drawn from the preset's distribution of hand results
(``hand_results.json`` in this package, made by ``benchmarks/hand_results.py``, seeded:
random deals, every seat bidding by the bidding policy from its own hand, the contract
played double dummy): the declaring side's points, the defenders' points and whether the
contract made, or a thrown-in hand.  Each future hand is declared by either side with
probability 1/2 (the deal rotates; the model does not track the dealer).

**The game** (RULES.md §2 "game end") is a Markov chain on the score ``(us, them)`` before a
hand: :func:`game_end` says after each hand whether we have won, they have, or play goes on
(``standard``: a side at or above the target with the higher total, a level score plays on;
``pepper``: at or above the target, both: the bidding side; ``racehorse``/``double48``: at or
above the target on a hand in which that side made its bid or set the bidders).  ``V(us,
them)``, the chance that we win from a score, solves ``V = Σ p(hand) · [won + (goes on) ·
V(next score)]`` by value iteration to 1e-9.  Scores are kept on a grid from ``-2 × target``
to ``target + ``the most points of a hand: a lower score is counted at the floor (a side
that far behind nearly never wins) and a higher one, possible only where reaching the
target needs a made bid or a set, at the top.

The advice then rates an action by the mean over the deals of: 1 where this hand wins us the
game, 0 where it loses it, else ``V`` at the score after this hand.  Presets played over a
number of hands (``double32``) have no target: no game model.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Optional

import numpy as np

from ...rules import Preset, RulesError, get_preset

__all__ = ["GameModel", "game_end", "hand_table"]


def game_end(preset: Preset, u: np.ndarray, t: np.ndarray, us_declared: np.ndarray,
             made: np.ndarray, played: np.ndarray, target: int) -> tuple[np.ndarray, np.ndarray]:
    """After a hand, with the scores ``u`` (ours) and ``t`` (theirs) after it: ``(we won,
    they won)`` bool arrays (module docstring; RULES.md §2).  ``us_declared``: our side
    declared; ``made``: the contract made; ``played``: not thrown in."""
    if preset.win_needs_bid_result:
        ours = played & ((us_declared & made) | (~us_declared & ~made))
        return ours & (u >= target), played & ~ours & (t >= target)
    if preset.bidders_win_ties:
        both = (u >= target) & (t >= target)
        win = played & (u >= target) & (~both | us_declared)
        lose = played & (t >= target) & (~both | ~us_declared)
        return win, lose
    top = np.maximum(u, t) >= target
    return played & top & (u > t), played & top & (t > u)


@lru_cache(maxsize=None)
def _table_file() -> dict:
    return json.loads(resources.files(__package__).joinpath("hand_results.json").read_text())


def hand_table(preset: Preset) -> Optional[dict]:
    """The preset's hand-result distribution from ``hand_results.json`` (keyed by the preset's
    name and deck form), or None if none is shipped: ``{"outcomes": [[declarer points,
    defender points, made, count], ...], "thrown_in": count, "deals": N, "policy": name}``."""
    return _table_file().get(f"{preset.name}/{preset.deck.name}")


class GameModel:
    """``V(us, them)`` for one preset and target (module docstring): :meth:`value` and
    :meth:`after_hand`.  Raises RulesError when the preset has no target or no hand table."""

    def __init__(self, preset: Preset, target: int, table: dict):
        self.p = preset
        self.target = int(target)
        out = np.array(table["outcomes"], dtype=np.float64).reshape(-1, 4)
        total = out[:, 3].sum() + table.get("thrown_in", 0)
        self.p_thrown = table.get("thrown_in", 0) / total
        decl, dfn, made, cnt = out[:, 0].astype(int), out[:, 1].astype(int), out[:, 2] > 0, out[:, 3]
        # each hand declared by us or by them, 1/2 each
        self.du = np.concatenate([decl, dfn])
        self.dt = np.concatenate([dfn, decl])
        self.us_decl = np.concatenate([np.ones(len(decl), bool), np.zeros(len(decl), bool)])
        self.made = np.concatenate([made, made])
        self.prob = np.concatenate([cnt, cnt]) / (2 * total)
        top = int(max(np.abs(out[:, :2]).max(), preset.tricks)) if out.size else preset.tricks
        self.lo, self.hi = -2 * self.target, self.target + top
        self.V = self._solve()

    @classmethod
    def for_preset(cls, preset: Preset | str, target: Optional[int] = None) -> "GameModel":
        preset = get_preset(preset)
        tgt = preset.target if target is None else target
        if tgt is None:
            raise RulesError(f"preset {preset.name} is played over {preset.hands} hands: no target decides the game")
        return _model(preset, int(tgt))

    def _idx(self, x: np.ndarray) -> np.ndarray:
        return np.clip(x, self.lo, self.hi) - self.lo

    def _solve(self) -> np.ndarray:
        g = np.arange(self.lo, self.hi + 1)
        U, T = np.meshgrid(g, g, indexing="ij")
        G = g.size
        won = np.zeros((G, G))
        trans = []
        for du, dt, ud, mk, pr in zip(self.du, self.dt, self.us_decl, self.made, self.prob):
            u2, t2 = U + du, T + dt
            w, l = game_end(self.p, u2, t2, np.full(U.shape, ud), np.full(U.shape, mk),
                            np.ones(U.shape, bool), self.target)
            won += pr * w
            go = ~(w | l)
            trans.append((pr, go, self._idx(u2), self._idx(t2)))
        V = np.zeros((G, G))
        for _ in range(2000):
            nv = won + self.p_thrown * V
            for pr, go, iu, it in trans:
                nv += pr * np.where(go, V[iu, it], 0.0)
            if np.max(np.abs(nv - V)) < 1e-9:
                V = nv
                break
            V = nv
        return V

    def value(self, us, them) -> np.ndarray:
        """The chance we win the game from the score ``(us, them)`` before a hand."""
        return self.V[self._idx(np.asarray(us)), self._idx(np.asarray(them))]

    def after_hand(self, o, my_side: int, us: int, them: int) -> np.ndarray:
        """Per deal: the chance we win the game given this hand's outcome ``o`` (an
        :class:`~.model.Outcome`) from the score ``(us, them)`` before it: 1 won this hand,
        0 lost, else :meth:`value` at the score after it."""
        mine = o.ns if my_side == 0 else o.ew
        theirs = o.ew if my_side == 0 else o.ns
        u, t = us + mine.astype(np.int64), them + theirs.astype(np.int64)
        played = o.side >= 0
        w, l = game_end(self.p, u, t, o.side == my_side, o.made, played, self.target)
        return np.where(w, 1.0, np.where(l, 0.0, self.value(u, t)))


@lru_cache(maxsize=16)
def _model(preset: Preset, target: int) -> GameModel:
    table = hand_table(preset)
    if table is None:
        raise RulesError(f"no hand-result table for preset {preset.name} ({preset.deck.name}): "
                         "no game model")
    return GameModel(preset, target, table)
