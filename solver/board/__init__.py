"""The analysis board: a deal in the browser, every legal card's double-dummy value on the
card, play it out, undo and redo, replay a record, share a position as a link.

A small ASGI app (Starlette, the ``board`` extra) with JSON endpoints over the library
(:mod:`bideuchre.board.views`) and a static page (``static/``: plain HTML, CSS and JS, no
build step, served from the package).  ``bideuchre board`` starts it on uvicorn; in Python::

    from bideuchre.board import create_app
    app = create_app()          # any ASGI server: uvicorn.run(app, host="127.0.0.1", port=8000)
"""

from __future__ import annotations

__all__ = ["create_app"]


def create_app():
    """The board's Starlette app (:func:`bideuchre.board.app.create_app`).  Raises
    ImportError naming the ``board`` extra when Starlette is not installed."""
    try:
        from .app import create_app as make
    except ImportError as exc:
        raise ImportError(f"the board needs Starlette and uvicorn: pip install 'bideuchre[board]' ({exc})") from None
    return make()
