"""Argument packing for the fused kernels of noisy gradient descent (:mod:`dpverify.sim.descent_kernels`),
and what every fused simulator shares: whether the fused path runs (:func:`use_fused`), the SFC64 states
of a task's blocks (:func:`block_states`), float64 arrays in one memory order (:func:`f64`).

:func:`dpverify.sim.descent.simulate` runs a task function of this module (in the form
:func:`dpverify.sim.driver.run_mc` drives) where a kernel implements its problem, update rule and
gradient source: which problems the kernels implement, the stacked data of linear models, an update
rule as the kernels take it (:func:`update_args`).
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

    Computed by :func:`draws.sfc64_block_states` (the same states, checked against NumPy's by
    :func:`draws.self_check`; 0.07 instead of 8.9 us a block in a call of 64 blocks) where the
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


def update_args(update, T: int) -> tuple:
    """``(code, pa, pb, aux_from_theta)``: an update rule as the kernels take it (its compiled step's
    code, its parameters at every step, where its state starts)."""
    pa, pb = update.step_params(T)
    return int(update.CODE), f64(pa), f64(pb), bool(update.AUX_FROM_THETA)


def clip_arg(clip: float | None) -> float:
    return -1.0 if clip is None else float(clip)


def quadratic_delta_task(problem: Quadratic, theta1, etas, scales, seed, default_stat: bool):
    """Task function running :func:`kernels.quadratic_delta` (the plain rule with full gradients on one
    quadratic, in the delta form ``delta <- a_t delta - c_t z``).  Every task function here takes the
    iterates of its ``K`` problems as ``out`` ``(K, rows, D)`` and returns the per-run default statistic
    when the kernel computes it (``default_stat``), else ``None``."""
    T = len(scales)
    A = (1.0 - etas[:, None] * problem.eigs[None, :]).reshape(T, problem.dim)
    Atile = f64(np.tile(A, (1, chunk_width(problem.dim) // problem.dim)))
    c = f64(etas * scales)
    delta1 = f64(theta1 - problem.theta_star)
    shift = f64(problem.theta_star)
    eigs = f64(problem.eigs)
    has_shift = bool(np.any(shift))

    def task(b0, b1, start, stop, out):
        x = np.empty(stop - start if default_stat else 0)
        _kernels.quadratic_delta(block_states(seed, b0, b1), stop - start, delta1, Atile, c,
                                 shift, has_shift, eigs, out[0], x, default_stat)
        return x if default_stat else None

    return task


def quadratic_theta_task(problems: list[Quadratic], theta1, etas, scales, update, seed,
                         default_stat: bool):
    """Task function running :func:`kernels.quadratic_theta` on ``len(problems)`` quadratics."""
    reps = chunk_width(problems[0].dim) // problems[0].dim
    eigs = f64([np.tile(p.eigs, reps) for p in problems])
    star = f64([np.tile(p.theta_star, reps) for p in problems])
    th1, et, sc = f64(theta1), f64(etas), f64(scales)
    rule = update_args(update, len(et))

    def task(b0, b1, start, stop, out):
        x = np.empty(stop - start if default_stat else 0)
        _kernels.quadratic_theta(block_states(seed, b0, b1), stop - start, th1, eigs, star,
                                 et, sc, *rule, out, x, default_stat)
        return x if default_stat else None

    return task


def linear_gd_task(problems: list[Problem], theta1, etas, scales, update, clip, seed):
    """Task function running :func:`kernels.linear_gd` on ``len(problems)`` linear models."""
    packed = linear_pack(problems)
    th1, et, sc = f64(theta1), f64(etas), f64(scales)
    rule = update_args(update, len(et))
    c = clip_arg(clip)

    def task(b0, b1, start, stop, out):
        _kernels.linear_gd(block_states(seed, b0, b1), stop - start, th1, *packed, c,
                           et, sc, *rule, out)
        return None

    return task


def linear_sgd_task(problem: Problem, theta1, etas, scales, batch: int, update, clip, seed):
    """Task function running :func:`kernels.linear_sgd` (mini-batches drawn with replacement) on one
    linear model."""
    X, y, sqn, nsamp, kind, lam, normaliser, ridge = linear_pack([problem])
    args = (f64(theta1), X[0], y[0], sqn[0], int(nsamp[0]), int(kind[0]), float(lam[0]),
            float(normaliser[0]), float(ridge[0]), clip_arg(clip), f64(etas),
            f64(scales), batch, *update_args(update, len(scales)))

    def task(b0, b1, start, stop, out):
        _kernels.linear_sgd(block_states(seed, b0, b1), block_states(seed, b0, b1, 0),
                            stop - start, *args, out[0])
        return None

    return task


def linear_cost(problems: list[Problem], T: int) -> float:
    return BLOCK * T * problems[0].dim * (2 * max(p.n_samples for p in problems) + 1) * len(problems)
