"""The files of a batch run: no two of them the same file, and one run at a time on an output.

- :func:`check_distinct_files` refuses, before any work, a run where two of its files (the
  input, ``--output``, ``--summary-json``, ``--plot``) are one file, also through a link or
  another spelling of the path: writing one would destroy the other (a summary written over the
  results, an input emptied by ``--overwrite`` of itself).
- :class:`OutputLock` is an OS file lock (``fcntl.flock``) held on ``OUTPUT.lock`` for the whole
  run, so that two runs never append to one output at once; the lock file holds the pid of the
  run holding it, which the refusal of a second run names.  The lock goes with the process
  (a killed run holds nothing), so a stale ``OUTPUT.lock`` is taken over.  Where ``fcntl`` does
  not exist (Windows) no lock is taken: the README says so.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Iterable

from .base import BatchError

try:
    import fcntl
except ImportError:          # Windows: no flock; runs on one output are not guarded
    fcntl = None


def _identity(path) -> tuple:
    """What makes two paths one file: (device, inode) of an existing file, else the real path
    (every link resolved) of the name it would be created under."""
    try:
        st = os.stat(path)
    except OSError:
        return ("path", os.path.normcase(os.path.realpath(path)))
    return ("inode", st.st_dev, st.st_ino, stat.S_ISREG(st.st_mode))


def check_distinct_files(files: Iterable[tuple[str, object]]) -> None:
    """Raise BatchError naming both when two of ``files`` (pairs ``(option, path)``; a path of
    None or ``-``, stdin or stdout, is left out) are the same file: the same inode, through a
    hard or symbolic link too, or the same real path for a file still to be made.  Devices and
    pipes (``/dev/null`` named twice) are left out: writing one does not destroy the other."""
    seen: dict[tuple, str] = {}
    for what, path in files:
        if path is None or str(path) == "-":
            continue
        key = _identity(path)
        if key[0] == "inode":
            if not key[3]:
                continue            # a device or a pipe
            key = key[:3]
        if key in seen:
            raise BatchError(f"{what} {str(path)!r} is the same file as {seen[key]}: writing one would "
                             f"destroy the other; give another file name")
        seen[key] = f"{what} {str(path)!r}"


class OutputLock:
    """An exclusive lock on a batch output for one run: ``fcntl.flock`` on ``OUTPUT.lock`` (the
    lock file holds the holder's pid, one line).  ``OutputLock(path)`` takes it or raises
    BatchError naming the pid that holds it; ``release()`` removes the lock file and lets go.
    Nothing is locked for stdout, a device or a pipe, where ``fcntl`` is missing (Windows) or
    on a file system without locks.  A lock file that cannot be made (a read-only folder,
    ``/proc``) falls back to a lock on the output itself, when it exists."""

    def __init__(self, path):
        self.path = Path(path)
        self.file = Path(str(path) + ".lock")
        self._fd: int | None = None
        self._own_file = False
        if fcntl is None or (self.path.exists() and not self.path.is_file()):
            return
        for _ in range(20):         # the holder may remove its lock file between open and flock
            try:
                fd = os.open(self.file, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError:         # a read-only folder, a file system that makes no files (/proc)
                self._lock_output()
                return
            try:
                taken = self._take(fd)
            except OSError:         # a file system without locks (some network ones): none held
                os.close(fd)
                return
            if not taken:
                pid = _read_pid(fd)
                os.close(fd)
                raise BatchError(f"output {str(self.path)!r} is in use by another run (pid {pid}, lock file "
                                 f"{str(self.file)!r}); wait for it to finish or give another --output")
            try:
                same = os.fstat(fd).st_ino == os.stat(self.file).st_ino
            except FileNotFoundError:
                same = False
            if same:
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
                self._fd, self._own_file = fd, True
                return
            os.close(fd)            # locked a lock file its holder has just removed: again
        raise BatchError(f"output {str(self.path)!r}: cannot take the lock {str(self.file)!r}")

    @staticmethod
    def _take(fd: int) -> bool:
        """Lock ``fd``: True when locked, False when another holds it; OSError when the file
        system has no locks."""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _lock_output(self) -> None:
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except OSError:
            return                  # nothing there to lock; making the output will say why not
        try:
            taken = self._take(fd)
        except OSError:
            os.close(fd)            # no locks on this file system: nothing to hold
            return
        if not taken:
            os.close(fd)
            raise BatchError(f"output {str(self.path)!r} is in use by another run; wait for it to "
                             f"finish or give another --output")
        self._fd = fd

    @property
    def held(self) -> bool:
        """Whether this object holds a lock."""
        return self._fd is not None

    def release(self) -> None:
        """Remove the lock file and let the lock go (again: nothing)."""
        if self._fd is None:
            return
        if self._own_file:
            try:
                self.file.unlink()      # while still locked: a waiting run then sees a new inode
            except OSError:
                pass
        os.close(self._fd)
        self._fd = None


def _read_pid(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        text = ""
    return text if text.isdigit() else "unknown"
