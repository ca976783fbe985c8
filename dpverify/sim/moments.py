"""Exact moments of noisy (private) gradient descent on diagonal quadratics.

On ``f(theta) = f* + 1/2 sum_i lam_i (theta_i - theta*_i)^2`` noisy gradient
descent ``theta_{t+1} = theta_t - eta_t (grad f(theta_t) + s_t nu_t)`` is
linear with Gaussian noise, so each coordinate
of ``delta = theta - theta*`` stays Gaussian and coordinates stay
independent:

    delta_{t+1,i} = a_{t,i} delta_{t,i} - c_t nu_{t,i},
    a_{t,i} = 1 - eta_t lam_i,   c_t = eta_t s_t,

with ``s_t`` the noise standard deviation per coordinate (``noise_stds``).

Hence the mean ``m`` and variance ``s^2`` of each coordinate propagate as

    m_{t+1} = a_t m_t,    s^2_{t+1} = a_t^2 s^2_t + c_t^2,

(``s^2_1 = 0``), and ``v = E[delta^2] = m^2 + s^2`` obeys
``v_{t+1} = a_t^2 v_t + c_t^2``.  The excess risk
``f(theta_{T+1}) - f* = 1/2 sum_i lam_i delta_i^2`` then has

    E = 1/2 sum_i lam_i (m_i^2 + s_i^2),
    Var = sum_i lam_i^2 / 4 * Var(delta_i^2) = sum_i lam_i^2 / 4 (2 s_i^4 + 4 s_i^2 m_i^2),

using, for ``delta = m + s z`` with ``z ~ N(0, 1)``,
``Var(delta^2) = Var(2 m s z + s^2 z^2) = 4 m^2 s^2 + 2 s^4``
(``Cov(z, z^2) = 0``, ``Var(z^2) = 2``) and independence across coordinates.

All functions are vectorised over ``P`` parameter points.
"""

from __future__ import annotations

import numpy as np

from .validation import check_array

__all__ = ["pgd_quadratic_moments", "pgd_quadratic_variance", "pgd_quadratic_mean_var"]


def _points(arr: np.ndarray, batched_ndim: int) -> int | None:
    """Return the leading (point) length of a batched input, else ``None``."""
    return arr.shape[0] if arr.ndim == batched_ndim else None


def _prepare(eigs, theta1, etas, noise_stds, theta_star):
    """Validate inputs and broadcast them to ``(P, D)`` / ``(P, T)`` / ``(P,)``."""
    eigs = check_array("eigs", eigs, ndim=(1, 2), nonnegative=True)
    theta1 = check_array("theta1", theta1, ndim=(1, 2))
    noise_stds = check_array("noise_stds", noise_stds, ndim=(1, 2), nonnegative=True, nonempty=False)
    etas = check_array("etas", etas, ndim=(0, 1, 2), nonnegative=True, nonempty=False)
    dim, T = eigs.shape[-1], noise_stds.shape[-1]
    if theta1.shape[-1] != dim:
        raise ValueError(f"theta1 must have last dimension D={dim} (from eigs), got shape {theta1.shape}")
    if etas.ndim > 0 and etas.shape[-1] != T:
        raise ValueError(f"etas must be a scalar or have last dimension T={T} (from noise_stds), "
                         f"got shape {etas.shape}")
    if theta_star is None:
        theta_star = np.zeros(dim)
    theta_star = check_array("theta_star", theta_star, ndim=(1, 2))
    if theta_star.shape[-1] != dim:
        raise ValueError(f"theta_star must have last dimension D={dim}, got shape {theta_star.shape}")

    named = {
        "eigs": _points(eigs, 2), "theta1": _points(theta1, 2),
        "theta_star": _points(theta_star, 2),
        "noise_stds": _points(noise_stds, 2), "etas": _points(etas, 2),
    }
    sizes = [(k, v) for k, v in named.items() if v is not None]
    ref, P = sizes[0] if sizes else ("eigs", 1)
    for key, size in sizes:
        if size != P:
            raise ValueError(f"{key} must have {P} parameter points like {ref}, got {size}")
    if P == 0:
        raise ValueError(f"eigs must describe at least one parameter point, got P={P}")
    eigs = np.broadcast_to(eigs, (P, dim))
    delta1 = np.broadcast_to(theta1 - theta_star, (P, dim))
    etas = np.broadcast_to(etas if etas.ndim > 0 else np.full(T, float(etas)), (P, T))
    noise_stds = np.broadcast_to(noise_stds, (P, T))
    return eigs, delta1, etas, etas * noise_stds


def _propagate(eigs: np.ndarray, delta1: np.ndarray, etas: np.ndarray,
               c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return coordinate means ``m`` and variances ``s^2`` of ``theta_{T+1} - theta*``."""
    m = np.array(delta1, dtype=np.float64, copy=True)
    s2 = np.zeros_like(m)
    a = np.empty_like(m)
    c2 = np.ascontiguousarray((c * c).T)  # (T, P)
    etas_t = np.ascontiguousarray(etas.T)  # (T, P)
    for t in range(etas_t.shape[0]):
        np.multiply(etas_t[t][:, None], eigs, out=a)
        np.subtract(1.0, a, out=a)          # a_t = 1 - eta_t lam
        m *= a                              # m_{t+1} = a_t m_t
        a *= a
        s2 *= a                             # s2_{t+1} = a_t^2 s2_t + c_t^2
        s2 += c2[t][:, None]
    return m, s2


def pgd_quadratic_mean_var(eigs, theta1, etas, noise_stds, theta_star=None):
    """Exact mean and variance of ``f(theta_{T+1}) - f*`` of noisy gradient descent.

    Parameters
    ----------
    eigs : array_like, shape (D,) or (P, D)
        Non-negative Hessian eigenvalues.
    theta1 : array_like, shape (D,) or (P, D)
        Starting point.
    etas : float or array_like, shape (T,) or (P, T)
        Step sizes.
    noise_stds : array_like, shape (T,) or (P, T)
        Noise standard deviation per coordinate at each step (``T`` may be 0).
    theta_star : array_like, shape (D,) or (P, D), optional
        Minimiser (default origin).

    Returns
    -------
    mean, var : ndarray, shape (P,)
        ``P = 1`` when no input carries a point axis.
    """
    eigs, delta1, etas, c = _prepare(eigs, theta1, etas, noise_stds, theta_star)
    m, s2 = _propagate(eigs, delta1, etas, c)
    mean = 0.5 * np.einsum("pd,pd->p", eigs, m * m + s2)
    var = 0.25 * np.einsum("pd,pd->p", eigs * eigs, 2.0 * s2 * s2 + 4.0 * s2 * m * m)
    return mean, var


def pgd_quadratic_moments(eigs, theta1, etas, noise_stds, theta_star=None) -> np.ndarray:
    """Exact expected excess risk ``E[f(theta_{T+1})] - f*`` of noisy gradient descent.

    Propagates ``v = E[(theta - theta*)^2]`` coordinate-wise,
    ``v_{t+1} = a_t^2 v_t + (eta_t s_t)^2`` with
    ``a_t = 1 - eta_t lam``, and returns ``1/2 sum_i lam_i v_i``.
    Arguments as in :func:`pgd_quadratic_mean_var`.

    Returns
    -------
    ndarray, shape (P,)
    """
    eigs, delta1, etas, c = _prepare(eigs, theta1, etas, noise_stds, theta_star)
    v = np.array(delta1 * delta1, dtype=np.float64)
    a = np.empty_like(v)
    c2 = np.ascontiguousarray((c * c).T)
    etas_t = np.ascontiguousarray(etas.T)
    for t in range(etas_t.shape[0]):
        np.multiply(etas_t[t][:, None], eigs, out=a)
        np.subtract(1.0, a, out=a)
        a *= a
        v *= a
        v += c2[t][:, None]
    return 0.5 * np.einsum("pd,pd->p", eigs, v)


def pgd_quadratic_variance(eigs, theta1, etas, noise_stds, theta_star=None) -> np.ndarray:
    """Exact ``Var[f(theta_{T+1})]`` of noisy gradient descent on a diagonal quadratic.

    ``sum_i lam_i^2 / 4 (2 s_i^4 + 4 s_i^2 m_i^2)`` where ``m_i`` and
    ``s_i^2`` are the mean and variance of ``theta_{T+1,i} - theta*_i``
    (derivation in the module docstring).  Arguments as in
    :func:`pgd_quadratic_mean_var`.

    Returns
    -------
    ndarray, shape (P,)
    """
    return pgd_quadratic_mean_var(eigs, theta1, etas, noise_stds, theta_star)[1]
