"""Shared pieces of the command line: error handling, reading deals, drawing hands.

Exit codes (STYLE.md): 0 ok, 1 internal error, 2 bad input.  Data goes to stdout, messages
to stderr.  ``--json`` output is plain JSON with a ``schema`` version.
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import sys
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

import typer

from bideuchre.notation import Deal, format_hand
from bideuchre.rules import BidEuchreError, Card, Seat, Suit

if TYPE_CHECKING:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

# rich loads when a command first prints (out, err, the helpers below), not when the command
# line starts: ``bideuchre --version`` and every command's start-up do not pay for it.

SCHEMA = 1
def _to_devnull(stream) -> None:
    """Point a closed stream's file descriptor at /dev/null: later writes go nowhere."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())


def _quiet_end() -> None:
    """The reader closed stdout (``| head``): later writes, and the flush at exit, go to
    /dev/null, and the command ends with exit code 0."""
    _to_devnull(sys.stdout)
    raise typer.Exit(0)


_CONSOLE_CLASS = None


def _console_class():
    """rich's Console with the project's broken-pipe hook (the class is made on first use)."""
    global _CONSOLE_CLASS
    if _CONSOLE_CLASS is None:
        from rich.console import Console

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

        _CONSOLE_CLASS = _Console
    return _CONSOLE_CLASS


class _LazyConsole:
    """``out`` and ``err``: the rich Console of stdout or stderr, made on first use (attribute
    reads and writes go to it), so that importing the command line does not import rich."""

    __slots__ = ("_stderr", "_real")

    def __init__(self, stderr: bool):
        object.__setattr__(self, "_stderr", stderr)
        object.__setattr__(self, "_real", None)

    def _console(self):
        if self._real is None:
            object.__setattr__(self, "_real", _console_class()(stderr=self._stderr, highlight=False))
        return self._real

    def __getattr__(self, name: str):
        return getattr(self._console(), name)

    def __setattr__(self, name: str, value) -> None:
        setattr(self._console(), name, value)

    def __enter__(self):          # special methods are looked up on the type: forward them
        return self._console().__enter__()

    def __exit__(self, *exc) -> None:
        self._console().__exit__(*exc)


out = _LazyConsole(stderr=False)
err = _LazyConsole(stderr=True)

SUIT_STYLE = {Suit.S: "bold", Suit.H: "bold red", Suit.D: "bold red", Suit.C: "bold"}


class BadInput(BidEuchreError):
    """Bad command-line input that the library does not check itself (a missing file)."""


def clip(text: str, limit: int = 240) -> str:
    """One line of at most ``limit`` characters (long quoted input is cut with an ellipsis)."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def fail(message: str, code: int = 2) -> "typer.Exit":
    """Print one line on stderr and return the Exit to raise."""
    from rich.markup import escape

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


def _finite(obj):
    """``obj`` with every NaN or infinite float as null: the output stays valid JSON (RFC 8259
    has no NaN or Infinity; ``json.dumps`` would write them)."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    return obj


def print_json(obj) -> None:
    """One JSON document on stdout (plain, no markup), with the schema version."""
    if isinstance(obj, dict) and "schema" not in obj:
        obj = {"schema": SCHEMA, **obj}
    sys.stdout.write(json.dumps(_finite(obj), ensure_ascii=False) + "\n")
    sys.stdout.flush()


def simple_table(title: str | None = None, **kw) -> Table:
    """A table in the compact style that fits 80 columns: a rule under the header only, no
    outer padding, adjacent paddings collapsed."""
    from rich import box
    from rich.table import Table

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


def each_stdin_line(handle: Callable[[int, str], None], progress: str | None = None) -> int:
    """Call ``handle(line number, text)`` for each deal line on stdin; a line it rejects (a
    ValueError, the library's errors included) is reported on stderr with its number and
    skipped, as is a line too long or not UTF-8 (:func:`bideuchre.textio.read_lines`: at most
    :data:`~bideuchre.textio.MAX_LINE` bytes a line, bad input quoted cut short).  Returns the
    number of bad lines (the command then exits 2).  Stdin without a deal line is bad input too
    (as an empty file is to ``batch``).  With ``progress`` (a label), a progress bar on stderr
    when stderr is a terminal and stdin is not (see :func:`stdin_progress`)."""
    from rich.markup import escape

    from bideuchre.textio import LineError, read_lines as capped_lines

    bad = seen = 0
    with guard(), stdin_progress(progress) as advance:
        for lineno, text in capped_lines("-"):
            seen += 1
            if isinstance(text, LineError):
                bad += 1
                err.print(f"[red]error:[/red] {escape(str(text))}", soft_wrap=True)
                continue
            try:
                handle(lineno, text)
            except (ValueError, BidEuchreError) as exc:
                bad += 1
                err.print(f"[red]error:[/red] line {lineno}: {escape(clip(str(exc)))}", soft_wrap=True)
            advance()
        if not seen:
            raise BadInput(f"{source_name('-')}: no deals (only blank or # lines)")
    return bad


PROGRESS_FROM = 20      # deals: a shorter input redirected from a file gets no progress bar


@contextlib.contextmanager
def stdin_progress(label: str | None) -> Iterator[Callable[[], None]]:
    """A progress bar on stderr for the deals read from stdin, as ``batch`` shows: yields
    ``advance()``, called once a deal.  Shown only with a ``label``, stderr a terminal and
    stdin not one (nobody is typing deals), for a long input: a file redirected to stdin with
    at least :data:`PROGRESS_FROM` deal lines (counted first: the bar has a total), or a pipe
    (length unknown: the bar counts).  Transient: it leaves nothing on the screen."""
    show = bool(label) and err.is_terminal and not sys.stdin.isatty()
    total = None
    if show:
        from bideuchre.batch import count_input_lines   # a regular file's deal lines, else None
        total = count_input_lines("/dev/stdin") if os.path.exists("/dev/stdin") else None
        show = total is None or total >= PROGRESS_FROM
    if not show:
        yield lambda: None
        return
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    # stdout on the terminal too: results print above the bar; else they go straight to stdout
    # (rich would route a redirected stdout through the stderr console)
    bar = Progress(TextColumn(f"[bold]{escape(label)}[/bold]"), BarColumn(), MofNCompleteColumn(),
                   TimeRemainingColumn(), console=err, transient=True,
                   redirect_stdout=sys.stdout.isatty())
    task = bar.add_task(label, total=total)
    with bar:
        yield lambda: bar.advance(task)


# ---------------------------------------------------------------------------------------------
# Table options: --rule KEY=VALUE (RULES.md §2), parsed here for every command

RULE_HELP = ("Table option KEY=VALUE, repeatable: stick=true min_bid=4 target=42 penalty=6 "
             "lone_12=18 deck=double40 lone_exchange=2 ('bideuchre rules PRESET' lists each "
             "preset's options and values).")


def rule_option():
    """The repeatable ``--rule KEY=VALUE`` option, one line in a command's signature:
    ``rule: List[str] = rule_option()``; read it with :func:`preset_with_rules`."""
    return typer.Option([], "--rule", metavar="KEY=VALUE", help=RULE_HELP)


def parse_rules(items: Iterable[str]) -> dict[str, str]:
    """``["stick=true", "min_bid=4"]`` → ``{"stick": "true", "min_bid": "4"}`` (keys lower
    case, ``-`` read as ``_``).  Raises BadInput for an item without ``=`` or a key given
    twice; the values are checked by :meth:`bideuchre.rules.Preset.with_options`."""
    out: dict[str, str] = {}
    for item in items:
        key, eq, value = str(item).partition("=")
        key = key.strip().lower().replace("-", "_")
        if not eq or not key or not value.strip():
            raise BadInput(f"--rule {clip(item, 40)!r}: expected KEY=VALUE, like stick=true "
                           "('bideuchre rules' lists the options)")
        if key in out:
            raise BadInput(f"--rule {key} given twice ({key}={out[key]}, {key}={value.strip()})")
        out[key] = value.strip()
    return out


def preset_with_rules(preset, rules: Iterable[str] = (), deck: str | None = None, **options):
    """The preset (a name or a Preset) with the ``--rule`` options applied; ``deck`` (a
    command's ``--deck``) is read as ``--rule deck=...``.  ``options``: a command's own options
    that name a table option too (bid's ``target=``, which the command applies itself): one
    that a --rule also sets must agree with it.  Raises RulesError (a bad key or value, naming
    the allowed values) or BadInput (a malformed item, or an option and a --rule that
    disagree)."""
    from bideuchre.rules import get_preset

    p = get_preset(preset)
    changes = parse_rules(rules)
    for key, value in (("deck", deck), *options.items()):
        if value is not None and key in changes and \
                _option_value(p, key, changes[key]) != _option_value(p, key, value):
            raise BadInput(f"--{key} {value} and --rule {key}={changes[key]} disagree")
    if deck is not None:
        changes["deck"] = deck
    return p.with_options(**changes) if changes else p


def _option_value(preset, key: str, value):
    """The value table option ``key`` takes when set to ``value`` (text or not)."""
    return {o.key: o.value for o in preset.with_options(**{key: value}).table_options()}[key]


def with_rules(obj: dict, preset) -> dict:
    """``obj`` with ``"rules": {...}`` (the table options that differ from the preset's,
    :meth:`~bideuchre.rules.Preset.changed_options`) after its ``"preset"`` key, when any does."""
    changed = preset.changed_options()
    if not changed:
        return obj
    out: dict = {}
    for k, v in obj.items():
        out[k] = v
        if k == "preset":
            out["rules"] = changed
    out.setdefault("rules", changed)
    return out


# What each analysis assumes, one line under it (issue 15 §3: plain words)
DOUBLE_DUMMY = "double dummy: every hand visible, best play by all"


def cards_text(cards) -> "Text":
    """Cards in a row with coloured suit symbols (``♠A ♥10``), for tables."""
    from rich.text import Text

    t = Text()
    for i, c in enumerate(cards):
        if i:
            t.append(" ")
        t.append_text(card_text(c))
    return t


def trick_text(trick, prefix: str = "") -> "Text":
    """The cards on the table, each after its seat (``N ♠A  E ♠9``), after ``prefix``."""
    from rich.text import Text

    t = Text(prefix)
    for i, (seat, card) in enumerate(trick):
        if i:
            t.append("  ")
        t.append(seat.name + " ", style="cyan")
        t.append_text(card_text(card))
    return t


def hand_text(cards: Iterable[int]) -> Text:
    """A hand as four lines, one per suit, with coloured suit symbols (``♠ A K 9``)."""
    from rich.text import Text

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
    from rich.text import Text

    c = Card(card)
    return Text.assemble((c.suit.symbol, SUIT_STYLE[c.suit]), "10" if c.rank.char == "T" else c.rank.char)


def compass(hands: list, title: str = "", dealer: Seat | None = None,
            out_seat: Seat | None = None) -> "Table | Group":
    """The four hands drawn as a compass (N top, W left, E right, S bottom), under ``title``
    (the deal line) on a line of its own: a deal line is wider than the drawing."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

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
