"""Output perturbation: gradient descent run to the end, then noise added once.

The algorithm::

    w_{t+1} = w_t - eta_t grad F(w_t),   t = 0..T-1      (full gradients, deterministic)
    w_priv  = w_T + z,

with ``z`` one of

* ``"norm_laplace"``: density proportional to ``exp(-||z||_2 / b)`` on R^D (the eps-DP noise of
  output perturbation with ``b = Delta / eps``), sampled *exactly*: the radius ``||z||`` has
  density proportional to ``r^(D-1) e^(-r/b)``, i.e. it is Gamma(D, b) distributed, and the
  direction is uniform on the sphere (a normalised standard Gaussian), independent of it;
  ``E||z||^2 = D (D + 1) b^2`` and ``E||z|| = D b`` (:func:`norm_laplace_moments`);
* ``"gaussian"``: ``N(0, s^2 I_D)`` (density proportional to ``exp(-||z||^2 / (2 s^2))``),
  ``E||z||^2 = D s^2``.

Randomness follows :mod:`dpverify.sim.rng`: block ``b`` of ``BLOCK`` runs draws its noise from
``block_rng(seed, b)`` (for norm-Laplace: the Gamma radii, then the Gaussian directions), and
per-run statistics are reduced per block and combined in block order, so results are
bit-identical for every ``chunk_runs``. Gradient descent is run once (it is the same for every run).
"""
from __future__ import annotations

from collections.abc import Callable

import mpmath
import numpy as np

from .validation import check_array, check_int, check_real, check_seed
from .algorithms import gd
from .problems import Problem
from .results import MCResult, block_moments
from .rng import block_rng, block_slices, iter_chunks

__all__ = ["NOISES", "add_noise", "norm_laplace", "norm_laplace_moments", "output_perturbation",
           "output_perturbation_quadratic_excess"]

NOISES = ("norm_laplace", "gaussian")


def _check_noise(noise: str) -> str:
    if noise not in NOISES:
        raise ValueError(f"noise must be one of {NOISES}, got {noise!r}")
    return noise


def norm_laplace(rng: np.random.Generator, rows: int, dim: int, scale: float) -> np.ndarray:
    """``rows`` exact draws of the density proportional to ``exp(-||z||_2 / scale)`` on R^dim.

    Radius Gamma(dim, scale), direction uniform (normalised Gaussian), drawn in that order.
    """
    rows = check_int("rows", rows, minimum=0)
    dim = check_int("dim", dim)
    scale = check_real("scale", scale, nonnegative=True)
    r = rng.gamma(dim, 1.0, size=rows) * scale
    u = rng.standard_normal((rows, dim))
    nrm = np.linalg.norm(u, axis=1, keepdims=True)
    np.maximum(nrm, np.finfo(float).tiny, out=nrm)
    u /= nrm
    u *= r[:, None]
    return u


def add_noise(rng: np.random.Generator, rows: int, dim: int, noise: str, scale: float) -> np.ndarray:
    """Noise of output perturbation: ``"norm_laplace"`` (scale ``b``) or ``"gaussian"`` (std ``s``)."""
    noise = _check_noise(noise)
    if noise == "norm_laplace":
        return norm_laplace(rng, rows, dim, scale)
    scale = check_real("scale", scale, nonnegative=True)
    return rng.standard_normal((rows, dim)) * scale


def norm_laplace_moments(dim: int, scale, dps: int | None = None):
    """``(E||z||, E||z||^2) = (D b, D (D + 1) b^2)`` for the density proportional to ``exp(-||z||/b)``
    (Gamma(D, b) radius); in mpmath when ``dps`` is given."""
    dim = check_int("dim", dim)
    if dps is None:
        b = check_real("scale", scale, nonnegative=True)
        return dim * b, dim * (dim + 1) * b * b
    with mpmath.workdps(dps):
        b = mpmath.mpf(scale)
        return dim * b, dim * (dim + 1) * b * b


def _second_moment(noise: str, dim: int, scale, dps=None):
    if noise == "norm_laplace":
        return norm_laplace_moments(dim, scale, dps)[1]
    if dps is None:
        return dim * float(scale) ** 2
    with mpmath.workdps(dps):
        return dim * mpmath.mpf(scale) ** 2


def output_perturbation(problem: Problem, theta0: object, etas: object, T: int, noise: str, scale: float,
                        runs: int, seed: int, chunk_runs: int = 65536,
                        statistic: Callable[[np.ndarray], np.ndarray] | None = None, *,
                        return_thetas: bool = False) -> MCResult:
    """Monte Carlo of a statistic of ``w_priv = w_T + z`` (module docstring).

    Parameters
    ----------
    problem : Problem
    theta0 : array_like, shape (D,)
        Starting point ``w_0``.
    etas : float or array_like, shape (T,)
        Step sizes.
    T : int
        Gradient steps (``>= 0``).
    noise : {"norm_laplace", "gaussian"}
    scale : float
        ``b`` of the norm-Laplace density, or the Gaussian's standard deviation.
    runs, seed, chunk_runs, return_thetas
        As in :func:`~dpverify.sim.algorithms.pgd` (results do not depend on ``chunk_runs``).
    statistic : callable, optional
        ``statistic(w_priv)`` on ``(rows, D)`` -> ``(rows,)``; default ``problem.excess``.

    Returns
    -------
    MCResult
        ``steps`` is ``T``.
    """
    if not isinstance(problem, Problem):
        raise ValueError(f"problem must be a dpverify.sim Problem, got {problem!r}")
    theta0 = check_array("theta0", theta0, shape=(problem.dim,))
    T = check_int("T", T, minimum=0)
    noise = _check_noise(noise)
    scale = check_real("scale", scale, nonnegative=True)
    runs = check_int("runs", runs)
    seed = check_seed(seed)
    check_int("chunk_runs", chunk_runs)
    stat = problem.excess if statistic is None else statistic
    if not callable(stat):
        raise ValueError(f"statistic must be callable or None, got {statistic!r}")
    w_T = gd(problem, theta0, etas, T)
    dim = problem.dim
    out = np.empty((runs, dim)) if return_thetas else None
    sums: list[tuple] = []
    for start, stop, blocks in iter_chunks(runs, chunk_runs):
        for b, sl in zip(blocks, block_slices(start, stop)):
            rows = sl.stop - sl.start
            w = add_noise(block_rng(seed, b), rows, dim, noise, scale)
            w += w_T
            if out is not None:
                out[start + sl.start: start + sl.stop] = w
            sums.append(block_moments(stat(w), rows))
    return MCResult.from_block_moments(sums, seed=seed, steps=T, thetas=out)


def output_perturbation_quadratic_excess(eigs, theta_star, theta0, etas, T: int, noise: str, scale,
                                         dps: int | None = None):
    """Exact ``E F(w_T + z) - F*`` on ``F(w) = F* + 1/2 sum_i eigs_i (w_i - w*_i)^2``.

    GD contracts each coordinate by ``1 - eta_t eigs_i``; the isotropic noise adds
    ``sum_i eigs_i E[z_i^2] / 2 = (sum_i eigs_i) E||z||^2 / (2 D)``. Double precision, or mpmath
    at ``dps`` digits.
    """
    noise = _check_noise(noise)
    T = check_int("T", T, minimum=0)
    dim = len(eigs)
    constant = not np.ndim(etas)
    if dps is None:
        lam = np.asarray(eigs, dtype=float)
        e = np.asarray(theta0, dtype=float) - np.asarray(theta_star, dtype=float)
        if constant:
            e = e * (1.0 - float(etas) * lam) ** T
        else:
            for eta in np.broadcast_to(np.asarray(etas, dtype=float), (T,)):
                e = e * (1.0 - eta * lam)
        return float(0.5 * lam @ (e * e) + lam.sum() * _second_moment(noise, dim, scale) / (2 * dim))
    with mpmath.workdps(dps):
        lam = [mpmath.mpf(x) for x in eigs]
        e = [mpmath.mpf(a) - mpmath.mpf(b) for a, b in zip(theta0, theta_star)]
        if constant:
            eta = mpmath.mpf(etas)
            e = [x * (1 - eta * li) ** T for x, li in zip(e, lam)]
        for eta in ([] if constant else list(etas)):
            eta = mpmath.mpf(eta)
            e = [x * (1 - eta * li) for x, li in zip(e, lam)]
        return (mpmath.fsum(li * x * x for li, x in zip(lam, e)) / 2
                + mpmath.fsum(lam) * _second_moment(noise, dim, scale, dps) / (2 * dim))
