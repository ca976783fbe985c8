"""Worker threads for the Monte Carlo simulators.

Every simulator splits its runs into blocks of :data:`~dpverify.sim.rng.BLOCK`
runs and hands *tasks* (a few consecutive blocks each) to a pool of worker
threads.  A block is always processed wholly by one worker, with its own
generator (:func:`~dpverify.sim.rng.block_rng`), and per-block results are
collected in block order, so results are bit-identical whatever the number of
workers, the task sizes and ``chunk_runs``.  The fused kernels
(:mod:`dpverify.sim.descent_kernels` and the other ``*_kernels`` modules) release the GIL, so the workers run truly in
parallel; the NumPy fallback gains where NumPy itself releases the GIL.

Number of workers
-----------------
``workers=None`` in a simulator means the module default:

1. the value given to :func:`set_workers`, if any;
2. else the environment variable ``DPVERIFY_WORKERS`` (a positive integer), read
   when the default is first needed and whenever it changes;
3. else the number of CPUs this process may run on
   (``os.sched_getaffinity``, else ``os.cpu_count()``), within a container's CPU
   quota (:func:`dpverify.resources.usable_cpus`).

A program that already runs simulations in several processes (e.g. one claim
per process) should ask for ``set_workers(1)`` (or ``DPVERIFY_WORKERS=1``) in
each of them.  No thread outlives a simulator call, so forking between calls
is safe.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from .validation import check_int

__all__ = ["set_workers", "get_workers", "resolve_workers", "plan_tasks", "ordered_map"]

T = TypeVar("T")
R = TypeVar("R")

_WORKERS: int | None = None


def _cpu_count() -> int:
    from ..resources import usable_cpus

    return usable_cpus()


def set_workers(n: int | None) -> None:
    """Set the default number of worker threads of every simulator.

    Parameters
    ----------
    n : int or None
        A positive integer, or ``None`` to return to the default
        (``DPVERIFY_WORKERS``, else all CPUs of the process, within a container's CPU quota).
    """
    global _WORKERS
    _WORKERS = None if n is None else check_int("workers", n)


def get_workers() -> int:
    """The default number of worker threads (see the module docstring)."""
    if _WORKERS is not None:
        return _WORKERS
    env = os.environ.get("DPVERIFY_WORKERS", "").strip()
    if env:
        try:
            value = int(env)
        except ValueError:
            value = 0
        if value < 1:
            raise ValueError(f"DPVERIFY_WORKERS must be a positive integer, got {env!r}")
        return value
    return _cpu_count()


def resolve_workers(workers: object) -> int:
    """Return *workers* checked (a positive integer), or the default for ``None``."""
    return get_workers() if workers is None else check_int("workers", workers)


#: Rough work (e.g. coordinate-steps) per task and the least work worth a thread.
TASK_WORK = 2e6


def plan_tasks(n_blocks: int, workers: int, chunk_blocks: int,
               block_cost: float) -> tuple[list[tuple[int, int]], int, int]:
    """Split blocks ``0 .. n_blocks - 1`` into tasks of consecutive blocks.

    Parameters
    ----------
    n_blocks : int
        Number of blocks.
    workers : int
        Number of worker threads asked for.
    chunk_blocks : int
        Blocks the caller allows in memory at once (``chunk_runs / BLOCK``).
    block_cost : float
        Rough work of one block (e.g. ``BLOCK * D * T``), used to make tasks
        large enough that per-task overhead is negligible.

    Returns
    -------
    tasks : list of (b0, b1)
        Half-open block ranges, in block order.
    window : int
        How many tasks may be in flight at once: about ``chunk_blocks``
        blocks, but at least two tasks per worker.
    workers : int
        Threads to use: *workers*, or fewer for a simulation too small to
        gain from them (thread hand-offs cost more than they save there).

    Task sizes and thread counts never change results (each block is
    simulated on its own); they only balance overhead, load and memory.
    """
    block_cost = max(float(block_cost), 1.0)
    workers = max(1, min(workers, int(n_blocks * block_cost // TASK_WORK), n_blocks))
    per_task = max(1, int(TASK_WORK // block_cost))
    per_task = min(per_task, 64, max(1, n_blocks // (4 * workers)))   # >= 4 tasks a worker
    per_task = min(per_task, max(1, chunk_blocks // (2 * workers)))   # memory: ~chunk_blocks
    tasks = [(b, min(b + per_task, n_blocks)) for b in range(0, n_blocks, per_task)]
    window = max(2 * workers, chunk_blocks // per_task)
    return tasks, window, workers


def ordered_map(fn: Callable[[T], R], items: Iterable[T], workers: int,
                window: int) -> Iterator[R]:
    """Yield ``fn(item)`` for every item, in order, computed on *workers* threads.

    At most *window* items are in flight at once (bounded memory).  With
    ``workers == 1`` everything runs in the calling thread.  If a call raises,
    the pending ones are cancelled and the exception propagates.
    """
    if workers == 1:
        for item in items:
            yield fn(item)
        return
    pending: deque[Future] = deque()
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="dpverify-sim")
    try:
        for item in items:
            if len(pending) >= window:
                yield pending.popleft().result()
            pending.append(pool.submit(fn, item))
        while pending:
            yield pending.popleft().result()
    finally:
        for fut in pending:
            fut.cancel()
        pool.shutdown(wait=True, cancel_futures=True)
