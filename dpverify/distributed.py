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

import multiprocessing as mp
import os
import re
import signal
import sys
import uuid
from contextlib import contextmanager
from functools import partial
from typing import Any, Callable, Iterator, Sequence


class SchedulerError(RuntimeError):
    """The scheduler cannot be reached, or dask is not installed (the message says which)."""


_ADDRESS = re.compile(r"^(?:(?:tcp|tls|inproc|ucx|ws|wss)://)?\[?[A-Za-z0-9_.:\-]+\]?:\d{1,5}$")


def check_address(address: str) -> str:
    """``address`` if it can name a scheduler (``local``, or ``[tcp://]host:port``); otherwise a
    :class:`SchedulerError` naming it (before any work, so a typo never becomes a local run or a
    traceback)."""
    if not isinstance(address, str) or not address.strip():
        raise SchedulerError(f"--scheduler {address!r}: empty; give 'local' or a scheduler address such as "
                             "tcp://host:8786")
    if address != "local" and not _ADDRESS.match(address):
        raise SchedulerError(f"--scheduler {address!r}: not a scheduler address; give 'local' or "
                             "[tcp://]host:port, e.g. tcp://127.0.0.1:8786")
    if address != "local" and not 1 <= int(address.rsplit(":", 1)[1]) <= 65535:
        raise SchedulerError(f"--scheduler {address!r}: port {address.rsplit(':', 1)[1]} is not in 1..65535")
    return address


def _dask():
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise SchedulerError("--scheduler needs Dask: pip install 'dask[distributed]' (or dpverify[dask])") from None
    return Client, LocalCluster, as_completed


# How long a scheduler address may take to answer before --scheduler is refused ("cannot connect");
# Dask retries a refused connection until then.
CONNECT_TIMEOUT = "20s"


@contextmanager
def client(address: str, workers: int | None = None) -> Iterator[Any]:
    """A ``dask.distributed.Client`` for ``address`` (``"local"``: a new ``LocalCluster``)."""
    check_address(address)
    Client, LocalCluster, _ = _dask()
    cluster = None
    try:
        if address == "local":
            cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                                   dashboard_address=None, host="127.0.0.1",
                                   worker_dashboard_address=None)
            c = Client(cluster)
        else:
            c = Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:
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
             on_lost: Callable[[int, BaseException], Any] | None = None, dask_client=None) -> list:
    """``[fn(t) for t in tasks]`` on a Dask cluster, results in task order.

    ``initializer(*initargs)`` runs before every task on its worker (it must be idempotent, e.g.
    setting a module-level context). ``on_result(index, result)`` is called as results arrive.
    ``on_lost(index, exc)``: the result of a task that failed on the cluster (e.g. its workers died
    more often than the scheduler's ``allowed_failures``); without it the exception propagates.
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
                try:
                    out[i] = fut.result()
                except Exception as exc:  # noqa: BLE001 - e.g. distributed.KilledWorker
                    if on_lost is None:
                        raise
                    out[i] = on_lost(i, exc)
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


# --------------------------------------------------------------------------- local process pool
_STARTED = None     # in a pool worker: the queue on which it announces each task it starts


def _pool_init(started, initializer, initargs):
    global _STARTED
    _STARTED = started
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent handles Ctrl-C and ends its workers
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler: SIGTERM ends a worker
    try:    # what a worker (or a C library in it: "gmp: overflow ...") prints never mixes into the parent's
        sys.stdout.flush()                          # standard output (``--json``): it goes to standard error
        os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):   # no real file descriptors (a notebook, a test's capture)
        pass
    if initializer is not None:
        initializer(*initargs)


def _announced(fn, item):
    i, task = item
    _STARTED.put((i, os.getpid()))
    return fn(task)


#: signals by which a process ends itself when its own computation fails (a C library's abort, a bad
#: memory access): the same task in a fresh process fails the same way, so it is not run again
CRASHES = frozenset({signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS, signal.SIGFPE, signal.SIGILL})


def death(exitcode: int | None) -> str:
    """How a worker process ended, in words: ``signal 6 (SIGABRT)``, ``exit status 1``."""
    if exitcode is None:
        return "an unknown cause"
    if exitcode < 0:
        try:
            return f"signal {-exitcode} ({signal.Signals(-exitcode).name})"
        except ValueError:
            return f"signal {-exitcode}"
    return f"exit status {exitcode}"


def _round(fn, tasks, indices, workers, initializer, initargs, collect, deaths: dict | None = None) -> list[int]:
    """Run ``indices`` in a fresh pool of ``workers`` forked processes, ``collect(i, result)`` as they
    finish; return the tasks started but not finished when a worker died (empty when none did), and
    set ``deaths[i]`` to the exit code of the worker that died running task ``i``."""
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    ctx = mp.get_context("fork")
    started = ctx.SimpleQueue()
    ex = ProcessPoolExecutor(min(workers, len(indices)), mp_context=ctx, initializer=_pool_init,
                             initargs=(started, initializer, initargs))
    futures = {ex.submit(_announced, fn, (i, tasks[i])): i for i in indices}
    procs = list(getattr(ex, "_processes", {}).values())   # to tell afterwards how a dead one ended
    finished: set[int] = set()
    try:
        try:
            for fut in as_completed(futures):
                i = futures[fut]
                collect(i, fut.result())
                finished.add(i)
            return []
        except BrokenProcessPool:
            for fut, i in futures.items():   # results that arrived before the death are kept
                if i not in finished and fut.done() and not fut.cancelled() and fut.exception() is None:
                    collect(i, fut.result())
                    finished.add(i)
            begun = {}
            while not started.empty():
                i, pid = started.get()
                begun[i] = pid
            if deaths is not None:
                for p in procs:
                    p.join(timeout=5)
                code = {p.pid: p.exitcode for p in procs}
                deaths.update((i, code[pid]) for i, pid in begun.items() if i not in finished
                              and code.get(pid) not in (0, None, -signal.SIGTERM))
            return [i for i in begun if i not in finished]
    except BaseException:                    # Ctrl-C or an error of ours: end the workers, now
        for p in list(getattr(ex, "_processes", {}).values()):
            p.terminate()
        manager = getattr(ex, "_executor_manager_thread", None)
        ex.shutdown(wait=False, cancel_futures=True)
        # shutdown(wait=False) forgets the manager thread, so the shutdown below would not join it; one
        # still running at interpreter exit races with concurrent.futures' exit handler, which writes to
        # the wake-up pipe the thread closes (CPython gh-125451: "OSError: [Errno 9] Bad file descriptor"
        # after `dpverify: interrupted`). Its workers are ended, so it finishes at once.
        if manager is not None:
            manager.join(timeout=30)
        raise
    finally:
        ex.shutdown(wait=True, cancel_futures=True)


def process_map(fn: Callable[[Any], Any], tasks: Sequence, *, workers: int, initializer: Callable | None = None,
                initargs: tuple = (), on_result: Callable[[int, Any], None] | None = None,
                on_lost: Callable[[int, BaseException], Any] | None = None, retries: int = 2) -> list:
    """``[fn(t) for t in tasks]`` in ``workers`` forked processes, results in task order; never hangs.

    A worker that dies (killed, out of memory) is replaced: the pool is rebuilt and its unfinished
    tasks rerun. The tasks that had started when it died are rerun first, each alone in a fresh
    process, so one task that kills its process cannot take others down with it; a task whose process
    dies ``retries + 1`` times alone -- or once by a signal of :data:`CRASHES` (it aborted itself) -- gets
    ``on_lost(index, exc)`` as its result, ``exc`` naming how it died ("worker died: signal 6 (SIGABRT)";
    without ``on_lost``, a ``RuntimeError`` is raised). ``initializer(*initargs)`` runs once in each worker; workers ignore
    SIGINT (Ctrl-C interrupts the caller, which ends them). ``on_result(index, result)`` is called as
    results arrive, in the parent.
    """
    tasks = list(tasks)
    out: list = [None] * len(tasks)
    done: set[int] = set()

    def collect(i, result):
        out[i] = result
        done.add(i)
        if on_result is not None:
            on_result(i, result)

    pending = list(range(len(tasks)))
    while pending:
        crashed: dict = {}
        suspects = _round(fn, tasks, pending, workers, initializer, initargs, collect, crashed)
        for i in suspects:
            deaths: list = []
            if -crashed.get(i, 0) in CRASHES:     # its own worker aborted running it: it would again
                deaths.append(crashed[i])
            for _ in range(0 if deaths else retries + 1):
                alone: dict = {}
                if not _round(fn, tasks, [i], 1, initializer, initargs, collect, alone):
                    break
                deaths.append(alone.get(i))
                if -(alone.get(i) or 0) in CRASHES:
                    break
            if i not in done:
                n = len(deaths) or retries + 1
                how = death(deaths[-1] if deaths else None)
                exc = RuntimeError(f"its worker process died {n} time{'s' if n != 1 else ''} running it "
                                   f"{'alone ' if not crashed.get(i) else ''}(worker died: {how}"
                                   + ("; killed, or out of memory)" if how == "signal 9 (SIGKILL)" else ")"))
                if on_lost is None:
                    raise exc
                collect(i, on_lost(i, exc))
        pending = [i for i in pending if i not in done]
    return out


__all__ = ["CRASHES", "SchedulerError", "check_address", "client", "dask_map", "death", "process_map"]
