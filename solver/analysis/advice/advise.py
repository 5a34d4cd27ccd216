""":func:`advise`: bid advice for one hand — draw (or take) deals, solve them in chunks on
worker threads, rate every action, and stop when the answer is clear (adaptive sampling)."""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from typing import Callable, Iterable, Optional, Sequence

import numpy as np

from ...notation import Deal, parse_card, parse_hand
from ...rules import Card, Preset, RulesError, Seat, check_seed, get_preset, parse_seat
from ..auction import Auction
from .deal_data import DealData, DealPlan, solve_advice_chunk
from .evidence import EPSILON, CandidateStream, Evidence, call_weights, candidate_block
from .rating import decide, rate
from .results import Advice
from .sampling import (MAX_SAMPLES, Sampler, check_hand, check_samples, deals_for_hand,
                       default_samples, sampling_plan)

__all__ = ["advise", "default_workers", "MAX_SECONDS"]

#: The longest ``max_seconds`` (about 11.6 days): the deadline is a wait's timeout, which the
#: platform bounds (``inf`` or ``1e10`` overflowed it).
MAX_SECONDS = 1_000_000


def default_workers() -> int:
    """The cores this process may use (``--workers`` default)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:              # not on Linux
        return max(1, os.cpu_count() or 1)


def _parse_known(known, preset: Preset) -> dict:
    """``{Seat: cards}`` from ``{"E": "SA HK"}``, ``["E:SA HK"]`` or ``{Seat: [cards]}``."""
    out: dict = {}
    if not known:
        return out
    items = known.items() if isinstance(known, dict) else (k.split(":", 1) for k in known)
    for s, cards in items:
        seat = parse_seat(str(s).strip() if not isinstance(s, int) else s)
        cs = parse_hand(cards) if isinstance(cards, str) else [parse_card(c) if isinstance(c, str) else c for c in cards]
        out.setdefault(seat, []).extend(cs)
    return out


def advise(hand: Sequence[int] | str, seat: int | str, dealer: int | str,
           preset: Preset | str = "standard", auction: Sequence | str = (),
           known=None, samples: int | None = None, seed: int = 1, deals: Iterable[Deal] | None = None,
           score: tuple[int, int] | None = None, target: int | None = None,
           workers: int | None = None, exact: bool = False,
           progress: Callable[[int, int], None] | None = None,
           deal_labels: Sequence[str] | None = None, max_seconds: float | None = None,
           cap: int | None = None, others: str = "model", policy=None,
           epsilon: float = EPSILON, candidates: int | None = None,
           processes: bool = False) -> Advice:
    """Bid advice for ``hand`` in ``seat`` (see the package docstring for the model).

    ``hand``: cards or hand text (``"AJ.KQ9..JT"``, ``"SA SJ HK ..."``); ``auction``: the
    actions so far from the dealer's left (text ``"pass 4"`` or a list); it must be ``seat``'s
    turn.  ``known``: cards shown in other seats (``{"E": "SA"}``).

    How many deals: ``samples`` None (the default) samples adaptively — blocks of deals (see
    :func:`~bideuchre.analysis.advice.sampling_plan`) until the recommended action is ahead
    of the runner-up by more than 3 standard errors of their paired difference, or until
    ``cap`` deals (default :func:`default_samples`); ``samples`` N rates exactly N random
    deals; ``deals``: exactly these full deals (``deal_labels``: one name per deal for error
    messages, ``"deals.txt: line 7"``).  ``max_seconds``: stop drawing deals after this many
    seconds (wall clock, more than 0 and at most :data:`MAX_SECONDS`) and rate the deals solved by then (a deal already being solved is
    finished first: up to a few seconds more on ``double48``).  At most
    :data:`~bideuchre.analysis.advice.MAX_SAMPLES` deals.  ``seed``: deal i is drawn from
    ``(seed, i)`` alone.

    ``score``: ``(us, them)`` before this hand, with ``target`` (default the preset's): adds
    the probability of winning the game this hand.  ``workers``: threads for the searches
    (default: every core this process may use); results do not depend on it.  ``processes``:
    the workers are processes forked from this one (:mod:`.forked`; POSIX only, else threads):
    the model's continuation of the auction is Python and holds the GIL, so threads share one
    core for it; for a command-line caller (``bid``), not a server.  ``exact``:
    exact EVs for our lone bids even where they cannot be the best.  ``progress(done,
    total)`` is called as deals are solved (``total``: the most deals that may be drawn).

    ``others``: how the other seats bid.  ``"model"`` (the default): the calls heard are
    evidence — each deal is weighted by the bidding policy's probability of every earlier
    call (:mod:`.evidence`; ``epsilon`` the noise floor; random deals are drawn as weighted
    candidates through rejection control, at most ``candidates`` of them, default
    :data:`CANDIDATE_FACTOR` times the deals' cap) — and the seats after us bid by the
    policy from their own hands, the declarer naming its strain by it (:mod:`.table`).
    ``"dd"``: uniform deals and every other seat bidding double dummy with all hands open (the
    par view).  ``policy``: a :class:`~bideuchre.bidding.BidPolicy` or a policy name
    (default ``"model"``).  Adaptive sampling stops only once the effective sample size of
    the weights reaches half the first look's deals.

    Returns an :class:`Advice`.  Raises NotationError / RulesError for bad input (a hand of
    the wrong size, a card placed twice, an illegal auction, not this seat's turn, a score at
    which the game is already over, ``samples``, ``cap`` or given deals beyond the limit,
    ``others`` not "model" or "dd", ``epsilon`` outside 0 … 1, given deals of which none fits
    the calls heard).
    """
    preset = get_preset(preset)
    seat = parse_seat(seat)
    dealer = parse_seat(dealer)
    cards = parse_hand(hand) if isinstance(hand, str) else [parse_card(c) if isinstance(c, str) else c for c in hand]
    known_cards = _parse_known(known, preset)
    check_hand(preset, cards, known_cards)  # the hand's own errors first: a wrong size, a card twice
    auc = Auction.parse(auction, preset, dealer) if isinstance(auction, str) else Auction(preset, dealer, auction)
    if auc.to_act != seat:
        who = "the auction is over" if auc.to_act is None else f"{auc.to_act.name} speaks next"
        raise RulesError(f"it is not {seat.name}'s turn to bid after {str(auc) or 'no bids'!r} (dealer {dealer.name}): {who}")
    seed = check_seed(seed)         # one rule with batch --generate: a whole number >= 0
    tgt = target if target is not None else preset.target
    if score is not None and tgt is not None and max(score) >= tgt:
        raise RulesError(f"score {score[0]}-{score[1]}: the game is already over (target {tgt})")
    if workers is None:
        workers = default_workers()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise RulesError(f"workers must be at least 1, got {workers!r}")
    if max_seconds is not None and not 0 < max_seconds <= MAX_SECONDS:
        raise RulesError(f"--max-seconds must be more than 0 and at most {MAX_SECONDS:,}, got {max_seconds}")
    if others not in ("model", "dd"):
        raise RulesError(f"--others {others!r}: expected model (the other seats bid from their "
                         "own hands) or dd (they see every hand)")
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not 0 <= epsilon <= 1:
        raise RulesError(f"epsilon {epsilon!r}: the noise floor must be 0 to 1")
    if candidates is not None and (isinstance(candidates, bool) or not isinstance(candidates, int)
                                   or candidates < 1):
        raise RulesError(f"candidates {candidates!r}: must be a whole number of at least 1")
    pol = None
    if others == "model":
        pol = _policy(policy, preset)
    plan = sampling_plan(preset)
    given = None
    if deals is not None:
        given = deals_for_hand(deals, seat, cards, known_cards, deal_labels)
        total, adaptive, seed_out, stopped = given.shape[0], False, None, "deals"
    elif samples is not None:
        total, adaptive, seed_out, stopped = check_samples(samples), False, seed, "samples"
    else:
        total = check_samples(cap, "cap") if cap is not None else default_samples(preset)
        adaptive, seed_out, stopped = True, seed, "cap"
    sampler = None if given is not None else Sampler(preset, seat, cards, known_cards, seed)
    dplan = DealPlan.make(preset, auc, int(seat), cards, others, pol)
    min_neff = plan.block * plan.min_blocks / 2 if pol is not None else 0
    game = None
    game_note = None
    if score is not None and tgt is not None and others == "model":
        from .game import GameModel
        try:
            game = GameModel.for_preset(preset, tgt)
        except RulesError as exc:       # no hand-result table shipped for this deck form
            game_note = f"{exc}: P(win) is the game won this hand"
    evidence = stream = given_w = None
    if pol is not None:
        heard = list(auc.actions)

        def weigh(counts):
            return call_weights(pol, preset, dealer, heard, counts, int(seat), None, epsilon)

        evidence = Evidence(len(heard), float(epsilon))
        evidence.floor_only = _floor_only(preset, auc, epsilon)
        if given is not None:
            given_w = np.concatenate([weigh(given[a:a + 4096]) for a in range(0, given.shape[0], 4096)])
            keep = given_w > 0
            if not keep.any():
                raise RulesError("no given deal fits the calls heard (every one has weight 0 under "
                                 "the bidding policy with this noise floor)")
            given, given_w = given[keep], given_w[keep]
            total = given.shape[0]
        else:
            budget = candidates if candidates is not None else CANDIDATE_FACTOR * total
            stream = CandidateStream(sampler, weigh, seed, budget, block=candidate_block(total))
            evidence.threshold = stream.threshold
    data = DealData(dplan, total)
    checks = plan.checkpoints(total) if adaptive else [total]
    # a deadline is looked at between chunks: with one, chunks of a tenth (a double48 chunk of
    # ten deals is over a second of one core's work); the answers are the same either way
    chunk = plan.chunk if max_seconds is None else max(1, plan.chunk // 10)

    def fetch(start: int):
        """The deals from ``start`` (at most a chunk) and their weights, in the main thread
        and in index order (the candidate stream is sequential)."""
        k = min(chunk, total - start)
        if stream is not None:
            return stream.take(k)
        if given is not None:
            return given[start:start + k], (None if given_w is None else given_w[start:start + k])
        return sampler.deals(start, k), None

    def draw(start: int, counts, w):
        return solve_advice_chunk(dplan, start, counts, w)

    done = [0]
    lock = threading.Lock()

    def tick(k: int) -> None:
        with lock:
            done[0] += k
            if progress:
                progress(min(done[0], total), total)

    deadline = None if max_seconds is None else time.monotonic() + max_seconds
    rating = decision = None
    look = 0                             # the next checkpoint
    timed_out = False
    ex = pool = None
    pending: deque = deque()            # futures in index order
    nxt = 0                             # the next deal to submit
    try:
        if workers > 1 and processes:
            from .forked import ForkPool, available
            if available():
                try:
                    # no more processes than cores (memory bounded whatever --workers says)
                    pool = ForkPool(min(workers, default_workers()), draw,
                                    on_done=lambda ch: tick(ch.counts.shape[0]))
                except OSError:         # no process to be had: threads do the same work
                    pool = None
        if workers > 1 and pool is None:
            ex = ThreadPoolExecutor(workers)
        while data.S < total:
            if ex is None and pool is None:
                if deadline is not None and time.monotonic() >= deadline and data.S > 0:
                    timed_out = True
                    break
                counts, w = fetch(nxt)
                if counts.shape[0] == 0:
                    total = data.S
                    stopped = "budget"
                    break
                ch = draw(nxt, counts, w)
                nxt += ch.counts.shape[0]
                tick(ch.counts.shape[0])
                data.append(ch)
            else:
                # keep every worker busy, a few chunks ahead of the next look (chunks solved
                # beyond a stop are dropped: the results depend only on whole blocks)
                while (nxt < total and len(pending) < 2 * workers
                       and nxt < checks[look] + workers * chunk):
                    counts, w = fetch(nxt)
                    if counts.shape[0] == 0:
                        total = nxt         # the candidate budget is spent
                        stopped = "budget"
                        break
                    if pool is not None:
                        f = pool.submit(nxt, counts, w)
                    else:
                        f = ex.submit(draw, nxt, counts, w)
                        f.add_done_callback(lambda f: f.cancelled() or f.exception() or tick(f.result().counts.shape[0]))
                    pending.append(f)
                    nxt += counts.shape[0]
                if not pending:
                    break
                head = pending[0]
                timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
                waiter = wait if pool is None else pool.wait
                waiter([head], timeout=timeout)
                if not head.done():
                    if data.S > 0:
                        timed_out = True
                        break
                    waiter([head])          # nothing solved yet: finish the first chunk
                pending.popleft()
                data.append(head.result())
                # take every chunk already solved, in order
                while pending and pending[0].done() and data.S < checks[look]:
                    data.append(pending.popleft().result())
            if data.S >= checks[look]:
                if adaptive or data.S >= total:
                    rating = rate(data, auc, exact, score, tgt if score else None, game)
                    decision = decide(rating)
                    if adaptive and decision.clear and rating.n_eff >= min_neff:
                        stopped = "clear"
                        break
                look = min(look + 1, len(checks) - 1)
            if deadline is not None and time.monotonic() >= deadline and data.S < total:
                timed_out = True
                break
    finally:
        if pool is not None:
            pool.close()                # kills and reaps the workers, whatever happened
        if ex is not None:
            for f in pending:
                f.cancel()
            ex.shutdown(wait=False, cancel_futures=True)
    if timed_out:
        stopped = "time"
    if data.S == 0:
        raise RulesError("no deal fits the calls heard within the candidate budget "
                         f"({stream.candidates:,} uniform deals): raise --candidates or the "
                         "noise floor (--epsilon)")
    if rating is None or rating.S != data.S:
        rating = rate(data, auc, exact, score, tgt if score else None, game)
        decision = decide(rating)
    if progress:
        progress(data.S, data.S)
    r = rating
    laid = {name: [str(Card(c)) for c in d] for name, d in data.laid_down.items()}
    adv = Advice(preset, seat, dealer, cards, list(auc.actions), seed_out, data.S, r.results,
                 r.recommend, r.strains, r.best_for_game, score, tgt if score else None,
                 r.notes, laid)
    adv.runner_up = None if decision.runner is None else r.results[decision.runner]
    adv.same_as_recommend = [r.results[i] for i in decision.same]
    adv.difference = decision.difference
    adv.difference_se = 0.0 if decision.runner is None else decision.se
    adv.close = decision.runner is not None and decision.close
    adv.stopped = stopped
    adv.cap = total if adaptive else None
    adv.max_seconds = max_seconds
    adv.known = {Seat(s): list(c) for s, c in known_cards.items()}
    adv.others = others
    adv.game_model = game is not None
    if game_note:
        adv.notes.append(game_note)
    adv.n_eff = rating.n_eff
    adv.sample = (data.counts, data.weights if data.weights is not None else np.ones(data.S))
    if evidence is not None:
        evidence.kept = data.S
        evidence.n_eff = rating.n_eff
        if stream is not None:
            evidence.candidates, evidence.p_calls, evidence.candidate_n_eff = stream.summary(data.S)
            uniform = stream.pilot
        else:
            evidence.candidates = data.S
            evidence.p_calls = float(given_w.mean())
            evidence.candidate_n_eff = rating.n_eff / data.S
            uniform = data.counts
        W = data.weights if data.weights is not None else np.ones(data.S)
        evidence.describe(pol, preset, dealer, list(auc.actions), int(seat), data.counts, W, uniform)
        adv.evidence = evidence
    return adv


#: Candidate deals drawn at most, per deal of the cap (the calls heard as evidence).
CANDIDATE_FACTOR = 100


def _policy(policy, preset: Preset):
    """The bidding policy: a BidPolicy as given, else by name (default ``"model"``)."""
    if policy is not None and not isinstance(policy, str):
        return policy
    from ...bidding import ModelDataError, get_policy
    try:
        return get_policy(policy or "model", preset)
    except ModelDataError as exc:
        raise RulesError(f"{exc}; or --others dd (the other seats see every hand)") from None


def _floor_only(preset: Preset, auc: Auction, epsilon: float) -> float:
    """The weight of a deal on which the policy gives every heard call probability 0: the
    product of ε / (legal actions) over the calls heard."""
    a = Auction(preset, auc.dealer)
    out = 1.0
    for c in auc.actions:
        out *= epsilon / len(a.legal_actions())
        a.play(c)
    return out
