"""DP-SGD and PIDP-SGD run on the paper's own E[min L_P] = O(1/n) family, their excess population risk exact.

The family (Remark 4's and Theorem 7's hypothesis "E[min L_P] = O(1/n)"): per-sample loss
``l(theta; y) = 1/2 ||theta - y||^2`` on R^m (L = mu = 1, so alpha = 1/L = 1 by default), the population's
coordinates y_j = +-s/sqrt(n) independently (so min L_P = m s^2/(2n); the claims take s = 1/sqrt(m)), a data
set of n draws. The algorithm
(eq. (1), Algorithm 1): T steps, each one sample J_t uniform on the data set, theta_{t+1} = theta_t - alpha
(grad l(theta_t; y_J) + g_J b_t), b_t ~ N(0, sigma^2 I_m), the gate g_J = 1 for DP-SGD and, for PIDP-SGD, only on
the k significant samples (probability k/n per step). Per coordinate, given the data set,
E[theta_t | D] = (1 - alpha)^(t-1) theta_1 + (1 - (1 - alpha)^(t-1)) ybar, hence with E[ybar] = 0 and
E[ybar^2] = s^2/n^2, exactly

    E theta_{t+1}^2 = (1 - alpha)^2 E theta_t^2 + 2 alpha (1 - alpha) (1 - (1 - alpha)^(t-1)) s^2/n^2
                      + alpha^2 (s^2/n + p sigma^2),      p = min(k/n, 1),

and the excess population risk is E[L_P(theta_{T+1})] - min L_P = (m/2) E theta_{T+1}^2.
"""
from __future__ import annotations

import math

import mpmath
import sympy as sp

from dpverify.numeric import Compiled
from dpverify.scenarios import Scenario


class PopulationRiskSGD(Scenario):
    """The scenario of the module docstring; every parameter an expression in the claim's symbols: ``n``, ``m``,
    ``noisy`` (k, or n for DP-SGD), ``sigma``, ``horizon`` (T), ``step`` (alpha), ``label_std`` (s), ``start``
    (theta_1 per coordinate). An instance is the claim's point."""

    name = "least squares 1/2 ||theta - y||^2, y_j = +-s/sqrt(n) (E[min L_P] = m s^2/(2n))"
    supports_exact = True

    def __init__(self, *, algorithm: str, **params):
        self.algorithm = algorithm
        self.params = {k: sp.sympify(v) for k, v in params.items()}
        self.fns = None

    def _on_bind(self) -> None:
        self.fns = {k: Compiled(v, self.claim) for k, v in self.params.items()}

    def exact_available(self, inst) -> bool:
        return True

    def exact(self, inst, dps=None):
        ctx = mpmath.workdps(dps or 15)
        with ctx:
            num = mpmath.mpf if dps else float
            at = {k: f(inst, dps or 30) for k, f in self.fns.items()}
            v = {k: num(mpmath.re(x)) for k, x in at.items()}
            n, m, k = v["n"], v["m"], v["noisy"]
            T = int(math.ceil(float(v["horizon"]) - 1e-12))
            a, s2, sig2 = v["step"], v["label_std"] ** 2, v["sigma"] ** 2
            if not (n >= 1 and m > 0 and k >= 0 and T >= 1 and 0 < a <= 1):
                raise ValueError(f"{self.algorithm}: parameters outside the family (n={n}, m={m}, k={k}, T={T}, alpha={a})")
            p = min(k / n, num(1))
            X = v["start"] ** 2
            q = num(1)                                     # (1 - alpha)^(t-1)
            for _ in range(T):
                X = (1 - a) ** 2 * X + 2 * a * (1 - a) * (1 - q) * s2 / n**2 + a * a * (s2 / n + p * sig2)
                q = q * (1 - a)
            return m * X / 2

    def describe(self, inst):
        return f"{self.algorithm} on {self.name}"


def population_risk_sgd(*, algorithm: str, **params) -> PopulationRiskSGD:
    return PopulationRiskSGD(algorithm=algorithm, **params)
