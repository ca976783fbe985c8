"""Throughput and memory benchmark of the ``dpverify.sim`` simulator.

Usage::

    python benchmarks/simulator.py [--quick]

Measures, in one process:

(a) ``mc_coord_steps_per_s``: coordinate-steps per second (runs * D * T / wall
    time) of Monte Carlo noisy GD [dni, eq. (1)] on a diagonal quadratic
    (``pgd`` fast path, runs = 1e5, D = 100, T = 100, default chunking);
(b) ``normal_fill_per_s``: values per second of
    ``Generator.standard_normal(out=buf)`` with the simulator's own generator
    type (``block_rng``: PCG64) filling a buffer of the shape the simulator
    fills per call, ``(BLOCK, D)``; the rate for a whole ``(chunk_runs, D)``
    chunk buffer is also printed, and the larger of the two (the harder
    target) is the denominator of the ratio;
(c) ``moments_points_per_s``: parameter points per second of
    ``pgd_quadratic_moments`` (P = 1e4, D = 100, T = 100);
(d) ``peak_memory_mib``: ``tracemalloc`` peak of a runs = 1e7 (D = 10,
    T = 10) Monte Carlo run, plus the ``ru_maxrss`` growth during it.

Each figure is printed as ``name=value``; the last line is
``throughput_ratio=X`` with ``X = (a) / (b)`` (goal >= 0.8).  Timings are
the best of ``--repeats`` repetitions, with (a) and (b) timed in alternation
so that a transient slow-down of a shared machine affects both.  ``--quick`` shrinks every size for a
smoke test (its figures are not meaningful).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dpverify.sim import BLOCK, Quadratic, block_rng, pgd, pgd_quadratic_moments, uniform  # noqa: E402

CHUNK_RUNS = 65536


def _timed(fn) -> float:
    """Wall time of one call of *fn*."""
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _best_time(fn, repeats: int) -> float:
    """Best wall time of *repeats* calls of *fn*."""
    return min(_timed(fn) for _ in range(repeats))


def _problem(dim: int) -> Quadratic:
    return Quadratic(np.linspace(0.01, 1.0, dim))


def mc_job(runs: int, dim: int, T: int):
    """(a) Monte Carlo fast-path job; returns ``(callable, coordinate-steps)``."""
    problem = _problem(dim)
    sigmas = uniform(T, 1.0)
    theta1 = np.ones(dim)

    def run():
        pgd(problem, theta1, 0.5, sigmas, 1.0, 1000, runs, 7, chunk_runs=CHUNK_RUNS)

    return run, runs * dim * T


def fill_job(rows: int, dim: int, values: int):
    """(b) ``standard_normal(out=buf)`` on a ``(rows, dim)`` buffer; returns ``(callable, values)``."""
    rng = block_rng(7, 0)
    buf = np.empty((rows, dim))
    calls = max(1, values // buf.size)

    def run():
        for _ in range(calls):
            rng.standard_normal(out=buf)

    return run, calls * buf.size


def bench_interleaved(jobs: dict, repeats: int) -> dict:
    """Best rate (work / second) of each job, the jobs timed in alternation.

    Alternating the jobs within each repetition means a slow-down of the
    machine (e.g. a noisy neighbour) hits all of them, not just one.
    """
    best = {name: np.inf for name in jobs}
    for _ in range(repeats):
        for name, (fn, _) in jobs.items():
            best[name] = min(best[name], _timed(fn))
    return {name: jobs[name][1] / best[name] for name in jobs}


def bench_moments(P: int, dim: int, T: int, repeats: int) -> float:
    """(c) parameter points per second of ``pgd_quadratic_moments``."""
    rng = np.random.default_rng(0)
    eigs = rng.uniform(0.01, 1.0, size=(P, dim))
    theta1 = rng.normal(size=(P, dim))
    etas = np.full((P, T), 0.5)
    sigmas = np.broadcast_to(uniform(T, 1.0), (P, T))

    def run():
        pgd_quadratic_moments(eigs, theta1, etas, sigmas, 1.0, 1000)

    return P / _best_time(run, repeats)


def bench_memory(runs: int, dim: int, T: int) -> tuple[float, float]:
    """(d) tracemalloc peak and ru_maxrss growth (MiB) of one large MC run."""
    problem = _problem(dim)
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    pgd(problem, np.ones(dim), 0.5, uniform(T, 1.0), 1.0, 1000, runs, 11, chunk_runs=CHUNK_RUNS)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20, (rss1 - rss0) / 1024  # ru_maxrss is KiB on Linux


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes for a smoke test")
    parser.add_argument("--repeats", type=int, default=None, help="timing repetitions")
    args = parser.parse_args(argv)
    if args.quick:
        runs, dim, T, P, mem_runs, repeats = 4096, 100, 10, 500, 100_000, 1
    else:
        runs, dim, T, P, mem_runs, repeats = 100_000, 100, 100, 10_000, 10_000_000, 3
    repeats = args.repeats or repeats

    # (d) first, so ru_maxrss growth is not masked by earlier allocations.
    peak_mib, rss_mib = bench_memory(mem_runs, 10, 10)
    fill_values = runs * dim * T // 4
    rates = bench_interleaved(
        {
            "mc": mc_job(runs, dim, T),
            "fill_block": fill_job(BLOCK, dim, fill_values),
            "fill_chunk": fill_job(min(CHUNK_RUNS, runs), dim, fill_values),
        },
        repeats,
    )
    mc, fill_block, fill_chunk = rates["mc"], rates["fill_block"], rates["fill_chunk"]
    fill = max(fill_block, fill_chunk)
    moments = bench_moments(P, dim, T, repeats)

    print(f"mc_runs={runs}")
    print(f"mc_dim={dim}")
    print(f"mc_steps={T}")
    print(f"mc_coord_steps_per_s={mc:.4g}")
    print(f"normal_fill_block_per_s={fill_block:.4g}")
    print(f"normal_fill_chunk_per_s={fill_chunk:.4g}")
    print(f"normal_fill_per_s={fill:.4g}")
    print(f"moments_points_per_s={moments:.4g}")
    print(f"peak_memory_runs={mem_runs}")
    print(f"peak_memory_mib={peak_mib:.1f}")
    print(f"maxrss_delta_mib={rss_mib:.1f}")
    print(f"throughput_ratio={mc / fill:.3f}")


if __name__ == "__main__":
    main()
