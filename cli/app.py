"""The ``bideuchre`` command: one Typer app, one module per command group (thin over the library)."""

from __future__ import annotations

import sys

import typer

from . import solve_cmd

app = typer.Typer(
    name="bideuchre",
    help="Double-dummy solver and hand analyser for Bid Euchre.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


@app.callback(invoke_without_command=True)
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


# one-line summaries for the command list (the docstrings' line breaks would show there)
app.command("solve", short_help="Double-dummy tricks: the table (declarer × strain; --alone adds "
            "the lone table) or one position (--strain, --lone).")(solve_cmd.solve)

# Command groups added by later modules register themselves here.
for _name in ("explain_cmd", "batch_cmd", "bid_cmd", "rules_cmd", "play_cmd"):
    try:
        _mod = __import__(f"bideuchre.cli.{_name}", fromlist=["register"])
    except ModuleNotFoundError as _exc:
        if _exc.name != f"bideuchre.cli.{_name}":
            raise
        continue
    _mod.register(app)


def main() -> None:
    """Console-script entry point: usage errors (a missing argument, an unknown option, a value
    of the wrong type) are one line on stderr with exit code 2, like every other bad input."""
    try:
        code = app(standalone_mode=False)
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted\n")
        sys.exit(130)
    except Exception as exc:  # Click's exceptions (Typer may vendor its own Click): duck-typed
        if type(exc).__name__ == "Abort":
            sys.stderr.write("error: interrupted\n")
            sys.exit(130)
        if not (hasattr(exc, "format_message") and hasattr(exc, "exit_code")):
            raise
        message = exc.format_message()
        if message:     # none after the help shown for a bare 'bideuchre'
            ctx = getattr(exc, "ctx", None)
            hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
            sys.stderr.write(f"error: {message}{hint}\n")
        sys.exit(exc.exit_code)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
