"""[dni]'s noise schedules for noisy gradient descent under a zCDP budget ``R``.

* :func:`dynamic`: noise allocated to the influence ``q_t`` of each step, ``sigma_t^2 propto
  q_t^{-1/2}`` [dni, eq. (7)]; :func:`pgd_influence` the influence of step ``t`` on a PL problem and
  :func:`dynamic_pgd` the two together; :func:`dynamic_pgd_closed_form` its closed form on a
  quadratic with condition number ``kappa``;
* :func:`exponential` / :func:`exponential_for_budget`: the geometric baseline of Appendix D.

(Only this paper uses them, so they live here; the engine keeps :func:`dpverify.sim.uniform`.)
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from dpverify.sim.schedules import total_cost, uniform  # noqa: F401  (with the engine's, for one import)
from dpverify.sim.validation import check_array, check_int, check_real

__all__ = ["dynamic", "dynamic_pgd", "dynamic_pgd_closed_form", "exponential", "exponential_for_budget",
           "pgd_influence"]


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
    from scipy.special import logsumexp

    log_sigma0 = 0.5 * (logsumexp(2.0 * k * t) - np.log(R))
    return np.exp(log_sigma0 - k * t)
