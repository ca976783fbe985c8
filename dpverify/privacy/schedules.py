"""Privacy of noisy gradient descent under a noise schedule: per-step zCDP, composition, the
(eps, delta) it implies and the exact privacy profile.

Step ``t`` releases ``grad F(theta_t) + N(0, s_t^2 I)``; with ``Delta`` the L2 sensitivity of the
released gradient (``2L/N`` for the mean of per-sample gradients of norm at most ``L`` under
replace-one neighbours, ``L/N`` under remove-one with a fixed normaliser:
:func:`~.mechanisms.mean_gradient_sensitivity`) it is
a Gaussian mechanism with ``rho_t = Delta^2 / (2 s_t^2)`` [Bun & Steinke 2016, Prop. 1.6]; the
steps compose adaptively to ``rho = sum_t rho_t`` [ibid., Lemma 2.3], which implies
``(rho + 2 sqrt(rho ln(1/delta)), delta)``-DP [ibid., Prop. 1.3]. The composition of Gaussian
mechanisms is *exactly* one Gaussian mechanism with ``mu^2 = sum_t (Delta/s_t)^2 = 2 rho`` [Dong,
Roth & Su 2019, Cor. 3.3], so its exact privacy profile is Balle & Wang's (``exact_delta``).

Every function works in double precision, or in mpmath when an argument is an ``mpf``.
"""
from __future__ import annotations

import math
from typing import Sequence

import mpmath
import numpy as np

from .validation import check_delta, check_positive, uses_mpmath
from .gaussian import gaussian_delta_exact
from .zcdp import zcdp_to_dp

__all__ = ["schedule_zcdp", "schedule_epsilon", "exact_delta"]


def schedule_zcdp(noise_stds: Sequence, sensitivity) -> list:
    """Cumulative zCDP after each step: ``[rho_1, rho_1 + rho_2, ...]`` with ``rho_t = Delta^2/(2 s_t^2)``.

    In double precision the running sums are NumPy's and the total is ``math.fsum``'s (correctly rounded);
    with an ``mpf`` argument everything is accumulated in mpmath (20 guard digits)."""
    check_positive("sensitivity", sensitivity)
    for i, s in enumerate(noise_stds):
        check_positive(f"noise_stds[{i}]", s)
    if not len(noise_stds):
        return []
    if uses_mpmath(sensitivity, *noise_stds):
        out = []
        with mpmath.workdps(mpmath.mp.dps + 20):
            acc, d = mpmath.mpf(0), mpmath.mpf(sensitivity)
            for s in noise_stds:
                acc += (d / mpmath.mpf(s)) ** 2 / 2
                out.append(+acc)
        return out
    parts = (float(sensitivity) / np.asarray(noise_stds, dtype=float)) ** 2 / 2
    out = np.cumsum(parts).tolist()
    out[-1] = math.fsum(parts.tolist())
    return out


def schedule_epsilon(noise_stds: Sequence, sensitivity, delta) -> list:
    """``eps`` after each step from the composed zCDP: ``rho + 2 sqrt(rho ln(1/delta))``."""
    check_delta(delta)
    return [zcdp_to_dp(r, delta) for r in schedule_zcdp(noise_stds, sensitivity)]


def exact_delta(noise_stds: Sequence, sensitivity, eps) -> float:
    """Exact ``delta(eps)`` of the composed steps: the Gaussian mechanism with
    ``mu = sqrt(sum_t (Delta/s_t)^2)`` (Dong, Roth & Su; Balle & Wang's profile)."""
    rho = schedule_zcdp(noise_stds, sensitivity)[-1] if len(noise_stds) else 0.0
    if not rho:
        return 0.0
    return float(gaussian_delta_exact(float(eps), math.sqrt(2 * float(rho))))
