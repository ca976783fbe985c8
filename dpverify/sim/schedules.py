"""Noise schedules ``sigma_1, ..., sigma_T`` for private gradient descent.

Every function returns the noise **scales** ``sigma_t`` (not the variances
``sigma_t^2``) as a 1-d float array whose entry ``t - 1`` is step ``t``.
The privacy cost of step ``t`` is ``rho_t = 1 / sigma_t^2`` and a schedule
spends a zCDP budget ``R`` when ``sum_t sigma_t^{-2} = R``.
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from ._validate import check_array, check_int, check_real

__all__ = [
    "uniform",
    "dynamic",
    "pgd_influence",
    "dynamic_pgd",
    "exponential",
    "exponential_for_budget",
    "total_cost",
]


def total_cost(sigmas: object) -> float:
    """Return ``sum_t sigma_t^{-2}``, the zCDP budget a schedule spends."""
    sigmas = check_array("sigmas", sigmas, ndim=1, positive=True)
    return float(np.sum(1.0 / (sigmas * sigmas)))


def uniform(T: int, R: float) -> np.ndarray:
    """Uniform schedule ``sigma_t^2 = T / R`` (the same noise at every step).

    Parameters
    ----------
    T : int
        Number of steps (positive).
    R : float
        Privacy budget (positive, finite).

    Returns
    -------
    ndarray, shape (T,)
        ``sigma_t = sqrt(T / R)`` for every step.
    """
    T = check_int("T", T)
    R = check_real("R", R, positive=True)
    return np.full(T, np.sqrt(T / R))


def dynamic(q: object, R: float) -> np.ndarray:
    """Budget-optimal schedule for influences *q*.

    Minimises ``sum_t q_t sigma_t^2`` subject to ``sum_t sigma_t^{-2} = R``:
    ``sigma_t^2 = (sum_s sqrt(q_s)) / (R sqrt(q_t))``.

    Parameters
    ----------
    q : array_like, shape (T,)
        Positive finite influences.
    R : float
        Privacy budget (positive, finite).

    Returns
    -------
    ndarray, shape (T,)
        ``sigma_t``.
    """
    q = check_array("q", q, ndim=1, positive=True)
    R = check_real("R", R, positive=True)
    root = np.sqrt(q)
    return np.sqrt(root.sum() / (R * root))


def pgd_influence(kappa: float, alpha: float, T: int) -> np.ndarray:
    """Influence of step-``t`` noise on the final excess risk of noisy gradient descent.

    ``q_t = gamma^(T - t) * alpha`` with ``gamma = 1 - 1/kappa``, ``t = 1..T``.

    Parameters
    ----------
    kappa : float
        Condition number ``M / mu >= 1``.
    alpha : float
        Positive scale of the influences (it cancels in :func:`dynamic_pgd`).
    T : int
        Number of steps.

    Returns
    -------
    ndarray, shape (T,)
        ``q_t`` (zero for ``t < T`` when ``kappa == 1``).
    """
    kappa = check_real("kappa", kappa, minimum=1.0)
    alpha = check_real("alpha", alpha, positive=True)
    T = check_int("T", T)
    gamma = 1.0 - 1.0 / kappa
    t = np.arange(1, T + 1)
    return alpha * gamma ** (T - t).astype(np.float64)


def dynamic_pgd(kappa: float, alpha: float, R: float, T: int) -> np.ndarray:
    """Dynamic schedule for noisy GD, ``dynamic(pgd_influence(kappa, alpha, T), R)``.

    Requires ``kappa > 1`` (for ``kappa == 1`` all influences but the last
    vanish and the optimal ``sigma_t`` is infinite).  ``alpha`` cancels.
    """
    kappa = check_real("kappa", kappa, minimum=1.0, strict_minimum=True)
    return dynamic(pgd_influence(kappa, alpha, T), R)


def exponential(sigma0: float, k: float, T: int) -> np.ndarray:
    """Exponentially decaying schedule ``sigma_t = sigma0 exp(-k t)``, ``t = 1..T``.

    The exponential-decay baseline schedule.

    Parameters
    ----------
    sigma0 : float
        Positive scale.
    k : float
        Decay rate (finite; negative values give growth).
    T : int
        Number of steps.
    """
    sigma0 = check_real("sigma0", sigma0, positive=True)
    k = check_real("k", k)
    T = check_int("T", T)
    return sigma0 * np.exp(-k * np.arange(1, T + 1, dtype=np.float64))


def exponential_for_budget(k: float, T: int, R: float) -> np.ndarray:
    """Exponential schedule ``sigma0 exp(-k t)`` with ``sigma0`` set so ``sum_t sigma_t^{-2} = R``.

    ``sigma0^2 = (sum_t exp(2 k t)) / R``, evaluated in log space
    (``logsumexp``) so large ``k T`` does not overflow.

    Parameters
    ----------
    k : float
        Decay rate (finite).
    T : int
        Number of steps.
    R : float
        Privacy budget (positive).
    """
    k = check_real("k", k)
    T = check_int("T", T)
    R = check_real("R", R, positive=True)
    t = np.arange(1, T + 1, dtype=np.float64)
    log_sigma0 = 0.5 * (logsumexp(2.0 * k * t) - np.log(R))
    return np.exp(log_sigma0 - k * t)
