"""The ``bideuchre`` command line (Typer + rich), thin over the library: :mod:`bideuchre.cli.app`."""
