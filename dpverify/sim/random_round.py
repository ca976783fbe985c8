"""Random-round noisy SGD: a random number of steps R, drawn before the run, decides the output.

The algorithm (Ghadimi & Lan's randomised stochastic gradient with Gaussian noise)::

    draw R in {1, ..., T} with P(R = k + 1) = p_k,          k = 0..T-1
    for t = 0..R-1:  draw j uniformly from the samples (or use the full gradient),
                     w_{t+1} = w_t - eta_t (grad f(w_t; x_j) + s_t nu_t),   nu_t ~ N(0, I_D)
    output w_R.

:func:`random_round_probabilities` gives Ghadimi & Lan's weights ``p_k`` proportional to
``2 eta_k - M eta_k^2`` (M the smoothness). Runs stop at different rounds and are still simulated
together: a block of runs steps until its largest ``R``, and a run whose ``R`` is reached is
frozen (its noise is still drawn, so every run's stream is the same whatever the others do).
:func:`trajectory_average` runs all ``T`` steps and returns, per run, ``sum_k w_k s(w_k)`` along the
trajectory (with ``w_k = p_{k-1}``: the expectation over R given the trajectory).

Randomness follows :mod:`dpverify.sim.rng`: block ``b`` draws ``R`` and then, step by step, its
Gaussian noise from ``block_rng(seed, b)`` and its sample indices from
:func:`~dpverify.sim.rng.index_rng` ``(seed, b)``; statistics are reduced per block and combined in
block order, so results are bit-identical for every ``chunk_runs``. On diagonal quadratics (no
samples: the gradient is exact, only the Gaussian noise is random) the expectations are exact
(:func:`random_round_quadratic`).
"""
from __future__ import annotations

import math
from collections.abc import Callable

import mpmath
import numpy as np

from . import random_round_kernels as _kernels
from .draws import fused_enabled
from .jit import chunk_width
from .driver import run_mc
from .fused import block_states, f64
from .validation import check_array, check_int, check_real, check_seed
from .problems import Problem, Quadratic
from .results import MCResult, block_moments
from .rng import BLOCK as _BLOCK, block_rng, block_slices, index_rng, iter_chunks
from .gradients import minibatch_grad

__all__ = ["random_round_linear", "random_round_probabilities", "random_round_quadratic",
           "random_round_quadratic_constant", "random_round_sgd", "trajectory_average"]

QUADRATIC_STATISTICS = ("excess", "grad_norm_sq")


def random_round_probabilities(etas: object, smooth: float) -> np.ndarray:
    """``p_k = (2 eta_k - M eta_k^2) / sum_r (2 eta_r - M eta_r^2)``, k = 0..T-1 (needs eta_k < 2/M)."""
    etas = check_array("etas", etas, ndim=1, positive=True)
    M = check_real("smooth", smooth, nonnegative=True)
    w = 2 * etas - M * etas * etas
    if not np.all(w > 0):
        raise ValueError(f"etas must satisfy eta_k < 2/smooth = {2 / M if M else math.inf:g}, got max {etas.max():g}")
    return w / w.sum()


def _check_common(problem, theta0, etas, noise_std, runs, seed, chunk_runs):
    if not isinstance(problem, Problem):
        raise ValueError(f"problem must be a dpverify.sim Problem, got {problem!r}")
    theta0 = check_array("theta0", theta0, shape=(problem.dim,))
    etas = check_array("etas", etas, ndim=1, nonnegative=True)
    T = len(etas)
    if T == 0:
        raise ValueError("etas must have at least one step")
    s = np.broadcast_to(check_array("noise_std", noise_std, ndim=(0, 1), nonnegative=True), (T,)).copy()
    runs = check_int("runs", runs)
    seed = check_seed(seed)
    check_int("chunk_runs", chunk_runs)
    return theta0, etas, s, runs, seed


def _check_probs(probs, T):
    p = check_array("probs", probs, shape=(T,), nonnegative=True)
    if abs(p.sum() - 1.0) > 1e-9:
        raise ValueError(f"probs must sum to 1, got {p.sum()!r}")
    return p / p.sum()


def _draw_rounds(rng, rows, p):
    """``R`` in 1..T with ``P(R = k + 1) = p_k``, by inversion of one uniform draw per run."""
    cdf = np.cumsum(p)
    cdf[-1] = 1.0
    return 1 + np.minimum(np.searchsorted(cdf, rng.random(rows), side="right"), len(p) - 1)


def _gradient(problem, theta, irng, sample):
    if sample and not isinstance(problem, Quadratic):
        idx = irng.integers(0, problem.n_samples, size=(theta.shape[0], 1))
        return minibatch_grad(problem, theta, idx)
    return problem.grad(theta)


def random_round_sgd(problem: Problem, theta0: object, etas: object, probs: object, noise_std: object,
                     runs: int, seed: int, chunk_runs: int = 65536,
                     statistic: Callable[[np.ndarray], np.ndarray] | None = None, *, sample: bool = True,
                     return_thetas: bool = False) -> MCResult:
    """Monte Carlo of a statistic of the random-round output ``w_R`` (module docstring).

    Parameters
    ----------
    problem : Problem
        A data problem (one uniformly drawn sample per step when ``sample``) or a
        :class:`Quadratic` (exact gradient plus noise).
    theta0 : array_like, shape (D,)
    etas : array_like, shape (T,)
        Step sizes ``eta_0..eta_{T-1}``.
    probs : array_like, shape (T,)
        ``P(R = k + 1)``, e.g. :func:`random_round_probabilities`.
    noise_std : float or array_like, shape (T,)
        Standard deviation ``s_t`` of each coordinate of the Gaussian gradient noise.
    runs, seed, chunk_runs, return_thetas
        As in :func:`~dpverify.sim.algorithms.pgd`.
    statistic : callable, optional
        On ``w_R`` of shape ``(rows, D)``; default ``problem.excess``.
    sample : bool
        Draw one sample per step (``False``: full gradients).

    Returns
    -------
    MCResult
        ``steps`` is ``T`` (the largest possible R).
    """
    theta0, etas, s, runs, seed = _check_common(problem, theta0, etas, noise_std, runs, seed, chunk_runs)
    T = len(etas)
    p = _check_probs(probs, T)
    stat = problem.excess if statistic is None else statistic
    dim = problem.dim
    if isinstance(problem, Quadratic) and fused_enabled():
        return run_mc(_random_round_task(problem, theta0, etas, p, s, seed), dim, runs, chunk_runs, None,
                       seed, T, stat, False, "random_round_sgd", return_thetas, _BLOCK * dim * T)
    out = np.empty((runs, dim)) if return_thetas else None
    sums = []
    for start, stop, blocks in iter_chunks(runs, chunk_runs):
        for b, sl in zip(blocks, block_slices(start, stop)):
            rows = sl.stop - sl.start
            rng, irng = block_rng(seed, b), index_rng(seed, b)
            R = _draw_rounds(rng, rows, p)
            w = np.tile(theta0, (rows, 1))
            noise = np.empty((rows, dim))
            for t in range(int(R.max())):
                rng.standard_normal(out=noise)
                g = _gradient(problem, w, irng, sample)
                g += s[t] * noise
                g *= etas[t]
                g[R <= t] = 0.0      # runs whose round has come are frozen at w_R
                w -= g
            if out is not None:
                out[start + sl.start: start + sl.stop] = w
            sums.append(block_moments(stat(w), rows))
    return MCResult.from_block_moments(sums, seed=seed, steps=T, thetas=out)


def _random_round_task(problem: Quadratic, theta0, etas, p, s, seed):
    """Task function running :func:`kernels.random_round_quadratic` (bit-identical with the NumPy path)."""
    cdf = np.cumsum(p)
    cdf[-1] = 1.0
    reps = chunk_width(problem.dim) // problem.dim
    args = (f64(cdf), f64(theta0), f64(np.tile(problem.eigs, reps)), f64(np.tile(problem.theta_star, reps)),
            f64(etas), f64(s))

    def task(b0, b1, start, stop, out):
        _kernels.random_round_quadratic(block_states(seed, b0, b1), stop - start, *args, out)
        return None

    return task


def trajectory_average(problem: Problem, theta0: object, etas: object, weights: object, noise_std: object,
                       runs: int, seed: int, per_step: Callable[[np.ndarray], np.ndarray],
                       chunk_runs: int = 65536, *, sample: bool = True, return_values: bool = False):
    """Monte Carlo of ``sum_{k=1..T} weights[k-1] per_step(w_k)`` along each run's full trajectory
    (all ``T`` steps of :func:`random_round_sgd`, same noise and indices for the same seed; with
    ``weights = probs`` it is ``E[per_step(w_R) | trajectory]``). Returns an :class:`MCResult`, or
    with ``return_values`` the per-run values (shape ``(runs,)``)."""
    theta0, etas, s, runs, seed = _check_common(problem, theta0, etas, noise_std, runs, seed, chunk_runs)
    T = len(etas)
    wts = check_array("weights", weights, shape=(T,))
    dim = problem.dim
    sums = []
    values = np.empty(runs) if return_values else None
    for start, stop, blocks in iter_chunks(runs, chunk_runs):
        for b, sl in zip(blocks, block_slices(start, stop)):
            rows = sl.stop - sl.start
            rng, irng = block_rng(seed, b), index_rng(seed, b)
            rng.random(rows)  # the draws of R in random_round_sgd: keeps the streams aligned
            w = np.tile(theta0, (rows, 1))
            noise = np.empty((rows, dim))
            acc = np.zeros(rows)
            for t in range(T):
                rng.standard_normal(out=noise)
                g = _gradient(problem, w, irng, sample)
                g += s[t] * noise
                w -= etas[t] * g
                acc += wts[t] * np.asarray(per_step(w), dtype=float)
            if values is not None:
                values[start + sl.start: start + sl.stop] = acc
            sums.append(block_moments(acc, rows))
    return values if return_values else MCResult.from_block_moments(sums, seed=seed, steps=T)


def random_round_quadratic(eigs, theta_star, theta0, etas, probs, noise_std, statistic: str = "excess",
                           dps: int | None = None):
    """Exact ``E[s(w_R)]`` on ``F(w) = F* + 1/2 sum_i eigs_i (w_i - w*_i)^2`` with exact gradients and
    Gaussian noise: ``"excess"`` (``E F(w_R) - F*``) or ``"grad_norm_sq"`` (``E||grad F(w_R)||^2``).

    Per coordinate the mean contracts by ``1 - eta_t lambda_i`` and the variance follows
    ``v <- (1 - eta_t lambda_i)^2 v + eta_t^2 s_t^2``; the value at every round is averaged with
    ``probs``. Double precision, or mpmath at ``dps`` digits.
    """
    if statistic not in QUADRATIC_STATISTICS:
        raise ValueError(f"statistic must be one of {QUADRATIC_STATISTICS}, got {statistic!r}")
    T = len(etas)
    sd_list = list(noise_std) if np.ndim(noise_std) else [noise_std] * T
    if _all_equal(etas) and _all_equal(sd_list) and _all_equal(probs):
        return random_round_quadratic_constant(eigs, theta_star, theta0, etas[0], T, sd_list[0], statistic, dps)
    num = (lambda x: float(x)) if dps is None else mpmath.mpf
    with mpmath.workdps(dps or 15):
        lam = [num(x) for x in eigs]
        m = [num(a) - num(b) for a, b in zip(theta0, theta_star)]
        v = [num(0)] * len(lam)
        sd = list(noise_std) if np.ndim(noise_std) else [noise_std] * T
        total = num(0)
        for t in range(T):
            eta, s2 = num(etas[t]), num(sd[t]) ** 2
            a = [1 - eta * li for li in lam]
            m = [ai * x for ai, x in zip(a, m)]
            v = [ai * ai * x + eta * eta * s2 for ai, x in zip(a, v)]
            w = [li if statistic == "excess" else li * li for li in lam]
            val = sum(wi * (x * x + y) for wi, x, y in zip(w, m, v))
            if statistic == "excess":
                val = val / 2
            total += num(probs[t]) * val
        return total


def random_round_linear(rng: np.random.Generator, rows: int, theta0: object, eta: float, probs: object,
                        grads: object, weights: object, noise_std: float) -> np.ndarray:
    """``rows`` exact draws of ``w_R`` for losses with constant per-sample gradients (linear losses)
    and a constant step: ``w_R = w_0 - eta (sum_j N_j g_j + sqrt(R) s nu)`` with ``R ~ probs`` (on
    1..T), ``(N_j) ~ Multinomial(R, weights)`` the number of draws of each sample and ``nu ~ N(0, I)``:
    the same distribution as :func:`random_round_sgd` on such a problem, in O(rows) work."""
    theta0 = check_array("theta0", theta0, ndim=1)
    G = check_array("grads", grads, ndim=2)
    if G.shape[1] != theta0.shape[0]:
        raise ValueError(f"grads must have shape (samples, {theta0.shape[0]}), got {G.shape}")
    w = check_array("weights", weights, shape=(G.shape[0],), nonnegative=True)
    p = _check_probs(probs, len(np.atleast_1d(probs)))
    rows = check_int("rows", rows, minimum=0)
    eta = check_real("eta", eta, nonnegative=True)
    s = check_real("noise_std", noise_std, nonnegative=True)
    R = _draw_rounds(rng, rows, p)
    counts = np.empty((rows, G.shape[0]), dtype=np.int64)
    left, mass = R.copy(), float(w.sum())
    for j in range(G.shape[0]):      # Multinomial(R, w) as successive binomials (vectorised over runs)
        pj = min(1.0, float(w[j]) / mass) if mass > 0 else 0.0
        counts[:, j] = rng.binomial(left, pj) if j < G.shape[0] - 1 else left
        left = left - counts[:, j]
        mass -= float(w[j])
    nu = rng.standard_normal((rows, theta0.shape[0]))
    return theta0[None, :] - eta * (counts @ G + np.sqrt(R)[:, None] * s * nu)


def _all_equal(xs) -> bool:
    first = xs[0]
    return all(x is first or x == first for x in xs)


def random_round_quadratic_constant(eigs, theta_star, theta0, eta, T: int, sd, statistic: str = "excess",
                                    dps: int | None = None):
    """Exact ``E[s(w_R)]`` for a constant step ``eta`` and noise std ``sd`` (then R is uniform on
    1..T), in closed form (O(D) work whatever T):
    with ``a = 1 - eta lambda``, ``E e_k^2 = a^(2k) e_0^2 + eta^2 s^2 (1 - a^(2k)) / (1 - a^2)`` and
    ``sum_{k=1..T} a^(2k) = a^2 (1 - a^(2T)) / (1 - a^2)`` (``T`` when ``a^2 = 1``)."""
    num = (lambda x: float(x)) if dps is None else mpmath.mpf
    with mpmath.workdps(dps or 15):
        eta, s2, Tn = num(eta), num(sd) ** 2, num(T)
        total = num(0)
        for li, a0, b0 in zip(eigs, theta0, theta_star):
            li = num(li)
            e2 = (num(a0) - num(b0)) ** 2
            a2 = (1 - eta * li) ** 2
            one_minus = 1 - a2
            if one_minus == 0:
                geo = Tn
                mean_v = eta * eta * s2 * (Tn + 1) / 2
            else:
                geo = a2 * (1 - a2 ** T) / one_minus
                mean_v = eta * eta * s2 * (Tn - geo) / (Tn * one_minus)
            avg = e2 * geo / Tn + mean_v
            w = li / 2 if statistic == "excess" else li * li
            total += w * avg
        return total
