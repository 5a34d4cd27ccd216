"""Shared pieces of the command line: the consoles, error handling, JSON output, stdin deal
lines, and the signal state (a SIGTERM ends a command the way Ctrl-C does).

Exit codes (STYLE.md): 0 ok, 1 internal error, 2 bad input.  Data goes to stdout, messages
to stderr.  ``--json`` output is plain JSON with a ``schema`` version.  What the commands show
is in :mod:`.views`, the options they share in :mod:`.options`.

This module is light (the entry point :mod:`.app` imports it before Typer, rich or NumPy):
Typer and rich load inside the functions that use them.
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import sys
from typing import TYPE_CHECKING, Callable, Iterator

from bideuchre.rules import BidEuchreError, one_line

if TYPE_CHECKING:
    import typer

# rich loads when a command first prints (out, err, the helpers below), not when the command
# line starts: ``bideuchre --version`` and every command's start-up do not pay for it.

SCHEMA = 1


# ---------------------------------------------------------------------------------------------
# Signal state: SIGTERM reads like a Ctrl-C, with exit code 143 instead of 130

_SIGTERM = 0                # the terminating signal's number (SIGTERM, SIGHUP), set by on_sigterm
_ARMED = False              # while a command runs: an interrupt may be raised as KeyboardInterrupt
_RAISED = False             # an interrupt was raised (or handed to a holding handler) in this run


def sigterm_received() -> bool:
    """Whether this run was ended by SIGTERM or SIGHUP (its interruption reads like a
    Ctrl-C's)."""
    return bool(_SIGTERM)


def terminating_signal() -> int:
    """The number of the signal that ended this run (SIGTERM 15, SIGHUP 1), 0 for none or a
    Ctrl-C: the exit code is 128 plus it (143, 129)."""
    return _SIGTERM


def clear_sigterm() -> None:
    """Forget an earlier SIGTERM or interrupt (a new run of :func:`bideuchre.cli.app.main` in
    process)."""
    global _SIGTERM, _RAISED
    _SIGTERM = 0
    _RAISED = False


def interrupt_raised() -> bool:
    """Whether this run raised a Ctrl-C or SIGTERM interrupt into the command.  A library the
    interrupt lands in may turn it into an error of its own (matplotlib's "Invalid bounding
    box" from a savefig cut short; "release unlocked lock" from a lock's exit cut short): an
    error that surfaces after the interrupt is read as the interrupt, never as an internal
    error."""
    return _RAISED


def arm(on: bool) -> None:
    """Whether an interrupt is raised (while the command runs) or only recorded (after it)."""
    global _ARMED
    _ARMED = on


def on_sigterm(signum, frame) -> None:
    """The SIGTERM and SIGHUP handler (a closed terminal sends SIGHUP): the command ends the
    way Ctrl-C ends it (each command then says what was lost, a batch what it saved); the
    exit code is 143 (SIGTERM) or 129 (SIGHUP)."""
    global _SIGTERM
    if not _SIGTERM:
        _SIGTERM = int(signum)
    _interrupt(frame)


def on_sigint(signum, frame) -> None:
    """The Ctrl-C handler: KeyboardInterrupt, where it is safe to raise (:func:`_interrupt`)."""
    _interrupt(frame)


def on_alarm(signum, frame) -> None:
    """An interrupt that waited (:func:`_again`) comes now."""
    _interrupt(frame)


def _interrupt(frame) -> None:
    """Raise KeyboardInterrupt where the command runs -- through a SIGINT handler that holds it,
    if one is installed (a batch writing a chunk), so SIGTERM is held there too.  Not while a
    module is being imported (an exception inside an extension module's initialisation is
    "ImportError: initialization failed" and can abort the interpreter as it exits; inside
    the import system's lock cleanup it is lost): then it comes again 5 ms later, until the
    import is done.  Once the command is over it is only recorded (main reports it)."""
    import signal
    global _RAISED
    if not _ARMED:
        return
    if _importing(frame):
        _again(0.005)
        return
    _RAISED = True
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler) and handler not in (signal.default_int_handler, on_sigint):
        handler(signal.SIGINT, frame)
        return
    raise KeyboardInterrupt


def _importing(frame) -> bool:
    """Whether ``frame`` runs inside the import system (a module being imported)."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def _again(seconds: float) -> None:
    """The interrupt once more after ``seconds`` (SIGALRM; where there is no timer: lost)."""
    import signal
    if hasattr(signal, "setitimer"):
        signal.setitimer(signal.ITIMER_REAL, seconds)


def unraisable(hook):
    """A ``sys.unraisablehook`` for the run: a KeyboardInterrupt (Ctrl-C or SIGTERM) that
    landed where Python cannot propagate it -- a ``__del__``, a weakref callback -- is not
    printed as "Exception ignored" and lost, but raised again 1 ms later, where it can
    propagate; anything else goes to ``hook``."""
    def hook_for_the_run(info) -> None:
        if isinstance(info.exc_value, KeyboardInterrupt) and _ARMED:
            _again(0.001)
            return
        hook(info)
    return hook_for_the_run


# ---------------------------------------------------------------------------------------------
# The consoles

def _to_devnull(stream) -> None:
    """Point a closed stream's file descriptor at /dev/null: later writes go nowhere."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())


def _quiet_end() -> None:
    """The reader closed stdout (``| head``): later writes, and the flush at exit, go to
    /dev/null, and the command ends with exit code 0."""
    import typer

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


class BadInput(BidEuchreError):
    """Bad command-line input that the library does not check itself (a missing file)."""


def fail(message: str, code: int = 2) -> "typer.Exit":
    """Print one line on stderr and return the Exit to raise."""
    import typer
    from rich.markup import escape

    err.print(f"[red]error:[/red] {escape(one_line(message))}", markup=True, highlight=False, soft_wrap=True)
    return typer.Exit(code)


# errors of writing, not reading: an OSError of these without a file name is the output's
_WRITE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EINVAL}


@contextlib.contextmanager
def guard(output: str | None = None) -> Iterator[None]:
    """Turn bad input into one stderr line and exit code 2 (1 for an internal error); never a
    traceback.  A reader that closes the output early (``| head``) ends the command quietly,
    exit code 0.  Every OSError names its file: ``output`` (the command's output file) is
    named for a write error that carries no name (a full disk, ``-o /proc/version``)."""
    import typer

    try:
        yield
    except typer.Exit:
        raise
    except BrokenPipeError:
        _quiet_end()
    except OSError as exc:
        if not exc.filename and output and exc.errno in _WRITE_ERRNOS:
            exc = OSError(exc.errno, exc.strerror or str(exc), output)
        raise fail(error_line(exc)) from None
    except (BidEuchreError, UnicodeDecodeError) as exc:
        raise fail(error_line(exc)) from None
    except KeyboardInterrupt:
        raise fail(interrupted_line(), 130) from None
    except Exception as exc:  # noqa: BLE001 - last resort: one line, exit 1
        if interrupt_raised():      # the interrupt, turned into a library's own error
            raise fail(interrupted_line(), 130) from None
        raise fail(f"internal error: {type(exc).__name__}: {error_line(exc)}", 1) from None


def interrupted_what() -> str:
    """How the run was ended: "terminated (SIGTERM)", "hung up (SIGHUP)" or "interrupted"
    (Ctrl-C)."""
    import signal
    if not _SIGTERM:
        return "interrupted"
    return "hung up (SIGHUP)" if _SIGTERM == getattr(signal, "SIGHUP", -1) else "terminated (SIGTERM)"


def interrupted_line() -> str:
    """The line said when Ctrl-C or SIGTERM ends a command before it finished."""
    return f"{interrupted_what()} before the command finished; nothing more was written"


def error_line(exc: BaseException) -> str:
    """An exception as one line: an OSError names its file (``path: No such file``), any other
    error is its message with runs of whitespace as one space."""
    if isinstance(exc, OSError) and exc.filename:
        return f"{exc.filename}: {exc.strerror or exc}"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return " ".join(str(exc).split())


def finite_json(obj):
    """``obj`` with every NaN or infinite float as null: the output stays valid JSON (RFC 8259
    has no NaN or Infinity; ``json.dumps`` would write them)."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: finite_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [finite_json(v) for v in obj]
    return obj


def print_json(obj) -> None:
    """One JSON document on stdout (plain, no markup), with the schema version."""
    if isinstance(obj, dict) and "schema" not in obj:
        obj = {"schema": SCHEMA, **obj}
    sys.stdout.write(json.dumps(finite_json(obj), ensure_ascii=False) + "\n")
    sys.stdout.flush()


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

    from bideuchre.textio import BadLine, read_lines as capped_lines

    bad = seen = 0
    with guard(), stdin_progress(progress) as advance:
        for lineno, text in capped_lines("-"):
            seen += 1
            if isinstance(text, BadLine):
                bad += 1
                err.print(f"[red]error:[/red] {escape(str(text))}", soft_wrap=True)
                continue
            try:
                handle(lineno, text)
            except (ValueError, BidEuchreError) as exc:
                bad += 1
                err.print(f"[red]error:[/red] line {lineno}: {escape(one_line(str(exc)))}", soft_wrap=True)
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


