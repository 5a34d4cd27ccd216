"""The analysis board's server: every endpoint against the library (Starlette's TestClient),
bad input as the CLI words it, the limits, superseded requests, the ``board`` command's
options."""

from __future__ import annotations

import asyncio
import random
import threading
import urllib.parse
import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():     # Starlette 1.x: its TestClient on httpx is deprecated
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from bideuchre.analysis.explain import analyse_play, analyse_record  # noqa: E402
from bideuchre.analysis.par import par  # noqa: E402
from bideuchre.board import create_app  # noqa: E402
from bideuchre.board import views  # noqa: E402
from bideuchre.board.app import Superseded, _Lanes  # noqa: E402
from bideuchre.notation import Deal, Position  # noqa: E402
from bideuchre.records import load_record  # noqa: E402
from bideuchre.rules import Card, Seat, Side  # noqa: E402
from bideuchre.search.reference import reference_card_values  # noqa: E402
from bideuchre.search.solve import dd_table  # noqa: E402

from helpers import ROOT, SOURCES, random_deal, real_deals  # noqa: E402

PTN = SOURCES / "trickster" / "basic_play.ptn"


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as c:
        yield c


def _post(client, name, **body):
    return client.post(f"/api/{name}", json=body)


def _cli_error(*args) -> str:
    """The one line ``bideuchre ARGS`` prints on stderr for bad input (exit code 2), without
    its ``error: `` prefix."""
    from bideuchre.cli.app import app
    r = CliRunner().invoke(app, list(args), env={"COLUMNS": "400"})
    assert r.exit_code == 2, r.output
    line = r.output.strip().splitlines()[-1]
    assert line.startswith("error: ")
    return line[len("error: "):]


def test_page_and_static_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    for src in ("/static/board.js", "/static/board.css"):
        assert src in page.text and client.get(src).status_code == 200
    assert "http://" not in page.text and "https://" not in page.text      # no CDN: works offline
    presets = client.get("/api/presets").json()["presets"]
    assert set(presets) == {"standard", "pepper", "double32", "racehorse", "double48"}
    assert presets["double48"]["decks"] == ["double48", "double40", "double32"]
    assert [s["name"] for s in presets["pepper"]["strains"]] == ["S", "H", "D", "C"]


def test_view_follows_the_position(client):
    deal = real_deals(1)[0]
    pos = Position(Deal.from_pbn(deal), "H", "E")
    played = []
    rng = random.Random(5)
    for _ in range(7):
        played.append(rng.choice(pos.legal_cards()))
        pos.play(played[-1])
    v = _post(client, "view", deal=deal, strain="H", leader="E", played=" ".join(map(str, played))).json()
    assert v["to_move"] == pos.to_move.name
    assert v["legal"] == [str(c) for c in pos.legal_cards()]
    assert v["won"] == {"NS": pos.tricks_won[Side.NS], "EW": pos.tricks_won[Side.EW]}
    assert v["trick"] == [{"seat": s.name, "card": str(c)} for s, c in pos.trick]
    assert v["remaining"] == {s.name: [str(c) for c in pos.hand(s)] for s in Seat}
    assert [p["card"] for p in v["played"]] == [str(c) for c in played]
    # seats in play order: E leads trick 1, then the winner of each trick
    assert v["played"][0]["seat"] == "E" and v["played"][1]["seat"] == "S"
    assert v["played"][4]["seat"] == v["played"][3]["winner"]


@pytest.mark.parametrize("k", range(4))
def test_values_equal_the_reference_solver(client, k):
    """Each legal card's value is the mover's side's tricks over the hand after it, as the
    reference (plain minimax) solver counts them."""
    rng = random.Random(100 + k)
    d = Deal.from_pbn(real_deals(40)[10 * k + 3])
    pos = Position(d, "SHDC"[k], Seat(k))
    for _ in range(4 + 2 * k):          # into the hand: the reference solver is slow at the start
        pos.play(rng.choice(pos.legal_cards()))
    ref = reference_card_values(pos)
    body = dict(deal=d.pbn(), strain=pos.strain.name, leader=pos.leader.name,
                played=" ".join(map(str, pos.played)))
    obj = _post(client, "values", **body).json()
    side = pos.to_move.side
    total = len(d.hands[0])
    got = {c: g["mine"] for g in obj["cards"] for c in g["cards"]}
    assert set(got) == {str(c) for c in ref}
    for card, ns in ref.items():
        assert got[str(card)] == (ns if side == Side.NS else total - ns)
    best = max(got.values())
    assert all(g["optimal"] == (g["mine"] == best) and g["cost"] == best - g["mine"] for g in obj["cards"])


def test_values_of_a_double_deck_and_a_lone_hand(client):
    rng = random.Random(3)
    d = random_deal(rng, "double32", cards=4)
    obj = _post(client, "values", deal=d.pbn(), deck="double32", preset="double32", strain="NT", leader="W").json()
    ref = reference_card_values(Position(d, "NT", "W"))
    assert {c: g["mine"] for g in obj["cards"] for c in g["cards"]} == {
        str(c): 4 - ns for c, ns in ref.items()}            # W moves: EW's tricks
    lone = _post(client, "view", deal=real_deals(1)[0], strain="S", lone="N").json()
    assert lone["out"] == "S" and lone["trick_size"] == 3 and lone["leader"] == "E"


def test_table_is_par_and_the_dd_table(client):
    deal = real_deals(3)[2]
    obj = _post(client, "table", deal=deal, preset="racehorse", dealer="W").json()
    d = Deal.from_pbn(deal, dealer="W")
    ref = par(d, "racehorse", "W")
    assert obj == ref.to_json()
    assert obj["dd"] == dd_table(d, "racehorse", "W").to_json()["table"]


def test_replay_is_analyse_play_and_scores_the_contract(client):
    rec = load_record(PTN, 2)
    st = views.record_state(rec)
    obj = _post(client, "replay", **st).json()
    an = analyse_record(rec)
    assert obj["start"] == {"NS": an.start[Side.NS], "EW": an.start[Side.EW]}
    assert [s["cost"] for s in obj["steps"]] == [s.cost for s in an.steps]
    assert obj["contract"]["declarer"] == "S" and obj["no_score"] == ""
    # a line longer than the cards played: the whole line is analysed
    half = " ".join(st["line"].split()[:4])
    part = _post(client, "replay", **dict(st, played=half)).json()
    assert len(part["steps"]) == len(an.steps)


def test_parse_reads_deals_records_and_pbn(client):
    deal = real_deals(2)[1]
    r = _post(client, "parse", text="  " + deal.replace(" ", "   ") + "\n", preset="standard").json()
    assert r["state"]["deal"] == Deal.from_pbn(deal).pbn() and r["records"] == 0
    r = _post(client, "parse", text=PTN.read_text(encoding="utf-8"), index=2).json()
    rec = load_record(PTN, 2)
    assert r["records"] == 3 and r["event"] == rec.event
    st = r["state"]
    assert (st["preset"], st["deal"], st["strain"], st["leader"], st["declarer"], st["bid"]) == (
        "double48", rec.deal.pbn(), rec.strain.name, rec.leader.name, "S", rec.bid)
    assert st["line"].split() == [str(c) for c in rec.play]
    r = _post(client, "parse", text=f'[Deal "{deal}"]').json()
    assert r["state"]["deal"] == deal and r["state"]["strain"] == ""


def test_bad_input_is_400_with_the_cli_message(client):
    deal = real_deals(1)[0]
    cases = [
        (dict(deal=deal, strain="H", leader="E", played="SA"),
         ["explain", deal, "--strain", "H", "--leader", "E", "--played", "SA"]),
        (dict(deal="N:AJ.KQ..JT", strain="H", leader="E"), ["explain", "N:AJ.KQ..JT", "--strain", "H", "--leader", "E"]),
        (dict(deal=deal, strain="X", leader="E"), ["explain", deal, "--strain", "X", "--leader", "E"]),
        (dict(deal=deal, preset="pepper", strain="NT", leader="E"),
         ["explain", deal, "--preset", "pepper", "--strain", "NT", "--leader", "E"]),
        (dict(deal=deal, strain="H", leader="E", rule=["stick=maybe"]),
         ["explain", deal, "--strain", "H", "--leader", "E", "--rule", "stick=maybe"]),
    ]
    for body, args in cases:
        r = _post(client, "view", **body)
        assert r.status_code == 400
        assert r.json()["error"] == _cli_error(*args)
    r = _post(client, "parse", text="N:AJ.KQ..JT")
    assert r.status_code == 400 and r.json()["error"] == _cli_error("solve", "N:AJ.KQ..JT")
    r = _post(client, "parse", text='[Deal "N:AJ.KQ..JT"]')
    assert r.status_code == 400 and r.json()["error"].startswith("pasted text:1: deal 'N:AJ.KQ..JT' has 1 hand")
    r = _post(client, "parse", text=f'[Deck "single24"]\n[Deal "{deal}"]\n[Strain "H"]\n[Play "E"]\nSA')
    assert r.status_code == 400 and r.json()["error"].startswith("pasted text:") and "cannot play SA" in r.json()["error"]
    # a request number that is not a number: served, just not superseded
    assert client.post("/api/values", json=dict(deal=deal, strain="H", leader="E", client="x", req="1")).status_code == 200
    assert client.post("/api/view", content=b"{not json").status_code == 400
    assert _post(client, "nosuch").status_code == 404
    r = _post(client, "bid", deal=deal, seat="S")
    assert r.status_code == 400 and "E speaks next" in r.json()["error"]


def test_limits_refuse_with_a_message(client):
    deal = real_deals(1)[0]
    r = _post(client, "parse", text="x" * (views.LIMITS["text"] + 1))
    assert r.status_code == 400 and "more than the board takes" in r.json()["error"]
    r = _post(client, "view", deal=deal + " " * views.LIMITS["field"], strain="H", leader="E")
    assert r.status_code == 400 and r.json()["error"].startswith("deal: ")
    r = client.post("/api/view", content=b"{" + b" " * (4 * views.LIMITS["text"] + 20_000) + b"}")
    assert r.status_code == 413
    r = _post(client, "view", deal=deal, strain="H", leader="E", rule=["stick=true"] * 21)
    assert r.status_code == 400 and "rule: 21 items" in r.json()["error"]
    r = _post(client, "view", deal=["N:"], strain="H")
    assert r.status_code == 400 and r.json()["error"] == "deal: expected text, got list"


def test_sd_and_review_and_bid(client):
    from bideuchre.analysis.play import play_advice, default_play_samples
    deal = real_deals(4)[3]
    d = Deal.from_pbn(deal)
    obj = _post(client, "sd", deal=deal, strain="S", leader="W", seat="W").json()
    ref = play_advice(d.hands[Seat.W], "W", "S", "W", samples=default_play_samples("single24"))
    assert obj["cards"] == [c.to_json() for c in ref.cards]
    assert _post(client, "sd", deal=deal, strain="S", leader="W", seat="N").json()["cards"] == []
    pos = Position(d, "S", "W")
    line = []
    for _ in range(4):
        line.append(str(pos.legal_cards()[0]))
        pos.play(line[-1])
    rev = _post(client, "review", deal=deal, strain="S", leader="W", line=" ".join(line)).json()
    an = analyse_play(d, "S", "W", line)
    assert [s["cost"] for s in rev["steps"]] == [s.cost for s in an.steps]
    assert all(s["sd"]["verdict"] in (None, "mistake", "unlucky") for s in rev["steps"])
    adv = _post(client, "bid", deal=deal, seat="E", dealer="N").json()
    assert adv["seat"] == "E" and adv["hand"] == Deal.from_pbn(deal).pbn().split()[1]
    assert adv["actions"][0]["action"] == "pass" and adv["recommend"] in {a["action"] for a in adv["actions"]}


def test_edit_and_export(client):
    deal = real_deals(1)[0]                 # N:JT.Q.J9.J Q.JT..KQT AK9.K.AQ. .A9.KT.A9
    d = Deal.from_pbn(deal)
    hands = {s.name: [str(c) for c in d.hands[s]] for s in Seat}
    hands["N"][hands["N"].index("SJ")], hands["E"][hands["E"].index("SQ")] = "SQ", "SJ"
    new = _post(client, "edit", deal=deal, hands=hands).json()["deal"]
    assert new == "N:QT.Q.J9.J J.JT..KQT AK9.K.AQ. .A9.KT.A9"
    hands["N"].append("CA")
    r = _post(client, "edit", deal=deal, hands=hands)
    assert r.status_code == 400 and "held twice" in r.json()["error"]
    ex = _post(client, "export", deal=deal, strain="H", leader="E", played="SQ").json()
    from bideuchre.records import parse_text
    rec = parse_text(ex["record"])[0]
    assert ex["deal"] == deal and rec.deal == d and rec.play == [Card.SQ] and rec.leader == Seat.E


def test_a_waiting_request_is_superseded_by_a_later_one():
    lanes = _Lanes()
    gate = threading.Event()

    async def scenario():
        busy = asyncio.ensure_future(lanes.run("dd", None, None, gate.wait))
        first = asyncio.ensure_future(lanes.run("dd", ("page", "values"), 1, lambda: "first"))
        second = asyncio.ensure_future(lanes.run("dd", ("page", "values"), 2, lambda: "second"))
        other = asyncio.ensure_future(lanes.run("dd", ("other", "values"), 1, lambda: "other"))
        await asyncio.sleep(0.05)
        gate.set()
        await busy
        with pytest.raises(Superseded):
            await first
        return await second, await other

    try:
        assert asyncio.run(scenario()) == ("second", "other")
    finally:
        lanes.close()


def test_board_command_reads_the_position_as_explain(monkeypatch):
    from bideuchre.cli.board_cmd import board_state, board_url
    from bideuchre.cli.options import preset_with_rules

    deal = real_deals(1)[0]
    p = preset_with_rules("standard", ["stick=true"])
    st = board_state(p, ["stick=true"], None, deal, "H", "E", "SQ", None, None, None, 1, None)
    assert st == {"preset": "standard", "rule": ["stick=true"], "deck": "", "deal": deal, "dealer": "N",
                  "strain": "H", "leader": "E", "played": "SQ"}
    q = urllib.parse.parse_qs(urllib.parse.urlparse(board_url("127.0.0.1", 8765, st)).query)
    assert q == {"preset": ["standard"], "rule": ["stick=true"], "deal": [deal], "dealer": ["N"],
                 "strain": ["H"], "leader": ["E"], "played": ["SQ"]}
    rec = load_record(PTN, 2)
    st = board_state(preset_with_rules("standard"), [], None, None, None, None, "", None, None, str(PTN), 2, 2)
    assert st["line"].split() == [str(c) for c in rec.play] and len(st["played"].split()) == 4
    assert st["preset"] == "double48" and st["declarer"] == "S"
    assert board_state(p, [], None, None, None, None, "", None, None, None, 1, None) == {
        "preset": "standard", "rule": [], "deck": ""}             # the empty board
    # bad input: the CLI's one line, exit 2, before anything listens
    assert "not in hand E" in _cli_error("board", deal, "--strain", "H", "--leader", "E", "--played", "SA", "--no-browser")
    assert "is a file, not a deal" in _cli_error("board", str(ROOT / "positions" / "core.txt"), "--no-browser")
    assert "need --strain" in _cli_error("board", deal, "--played", "SQ", "--no-browser")


def test_board_command_serves_and_warns_for_another_host(monkeypatch):
    """The command prints the URL, warns when the host is not this machine only, and hands a
    bound socket to uvicorn (its run is replaced here: nothing is served)."""
    import uvicorn

    from bideuchre.cli.app import app
    seen = {}
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: seen.setdefault("sock", sockets[0].getsockname()))
    deal = real_deals(1)[0]
    r = CliRunner().invoke(app, ["board", deal, "--port", "0", "--no-browser"])
    assert r.exit_code == 0, r.output
    port = seen.pop("sock")[1]
    assert f"http://127.0.0.1:{port}/?preset=standard&deal=" in r.output and "warning" not in r.output
    r = CliRunner().invoke(app, ["board", deal, "--port", "0", "--no-browser", "--host", "0.0.0.0"])
    assert r.exit_code == 0 and "warning: --host 0.0.0.0: anyone who can reach" in r.output


def test_the_page_files_ship_in_the_wheel_and_the_repository():
    """Every file of the page is in the package data (pyproject's globs) and, in a git
    checkout, tracked (a .gitignore rule once hid index.html)."""
    import fnmatch
    import subprocess
    tomllib = pytest.importorskip("tomllib")

    static = ROOT / "solver" / "board" / "static"
    files = sorted(p.relative_to(static.parent).as_posix() for p in static.iterdir())
    assert {"static/index.html", "static/board.js", "static/board.css"} <= set(files)
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = conf["tool"]["setuptools"]["package-data"]["bideuchre.board"]
    assert "bideuchre.board" in conf["tool"]["setuptools"]["packages"]
    assert all(any(fnmatch.fnmatch(f, g) for g in globs) for f in files)
    if (ROOT / ".git").exists():
        tracked = subprocess.run(["git", "ls-files", "solver/board/static"], cwd=ROOT, text=True,
                                 capture_output=True, check=True).stdout.split()
        assert sorted(t.removeprefix("solver/board/") for t in tracked) == files
