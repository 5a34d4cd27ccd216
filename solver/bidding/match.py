"""Duplicate matches of bidding policies: the same deals twice, seats swapped.

:func:`run_match` plays policy A against policy B on ``deals`` seeded deals
(:func:`bideuchre.batch.generate_records`: deal *i* a function of the seed and *i*, the dealer
rotating N E S W).  Each deal is played twice: A north-south and B east-west, then B
north-south and A east-west.  In each run:

- the auction (RULES.md §2): each seat in turn, from the dealer's left, calls by its side's
  policy, which sees only that seat's hand, the dealer and the calls so far (the ``par`` and
  ``advice-dd`` policies see more: below);
- the final contract is played double dummy: the declarer names the strain by its policy
  (:meth:`~bideuchre.bidding.policy.BidPolicy.declare_strain`) where it was not named with the
  bid; a number contract takes the declaring side's DD tricks in that strain from the deal's DD
  table (the preset's first lead: :func:`bideuchre.search.solve.dd_table`'s rule), a lone bid
  its DD lone tricks with the best exchange (:func:`bideuchre.analysis.par.lone_tricks`,
  RULES.md §2 "Lone bids and card exchanges");
- the hand's points (:func:`bideuchre.analysis.auction.hand_result`), NS minus EW; a thrown-in
  hand scores 0.

A's edge on a deal is ``(r1 - r2) / 2`` (r1: NS − EW with A north-south, r2 with B
north-south); the match reports its mean, the standard error clustered by deal (the two runs
of a deal are one observation), a 95 % interval (mean ± 1.96 SE), and per policy how often its
side declared and how often a contract it declared was set.

Policies come from :func:`bideuchre.bidding.get_policy` by name.  Besides ``heuristic`` and
``model`` (hand-only, vectorised), this module registers two that look at the deal's DD
results (:class:`TablePolicy`: per deal):

- ``par``: every seat sees all four hands: each call is the first of the par auction from the
  calls so far (:func:`bideuchre.analysis.par.solve_auction` over the deal's DD and lone
  tables), and the strain the par declarer's (:func:`bideuchre.analysis.par.best_strain`): the
  ceiling;
- ``advice-dd``: the advice of :func:`bideuchre.analysis.advice.advise` for the seat's own hand
  (uniform deals of the unseen cards, the other seats all-seeing) at a fixed
  :data:`ADVICE_DD_SAMPLES` sampled deals (seeded from the match seed, the deal and the
  seat), and the strain it rated for the bid that stood.

A module ``bideuchre.bidding.advice_policy``, where present, is imported first: it may
register more policies (``advice``) with :func:`bideuchre.bidding.register_policy`.

Work runs in chunks on the batch package's pool (processes by default: the policies are
Python); every number is a function of the seed and the deal alone, so results do not depend on
the number of workers.  With ``output`` a JSON-lines file gets one line per deal, chunk by
chunk in deal order; ``resume=True`` keeps the lines already there and plays the rest.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional, Sequence

import numpy as np

from ..analysis.auction import Bid, format_action, hand_result, parse_bid
from ..rules import BidEuchreError, Preset, Seat, Strain, get_preset
from .policy import PolicyError, get_policy, policy_names, register_policy

__all__ = ["MatchError", "MatchResult", "PolicyStats", "run_match", "play_chunk", "TablePolicy",
           "ParPolicy", "AdviceDDPolicy", "ADVICE_DD_SAMPLES", "MAX_DEALS", "match_chunk_size", "rules_header"]

ADVICE_DD_SAMPLES = 24      # sampled deals per call of the advice-dd policy (speed, not strength)
MAX_DEALS = 10_000_000


class MatchError(BidEuchreError):
    """Bad match options (deals, seed, output to resume)."""


def _load_plugins() -> None:
    try:
        import importlib
        importlib.import_module("bideuchre.bidding.advice_policy")
    except ModuleNotFoundError as exc:
        if exc.name != "bideuchre.bidding.advice_policy":
            raise


# ---------------------------------------------------------------------------------------------
# the deals of a chunk and what the table policies see

@dataclass
class DealSet:
    """The deals of one chunk: ``counts`` ``(n, 4, 24)``, ``dealers`` ``(n,)``, DD ``tables``
    ``(n, 4 declarers, strains)`` declaring-side tricks (preset strain order), ``lone``
    ``(n, 4, strains, lone bids)`` lone DD tricks (None without lone bids), ``ids`` the deal
    numbers (0-based), ``pbns``."""

    preset: Preset
    seed: int
    ids: np.ndarray
    counts: np.ndarray
    dealers: np.ndarray
    tables: np.ndarray
    lone: Optional[np.ndarray]
    pbns: list

    def tricks(self, i: int, seat: int, bid: Bid) -> dict:
        """``{Strain: tricks}`` of ``seat`` declaring ``bid`` on deal ``i`` (DD)."""
        p = self.preset
        if bid.is_lone:
            b = list(p.lone_bids).index(bid.lone)
            return {st: int(self.lone[i, seat, j, b]) for j, st in enumerate(p.strains)}
        return {st: int(self.tables[i, seat, j]) for j, st in enumerate(p.strains)}


def make_deals(preset: Preset, seed: int, lo: int, hi: int) -> DealSet:
    """Deals ``lo .. hi - 1`` of the match stream of ``seed`` with their DD and lone tables."""
    from ..analysis.par import lone_tricks
    from ..batch import ChunkTask, batch_tt_bits, generate_records, solve_table_chunk

    recs = list(generate_records(hi, seed, preset.deck, dealer="rotate", start=lo))
    counts = np.array([r.deal.counts() for r in recs], dtype=np.uint8).reshape(-1, 4, 24)
    dealers = np.array([int(r.deal.dealer) for r in recs], dtype=np.int8)
    totals = np.full(len(recs), preset.tricks, dtype=np.int16)
    res = solve_table_chunk(ChunkTask(lo, preset, preset.deck, counts, dealers, totals,
                                tt_bits=batch_tt_bits(preset.deck)))
    lone = None
    if preset.lone_bids:
        lone = np.zeros((len(recs), 4, len(preset.strains), len(preset.lone_bids)), dtype=np.int8)
        for i, r in enumerate(recs):
            lt = lone_tricks(r.deal, preset, r.deal.dealer)
            for (seat, name, st), t in lt.items():
                b = [lb.name for lb in preset.lone_bids].index(name)
                lone[i, seat, preset.strains.index(st), b] = t
    return DealSet(preset, seed, np.arange(lo, hi), counts, dealers, res.tables, lone,
                   [r.deal.pbn() for r in recs])


# ---------------------------------------------------------------------------------------------
# policies that look at the deal

class TablePolicy:
    """A policy called once per deal with the match's :class:`DealSet` (it may look at more
    than the seat's hand).  ``choose_deal(ds, i, seat, calls) -> action`` and
    ``strain_deal(ds, i, seat, bid) -> Strain``."""

    name = "table"

    def __init__(self, preset: Preset):
        self.preset = get_preset(preset)

    def choose_deal(self, ds: DealSet, i: int, seat: int, calls: list):
        raise NotImplementedError

    def strain_deal(self, ds: DealSet, i: int, seat: int, bid: Bid) -> Strain:
        raise NotImplementedError


class ParPolicy(TablePolicy):
    """Every seat sees all four hands: the par auction's next call (module docstring)."""

    name = "par"

    def choose_deal(self, ds, i, seat, calls):
        from ..analysis.par import best_strain, solve_auction
        p = self.preset

        def leaf(s, bid):
            return best_strain(p, bid, ds.tricks(i, int(s), bid))[2]

        _, pv = solve_auction(p, int(ds.dealers[i]), leaf, list(calls))
        return pv[0]

    def strain_deal(self, ds, i, seat, bid):
        from ..analysis.par import best_strain
        return best_strain(self.preset, bid, ds.tricks(i, int(seat), bid))[0]


class AdviceDDPolicy(TablePolicy):
    """Today's advice for the seat's own hand, the others all-seeing (module docstring)."""

    name = "advice-dd"
    others = "dd"           # advise's other seats: all-seeing (the advice policy: "model")

    def __init__(self, preset: Preset, samples: int = ADVICE_DD_SAMPLES):
        super().__init__(preset)
        self.samples = int(samples)
        self._strain: dict = {}

    def choose_deal(self, ds, i, seat, calls):
        from ..analysis.advice import advise
        hand = [c for c in range(24) for _ in range(int(ds.counts[i, seat, c]))]
        seed = int(ds.seed) * 1_000_003 + int(ds.ids[i]) * 4 + int(seat)
        adv = advise(hand, int(seat), int(ds.dealers[i]), self.preset, auction=list(calls),
                     samples=self.samples, seed=seed, workers=1, others=self.others)
        action = parse_bid(adv.recommend.action, self.preset)
        if action is not None and adv.recommend.strain is not None:
            from ..rules import parse_strain
            self._strain[(int(ds.ids[i]), int(seat), action)] = parse_strain(adv.recommend.strain)
        return action

    def strain_deal(self, ds, i, seat, bid):
        st = self._strain.get((int(ds.ids[i]), int(seat), bid))
        if st is not None:
            return st
        return ParPolicy(self.preset).strain_deal(ds, i, seat, bid)


register_policy("par", ParPolicy)
register_policy("advice-dd", AdviceDDPolicy)


# ---------------------------------------------------------------------------------------------
# playing a chunk

def _auctions(ds: DealSet, ns_pol, ew_pol) -> tuple[list, list]:
    """Every deal's auction with ``ns_pol`` north-south and ``ew_pol`` east-west: the calls
    and the contract ``(declarer, bid)`` or None, per deal."""
    p = ds.preset
    n = len(ds.ids)
    calls: list = [[] for _ in range(n)]
    high: list = [None] * n
    over = np.zeros(n, dtype=bool)
    for turn in range(4):
        groups: dict = {}
        for i in range(n):
            if not over[i]:
                groups.setdefault((int(ds.dealers[i]), tuple(calls[i])), []).append(i)
        for (dealer, cs), idx in groups.items():
            seat = (dealer + 1 + turn) % 4
            pol = ns_pol if seat % 2 == 0 else ew_pol
            if isinstance(pol, TablePolicy):
                acts = [pol.choose_deal(ds, i, seat, list(cs)) for i in idx]
            else:
                legal, k = pol.choose(ds.counts[idx, seat], seat, dealer, list(cs))
                acts = [legal[j] for j in k]
            for i, a in zip(idx, acts):
                calls[i].append(a)
                if a is not None:
                    high[i] = (seat, a)
                    if a.ends_auction:
                        over[i] = True
    return calls, high


def _play(ds: DealSet, ns_pol, ew_pol) -> dict:
    """One run of every deal of the chunk: NS − EW points, the declarer (-1: thrown in), the
    bid, the strain, the tricks and whether the contract made."""
    p = ds.preset
    calls, high = _auctions(ds, ns_pol, ew_pol)
    n = len(ds.ids)
    diff = np.zeros(n, dtype=np.int64)
    decl = np.full(n, -1, dtype=np.int64)
    made = np.zeros(n, dtype=bool)
    strain = np.full(n, -1, dtype=np.int64)
    tricks = np.full(n, -1, dtype=np.int64)
    # the declarers' strains, vectorised per (policy, declarer, dealer, bid)
    groups: dict = {}
    for i, c in enumerate(high):
        if c is not None:
            groups.setdefault((c[0], int(ds.dealers[i]), c[1]), []).append(i)
    for (seat, dealer, bid), idx in groups.items():
        pol = ns_pol if seat % 2 == 0 else ew_pol
        if isinstance(pol, TablePolicy):
            sts = [int(pol.strain_deal(ds, i, seat, bid)) for i in idx]
        else:
            sts = [int(s) for s in pol.declare_strain(ds.counts[idx, seat], seat, dealer, bid)]
        for i, st in zip(idx, sts):
            t = ds.tricks(i, seat, bid)[Strain(st)]
            a, b = hand_result(p, bid, t)
            diff[i] = (a - b) if seat % 2 == 0 else (b - a)
            decl[i], strain[i], tricks[i] = seat, st, t
            made[i] = t >= bid.needs(p.tricks)
    return {"diff": diff, "declarer": decl, "made": made, "strain": strain, "tricks": tricks,
            "calls": [" ".join(format_action(a) for a in c) for c in calls]}


@dataclass
class ChunkSpec:
    """What a worker needs: the preset, the two policies (names and options), the seed and the
    deals ``lo .. hi - 1``."""

    preset: Preset
    a: str
    b: str
    seed: int
    lo: int
    hi: int
    options: dict = field(default_factory=dict)


def _policy(name: str, preset: Preset, options: dict):
    _load_plugins()
    return get_policy(name, preset, **options.get(name, {}))


def play_chunk(spec: ChunkSpec) -> list[dict]:
    """Both runs of deals ``spec.lo .. spec.hi - 1``: one dict per deal (the output line)."""
    p = spec.preset
    ds = make_deals(p, spec.seed, spec.lo, spec.hi)
    a = _policy(spec.a, p, spec.options)
    b = _policy(spec.b, p, spec.options)
    r1 = _play(ds, a, b)
    r2 = _play(ds, b, a)
    out = []
    for i in range(len(ds.ids)):
        line = {"deal": int(ds.ids[i]) + 1, "pbn": ds.pbns[i], "dealer": Seat(int(ds.dealers[i])).name}
        for tag, r in (("r1", r1), ("r2", r2)):
            d = int(r["declarer"][i])
            line[tag] = {"diff": int(r["diff"][i]), "calls": r["calls"][i],
                         "declarer": None if d < 0 else Seat(d).name,
                         "strain": None if d < 0 else Strain(int(r["strain"][i])).name,
                         "tricks": None if d < 0 else int(r["tricks"][i]),
                         "made": None if d < 0 else bool(r["made"][i])}
        line["edge"] = (line["r1"]["diff"] - line["r2"]["diff"]) / 2
        out.append(line)
    return out


# ---------------------------------------------------------------------------------------------
# the match

@dataclass
class PolicyStats:
    """One policy's hands (two per deal: one per run), how many its side declared, how many of
    those were set."""

    hands: int = 0
    declared: int = 0
    set: int = 0

    def to_json(self) -> dict:
        return {"hands": self.hands, "declared": self.declared, "set": self.set,
                "declare_rate": self.declared / self.hands if self.hands else 0.0,
                "set_rate": self.set / self.declared if self.declared else 0.0}


@dataclass
class MatchResult:
    """A match's result: ``edge`` (A's mean edge per deal, points), ``se`` (clustered by deal),
    ``ci95`` ``(low, high)``, ``deals``, ``stats`` ``{"A": PolicyStats, "B": ...}``, the
    per-deal ``edges`` (numpy), ``thrown_in`` (hands with no contract, both runs)."""

    preset: Preset
    a: str
    b: str
    seed: int
    deals: int
    edge: float
    se: float
    ci95: tuple
    stats: dict
    edges: np.ndarray
    thrown_in: int = 0
    workers: int = 1

    def to_json(self) -> dict:
        return {"preset": self.preset.name, "a": self.a, "b": self.b, "seed": self.seed,
                "deals": self.deals, "edge": self.edge, "se": self.se, "ci95": list(self.ci95),
                "stats": {"a": self.stats["A"].to_json(), "b": self.stats["B"].to_json()},
                "thrown_in": self.thrown_in}


class Tally:
    """What a match keeps of its deals: the per-deal edges (float64, 8 bytes a deal) and the
    counts; the lines themselves go to the output file, not to memory."""

    def __init__(self):
        self.edges: list = []
        self.stats = {"A": PolicyStats(), "B": PolicyStats()}
        self.thrown = 0
        self.n = 0

    def add(self, lines: Sequence[dict]) -> None:
        self.edges.append(np.array([ln["edge"] for ln in lines], dtype=float))
        self.n += len(lines)
        for ln in lines:
            for tag, ns in (("r1", "A"), ("r2", "B")):
                r = ln[tag]
                ew = "B" if ns == "A" else "A"
                self.stats["A"].hands += 1
                self.stats["B"].hands += 1
                if r["declarer"] is None:
                    self.thrown += 1
                    continue
                who = ns if Seat[r["declarer"]] % 2 == 0 else ew
                self.stats[who].declared += 1
                self.stats[who].set += 0 if r["made"] else 1

    def result(self, preset: Preset, a: str, b: str, seed: int, workers: int) -> MatchResult:
        edges = np.concatenate(self.edges) if self.edges else np.zeros(0)
        n = len(edges)
        mean = float(edges.mean()) if n else 0.0
        se = float(edges.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0
        return MatchResult(preset, a, b, seed, n, mean, se, (mean - 1.96 * se, mean + 1.96 * se),
                           self.stats, edges, self.thrown, workers)


def summarise(preset: Preset, a: str, b: str, seed: int, lines: Sequence[dict], workers: int = 1) -> MatchResult:
    """The :class:`MatchResult` of per-deal lines (:func:`play_chunk`'s)."""
    t = Tally()
    t.add(lines)
    return t.result(preset, a, b, seed, workers)


def match_chunk_size(preset: Preset, policies: Sequence[str]) -> int:
    """Deals per chunk: about a second or two of work (fewer for the sampling policies)."""
    base = {6: 200, 8: 50}.get(preset.tricks, 5)
    if "advice-dd" in policies or "advice" in policies:
        base = max(1, base // 20)
    return base


def run_match(a: str, b: str, preset: Preset | str = "standard", deals: int = 1000, seed: int = 1, *,
              jobs: int | None = None, executor: str = "auto", chunk_size: int | None = None,
              options: dict | None = None, output: str | os.PathLike | None = None,
              resume: bool = False, progress: Callable[[int, int], None] | None = None) -> MatchResult:
    """Play the duplicate match of policies ``a`` and ``b`` (module docstring).

    ``deals`` (≥ 1) seeded deals from ``seed`` (≥ 0); ``jobs`` workers (default every core),
    ``executor`` ``"auto"`` (processes for more than one job), ``"process"`` or ``"thread"``;
    ``chunk_size`` deals per task (default :func:`match_chunk_size`; results do not depend on
    it); ``options`` ``{policy name: {option: value}}`` for :func:`get_policy`; ``output`` a
    JSON-lines file of the per-deal results (``resume``: keep its lines, play the rest);
    ``progress(done, total)`` after each chunk.  Returns a :class:`MatchResult`.  Raises
    MatchError for bad numbers or an output that does not belong to this match, PolicyError
    for an unknown policy.
    """
    from ..batch.pool import default_jobs

    preset = get_preset(preset)
    _load_plugins()
    for name in (a, b):
        if name not in policy_names():
            raise PolicyError(f"unknown policy {name!r} (known: {', '.join(policy_names())})")
    if isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= MAX_DEALS:
        raise MatchError(f"--deals {deals!r}: expected a whole number 1..{MAX_DEALS:,}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise MatchError(f"--seed {seed!r}: expected a whole number ≥ 0")
    options = dict(options or {})
    # build the policies once here, so a bad option or missing data fails before any work
    for name in dict.fromkeys((a, b)):
        _policy(name, preset, options)
    jobs = default_jobs() if jobs is None else max(1, int(jobs))
    size = chunk_size or match_chunk_size(preset, (a, b))
    tally = Tally()
    header = {"match": {"preset": preset.name, "a": a, "b": b, "seed": seed, **rules_header(preset)}}
    drive_chunks(play_chunk, lambda lo, hi: ChunkSpec(preset, a, b, seed, lo, hi, options),
                 tally, header, deals, size, jobs, executor, output, resume, progress)
    return tally.result(preset, a, b, seed, jobs)


def rules_header(preset: Preset) -> dict:
    """A match header's ``rules``: the table options changed from the named preset's (none
    for the preset as defined, so older outputs of it still resume)."""
    ch = preset.changed_options()
    return {"rules": ch} if ch else {}


def drive_chunks(work: Callable, spec: Callable, tally, header: dict, deals: int, size: int,
                 jobs: int, executor: str = "auto", output: str | os.PathLike | None = None,
                 resume: bool = False, progress: Callable[[int, int], None] | None = None) -> None:
    """Run a match's deals ``0 .. deals - 1`` in chunks of ``size``: ``work(spec(lo, hi))``
    returns one line (dict with its 1-based ``"deal"``) per deal, in order, each added to
    ``tally`` (``add(lines)``, ``n``) and written to ``output`` (JSON lines under the
    ``header`` line; ``resume``: the lines already there are read into ``tally`` and the rest
    played; a partial last line is cut off) on ``jobs`` workers (``executor`` ``"auto"``:
    processes for more than one), at most ``2 x jobs`` chunks in flight.  Raises MatchError for
    an output that exists without ``resume`` or belongs to another match (the bidding and the
    play matches share this: their outputs never overwrite a result)."""
    from collections import deque

    from ..batch.pool import WorkerPool

    fh = None
    if output is not None:
        path = Path(output)
        if path.is_dir():
            raise MatchError(f"{path}: is a directory; give a file name")
        if resume and path.exists() and not path.is_file():
            raise MatchError(f"{path}: --resume needs a regular file (a device or a pipe holds "
                             "nothing to continue)")
        if resume and path.exists():
            _read_output(path, header, tally, deals)
        elif path.exists() and path.stat().st_size and not resume:
            raise MatchError(f"{path}: exists (use --resume to continue that match, or another file)")
        fresh = not (resume and path.exists() and path.stat().st_size)
        fh = open(path, "w" if fresh else "a", encoding="utf-8")
        # each chunk's lines are synced to disk (a crash keeps them); a device or a pipe
        # (/dev/null, /dev/stdout into a pipe) cannot be synced and need not be
        fh.sync = path.is_file()
        if fresh:
            fh.write(json.dumps(header) + "\n")
            fh.flush()
    start = min(tally.n, deals)
    specs = [spec(lo, min(deals, lo + size)) for lo in range(start, deals, size)]
    kind = ("process" if jobs > 1 else "thread") if executor == "auto" else executor
    try:
        if not specs:
            return
        if jobs == 1 and kind == "thread":
            for s in specs:
                _take(work(s), tally, fh, progress, deals)
            return
        pool = WorkerPool(kind, jobs)
        try:
            pending: deque = deque()
            it = iter(specs)
            for s in it:
                pending.append(pool.submit(work, s))
                if len(pending) >= 2 * jobs:
                    break
            while pending:
                res = pending.popleft().result()
                nxt = next(it, None)
                if nxt is not None:
                    pending.append(pool.submit(work, nxt))
                _take(res, tally, fh, progress, deals)
        finally:
            pool.close(cancel=True)
    finally:
        if fh is not None:
            fh.close()


def _take(res: list, tally: Tally, fh, progress, total: int) -> None:
    tally.add(res)
    if fh is not None:
        fh.write("".join(json.dumps(ln) + "\n" for ln in res))
        fh.flush()
        if getattr(fh, "sync", True):
            os.fsync(fh.fileno())
    if progress is not None:
        progress(tally.n, total)


def _differs(head: dict, header: dict) -> str:
    """The settings (the header's ``match`` keys, the rules' among them) in which a file's
    header ``head`` and this match's ``header`` differ: ``key: file's value there, this
    one's here``."""
    a, b = head.get("match"), header["match"]
    if not isinstance(a, dict):
        return "no match settings in its header"
    return "; ".join(f"{k}: {a.get(k)!r} there, {b.get(k)!r} here"
                     for k in dict.fromkeys([*b, *a]) if a.get(k) != b.get(k)) or "its header differs"


def _read_output(path: Path, header: dict, tally: Tally, deals: int) -> None:
    """Read a match output into ``tally`` (its first ``deals`` deals), a line at a time; a
    partial last line (a killed run) is cut off the file.  Raises MatchError when its header
    names another match or its deals are out of order."""
    good = 0                                  # bytes of whole lines
    with open(path, "rb") as f:
        first = f.readline()
        if not first.endswith(b"\n"):
            good = 0
        else:
            try:
                head = json.loads(first)
            except json.JSONDecodeError:
                raise MatchError(f"{path}: line 1 is not a match header") from None
            if not isinstance(head, dict) or "match" not in head:
                raise MatchError(f"{path}: line 1 is not a match header (an output of an older "
                                 "build, or another file)")
            if head != header:
                raise MatchError(f"{path}: holds another match ({_differs(head, header)}): "
                                 "resume with its settings, or write a new file")
            good = len(first)
            k = 0
            block: list = []
            for raw in f:
                if not raw.endswith(b"\n"):
                    break
                good += len(raw)
                if k >= deals:
                    continue
                ln = json.loads(raw)
                k += 1
                if ln.get("deal") != k:
                    raise MatchError(f"{path}: line {k + 1} is deal {ln.get('deal')}, expected {k}")
                block.append(ln)
                if len(block) >= 4096:
                    tally.add(block)
                    block = []
            if block:
                tally.add(block)
    if good != path.stat().st_size:
        with open(path, "r+b") as f:
            f.truncate(good)


def plot_match(result: MatchResult, path: str | os.PathLike) -> Path:
    """Draw a match (``.png`` or ``.svg``): A's running mean edge with its 95 % band against
    the deals played, and the histogram of the per-deal edges.  Raises BatchError (from
    :func:`bideuchre.batch.plot.check_plot`) for a bad target or no matplotlib."""
    from ..batch.plot import figure_class, check_plot

    p = check_plot(path)
    Figure = figure_class()
    fig = Figure(figsize=(9, 3.6))
    ax1, ax2 = fig.subplots(1, 2)
    e = result.edges
    k = np.arange(1, len(e) + 1)
    run = np.cumsum(e) / k
    sq = np.cumsum(e * e)
    var = np.where(k > 1, (sq - k * run ** 2) / np.maximum(k - 1, 1), 0.0)
    se = np.sqrt(np.maximum(var, 0) / k)
    ax1.plot(k, run, color="C0")
    ax1.fill_between(k, run - 1.96 * se, run + 1.96 * se, color="C0", alpha=0.25)
    ax1.axhline(0, color="grey", lw=0.8)
    ax1.set_xlabel("deals")
    ax1.set_ylabel(f"{result.a} − {result.b}, points a deal")
    ax1.set_title(f"{result.preset.name}: {result.edge:+.2f} ± {result.se:.2f}")
    ax2.hist(e, bins=min(60, max(10, len(np.unique(e)))), color="C1")
    ax2.set_xlabel("edge on a deal (points)")
    ax2.set_ylabel("deals")
    fig.tight_layout()
    fig.savefig(p)
    return p
