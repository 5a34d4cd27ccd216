"""The results of bid advice: one :class:`ActionResult` per legal action, :class:`StrainStats`
per strain, and the :class:`Advice` that holds them with how the sampling ended."""

from __future__ import annotations

import math

from dataclasses import dataclass, field
from typing import Optional

from ...notation import format_hand
from ...rules import Preset, Seat
from ..auction import format_action

__all__ = ["ActionResult", "StrainStats", "Advice", "action_label", "small"]


def small(x: float) -> str:
    """Points per hand to two decimals, three below 0.05 (a difference of 0.003 ± 0.002
    would otherwise read 0.00 ± 0.00)."""
    return f"{x:.2f}" if x == 0 or abs(x) >= 0.05 else f"{x:.3f}"


@dataclass
class ActionResult:
    """One legal action: ``action`` (``"pass"``, ``"4"``, ``"12"``…), ``strain`` (our strain
    if the bid stands, None for a pass), ``ev`` (mean of our points minus theirs, per hand),
    ``se`` (its standard error), ``p_make`` (probability our contract makes if it stands, DD;
    None for a pass), ``p_declare`` (probability our bid wins the auction: our seat declares),
    ``p_win`` (game won
    this hand, with a score; else None), ``exact`` (False when ``ev`` is the lower end of a
    range ending at ``ev_max``), ``se_vs_best`` (standard error of the per-deal difference to
    the recommended action: the deals are shared, so differences are much surer than the
    EVs themselves), ``lone`` (a lone bid)."""

    action: str
    strain: Optional[str]
    ev: float
    se: float
    p_make: Optional[float]
    p_declare: float
    p_win: Optional[float] = None
    exact: bool = True
    ev_max: Optional[float] = None
    se_vs_best: float = 0.0
    lone: bool = False

    def to_json(self) -> dict:
        d = {"action": self.action, "strain": self.strain, "ev": round(self.ev, 4),
             "se": round(self.se, 4), "se_vs_best": round(self.se_vs_best, 4),
             "p_make": None if self.p_make is None else round(self.p_make, 4),
             "p_declare": round(self.p_declare, 4)}
        if self.p_win is not None:
            d["p_win"] = round(self.p_win, 4)
        if not self.exact:
            d["exact"] = False
            d["ev_max"] = round(self.ev_max, 4)
        return d


@dataclass
class StrainStats:
    """DD tricks of our side with our seat declaring in one strain, over the deals:
    ``tricks_hist[k]`` deals with k tricks (k = 0..n), ``mean``, ``p_at_least[k]`` for each
    number-bid level k, ``p_all_alone[bid]`` for each lone bid (the lone hand takes every
    trick with the best exchange)."""

    tricks_hist: list
    mean: float
    p_at_least: dict
    p_all_alone: dict

    def to_json(self) -> dict:
        return {"tricks_hist": self.tricks_hist, "mean": round(self.mean, 4),
                "p_at_least": {str(k): round(v, 4) for k, v in self.p_at_least.items()},
                "p_all_alone": {k: round(v, 4) for k, v in self.p_all_alone.items()}}


@dataclass
class Advice:
    """Bid advice for one hand (see the module docstring).

    ``actions``: one :class:`ActionResult` per legal action (pass first, then bids low →
    high); ``recommend``: the action with the best ``ev`` (ties: the lower action);
    ``best_for_game``: the action with the best ``p_win`` when a score was given (None
    otherwise); ``strains``: ``{Strain: StrainStats}``; ``seed``/``samples``: the sampling
    (``seed`` None with given deals); ``laid_down``: for each loner whose cards are laid down
    at bid time (``double32``), the cards chosen (``{"two-card": ["SJ", "HJ"]}``).

    How sure it is: ``runner_up`` is the best other action whose results differ from the
    recommendation's on some deal (None when none does); ``same_as_recommend``: the other
    actions with the recommendation's result on every deal (sampling cannot part them); ``difference`` (points per hand) and
    ``difference_se`` are the mean and standard error of their *paired* per-deal difference
    (the same deals rate every action; for a runner-up rated as a range, its upper end);
    ``close`` is True when the difference is within one standard error.  ``stopped`` says how
    sampling ended: ``"clear"`` (adaptive: ahead by more than 3 standard errors), ``"cap"``
    (adaptive: the cap of ``cap`` deals reached), ``"time"`` (``max_seconds`` reached),
    ``"samples"`` (exactly the deals asked for), ``"deals"`` (the given deals).  ``known``:
    the cards shown in other seats, ``{Seat: [cards]}``, echoed so a result can be reproduced.
    ``stopped`` is ``"budget"`` when the candidate deals ran out before the deals wanted (the
    calls heard as evidence: few deals fit them).

    The other seats: ``others`` ``"model"`` (they bid by the policy from their own hands, the
    calls heard weight the deals) or ``"dd"`` (all-seeing, uniform deals); ``n_eff`` the
    effective sample size of the deals' weights (``samples`` when unweighted); ``evidence``
    (:class:`~.evidence.Evidence`, with ``others="model"``): what the calls heard did to the
    sample and tell about each other seat, and a warning when they were unlikely;
    ``sample``: the deals rated and their weights, ``((S, 4, 24) uint8 counts, (S,) float64)``
    (not in JSON); ``game_model``: ``p_win`` is the chance of winning the game, the hands
    to come by :class:`~.game.GameModel` (False: of winning it this hand).
    """

    preset: Preset
    seat: Seat
    dealer: Seat
    hand: list
    auction: list
    seed: Optional[int]
    samples: int
    actions: list
    recommend: ActionResult
    strains: dict
    best_for_game: Optional[ActionResult] = None
    score: Optional[tuple] = None
    target: Optional[int] = None
    notes: list = field(default_factory=list)
    laid_down: dict = field(default_factory=dict)
    runner_up: Optional[ActionResult] = None
    same_as_recommend: list = field(default_factory=list)
    difference: float = 0.0
    difference_se: float = 0.0
    close: bool = False
    stopped: str = "samples"
    cap: Optional[int] = None
    max_seconds: Optional[float] = None
    known: dict = field(default_factory=dict)
    others: str = "dd"
    n_eff: float = 0.0
    evidence: object = None
    sample: Optional[tuple] = None
    game_model: bool = False

    @property
    def z(self) -> float:
        """The recommendation's lead over the runner-up in standard errors of their paired
        difference (inf when the difference is the same on every deal)."""
        if self.difference_se > 0:
            return self.difference / self.difference_se
        return float("inf") if self.difference > 0 else 0.0

    def close_text(self) -> str:
        """``"too close to call: 6♠ +9.50 vs pass +9.42, difference 0.08 ± 0.40"``."""
        r, u = self.recommend, self.runner_up
        return (f"too close to call: {action_label(r)} {r.ev:+.2f} vs {action_label(u)} "
                f"{(u.ev if u.exact else u.ev_max):+.2f}, difference {small(self.difference)} ± "
                + (small(self.difference_se) if math.isfinite(self.difference_se)
                   else "? (one deal: no standard error)"))

    def to_json(self) -> dict:
        d = {"seed": self.seed, "samples": self.samples, "preset": self.preset.name,
             "seat": self.seat.name, "dealer": self.dealer.name, "hand": format_hand(self.hand),
             "auction": [format_action(a) for a in self.auction],
             "recommend": self.recommend.action, "strain": self.recommend.strain,
             "actions": [a.to_json() for a in self.actions],
             "strains": {st.name: s.to_json() for st, s in self.strains.items()}}
        if self.score is not None:
            d["score"] = {"us": self.score[0], "them": self.score[1]}
            d["target"] = self.target
            d["best_for_game"] = None if self.best_for_game is None else self.best_for_game.action
            d["best_for_game_differs"] = (self.best_for_game is not None
                                          and self.best_for_game.action != self.recommend.action)
            d["p_win_of"] = "game" if self.game_model else "this hand"
        d["sampling"] = {"stopped": self.stopped, "cap": self.cap, "max_seconds": self.max_seconds}
        d["n_eff"] = round(self.n_eff, 1)
        d["others"] = self.others
        if self.evidence is not None:
            d["evidence"] = self.evidence.to_json()
        d["runner_up"] = None if self.runner_up is None else self.runner_up.action
        d["same_as_recommend"] = [a.action for a in self.same_as_recommend]
        d["difference"] = round(self.difference, 4)
        # null with one deal: a standard error needs two (JSON has no Infinity)
        d["difference_se"] = round(self.difference_se, 4) if math.isfinite(self.difference_se) else None
        d["close"] = self.close
        if self.known:
            d["known"] = {s.name: format_hand(c) for s, c in self.known.items()}
        if self.laid_down:
            d["laid_down"] = self.laid_down
        if self.notes:
            d["notes"] = self.notes
        return d




def action_label(r: ActionResult) -> str:
    """An action as the messages name it: ``"pass"``, ``"6♠"`` and ``"5NT"`` (number bids,
    the strain once), ``"24 ♥"`` (a lone bid and its strain: ``r.lone``, as standard's 12
    and 24 are digits too), ``"two-card ♣"``."""
    from ...rules import parse_strain
    if r.strain is None:
        return r.action
    sym = parse_strain(r.strain).symbol
    if r.lone:
        return f"{r.action} {sym}"
    base = r.action[:-len(r.strain)] if r.action.endswith(r.strain) and r.action[:-len(r.strain)].isdigit() else r.action
    return f"{base}{sym}" if base.isdigit() else f"{base} {sym}"
