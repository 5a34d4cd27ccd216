"""The ``bideuchre`` command: one Typer app, one module per command group (thin over the library).

This module is the console script's entry point and stays light: :func:`main` installs the
signal handling and checks the standard streams before anything heavy (Typer, rich, NumPy, the
Cython core) is imported, so a Ctrl-C while the program starts is one line and exit 130, not a
traceback.  The Typer ``app`` is built on first use (``from bideuchre.cli.app import app``).

Exit codes (README "Limits and exit codes"): 0 ok (also when the reader of stdout stops early,
``| head``), 1 internal error, 2 bad input (one line on stderr; also an output that cannot be
written: a closed or full stream, a full disk -- the line names the stream or the file),
130 interrupted by Ctrl-C (SIGINT), 143 terminated by SIGTERM, 129 hung up (SIGHUP: the terminal
closed), each after saying what was lost.
"""



import errno
import os
import signal
import sys
from typing import Any

from .common import (arm, clear_sigterm, interrupt_raised, interrupted_line, interrupted_what, on_alarm,
                     on_sigint, on_sigterm, sigterm_received, terminating_signal, unraisable)

__all__ = ["main", "app", "sigterm_received"]


class _Closed:
    """Stands in for a standard stream whose file descriptor was closed when the program
    started (``>&-``, ``<&-``): reading or writing it is an OSError naming the stream (one
    line, exit 2), not "'NoneType' object has no attribute 'write'"."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.closed = False
        self.encoding = "utf-8"
        self.errors = "strict"

    def _fail(self, *args: Any, **kwargs: Any):
        raise OSError(errno.EBADF, "it is closed", self.name)

    write = writelines = read = readline = readlines = __iter__ = __next__ = _fail

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return {"stdin": 0, "stdout": 1, "stderr": 2}[self.name]


class _Output:
    """stdout with its write errors named: an OSError (a full disk, ``/dev/full``) names
    ``stdout`` and where it points; a reader that went away (``| head``) is remembered, so the
    command ends quietly with 0 whichever code path saw the broken pipe."""

    def __init__(self, stream) -> None:
        self._stream = stream
        self.reader_gone = False

    def __getattr__(self, name: str):
        return getattr(self._stream, name)

    def _call(self, method: str, *args):
        try:
            return getattr(self._stream, method)(*args)
        except BrokenPipeError:
            self.reader_gone = True
            _drop_output()
            raise
        except OSError as exc:
            if exc.filename:
                raise
            raise OSError(exc.errno, exc.strerror or str(exc), _stream_name(1, "stdout")) from None

    def write(self, text: str) -> int:
        return self._call("write", text)

    def writelines(self, lines) -> None:
        return self._call("writelines", lines)

    def flush(self) -> None:
        return self._call("flush")


def _stream_name(fd: int, name: str) -> str:
    """``stdout``, or ``stdout (/dev/full)`` when it points at a file."""
    try:
        target = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return name
    return f"{name} ({target})" if target.startswith("/") else name


def _drop_output() -> None:
    """Point file descriptor 1 at /dev/null: later writes, and the flush at exit, go nowhere."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.close(fd)
    except OSError:
        pass


def _standard_streams() -> None:
    """A closed standard descriptor gets /dev/null (so no file the command opens takes its
    number and receives stray output), and its Python stream a stand-in that says it is closed
    (stdin, stdout) or drops the messages (stderr: the work goes on, the exit code says how it
    went).  stdout is wrapped to name itself in write errors."""
    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        try:
            os.fstat(fd)
            is_open = getattr(sys, name) is not None
        except OSError:
            is_open = False
        if is_open:
            continue
        try:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
        except OSError:
            pass
        if name == "stderr":
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))
        else:
            setattr(sys, name, _Closed(name))
    if not isinstance(sys.stdout, (_Closed, _Output)):
        sys.stdout = _Output(sys.stdout)


def _say(message: str) -> None:
    """One line on stderr (which may be closed or full: then nothing)."""
    try:
        sys.stderr.write(message + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass


def _interrupted_code() -> int:
    return 128 + terminating_signal() if sigterm_received() else 130


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: run the command and exit with its code.

    Usage errors (a missing argument, an unknown option, a value of the wrong type) are one
    line on stderr with exit code 2, like every other bad input; so is an output that cannot
    be written (the line names the stream or file).  A reader that stops early ends the
    command quietly with 0; Ctrl-C gives 130, SIGTERM 143 and SIGHUP 129, with one line, never
    a traceback.
    """
    code: Any = 0
    clear_sigterm()
    previous: dict = {}
    hook = sys.unraisablehook
    try:
        try:
            try:
                for sig, handler in ((signal.SIGTERM, on_sigterm), (signal.SIGINT, on_sigint),
                                     (getattr(signal, "SIGHUP", None), on_sigterm),
                                     (getattr(signal, "SIGALRM", None), on_alarm)):
                    # SIGHUP stays ignored when it was (nohup: the command outlives its
                    # terminal)
                    if sig is None or (sig == getattr(signal, "SIGHUP", None)
                                       and signal.getsignal(sig) is signal.SIG_IGN):
                        continue
                    previous[sig] = signal.signal(sig, handler)
            except (ValueError, OSError):     # not the main thread (an embedding caller)
                pass
            sys.unraisablehook = unraisable(hook)
            arm(True)
            from bideuchre import pop_held_signal
            held = pop_held_signal()
            if held:        # a signal held while the script started: it takes effect now
                signal.raise_signal(held)
            _standard_streams()
            code = _run(argv)
            sys.stdout.flush()
        finally:
            arm(False)      # from here a signal is only recorded (reported below)
    except SystemExit as exc:      # rich's own broken-pipe exit, a library's sys.exit
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except KeyboardInterrupt:
        _say("error: " + interrupted_line())
        code = _interrupted_code()
    except BrokenPipeError:
        code = 0
    except OSError as exc:
        _say(f"error: {exc.filename}: {exc.strerror or exc}" if exc.filename else f"error: {exc}")
        code = 2
    except Exception as exc:  # noqa: BLE001 - last resort: one line, exit 1, never a traceback
        if interrupt_raised():      # the interrupt, turned into a library's own error
            _say("error: " + interrupted_line())
            code = _interrupted_code()
        else:
            if os.environ.get("BIDEUCHRE_TRACEBACK"):
                raise
            _say(f"error: internal error: {type(exc).__name__}: {' '.join(str(exc).split())[:300]}"
                 " (set BIDEUCHRE_TRACEBACK=1 to see where)")
            code = 1
    if hasattr(signal, "setitimer") and previous:
        signal.setitimer(signal.ITIMER_REAL, 0)
    if getattr(sys.stdout, "reader_gone", False):
        code = 0
    if code == 130 and sigterm_received():
        code = _interrupted_code()
    if code == 0 and sigterm_received():    # it came as the command finished: its output is whole
        _say(f"error: {interrupted_what()} as the command finished; its output is complete")
        code = _interrupted_code()
    if code != 0 and argv is None:
        _drop_output()      # buffered output that cannot be written must not fail at exit
    sys.unraisablehook = hook
    if argv is not None:        # main() called in process (tests): the caller's handlers back
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    elif previous:
        # The outcome is decided and said.  Python's finalization puts its own handlers back to
        # the default action, so a SIGTERM in the last milliseconds would kill the process with
        # no line (-15) after a complete output; ignored from here (an ignored signal stays
        # ignored), the exit code above stands.
        try:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            if hasattr(signal, "SIGHUP"):
                signal.signal(signal.SIGHUP, signal.SIG_IGN)
        except (ValueError, OSError):
            pass
    sys.exit(code)


def _run(argv: list[str] | None) -> Any:
    """Build the app and run it; Click's usage errors become one line and exit 2."""
    command = _command()
    args = list(sys.argv[1:] if argv is None else argv)
    for i, arg in enumerate(args):      # a shell cannot pass one; an in-process caller can
        if isinstance(arg, str) and "\0" in arg:
            shown = repr(arg if len(arg) <= 60 else arg[:59] + "…")
            _say(f"error: argument {i + 1} {shown} contains a NUL character (\\0): no option, "
                 "value or file name can")
            return 2
    try:
        # make_context and invoke, as Click's main does, without Typer's main around them:
        # it turns a KeyboardInterrupt into a silent exit 130 (no line; 143 for SIGTERM)
        with command.make_context("bideuchre", args) as ctx:
            code = command.invoke(ctx)
    except EOFError:
        raise KeyboardInterrupt from None
    except Exception as exc:  # Click's exceptions (Typer may vendor its own Click): duck-typed
        if type(exc).__name__ == "Abort":
            raise KeyboardInterrupt from None
        if type(exc).__name__ == "Exit" and hasattr(exc, "exit_code"):
            return exc.exit_code
        if isinstance(exc, OSError):
            raise
        if not (hasattr(exc, "format_message") and hasattr(exc, "exit_code")):
            raise
        message = exc.format_message()
        if message:     # none after the help shown for a bare 'bideuchre'
            ctx = getattr(exc, "ctx", None)
            hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
            _say(f"error: {message}{hint}")
        return exc.exit_code
    return code if isinstance(code, int) else 0


_APP = None


def _command_modules() -> list:
    """The command modules, in the order of the command list; each has ``register(app)``."""
    from . import batch_cmd, bid_cmd, board_cmd, explain_cmd, match_cmd, play_cmd, rules_cmd, solve_cmd

    return [solve_cmd, explain_cmd, batch_cmd, bid_cmd, rules_cmd, play_cmd, match_cmd, board_cmd]


def _build():
    """The Typer app (built once, on first use: Typer, rich and the commands load here)."""
    global _APP
    if _APP is not None:
        return _APP
    import typer

    application = typer.Typer(
        name="bideuchre",
        help="Double-dummy solver and hand analyser for Bid Euchre.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode="rich",
    )

    @application.callback(invoke_without_command=True)
    def _root(ctx: typer.Context,
              version: bool = typer.Option(False, "--version", help="Print the version and exit.")) -> None:
        """Double-dummy solver and hand analyser for Bid Euchre."""
        if version:
            from bideuchre import __version__
            typer.echo(__version__)
            raise typer.Exit(0)
        if ctx.invoked_subcommand is None:
            typer.echo(ctx.get_help())
            raise typer.Exit(0)

    for module in _command_modules():
        module.register(application)
    _APP = application
    return application


# what the help shows after an option that takes a value (instead of <str>)
_METAVARS = {"deal": "DEAL", "hand": "HAND", "record_file": "FILE", "input": "FILE",
             "preset": "PRESET", "dealer": "SEAT", "leader": "SEAT", "lone": "SEAT", "seat": "SEAT",
             "strain": "STRAIN", "deck": "DECK", "played": "CARDS", "known": "SEAT=CARDS",
             "auction": "CALLS", "score": "US-THEM", "record": "FILE", "deals": "FILE",
             "output": "FILE", "summary_json": "FILE", "fmt": "FORMAT", "dask_scheduler": "ADDRESS",
             "dask": "local", "executor": "KIND", "rule": "KEY=VALUE", "where": "EXPR", "by": "EXPR",
             "plot": "FILE", "objective": "GOAL"}


def _plain_metavars(command) -> None:
    """Help without type names: a flag shows none (Typer would print ``<bool>``), an option
    that takes text a word for what it takes (``SEAT``, ``FILE``; Typer: ``<str>``), and the
    help text in paragraphs (a docstring's line breaks would break the lines mid-sentence).
    Applied to the whole command tree once, here, so every command (present and future)
    follows it."""
    if command.help:
        command.help = _paragraphs(command.help)
    for param in command.params:
        if getattr(param, "is_flag", False):
            param.metavar = ""
        elif param.metavar is None and _takes_text(param):
            param.metavar = _METAVARS.get(param.name, (param.name or "TEXT").upper())
            if getattr(param, "param_type_name", "") == "argument":
                # Typer shows an argument's type beside its name whatever its metavar: 0.29
                # asks display_type_rich, 0.28 the type's own metavar (else "<str>")
                param.display_type_rich = lambda ctx: None
                param.type = _plain_text_type(param.type)
    original = command.get_help_option

    def get_help_option(ctx):
        option = original(ctx)
        if option is not None:
            option.metavar = ""
        return option

    command.get_help_option = get_help_option
    for sub in getattr(command, "commands", {}).values():
        _plain_metavars(sub)


def _paragraphs(text: str) -> str:
    """``text`` (a docstring) with each paragraph on one line, paragraphs apart by a blank line:
    the help wraps them to the terminal itself."""
    import inspect
    return "\n\n".join(" ".join(p.split()) for p in inspect.cleandoc(text).split("\n\n") if p.strip())


def _plain_text_type(base):
    """The text type ``base`` (Click's, or the copy of Click that typer 0.28 bundles: click
    itself need not be installed), shown with no type name beside an argument in the help."""

    class PlainText(type(base)):
        def get_metavar(self, param, ctx=None):
            return ""

    return PlainText()


def _takes_text(param) -> bool:
    """Whether a parameter takes text (``str``, ``Optional[str]``, ``List[str]``), in Click's
    terms or Typer's own (whose parameters describe their type by annotation)."""
    kind = getattr(param, "type", None)
    if kind is not None:
        return getattr(kind, "name", "") in ("text", "str")     # Click's STRING: "text" or "str"
    annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    return annotation is str or "str" in str(annotation)


_COMMAND = None


def _command():
    """The Click command of the app, with plain help metavars (built once)."""
    global _COMMAND
    if _COMMAND is None:
        import typer.main
        command = typer.main.get_command(_build())
        _plain_metavars(command)
        _COMMAND = command
    return _COMMAND


def __getattr__(name: str):
    if name == "app":
        return _build()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    main()
