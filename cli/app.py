"""The ``bideuchre`` command: one Typer app, one module per command group (thin over solver/)."""

from __future__ import annotations

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



@app.callback()
def _root(version: bool = typer.Option(False, "--version", help="Print the version and exit.")) -> None:
    """Double-dummy solver and hand analyser for Bid Euchre."""
    if version:
        from importlib.metadata import PackageNotFoundError, version as _v
        try:
            typer.echo(_v("bideuchre"))
        except PackageNotFoundError:
            typer.echo("unknown")
        raise typer.Exit(0)


app.command("solve")(solve_cmd.solve)

# Command groups added by later modules register themselves here.
for _name in ("explain_cmd", "batch_cmd", "bid_cmd"):
    try:
        _mod = __import__(f"cli.{_name}", fromlist=["register"])
    except ModuleNotFoundError as _exc:
        if _exc.name != f"cli.{_name}":
            raise
        continue
    _mod.register(app)


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
