"""Forked worker processes for :func:`~bideuchre.analysis.advice.advise` (the ``bid`` command):
the model's continuation of the auction is Python and holds the GIL, so threads share one core
for it; forked processes do not.

Why not ``concurrent.futures.ProcessPoolExecutor``: with it, a signal to the whole process group
(``kill -TERM -PGID``, a service manager's stop) could kill a worker in the middle of sending a
large result; the pool's feeder thread then waits for the rest of it for ever, and the
interpreter's exit joins that thread, so the process hung.  Here the parent owns everything:

- each worker has its own two pipes (tasks in, results out), and closes the other workers'
  ends, so a worker's death is an end of file on its pipe and nothing else;
- the workers ignore SIGINT, SIGTERM, SIGHUP and SIGALRM (blocked across the fork, so none
  lands between): a signal to the group reaches the parent alone, whose handler ends the
  command; the parent kills its workers (SIGKILL) and reaps them whenever the pool closes,
  normally or not; on Linux a worker also dies with the thread that forked it
  (``PR_SET_PDEATHSIG``), and any worker reads an end of file on its task pipe once the
  parent is gone;
- no thread: the parent reads results only when it waits for them (:meth:`ForkPool.wait`);
- a worker leaves by ``os._exit``: no atexit handler, buffer or finaliser of the parent runs
  twice;
- a chunk whose worker died (the kernel's OOM killer, say) is solved again in the parent, so
  the answer is the same and nothing is lost; an exception raised by the task in a worker is
  raised again by :meth:`Job.result` in the parent.

POSIX with ``os.fork`` only (:func:`available`); else the caller keeps threads.
"""

from __future__ import annotations

import os
import pickle
import selectors
import signal
import struct
import sys
import time
from collections import deque
from typing import Callable, Optional

__all__ = ["ForkPool", "Job", "available"]

_SIGNALS = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP", "SIGALRM")
                 if hasattr(signal, n))
_HEADER = struct.Struct("<Q")


def available() -> bool:
    """Whether forked workers can be used here (POSIX with ``fork``, not Emscripten)."""
    return hasattr(os, "fork") and hasattr(signal, "pthread_sigmask") and sys.platform != "emscripten"


def _die_with_parent() -> None:
    """Linux: SIGKILL this process when the thread that forked it ends (best effort)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)     # PR_SET_PDEATHSIG
    except Exception:                   # no libc by that name: the EOF on the task pipe remains
        pass


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _read_exact(fd: int, n: int) -> Optional[bytes]:
    """``n`` bytes from ``fd``, or None at an end of file before them (blocking)."""
    parts, got = [], 0
    while got < n:
        b = os.read(fd, min(n - got, 1 << 20))
        if not b:
            return None
        parts.append(b)
        got += len(b)
    return b"".join(parts)


def _send(fd: int, obj) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    _write_all(fd, _HEADER.pack(len(data)) + data)


def _worker(fn: Callable, tasks: int, results: int) -> None:
    """A worker's life: read a task, run ``fn(*args)``, send ``("ok", value)`` or ``("err",
    exception)``; leave at an end of file or any failure to talk to the parent."""
    while True:
        head = _read_exact(tasks, _HEADER.size)
        if head is None:
            return
        body = _read_exact(tasks, _HEADER.unpack(head)[0])
        if body is None:
            return
        try:
            out = ("ok", fn(*pickle.loads(body)))
        except BaseException as exc:    # sent to the parent, which raises it there
            out = ("err", exc)
        try:
            _send(results, out)
        except (pickle.PicklingError, TypeError, AttributeError):
            _send(results, ("err", RuntimeError(f"a worker's result could not be sent: {out[1]!r}")))


class Job:
    """One task's future in a :class:`ForkPool`: :meth:`done`, :meth:`result`, :meth:`cancel`."""

    __slots__ = ("args", "_state", "_value", "_pool")

    def __init__(self, pool: "ForkPool", args: tuple):
        self._pool, self.args = pool, args
        self._state, self._value = "pending", None

    def done(self) -> bool:
        return self._state != "pending"

    def cancel(self) -> bool:
        """Drop the result when it comes (the task may still run)."""
        if self._state == "pending":
            self._state = "cancelled"
        return True

    def result(self):
        """The task's value (waits for it); raises the task's exception."""
        if self._state == "pending":
            self._pool.wait([self])
        if self._state == "err":
            raise self._value
        if self._state == "cancelled":
            raise RuntimeError("the task was cancelled")
        return self._value

    def _finish(self, state: str, value) -> None:
        if self._state == "pending":
            self._state, self._value = state, value


class ForkPool:
    """``workers`` forked processes running ``fn(*args)`` for each :meth:`submit`.

    ``fn`` and whatever it reads are the parent's at the fork (nothing is pickled but the
    arguments and results).  ``on_done(value)`` is called in the parent as each result is
    read.  Use as a context manager, or call :meth:`close`: it kills and reaps the workers.
    Raises OSError when a process cannot be forked (the caller may fall back to threads).
    """

    def __init__(self, workers: int, fn: Callable, on_done: Optional[Callable] = None):
        self._fn, self._on_done = fn, on_done
        self._procs: list = []          # [pid, task fd, result fd, deque of jobs in flight]
        self._closed = False
        try:
            old = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
            try:
                for _ in range(workers):
                    self._fork_one()
            finally:                    # a signal held back is delivered here: close() below
                signal.pthread_sigmask(signal.SIG_SETMASK, old)
        except BaseException:
            self.close()
            raise

    def _fork_one(self) -> None:
        t_r, t_w = os.pipe()
        r_r, r_w = os.pipe()
        try:
            pid = os.fork()
        except BaseException:
            for fd in (t_r, t_w, r_r, r_w):
                os.close(fd)
            raise
        if pid == 0:                    # the worker: never returns
            code = 0
            try:
                for s in _SIGNALS:
                    signal.signal(s, signal.SIG_IGN)
                signal.pthread_sigmask(signal.SIG_SETMASK, ())
                _die_with_parent()
                os.close(t_w)
                os.close(r_r)
                for p in self._procs:       # the other workers' ends: their EOFs stay theirs
                    for fd in p[1:3]:
                        os.close(fd)
                _worker(self._fn, t_r, r_w)
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        os.close(t_r)
        os.close(r_w)
        self._procs.append([pid, t_w, r_r, deque()])

    def submit(self, *args) -> Job:
        """Send ``args`` to the worker with the fewest tasks in flight; returns its :class:`Job`.
        A worker that is gone leaves its task to the parent (solved on :meth:`wait`)."""
        job = Job(self, args)
        live = [p for p in self._procs if p[0] is not None]
        if not live:
            job._finish(*self._here(args))
            return job
        p = min(live, key=lambda p: len(p[3]))
        try:
            _send(p[1], args)
        except OSError:                 # the worker died: its jobs are solved here
            self._lost(p)
            job._finish(*self._here(args))
            return job
        p[3].append(job)
        return job

    def _here(self, args: tuple) -> tuple:
        try:
            v = self._fn(*args)
        except Exception as exc:
            return "err", exc
        if self._on_done is not None:
            self._on_done(v)
        return "ok", v

    def _lost(self, p: list) -> None:
        """Worker ``p`` is gone: reap it and solve its jobs in flight here, in order."""
        self._reap(p)
        jobs, p[3] = p[3], deque()
        for job in jobs:
            if job._state == "pending":
                job._finish(*self._here(job.args))

    def _reap(self, p: list) -> None:
        pid = p[0]
        if pid is None:
            return
        p[0] = None
        for fd in (p[1], p[2]):
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass

    def _read_one(self, p: list) -> None:
        """Read the next result of worker ``p`` (it is ready to read)."""
        head = _read_exact(p[2], _HEADER.size)
        body = None if head is None else _read_exact(p[2], _HEADER.unpack(head)[0])
        if body is None:
            self._lost(p)
            return
        job = p[3].popleft()            # first: whatever follows, this result is this job's
        try:
            state, value = pickle.loads(body)
            if state == "ok" and job._state == "pending" and self._on_done is not None:
                self._on_done(value)
        except Exception as exc:        # an exception that cannot be rebuilt here, say
            state, value = "err", exc
        job._finish(state, value)

    def wait(self, jobs, timeout: Optional[float] = None) -> None:
        """Read results until one of ``jobs`` is done, or ``timeout`` seconds (None: no limit)."""
        end = None if timeout is None else time.monotonic() + timeout
        while not any(j.done() for j in jobs):
            busy = {p[2]: p for p in self._procs if p[0] is not None and p[3]}
            if not busy:                # only jobs whose worker is gone: solved in _lost
                return
            left = None if end is None else max(0.0, end - time.monotonic())
            with selectors.DefaultSelector() as sel:    # poll/epoll: no FD_SETSIZE limit
                for fd in busy:
                    sel.register(fd, selectors.EVENT_READ)
                ready = [key.fd for key, _ in sel.select(left)]
            if not ready:
                return
            for fd in ready:
                self._read_one(busy[fd])

    def close(self) -> None:
        """Kill and reap every worker (idempotent); jobs still pending are cancelled."""
        if self._closed:
            return
        self._closed = True
        for p in self._procs:
            for job in p[3]:
                job.cancel()
            self._reap(p)

    def __enter__(self) -> "ForkPool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
