"""Polyak's heavy-ball momentum, an update rule.

From ``theta_0 = theta_1``, for ``t = 1..T``::

    theta_{t+1} = theta_t - eta_t (grad f(theta_t) + s_t z_t) + beta (theta_t - theta_{t-1}),

``z_t ~ N(0, I_D)``, ``s_t`` the noise standard deviation per coordinate. The momentum may change from
step to step (``beta`` a schedule: step-decay SGD's early momentum is heavy ball with ``beta_t = rho`` for
the first steps of a phase and 0 after); a step with ``beta_t = 0`` is the plain step bit for bit (the
push ``beta_t (theta_t - theta_{t-1})`` is not added).

Exact moments on a diagonal quadratic
-------------------------------------
On ``f = f* + 1/2 sum_i lam_i d_i^2`` (``d = theta - theta*``) each coordinate's state
``x_t = (d_t, d_{t-1})`` evolves as ``x_{t+1} = A_t x_t + b_t z`` with

    A_t = [[1 + beta - eta_t lam, -beta],
           [1,                     0   ]],    b_t = [-eta_t s_t, 0],

so the mean propagates as ``mu' = A_t mu`` and the covariance as ``S' = A_t S A_t^T + b_t b_t^T``
from ``mu_1 = (d_1, d_1)``, ``S_1 = 0``; ``d_{T+1}`` is Gaussian, and the statistics follow as for
plain noisy GD (:mod:`dpverify.sim.moments`). With ``eta = 4/(sqrt(M) + sqrt(mu))^2`` and
``beta = ((sqrt(M) - sqrt(mu))/(sqrt(M) + sqrt(mu)))^2`` (Polyak's parameters) the noise-free
iteration on a spectrum in ``[mu, M]`` contracts like ``(sqrt(kappa) - 1)/(sqrt(kappa) + 1)`` per step
(up to a factor linear in T: ``A_t`` has a double eigenvalue at the spectrum's ends).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np

from ..moments_mp import heavy_ball_moments_mp
from ..validation import check_array, check_beta, check_quadratic_inputs
from .base import UpdateRule

__all__ = ["HeavyBall", "propagate"]


@dataclass(frozen=True)
class HeavyBall(UpdateRule):
    """Polyak's heavy ball: ``theta_{t+1} = theta_t - eta_t g_t + beta_t (theta_t - theta_{t-1})`` from
    ``theta_0 = theta_1`` (module docstring); ``beta`` a number in ``[0, 1)`` or one per step.

    >>> HeavyBall(0.5).step(1.0, 0.5, 0.5, 0.5, 0.5, 0.0)
    (1.0, 1.0)
    """

    beta: Any = 0.9
    CODE = 2
    STATE = 2
    AUX_FROM_THETA = True
    SCENARIO_PARAMS = {"beta": "momentum"}
    name = "heavy-ball momentum"

    def __post_init__(self):
        if np.ndim(self.beta) == 1:
            check_array("beta", self.beta, ndim=1, nonnegative=True)
            if not all(float(b) < 1.0 for b in self.beta):
                raise ValueError(f"beta must be in [0, 1) at every step, got {self.beta!r}")
        elif isinstance(self.beta, (int, float, np.integer, np.floating)) and not isinstance(self.beta, bool):
            check_beta(self.beta)

    def check(self, T):
        if np.ndim(self.beta) != 1:
            check_beta(self.beta)
        elif len(self.beta) < T:
            raise ValueError(f"beta must give one momentum per step (T = {T}), got {len(self.beta)}")

    @staticmethod
    def step(th, aux, g, eta, pa, pb):
        """``pa = beta_t``; ``aux`` is the previous iterate."""
        if pa != 0.0:
            return (th - g * eta) + pa * (th - aux), th
        return th - g * eta, th

    def summary(self):
        return f" beta={float(self.beta):.3g} (heavy ball)"

    def params_at(self, t):
        return (float(self.beta[t - 1]) if np.ndim(self.beta) == 1 else float(self.beta)), 0.0

    def transition(self, eta, t):
        b = self.params_at(t)[0]
        return np.array([[1.0 + b, -b], [1.0, 0.0]]), np.array([-float(eta), 0.0])

    def quadratic_moments(self, eigs, delta1, etas, noise_stds, dps=None):
        if dps is not None:
            with mpmath.workdps(dps):
                lam, m, s2 = heavy_ball_moments_mp(eigs, delta1, etas, noise_stds, self.beta)
                return lam, m, s2, None
        lam, m, s2 = propagate(np.asarray(eigs), np.asarray(delta1), np.asarray(etas), np.asarray(noise_stds),
                               float(self.beta))
        return np.asarray(lam[0]), np.asarray(m[0]), np.asarray(s2[0]), None


def propagate(eigs, theta1, etas, noise_stds, beta, theta_star=None):
    """Mean ``m`` and variance ``s2`` of ``d_{T+1}``, both of shape ``(P, D)``, and the eigenvalues."""
    eigs, delta1, etas, _ = check_quadratic_inputs(eigs, theta1, etas, noise_stds, theta_star)
    s = check_quadratic_inputs(eigs, delta1, 1.0, noise_stds, None)[3]
    beta = check_beta(beta)
    P, dim, T = eigs.shape[0], eigs.shape[1], etas.shape[1]
    lam = np.broadcast_to(eigs, (P, dim))
    etas, s = np.broadcast_to(etas, (P, T)), np.broadcast_to(s, (P, T))
    mx = np.array(np.broadcast_to(delta1, (P, dim)), dtype=np.float64)   # E d_t
    mp = mx.copy()                                                       # E d_{t-1}
    sxx, sxp, spp = np.zeros((P, dim)), np.zeros((P, dim)), np.zeros((P, dim))
    for t in range(T):
        eta = etas[:, t:t + 1]
        a11 = 1.0 + beta - eta * lam
        b1 = eta * s[:, t:t + 1]
        mx, mp = a11 * mx - beta * mp, mx
        sxx, sxp, spp = (a11 * a11 * sxx - 2.0 * a11 * beta * sxp + beta * beta * spp + b1 * b1,
                         a11 * sxx - beta * sxp, sxx)
    return lam, mx, np.maximum(sxx, 0.0)
