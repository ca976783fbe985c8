"""Bias-corrected momentum, an update rule: it post-processes the noisy gradient
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

from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np

from ..moments_mp import momentum_moments_mp
from ..validation import check_array, check_beta, check_quadratic_inputs
from .base import UpdateRule

__all__ = ["BiasCorrectedMomentum", "propagate"]


@dataclass(frozen=True)
class BiasCorrectedMomentum(UpdateRule):
    """Bias-corrected momentum (Adam's first moment), ``beta`` in ``[0, 1)``: ``v_{t+1} = beta v_t + (1 - beta)
    g_t``, ``theta_{t+1} = theta_t - eta_t v_{t+1} / (1 - beta^t)`` from ``v_1 = 0`` (module docstring).
    ``beta = 0`` is the plain step bit for bit (``0 * v + 1 * g == g``, ``v / 1 == v``).

    >>> rule = BiasCorrectedMomentum(0.5)
    >>> rule.step(1.0, 0.0, 0.5, 0.1, *rule.params_at(1))
    (0.95, 0.25)
    """

    beta: Any = 0.9
    CODE = 1
    STATE = 2
    SCENARIO_PARAMS = {"beta": "momentum"}
    OBSERVABLES = ("velocity_sq",)
    name = "bias-corrected momentum"

    def __post_init__(self):
        if _is_number(self.beta):
            check_beta(self.beta)

    def check(self, T):
        check_beta(self.beta)

    @staticmethod
    def step(th, aux, g, eta, pa, pb):
        """``pa = beta``, ``pb = 1 - beta^t``; ``aux`` is the moving average ``v``."""
        v = aux * pa + g * (1.0 - pa)
        return th - (v / pb) * eta, v

    def summary(self):
        return f" beta={float(self.beta):.3g}"

    def params_at(self, t):
        beta = float(self.beta)
        return beta, 1.0 - beta ** t

    def transition(self, eta, t):
        b = float(self.beta)
        k = float(eta) / (1.0 - b ** t)
        return np.array([[1.0, -k * b], [0.0, b]]), np.array([-k * (1.0 - b), 1.0 - b])

    def quadratic_moments(self, eigs, delta1, etas, noise_stds, dps=None):
        if dps is not None:
            with mpmath.workdps(dps):
                return momentum_moments_mp(eigs, delta1, etas, noise_stds, self.beta)
        rec: list = []
        lam, m, s2 = propagate(np.asarray(eigs), np.asarray(delta1), np.asarray(etas), np.asarray(noise_stds),
                               float(self.beta), None, record=rec)
        return np.asarray(lam[0]), np.asarray(m[0]), np.asarray(s2[0]), [float(x[0]) for x in rec]


def _is_number(x) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool)


def _batched(eigs, theta1, etas, noise_stds, theta_star) -> bool:
    """Whether any input other than ``beta`` carries a parameter-point axis."""
    return (np.ndim(eigs) == 2 or np.ndim(theta1) == 2 or np.ndim(noise_stds) == 2
            or np.ndim(etas) == 2 or (theta_star is not None and np.ndim(theta_star) == 2))


def propagate(eigs, theta1, etas, noise_stds, beta, theta_star=None, record=None):
    """Eigenvalues, mean ``m`` and variance ``s^2`` of ``delta_{T+1}``, each of shape ``(P, D)``, from the
    inputs of :func:`~dpverify.sim.moments.momentum_quadratic_mean_var` (each may carry a point axis).

    With a list ``record``, ``E||v_{t+1}||^2`` (shape ``(P,)``) is appended after every step t.
    """
    batched = _batched(eigs, theta1, etas, noise_stds, theta_star)
    eigs, delta1, etas, _ = check_quadratic_inputs(eigs, theta1, etas, noise_stds, theta_star)
    # Same validation again with eta = 1: c = 1 * s_t = s_t exactly, broadcast to (P, T).
    s = check_quadratic_inputs(eigs, delta1, 1.0, noise_stds, None)[3]
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
