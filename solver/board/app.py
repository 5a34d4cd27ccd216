"""The board's Starlette app: the static page and the JSON endpoints over :mod:`.views`.

Every endpoint takes a POST with a JSON object (the position's state, :mod:`.views`) and
answers JSON; bad input is HTTP 400 ``{"error": "<the CLI's one-line message>"}``.  The
searches run off the event loop on two lanes of one worker thread each: ``dd`` (card values,
principal lines, replays, the DD table of a short deck form; one thread keeps its
transposition table warm between clicks) and ``slow`` (tables of the long deck forms, single
dummy, reviews, bid advice).  A request may carry ``client`` (a page's id) and ``req`` (a
number that grows with each request of that page): a request still waiting for its lane when
a later one of the same client and endpoint arrives is dropped with HTTP 409
``{"superseded": true}`` (a search already running finishes; its answer is ignored by the
page, which aborts the fetch).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..rules import BidEuchreError
from .views import (LIMITS, BoardError, bid_json, edit_json, export_json, is_slow, parse_json,
                    presets_json, read_state, replay_json, review_json, sd_json, table_json,
                    text_field, values_json, view_json)

__all__ = ["create_app", "MAX_BODY", "ENDPOINTS"]

MAX_BODY = LIMITS["text"] * 4 + 10_000      # bytes of one request body (UTF-8 of the text)

# endpoint -> (view, lane: "dd", "slow" or "auto" (slow for the long deck forms), extra args)
ENDPOINTS: dict[str, tuple[Callable, str, tuple]] = {
    "view": (view_json, "inline", ()),
    "values": (values_json, "auto", ("pv",)),
    "table": (table_json, "auto", ()),
    "replay": (replay_json, "auto", ()),
    "sd": (sd_json, "slow", ("seat", "seed")),
    "review": (review_json, "slow", ("seed",)),
    "bid": (bid_json, "slow", ("seat", "auction", "seed")),
    "parse": (parse_json, "inline", ("text", "index")),
    "export": (export_json, "inline", ()),
    "edit": (edit_json, "inline", ("hands",)),
}


class Superseded(Exception):
    """A later request of the same page and endpoint came before this one started."""


class _Lanes:
    """The worker threads and the latest request number per (client, endpoint)."""

    def __init__(self) -> None:
        self.pools = {"dd": ThreadPoolExecutor(1, "board-dd"), "slow": ThreadPoolExecutor(1, "board-slow")}
        self.latest: dict[tuple[str, str], int] = {}
        self.lock = threading.Lock()

    def _stale(self, key, req) -> bool:
        with self.lock:
            return key is not None and req < self.latest.get(key, req)

    async def run(self, lane: str, key, req, fn: Callable, *args) -> Any:
        if key is not None:
            with self.lock:
                self.latest[key] = max(req, self.latest.get(key, req))

        def job():
            if self._stale(key, req):
                raise Superseded
            return fn(*args)

        return await asyncio.wrap_future(self.pools[lane].submit(job))

    def close(self) -> None:
        for pool in self.pools.values():
            pool.shutdown(wait=False, cancel_futures=True)


def _error(message: str, status: int = 400) -> JSONResponse:
    from ..inputs import one_line
    return JSONResponse({"error": one_line(message)}, status_code=status)


def _finite(obj):
    from ..cli.common import finite_json as finite
    return finite(obj)


def _one_line(exc: BaseException) -> str:
    from ..cli.common import error_line as one_line
    return one_line(exc)


def _args(body: dict, names: tuple) -> list:
    """The endpoint's extra arguments from the body, checked for type."""
    out = []
    for name in names:
        value = body.get(name)
        if name in ("pv",):
            out.append(bool(value))
        elif name in ("seed", "index"):
            default = 1
            if value is None:
                out.append(default)
            elif isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10**9:
                raise BoardError(f"{name}: expected a whole number 1..1000000000")
            else:
                out.append(value)
        elif name == "hands":
            if not (isinstance(value, dict) and all(isinstance(v, list) and len(v) <= 24 and
                                                     all(isinstance(c, str) for c in v)
                                                     for v in value.values()) and len(value) <= 4):
                raise BoardError("hands: expected {seat: [cards]} for the four seats")
            out.append(value)
        elif name == "text":
            if not isinstance(value, str):
                raise BoardError("text: expected the text of a deal or a record")
            out.append(value)
        else:       # seat, auction
            out.append(text_field(body, name))
    return out


def create_app() -> Starlette:
    """The board's ASGI app.  Routes: ``GET /`` the page (its URL query holds the position,
    :mod:`.views`), ``GET /static/...`` its files, ``GET /api/presets`` and ``POST
    /api/<endpoint>`` for each of :data:`ENDPOINTS` (README "The analysis board").  The
    worker threads stop when the app's lifespan ends."""
    lanes = _Lanes()
    static = resources.files("bideuchre.board") / "static"

    async def page(request: Request) -> Response:
        return FileResponse(str(static / "index.html"), media_type="text/html")

    async def presets(request: Request) -> Response:
        return JSONResponse(presets_json())

    async def endpoint(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ENDPOINTS:
            return _error(f"no endpoint {name!r} (the board has: {' '.join(ENDPOINTS)})", 404)
        raw = await request.body()
        if len(raw) > MAX_BODY:
            return _error(f"the request is {len(raw):,} bytes, more than the board takes ({MAX_BODY:,})", 413)
        try:
            body = json.loads(raw.decode("utf-8") or "{}")
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            return _error(f"the request body is not JSON: {exc}")
        fn, lane, names = ENDPOINTS[name]
        try:
            st = read_state(body)
            args = [st, *_args(body, names)]
            if lane == "inline":
                result = fn(*args)
            else:
                if lane == "auto":
                    lane = "slow" if is_slow(st) and name != "values" else "dd"
                client, req = body.get("client"), body.get("req")
                key = ((str(client)[:64], name) if isinstance(client, str) and isinstance(req, int)
                       and not isinstance(req, bool) else None)
                result = await lanes.run(lane, key, req, fn, *args)
        except Superseded:
            return JSONResponse({"superseded": True}, status_code=409)
        except (BidEuchreError, UnicodeDecodeError) as exc:
            return _error(_one_line(exc))
        except RecursionError:
            return _error("the input is nested too deeply")
        except Exception as exc:  # noqa: BLE001 - one line, never a traceback in the page
            return _error(f"internal error: {type(exc).__name__}: {_one_line(exc)}", 500)
        return JSONResponse(_finite(result))

    routes = [
        Route("/", page),
        Route("/api/presets", presets),
        Route("/api/{name}", endpoint, methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=str(static)), name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        lanes.close()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.lanes = lanes
    return app
