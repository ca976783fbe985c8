"""Argument packing for the fused numba kernels of :mod:`dpverify.sim.kernels`.

Shared by every simulator that runs a fused kernel (:func:`~dpverify.sim.algorithms.pgd`,
:func:`~dpverify.sim.algorithms.coupled_pgd`, :func:`~dpverify.sim.momentum.momentum_pgd`,
:func:`~dpverify.sim.sgd.psgd`): which problems the kernels implement, the SFC64 states of
the blocks, the stacked data of linear models, and task functions in the form
:func:`dpverify.sim.driver.run_mc` drives.
"""

from __future__ import annotations

import numpy as np

from . import descent_kernels as _kernels
from . import draws
from .jit import chunk_width
from .problems import LeastSquares, LinearLoss, LogisticRegression, Problem, Quadratic
from .rng import BLOCK, block_rng, sfc64_state
from .validation import check_seed

LINEAR_KINDS = {LeastSquares: 0, LogisticRegression: 1, LinearLoss: 2}


def use_fused(fast_path: bool) -> bool:
    return bool(fast_path) and draws.fused_enabled()


def linear_fusable(*problems: Problem) -> bool:
    """Whether every problem is one of the linear models the fused kernels implement."""
    return all(type(p) in LINEAR_KINDS and p.n_samples < 2**32 - 1 for p in problems)


def block_states(seed: int, b0: int, b1: int, child: int | None = None) -> np.ndarray:
    """``(b1 - b0, 4)`` SFC64 states of blocks ``b0 .. b1 - 1`` (from :func:`block_rng`).

    Computed by :func:`kernels.sfc64_block_states` (the same states, checked against NumPy's by
    :func:`kernels.self_check`; 0.07 instead of 8.9 us a block in a call of 64 blocks) where the
    fused kernels run and the block and child indices are single 32-bit words; by NumPy's
    generators otherwise."""
    if b1 <= 2**32 and (child is None or child < 2**32) and draws.fused_enabled():
        out = np.empty((b1 - b0, 4), dtype=np.uint64)
        draws.sfc64_block_states(draws.seed_entropy(check_seed(seed)), b0, b1,
                                    -1 if child is None else child, out)
        return out
    return np.stack([sfc64_state(block_rng(seed, b, child)) for b in range(b0, b1)])


def f64(x) -> np.ndarray:
    """A writable C-contiguous float64 copy (one compiled signature per kernel)."""
    return np.array(x, dtype=np.float64, order="C")


def linear_pack(problems: list[Problem]) -> tuple:
    """Stack linear models (padded to the largest sample count) for the fused kernels."""
    K = len(problems)
    dim = problems[0].dim
    nmax = max(p.n_samples for p in problems)
    X = np.zeros((K, nmax, dim))
    y = np.zeros((K, nmax))
    sqn = np.zeros((K, nmax))
    for i, p in enumerate(problems):
        X[i, :p.n_samples] = p.X
        sqn[i, :p.n_samples] = p.sq_norms
        if p.y is not None:
            y[i, :p.n_samples] = p.y
    nsamp = np.array([p.n_samples for p in problems], dtype=np.int64)
    kind = np.array([LINEAR_KINDS[type(p)] for p in problems], dtype=np.int64)
    lam = f64([p.lam for p in problems])
    normaliser = f64([p.normaliser for p in problems])
    ridge = f64([p.ridge for p in problems])
    return X, y, sqn, nsamp, kind, lam, normaliser, ridge


def momentum_args(beta: float | None, T: int) -> tuple[float, np.ndarray, bool]:
    """``(beta, corr, momentum)`` for the kernels; ``corr[t-1] = 1 - beta**t`` as Python computes it."""
    if beta is None:
        return 0.0, np.ones(T), False
    return float(beta), f64([1.0 - beta ** t for t in range(1, T + 1)]), True


def clip_arg(clip: float | None) -> float:
    return -1.0 if clip is None else float(clip)


def quadratic_theta_task(problems: list[Quadratic], theta1, etas, scales, beta, seed,
                          default_stat: bool):
    """Task function running :func:`kernels.quadratic_theta` on ``len(problems)`` quadratics."""
    reps = chunk_width(problems[0].dim) // problems[0].dim
    eigs = f64([np.tile(p.eigs, reps) for p in problems])
    star = f64([np.tile(p.theta_star, reps) for p in problems])
    th1, et, sc = f64(theta1), f64(etas), f64(scales)
    b, corr, momentum = momentum_args(beta, len(et))

    def task(b0, b1, start, stop, out):
        x = np.empty(stop - start if default_stat else 0)
        _kernels.quadratic_theta(block_states(seed, b0, b1), stop - start, th1, eigs, star,
                                 et, sc, b, corr, momentum, out, x, default_stat)
        return x if default_stat else None

    return task


def linear_gd_task(problems: list[Problem], theta1, etas, scales, beta, clip, seed):
    """Task function running :func:`kernels.linear_gd` on ``len(problems)`` linear models."""
    packed = linear_pack(problems)
    th1, et, sc = f64(theta1), f64(etas), f64(scales)
    b, corr, momentum = momentum_args(beta, len(et))
    c = clip_arg(clip)

    def task(b0, b1, start, stop, out):
        _kernels.linear_gd(block_states(seed, b0, b1), stop - start, th1, *packed, c,
                           et, sc, b, corr, momentum, out)
        return None

    return task


def linear_cost(problems: list[Problem], T: int) -> float:
    return BLOCK * T * problems[0].dim * (2 * max(p.n_samples for p in problems) + 1) * len(problems)
