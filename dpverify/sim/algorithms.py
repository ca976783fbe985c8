"""Monte Carlo simulation of noisy (private) gradient descent.

The iteration is noisy gradient descent::

    theta_{t+1} = theta_t - eta_t * (grad f(theta_t) + s_t nu_t),
    s_t = sigma_t * G / N,   nu_t ~ N(0, I_D),

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

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from . import kernels as _kernels
from ._validate import check_array, check_int, check_real, check_seed
from .parallel import ordered_map, plan_tasks, resolve_workers
from .problems import LeastSquares, LinearLoss, LogisticRegression, Problem, Quadratic
from .rng import BLOCK, block_rng, block_slices, combine_blocks, n_blocks, sfc64_state

__all__ = [
    "MCResult",
    "budget_steps",
    "pgd",
    "pgd_budgeted",
    "coupled_pgd",
    "gd",
    "FUSED_PATHS",
]

Statistic = Callable[[np.ndarray], np.ndarray]

#: Which simulator / problem combinations run a fused kernel (when numba is available).
FUSED_PATHS = {
    "pgd": "Quadratic (kernel quadratic_delta); LeastSquares, LogisticRegression, LinearLoss "
           "with or without clip (linear_gd)",
    "pgd_budgeted": "as pgd",
    "coupled_pgd": "two Quadratics (quadratic_theta, K=2); two linear models (linear_gd, K=2)",
    "momentum_pgd": "Quadratic (quadratic_theta); linear models with or without clip (linear_gd)",
    "psgd": "linear models, plain or momentum, with or without clip (linear_sgd)",
}


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
    """Number of steps a zCDP budget filter lets run.

    The filter stops at the first step whose cost would exhaust the remaining
    budget: ``R_1 = R``; step ``t`` costs ``rho_t = 1 / sigma_t^2``; if
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
    request equals the residual budget in exact arithmetic, so the filter
    stops after ``T - 1`` steps; in floating point the residual ``R_T``
    carries rounding error and either ``T - 1`` or ``T`` steps run, depending
    on the sign of that error.  This function does not add any tolerance: it
    reports what the filter does in double precision.
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


def _check_runs(runs: object, seed: object, chunk_runs: object,
                workers: object = None) -> tuple[int, int]:
    """Validate the Monte Carlo arguments every simulator takes; return ``(runs, seed)``."""
    runs = check_int("runs", runs)
    seed = check_seed(seed)
    check_int("chunk_runs", chunk_runs)
    if workers is not None:
        check_int("workers", workers)
    return runs, seed


# --------------------------------------------------------------------------- #
# NumPy paths (one task of whole blocks)
# --------------------------------------------------------------------------- #


def _generic_chunk(problems: list[Problem], thetas: list[np.ndarray], etas: np.ndarray,
                   scales: np.ndarray, clip: float | None, seed: int, start: int,
                   blocks: list[int]) -> None:
    """Evolve ``thetas[i]`` (task arrays, modified in place) under ``problems[i]``.

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
# Fused paths: argument packing
# --------------------------------------------------------------------------- #

_LINEAR_KINDS = {LeastSquares: 0, LogisticRegression: 1, LinearLoss: 2}


def _fused(fast_path: bool) -> bool:
    return bool(fast_path) and _kernels.fused_enabled()


def _linear_fusable(*problems: Problem) -> bool:
    """Whether every problem is one of the linear models the fused kernels implement."""
    return all(type(p) in _LINEAR_KINDS and p.n_samples < 2**32 - 1 for p in problems)


def _block_states(seed: int, b0: int, b1: int, child: int | None = None) -> np.ndarray:
    """``(b1 - b0, 4)`` SFC64 states of blocks ``b0 .. b1 - 1`` (from :func:`block_rng`)."""
    return np.stack([sfc64_state(block_rng(seed, b, child)) for b in range(b0, b1)])


def _f64(x) -> np.ndarray:
    """A writable C-contiguous float64 copy (one compiled signature per kernel)."""
    return np.array(x, dtype=np.float64, order="C")


def _linear_pack(problems: list[Problem]) -> tuple:
    """Stack linear models (padded to the largest sample count) for the fused kernels."""
    K = len(problems)
    dim = problems[0].dim
    nmax = max(p.n_samples for p in problems)
    X = np.zeros((K, nmax, dim))
    y = np.zeros((K, nmax))
    sqn = np.zeros((K, nmax))
    for i, p in enumerate(problems):
        X[i, :p.n_samples] = p.X
        sqn[i, :p.n_samples] = p._sq_norms
        if p.y is not None:
            y[i, :p.n_samples] = p.y
    nsamp = np.array([p.n_samples for p in problems], dtype=np.int64)
    kind = np.array([_LINEAR_KINDS[type(p)] for p in problems], dtype=np.int64)
    lam = _f64([p.lam for p in problems])
    normaliser = _f64([p.normaliser for p in problems])
    ridge = _f64([p.ridge for p in problems])
    return X, y, sqn, nsamp, kind, lam, normaliser, ridge


def _momentum_args(beta: float | None, T: int) -> tuple[float, np.ndarray, bool]:
    """``(beta, corr, momentum)`` for the kernels; ``corr[t-1] = 1 - beta**t`` as Python computes it."""
    if beta is None:
        return 0.0, np.ones(T), False
    return float(beta), _f64([1.0 - beta ** t for t in range(1, T + 1)]), True


def _clip_arg(clip: float | None) -> float:
    return -1.0 if clip is None else float(clip)


def _quadratic_theta_task(problems: list[Quadratic], theta1, etas, scales, beta, seed,
                          default_stat: bool):
    """Task function running :func:`kernels.quadratic_theta` on ``len(problems)`` quadratics."""
    reps = _kernels.chunk_width(problems[0].dim) // problems[0].dim
    eigs = _f64([np.tile(p.eigs, reps) for p in problems])
    star = _f64([np.tile(p.theta_star, reps) for p in problems])
    th1, et, sc = _f64(theta1), _f64(etas), _f64(scales)
    b, corr, momentum = _momentum_args(beta, len(et))

    def task(b0, b1, start, stop, out):
        x = np.empty(stop - start if default_stat else 0)
        _kernels.quadratic_theta(_block_states(seed, b0, b1), stop - start, th1, eigs, star,
                                 et, sc, b, corr, momentum, out, x, default_stat)
        return x if default_stat else None

    return task


def _linear_gd_task(problems: list[Problem], theta1, etas, scales, beta, clip, seed):
    """Task function running :func:`kernels.linear_gd` on ``len(problems)`` linear models."""
    packed = _linear_pack(problems)
    th1, et, sc = _f64(theta1), _f64(etas), _f64(scales)
    b, corr, momentum = _momentum_args(beta, len(et))
    c = _clip_arg(clip)

    def task(b0, b1, start, stop, out):
        _kernels.linear_gd(_block_states(seed, b0, b1), stop - start, th1, *packed, c,
                           et, sc, b, corr, momentum, out)
        return None

    return task


def _linear_cost(problems: list[Problem], T: int) -> float:
    return BLOCK * T * problems[0].dim * (2 * max(p.n_samples for p in problems) + 1) * len(problems)


# --------------------------------------------------------------------------- #
# Driver
# --------------------------------------------------------------------------- #


def _block_moments(statistic: Statistic, theta: np.ndarray, start: int) -> list[tuple]:
    """Per-block ``(rows, sum, sumsq, centred M2)`` of ``statistic`` on a task's iterates."""
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
        with np.errstate(invalid="ignore", over="ignore"):
            centred = x - s / rows
        out.append((rows, s, float(np.sum(x * x)), float(np.sum(centred * centred))))
    return out


def _fused_moments(x: np.ndarray) -> np.ndarray:
    """Per-block ``(rows, sum, sumsq, centred M2)`` of a statistic computed inside a fused kernel."""
    n = x.shape[0]
    mom = np.empty((-(-n // BLOCK), 4))
    _kernels._block_moments(x, n, mom)
    return mom


def _combine(moments: np.ndarray, seed: int, steps: int,
             thetas: np.ndarray | None) -> MCResult:
    """Combine block moments (rows ``(rows, sum, sumsq, M2)``, in block order) into an :class:`MCResult`."""
    n, s, s2, m2 = moments.T
    runs = int(n.sum())
    total = combine_blocks(s)
    mean = total / runs
    # Exact decomposition sum (x - mean)^2 = sum_b [M2_b + n_b (mean_b - mean)^2].
    with np.errstate(invalid="ignore", over="ignore"):   # inf/nan statistics give nan, quietly
        dev = s / n - mean
        m2 = combine_blocks(m2 + n * (dev * dev))
    var = m2 / (runs - 1) if runs > 1 else math.nan
    return MCResult(runs=runs, mean=mean, var=var, sum=total, sumsq=combine_blocks(s2),
                    seed=seed, steps=steps, thetas=thetas)


def _progress(enabled: bool, total: int, desc: str = "pgd"):
    if not enabled:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="run", desc=desc)


def _task_plan(runs: int, chunk_runs: int, workers: object, block_cost: float):
    """``(workers, tasks, window)`` for *runs* runs (see :func:`parallel.plan_tasks`)."""
    chunk_blocks = -(-check_int("chunk_runs", chunk_runs) // BLOCK)
    tasks, window, workers = plan_tasks(n_blocks(runs), resolve_workers(workers), chunk_blocks,
                                        block_cost)
    return workers, tasks, window


def _run_mc(task: Callable, dim: int, runs: int, chunk_runs: int, workers: object, seed: int,
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
    workers, tasks, window = _task_plan(runs, chunk_runs, workers, block_cost)
    out = np.empty((runs, dim)) if return_thetas else None

    def job(blocks: tuple[int, int]):
        b0, b1 = blocks
        start, stop = b0 * BLOCK, min(b1 * BLOCK, runs)
        theta = out[start:stop] if out is not None else np.empty((stop - start, dim))
        x = task(b0, b1, start, stop, theta)
        if x is not None:
            return _fused_moments(x)
        return _block_moments(statistic, theta, start)

    bar = _progress(progress, runs, desc)
    moments = np.empty((n_blocks(runs), 4))   # 32 bytes a block: memory flat in runs
    done = 0
    try:
        for block_moments in ordered_map(job, tasks, workers, window):
            moments[done:done + len(block_moments)] = block_moments
            done += len(block_moments)
            if bar is not None:
                bar.update(int(sum(m[0] for m in block_moments)))
    finally:
        if bar is not None:
            bar.close()
    return _combine(moments, seed, steps, out)


# --------------------------------------------------------------------------- #
# Public simulators
# --------------------------------------------------------------------------- #


def pgd(problem: Problem, theta1: object, etas: object, sigmas: object, G: float | None,
        N: float, runs: int, seed: int, chunk_runs: int = 65536, clip: float | None = None,
        statistic: Statistic | None = None, progress: bool = False, *,
        return_thetas: bool = False, fast_path: bool = True,
        workers: int | None = None) -> MCResult:
    """Monte Carlo estimate of a statistic of noisy gradient descent.

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
        About how many runs are held in memory at once (rounded up to whole
        blocks, at least two blocks per worker).  Does not change any result.
    clip : float, optional
        Clip per-sample gradients to norm ``clip``; the sensitivity ``G`` is
        then replaced by ``clip``.
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
        i.e. all CPUs unless set otherwise).  Does not change any result.

    Returns
    -------
    MCResult
    """
    problem = _check_problem("problem", problem)
    theta1 = _check_theta1(theta1, problem.dim)
    etas, sigmas = _check_steps(etas, sigmas)
    multiplier, clip = _noise_multiplier(G, N, clip)
    _check_clip_support(problem, clip)
    runs, seed = _check_runs(runs, seed, chunk_runs, workers)
    default_stat = statistic is None
    statistic = _check_statistic(statistic, problem)
    scales = sigmas * multiplier
    T = len(sigmas)
    is_quadratic = isinstance(problem, Quadratic) and clip is None
    block_cost = BLOCK * problem.dim * max(T, 1)

    if _fused(fast_path) and is_quadratic:
        A = (1.0 - etas[:, None] * problem.eigs[None, :]).reshape(T, problem.dim)
        Atile = _f64(np.tile(A, (1, _kernels.chunk_width(problem.dim) // problem.dim)))
        c = _f64(etas * scales)
        delta1 = _f64(theta1 - problem.theta_star)
        shift = _f64(problem.theta_star)
        eigs = _f64(problem.eigs)
        has_shift = bool(np.any(shift))

        def task(b0, b1, start, stop, theta):
            x = np.empty(stop - start if default_stat else 0)
            _kernels.quadratic_delta(_block_states(seed, b0, b1), stop - start, delta1, Atile, c,
                                     shift, has_shift, eigs, theta, x, default_stat)
            return x if default_stat else None
    elif _fused(fast_path) and _linear_fusable(problem):
        inner = _linear_gd_task([problem], theta1, etas, scales, None, clip, seed)
        block_cost = _linear_cost([problem], max(T, 1))

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

    return _run_mc(task, problem.dim, runs, chunk_runs, workers, seed, T, statistic,
                   progress, "pgd", return_thetas, block_cost)


def pgd_budgeted(problem: Problem, theta1: object, eta: object, schedule_sigmas: object,
                 R: float, G: float | None, N: float, runs: int, seed: int,
                 **kwargs) -> MCResult:
    """Noisy gradient descent under a zCDP budget filter.

    The filter stops at the first step whose cost ``1 / sigma_t^2`` would
    exhaust the remaining budget (:func:`budget_steps`), so this runs exactly
    ``T = budget_steps(schedule_sigmas, R)`` steps with noise
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
        Passed to :func:`pgd` (``chunk_runs``, ``clip``, ``statistic``,
        ``workers``, ...).

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
                clip: float | None = None, chunk_runs: int = 65536, *,
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
    theta1, etas, sigmas, G, N, runs, seed, clip, chunk_runs, workers
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
    runs, seed = _check_runs(runs, seed, chunk_runs, workers)
    pair = [problem_a, problem_b]
    dim, T = problem_a.dim, len(sigmas)
    scales = sigmas * multiplier
    out = np.empty((2, runs, dim))
    block_cost = 2 * BLOCK * dim * max(T, 1)

    if _fused(fast_path) and all(type(p) is Quadratic for p in pair):
        inner = _quadratic_theta_task(pair, theta1, etas, scales, None, seed, False)
    elif _fused(fast_path) and _linear_fusable(*pair):
        inner = _linear_gd_task(pair, theta1, etas, scales, None, clip, seed)
        block_cost = _linear_cost(pair, max(T, 1))
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

    workers, tasks, window = _task_plan(runs, chunk_runs, workers, block_cost)
    for _ in ordered_map(job, tasks, workers, window):
        pass
    return out[0], out[1]


def gd(problem: Problem, theta1: object, etas: object, T: int) -> np.ndarray:
    """Deterministic gradient descent ``theta_{t+1} = theta_t - eta_t grad f(theta_t)``.

    The ``sigma = 0`` limit of noisy gradient descent.

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
