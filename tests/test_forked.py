"""The forked workers of ``bid`` (``bideuchre.analysis.advice.forked``): results in order, a
worker's exception raised in the parent, a killed worker's task solved in the parent, signals
to the workers ignored, and no worker left once the pool is closed."""

from __future__ import annotations

import os
import signal
import time

import pytest

from bideuchre.analysis.advice.forked import ForkPool, available

pytestmark = pytest.mark.skipif(not available(), reason="forked workers need POSIX fork")


def _square(x):
    if x < 0:
        raise ValueError(f"negative {x}")
    if x >= 1000:
        time.sleep(x / 1000)
    return {"x": x, "sq": x * x, "pid": os.getpid(), "big": bytes(200_000)}


def _refuse_to_load():
    raise TypeError("this result cannot be rebuilt")


class _Unloadable:
    """Pickles in the worker; unpickling it in the parent raises TypeError."""

    def __reduce__(self):
        return (_refuse_to_load, ())


def _odd(x):
    return _Unloadable() if x == 1 else x


def _gone(pid: int) -> bool:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True                     # reaped: not our child any more
    return False


def test_results_come_in_order_from_the_workers_and_on_done_sees_each():
    seen = []
    with ForkPool(2, _square, on_done=lambda v: seen.append(v["x"])) as pool:
        jobs = [pool.submit(x) for x in range(12)]
        got = [j.result() for j in jobs]
        pids = [p[0] for p in pool._procs]
    assert [g["sq"] for g in got] == [x * x for x in range(12)]
    assert {g["pid"] for g in got} == set(pids) and os.getpid() not in pids
    assert sorted(seen) == list(range(12)) and all(len(g["big"]) == 200_000 for g in got)
    assert all(_gone(pid) for pid in pids)


def test_an_exception_in_a_worker_is_raised_in_the_parent():
    with ForkPool(2, _square) as pool:
        bad, good = pool.submit(-3), pool.submit(4)
        with pytest.raises(ValueError, match="negative -3"):
            bad.result()
        assert good.result()["sq"] == 16


def test_a_killed_worker_s_tasks_are_solved_in_the_parent():
    with ForkPool(2, _square) as pool:
        slow = pool.submit(1500)        # on the first worker
        other = pool.submit(5)
        victim = pool._procs[0][0]
        os.kill(victim, signal.SIGKILL)
        assert slow.result()["sq"] == 1500 ** 2 and slow.result()["pid"] == os.getpid()
        assert other.result()["sq"] == 25
        later = pool.submit(7)          # the live worker takes it
        assert later.result()["pid"] not in (victim, os.getpid())
    assert _gone(victim)


def test_workers_ignore_sigterm_and_sigint_and_die_when_closed():
    pool = ForkPool(2, _square)
    try:
        pids = [p[0] for p in pool._procs]
        for pid in pids:
            os.kill(pid, signal.SIGTERM)
            os.kill(pid, signal.SIGINT)
        time.sleep(0.2)
        jobs = [pool.submit(x) for x in (2, 3)]
        assert [j.result()["pid"] for j in jobs] == pids     # the same workers still answer
    finally:
        pool.close()
    assert all(_gone(pid) for pid in pids)
    pool.close()                        # idempotent


def test_wait_returns_at_its_timeout_with_the_job_still_pending():
    with ForkPool(1, _square) as pool:
        job = pool.submit(1800)
        start = time.monotonic()
        pool.wait([job], timeout=0.05)
        assert not job.done() and time.monotonic() - start < 1.5
        pids = [p[0] for p in pool._procs]
    assert all(_gone(pid) for pid in pids)     # closed with the job in flight: killed, reaped


def test_a_result_that_cannot_be_read_is_its_own_job_s_error_and_the_next_is_not_shifted():
    with ForkPool(1, _odd) as pool:
        a, b = pool.submit(1), pool.submit(5)
        with pytest.raises(TypeError, match="cannot be rebuilt"):
            a.result()
        assert b.result() == 5
