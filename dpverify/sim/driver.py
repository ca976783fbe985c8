"""The loop every Monte Carlo simulator of noisy gradient descent shares.

:func:`run_mc` cuts the runs into tasks of whole blocks
(:func:`~dpverify.sim.parallel.plan_tasks`), runs them on worker threads, reduces
each block's per-run statistic to its moments and combines them, in block order,
into an :class:`~dpverify.sim.results.MCResult`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from . import draws
from .validation import check_int
from .parallel import ordered_map, plan_tasks, resolve_workers
from .results import MCResult, block_moments
from .rng import BLOCK, block_slices, n_blocks

Statistic = Callable[[np.ndarray], np.ndarray]


def _fused_moments(x: np.ndarray) -> np.ndarray:
    """Per-block ``(rows, sum, sumsq, centred M2)`` of a statistic computed inside a fused kernel."""
    n = x.shape[0]
    mom = np.empty((-(-n // BLOCK), 4))
    draws.block_moments_into(x, n, mom)
    return mom


def _progress(enabled: bool, total: int, desc: str = "pgd"):
    if not enabled:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="run", desc=desc)


def task_plan(runs: int, chunk_runs: int, workers: object, block_cost: float):
    """``(workers, tasks, window)`` for *runs* runs (see :func:`parallel.plan_tasks`)."""
    chunk_blocks = -(-check_int("chunk_runs", chunk_runs) // BLOCK)
    tasks, window, workers = plan_tasks(n_blocks(runs), resolve_workers(workers), chunk_blocks,
                                        block_cost)
    return workers, tasks, window


def run_mc(task: Callable, dim: int, runs: int, chunk_runs: int, workers: object, seed: int,
            steps: int, statistic: Statistic, progress: bool, desc: str, return_thetas: bool,
            block_cost: float) -> MCResult:
    """Drive a simulator over tasks of whole blocks; the loop every Monte Carlo simulator shares.

    ``task(b0, b1, start, stop, theta)`` simulates blocks ``b0 .. b1 - 1``
    (runs ``start .. stop - 1``) and writes their final iterates into
    ``theta`` (shape ``(stop - start, D)``); it returns the per-run statistic
    if it computed it itself (fused default statistic), else ``None`` and the
    statistic is evaluated here, one block at a time.  Tasks run on
    ``workers`` threads; block moments are combined in block order, so results
    depend on neither ``chunk_runs`` nor ``workers``.
    """
    workers, tasks, window = task_plan(runs, chunk_runs, workers, block_cost)
    out = np.empty((runs, dim)) if return_thetas else None

    def job(blocks: tuple[int, int]):
        b0, b1 = blocks
        start, stop = b0 * BLOCK, min(b1 * BLOCK, runs)
        theta = out[start:stop] if out is not None else np.empty((stop - start, dim))
        x = task(b0, b1, start, stop, theta)
        if x is not None:
            return _fused_moments(x)
        return [block_moments(statistic(theta[sl]), sl.stop - sl.start)
                for sl in block_slices(start, stop)]

    bar = _progress(progress, runs, desc)
    moments = np.empty((n_blocks(runs), 4))   # 32 bytes a block: memory flat in runs
    done = 0
    try:
        for chunk in ordered_map(job, tasks, workers, window):
            moments[done:done + len(chunk)] = chunk
            done += len(chunk)
            if bar is not None:
                bar.update(int(sum(m[0] for m in chunk)))
    finally:
        if bar is not None:
            bar.close()
    return MCResult.from_block_moments(moments, seed=seed, steps=steps, thetas=out)
