"""[dni]'s closed form of its dynamic noise schedule for noisy gradient descent.

The engine computes the schedule numerically (:func:`dpverify.sim.dynamic_pgd`: noise allocated
to the influence ``q_t`` of each step, ``sigma_t^2 propto q_t^{-1/2}``, spending a zCDP budget
``R``); [dni, eq. (7)] gives it in closed form on a quadratic with condition number ``kappa``.
"""
from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = ["dynamic_pgd_closed_form"]


def dynamic_pgd_closed_form(kappa: float, R: float, T: int) -> np.ndarray:
    """Closed form of the dynamic schedule for noisy GD (:func:`dpverify.sim.dynamic_pgd`).

    ``sigma_t^2 = gamma^((t - T)/2) (1 - gamma^(T/2)) / (R (1 - sqrt(gamma)))``
    with ``gamma = 1 - 1/kappa``.

    Parameters
    ----------
    kappa : float
        Condition number, ``> 1``.
    R : float
        Privacy budget (positive).
    T : int
        Number of steps (positive).

    Returns
    -------
    ndarray, shape (T,)
        ``sigma_t``.
    """
    real = (numbers.Real,)
    if isinstance(kappa, bool) or not isinstance(kappa, real) or not (math.isfinite(kappa) and kappa > 1):
        raise ValueError(f"kappa must be a finite real number > 1, got {kappa!r}")
    if isinstance(R, bool) or not isinstance(R, real) or not (math.isfinite(R) and R > 0):
        raise ValueError(f"R must be a positive finite real number, got {R!r}")
    if isinstance(T, bool) or not isinstance(T, numbers.Integral) or T < 1:
        raise ValueError(f"T must be a positive integer, got {T!r}")
    kappa, R, T = float(kappa), float(R), int(T)
    gamma = 1.0 - 1.0 / kappa
    t = np.arange(1, T + 1, dtype=np.float64)
    root = np.sqrt(gamma)
    var = gamma ** ((t - T) / 2.0) * (1.0 - gamma ** (T / 2.0)) / (R * (1.0 - root))
    return np.sqrt(var)
