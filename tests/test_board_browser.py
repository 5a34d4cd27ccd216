"""The analysis board in a real browser: headless Chromium driven by Selenium, against one
board server (uvicorn on a free loopback port, in a thread) for the whole module.

Opens a deal from its URL, clicks cards and checks the values on them against ``explain``,
undoes and redoes (buttons and keys), reloads the URL, loads a record and steps through it,
pastes a bad deal and reads the message.  Needs Debian's ``chromium`` and ``chromium-driver``
(``.ci/run`` installs them): where ``/usr/bin/chromedriver`` is missing the module is skipped,
except under CI (the ``CI`` environment variable set), where that is a failure.
"""

from __future__ import annotations

import os
import threading
import time
import urllib.parse

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
pytest.importorskip("selenium")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from bideuchre.analysis.explain import analyse_play, explain  # noqa: E402
from bideuchre.board import create_app, listen  # noqa: E402
from bideuchre.cli.board_cmd import board_url  # noqa: E402
from bideuchre.notation import Deal, Position  # noqa: E402
from bideuchre.records import HandRecord, format_record  # noqa: E402
from bideuchre.rules import Seat  # noqa: E402

from helpers import real_deals  # noqa: E402

CHROMEDRIVER = "/usr/bin/chromedriver"

if not os.path.exists(CHROMEDRIVER):
    if os.environ.get("CI"):
        pytest.fail(f"{CHROMEDRIVER} is missing: CI installs chromium and chromium-driver (.ci/run)",
                    pytrace=False)
    pytest.skip(f"{CHROMEDRIVER} missing (apt-get install chromium chromium-driver)", allow_module_level=True)


def start_server():
    """A board server on a free loopback port in a thread: ``(base URL, stop())``."""
    sock = listen("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the board server did not start")
        time.sleep(0.02)

    def stop():
        server.should_exit = True
        thread.join(10)
        sock.close()

    return f"http://127.0.0.1:{sock.getsockname()[1]}", stop


def start_browser(width: int = 1200, height: int = 800):
    """Headless Chromium with a viewport of ``width`` × ``height`` CSS pixels."""
    opts = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}"):
        opts.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    return driver


@pytest.fixture(scope="module")
def server():
    base, stop = start_server()
    yield base
    stop()


@pytest.fixture(scope="module")
def browser():
    driver = start_browser()
    yield driver
    driver.quit()


def settled(driver, timeout: float = 20) -> None:
    """Wait until the page has started, no request is pending and, when a seat is to move,
    each of its legal cards carries its value (single dummy: ``data-sd``)."""
    script = """
      if (document.body.dataset.ready !== "1" || document.body.dataset.pending !== "0") return false;
      const legal = document.querySelectorAll('.card.legal').length;
      return document.querySelectorAll('.card.legal[data-value], .card.legal[data-sd]').length === legal;
    """
    WebDriverWait(driver, timeout, 0.02).until(lambda d: d.execute_script(script))


def shown_values(driver) -> dict:
    return {(s, c): int(v) for s, c, v in driver.execute_script(
        "return [...document.querySelectorAll('[data-value]')].map(e => [e.dataset.seat, e.dataset.card, e.dataset.value])")}


def played_cards(driver) -> list:
    return sorted(driver.execute_script(
        "return [...document.querySelectorAll('[data-played]')].map(e => e.dataset.seat + e.dataset.card)"))


def explain_values(pos: Position) -> dict:
    """``{(seat, card): tricks of the mover's side}`` for every legal card, from explain."""
    ex = explain(pos, lines=False)
    return {(ex.to_move.name, str(c)): cv.tricks[ex.to_move.side] for cv in ex.cards for c in cv.cards}


def url_played(driver) -> str:
    return urllib.parse.parse_qs(urllib.parse.urlparse(driver.current_url).query).get("played", [""])[0]


def test_open_click_undo_redo_reload(server, browser):
    deal = real_deals(6)[5]
    state = {"preset": "standard", "rule": [], "deal": deal, "strain": "S", "leader": "W"}
    browser.get(board_url("127.0.0.1", 0, state).replace("http://127.0.0.1:0", server))
    settled(browser)
    pos = Position(Deal.from_pbn(deal), "S", "W")
    assert shown_values(browser) == explain_values(pos)
    for i in range(6):                     # the best card, then the worst, in turn
        vals = shown_values(browser)
        pick = (max if i % 2 == 0 else min)(vals, key=lambda k: (vals[k], k))
        browser.find_element(By.CSS_SELECTOR, f'.card.legal[data-seat="{pick[0]}"][data-card="{pick[1]}"]').click()
        pos.play(pick[1])
        settled(browser)
        assert url_played(browser) == " ".join(map(str, pos.played))
        assert shown_values(browser) == explain_values(pos)
    assert len(played_cards(browser)) == 6
    full = list(pos.played)
    browser.find_element(By.ID, "undo").click()
    settled(browser)
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    settled(browser)
    back = Position(pos.deal, "S", "W", full[:4])
    assert url_played(browser) == " ".join(map(str, full[:4])) and shown_values(browser) == explain_values(back)
    browser.find_element(By.ID, "redo").click()
    settled(browser)
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    settled(browser)
    assert url_played(browser) == " ".join(map(str, full))
    before = (played_cards(browser), shown_values(browser), browser.find_element(By.ID, "trick").text)
    browser.refresh()
    settled(browser)
    assert (played_cards(browser), shown_values(browser), browser.find_element(By.ID, "trick").text) == before
    browser.find_element(By.ID, "start").click()
    settled(browser)
    assert played_cards(browser) == [] and "line=" in browser.current_url     # the line is kept for redo
    browser.find_element(By.ID, "end").click()
    settled(browser)
    assert url_played(browser) == " ".join(map(str, full))


def test_load_a_record_and_step_it(server, browser):
    deal = Deal.from_pbn(real_deals(8)[7], dealer="E")
    pos = Position(deal, "H", "S")
    for _ in range(8):                     # the first legal card each time: some cost tricks
        pos.play(pos.legal_cards()[0])
    rec = HandRecord(deal=deal, hands=[list(h) for h in deal.hands], deck=deal.deck, preset="standard",
                     dealer=Seat.E, declarer=Seat.N, strain=pos.strain, bid="3", leader=Seat.S,
                     play=list(pos.played), event="browser test")
    browser.get(server + "/")
    settled(browser)
    box = browser.find_element(By.ID, "paste")
    box.clear()
    box.send_keys(format_record(rec))
    browser.find_element(By.ID, "load").click()
    WebDriverWait(browser, 20, 0.02).until(lambda d: "browser test" in d.find_element(By.ID, "message").text)
    settled(browser)
    WebDriverWait(browser, 20, 0.02).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-step]"))
    an = analyse_play(deal, "H", "S", pos.played)
    steps = browser.find_elements(By.CSS_SELECTOR, "[data-step]")
    assert len(steps) == 8
    assert [("−" in s.text) for s in steps] == [st.cost > 0 for st in an.steps]
    start = Position(deal, "H", "S")
    assert shown_values(browser) == explain_values(start)
    body = browser.find_element(By.TAG_NAME, "body")
    for k in range(1, 4):
        body.send_keys(Keys.ARROW_RIGHT)
        settled(browser)
        start.play(pos.played[k - 1])
        assert len(played_cards(browser)) == k and shown_values(browser) == explain_values(start)
    steps = browser.find_elements(By.CSS_SELECTOR, "[data-step]")
    steps[5].click()                       # jump to the sixth card of the record
    settled(browser)
    assert url_played(browser) == " ".join(map(str, pos.played[:6]))


def test_paste_a_bad_deal_reads_the_cli_message(server, browser):
    from typer.testing import CliRunner
    from bideuchre.cli.app import app

    bad = "N:AJ.KQ..JT Q.JT..KQT AK9.K.AQ. .A9.KT.A9"
    r = CliRunner().invoke(app, ["solve", bad], env={"COLUMNS": "400"})
    assert r.exit_code == 2
    expected = r.output.strip().splitlines()[-1].removeprefix("error: ")
    browser.get(server + "/")
    settled(browser)
    box = browser.find_element(By.ID, "paste")
    box.clear()
    box.send_keys(bad)
    browser.find_element(By.ID, "load").click()
    WebDriverWait(browser, 20, 0.02).until(lambda d: d.find_element(By.ID, "message").text)
    assert browser.find_element(By.ID, "message").text == expected


def test_single_dummy_view_shows_one_hand_and_play_values(server, browser):
    from bideuchre.analysis.play import default_play_samples, play_advice

    deal = real_deals(4)[3]
    d = Deal.from_pbn(deal)
    state = {"preset": "standard", "rule": [], "deal": deal, "strain": "S", "leader": "W"}
    browser.get(board_url("127.0.0.1", 0, state).replace("http://127.0.0.1:0", server) + "&view=W")
    settled(browser, 60)
    seats = {e.get_attribute("data-seat") for e in browser.find_elements(By.CSS_SELECTOR, "[data-card]")}
    assert seats == {"W"} and len(browser.find_elements(By.CSS_SELECTOR, ".card.back")) == 18
    adv = play_advice(d.hands[Seat.W], "W", "S", "W", samples=default_play_samples("single24"))
    want = {str(c): f"{g.tricks:.2f}" for g in adv.cards for c in g.cards}
    got = dict(browser.execute_script(
        "return [...document.querySelectorAll('[data-sd]')].map(e => [e.dataset.card, e.dataset.sd])"))
    assert got == want and not browser.find_elements(By.CSS_SELECTOR, "[data-value]")
