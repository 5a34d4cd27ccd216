"""``bideuchre board``: the analysis board, a local web app over the library
(:mod:`bideuchre.board`): it opens a position given as ``explain`` takes it, prints its URL
and opens the browser."""

from __future__ import annotations

import ipaddress
from typing import List, Optional
from urllib.parse import urlencode

import typer

from bideuchre.rules import RulesError

from .common import BadInput, err, guard, out, refuse_file
from .options import position_option, preset_with_rules, rule_option

DEFAULT_PORT = 8765


def board_state(p, rules: List[str], deck: Optional[str], deal: Optional[str], strain: Optional[str],
                leader: Optional[str], played: str, lone: Optional[str], dealer: Optional[str],
                record: Optional[str], index: int, trick: Optional[int]) -> dict:
    """The page's state (:mod:`bideuchre.board.views`: the URL query) of the position the
    options name, read and checked as ``explain`` reads them
    (:func:`~bideuchre.cli.explain_cmd.explain_position`); a DEAL without ``--strain`` opens
    the deal alone (its DD table; the strain is chosen on the page); no DEAL and no record,
    the empty board.  A record's play is the state's ``line`` (replayed card by card)."""
    from .explain_cmd import explain_position
    from .options import load_deal

    state = {"preset": p.name, "rule": list(rules), "deck": deck or ""}
    if record is None and strain is None:
        if leader or played or lone or trick is not None:
            raise RulesError("--leader, --played, --lone and --trick need --strain (or --record)")
        if deal is not None:
            refuse_file(deal, "board", stdin=False)
            d = load_deal(deal, p, deck, dealer)
            state.update(deal=d.pbn(), dealer=d.dealer.name)
        return state
    pos, _source, rec = explain_position(p, deal, strain, leader, played, lone, dealer, deck,
                                         record, index, trick, command="board")
    state.update(deal=pos.deal.pbn(), dealer=pos.deal.dealer.name, strain=pos.strain.name,
                 leader=pos.leader.name, played=" ".join(str(c) for c in pos.played))
    if pos.lone is not None:
        state["lone"] = pos.lone.name
    if rec is not None:
        from bideuchre.board.views import record_state
        played_now = state["played"]
        state = record_state(rec, p if p.name != "standard" or rules else None)
        state.update(played=played_now, deck=deck or "")
        if rules:
            state["rule"] = list(rules)
    return state


def board_url(host: str, port: int, state: dict) -> str:
    """``http://HOST:PORT/?preset=...&deal=...``: the page's URL of ``state`` (empty values
    left out; one ``rule=`` per table option)."""
    items = []
    for key, value in state.items():
        if key == "rule":
            items += [("rule", r) for r in value]
        elif value:
            items.append((key, value))
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/" + (f"?{urlencode(items)}" if items else "")


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def board_command(
    deal: Optional[str] = typer.Argument(None, help="Deal 'N:<hand> <hand> <hand> <hand>' (or --record; none: an empty board to paste into)."),
    strain: Optional[str] = position_option("strain", " (none: choose it on the page)"),
    leader: Optional[str] = position_option("leader"),
    played: str = position_option("played"),
    lone: Optional[str] = position_option("lone"),
    preset: str = position_option("preset"),
    dealer: Optional[str] = position_option("dealer"),
    deck: Optional[str] = position_option("deck"),
    record: Optional[str] = position_option("record", ", to replay card by card"),
    index: int = position_option("index"),
    trick: Optional[int] = position_option("trick"),
    rule: List[str] = rule_option(),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (default: this machine only; another exposes the board to the network)."),
    port: int = typer.Option(DEFAULT_PORT, "--port", min=0, max=65535, help="Port to listen on (0: a free one)."),
    no_browser: bool = typer.Option(False, "--no-browser", help="Print the URL only; do not open a browser."),
) -> None:
    """The analysis board in the browser: every legal card's DD value on the card, play it
    out, undo and redo, replay a record, share the position as a link."""
    with guard():
        p = preset_with_rules(preset, rule)
        state = board_state(p, rule, deck, deal, strain, leader, played, lone, dealer, record, index, trick)
        try:
            import uvicorn

            from bideuchre.board import create_app
            app = create_app()
        except ImportError as exc:
            raise BadInput(f"the board needs Starlette and uvicorn: pip install 'bideuchre[board]' ({exc})") from None
        sock = _listen(host, port)
    url = board_url(host if host not in ("0.0.0.0", "::") else "127.0.0.1", sock.getsockname()[1], state)
    if not _loopback(host):
        err.print(f"[yellow]warning:[/yellow] --host {host}: anyone who can reach this address can "
                  "use the board and the CPU it runs on (no password)", soft_wrap=True)
    out.print(f"the board is at {url}", soft_wrap=True, highlight=False)
    err.print("Ctrl-C stops it", style="dim")
    if not no_browser:
        import threading
        import webbrowser
        threading.Timer(0.5, webbrowser.open, (url,)).start()
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])


def _listen(host: str, port: int):
    """:func:`bideuchre.board.listen`; raises BadInput naming the address when it cannot be
    bound (in use, not this machine's) or resolved."""
    import socket

    from bideuchre.board import listen

    try:
        return listen(host, port)
    except (socket.gaierror, UnicodeError) as exc:
        raise BadInput(f"--host {host}: cannot resolve it ({exc})") from None
    except OSError as exc:
        hint = "; choose another with --port N (0: a free one)" if port else ""
        raise BadInput(f"cannot listen on {host}:{port}: {exc.strerror or exc}{hint}") from None


def register(app: typer.Typer) -> None:
    """Add the ``board`` command to the app."""
    app.command("board", short_help="The analysis board in the browser: DD values on the cards, "
                "play, undo, replay, share as a link.")(board_command)
