"""Noisy (private) mini-batch stochastic gradient descent (PSGD).

Each step every run samples a mini-batch of ``n = batch`` indices uniformly
*with replacement* from the problem's samples, averages the (optionally
clipped) per-sample gradients and adds Gaussian noise of standard deviation
``s_t`` per coordinate (``noise_stds``):

    grad_hat_t  = (1/n) sum_{j in B_t} grad f(theta_t; x_j),
    g_t         = grad_hat_t + s_t nu_t,
    theta_{t+1} = theta_t - eta_t g_t                          (plain), or
    theta_{t+1} = theta_t - eta_t m_{t+1}                      (beta given),

with ``m_{t+1}`` the bias-corrected momentum of :mod:`dpverify.sim.momentum`.

Mini-batch gradient and normaliser
----------------------------------
For a full data set (``normaliser == n_samples``) ``grad_hat`` is the plain
batch average.  In general the batch average is multiplied by
``n_samples / normaliser`` so that ``E[grad_hat] = problem.grad(theta, clip)``
also for :func:`~dpverify.sim.problems.remove_sample` data sets (whose
``normaliser`` stays at the original ``N``).  The sampling noise
``xi = grad_hat - E[grad_hat]`` has covariance ``Cov(grad f(theta; x_J)) / n``
(``J`` uniform), reported by :func:`sampling_noise_moments`.

Randomness
----------
Block ``b`` draws its privacy noise ``nu_t`` (shape ``(rows, D)``) from
``block_rng(seed, b)`` exactly as :func:`~dpverify.sim.algorithms.pgd`
does, and its mini-batch indices (shape ``(rows, n)``, per step) from a
second generator, the first child of that block's ``SeedSequence``
(``SeedSequence(seed, spawn_key=(b, 0))``).  Hence run ``i`` sees the same
``nu_t`` in ``psgd`` and in ``pgd`` with the same seed (only the
mini-batches are extra), and results are bit-identical for every
``chunk_runs`` and ``workers``.  On the NumPy path gradients are computed one
block at a time on the gathered ``(rows, n, D)`` rows (``BLOCK * n * D``
floats of scratch memory); the fused kernel
(:func:`dpverify.sim.kernels.linear_sgd`) draws the same indices with the same
algorithm as ``Generator.integers`` and needs no such scratch.
"""

from __future__ import annotations

import numpy as np

from .arguments import check_clip
from .validation import check_int, check_real, check_runs, check_statistic, check_steps, check_theta1
from . import descent_kernels as _kernels
from .driver import Statistic, run_mc
from .fused import block_states, clip_arg, f64, use_fused, linear_fusable, linear_pack, momentum_args
from .results import MCResult
from .algorithms import _momentum_update
from .momentum import _check_beta
from .problems import check_data_problem, LinearModel
from .rng import BLOCK, block_rng, block_slices

__all__ = ["psgd", "minibatch_grad", "sampling_noise_moments", "index_rng"]


def index_rng(seed: int, block: int) -> np.random.Generator:
    """Generator of the mini-batch indices of block *block*.

    ``block_rng(seed, block, child=0)``: an SFC64 generator seeded by
    ``SeedSequence(seed, spawn_key=(block, 0))``,
    the first child of the ``SeedSequence`` behind
    :func:`~dpverify.sim.rng.block_rng` ``(seed, block)``; independent of the
    privacy-noise stream.
    """
    return block_rng(seed, block, child=0)


def _check_clip(clip: object) -> float | None:
    return None if clip is None else check_real("clip", clip, positive=True)


def _batch_grad(problem: LinearModel, theta: np.ndarray, idx: np.ndarray,
                clip: float | None) -> np.ndarray:
    """Mini-batch gradient for each row of *theta* ``(rows, D)``, batch *idx* ``(rows, n)``."""
    n = idx.shape[-1]
    Xb = problem.X[idx]                                   # (rows, n, D)
    m = np.einsum("rnd,rd->rn", Xb, theta)
    r = problem.dloss(m, None if problem.y is None else problem.y[idx])
    factor = problem.n_samples / (problem.normaliser * n)
    if clip is None:
        out = np.einsum("rn,rnd->rd", r, Xb)
        out *= factor
        if problem.lam != 0.0:
            out += problem.ridge * theta
        return out
    # per-sample norms ||r x + lam theta|| by the expansion used in problems._norms
    sq = r * r * problem.sq_norms[idx]
    if problem.lam != 0.0:
        tt = np.einsum("rd,rd->r", theta, theta)[:, None]
        sq = sq + 2.0 * problem.lam * r * m + (problem.lam * problem.lam) * tt
    norms = np.sqrt(np.maximum(sq, 0.0))
    scale = np.minimum(1.0, clip / np.maximum(norms, np.finfo(np.float64).tiny))
    out = np.einsum("rn,rnd->rd", scale * r, Xb)
    if problem.lam != 0.0:
        out += problem.lam * scale.sum(axis=-1)[:, None] * theta
    out *= factor
    return out


def minibatch_grad(problem: LinearModel, theta: object, indices: object,
                   clip: float | None = None) -> np.ndarray:
    """Mini-batch gradient of PSGD for given batches.

    Parameters
    ----------
    problem : LeastSquares, LogisticRegression or LinearLoss
    theta : array_like, shape (rows, D)
    indices : array_like of int, shape (rows, n)
        Row ``i`` of the output uses samples ``indices[i]`` (repeats allowed).
    clip : float, optional
        Clip each per-sample gradient to norm ``clip`` before averaging.

    Returns
    -------
    ndarray, shape (rows, D)
        ``(n_samples / normaliser) (1/n) sum_j grad f(theta_i; x_{indices[i, j]})``
        (the plain average for a full data set).
    """
    problem = check_data_problem(problem)
    theta = problem.check_theta(theta)
    if theta.ndim != 2:
        raise ValueError(f"theta must have shape (rows, {problem.dim}), got shape {theta.shape}")
    idx = np.asarray(indices)
    if (idx.ndim != 2 or idx.shape[0] != theta.shape[0] or idx.shape[1] == 0
            or not np.issubdtype(idx.dtype, np.integer)):
        raise ValueError(f"indices must be an integer array of shape ({theta.shape[0]}, n) "
                         f"with n >= 1, got {indices!r}")
    if idx.size and (idx.min() < 0 or idx.max() >= problem.n_samples):
        raise ValueError(f"indices must lie in [0, n_samples={problem.n_samples}), "
                         f"got range [{idx.min()}, {idx.max()}]")
    return _batch_grad(problem, theta, idx, _check_clip(clip))


def sampling_noise_moments(problem: LinearModel, theta: object, batch: int,
                           clip: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Mean and covariance trace of the PSGD mini-batch gradient at *theta*.

    With ``J`` uniform on the samples, the mini-batch gradient of ``batch``
    i.i.d. draws has (exactly)

        mean  = problem.grad(theta, clip)                  (the full gradient),
        trace = tr Cov(grad_hat) = c^2 tr Cov(grad f(theta; x_J)) / batch,

    with ``c = n_samples / normaliser`` (1 for a full data set).  Written as
    ``grad_hat = grad + sigma_g xi / n`` with ``E xi = 0`` and
    ``E ||xi||^2 <= D`` (a sampling-noise model), this holds with equality for
    ``sigma_g = batch * sqrt(trace / D)``, the smallest admissible
    ``sigma_g`` at this ``theta``.

    Parameters
    ----------
    problem : LeastSquares, LogisticRegression or LinearLoss
    theta : array_like, shape (..., D)
    batch : int
        Batch size ``n >= 1``.
    clip : float, optional
        Per-sample clipping norm.

    Returns
    -------
    mean : ndarray, shape (..., D)
    trace : ndarray, shape (...)

    Notes
    -----
    Materialises the ``(..., N, D)`` per-sample gradients (centred before
    squaring, so no cancellation).
    """
    problem = check_data_problem(problem)
    theta = problem.check_theta(theta)
    batch = check_int("batch", batch)
    clip = _check_clip(clip)
    m = theta @ problem.X.T                                          # (..., N)
    r = problem.dloss(m)
    g = r[..., None] * problem.X + problem.lam * theta[..., None, :]  # (..., N, D)
    if clip is not None:
        norms = np.sqrt(np.einsum("...nd,...nd->...n", g, g))
        g = g * np.minimum(1.0, clip / np.maximum(norms, np.finfo(np.float64).tiny))[..., None]
    centred = g - g.mean(axis=-2, keepdims=True)
    c = problem.n_samples / problem.normaliser
    trace = c * c * np.einsum("...nd,...nd->...", centred, centred) / (problem.n_samples * batch)
    return problem.grad(theta, clip), trace


def _psgd_chunk(problem: LinearModel, theta: np.ndarray, etas: np.ndarray, scales: np.ndarray,
                batch: int, beta: float | None, clip: float | None, seed: int, start: int,
                blocks: list[int]) -> None:
    """Evolve the chunk array *theta* in place by PSGD (optionally with momentum)."""
    n, dim = theta.shape
    slices = block_slices(start, start + n)
    noise_rngs = [block_rng(seed, b) for b in blocks]
    idx_rngs = [index_rng(seed, b) for b in blocks]
    noise = np.empty((n, dim))
    step = np.empty((n, dim))
    grad = np.empty((n, dim))
    v = np.zeros((n, dim)) if beta is not None else None
    for t, (eta, scale) in enumerate(zip(etas.tolist(), scales.tolist()), start=1):
        for nrng, irng, sl in zip(noise_rngs, idx_rngs, slices):
            idx = irng.integers(0, problem.n_samples, size=(sl.stop - sl.start, batch))
            nrng.standard_normal(out=noise[sl])
            grad[sl] = _batch_grad(problem, theta[sl], idx, clip)
        np.multiply(noise, scale, out=step)
        step += grad
        if v is not None:
            _momentum_update(v, step, beta, 1.0 - beta ** t)
        step *= eta
        theta -= step


def psgd(problem: LinearModel, theta1: object, etas: object, noise_stds: object, batch: int,
         runs: int, seed: int, chunk_runs: int = 65536,
         clip: float | None = None, beta: float | None = None,
         statistic: Statistic | None = None, progress: bool = False, *,
         return_thetas: bool = False, fast_path: bool = True,
         workers: int | None = None) -> MCResult:
    """Monte Carlo estimate of a statistic of noisy mini-batch SGD.

    For ``t = 1..T`` from ``theta_1 = theta1``, every run draws a mini-batch
    of *batch* indices uniformly with replacement, forms the mini-batch
    gradient ``grad_hat_t`` (:func:`minibatch_grad`), adds ``s_t nu_t``
    (``s_t = noise_stds[t]``, ``nu_t ~ N(0, I_D)``) and steps plainly (``beta=None``: noisy gradient descent with the
    stochastic gradient) or with bias-corrected momentum (``beta`` given; see
    :mod:`dpverify.sim.momentum`).

    Parameters
    ----------
    problem : LeastSquares, LogisticRegression or LinearLoss
        Data problem (a :class:`Quadratic` has no samples to draw).
    theta1 : array_like, shape (D,)
    etas : float or array_like, shape (T,)
    noise_stds : array_like, shape (T,)
        Standard deviation ``s_t >= 0`` of the noise added to each coordinate
        of the mini-batch gradient (``T = len(noise_stds)``).
    batch : int
        Batch size ``n >= 1`` (may exceed ``n_samples``: sampling is with
        replacement).
    runs, seed, chunk_runs, statistic, progress, return_thetas, workers
        As in :func:`~dpverify.sim.algorithms.pgd`; results are
        bit-identical for every ``chunk_runs`` and ``workers``.
    clip : float, optional
        Clip per-sample gradients to norm ``clip`` (the noise stays *noise_stds*).
    beta : float, optional
        Momentum coefficient in ``[0, 1)``; ``None`` for plain PSGD
        (``beta=0`` gives the same result bit for bit).
    fast_path : bool, optional
        Use the fused kernel (numba) when available (default); ``False``
        forces the NumPy path.  Both draw the same indices and noise and agree
        to rounding.

    Returns
    -------
    MCResult
    """
    problem = check_data_problem(problem)
    theta1 = check_theta1(theta1, problem.dim)
    etas, scales = check_steps(etas, noise_stds)
    batch = check_int("batch", batch)
    clip = check_clip(clip)
    beta = None if beta is None else _check_beta(beta)
    runs, seed = check_runs(runs, seed, chunk_runs, workers)
    statistic = check_statistic(statistic, problem)
    T = len(scales)
    block_cost = BLOCK * max(T, 1) * problem.dim * (2 * batch + 1)

    if use_fused(fast_path) and linear_fusable(problem):
        X, y, sqn, nsamp, kind, lam, normaliser, ridge = linear_pack([problem])
        args = (f64(theta1), X[0], y[0], sqn[0], int(nsamp[0]), int(kind[0]), float(lam[0]),
                float(normaliser[0]), float(ridge[0]), clip_arg(clip), f64(etas),
                f64(scales), batch, *momentum_args(beta, T))

        def kernel(b0, b1, start, stop, theta):
            _kernels.linear_sgd(block_states(seed, b0, b1), block_states(seed, b0, b1, 0),
                                stop - start, *args, theta)
            return None
    else:
        def kernel(b0, b1, start, stop, theta):
            theta[...] = theta1
            _psgd_chunk(problem, theta, etas, scales, batch, beta, clip, seed, start,
                        list(range(b0, b1)))
            return None

    return run_mc(kernel, problem.dim, runs, chunk_runs, workers, seed, T, statistic,
                   progress, "psgd", return_thetas, block_cost)
