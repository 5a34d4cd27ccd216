"""Fitting the bidding model from DD results of generated deals (numpy only).

The model of one strain kind (:func:`bideuchre.bidding.features.strain_kind`: the four trump
suits pooled, NT, NTL) is a **binned table**:

1. a hand-strength score, the least-squares fit of the side's DD tricks (averaged over the four
   first leaders) on the hand's features (:func:`bideuchre.bidding.features.features`);
2. the hands split into :data:`~bideuchre.bidding.features.CATEGORIES` categories by their
   losers (cards outside the top runs of their suits: 0, 1, 2, 3, 4 or more), and within each
   the score cut into :data:`BINS` bins at its quantiles on the training hands;
3. per first leader relative to the declarer (0 the declarer, 1 its left, 2 partner, 3 its
   right), category and bin, the frequency of each trick count, smoothed towards the
   category's frequencies (and those towards the leader's) with :data:`ALPHA` pseudo-deals.

A lone bid is the same with the 0/1 "the lone hand takes every trick (best exchange)" in
place of the tricks.  Being frequencies of held-out-free bins, the probabilities are
calibrated by construction on the training distribution; :func:`fit_deck` reports their
calibration on held-out deals.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ..rules import Seat, Strain, get_deck, get_preset, PRESETS
from .features import CATEGORIES, features, losers, strain_kind
from .model import bin_index

__all__ = ["BINS", "ALPHA", "HOLDOUT", "fit_deck", "side_tricks"]

BINS = 24          # score bins per strain kind
ALPHA = 2.0        # pseudo-deals of the leader's overall distribution added to each bin
HOLDOUT = 0.1      # the last tenth of the deals (by index) is kept out of the fit
LONE_BINS = 16


def side_tricks(ns: np.ndarray, total: int) -> np.ndarray:
    """``(n, 4 declarers, 4 leaders, strains)`` declaring-side DD tricks from the core's NS
    tricks ``ns`` ``(n, 4 leaders, strains)``."""
    out = np.empty((ns.shape[0], 4) + ns.shape[1:], dtype=np.int16)
    for d in range(4):
        out[:, d] = ns if d % 2 == 0 else total - ns.astype(np.int16)
    return out


def _kinds(strains) -> dict:
    kinds: dict = {}
    for j, s in enumerate(strains):
        kinds.setdefault(strain_kind(int(s)), []).append((j, int(s)))
    return kinds


def _lsq(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    XtX = X.T @ X + 1e-6 * np.eye(X.shape[1])
    return np.linalg.solve(XtX, X.T @ y)


def _edges(score: np.ndarray, cat: np.ndarray, bins: int) -> np.ndarray:
    """``(CATEGORIES, bins - 1)`` score cut points per hand category: the quantiles of the
    training scores of that category (repeated cut points dropped, the row padded with +inf)."""
    out = np.full((CATEGORIES, bins - 1), np.inf)
    for c in range(CATEGORIES):
        sc = score[cat == c]
        if len(sc) == 0:
            continue
        q = np.unique(np.quantile(sc, np.linspace(0, 1, bins + 1)[1:-1]))
        out[c, :len(q)] = q
    return out


def _table(cat: np.ndarray, bin_ix: np.ndarray, lead: np.ndarray, y: np.ndarray, nb: int,
           ncls: int) -> np.ndarray:
    """Smoothed ``(4, CATEGORIES, nb, ncls)`` frequencies of ``y`` per leader, category and
    bin, each bin shrunk towards its category's (and leader's) frequencies."""
    counts = np.zeros((4, CATEGORIES, nb, ncls))
    np.add.at(counts, (lead, cat, bin_ix, y), 1.0)
    top = counts.sum(axis=(1, 2), keepdims=True) + 1.0
    top /= top.sum(axis=3, keepdims=True)
    mid = counts.sum(axis=2, keepdims=True) + ALPHA * top
    mid /= mid.sum(axis=3, keepdims=True)
    sm = counts + ALPHA * mid
    return sm / sm.sum(axis=3, keepdims=True)


def _samples_tricks(counts, tr, strains_of_kind, deck, deals):
    """Features, mean-over-leaders targets and per-leader targets of every (deal, seat, strain)."""
    X, C, ybar, Y = [], [], [], []
    for seat in range(4):
        for j, s in strains_of_kind:
            X.append(features(counts[deals, seat], s, deck))
            C.append(np.minimum(losers(counts[deals, seat], s, deck), CATEGORIES - 1))
            t = tr[deals, seat, :, j]                          # (m, 4 leaders) absolute leader
            # column r: leader relative to the declarer = (leader - seat) % 4
            rel = np.stack([t[:, (seat + r) % 4] for r in range(4)], axis=1)
            Y.append(rel)
            ybar.append(rel.mean(axis=1))
    return np.concatenate(X), np.concatenate(C), np.concatenate(ybar), np.concatenate(Y)


def _eval_tricks(p: np.ndarray, y: np.ndarray, base: np.ndarray) -> dict:
    """MAE of expected tricks, log-loss of the model and of the hand-blind ``base``."""
    k = np.arange(p.shape[1])
    e = p @ k
    ll = -np.log(np.clip(p[np.arange(len(y)), y], 1e-12, None)).mean()
    llb = -np.log(np.clip(base[y], 1e-12, None)).mean()
    return {"n": int(len(y)), "mae": float(np.abs(e - y).mean()),
            "mae_blind": float(np.abs(base @ k - y).mean()),
            "logloss": float(ll), "logloss_blind": float(llb)}


def fit_deck(deck_name: str, data: dict, out_dir: Path | str) -> dict:
    """Fit the model of a deck form from ``data`` (the training script's arrays: ``counts``
    ``(n, 4, 24)``, ``dealers``, ``ns`` ``(n, 4 leaders, strains)``, ``strains``, and
    ``lone_<preset>`` ``(n, 4 seats, preset strains, lone bids)`` bool), write
    ``out_dir/<deck>.npz`` and return the held-out calibration report (also written as
    ``<deck>.calibration.json``)."""
    deck = get_deck(deck_name)
    total = deck.hand
    counts = data["counts"]
    n = len(counts)
    cut = int(round(n * (1 - HOLDOUT)))
    train, test = np.arange(cut), np.arange(cut, n)
    strains = [int(s) for s in data["strains"]]
    tr = side_tricks(data["ns"], total)
    arrays: dict = {}
    report: dict = {"deck": deck.name, "deals": n, "train": cut, "test": n - cut, "tricks": {}, "lone": {}}
    for kind, sk in _kinds(strains).items():
        X, C, ybar, Y = _samples_tricks(counts, tr, sk, deck, train)
        w = _lsq(X, ybar)
        score = X @ w
        edges = _edges(score, C, BINS)
        b = bin_index(edges, score, C)
        lead = np.repeat(np.arange(4)[None], len(Y), 0).ravel()
        table = _table(np.repeat(C, 4), np.repeat(b, 4), lead, Y.ravel().astype(np.int64), BINS, total + 1)
        arrays[f"{kind}_w"], arrays[f"{kind}_edges"], arrays[f"{kind}_p"] = w, edges, table
        base = np.zeros((4, total + 1))
        np.add.at(base, (lead, Y.ravel()), 1.0)
        base = (base + 1) / (base + 1).sum(axis=1, keepdims=True)
        arrays[f"{kind}_blind"] = base
        # held out
        Xt, Ct, _, Yt = _samples_tricks(counts, tr, sk, deck, test)
        bt = bin_index(edges, Xt @ w, Ct)
        rep = {}
        for r in range(4):
            rep[f"leader{r}"] = _eval_tricks(table[r, Ct, bt], Yt[:, r].astype(np.int64), base[r])
        report["tricks"][kind] = rep
    for key in [k for k in data if k.startswith("lone_")]:
        preset = get_preset(key[5:])
        lone = data[key]
        report["lone"][preset.name] = {}
        from ..analysis.lone import lone_leader
        for kind, sk0 in _kinds([int(s) for s in preset.strains]).items():
            sk = [(j, s) for j, s in sk0]
            for bi, lb in enumerate(preset.lone_bids):
                def samples(deals):
                    X, C, y, rel = [], [], [], []
                    for seat in range(4):
                        lr = np.array([(int(lone_leader(preset, seat, d)) - seat) % 4 for d in range(4)])
                        for j, s in sk:
                            X.append(features(counts[deals, seat], s, deck))
                            C.append(np.minimum(losers(counts[deals, seat], s, deck), CATEGORIES - 1))
                            y.append(lone[deals, seat, j, bi].astype(np.int64))
                            rel.append(lr[data["dealers"][deals].astype(np.int64)])
                    return np.concatenate(X), np.concatenate(C), np.concatenate(y), np.concatenate(rel)
                X, C, y, rel = samples(train)
                w = _lsq(X, y.astype(float))
                score = X @ w
                edges = _edges(score, C, LONE_BINS)
                b = bin_index(edges, score, C)
                table = _table(C, b, rel, y, LONE_BINS, 2)[..., 1]
                pre = f"lone_{preset.name}_{bi}_{kind}"
                arrays[pre + "_w"], arrays[pre + "_edges"], arrays[pre + "_p"] = w, edges, table
                Xt, Ct, yt, rt = samples(test)
                pt = np.clip(table[rt, Ct, bin_index(edges, Xt @ w, Ct)], 1e-9, 1 - 1e-9)
                rate = np.clip(y.mean(), 1e-9, 1 - 1e-9)
                ll = -(yt * np.log(pt) + (1 - yt) * np.log(1 - pt)).mean()
                llb = -(yt * np.log(rate) + (1 - yt) * np.log(1 - rate)).mean()
                report["lone"][preset.name][f"{lb.name} {kind}"] = {
                    "n": int(len(yt)), "rate": float(yt.mean()), "mean_p": float(pt.mean()),
                    "logloss": float(ll), "logloss_blind": float(llb)}
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    meta = {"deck": deck.name, "deals": n, "train": cut, "bins": BINS, "alpha": ALPHA,
            "strains": strains, "lone": sorted(report["lone"])}
    np.savez_compressed(out_dir / f"{deck.name}.npz", meta=np.array(json.dumps(meta)),
                        **{k: np.asarray(v, dtype=np.float32 if k.endswith("_p") else np.float64)
                           for k, v in arrays.items()})
    (out_dir / f"{deck.name}.calibration.json").write_text(json.dumps(report, indent=1) + "\n")
    return report
