"""Noisy (private) gradient descent with bias-corrected momentum.

Bias-corrected momentum post-processes the noisy gradient
``g_t = grad f(theta_t) + s_t nu_t`` (``s_t`` the noise standard deviation) with

    phi(m_t, g_t) = [beta (1 - beta^(t-1)) m_t + (1 - beta) g_t] / (1 - beta^t),
    m_2 = g_1,

and steps ``theta_{t+1} = theta_t - eta_t m_{t+1}``.  The same recursion
through the biased moving average ``v`` (Adam's first moment) reads:

    v_1 = 0,   v_{t+1} = beta v_t + (1 - beta) g_t,   m_{t+1} = v_{t+1} / (1 - beta^t).

Equivalence (the form used here): for ``t >= 2`` the bias correction of the
previous step gives ``v_t = (1 - beta^(t-1)) m_t``, so

    v_{t+1} / (1 - beta^t) = [beta (1 - beta^(t-1)) m_t + (1 - beta) g_t] / (1 - beta^t)
                           = phi(m_t, g_t),

and for ``t = 1``: ``v_2 = (1 - beta) g_1`` so ``m_2 = v_2 / (1 - beta) = g_1``
(the factor ``1 - beta^0 = 0`` also kills the ``m_1`` term of ``phi``).
``tests/engine/test_sim_momentum.py`` checks the two recursions agree numerically.

``beta = 0`` gives ``v_{t+1} = m_{t+1} = g_t``: plain noisy gradient descent.
The simulator reuses the noise stream of :func:`~dpverify.sim.algorithms.pgd`
(block ``b`` draws ``nu_t`` of shape ``(rows, D)`` from
``block_rng(seed, b)``, step after step) and performs, for ``beta = 0``, the
very same floating-point operations as ``pgd`` on the same path
(``0 * v + 1 * g == g`` and ``v / 1 == v`` exactly):

* NumPy path: ``beta = 0`` reproduces ``pgd(..., fast_path=False)`` bit for
  bit;
* fused kernels: on a linear model ``beta = 0`` reproduces ``pgd`` bit for bit
  (same kernel); on a :class:`Quadratic` the momentum kernel works in theta
  form with the NumPy generic path's operations, so its iterates equal
  ``pgd(..., fast_path=False)`` bit for bit, while ``pgd``'s default diagonal
  kernel associates the arithmetic differently and agrees only to rounding.

Exact moments on a diagonal quadratic
-------------------------------------
On ``f = f* + 1/2 sum_i lam_i delta_i^2`` (``delta = theta - theta*``) each
coordinate's state ``x = (delta_i, v_i)`` evolves linearly with additive
Gaussian noise.  With ``k_t = eta_t / (1 - beta^t)`` and ``s_t`` the noise standard deviation:

    g        = lam delta + s_t nu
    v'       = (1 - beta) lam delta + beta v + (1 - beta) s_t nu
    delta'   = delta - k_t v'
             = (1 - k_t (1 - beta) lam) delta - k_t beta v - k_t (1 - beta) s_t nu

i.e. ``x' = A_t x + b_t nu`` with

    A_t = [[1 - k_t (1 - beta) lam,  -k_t beta],
           [(1 - beta) lam,           beta    ]],
    b_t = [-k_t (1 - beta) s_t, (1 - beta) s_t],

so the mean propagates as ``mu' = A_t mu`` and the covariance as
``S' = A_t S A_t^T + b_t b_t^T`` from ``mu_1 = (delta_1, 0)``, ``S_1 = 0``.
Coordinates stay independent and ``delta_i`` Gaussian, so with ``m_i`` and
``s_i^2`` the mean and variance of ``delta_{T+1,i}``:

    E[f(theta_{T+1})] - f* = 1/2 sum_i lam_i (m_i^2 + s_i^2),
    Var[f(theta_{T+1})]    = sum_i lam_i^2 / 4 (2 s_i^4 + 4 s_i^2 m_i^2)

(the Gaussian quadratic form of :mod:`dpverify.sim.moments`).  ``beta = 0``
gives ``A = [[1 - eta lam, 0], [lam, 0]]``: the PGD recursion of
:func:`~dpverify.sim.moments.pgd_quadratic_mean_var`.
"""

from __future__ import annotations

import numpy as np

from .driver import Statistic, run_mc
from .algorithms import _generic_chunk
from .fused import use_fused, linear_cost, linear_fusable, linear_gd_task, quadratic_theta_task
from .arguments import check_noisy_gd
from .validation import check_array, check_real, check_statistic
from .moments import _prepare
from .results import MCResult
from .problems import Problem, Quadratic
from .rng import BLOCK

__all__ = ["momentum_pgd", "momentum_quadratic_moments", "momentum_quadratic_mean_var"]


# --------------------------------------------------------------------------- #
# Shared helpers (also used by dpverify.sim.sgd)
# --------------------------------------------------------------------------- #


def _check_beta(beta: object) -> float:
    """Return *beta* as a float in ``[0, 1)``."""
    beta = check_real("beta", beta, nonnegative=True)
    if not beta < 1.0:
        raise ValueError(f"beta must be in [0, 1), got {beta!r}")
    return beta


# --------------------------------------------------------------------------- #
# Monte Carlo
# --------------------------------------------------------------------------- #


def momentum_pgd(problem: Problem, theta1: object, etas: object, noise_stds: object, beta: float,
                 runs: int, seed: int, chunk_runs: int = 65536,
                 clip: float | None = None, statistic: Statistic | None = None,
                 progress: bool = False, *, return_thetas: bool = False,
                 fast_path: bool = True, workers: int | None = None) -> MCResult:
    """Monte Carlo estimate of a statistic of noisy gradient descent with momentum.

    Runs, for ``t = 1..T`` from ``theta_1 = theta1`` and ``v_1 = 0``::

        g_t      = grad f(theta_t) + s_t nu_t,     s_t = noise_stds[t],
        v_{t+1}  = beta v_t + (1 - beta) g_t,
        m_{t+1}  = v_{t+1} / (1 - beta^t),
        theta_{t+1} = theta_t - eta_t m_{t+1},

    which equals the recursion ``m_{t+1} = phi(m_t, g_t)`` with ``m_2 = g_1``
    (see the module docstring).  With *clip*, per-sample gradients are clipped
    to norm ``clip`` (the noise stays *noise_stds*).

    Parameters
    ----------
    beta : float
        Momentum coefficient in ``[0, 1)``; ``beta = 0`` is plain noisy GD and
        reproduces :func:`~dpverify.sim.algorithms.pgd` (same seed) bit for
        bit on the same path (see the module docstring).
    problem, theta1, etas, noise_stds, runs, seed, chunk_runs, clip, statistic, progress, \
return_thetas, workers
        As in :func:`~dpverify.sim.algorithms.pgd`.  Results are
        bit-identical for every ``chunk_runs`` and ``workers``.
    fast_path : bool, optional
        Use the fused kernel (numba) for a :class:`Quadratic` or a linear model
        (default); ``False`` forces the NumPy path.

    Returns
    -------
    MCResult
    """
    problem, theta1, etas, scales, clip, runs, seed = check_noisy_gd(
        problem, theta1, etas, noise_stds, clip, runs, seed, chunk_runs, workers)
    beta = _check_beta(beta)
    default_stat = statistic is None
    statistic = check_statistic(statistic, problem)
    T = len(scales)
    block_cost = BLOCK * problem.dim * max(T, 1)

    if use_fused(fast_path) and type(problem) is Quadratic:
        inner = quadratic_theta_task([problem], theta1, etas, scales, beta, seed, default_stat)
    elif use_fused(fast_path) and linear_fusable(problem):
        inner = linear_gd_task([problem], theta1, etas, scales, beta, clip, seed)
        block_cost = linear_cost([problem], max(T, 1))
    else:
        inner = None

    def kernel(b0, b1, start, stop, theta):
        if inner is not None:
            return inner(b0, b1, start, stop, theta[None])
        theta[...] = theta1
        _generic_chunk([problem], [theta], etas, scales, clip, seed, start, list(range(b0, b1)),
                       beta=beta)
        return None

    return run_mc(kernel, problem.dim, runs, chunk_runs, workers, seed, T, statistic,
                   progress, "momentum_pgd", return_thetas, block_cost)


# --------------------------------------------------------------------------- #
# Exact moments on diagonal quadratics
# --------------------------------------------------------------------------- #


def _batched(eigs, theta1, etas, noise_stds, theta_star) -> bool:
    """Whether any input other than ``beta`` carries a parameter-point axis."""
    return (np.ndim(eigs) == 2 or np.ndim(theta1) == 2 or np.ndim(noise_stds) == 2
            or np.ndim(etas) == 2 or (theta_star is not None and np.ndim(theta_star) == 2))


def _momentum_propagate(eigs, theta1, etas, noise_stds, beta, theta_star, record=None):
    """Mean ``m`` and variance ``s^2`` of ``delta_{T+1}``, both of shape ``(P, D)``.

    With a list ``record``, ``E||v_{t+1}||^2`` (shape ``(P,)``) is appended after every step t.
    """
    batched = _batched(eigs, theta1, etas, noise_stds, theta_star)
    eigs, delta1, etas, _ = _prepare(eigs, theta1, etas, noise_stds, theta_star)
    # Same validation again with eta = 1: c = 1 * s_t = s_t exactly, broadcast to (P, T).
    s = _prepare(eigs, delta1, 1.0, noise_stds, None)[3]
    beta_arr = check_array("beta", beta, ndim=(0, 1), nonnegative=True)
    if not (beta_arr < 1.0).all():
        raise ValueError(f"beta must be in [0, 1) entry-wise, got {beta!r}")
    P = eigs.shape[0]
    if beta_arr.ndim == 1 and beta_arr.shape[0] != P:
        if P == 1 and not batched:
            P = beta_arr.shape[0]
        else:
            raise ValueError(f"beta must have {P} parameter points like the other inputs, "
                             f"got {beta_arr.shape[0]}")
    dim, T = eigs.shape[1], etas.shape[1]
    lam = np.broadcast_to(eigs, (P, dim))
    beta_p = np.broadcast_to(beta_arr, (P,))[:, None].astype(np.float64)  # (P, 1)
    etas = np.broadcast_to(etas, (P, T))
    s = np.broadcast_to(s, (P, T))
    one_m = 1.0 - beta_p

    mx = np.array(np.broadcast_to(delta1, (P, dim)), dtype=np.float64)  # E delta
    mv = np.zeros((P, dim))                                              # E v
    sxx = np.zeros((P, dim))
    sxv = np.zeros((P, dim))
    svv = np.zeros((P, dim))
    a21 = one_m * lam
    a22 = beta_p
    for t in range(T):
        k = etas[:, t:t + 1] / (1.0 - beta_p ** (t + 1))                # (P, 1)
        a11 = 1.0 - k * a21
        a12 = -k * beta_p
        b2 = one_m * s[:, t:t + 1]
        b1 = -k * b2
        mx, mv = a11 * mx + a12 * mv, a21 * mx + a22 * mv
        sxx, sxv, svv = (
            a11 * a11 * sxx + 2.0 * a11 * a12 * sxv + a12 * a12 * svv + b1 * b1,
            a11 * a21 * sxx + (a11 * a22 + a12 * a21) * sxv + a12 * a22 * svv + b1 * b2,
            a21 * a21 * sxx + 2.0 * a21 * a22 * sxv + a22 * a22 * svv + b2 * b2,
        )
        if record is not None:
            record.append((mv * mv + np.maximum(svv, 0.0)).sum(axis=1))
    return lam, mx, np.maximum(sxx, 0.0)


def momentum_quadratic_velocity(eigs, theta1, etas, noise_stds, beta, theta_star=None):
    """Exact ``E||v_{t+1}||^2`` for t = 1..T, shape ``(P, T)``.

    The velocity second moments of the same recursion as :func:`momentum_quadratic_mean_var`.
    """
    rec: list = []
    _momentum_propagate(eigs, theta1, etas, noise_stds, beta, theta_star, record=rec)
    return np.stack(rec, axis=1)


def momentum_quadratic_mean_var(eigs, theta1, etas, noise_stds, beta, theta_star=None):
    """Exact mean and variance of ``f(theta_{T+1}) - f*`` for noisy GD with momentum.

    Propagates the mean and 2x2 covariance of ``(theta_i - theta*_i, v_i)``
    per eigen-direction (module docstring), then uses the Gaussian quadratic
    form ``E = 1/2 sum_i lam_i (m_i^2 + s_i^2)``,
    ``Var = sum_i lam_i^2 / 4 (2 s_i^4 + 4 s_i^2 m_i^2)``.

    Parameters
    ----------
    eigs, theta1, etas, noise_stds, theta_star
        As in :func:`~dpverify.sim.moments.pgd_quadratic_mean_var` (each may
        carry a leading axis of ``P`` parameter points).
    beta : float or array_like, shape (P,)
        Momentum coefficient(s) in ``[0, 1)``.

    Returns
    -------
    mean, var : ndarray, shape (P,)
        ``P = 1`` when no input carries a point axis.
    """
    lam, m, s2 = _momentum_propagate(eigs, theta1, etas, noise_stds, beta, theta_star)
    mean = 0.5 * np.einsum("pd,pd->p", lam, m * m + s2)
    var = 0.25 * np.einsum("pd,pd->p", lam * lam, 2.0 * s2 * s2 + 4.0 * s2 * m * m)
    return mean, var


def momentum_quadratic_moments(eigs, theta1, etas, noise_stds, beta, theta_star=None) -> np.ndarray:
    """Exact expected excess risk ``E[f(theta_{T+1})] - f*`` of noisy GD with momentum.

    Arguments as in :func:`momentum_quadratic_mean_var`.

    Returns
    -------
    ndarray, shape (P,)
    """
    return momentum_quadratic_mean_var(eigs, theta1, etas, noise_stds, beta, theta_star)[0]
