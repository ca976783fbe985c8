"""Noise schedules ``sigma_1, ..., sigma_T`` for private gradient descent.

Every function returns the noise **scales** ``sigma_t`` (not the variances
``sigma_t^2``) as a 1-d float array whose entry ``t - 1`` is step ``t``.
The privacy cost of step ``t`` is ``rho_t = 1 / sigma_t^2`` and a schedule
spends a zCDP budget ``R`` when ``sum_t sigma_t^{-2} = R``.
"""

from __future__ import annotations

import numpy as np

from .validation import check_array, check_int, check_real

__all__ = [
    "uniform",
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


