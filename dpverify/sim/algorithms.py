"""Monte Carlo simulation of private (noisy) gradient descent.

The iteration is [dni, eq. (1)]::

    theta_{t+1} = theta_t - eta_t * (grad f(theta_t) + sigma_t * G * nu_t / N),
    nu_t ~ N(0, I_D),

run for many independent *runs* at once (arrays of shape ``(runs, D)``).
Randomness follows :mod:`dpverify.sim.rng`: block ``b`` of
:data:`~dpverify.sim.rng.BLOCK` runs draws its noise ``nu_t`` (shape
``(rows, D)``, step after step) from ``block_rng(seed, b)``; per-run
statistics are reduced per block and the blocks combined in block order with
``math.fsum``.  Hence results are bit-identical for every ``chunk_runs``.

Two code paths compute the same iteration:

* the generic path (any problem; gradients evaluated one block at a time so
  that BLAS calls always see the same shapes);
* a fast path for :class:`~dpverify.sim.problems.Quadratic` without clipping,
  where one step is ``delta <- a_t * delta - (eta_t s_t) nu`` with
  ``a_t = 1 - eta_t * eigs`` and ``s_t = G sigma_t / N``, done block by block
  (the block stays in cache for all ``T`` steps) with in-place ufuncs into a
  preallocated buffer.  The two paths use identical noise but associate the
  arithmetic differently, so they agree to rounding, not bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ._validate import check_array, check_int, check_real, check_seed
from .problems import Problem, Quadratic
from .rng import BLOCK, block_rng, block_slices, combine_blocks, iter_chunks

__all__ = [
    "MCResult",
    "budget_steps",
    "pgd",
    "pgd_budgeted",
    "coupled_pgd",
    "gd",
]

Statistic = Callable[[np.ndarray], np.ndarray]


# --------------------------------------------------------------------------- #
# Results
# --------------------------------------------------------------------------- #


@dataclass(frozen=True)
class MCResult:
    """Summary of a Monte Carlo run of a per-run statistic.

    Attributes
    ----------
    runs : int
        Number of runs.
    mean : float
        Sample mean of the statistic.
    var : float
        Unbiased sample variance (``nan`` when ``runs == 1``), computed from
        per-block centred sums (no ``sumsq - sum^2/n`` cancellation).
    sum, sumsq : float
        Sum of the statistic and of its square over all runs.
    seed : int
        Master seed.
    steps : int
        Number of PGD steps that were run.
    thetas : ndarray or None
        Final iterates, shape ``(runs, D)``, when ``return_thetas=True``.
    """

    runs: int
    mean: float
    var: float
    sum: float
    sumsq: float
    seed: int
    steps: int
    thetas: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def stderr(self) -> float:
        """Standard error of the mean, ``sqrt(var / runs)``."""
        return math.sqrt(self.var / self.runs) if self.runs > 1 else math.nan


# --------------------------------------------------------------------------- #
# Privacy accounting
# --------------------------------------------------------------------------- #


def budget_steps(sigmas: object, R: float) -> int:
    """Number of steps Algorithm 1 runs before its budget check fails [dni, Algorithm 1].

    ``R_1 = R``; at step ``t`` the request is ``rho_t = 1 / sigma_t^2``; if
    ``rho_t < R_t`` then ``R_{t+1} = R_t - rho_t`` and the step runs,
    otherwise the algorithm terminates.

    Parameters
    ----------
    sigmas : array_like, shape (T,)
        Positive noise scales (``inf`` allowed: a free step).
    R : float
        Total budget (positive, finite).

    Returns
    -------
    int
        Number of steps that ran, ``0 <= steps <= T``.

    Notes
    -----
    The comparison is strict and evaluated in IEEE double precision.  For a
    schedule that spends *exactly* ``R`` (e.g. ``uniform(T, R)``) the last
    request equals the residual budget in exact arithmetic, so Algorithm 1
    as written stops after ``T - 1`` steps; in floating point the residual
    ``R_T`` carries rounding error and either ``T - 1`` or ``T`` steps run,
    depending on the sign of that error.  This function does not add any
    tolerance: it reports what Algorithm 1 does in double precision.
    """
    sigmas = check_array("sigmas", sigmas, ndim=1, positive=True, finite=False, nonempty=False)
    R = check_real("R", R, positive=True)
    remaining = R
    for t, sigma in enumerate(sigmas.tolist()):
        rho = 1.0 / (sigma * sigma)
        if rho < remaining:
            remaining -= rho
        else:
            return t
    return len(sigmas)


# --------------------------------------------------------------------------- #
# Validation helpers
# --------------------------------------------------------------------------- #


def _check_problem(name: str, problem: object) -> Problem:
    if not isinstance(problem, Problem):
        raise ValueError(f"{name} must be a dpverify.sim Problem, got {problem!r}")
    return problem


def _check_theta1(theta1: object, dim: int) -> np.ndarray:
    return check_array("theta1", theta1, shape=(dim,))


def _check_steps(etas: object, sigmas: object) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(etas, sigmas)`` as float arrays of equal length ``T >= 0``."""
    sigmas = check_array("sigmas", sigmas, ndim=1, nonnegative=True, nonempty=False)
    etas = _check_etas(etas, len(sigmas))
    return etas, sigmas


def _check_etas(etas: object, T: int) -> np.ndarray:
    etas = check_array("etas", etas, ndim=(0, 1), nonnegative=True, nonempty=False)
    if etas.ndim == 0:
        return np.full(T, float(etas))
    if etas.shape[0] != T:
        raise ValueError(f"etas must be a scalar or have length T={T}, got length {etas.shape[0]}")
    return etas


def _noise_multiplier(G: object, N: object, clip: object) -> tuple[float, float | None]:
    """Return ``(sensitivity, clip)``: ``G``, or ``C`` when clipping at ``C``."""
    N = check_real("N", N, positive=True)
    if clip is not None:
        clip = check_real("clip", clip, positive=True)
        if G is not None:
            check_real("G", G, positive=True)
        return clip / N, clip
    if G is None:
        raise ValueError("G must be a positive real number when clip is None, got None")
    return check_real("G", G, positive=True) / N, None


def _check_clip_support(problem: Problem, clip: float | None) -> None:
    """Reject clipping on problems without per-sample gradients (before any work)."""
    if clip is not None and isinstance(problem, Quadratic):
        raise ValueError(
            f"clip must be None for Quadratic (it has no per-sample gradients), got {clip!r}"
        )


def _check_statistic(statistic: object, problem: Problem) -> Statistic:
    if statistic is None:
        return problem.excess
    if not callable(statistic):
        raise ValueError(f"statistic must be callable or None, got {statistic!r}")
    return statistic


def _check_runs(runs: object, seed: object, chunk_runs: object) -> tuple[int, int]:
    """Validate the Monte Carlo arguments every simulator takes; return ``(runs, seed)``."""
    runs = check_int("runs", runs)
    seed = check_seed(seed)
    check_int("chunk_runs", chunk_runs)
    return runs, seed


# --------------------------------------------------------------------------- #
# Simulation kernels (one chunk)
# --------------------------------------------------------------------------- #


def _generic_chunk(problems: list[Problem], thetas: list[np.ndarray], etas: np.ndarray,
                   scales: np.ndarray, clip: float | None, seed: int, start: int,
                   blocks: list[int]) -> None:
    """Evolve ``thetas[i]`` (chunk arrays, modified in place) under ``problems[i]``.

    All problems see the same noise; gradients are evaluated per block.
    """
    n, dim = thetas[0].shape
    slices = block_slices(start, start + n)
    rngs = [block_rng(seed, b) for b in blocks]
    noise = np.empty((n, dim))
    step = np.empty((n, dim))
    grad = np.empty((n, dim))
    for eta, scale in zip(etas.tolist(), scales.tolist()):
        for rng, sl in zip(rngs, slices):
            rng.standard_normal(out=noise[sl])
        for problem, theta in zip(problems, thetas):
            for sl in slices:
                grad[sl] = problem.grad(theta[sl], clip)
            # step = eta * (grad + scale * noise); theta -= step
            np.multiply(noise, scale, out=step)
            step += grad
            step *= eta
            theta -= step


def _quadratic_chunk(problem: Quadratic, theta1: np.ndarray, theta: np.ndarray,
                     etas: np.ndarray, scales: np.ndarray, seed: int, start: int,
                     blocks: list[int]) -> None:
    """Fast path on a diagonal quadratic; ``theta`` (chunk array) is overwritten.

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


def _block_moments(statistic: Statistic, theta: np.ndarray, start: int) -> list[tuple]:
    """Per-block ``(rows, sum, sumsq, centred M2)`` of ``statistic`` on a chunk."""
    out = []
    for sl in block_slices(start, start + theta.shape[0]):
        rows = sl.stop - sl.start
        x = np.asarray(statistic(theta[sl]), dtype=np.float64)
        if x.shape != (rows,):
            raise ValueError(
                f"statistic must map thetas of shape ({rows}, D) to shape ({rows},), "
                f"got shape {x.shape}"
            )
        s = float(np.sum(x))
        centred = x - s / rows
        out.append((rows, s, float(np.sum(x * x)), float(np.sum(centred * centred))))
    return out


def _combine(moments: list[tuple], seed: int, steps: int,
             thetas: np.ndarray | None) -> MCResult:
    """Combine block moments (in block order) into an :class:`MCResult`."""
    runs = sum(m[0] for m in moments)
    total = combine_blocks(m[1] for m in moments)
    mean = total / runs
    # Exact decomposition sum (x - mean)^2 = sum_b [M2_b + n_b (mean_b - mean)^2].
    m2 = combine_blocks(m[3] + m[0] * (m[1] / m[0] - mean) ** 2 for m in moments)
    var = m2 / (runs - 1) if runs > 1 else math.nan
    return MCResult(runs=runs, mean=mean, var=var, sum=total,
                    sumsq=combine_blocks(m[2] for m in moments),
                    seed=seed, steps=steps, thetas=thetas)


def _progress(enabled: bool, total: int, desc: str = "pgd"):
    if not enabled:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="run", desc=desc)


def _run_chunked(kernel: Callable[[np.ndarray, int, list[int]], None], dim: int, theta1: np.ndarray,
                 runs: int, chunk_runs: int, seed: int, steps: int, statistic: Statistic,
                 progress: bool, desc: str, return_thetas: bool) -> MCResult:
    """Drive a simulator over chunks of runs; the one loop every Monte Carlo simulator shares.

    Each chunk's iterates start at ``theta1`` and ``kernel(theta, start, blocks)`` advances them
    in place; the statistic is reduced per block and blocks are combined in order, so results do
    not depend on ``chunk_runs`` (see :mod:`dpverify.sim.rng`).
    """
    out = np.empty((runs, dim)) if return_thetas else None
    bar = _progress(progress, runs, desc)
    moments: list[tuple] = []
    for start, stop, blocks in iter_chunks(runs, chunk_runs):
        theta = out[start:stop] if out is not None else np.empty((stop - start, dim))
        theta[...] = theta1
        kernel(theta, start, blocks)
        moments.extend(_block_moments(statistic, theta, start))
        if bar is not None:
            bar.update(stop - start)
    if bar is not None:
        bar.close()
    return _combine(moments, seed, steps, out)


# --------------------------------------------------------------------------- #
# Public simulators
# --------------------------------------------------------------------------- #


def pgd(problem: Problem, theta1: object, etas: object, sigmas: object, G: float | None,
        N: float, runs: int, seed: int, chunk_runs: int = 65536, clip: float | None = None,
        statistic: Statistic | None = None, progress: bool = False, *,
        return_thetas: bool = False, fast_path: bool = True) -> MCResult:
    """Monte Carlo estimate of a statistic of private gradient descent [dni, eq. (1)].

    Runs ``theta_{t+1} = theta_t - eta_t (grad f(theta_t) + sigma_t G nu_t / N)``
    for ``t = 1..T`` from ``theta_1 = theta1`` in ``runs`` independent runs.

    Parameters
    ----------
    problem : Problem
        Objective (see :mod:`dpverify.sim.problems`).
    theta1 : array_like, shape (D,)
        Common starting point.
    etas : float or array_like, shape (T,)
        Step sizes ``eta_t >= 0``.
    sigmas : array_like, shape (T,)
        Noise scales ``sigma_t >= 0`` (``T = len(sigmas)``, may be 0).
    G : float or None
        Per-sample gradient bound (sensitivity ``G / N``); ignored (may be
        ``None``) when *clip* is given.
    N : float
        Sample count in the sensitivity ``G / N``.
    runs : int
        Number of Monte Carlo runs.
    seed : int
        Non-negative master seed (see :mod:`dpverify.sim.rng`).
    chunk_runs : int, optional
        Runs held in memory at once, rounded up to a multiple of ``BLOCK``.
        Does not change any result.
    clip : float, optional
        Clip per-sample gradients to norm ``clip``; the sensitivity ``G`` is
        then replaced by ``clip``.
    statistic : callable, optional
        ``statistic(theta_final)`` with ``theta_final`` of shape
        ``(rows, D)`` returning shape ``(rows,)``; called on one block of
        runs at a time.  Default ``problem.value(theta) - problem.f_star``.
    progress : bool, optional
        Show a ``tqdm`` progress bar over runs.
    return_thetas : bool, optional
        Also return the final iterates (``runs * D`` floats of memory).
    fast_path : bool, optional
        Use the diagonal-quadratic kernel when possible (default ``True``).

    Returns
    -------
    MCResult
    """
    problem = _check_problem("problem", problem)
    theta1 = _check_theta1(theta1, problem.dim)
    etas, sigmas = _check_steps(etas, sigmas)
    multiplier, clip = _noise_multiplier(G, N, clip)
    _check_clip_support(problem, clip)
    runs, seed = _check_runs(runs, seed, chunk_runs)
    statistic = _check_statistic(statistic, problem)
    scales = sigmas * multiplier
    use_fast = fast_path and isinstance(problem, Quadratic) and clip is None

    def kernel(theta, start, blocks):
        if use_fast:
            _quadratic_chunk(problem, theta1, theta, etas, scales, seed, start, blocks)
        else:
            _generic_chunk([problem], [theta], etas, scales, clip, seed, start, blocks)

    return _run_chunked(kernel, problem.dim, theta1, runs, chunk_runs, seed, len(sigmas), statistic,
                        progress, "pgd", return_thetas)


def pgd_budgeted(problem: Problem, theta1: object, eta: object, schedule_sigmas: object,
                 R: float, G: float | None, N: float, runs: int, seed: int,
                 **kwargs) -> MCResult:
    """PGD that stops when Algorithm 1's budget check fails [dni, Algorithm 1].

    Runs exactly ``T = budget_steps(schedule_sigmas, R)`` steps with noise
    ``schedule_sigmas[:T]``.

    Parameters
    ----------
    eta : float or array_like, shape (len(schedule_sigmas),)
        Step size(s); truncated to the first ``T`` entries.
    schedule_sigmas : array_like
        Planned noise scales.
    R : float
        Privacy budget.
    **kwargs
        Passed to :func:`pgd` (``chunk_runs``, ``clip``, ``statistic``, ...).

    Returns
    -------
    MCResult
        ``result.steps`` is ``T``.
    """
    schedule_sigmas = check_array("schedule_sigmas", schedule_sigmas, ndim=1, positive=True)
    etas = _check_etas(eta, len(schedule_sigmas))
    T = budget_steps(schedule_sigmas, R)
    return pgd(problem, theta1, etas[:T], schedule_sigmas[:T], G, N, runs, seed, **kwargs)


def coupled_pgd(problem_a: Problem, problem_b: Problem, theta1: object, etas: object,
                sigmas: object, G: float | None, N: float, runs: int, seed: int,
                clip: float | None = None, chunk_runs: int = 65536
                ) -> tuple[np.ndarray, np.ndarray]:
    """Run PGD on two problems with the *same* noise draws (stability analysis).

    Both trajectories use the noise of :func:`pgd` with the same ``seed``
    (run ``i`` of ``problem_a`` and run ``i`` of ``problem_b`` share
    ``nu_1..nu_T``) [dni, eq. (1)].

    Parameters
    ----------
    problem_a, problem_b : Problem
        Objectives of equal dimension (e.g. adjacent data sets from
        :func:`~dpverify.sim.problems.make_neighbour`).
    theta1, etas, sigmas, G, N, runs, seed, clip, chunk_runs
        As in :func:`pgd`.

    Returns
    -------
    theta_a, theta_b : ndarray, shape (runs, D)
        Final iterates.
    """
    problem_a = _check_problem("problem_a", problem_a)
    problem_b = _check_problem("problem_b", problem_b)
    if problem_a.dim != problem_b.dim:
        raise ValueError(
            f"problem_b must have the same dim as problem_a ({problem_a.dim}), got {problem_b.dim}"
        )
    theta1 = _check_theta1(theta1, problem_a.dim)
    etas, sigmas = _check_steps(etas, sigmas)
    multiplier, clip = _noise_multiplier(G, N, clip)
    _check_clip_support(problem_a, clip)
    _check_clip_support(problem_b, clip)
    runs, seed = _check_runs(runs, seed, chunk_runs)
    out_a = np.empty((runs, problem_a.dim))
    out_b = np.empty((runs, problem_a.dim))
    for start, stop, blocks in iter_chunks(runs, chunk_runs):
        ta, tb = out_a[start:stop], out_b[start:stop]
        ta[...] = theta1
        tb[...] = theta1
        _generic_chunk([problem_a, problem_b], [ta, tb], etas, sigmas * multiplier, clip,
                       seed, start, blocks)
    return out_a, out_b


def gd(problem: Problem, theta1: object, etas: object, T: int) -> np.ndarray:
    """Deterministic gradient descent ``theta_{t+1} = theta_t - eta_t grad f(theta_t)``.

    The ``sigma = 0`` limit of [dni, eq. (1)].

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
    problem = _check_problem("problem", problem)
    theta = _check_theta1(theta1, problem.dim)[None, :].copy()
    T = check_int("T", T, minimum=0)
    etas = _check_etas(etas, T)
    for eta in etas.tolist():
        theta = theta - eta * problem.grad(theta)
    return theta[0]
