"""Rating every legal action over the deals solved so far (the auction model's expected hand
result, with its standard error), and the adaptive rule that says when the answer is clear."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from ...rules import Card, Preset, Strain
from ..auction import Auction, format_action, ladder
from .deal_data import DealData
from .evidence import n_eff as kish, weighted_mean_se
from .model import AuctionModel, Outcome, wins_game
from .results import ActionResult, StrainStats
from .table import PolicyTable

__all__ = ["Rating", "rate", "Decision", "decide"]

#: Deals the auction model evaluates at once (its memory: some kB a deal while it runs).
EVAL_SLICE = 5000


@dataclass
class Rating:
    """The actions rated over ``S`` deals: ``results`` (legal actions, pass first),
    ``per_deal[i]`` (action i's result per deal, our points minus theirs), ``upper[i]`` (the
    per-deal upper end for an action rated as a range, else None), ``recommend``,
    ``best_for_game``, ``strains`` (``{Strain: StrainStats}``), ``notes``; ``weights`` (the
    deals' weights from the calls heard, None when unweighted) and ``n_eff`` (their
    effective sample size, ``S`` when unweighted)."""

    S: int
    results: list
    per_deal: list
    upper: list
    recommend: ActionResult
    best_for_game: Optional[ActionResult]
    strains: dict
    notes: list
    weights: Optional[np.ndarray] = None
    n_eff: float = 0.0


def rate(data: DealData, auc: Auction, exact: bool = False, score=None, tgt=None,
         game=None) -> Rating:
    """Rate every legal action of the seat to speak after ``auc`` over ``data``'s deals (see
    the package docstring for the model: the other seats double dummy, or by the policy when
    ``data`` was planned with ``others="model"``), each deal weighted by ``data.weights``
    (importance weights from the calls heard: weighted means and their standard errors,
    :func:`~.evidence.weighted_mean_se`).  ``game``: a :class:`~.game.GameModel` to rate the
    chance of winning the game (with ``score`` and ``tgt``), else the game won this hand.
    May refine ``data`` (exact lone counts)."""
    preset: Preset = data.preset
    S = data.S
    W = data.weights
    model_mode = data.plan.others == "model"

    def wmean(x) -> float:
        x = np.asarray(x, dtype=np.float64)
        return float(np.mean(x)) if W is None else float(np.dot(W, x) / W.sum())
    me = data.me
    seats = data.seats
    index = len(auc.actions)
    my_side = me % 2
    sign = 1 if my_side == 0 else -1
    acts = auc.legal_actions()

    def evaluate_slice(a0: int, b0: int, mine: str, others: str) -> list:
        view = data.view(a0, b0)
        m = AuctionModel(view, me, mine, others)
        out = []
        if model_mode:
            tab = PolicyTable(view, m, acts)
            for ai, a in enumerate(acts):
                if a is None:
                    out.append({None: tab.outcome(ai, None)})
                elif a.strain is not None:
                    out.append({int(a.strain): tab.outcome(ai, int(a.strain))})
                else:
                    out.append({int(st): tab.outcome(ai, int(st)) for st in preset.strains})
            return out
        for a in acts:
            if a is None:
                out.append({None: m.continuation(index + 1, auc.high, auc.high_seat, None)})
            elif a.strain is not None:
                out.append({int(a.strain): m.continuation(index + 1, a, me, None)})
            else:
                out.append({int(st): m.continuation(index + 1, a, me, int(st)) for st in preset.strains})
        return out

    def evaluate(mine: str, others: str):
        """For each action: {strain choice: outcome} (a pass has one, strain None), with
        failing lone hands at the given bounds ("lo"/"hi") for our seat and the others.
        A slice of deals at a time: the model's memory is bounded by the slice."""
        parts = [evaluate_slice(a0, min(S, a0 + EVAL_SLICE), mine, others)
                 for a0 in range(0, S, EVAL_SLICE)]
        if len(parts) == 1:
            return parts[0]
        return [{st: Outcome(np.concatenate([p[i][st].a for p in parts], axis=1)) for st in parts[0][i]}
                for i in range(len(acts))]

    def disagree(mine: str) -> np.ndarray:
        """Deals on which the other seats' failing lone hands at their two bounds give
        different outcomes (a slice at a time)."""
        bad = np.zeros(S, dtype=bool)
        for a0 in range(0, S, EVAL_SLICE):
            b0 = min(S, a0 + EVAL_SLICE)
            x, y = evaluate_slice(a0, b0, mine, "lo"), evaluate_slice(a0, b0, mine, "hi")
            for ox, oy in zip(x, y):
                for st in ox:
                    bad[a0:b0] |= (ox[st].a != oy[st].a).any(axis=0)
        return bad

    notes: list = []
    if data.lone:
        # the other seats' failing lone hands: exact counts on the deals where the bounds
        # disagree (whatever our own bound); with the policy table they are exact already
        for mine in (() if model_mode else ("lo", "hi")):
            idx = np.nonzero(disagree(mine))[0]
            if len(idx):
                for s in seats:
                    if s != int(me):
                        for j in range(len(data.lone)):
                            for k in range(len(data.strains)):
                                data.refine(idx, s, j, k)
        lo, hi = evaluate("lo", "lo"), evaluate("hi", "lo")
    else:
        lo = hi = evaluate("lo", "lo")

    def mean_of(o: Outcome) -> float:
        return wmean(sign * o.diff)

    # our own lone bids: exact counts where the bid could be the best action (or ``exact``)
    base_best = max((max(mean_of(o) for o in lo[i].values())
                     for i, a in enumerate(acts) if a is None or a.lone is None), default=-math.inf)
    inexact: set = set()
    for i, a in enumerate(acts):
        if a is None or a.lone is None:
            continue
        j = data.lone.index(a.lone)
        top = max(mean_of(o) for o in hi[i].values())
        if exact or top >= base_best:
            floor = max(mean_of(o) for o in lo[i].values())
            for k, st in enumerate(data.strains):
                if exact or mean_of(hi[i][int(st)]) >= floor:
                    data.refine(np.nonzero(~data.made[:, me, j, k])[0], int(me), j, k)
        else:
            inexact.add(i)
    if data.lone:
        lo, hi = evaluate("lo", "lo"), evaluate("hi", "lo")
        # a refined strain may now lose to one left as a range: refine until settled
        for i in range(len(acts)):
            a = acts[i]
            if a is None or a.lone is None or i in inexact:
                continue
            j = data.lone.index(a.lone)
            while True:
                best = max(mean_of(o) for o in lo[i].values())
                open_ = [k for k, st in enumerate(data.strains)
                         if mean_of(hi[i][int(st)]) >= best and mean_of(hi[i][int(st)]) != mean_of(lo[i][int(st)])]
                if not open_:
                    break
                for k in open_:
                    data.refine(np.nonzero(~data.made[:, me, j, k])[0], int(me), j, k)
                lo, hi = evaluate("lo", "lo"), evaluate("hi", "lo")

    def _strain_key(st, value):
        """Best mean result; among equals the strain with the most DD tricks for us, then
        the first in the preset's order."""
        if st is None:
            return (value, 0.0, 0)
        k = data.strains.index(Strain(st))
        if a_is_lone[0]:
            extra = wmean(data.made[:, me, a_is_lone[1], k])
        else:
            extra = wmean(data.dd[:, me, k])
        return (value, extra, -k)

    a_is_lone = [False, 0]
    results, per_deal, upper = [], [], []
    n = preset.tricks
    for i, a in enumerate(acts):
        choices = lo[i]
        a_is_lone[:] = [a is not None and a.lone is not None,
                        data.lone.index(a.lone) if a is not None and a.lone is not None else 0]
        best_st = max(choices, key=lambda st: _strain_key(st, mean_of(choices[st])))
        o = choices[best_st]
        v = sign * o.diff
        ev, se = weighted_mean_se(v, W)
        declared = o.declarer == int(me)
        if a is None:
            p_make = None
        else:
            k = data.strains.index(Strain(best_st)) if best_st is not None else None
            if a.lone is not None:
                p_make = wmean(data.made[:, me, data.lone.index(a.lone), k])
            else:
                p_make = wmean(data.dd[:, me, k] >= a.level)
        st_name = None if best_st is None else Strain(best_st).name
        r = ActionResult(format_action(a), st_name, ev, se, p_make,
                         wmean(declared) if a is not None else 0.0,
                         lone=a is not None and a.lone is not None)
        if i in inexact:
            r.exact = False
            r.ev_max = max(mean_of(oo) for oo in hi[i].values())
        if score is not None:
            if tgt is not None:
                if game is not None:
                    r.p_win = wmean(game.after_hand(o, my_side, score[0], score[1]))
                else:
                    r.p_win = wmean(wins_game(preset, o, my_side, score[0], score[1], tgt))
        results.append(r)
        per_deal.append(v)
        upper.append(None if i not in inexact else
                     sign * max(hi[i].values(), key=lambda oo: mean_of(oo)).diff)
    recommend = results[0]
    for r in results[1:]:
        if r.ev > recommend.ev:
            recommend = r
    # paired standard error of the difference to the recommendation (same deals)
    vb = per_deal[results.index(recommend)]
    for r, v in zip(results, per_deal):
        r.se_vs_best = weighted_mean_se(v - vb, W)[1]
    best_game = None
    if score is not None:
        if tgt is None:
            notes.append(f"preset {preset.name} is played over {preset.hands} hands: no target decides the game")
        else:
            best_game = recommend            # ties (none can win, say) keep the EV choice
            for r in results:
                if r.p_win > best_game.p_win:
                    best_game = r

    # per strain: our seat declaring
    stats = {}
    for k, st in enumerate(data.strains):
        t = data.dd[:, me, k]
        if W is None:
            hist = np.bincount(t, minlength=n + 1)[: n + 1].tolist()
        else:       # weighted: the deals' shares scaled to S deals
            hist = [round(x, 2) for x in
                    (np.bincount(t, weights=W, minlength=n + 1)[: n + 1] * S / W.sum()).tolist()]
        levels = sorted({b.level for b in ladder(preset) if b.lone is None})
        stats[st] = StrainStats(hist, wmean(t),
                                {lv: wmean(t >= lv) for lv in levels},
                                {lb.name: wmean(data.made[:, me, j, k])
                                 for j, lb in enumerate(data.lone)})
    return Rating(S, results, per_deal, upper, recommend, best_game, stats, notes, W,
                  float(S) if W is None else kish(W))


@dataclass
class Decision:
    """The recommendation against its runner-up: ``runner`` (index into the results, None
    when every other action has the recommendation's result on every deal), ``difference``
    and ``se`` (mean and standard error of the paired per-deal difference), ``clear`` (ahead
    by more than ``z`` standard errors, or by the same positive margin on every deal) and
    ``close`` (within one standard error; never on one deal, which has none); ``same``: the indices of the other actions with
    the recommendation's result on every deal (the same choice on these deals)."""

    runner: Optional[int]
    difference: float
    se: float
    clear: bool
    close: bool
    same: list = field(default_factory=list)


def decide(r: Rating, z: float = 3.0) -> Decision:
    """The adaptive rule over the rating ``r``: the runner-up is the best other
    action by EV (the upper end for one rated as a range) among those whose per-deal results
    are not identical to the recommendation's (identical ones are the same choice on these
    deals: sampling cannot part them).  The paired differences are weighted by the deals'
    weights (``r.weights``): their weighted mean and its standard error
    (:func:`~.evidence.weighted_mean_se`)."""
    rec = r.results.index(r.recommend)
    vb = r.per_deal[rec]
    best = None
    same = []
    for i, res in enumerate(r.results):
        if i == rec:
            continue
        v = r.upper[i] if r.upper[i] is not None else r.per_deal[i]
        if np.array_equal(v, vb):
            same.append(i)
            continue
        key = float(np.mean(v)) if r.weights is None else float(np.dot(r.weights, v) / r.weights.sum())
        if best is None or key > best[0]:
            best = (key, i, v)
    if best is None:
        return Decision(None, 0.0, 0.0, True, False, same)
    d = (vb - best[2]).astype(np.float64)
    m, se = weighted_mean_se(d, r.weights)
    if r.S < 2:
        se = math.inf
    clear = m > z * se if se > 0 else (m > 0 and r.S > 1)
    # one deal has no standard error: neither clear nor too close to call, just one deal
    return Decision(best[1], m, se, clear, math.isfinite(se) and m <= se, same)
