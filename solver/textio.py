"""Reading text input line by line with a bounded length: the one line reader of every command
that reads lines (``batch``, ``solve -``, ``par -``, ``bid --deals``, hand record files).

A line longer than :data:`MAX_LINE` bytes, or one that is not UTF-8, is a bad line like any other:
it is reported with its number and the start of its text quoted (at most :data:`QUOTE` characters),
and reading goes on with the next line.  The rest of a long line is read and dropped in
blocks, so memory stays bounded whatever the input (``/dev/zero`` included: one endless bad line).

Decisions (RULES.md is silent on files): a deal line is about 100 bytes and a hand record line
at most a few hundred, so 64 KiB leaves room for JSON lines with carried keys while a batch's
chunks in flight stay small; a byte-order mark at the start of the first line is dropped.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Iterator

from .errors import ArgumentError, NotationError
from .inputs import shown

__all__ = ["MAX_LINE", "QUOTE", "SKIP_LIMIT", "BadLine", "read_lines", "checked_lines", "check_path"]

MAX_LINE = 65536      # bytes in a line, the newline not counted
QUOTE = 60            # characters of bad input quoted in a message
SKIP_LIMIT = 1 << 26  # bytes of one long line read and dropped before reading stops (64 MiB)
_BLOCK = 65536        # bytes read at a time while dropping the rest of a long line


@dataclass
class BadLine:
    """A bad input line: its 1-based number, what is wrong (one line, the start of the text
    quoted), and that start (at most :data:`QUOTE` characters: bad input is kept cut short).
    :func:`read_lines` gives one for a line that cannot be read as text, the batch reader
    (:mod:`bideuchre.batch.readers`) for a line that is no deal."""

    lineno: int
    message: str
    text: str = ""

    def __str__(self) -> str:
        return f"line {self.lineno}: {self.message}"


def check_path(path) -> None:
    """Refuse a file name no system can open: one with a NUL character (ArgumentError, one
    line; ``open`` says "ValueError: embedded null byte")."""
    name = os.fspath(path)
    if ("\0" if isinstance(name, str) else b"\0") in name:
        text = name if isinstance(name, str) else name.decode("utf-8", "replace")
        raise ArgumentError(f"file name {shown(text)} contains a NUL character (\\0): no file "
                            "can have that name")


def _open(source):
    """(binary or text stream, whether to close it) for a path, ``-`` or an open stream."""
    if isinstance(source, (str, os.PathLike)):
        if str(source) == "-":
            return _open(sys.stdin)
        check_path(source)
        return open(source, "rb"), True
    if source is None:          # the program was started with stdin closed (<&-)
        raise NotationError("stdin is closed: no input to read")
    return getattr(source, "buffer", source), False


def read_lines(source, *, limit: int = MAX_LINE, content_only: bool = True,
               skip: int = SKIP_LIMIT) -> Iterator[tuple[int, str | BadLine]]:
    """``(line number, text)`` of each line of a path, ``-`` (stdin) or an open stream (binary,
    or text: then ``limit`` counts characters), the text stripped of surrounding white space.

    ``content_only`` skips blank lines and comment lines (starting with ``#``).  A line over
    ``limit`` bytes or not UTF-8 comes as ``(line number, BadLine)``; reading goes on after
    it; a line still going after ``skip`` bytes (:data:`SKIP_LIMIT`, 64 MiB: ``/dev/zero``) ends
    the reading there, with a BadLine saying so.  At most ``limit`` bytes (plus a block of
    64 KiB) are held at a time.  Raises NotationError for a closed stdin, OSError for a file
    that cannot be opened or read."""
    fh, close = _open(source)
    try:
        lineno = 0
        while True:
            raw = fh.readline(limit + 1)
            if not raw:
                return
            lineno += 1
            binary = isinstance(raw, bytes)
            nl = b"\n" if binary else "\n"
            if len(raw) > limit and not raw.endswith(nl):
                head = raw[:4 * QUOTE]
                size, ended = len(raw), False
                while size <= skip:        # drop the rest of the line, a block at a time
                    more = fh.readline(_BLOCK)
                    size += len(more)
                    if not more or more.endswith(nl):
                        size -= len(nl) if more else 0
                        ended = True
                        break
                start = head.decode("utf-8", "replace") if binary else head
                unit = "bytes" if binary else "characters"
                if not ended:
                    what = (f"more than {limit:,} {unit}" if skip <= limit else
                            f"more than {skip:,} {unit} (at most {limit:,}); reading stopped here")
                    yield lineno, BadLine(lineno, f"line too long: {what}: {shown(start, QUOTE)}", start[:QUOTE])
                    return
                yield lineno, BadLine(lineno, f"line too long: {size:,} {unit} (at most "
                                                f"{limit:,}): {shown(start, QUOTE)}", start[:QUOTE])
                continue
            if binary:
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    start = raw.decode("utf-8", "replace").strip()
                    yield lineno, BadLine(lineno, f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at "
                                                    f"column {exc.start + 1}): {shown(start, QUOTE)}",
                                            start[:QUOTE])
                    continue
            else:
                text = raw
            if lineno == 1:
                text = text.lstrip("\ufeff")
            text = text.strip()
            if content_only and (not text or text.startswith("#")):
                continue
            yield lineno, text
    except UnicodeDecodeError as exc:      # a text stream that decodes by itself
        yield lineno + 1, BadLine(lineno + 1, f"not UTF-8 text ({exc.reason}); reading stopped here")
    finally:
        if close:
            fh.close()


def checked_lines(source, name: str | None = None, *, limit: int = MAX_LINE,
                  content_only: bool = True) -> Iterator[tuple[int, str]]:
    """:func:`read_lines` for callers that stop at the first bad line: raises NotationError
    ``"NAME: line N: line too long (...)"`` (``name`` defaults to the path, ``stdin`` for ``-``)."""
    if name is None:
        name = "stdin" if str(source) == "-" else str(source)
    for lineno, text in read_lines(source, limit=limit, content_only=content_only, skip=0):
        if isinstance(text, BadLine):
            raise NotationError(f"{name}: {text}")
        yield lineno, text
