"""Noisy gradient descent with Polyak's heavy-ball momentum.

From ``theta_0 = theta_1``, for ``t = 1..T``::

    theta_{t+1} = theta_t - eta_t (grad f(theta_t) + s_t z_t) + beta (theta_t - theta_{t-1}),

``z_t ~ N(0, I_D)``, ``s_t`` the noise standard deviation per coordinate. ``beta = 0`` is plain noisy
gradient descent (the noise stream is :func:`~dpverify.sim.algorithms.pgd`'s: block ``b`` draws
``z_t`` of shape ``(rows, D)`` from ``block_rng(seed, b)`` step after step, so ``beta = 0`` gives
``pgd(..., fast_path=False)``'s iterates up to the sign of a zero).

Exact moments on a diagonal quadratic
-------------------------------------
On ``f = f* + 1/2 sum_i lam_i d_i^2`` (``d = theta - theta*``) each coordinate's state
``x_t = (d_t, d_{t-1})`` evolves as ``x_{t+1} = A_t x_t + b_t z`` with

    A_t = [[1 + beta - eta_t lam, -beta],
           [1,                     0   ]],    b_t = [-eta_t s_t, 0],

so the mean propagates as ``mu' = A_t mu`` and the covariance as ``S' = A_t S A_t^T + b_t b_t^T``
from ``mu_1 = (d_1, d_1)``, ``S_1 = 0``; ``d_{T+1}`` is Gaussian, and the statistics follow as for
plain noisy GD (:mod:`dpverify.sim.moments`). With ``eta = 4/(sqrt(M) + sqrt(mu))^2`` and
``beta = ((sqrt(M) - sqrt(mu))/(sqrt(M) + sqrt(mu)))^2`` (Polyak's parameters) the noise-free
iteration on a spectrum in ``[mu, M]`` contracts like ``(sqrt(kappa) - 1)/(sqrt(kappa) + 1)`` per step
(up to a factor linear in T: ``A_t`` has a double eigenvalue at the spectrum's ends).
"""
from __future__ import annotations

import mpmath
import numpy as np

from .arguments import check_noisy_gd
from .driver import Statistic, run_mc
from .moments import _prepare
from .momentum import _check_beta
from .problems import Problem
from .results import MCResult
from .rng import BLOCK, block_rng, block_slices
from .validation import check_statistic

__all__ = ["heavy_ball_moments_mp", "heavy_ball_pgd", "heavy_ball_quadratic_mean_var"]


def heavy_ball_pgd(problem: Problem, theta1: object, etas: object, noise_stds: object, beta: float,
                   runs: int, seed: int, chunk_runs: int = 65536, clip: float | None = None,
                   statistic: Statistic | None = None, progress: bool = False, *,
                   return_thetas: bool = False, workers: int | None = None) -> MCResult:
    """Monte Carlo estimate of a statistic of noisy heavy-ball gradient descent (module docstring).

    Parameters
    ----------
    beta : float
        Momentum coefficient in ``[0, 1)``; ``beta = 0`` is plain noisy GD on
        :func:`~dpverify.sim.algorithms.pgd`'s noise stream.
    problem, theta1, etas, noise_stds, runs, seed, chunk_runs, clip, statistic, progress, \
return_thetas, workers
        As in :func:`~dpverify.sim.algorithms.pgd` (the NumPy path: there is no fused kernel).
        Results are bit-identical for every ``chunk_runs`` and ``workers``.

    Returns
    -------
    MCResult

    Example
    -------
    >>> from dpverify import sim
    >>> res = sim.heavy_ball_pgd(sim.Quadratic([1.0, 4.0]), [1.0, 1.0], 0.4, [0.1] * 20, 1 / 9,
    ...                          runs=1000, seed=0)
    """
    problem, theta1, etas, scales, clip, runs, seed = check_noisy_gd(
        problem, theta1, etas, noise_stds, clip, runs, seed, chunk_runs, workers)
    beta = _check_beta(beta)
    statistic = check_statistic(statistic, problem)
    T = len(scales)

    def kernel(b0, b1, start, stop, theta):
        n, dim = theta.shape
        slices = block_slices(start, start + n)
        rngs = [block_rng(seed, b) for b in range(b0, b1)]
        noise, grad, step = np.empty((n, dim)), np.empty((n, dim)), np.empty((n, dim))
        theta[...] = theta1
        prev = theta.copy()
        for eta, scale in zip(etas.tolist(), scales.tolist()):
            for rng, sl in zip(rngs, slices):
                rng.standard_normal(out=noise[sl])
            for sl in slices:
                grad[sl] = problem.grad(theta[sl], clip)
            np.multiply(noise, scale, out=step)
            step += grad
            step *= eta
            push = beta * (theta - prev)
            prev[...] = theta
            theta -= step
            theta += push
        return None

    return run_mc(kernel, problem.dim, runs, chunk_runs, workers, seed, T, statistic, progress,
                   "heavy_ball_pgd", return_thetas, BLOCK * problem.dim * max(T, 1))


def _propagate(eigs, theta1, etas, noise_stds, beta, theta_star=None):
    """Mean ``m`` and variance ``s2`` of ``d_{T+1}``, both of shape ``(P, D)``, and the eigenvalues."""
    eigs, delta1, etas, _ = _prepare(eigs, theta1, etas, noise_stds, theta_star)
    s = _prepare(eigs, delta1, 1.0, noise_stds, None)[3]
    beta = _check_beta(beta)
    P, dim, T = eigs.shape[0], eigs.shape[1], etas.shape[1]
    lam = np.broadcast_to(eigs, (P, dim))
    etas, s = np.broadcast_to(etas, (P, T)), np.broadcast_to(s, (P, T))
    mx = np.array(np.broadcast_to(delta1, (P, dim)), dtype=np.float64)   # E d_t
    mp = mx.copy()                                                       # E d_{t-1}
    sxx, sxp, spp = np.zeros((P, dim)), np.zeros((P, dim)), np.zeros((P, dim))
    for t in range(T):
        eta = etas[:, t:t + 1]
        a11 = 1.0 + beta - eta * lam
        b1 = eta * s[:, t:t + 1]
        mx, mp = a11 * mx - beta * mp, mx
        sxx, sxp, spp = (a11 * a11 * sxx - 2.0 * a11 * beta * sxp + beta * beta * spp + b1 * b1,
                         a11 * sxx - beta * sxp, sxx)
    return lam, mx, np.maximum(sxx, 0.0)


def heavy_ball_quadratic_mean_var(eigs, theta1, etas, noise_stds, beta, theta_star=None):
    """Exact mean and variance of ``f(theta_{T+1}) - f*`` for noisy heavy-ball GD on a diagonal
    quadratic (module docstring), by the Gaussian quadratic form.

    Parameters
    ----------
    eigs, theta1, etas, noise_stds, theta_star
        As in :func:`~dpverify.sim.moments.pgd_quadratic_mean_var` (each may carry a leading axis
        of ``P`` parameter points).
    beta : float
        Momentum coefficient in ``[0, 1)``.

    Returns
    -------
    mean, var : ndarray, shape (P,)

    Example
    -------
    >>> mean, var = heavy_ball_quadratic_mean_var([1.0, 4.0], [1.0, 1.0], 0.4, [0.1] * 20, 1 / 9)
    """
    lam, m, s2 = _propagate(eigs, theta1, etas, noise_stds, beta, theta_star)
    mean = 0.5 * np.einsum("pd,pd->p", lam, m * m + s2)
    var = 0.25 * np.einsum("pd,pd->p", lam * lam, 2.0 * s2 * s2 + 4.0 * s2 * m * m)
    return mean, var


def heavy_ball_moments_mp(eigs, delta1, etas, scales, beta):
    """Per-direction mean and variance of ``theta_{T+1} - theta*`` for noisy heavy-ball GD, in
    mpmath at the caller's precision (inputs converted with ``mpmath.mpf``). Returns
    ``(lam, m, s2)`` as lists of ``mpf``.

    >>> lam, m, s2 = heavy_ball_moments_mp([1, 4], [1, 1], [0.4] * 3, [0.1] * 3, 0.1)
    """
    b = mpmath.mpf(beta)
    lam = [mpmath.mpf(x) for x in eigs]
    mx = [mpmath.mpf(x) for x in delta1]
    mp = list(mx)
    sxx, sxp, spp = ([mpmath.mpf(0)] * len(mx) for _ in range(3))
    for eta, s in zip(etas, scales):
        eta, s = mpmath.mpf(eta), mpmath.mpf(s)
        b1 = eta * s
        for i, li in enumerate(lam):
            a11 = 1 + b - eta * li
            mx[i], mp[i] = a11 * mx[i] - b * mp[i], mx[i]
            sxx[i], sxp[i], spp[i] = (a11 * a11 * sxx[i] - 2 * a11 * b * sxp[i] + b * b * spp[i] + b1 * b1,
                                      a11 * sxx[i] - b * sxp[i], sxx[i])
    return lam, mx, sxx
