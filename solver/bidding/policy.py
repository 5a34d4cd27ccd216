"""Bidding policies: a seat that sees only its own hand, the dealer and the calls so far.

Every policy is vectorised over many hands in the same auction state (``hands`` ``(n, 24)``
card counts of the seat to speak).  The actions are the project's own (None for a pass,
:class:`~bideuchre.analysis.auction.Bid` for a bid), the legal ones in
:func:`~bideuchre.analysis.auction.legal_actions` order (pass first, then bids low → high).

- :meth:`BidPolicy.call_probs` → ``(actions, probs (n, len(actions)))``: the policy's
  probability of each action for each hand (rows sum to 1);
- :meth:`BidPolicy.choose` → ``(actions, idx (n,))``: the action taken (the most probable;
  ties: the first, i.e. pass, then the lower bid);
- :meth:`BidPolicy.declare_strain` → ``(n,)`` Strain ids: the declarer's strain once it has
  won the auction with ``bid`` (the bid's own strain where it is named with the bid).

Two policies are built in (:func:`get_policy` by name; :func:`register_policy` adds more):

``heuristic`` (:class:`HeuristicPolicy`), a trick estimate in the style of the TricksterBots
Bid Euchre bot: in each strain, every trump held counts 1, 0.75 or 0.5 as 0, 1 or 2+ higher
trumps are out of the hand (the bowers first, RULES.md §1; in a double deck the second copy of
a card ranks below the first), each side ace 0.5; in NT and NTL every card counts 1 or 0.75
as 0 or 1 higher cards of its suit are out (0.75 only in a suit of two cards or more), else 0.
The estimate of the best strain plus a partner allowance of one trick per six of the hand
(:data:`PARTNER_ALLOWANCE`), rounded down, is the bid, made if legal (the dealer of
``racehorse`` may equal the high bid); otherwise pass, or where pass is not legal the lowest
legal bid.  A hand whose own estimate is within one trick of every trick bids the lowest
legal lone bid; within a quarter, the highest.  Other calls are ignored.

``model`` (:class:`ModelPolicy`), the action with the best expected hand result (our side's
points minus theirs: :func:`bideuchre.analysis.advice.model.points`, RULES.md §1 "Scoring")
under the trick model (:class:`~bideuchre.bidding.model.TrickModel`), the auction taken as if
it ended after this call:

- a number bid: in its strain (named with the bid) or the strain of the best expected result,
  weighed with the chance that an opponent still to speak outbids it (each independently, at
  the rate of :meth:`ModelPolicy.overcall_rates`), our result then being that against their
  contract a level higher (below); the same for partner's bid when we pass;
- a lone bid: P(every trick) × value − (1 − P) × (value + :data:`LONE_DEFENCE`), best strain;
- pass with no bid yet: the chance an opponent still to speak bids the minimum × our result
  against that contract (below), else 0 (a thrown-in hand, or partner's contract);
- pass over partner's bid: partner's contract valued by our hand's trick distribution (in its
  strain where named, else our best); over partner's lone bid: +:data:`LONE_PRIOR` × value;
- pass over an opponent's bid: minus their contract's result, their tricks being those our side
  does not take in the strain where our hand expects fewest (their own best, as far as our
  hand can tell), or in its named strain; an opponent's lone bid: −LONE_PRIOR × value.

``call_probs`` is a softmax of those values over the legal actions with temperature
``temperature`` points (default :data:`TEMPERATURE`): no legal action has probability 0, and
an action a point worse than the best is e^-1 as likely at the default.  ``score`` is accepted
and not used (the hand result, not the game, is maximised).
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

import numpy as np

from ..analysis.auction import Bid, ladder, legal_actions
from ..analysis.advice.model import points
from ..rules import BidEuchreError, Preset, Seat, Strain, get_preset
from .features import strain_view
from .model import TrickModel

__all__ = ["BidPolicy", "HeuristicPolicy", "ModelPolicy", "get_policy", "register_policy",
           "policy_names", "auction_state", "PolicyError", "TEMPERATURE", "PARTNER_ALLOWANCE",
           "LONE_PRIOR", "LONE_DEFENCE", "OVERCALL_SCALE", "heuristic_estimate"]

TEMPERATURE = 1.0        # points: the model policy's softmax temperature
PARTNER_ALLOWANCE = 1.0  # tricks per six tricks of the hand added to the heuristic's estimate
LONE_PRIOR = 0.4         # expected result of someone else's lone bid, as a fraction of its value
LONE_DEFENCE = 1.0       # defenders' tricks assumed when a lone hand fails (where they score)
OVERCALL_HANDS = 4000    # random hands behind the model policy's overcall rates
_OVERCALLS: dict = {}    # (preset, id(model)) -> (model, overcall rates): shared by every policy
OVERCALL_SCALE = 0.5     # the share of the hands that could declare a level higher taken to outbid


class PolicyError(BidEuchreError):
    """An unknown policy name, or calls that are not a legal auction."""


_STATES: dict = {}
_STATES_MAX = 4096      # auctions remembered (a dict cleared when full: memory stays bounded)


def auction_state(preset: Preset, dealer: int, calls: Sequence[Optional[Bid]]):
    """``(index, high, high_seat, legal)`` after ``calls`` (from the dealer's left): the
    speaker's index (0 = dealer's left), the high bid and its seat (None: no bid yet), the
    legal actions now (a fresh list).  Remembered per preset, dealer and calls (the auction
    tree of an advice asks the same ones many times).  Raises PolicyError for an illegal call
    or a finished auction."""
    key = (preset, int(dealer), tuple(calls))
    hit = _STATES.get(key)
    if hit is None:
        if len(_STATES) >= _STATES_MAX:
            _STATES.clear()
        hit = _STATES[key] = _auction_state(preset, int(dealer), list(calls))
    index, high, high_seat, legal = hit
    return index, high, high_seat, list(legal)


def _auction_state(preset: Preset, dealer: int, calls: list):
    bids = ladder(preset)
    high = high_seat = None
    for i, a in enumerate(calls):
        if i >= 4 or (high is not None and high.ends_auction):
            raise PolicyError(f"calls {list(map(str, calls))}: the auction is already over")
        if a not in legal_actions(preset, bids, i, high):
            raise PolicyError(f"call {i + 1} ({'pass' if a is None else a}) is not legal")
        if a is not None:
            high, high_seat = a, (dealer + 1 + i) % 4
    index = len(calls)
    if index >= 4 or (high is not None and high.ends_auction):
        raise PolicyError("the auction is over: no call to make")
    return index, high, high_seat, legal_actions(preset, bids, index, high)


class BidPolicy:
    """A bidding policy of one preset (module docstring).  Subclasses give :meth:`call_probs`
    (and :meth:`declare_strain`); ``deterministic`` policies give one-hot rows."""

    name = "policy"
    deterministic = False
    #: True when :meth:`call_probs` and :meth:`choose` read ``calls`` only through
    #: :func:`auction_state` (the speaker's index, the high bid and its seat): callers may then
    #: reuse one answer for every auction that reaches the same state with the same hands
    #: (:func:`bideuchre.analysis.advice.table.model_paths`).  A subclass that reads more of
    #: the calls must set it False.
    state_only = False

    def __init__(self, preset: Preset | str):
        self.preset = get_preset(preset)

    def call_probs(self, hands, seat: int, dealer: int, calls: Sequence[Optional[Bid]],
                   score=None) -> tuple[list, np.ndarray]:
        raise NotImplementedError

    def choose(self, hands, seat: int, dealer: int, calls: Sequence[Optional[Bid]],
               score=None) -> tuple[list, np.ndarray]:
        """``(actions, idx)``: the legal actions and, per hand, the index of the one taken."""
        actions, probs = self.call_probs(hands, seat, dealer, calls, score)
        return actions, np.argmax(probs, axis=1)

    def declare_strain(self, hands, seat: int, dealer: int, bid: Bid) -> np.ndarray:
        raise NotImplementedError

    def _check(self, seat: int, dealer: int, calls) -> tuple:
        st = auction_state(self.preset, int(dealer), list(calls))
        if (int(dealer) + 1 + st[0]) % 4 != int(seat):
            raise PolicyError(f"it is {Seat((int(dealer) + 1 + st[0]) % 4).name}'s turn, not "
                              f"{Seat(int(seat)).name}'s")
        return st


def _hands(hands) -> np.ndarray:
    h = np.asarray(hands)
    return h[None] if h.ndim == 1 else h


# ---------------------------------------------------------------------------------------------
# heuristic

def heuristic_estimate(hands, preset: Preset | str) -> np.ndarray:
    """``(n, strains)`` the heuristic's estimate of the hand's own tricks in each of the
    preset's strains (module docstring)."""
    preset = get_preset(preset)
    deck = preset.deck
    h = _hands(hands)
    copies = deck.copies
    have = {int(r) for r in deck.ranks}
    out = np.zeros((h.shape[0], len(preset.strains)))
    for j, s in enumerate(preset.strains):
        v = strain_view(h, int(s))                          # (n, 4, 7) best first
        if s < 4:
            live = [c for c, r in enumerate([2, 2, 5, 4, 3, 1, 0]) if r in have]
            rows = [(0, live, (1.0, 0.75, 0.5), 0)]
        else:
            order = [5, 4, 3, 2, 1, 0] if s == Strain.NT else [0, 1, 2, 3, 4, 5]
            live = [c for c, r in enumerate(order) if r in have]
            rows = [(r, live, (1.0, 0.75, 0.0), 2) for r in range(4)]
        for r, cols, vals, guard in rows:
            held = v[:, r, cols]                            # (n, k) copies held, best first
            length = held.sum(axis=1)
            out_above = np.zeros(h.shape[0])
            for c in range(len(cols)):
                for m in range(copies):
                    mine = held[:, c] > m
                    val = np.where(out_above == 0, vals[0], np.where(out_above == 1, vals[1], vals[2]))
                    if guard and vals[1]:
                        val = np.where((out_above == 1) & (length < guard), 0.0, val)
                    out[:, j] += np.where(mine, val, 0.0)
                    out_above = out_above + ~mine
        if s < 4:                                           # side aces
            for r in range(1, 4):
                out[:, j] += 0.5 * v[:, r, 0]
    return out


class HeuristicPolicy(BidPolicy):
    """The TricksterBots-style trick estimate (module docstring).  Deterministic."""

    name = "heuristic"
    deterministic = True
    state_only = True

    def choose(self, hands, seat, dealer, calls, score=None):
        index, high, high_seat, legal = self._check(seat, dealer, calls)
        h = _hands(hands)
        p = self.preset
        est = heuristic_estimate(h, p)
        best = np.argmax(est, axis=1)
        own = est.max(axis=1)
        allow = PARTNER_ALLOWANCE * p.tricks / 6.0
        level = np.minimum(np.floor(own + allow + 1e-9).astype(int), p.top_bid)
        pos = {a: i for i, a in enumerate(legal)}
        pass_ok = None in pos
        lone_legal = [i for i, a in enumerate(legal) if a is not None and a.is_lone]
        idx = np.empty(h.shape[0], dtype=np.int64)
        for i in range(h.shape[0]):
            st = p.strains[best[i]]
            target = Bid(int(level[i]), str(int(level[i])), st if p.strain_named == "with" else None)
            if lone_legal and own[i] >= p.tricks - 0.25:
                idx[i] = lone_legal[-1]
            elif lone_legal and own[i] >= p.tricks - 1:
                idx[i] = lone_legal[0]
            elif level[i] >= p.min_bid and target in pos:
                idx[i] = pos[target]
            elif pass_ok:
                idx[i] = pos[None]
            else:
                named = [k for k, a in enumerate(legal) if a is not None and not a.is_lone
                         and (a.strain is None or a.strain == st)]
                idx[i] = named[0] if named else 0
        return legal, idx

    def call_probs(self, hands, seat, dealer, calls, score=None):
        legal, idx = self.choose(hands, seat, dealer, calls, score)
        probs = np.zeros((len(idx), len(legal)))
        probs[np.arange(len(idx)), idx] = 1.0
        return legal, probs

    def declare_strain(self, hands, seat, dealer, bid):
        h = _hands(hands)
        if bid.strain is not None:
            return np.full(h.shape[0], int(bid.strain), dtype=np.int64)
        best = np.argmax(heuristic_estimate(h, self.preset), axis=1)
        return np.array([int(s) for s in self.preset.strains], dtype=np.int64)[best]


# ---------------------------------------------------------------------------------------------
# model

class ModelPolicy(BidPolicy):
    """The best expected hand result under the trick model (module docstring)."""

    name = "model"
    state_only = True

    def __init__(self, preset: Preset | str, temperature: float = TEMPERATURE, model: TrickModel | None = None):
        super().__init__(preset)
        if not temperature > 0:
            raise PolicyError(f"temperature {temperature!r}: must be above 0 (points)")
        self.temperature = float(temperature)
        self.model = TrickModel.load(self.preset) if model is None else model
        self._diff: dict = {}
        self._outbids: dict = {}        # (seat, dealer, index, level) -> P(outbid): at most 4^3 x levels
        self._plans: dict = {}          # (seat, dealer, index, high bid) -> _number_plan: bounded as _outbids
        self._over: np.ndarray | None = None

    def _diffk(self, bid: Bid) -> np.ndarray:
        """Declaring side's points minus the defenders' for k = 0..tricks taken."""
        d = self._diff.get(bid)
        if d is None:
            k = np.arange(self.preset.tricks + 1)
            decl, defs, _ = points(self.preset, bid, k)
            d = self._diff[bid] = (decl - defs).astype(float)
        return d

    def _lone_ev(self, q: np.ndarray, bid: Bid) -> np.ndarray:
        v = bid.lone.value
        loss = v + (LONE_DEFENCE if self.preset.defenders_vs_lone == "tricks" else 0.0)
        return q * v - (1 - q) * loss

    def overcall_rates(self) -> np.ndarray:
        """``(top_bid + 2,)``: for each level, how often one opponent outbids a bid a level
        lower: :data:`OVERCALL_SCALE` × the share of random hands (:data:`OVERCALL_HANDS` of
        them, drawn with a fixed seed) whose best number contract at that level has a positive
        expected result under the model.  (Not every such hand bids: the scale, 0.5, was chosen
        on 600 deals of seed 100 of racehorse and standard against the heuristic -- 1, 0.5 and
        0.25 gave +0.70/+1.06, +0.61/+1.35, +0.50/+1.53 points a deal; the benchmarks use other
        seeds.)  Computed once per preset and trick model (every policy of them shares it)."""
        if self._over is None:
            hit = _OVERCALLS.get((self.preset, id(self.model)))
            if hit is not None and hit[0] is self.model:
                self._over = hit[1]
        if self._over is None:
            p = self.preset
            rng = np.random.default_rng(0)
            deck = np.repeat(np.array([int(c) for c in p.deck.card_ids]), p.deck.copies)
            rows = rng.permuted(np.tile(deck, (OVERCALL_HANDS, 1)), axis=1)[:, :p.tricks]
            h = np.zeros((OVERCALL_HANDS, 24), dtype=np.uint8)
            np.add.at(h, (np.repeat(np.arange(OVERCALL_HANDS), p.tricks), rows.ravel()), 1)
            pr = self.model.trick_probs(h, 1, 0)
            over = np.zeros(p.top_bid + 2)
            for lvl in range(p.min_bid, p.top_bid + 1):
                over[lvl] = OVERCALL_SCALE * ((pr @ self._diffk(Bid(lvl, str(lvl)))).max(axis=1) > 0).mean()
            over.setflags(write=False)
            self._over = over
            _OVERCALLS[(self.preset, id(self.model))] = (self.model, over)
        return self._over

    def _outbid(self, seat: int, dealer: int, index: int, level: int) -> float:
        """P(an opponent still to speak outbids a contract at ``level``) (module docstring);
        remembered per (seat, dealer, index, level)."""
        key = (seat, dealer, index, level)
        hit = self._outbids.get(key)
        if hit is None:
            hit = self._outbids[key] = self._outbid_of(seat, dealer, index, level)
        return hit

    def _outbid_of(self, seat: int, dealer: int, index: int, level: int) -> float:
        p = self.preset
        over = self.overcall_rates()
        stay = 1.0
        for i in range(index + 1, 4):
            s = (dealer + 1 + i) % 4
            if (s - seat) % 2 == 0:
                continue
            need = level + (0 if (i == 3 and p.dealer_may_equal) else 1)
            stay *= 1.0 - (over[need] if p.min_bid <= need <= p.top_bid else 0.0)
        return 1.0 - stay

    def _against(self, pr: np.ndarray, bid: Bid, sidx: dict) -> np.ndarray:
        """Our side's expected result when an opponent declares the number ``bid``: they take
        the tricks we do not, in its strain or the one where our hand expects fewest."""
        n = pr.shape[0]
        if bid.strain is not None:
            s = np.full(n, sidx[bid.strain])
        else:
            s = np.argmin(pr @ np.arange(self.preset.tricks + 1), axis=1)
        ours = pr[np.arange(n), s]
        return -(ours @ self._diffk(bid)[::-1])

    def action_values(self, hands, seat, dealer, calls, score=None) -> tuple[list, np.ndarray]:
        """``(actions, values (n, len(actions)))``: each legal action's expected hand result
        (points, our side minus theirs) under the model (module docstring)."""
        index, high, high_seat, legal = self._check(seat, dealer, calls)
        h = _hands(hands)
        p = self.preset
        pr = self.model.trick_probs(h, seat, dealer)                 # (n, S, k)
        q = self.model.lone_probs(h, seat, dealer) if p.lone_bids else None
        sidx = {s: j for j, s in enumerate(p.strains)}

        def number(b: Bid) -> np.ndarray:
            ev = pr @ self._diffk(b)
            return ev[:, sidx[b.strain]] if b.strain is not None else ev.max(axis=1)

        def contested(b: Bid, ev: np.ndarray) -> np.ndarray:
            """``ev`` of our side's contract ``b``, weighed with the chance it is outbid."""
            po = self._outbid(seat, dealer, index, b.level)
            if po == 0.0:
                return ev
            nxt = min(b.level + 1, p.top_bid)
            return (1 - po) * ev + po * self._against(pr, Bid(nxt, str(nxt)), sidx)

        vals = np.zeros((h.shape[0], len(legal)))
        plan = self._number_plan(seat, dealer, index, high, legal)
        if plan is not None:        # every number bid at once: the same arithmetic, column by column
            cols, ds, key, sid, po, nxts, nxt = plan
            ev3 = np.stack([pr @ d for d in ds], axis=2)                        # (n, S, K)
            ev = np.where(sid[None, :] >= 0, ev3[:, np.maximum(sid, 0), key],
                          ev3.max(axis=1)[:, key])
            ag = np.stack([self._against(pr, Bid(x, str(x)), sidx) for x in nxts], axis=1)
            vals[:, cols] = np.where(po[None, :] == 0.0, ev,
                                     (1 - po)[None, :] * ev + po[None, :] * ag[:, nxt])
        for a_i, a in enumerate(legal):
            if a is None:
                if high is None:
                    po = self._outbid(seat, dealer, index, p.min_bid - 1)
                    low = Bid(p.min_bid, str(p.min_bid))
                    v = po * self._against(pr, low, sidx) if po else 0.0
                elif (high_seat - seat) % 2 == 0:                    # partner's contract
                    v = LONE_PRIOR * high.lone.value if high.is_lone else contested(high, number(high))
                else:                                                # the opponents'
                    v = -LONE_PRIOR * high.lone.value if high.is_lone else self._against(pr, high, sidx)
                vals[:, a_i] = v
            elif a.is_lone:
                bi = list(p.lone_bids).index(a.lone)
                vals[:, a_i] = self._lone_ev(q[:, :, bi], a).max(axis=1)
        return legal, vals

    def _number_plan(self, seat: int, dealer: int, index: int, high, legal: list):
        """How :meth:`action_values` values the number bids of ``legal`` together:
        ``(columns, points vectors, per column its vector's index, its strain index or -1,
        P(outbid), the levels above, per column its level above's index)``, or None when
        there is no number bid; remembered per (seat, dealer, index, high bid)."""
        key = (seat, dealer, index, high)
        hit = self._plans.get(key)
        if hit is not None or key in self._plans:
            return hit
        p = self.preset
        sidx = {s: j for j, s in enumerate(p.strains)}
        cols, dkey, sid, po, nxt = [], [], [], [], []
        ds: dict = {}
        nxts: dict = {}
        for a_i, a in enumerate(legal):
            if a is None or a.is_lone:
                continue
            d = self._diffk(a)
            cols.append(a_i)
            dkey.append(ds.setdefault(d.tobytes(), (len(ds), d))[0])
            sid.append(sidx[a.strain] if a.strain is not None else -1)
            po.append(self._outbid(seat, dealer, index, a.level))
            nxt.append(nxts.setdefault(min(a.level + 1, p.top_bid), len(nxts)))
        plan = None
        if cols:
            plan = (np.array(cols), [d for _, d in ds.values()], np.array(dkey), np.array(sid),
                    np.array(po, dtype=np.float64), list(nxts), np.array(nxt))
        self._plans[key] = plan
        return plan

    def call_probs(self, hands, seat, dealer, calls, score=None):
        legal, vals = self.action_values(hands, seat, dealer, calls, score)
        z = (vals - vals.max(axis=1, keepdims=True)) / self.temperature
        e = np.exp(z)
        return legal, e / e.sum(axis=1, keepdims=True)

    def choose(self, hands, seat, dealer, calls, score=None):
        legal, vals = self.action_values(hands, seat, dealer, calls, score)
        return legal, np.argmax(vals, axis=1)

    def declare_strain(self, hands, seat, dealer, bid):
        h = _hands(hands)
        p = self.preset
        if bid.strain is not None:
            return np.full(h.shape[0], int(bid.strain), dtype=np.int64)
        codes = np.array([int(s) for s in p.strains], dtype=np.int64)
        if bid.is_lone:
            bi = list(p.lone_bids).index(bid.lone)
            return codes[np.argmax(self.model.lone_probs(h, seat, dealer)[:, :, bi], axis=1)]
        ev = self.model.trick_probs(h, seat, dealer) @ self._diffk(bid)
        return codes[np.argmax(ev, axis=1)]


# ---------------------------------------------------------------------------------------------
# registry

_REGISTRY: dict[str, Callable[..., object]] = {"heuristic": HeuristicPolicy, "model": ModelPolicy}


def register_policy(name: str, factory: Callable[..., object]) -> None:
    """Make ``get_policy(name, preset, **options)`` return ``factory(preset, **options)``."""
    _REGISTRY[name] = factory


def policy_names() -> list[str]:
    """The registered policy names (the built-in ones, and any registered since)."""
    return list(_REGISTRY)


def get_policy(name: str, preset: Preset | str, **options):
    """The policy ``name`` for ``preset``.  Raises PolicyError naming the known policies."""
    f = _REGISTRY.get(name)
    if f is None:
        raise PolicyError(f"unknown policy {name!r} (known: {', '.join(policy_names())})")
    return f(get_preset(preset), **options)
