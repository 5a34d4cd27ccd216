"""Where chunks run: threads, processes or a Dask cluster behind one face."""

from __future__ import annotations

import os

from .base import BatchError


def default_jobs() -> int:
    """The number of CPU cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


EXECUTORS = ("auto", "thread", "process", "dask")


def check_run_options(executor: str, chunk_size: int | None) -> None:
    """Raise BatchError for an unknown executor or a chunk size below 1 (callers check before
    they create an output, so a mistake leaves no file behind)."""
    if executor not in EXECUTORS:
        raise BatchError(f"unknown executor {executor!r} (expected {', '.join(EXECUTORS)})")
    if chunk_size is not None and chunk_size < 1:
        raise BatchError("--chunk-size must be at least 1")



class WorkerPool:
    """Thread, process or Dask execution behind one ``submit(fn, arg) -> future`` face."""

    def __init__(self, kind: str, jobs: int, dask=None, dask_processes: bool = True):
        self.kind, self.jobs = kind, jobs
        self._cluster = self._client = self._pool = None
        if kind == "dask":
            try:
                from distributed import Client, LocalCluster
            except ImportError:
                raise BatchError("--dask needs the distributed extra: pip install 'bideuchre[distributed]'") from None
            if isinstance(dask, Client):
                self._client = dask
                self._own_client = False
            else:
                if dask in (None, "local"):
                    # no dashboard: on a machine where another cluster holds its usual port
                    # (8787), distributed warned "Port 8787 is already in use" on stderr
                    self._cluster = LocalCluster(n_workers=jobs if dask_processes else 1,
                                                 threads_per_worker=1 if dask_processes else jobs,
                                                 processes=dask_processes, dashboard_address=":0",
                                                 scheduler_kwargs={"dashboard": False})
                    self._client = Client(self._cluster)
                else:
                    self._client = Client(dask, timeout="30s")
                self._own_client = True
            threads = sum(self._client.nthreads().values())
            self.jobs = max(1, threads)
        elif kind == "process":
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor
            self._pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"))
        elif kind == "thread":
            from concurrent.futures import ThreadPoolExecutor
            self._pool = ThreadPoolExecutor(jobs, thread_name_prefix="bideuchre-batch")
        else:
            raise BatchError(f"unknown executor {kind!r} (expected thread, process or dask)")

    def submit(self, fn, arg):
        if self._client is not None:
            return self._client.submit(fn, arg, pure=False)
        return self._pool.submit(fn, arg)

    def close(self, cancel: bool = False) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=cancel)
        if self._client is not None and self._own_client:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()
