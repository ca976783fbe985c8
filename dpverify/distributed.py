"""Sending dpverify's tasks to a Dask distributed cluster (optional extra ``dpverify[dask]``).

``dpverify check ... --scheduler ADDRESS`` and ``dpverify reproduce ... --scheduler ADDRESS`` send
the same tasks the local run executes (one claim, or one experiment task) to the scheduler at
``ADDRESS`` (``tcp://host:8786``); ``--scheduler local`` starts a ``LocalCluster`` of single-threaded
worker processes on this machine. Every task is a pure function of its arguments and its seed,
so the results are identical to a local run; when a worker dies mid-run, Dask reruns its tasks on
the others (up to ``allowed_failures`` deaths per task), nothing is lost and the output is the same.

Workers must import the same dpverify (and see any ``--module`` file at the same path). On other
machines::

    dask scheduler                              # prints tcp://<host>:8786
    dask worker tcp://<host>:8786 --nthreads 1  # on every worker machine, as many as cores
"""
from __future__ import annotations

import os
import sys
import uuid
from contextlib import contextmanager
from functools import partial
from typing import Any, Callable, Iterator, Sequence


class SchedulerError(RuntimeError):
    """The scheduler cannot be reached, or dask is not installed (the message says which)."""


def _dask():
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise SchedulerError("--scheduler needs Dask: pip install 'dask[distributed]' (or dpverify[dask])") from None
    return Client, LocalCluster, as_completed


@contextmanager
def client(address: str, workers: int | None = None) -> Iterator[Any]:
    """A ``dask.distributed.Client`` for ``address`` (``"local"``: a new ``LocalCluster``)."""
    Client, LocalCluster, _ = _dask()
    cluster = None
    try:
        if address == "local":
            cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                                   dashboard_address=None, host="127.0.0.1",
                                   worker_dashboard_address=None)
            c = Client(cluster)
        else:
            c = Client(address, timeout="20s")
    except (OSError, TimeoutError) as exc:
        if cluster is not None:
            cluster.close()
        raise SchedulerError(f"--scheduler {address!r}: cannot connect ({exc})") from None
    try:
        yield c
    finally:
        c.close()
        if cluster is not None:
            cluster.close()


def _with_init(fn, initializer, initargs, task):
    if initializer is not None:
        initializer(*initargs)
    return fn(task)


def dask_map(fn: Callable[[Any], Any], tasks: Sequence, *, scheduler: str, workers: int | None = None,
             desc: str = "tasks", progress: bool = True, initializer: Callable | None = None,
             initargs: tuple = (), on_result: Callable[[int, Any], None] | None = None,
             dask_client=None) -> list:
    """``[fn(t) for t in tasks]`` on a Dask cluster, results in task order.

    ``initializer(*initargs)`` runs before every task on its worker (it must be idempotent, e.g.
    setting a module-level context). ``on_result(index, result)`` is called as results arrive.
    """
    _, _, as_completed = _dask()
    from tqdm import tqdm

    call = partial(_with_init, fn, initializer, initargs)

    def run(c):
        run_id = uuid.uuid4().hex[:8]
        futures = c.map(call, list(tasks), pure=False, key=[f"{desc}-{run_id}-{i}" for i in range(len(tasks))])
        index = {f.key: i for i, f in enumerate(futures)}
        out: list = [None] * len(tasks)
        bar = tqdm(total=len(tasks), desc=desc, unit="task", file=sys.stderr, disable=not progress or None,
                   leave=False)
        try:
            for fut in as_completed(futures):
                i = index[fut.key]
                out[i] = fut.result()
                if on_result is not None:
                    on_result(i, out[i])
                bar.update()
        finally:
            bar.close()
        return out

    if dask_client is not None:
        return run(dask_client)
    with client(scheduler, workers) as c:
        return run(c)


__all__ = ["SchedulerError", "client", "dask_map"]
