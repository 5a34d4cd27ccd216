"""Benchmark of the analysis board: how long after a click the new card values are there.

    python benchmarks/bench_board.py [--deals 20 10 3] [--browser-deals 4 2 1] [--no-browser]
                                     [--figures] [--json]

One board server (uvicorn on a free loopback port, in a thread, as ``bideuchre board`` runs
it), then:

- **HTTP**: a client plays random deals through (``generate_records``, seed 1; single24 under
  ``standard``, double32 under ``double32``, double48 under ``double48``; strain spades, W
  leads), a random legal card each click (seeded), and times each click as the page does it:
  ``POST /api/view`` then ``POST /api/values`` until the values are in.  double48 is timed
  mid-hand (tricks 3 to 10; the first tricks warm the search up as a user's first clicks do).
  First page: ``GET /``, its script and style, ``/api/presets``, then view, values and the
  DD table of a single24 deal.
- **browser**: headless Chromium (Selenium) on the same server: the time from a click on a
  card (``element.click()`` inside the page) to the frame where the next seat's legal cards
  carry their values (``performance.now()`` in the page; the page marks the cards its values
  are of in ``data-values`` on the body); first page: from the
  start of navigation to the page's first complete view with its values, table and replay.

Targets (the issue): p95 ≤ 100 ms after a click on single24 and double32, ≤ 1 s mid-hand on
double48, first page ≤ 1 s.  With ``--figures``, two screenshots (1200×800) to
``benchmarks/figures/``: ``board_play.png`` (a double32 deal mid-hand, values on the cards,
the principal line shown) and ``board_record.png`` (a record replayed card by card with the
losses, the single-dummy review and bid advice).  Wall-clock times in milliseconds on a
shared machine: medians and p95 beside each other, one run.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import httpx  # noqa: E402

from bideuchre.batch.readers import generate_records  # noqa: E402
from bideuchre.notation import Position  # noqa: E402

from test_board_browser import settled, start_browser, start_server  # noqa: E402

FIGURES = ROOT / "benchmarks" / "figures"
CASES = (("single24", "standard", None), ("double32", "double32", None), ("double48", "double48", (3, 10)))


def p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]


def summary(xs: list[float]) -> dict:
    return {"n": len(xs), "median_ms": round(statistics.median(xs), 1), "p95_ms": round(p95(xs), 1),
            "max_ms": round(max(xs), 1)}


def deals(deck: str, n: int, seed: int = 1) -> list:
    return [r.deal for r in generate_records(n, seed, deck)]


def http_clicks(base: str, deck: str, preset: str, n: int, window) -> list[float]:
    """Milliseconds from a click (view, then values) to the values, over ``n`` deals."""
    rng = random.Random(7)
    out = []
    req = 0
    with httpx.Client(base_url=base, timeout=120) as c:
        for d in deals(deck, n):
            st = {"preset": preset, "deal": d.pbn(), "strain": "S", "leader": "W", "client": "bench-" + deck}
            pos = Position(d, "S", "W")
            req += 1
            c.post("/api/values", json=dict(st, req=req)).raise_for_status()
            while not pos.is_over:
                pos.play(rng.choice(pos.legal_cards()))
                if pos.is_over:
                    break
                st["played"] = " ".join(map(str, pos.played))
                req += 1
                t0 = time.perf_counter()
                c.post("/api/view", json=st).raise_for_status()
                c.post("/api/values", json=dict(st, req=req)).raise_for_status()
                ms = 1000 * (time.perf_counter() - t0)
                if window is None or window[0] <= pos.trick_number <= window[1]:
                    out.append(ms)
    return out


def http_first_page(base: str, n: int = 20) -> list[float]:
    out = []
    for d in deals("single24", n, seed=3):
        st = {"deal": d.pbn(), "strain": "H", "leader": "N"}
        t0 = time.perf_counter()
        with httpx.Client(base_url=base, timeout=60) as c:
            for path in ("/", "/static/board.js", "/static/board.css", "/api/presets"):
                c.get(path).raise_for_status()
            for name in ("view", "values", "table"):
                c.post(f"/api/{name}", json=st).raise_for_status()
        out.append(1000 * (time.perf_counter() - t0))
    return out


CLICK = """
const [seat, card, played, done] = arguments;
const el = document.querySelector(`.card.legal[data-seat="${seat}"][data-card="${card}"]`);
const t0 = performance.now();
el.click();
function check() {
  if (document.body.dataset.values === played) done(performance.now() - t0);
  else requestAnimationFrame(check);
}
requestAnimationFrame(check);
"""


def page_url(base: str, st: dict) -> str:
    from urllib.parse import urlencode
    return base + "/?" + urlencode({k: v for k, v in st.items() if v})


def browser_clicks(driver, base: str, deck: str, preset: str, n: int, window) -> list[float]:
    rng = random.Random(11)
    out = []
    for d in deals(deck, n, seed=2):
        driver.get(page_url(base, {"preset": preset, "deal": d.pbn(), "strain": "S", "leader": "W"}))
        settled(driver, 120)
        pos = Position(d, "S", "W")
        while True:
            card = rng.choice(pos.legal_cards())
            seat = pos.to_move.name
            pos.play(card)
            if pos.is_over:
                break
            ms = driver.execute_async_script(CLICK, seat, str(card), " ".join(map(str, pos.played)))
            settled(driver, 120)           # the replay of the line too, before the next click
            if window is None or window[0] <= pos.trick_number <= window[1]:
                out.append(ms)
    return out


def browser_first_page(driver, base: str, n: int = 8) -> list[float]:
    out = []
    for d in deals("single24", n, seed=3):
        driver.get(page_url(base, {"deal": d.pbn(), "strain": "H", "leader": "N"}))
        settled(driver, 60)
        out.append(float(driver.execute_script("return Number(document.body.dataset.readyMs)")))
    return out


def figures(driver, base: str) -> list[str]:
    """The two screenshots of the README."""
    from bideuchre.records import HandRecord, format_record
    from bideuchre.rules import Seat

    FIGURES.mkdir(parents=True, exist_ok=True)
    d = deals("double32", 1, seed=5)[0]
    pos = Position(d, "H", "E")
    rng = random.Random(2)
    for _ in range(9):
        pos.play(rng.choice(pos.legal_cards()))
    driver.get(page_url(base, {"preset": "double32", "deal": d.pbn(), "strain": "H", "leader": "E",
                               "declarer": "S", "bid": "5", "played": " ".join(map(str, pos.played))}))
    settled(driver, 60)
    driver.find_element("id", "pvbtn").click()
    settled(driver, 60)
    time.sleep(0.3)
    first = str(FIGURES / "board_play.png")
    driver.save_screenshot(first)

    from bideuchre.analysis.explain import analyse_play
    for d in deals("single24", 50, seed=9):        # the first deal whose line loses tricks
        line = Position(d, "S", "W")
        while not line.is_over:            # the lowest legal card each time
            line.play(line.legal_cards()[0])
        if sum(analyse_play(d, "S", "W", line.played).lost.values()) >= 2:
            break
    rec = HandRecord(deal=d, hands=[list(h) for h in d.hands], deck=d.deck, preset="standard",
                     dealer=Seat.S, declarer=Seat.E, strain=line.strain, bid="3", leader=Seat.W,
                     play=list(line.played), event="a club hand, replayed")
    driver.get(base + "/")
    settled(driver, 60)
    box = driver.find_element("id", "paste")
    box.send_keys(format_record(rec))
    driver.find_element("id", "load").click()
    time.sleep(0.5)
    settled(driver, 60)
    body = driver.find_element("tag name", "body")
    for _ in range(10):
        driver.execute_script("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'}))")
        settled(driver, 60)
    driver.find_element("id", "review").click()
    time.sleep(0.3)
    settled(driver, 120)
    driver.find_element("id", "bid-seat").send_keys("E")
    driver.find_element("id", "bid-go").click()
    time.sleep(0.3)
    settled(driver, 120)
    driver.execute_script("window.scrollTo(0, 0)")
    time.sleep(0.3)
    second = str(FIGURES / "board_record.png")
    driver.save_screenshot(second)
    for f in (first, second):
        _small(f)
    return [first, second]


def _small(path: str) -> None:
    """The PNG in 256 colours (a third of the size; the page has few colours), when Pillow is
    there (matplotlib brings it)."""
    try:
        from PIL import Image
    except ImportError:
        return
    Image.open(path).convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, nargs=3, default=[20, 10, 3], metavar=("S24", "D32", "D48"))
    ap.add_argument("--browser-deals", type=int, nargs=3, default=[4, 2, 1], metavar=("S24", "D32", "D48"))
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--figures", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    base, stop = start_server()
    res: dict = {"python": platform.python_version(), "http": {}, "browser": {}}
    try:
        res["http"]["first_page"] = summary(http_first_page(base))
        for (deck, preset, window), n in zip(CASES, args.deals):
            if n:
                res["http"][deck] = summary(http_clicks(base, deck, preset, n, window))
        if not args.no_browser:
            driver = start_browser()
            try:
                res["browser"]["first_page"] = summary(browser_first_page(driver, base))
                for (deck, preset, window), n in zip(CASES, args.browser_deals):
                    if n:
                        res["browser"][deck] = summary(browser_clicks(driver, base, deck, preset, n, window))
                if args.figures:
                    res["figures"] = figures(driver, base)
            finally:
                driver.quit()
    finally:
        stop()
    if args.json:
        print(json.dumps(res, indent=1))
        return
    targets = {"first_page": 1000, "single24": 100, "double32": 100, "double48": 1000}
    print(f"{'':9} {'what':11} {'n':>5} {'median ms':>10} {'p95 ms':>8} {'max ms':>8} {'target':>8}")
    for how in ("http", "browser"):
        for what, s in res[how].items():
            print(f"{how:9} {what:11} {s['n']:>5} {s['median_ms']:>10} {s['p95_ms']:>8} {s['max_ms']:>8} "
                  f"{'≤ ' + str(targets[what]):>8}")
    for f in res.get("figures", []):
        print("figure:", f)


if __name__ == "__main__":
    main()
