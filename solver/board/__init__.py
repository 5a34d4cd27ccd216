"""The analysis board: a deal in the browser, every legal card's double-dummy value on the
card, play it out, undo and redo, replay a record, share a position as a link.

A small ASGI app (Starlette, the ``board`` extra) with JSON endpoints over the library
(:mod:`bideuchre.board.views`) and a static page (``static/``: plain HTML, CSS and JS, no
build step, served from the package).  ``bideuchre board`` starts it on uvicorn; in Python::

    from bideuchre.board import create_app
    app = create_app()          # any ASGI server: uvicorn.run(app, host="127.0.0.1", port=8000)
"""

from __future__ import annotations

import socket

__all__ = ["create_app", "listen"]


def create_app():
    """The board's Starlette app (:func:`bideuchre.board.app.create_app`).  Raises
    ImportError naming the ``board`` extra when Starlette is not installed."""
    try:
        from .app import create_app as make
    except ImportError as exc:
        raise ImportError(f"the board needs Starlette and uvicorn: pip install 'bideuchre[board]' ({exc})") from None
    return make()


def listen(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (0: a free port) for the board's server,
    with ``TCP_NODELAY`` (accepted connections inherit it: a response's headers and body,
    written apart, are not held back by Nagle's algorithm waiting for a delayed ACK).  Raises OSError when the address cannot be bound;
    socket.gaierror when ``host`` does not resolve."""
    info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(info[0], socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind(info[4])
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock
