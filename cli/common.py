"""Shared pieces of the command line: error handling, reading deals, drawing hands.

Exit codes (STYLE.md): 0 ok, 1 internal error, 2 bad input.  Data goes to stdout, messages
to stderr.  ``--json`` output is plain JSON with a ``schema`` version.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sys
from typing import Callable, Iterable, Iterator

import typer
from rich import box
from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from bideuchre.notation import Deal, format_hand
from bideuchre.rules import BidEuchreError, Card, Seat, Suit

SCHEMA = 1
def _to_devnull(stream) -> None:
    """Point a closed stream's file descriptor at /dev/null: later writes go nowhere."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())


def _quiet_end() -> None:
    """The reader closed stdout (``| head``): later writes, and the flush at exit, go to
    /dev/null, and the command ends with exit code 0."""
    _to_devnull(sys.stdout)
    raise typer.Exit(0)


class _Console(Console):
    def on_broken_pipe(self) -> None:
        """rich's hook (its default points stdout at /dev/null and exits 1, whichever stream
        broke).  Closed stdout: end quietly with 0.  Closed stderr: the messages and progress
        are dropped and the work goes on (a batch still writes its results)."""
        self.quiet = True
        if self.stderr:
            _to_devnull(sys.stderr)
            return
        _quiet_end()


out = _Console(highlight=False)
err = _Console(stderr=True, highlight=False)

SUIT_STYLE = {Suit.S: "bold", Suit.H: "bold red", Suit.D: "bold red", Suit.C: "bold"}


class BadInput(BidEuchreError):
    """Bad command-line input that the library does not check itself (a missing file)."""


def clip(text: str, limit: int = 240) -> str:
    """One line of at most ``limit`` characters (long quoted input is cut with an ellipsis)."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def fail(message: str, code: int = 2) -> "typer.Exit":
    """Print one line on stderr and return the Exit to raise."""
    err.print(f"[red]error:[/red] {escape(clip(message))}", markup=True, highlight=False, soft_wrap=True)
    return typer.Exit(code)


# errors of writing, not reading: an OSError of these without a file name is the output's
_WRITE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EINVAL}


@contextlib.contextmanager
def guard(output: str | None = None) -> Iterator[None]:
    """Turn bad input into one stderr line and exit code 2 (1 for an internal error); never a
    traceback.  A reader that closes the output early (``| head``) ends the command quietly,
    exit code 0.  Every OSError names its file: ``output`` (the command's output file) is
    named for a write error that carries no name (a full disk, ``-o /proc/version``)."""
    try:
        yield
    except typer.Exit:
        raise
    except BrokenPipeError:
        _quiet_end()
    except OSError as exc:
        if not exc.filename and output and exc.errno in _WRITE_ERRNOS:
            exc = OSError(exc.errno, exc.strerror or str(exc), output)
        raise fail(_one_line(exc)) from None
    except (BidEuchreError, UnicodeDecodeError) as exc:
        raise fail(_one_line(exc)) from None
    except KeyboardInterrupt:
        from .app import sigterm_received
        what = "terminated (SIGTERM)" if sigterm_received() else "interrupted"
        raise fail(f"{what} before the command finished; nothing more was written", 130) from None
    except Exception as exc:  # noqa: BLE001 - last resort: one line, exit 1
        raise fail(f"internal error: {type(exc).__name__}: {_one_line(exc)}", 1) from None


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.filename:
        return f"{exc.filename}: {exc.strerror or exc}"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return " ".join(str(exc).split())


def print_json(obj) -> None:
    """One JSON document on stdout (plain, no markup), with the schema version."""
    if isinstance(obj, dict) and "schema" not in obj:
        obj = {"schema": SCHEMA, **obj}
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def simple_table(title: str | None = None, **kw) -> Table:
    """A table in the compact style that fits 80 columns: a rule under the header only, no
    outer padding, adjacent paddings collapsed."""
    return Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True, **kw)


def _looks_like_record(path: str) -> bool:
    """Whether a file starts like a hand record (a ``[Tag "value"]`` line, ours or PTN)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.strip():
                    return line.lstrip("\ufeff").lstrip().startswith("[")
    except OSError:
        pass
    return False


def refuse_file(text: str, command: str, stdin: bool = True) -> None:
    """A DEAL argument that names a file: say how ``command`` reads deals from it (``stdin``:
    the command takes ``-`` for one deal a line on stdin; else it takes one deal itself)."""
    if ":" not in text and os.path.isfile(text):
        if _looks_like_record(text):
            raise BadInput(f"{text!r} is a hand record, not a deal: replay it with "
                           f"'bideuchre replay {text}' (--index K for its K-th record)")
        how = (f"read its deals, one a line, with 'bideuchre {command} - < {text}'" if stdin
               else f"give one deal itself, like 'bideuchre {command} \"$(head -n 1 {text})\" ...'")
        raise BadInput(f"{text!r} is a file, not a deal: {how}")


def source_name(source: str) -> str:
    """How messages name an input: the file's path, or ``stdin`` for ``-``."""
    return "stdin" if source == "-" else source


def each_stdin_line(handle: Callable[[int, str], None]) -> int:
    """Call ``handle(line number, text)`` for each deal line on stdin; a line it rejects (a
    ValueError, the library's errors included) is reported on stderr with its number and
    skipped.  Returns the number of bad lines (the command then exits 2).  Stdin without a
    deal line is bad input too (as an empty file is to ``batch``)."""
    bad = seen = 0
    with guard():
        for lineno, text in read_lines("-"):
            seen += 1
            try:
                handle(lineno, text)
            except (ValueError, BidEuchreError) as exc:
                bad += 1
                err.print(f"[red]error:[/red] line {lineno}: {escape(clip(str(exc)))}", soft_wrap=True)
        if not seen:
            raise BadInput(f"{source_name('-')}: no deals (only blank or # lines)")
    return bad


def read_lines(source: str) -> Iterable[tuple[int, str]]:
    """(line number, text) of the non-blank, non-comment lines of a file or ``-`` (stdin)."""
    fh = sys.stdin if source == "-" else open(source, encoding="utf-8")
    name = source_name(source)
    i = 0
    try:
        while True:
            try:
                line = fh.readline()
            except UnicodeDecodeError:
                raise BadInput(f"{name}: line {i + 1} is not UTF-8 text") from None
            if not line:
                break
            i += 1
            text = line.strip().lstrip("\ufeff")
            if text and not text.startswith("#"):
                yield i, text
    finally:
        if fh is not sys.stdin:
            fh.close()


def hand_text(cards: Iterable[int]) -> Text:
    """A hand as four lines, one per suit, with coloured suit symbols (``♠ A K 9``)."""
    parts = format_hand(cards).split(".")
    t = Text()
    for suit, ranks in zip(Suit, parts):
        if suit:
            t.append("\n")
        t.append(suit.symbol + " ", style=SUIT_STYLE[suit])
        t.append(" ".join("10" if r == "T" else r for r in ranks) or "—")
    return t


def card_text(card: int) -> Text:
    """A card with its suit symbol coloured (``♠A``)."""
    c = Card(card)
    return Text.assemble((c.suit.symbol, SUIT_STYLE[c.suit]), "10" if c.rank.char == "T" else c.rank.char)


def compass(hands: list, title: str = "", dealer: Seat | None = None,
            out_seat: Seat | None = None) -> "Table | Group":
    """The four hands drawn as a compass (N top, W left, E right, S bottom), under ``title``
    (the deal line) on a line of its own: a deal line is wider than the drawing."""
    def label(seat: Seat) -> Text:
        t = Text(seat.name, style="bold cyan")
        if dealer == seat:
            t.append(" (dealer)", style="dim")
        if out_seat == seat:
            t.append(" (sits out)", style="dim")
        return t + Text("\n") + hand_text(hands[seat])

    g = Table.grid(padding=(0, 3))
    for _ in range(3):
        g.add_column()
    g.add_row("", label(Seat.N), "")
    g.add_row(label(Seat.W), "", label(Seat.E))
    g.add_row("", label(Seat.S), "")
    return Group(Text(title, style="italic", overflow="fold"), g) if title else g


def deal_hands(deal: Deal) -> list:
    return [list(h) for h in deal.hands]
