"""Monte Carlo simulation of noisy (private) gradient descent.

The iteration is noisy gradient descent::

    theta_{t+1} = theta_t - eta_t * (grad f(theta_t) + s_t nu_t),   nu_t ~ N(0, I_D),

with ``s_t = noise_stds[t]`` the standard deviation of the noise per
coordinate at step ``t``; per-sample gradients may be clipped to a norm
``clip`` (which leaves the noise as given),

run for many independent *runs* at once.  Randomness follows
:mod:`dpverify.sim.rng`: block ``b`` of :data:`~dpverify.sim.rng.BLOCK` runs
draws its noise ``nu_t`` (shape ``(rows, D)``, step after step) from
``block_rng(seed, b)``; per-run statistics are reduced per block and the
blocks combined in block order with ``math.fsum``.  Blocks are simulated on
``workers`` threads (:mod:`dpverify.sim.parallel`), each block wholly by one
worker, so results are bit-identical for every ``chunk_runs`` and every
``workers``.

Code paths
----------
Three paths compute the same iteration with the same noise:

* the **fused kernels** of :mod:`dpverify.sim.kernels` (numba; default when
  numba is installed): diagonal quadratics and the linear models
  (:class:`~dpverify.sim.problems.LeastSquares`,
  :class:`~dpverify.sim.problems.LogisticRegression`,
  :class:`~dpverify.sim.problems.LinearLoss`, with ridge and clipping);
* the NumPy **quadratic fast path** (numba missing): one step is
  ``delta <- a_t * delta - (eta_t s_t) nu`` with ``a_t = 1 - eta_t * eigs``,
  done block by block with in-place ufuncs;
* the NumPy **generic path** (any problem, and ``fast_path=False``):
  gradients evaluated one block at a time so that BLAS calls always see the
  same shapes.

Agreement between them (same seed):

* the quadratic fused kernel performs the fast path's floating-point
  operations, so the final iterates are bit-identical with and without numba;
  with the default statistic the kernel also computes the excess risk
  ``1/2 sum_i eigs_i delta_i^2`` and its block sums itself, which agree with
  the NumPy path's ``f(theta) - f*`` to rounding;
* the fast path and the generic path associate the arithmetic differently
  and agree to rounding;
* for the linear models the fused kernel evaluates gradients with its own
  loops (the NumPy path uses BLAS), so the two agree to rounding.

Within one path, results never depend on ``chunk_runs`` or ``workers``.
"""

from __future__ import annotations

from __future__ import annotations

import numpy as np

from .driver import Statistic, run_mc, task_plan
from .fused import (block_states, f64, use_fused, linear_cost, linear_fusable, linear_gd_task,
                     quadratic_theta_task)
from . import descent_kernels as _kernels
from .jit import chunk_width
from .arguments import check_clip, check_noisy_gd, check_problem
from .validation import (check_etas, check_int, check_runs,
                        check_statistic, check_steps, check_theta1)
from .parallel import ordered_map
from .problems import Problem, Quadratic
from .results import MCResult
from .rng import BLOCK, block_rng, block_slices

__all__ = [
    "MCResult",
    "pgd",
    "coupled_pgd",
    "gd",
    "FUSED_PATHS",
]

#: Which simulator / problem combinations run a fused kernel (when numba is available).
FUSED_PATHS = {
    "pgd": "Quadratic (kernel quadratic_delta); LeastSquares, LogisticRegression, LinearLoss "
           "with or without clip (linear_gd)",
    "coupled_pgd": "two Quadratics (quadratic_theta, K=2); two linear models (linear_gd, K=2)",
    "momentum_pgd": "Quadratic (quadratic_theta); linear models with or without clip (linear_gd)",
    "psgd": "linear models, plain or momentum, with or without clip (linear_sgd)",
    "random_round_sgd": "Quadratic (random_round_quadratic)",
    "step_decay_sgd": "SeparableLoss, full or Floyd mini-batches, box track (step_decay_separable)",
    "coupled_step_decay_sgd": "two SeparableLosses, as step_decay_sgd (step_decay_separable, P=2)",
    "adaptive_gd": "Quadratic, CosineSum, or logistic / least-squares model where its gradients check equal at first use, "
                   "with a NormRule: noise a schedule or proportional to the gradient norm "
                   "(adaptive_quadratic, adaptive_linear)",
    "gated_sgd": "LeastSquares in 1 dimension (gated_ls1) and in 2..8 (gated_ls, its sums in index order on "
                 "both paths); the rounds' Hessians and inverses by NumPy",
}


# --------------------------------------------------------------------------- #
# NumPy paths (one task of whole blocks)
# --------------------------------------------------------------------------- #


def _momentum_update(v: np.ndarray, g: np.ndarray, beta: float, correction: float) -> None:
    """In place: ``v <- beta v + (1 - beta) g`` and ``g <- v / correction``.

    On return *g* holds ``m_{t+1} = v_{t+1} / (1 - beta^t)`` with
    ``correction = 1 - beta^t``.  For ``beta = 0`` (``correction = 1``) every
    operation is exact and *g* is returned unchanged (up to the sign of zero).
    """
    v *= beta
    g *= 1.0 - beta
    v += g
    np.divide(v, correction, out=g)


def _generic_chunk(problems: list[Problem], thetas: list[np.ndarray], etas: np.ndarray,
                   scales: np.ndarray, clip: float | None, seed: int, start: int,
                   blocks: list[int], beta: float | None = None) -> None:
    """Evolve ``thetas[i]`` (task arrays, modified in place) under ``problems[i]``.

    All problems see the same noise; gradients are evaluated per block.  With
    *beta* the noisy gradient goes through bias-corrected momentum
    (:mod:`dpverify.sim.momentum`) before the step.
    """
    n, dim = thetas[0].shape
    slices = block_slices(start, start + n)
    rngs = [block_rng(seed, b) for b in blocks]
    noise = np.empty((n, dim))
    step = np.empty((n, dim))
    grad = np.empty((n, dim))
    vs = [np.zeros((n, dim)) if beta is not None else None for _ in problems]
    for t, (eta, scale) in enumerate(zip(etas.tolist(), scales.tolist()), start=1):
        for rng, sl in zip(rngs, slices):
            rng.standard_normal(out=noise[sl])
        for problem, theta, v in zip(problems, thetas, vs):
            for sl in slices:
                grad[sl] = problem.grad(theta[sl], clip)
            # step = eta * (grad + scale * noise), or eta * m_{t+1} with momentum; theta -= step
            np.multiply(noise, scale, out=step)
            step += grad
            if v is not None:
                _momentum_update(v, step, beta, 1.0 - beta ** t)   # step <- m_{t+1}
            step *= eta
            theta -= step


def _quadratic_chunk(problem: Quadratic, theta1: np.ndarray, theta: np.ndarray,
                     etas: np.ndarray, scales: np.ndarray, seed: int, start: int,
                     blocks: list[int]) -> None:
    """NumPy fast path on a diagonal quadratic; ``theta`` (task array) is overwritten.

    Per block and step: ``nu <- N(0, I)`` into a buffer (``out=``), then
    ``nu *= eta_t s_t``, ``delta *= a_t``, ``delta -= nu`` with
    ``delta = theta - theta*`` and ``a_t = 1 - eta_t * eigs``.
    """
    n, dim = theta.shape
    a = 1.0 - etas[:, None] * problem.eigs[None, :]
    c = (etas * scales).tolist()
    delta1 = theta1 - problem.theta_star
    buf = np.empty((min(n, BLOCK), dim))
    shift = problem.theta_star if np.any(problem.theta_star) else None
    for b, sl in zip(blocks, block_slices(start, start + n)):
        delta = theta[sl]
        nu = buf[: sl.stop - sl.start]
        delta[...] = delta1
        rng = block_rng(seed, b)
        for t, ct in enumerate(c):
            rng.standard_normal(out=nu)
            np.multiply(nu, ct, out=nu)
            np.multiply(delta, a[t], out=delta)
            np.subtract(delta, nu, out=delta)
        if shift is not None:
            delta += shift



# --------------------------------------------------------------------------- #
# Public simulators
# --------------------------------------------------------------------------- #


def pgd(problem: Problem, theta1: object, etas: object, noise_stds: object, runs: int, seed: int,
        chunk_runs: int = 65536, clip: float | None = None,
        statistic: Statistic | None = None, progress: bool = False, *,
        return_thetas: bool = False, fast_path: bool = True,
        workers: int | None = None) -> MCResult:
    """Monte Carlo estimate of a statistic of noisy gradient descent.

    Runs ``theta_{t+1} = theta_t - eta_t (grad f(theta_t) + s_t nu_t)`` with
    ``nu_t ~ N(0, I_D)`` and ``s_t = noise_stds[t]``, for ``t = 1..T`` from
    ``theta_1 = theta1`` in ``runs`` independent runs.

    Parameters
    ----------
    problem : Problem
        Objective (see :mod:`dpverify.sim.problems`).
    theta1 : array_like, shape (D,)
        Common starting point.
    etas : float or array_like, shape (T,)
        Step sizes ``eta_t >= 0``.
    noise_stds : array_like, shape (T,)
        Standard deviation ``s_t >= 0`` of the Gaussian noise added to each
        coordinate of the gradient at step ``t`` (``T = len(noise_stds)``, may
        be 0).
    runs : int
        Number of Monte Carlo runs.
    seed : int
        Non-negative master seed (see :mod:`dpverify.sim.rng`).
    chunk_runs : int, optional
        About how many runs are held in memory at once (rounded up to whole
        blocks, at least two blocks per worker).  Does not change any result.
    clip : float, optional
        Clip per-sample gradients to norm ``clip`` (linear models only).  The
        noise is *noise_stds* whether or not gradients are clipped.
    statistic : callable, optional
        ``statistic(theta_final)`` with ``theta_final`` of shape
        ``(rows, D)`` returning shape ``(rows,)``; called on one block of
        runs at a time, possibly from several worker threads at once (so it
        must not modify shared state).  Default ``problem.value(theta) -
        problem.f_star`` (computed inside the fused kernel on a
        :class:`Quadratic`).
    progress : bool, optional
        Show a ``tqdm`` progress bar over runs.
    return_thetas : bool, optional
        Also return the final iterates (``runs * D`` floats of memory).
    fast_path : bool, optional
        Use the fused kernels (numba) or, without numba, the NumPy
        diagonal-quadratic fast path when possible (default ``True``);
        ``False`` forces the NumPy generic path.
    workers : int, optional
        Worker threads (default: :func:`~dpverify.sim.parallel.get_workers`,
        i.e. all CPUs, within a CPU quota, unless set otherwise).  Does not change any result.

    Returns
    -------
    MCResult
    """
    problem, theta1, etas, scales, clip, runs, seed = check_noisy_gd(
        problem, theta1, etas, noise_stds, clip, runs, seed, chunk_runs, workers)
    default_stat = statistic is None
    statistic = check_statistic(statistic, problem)
    T = len(scales)
    is_quadratic = isinstance(problem, Quadratic) and clip is None
    block_cost = BLOCK * problem.dim * max(T, 1)

    if use_fused(fast_path) and is_quadratic:
        A = (1.0 - etas[:, None] * problem.eigs[None, :]).reshape(T, problem.dim)
        Atile = f64(np.tile(A, (1, chunk_width(problem.dim) // problem.dim)))
        c = f64(etas * scales)
        delta1 = f64(theta1 - problem.theta_star)
        shift = f64(problem.theta_star)
        eigs = f64(problem.eigs)
        has_shift = bool(np.any(shift))

        def task(b0, b1, start, stop, theta):
            x = np.empty(stop - start if default_stat else 0)
            _kernels.quadratic_delta(block_states(seed, b0, b1), stop - start, delta1, Atile, c,
                                     shift, has_shift, eigs, theta, x, default_stat)
            return x if default_stat else None
    elif use_fused(fast_path) and linear_fusable(problem):
        inner = linear_gd_task([problem], theta1, etas, scales, None, clip, seed)
        block_cost = linear_cost([problem], max(T, 1))

        def task(b0, b1, start, stop, theta):
            return inner(b0, b1, start, stop, theta[None])
    else:
        use_fast = fast_path and is_quadratic

        def task(b0, b1, start, stop, theta):
            blocks = list(range(b0, b1))
            if use_fast:
                _quadratic_chunk(problem, theta1, theta, etas, scales, seed, start, blocks)
            else:
                theta[...] = theta1
                _generic_chunk([problem], [theta], etas, scales, clip, seed, start, blocks)
            return None

    return run_mc(task, problem.dim, runs, chunk_runs, workers, seed, T, statistic,
                   progress, "pgd", return_thetas, block_cost)


def coupled_pgd(problem_a: Problem, problem_b: Problem, theta1: object, etas: object,
                noise_stds: object, runs: int, seed: int, clip: float | None = None, chunk_runs: int = 65536, *,
                fast_path: bool = True, workers: int | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """Run noisy gradient descent on two problems with the *same* noise draws.

    Both trajectories use the noise of :func:`pgd` with the same ``seed``
    (run ``i`` of ``problem_a`` and run ``i`` of ``problem_b`` share
    ``nu_1..nu_T``); used for stability analysis on adjacent data sets.

    Parameters
    ----------
    problem_a, problem_b : Problem
        Objectives of equal dimension (e.g. adjacent data sets from
        :func:`~dpverify.sim.problems.make_neighbour`).
    theta1, etas, noise_stds, runs, seed, clip, chunk_runs, workers
        As in :func:`pgd`.
    fast_path : bool, optional
        Use the fused kernel when both problems are quadratics or both linear
        models (default); ``False`` forces the NumPy generic path.  On
        ``problem_a`` the fused kernel performs the same operations as
        :func:`pgd`'s fused linear-model kernel (bit-identical iterates), and
        the NumPy path those of :func:`pgd` with ``fast_path=False``.

    Returns
    -------
    theta_a, theta_b : ndarray, shape (runs, D)
        Final iterates.
    """
    problem_a = check_problem("problem_a", problem_a)
    problem_b = check_problem("problem_b", problem_b)
    if problem_a.dim != problem_b.dim:
        raise ValueError(
            f"problem_b must have the same dim as problem_a ({problem_a.dim}), got {problem_b.dim}"
        )
    theta1 = check_theta1(theta1, problem_a.dim)
    etas, scales = check_steps(etas, noise_stds)
    clip = check_clip(clip, problem_a, problem_b)
    runs, seed = check_runs(runs, seed, chunk_runs, workers)
    pair = [problem_a, problem_b]
    dim, T = problem_a.dim, len(scales)
    out = np.empty((2, runs, dim))
    block_cost = 2 * BLOCK * dim * max(T, 1)

    if use_fused(fast_path) and all(type(p) is Quadratic for p in pair):
        inner = quadratic_theta_task(pair, theta1, etas, scales, None, seed, False)
    elif use_fused(fast_path) and linear_fusable(*pair):
        inner = linear_gd_task(pair, theta1, etas, scales, None, clip, seed)
        block_cost = linear_cost(pair, max(T, 1))
    else:
        inner = None

    def job(blocks: tuple[int, int]) -> None:
        b0, b1 = blocks
        start, stop = b0 * BLOCK, min(b1 * BLOCK, runs)
        if inner is not None:
            buf = np.empty((2, stop - start, dim))
            inner(b0, b1, start, stop, buf)
            out[:, start:stop] = buf
        else:
            ta, tb = out[0, start:stop], out[1, start:stop]
            ta[...] = theta1
            tb[...] = theta1
            _generic_chunk(pair, [ta, tb], etas, scales, clip, seed, start, list(range(b0, b1)))

    workers, tasks, window = task_plan(runs, chunk_runs, workers, block_cost)
    for _ in ordered_map(job, tasks, workers, window):
        pass
    return out[0], out[1]


def gd(problem: Problem, theta1: object, etas: object, T: int) -> np.ndarray:
    """Deterministic gradient descent ``theta_{t+1} = theta_t - eta_t grad f(theta_t)``.

    The ``noise_stds = 0`` limit of noisy gradient descent.

    Parameters
    ----------
    problem : Problem
    theta1 : array_like, shape (D,)
    etas : float or array_like, shape (T,)
    T : int
        Number of steps (``>= 0``).

    Returns
    -------
    ndarray, shape (D,)
        ``theta_{T+1}``.
    """
    problem = check_problem("problem", problem)
    theta = check_theta1(theta1, problem.dim)[None, :].copy()
    T = check_int("T", T, minimum=0)
    etas = check_etas(etas, T)
    for eta in etas.tolist():
        theta = theta - eta * problem.grad(theta)
    return theta[0]
