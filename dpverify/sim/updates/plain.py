"""The plain step: ``theta_{t+1} = theta_t - eta_t g_t`` (noisy gradient descent with the gradient as it
comes, no state of its own).

Exact moments on a diagonal quadratic ``f = f* + 1/2 sum_i lam_i d_i^2`` (``d = theta - theta*``): each
direction's ``d_{t+1} = a_t d_t - eta_t s_t z`` with ``a_t = 1 - eta_t lam_i``, so its mean and variance
propagate as ``m <- a m`` and ``s2 <- a^2 s2 + (eta_t s_t)^2`` (the vectorised form over parameter points
is :func:`dpverify.sim.moments.pgd_quadratic_mean_var`).
"""
from __future__ import annotations

from dataclasses import dataclass

import mpmath
import numpy as np

from ..moments_mp import gd_moments_mp
from .base import UpdateRule

__all__ = ["Plain"]


@dataclass(frozen=True)
class Plain(UpdateRule):
    """``theta_{t+1} = theta_t - eta_t g_t``.

    >>> Plain.step(1.0, 0.0, 0.5, 0.1, 0.0, 0.0)
    (0.95, 0.0)
    """

    CODE = 0
    name = "plain"

    @staticmethod
    def step(th, aux, g, eta, pa, pb):
        return th - g * eta, aux

    def transition(self, eta, t):
        return np.array([[1.0]]), np.array([-float(eta)])

    def quadratic_moments(self, eigs, delta1, etas, noise_stds, dps=None):
        if dps is not None:
            with mpmath.workdps(dps):
                lam, m, s2 = gd_moments_mp(eigs, delta1, etas, noise_stds)
                return lam, m, s2, None
        lam = np.asarray(eigs, float)
        m = np.asarray(delta1, float).copy()
        s2 = np.zeros_like(m)
        for eta, sd in zip(np.asarray(etas), np.asarray(noise_stds)):
            a = 1.0 - eta * lam
            m *= a
            s2 = a * a * s2 + (eta * sd) ** 2
        return lam, m, s2, None
