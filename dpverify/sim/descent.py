"""Noisy gradient descent from parts: a problem (:mod:`dpverify.sim.problems`), a gradient source
(:mod:`dpverify.sim.gradients`) and an update rule (:mod:`dpverify.sim.updates`).

For ``t = 1..T`` from ``theta_1``, in ``runs`` independent runs::

    g_t                      = grad_t(theta_t) + s_t z_t,        z_t ~ N(0, I_D),  s_t = noise_stds[t],
    (theta_{t+1}, aux_{t+1}) = update.step(theta_t, aux_t, g_t, eta_t),

``grad_t`` the gradient source's gradient (the full gradient, or a mini-batch's, per-sample gradients
clipped or not) and ``aux`` the update rule's state (a velocity, the previous iterate).  DP-SGD with
heavy ball on mini-batches is ``simulate(problem, ..., update=HeavyBall(beta), gradient=MiniBatch(B,
clip=C))``: no simulator of its own.

Randomness follows :mod:`dpverify.sim.rng`: block ``b`` of :data:`~dpverify.sim.rng.BLOCK` runs draws
its noise ``z_t`` (shape ``(rows, D)``, step after step) from ``block_rng(seed, b)`` and a gradient
source's sample indices (an array of shape ``(rows, batch)`` a step) from ``index_rng(seed, b)``; per-run
statistics are reduced per block and the blocks combined in block order.  Blocks are simulated on
``workers`` threads (:mod:`dpverify.sim.parallel`), each block wholly by one worker, so results are
bit-identical for every ``chunk_runs`` and every ``workers``.  Problems run together
(:func:`simulate_coupled`, neighbouring data sets) share the noise and the indices.

Code paths
----------
* the **fused kernels** of :mod:`dpverify.sim.descent_kernels` (numba; default when numba is
  installed), wherever one implements the combination: the plain rule with full gradients on one
  diagonal quadratic (``quadratic_delta``, in the delta form ``delta <- a_t delta - c_t z``), any rule
  with full gradients on diagonal quadratics (``quadratic_theta``) and on linear models with or without
  clipping (``linear_gd``), any rule with mini-batches drawn with replacement on one linear model with
  or without clipping (``linear_sgd``);
* the NumPy **quadratic fast path** (numba missing): the plain rule with full gradients on one diagonal
  quadratic, in the delta form, block by block with in-place ufuncs;
* the NumPy **generic path** (every combination, and ``fast_path=False``): the source's gradients
  evaluated one block at a time (so that BLAS calls always see the same shapes), then the rule's step
  (its one definition, on arrays).

Agreement between them (same seed): a rule's step and the noise are the same operations on every path,
so the paths agree bit for bit where they compute the gradient the same way (a quadratic in theta form:
``quadratic_theta`` and the generic path; the delta form's kernel and fast path), and to rounding where
they do not (the delta form against the theta form; the linear models' kernels sum per-sample gradients
in their own loops, the NumPy path by BLAS).  With the default statistic a quadratic's kernel computes the
excess risk ``1/2 sum_i eigs_i delta_i^2`` itself, which agrees with ``f(theta) - f*`` to rounding.
Within one path, results never depend on ``chunk_runs`` or ``workers``.
"""

from __future__ import annotations

import numpy as np

from . import fused
from .arguments import check_clip, check_parts, check_problem
from .driver import Statistic, run_mc, task_plan
from .gradients import GradientSource
from .parallel import ordered_map
from .problems import Problem, Quadratic
from .results import MCResult
from .rng import BLOCK, block_rng, block_slices, index_rng
from .updates import Plain, UpdateRule
from .validation import check_runs, check_statistic, check_steps, check_theta1

__all__ = ["numpy_chunk", "quadratic_chunk", "simulate", "simulate_coupled"]


def simulate(problem: Problem, theta1: object, etas: object, noise_stds: object, runs: int, seed: int, *,
             update: UpdateRule | None = None, gradient: GradientSource | None = None, chunk_runs: int = 65536,
             statistic: Statistic | None = None, progress: bool = False, return_thetas: bool = False,
             fast_path: bool = True, workers: int | None = None, desc: str = "simulate") -> MCResult:
    """Monte Carlo estimate of a statistic of noisy gradient descent from parts (module docstring).

    Parameters
    ----------
    problem : Problem
        Objective (a data problem for a source that samples).
    theta1 : array_like, shape (D,)
        Common starting point.
    etas : float or array_like, shape (T,)
        Step sizes ``eta_t >= 0``.
    noise_stds : array_like, shape (T,)
        Standard deviation ``s_t >= 0`` of the Gaussian noise added to each coordinate of the gradient
        at step ``t`` (``T = len(noise_stds)``, may be 0).
    runs, seed : int
        Number of Monte Carlo runs; non-negative master seed (see :mod:`dpverify.sim.rng`).
    update : UpdateRule, optional
        :class:`~dpverify.sim.updates.Plain` (default), :class:`~dpverify.sim.updates.BiasCorrectedMomentum`,
        :class:`~dpverify.sim.updates.HeavyBall`, ...
    gradient : GradientSource, optional
        :class:`~dpverify.sim.gradients.FullGradient` (default), :class:`~dpverify.sim.gradients.MiniBatch`,
        ..., clipped per sample with ``clip=``.
    chunk_runs : int, optional
        About how many runs are held in memory at once (rounded up to whole blocks, at least two blocks
        per worker).  Does not change any result.
    statistic : callable, optional
        ``statistic(theta_final)`` with ``theta_final`` of shape ``(rows, D)`` returning shape
        ``(rows,)``; called on one block of runs at a time, possibly from several worker threads at once
        (so it must not modify shared state).  Default ``problem.value(theta) - problem.f_star``
        (computed inside the fused kernel on a :class:`Quadratic`).
    progress : bool, optional
        Show a ``tqdm`` progress bar over runs (labelled ``desc``).
    return_thetas : bool, optional
        Also return the final iterates (``runs * D`` floats of memory).
    fast_path : bool, optional
        Use the fused kernels (numba) or, without numba, the NumPy quadratic fast path where they
        implement the combination (default ``True``); ``False`` forces the NumPy generic path.
    workers : int, optional
        Worker threads (default: :func:`~dpverify.sim.parallel.get_workers`).  Does not change any result.

    Returns
    -------
    MCResult
    """
    update, gradient = check_parts(update, gradient)
    problem = check_problem("problem", problem)
    gradient.check(problem)
    theta1 = check_theta1(theta1, problem.dim)
    etas, scales = check_steps(etas, noise_stds)
    update.check(len(scales))
    check_clip(gradient.clip, problem)
    runs, seed = check_runs(runs, seed, chunk_runs, workers)
    default_stat = statistic is None
    statistic = check_statistic(statistic, problem)
    task, block_cost = _task([problem], theta1, etas, scales, update, gradient, seed, default_stat, fast_path)

    def kernel(b0, b1, start, stop, theta):
        return task(b0, b1, start, stop, theta[None])

    return run_mc(kernel, problem.dim, runs, chunk_runs, workers, seed, len(scales), statistic, progress, desc,
                  return_thetas, block_cost)


def simulate_coupled(problems: list[Problem], theta1: np.ndarray, etas: np.ndarray, scales: np.ndarray, runs: int,
                     seed: int, *, update: UpdateRule, gradient: GradientSource, chunk_runs: int = 65536,
                     fast_path: bool = True, workers: int | None = None) -> np.ndarray:
    """The final iterates ``(K, runs, D)`` of noisy gradient descent on ``K`` problems sharing every draw
    (the noise and the sample indices: run ``i`` of each problem sees the same ones).  The arguments are
    :func:`simulate`'s, already checked (:func:`~dpverify.sim.algorithms.coupled_pgd` checks them)."""
    dim = problems[0].dim
    out = np.empty((len(problems), runs, dim))
    task, block_cost = _task(problems, theta1, etas, scales, update, gradient, seed, False, fast_path)

    def job(blocks: tuple[int, int]) -> None:
        b0, b1 = blocks
        start, stop = b0 * BLOCK, min(b1 * BLOCK, runs)
        buf = np.empty((len(problems), stop - start, dim))
        task(b0, b1, start, stop, buf)
        out[:, start:stop] = buf

    workers, tasks, window = task_plan(runs, chunk_runs, workers, block_cost)
    for _ in ordered_map(job, tasks, workers, window):
        pass
    return out


def _task(problems, theta1, etas, scales, update, gradient, seed, default_stat, fast_path):
    """``(task, block_cost)``: the task function of the fused kernel implementing the combination
    (module docstring), or of a NumPy path, in the form :func:`~dpverify.sim.driver.run_mc` drives (the
    iterates of the ``K`` problems as ``(K, rows, D)``)."""
    dim, T, K = problems[0].dim, max(len(scales), 1), len(problems)
    cost = BLOCK * dim * T * K
    plain_quadratic = (K == 1 and type(update) is Plain and not gradient.samples
                       and isinstance(problems[0], Quadratic) and gradient.clip is None)
    if fused.use_fused(fast_path):
        if plain_quadratic:
            return fused.quadratic_delta_task(problems[0], theta1, etas, scales, seed, default_stat), cost
        if not gradient.samples and all(type(p) is Quadratic for p in problems):
            return fused.quadratic_theta_task(problems, theta1, etas, scales, update, seed, default_stat), cost
        if not gradient.samples and fused.linear_fusable(*problems):
            return (fused.linear_gd_task(problems, theta1, etas, scales, update, gradient.clip, seed),
                    fused.linear_cost(problems, T))
        if gradient.samples and gradient.replace and K == 1 and fused.linear_fusable(*problems):
            return (fused.linear_sgd_task(problems[0], theta1, etas, scales, gradient.batch, update, gradient.clip,
                                          seed), cost * (2 * gradient.batch + 1))
    if gradient.samples:
        cost *= 2 * gradient.batch + 1
    fast = fast_path and plain_quadratic

    def task(b0, b1, start, stop, out):
        blocks = list(range(b0, b1))
        if fast:
            quadratic_chunk(problems[0], theta1, out[0], etas, scales, seed, start, blocks)
            return None
        out[...] = theta1
        numpy_chunk(problems, list(out), etas, scales, update, gradient, seed, start, blocks)
        return None

    return task, cost


def numpy_chunk(problems: list[Problem], thetas: list[np.ndarray], etas: np.ndarray, scales: np.ndarray,
                update: UpdateRule, gradient: GradientSource, seed: int, start: int, blocks: list[int]) -> None:
    """Evolve ``thetas[i]`` (a chunk's arrays, modified in place) under ``problems[i]``: every problem sees
    the same noise and sample indices; gradients are evaluated per block, then the rule's step."""
    n, dim = thetas[0].shape
    slices = block_slices(start, start + n)
    rngs = [block_rng(seed, b) for b in blocks]
    irngs = [index_rng(seed, b) if gradient.samples else None for b in blocks]
    noise = np.empty((n, dim))
    step = np.empty((n, dim))
    grad = np.empty((n, dim))
    auxs = [update.init(theta) for theta in thetas]
    for t, (eta, scale) in enumerate(zip(etas.tolist(), scales.tolist()), start=1):
        idx = [gradient.draw(problems[0], irng, sl.stop - sl.start) for irng, sl in zip(irngs, slices)]
        for rng, sl in zip(rngs, slices):
            rng.standard_normal(out=noise[sl])
        for problem, theta, aux in zip(problems, thetas, auxs):
            for sl, ix in zip(slices, idx):
                grad[sl] = gradient.gradient(problem, theta[sl], ix)
            # the noisy gradient g = grad + scale * noise, then the rule's step
            np.multiply(noise, scale, out=step)
            step += grad
            update.numpy_step(theta, aux, step, eta, t)


def quadratic_chunk(problem: Quadratic, theta1: np.ndarray, theta: np.ndarray, etas: np.ndarray,
                    scales: np.ndarray, seed: int, start: int, blocks: list[int]) -> None:
    """NumPy fast path of the plain rule with full gradients on a diagonal quadratic; ``theta`` (a chunk's
    array) is overwritten.

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
