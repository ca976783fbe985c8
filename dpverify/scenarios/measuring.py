"""Measurements with their direction for the supremum scenarios (:class:`~dpverify.measured.Measured`).

* :func:`computed`: a closed form evaluated in double precision, exact up to its rounding
  (``ops`` roundings of relative size ``2^-52``);
* :func:`gaussian_profile`: the exact privacy profile ``delta(eps)`` of the Gaussian mechanism
  with ``mu = Delta/s`` [Balle & Wang 2018, Thm. 8], in ball arithmetic with a relative error at any
  magnitude, an error in ``mu`` enclosed by the profile's monotonicity in ``mu``;
* :func:`estimate`: a Monte Carlo mean of ``runs`` runs with its normal confidence interval, whose
  interval is unbounded when the sample variance of a noisy measurement is 0 (a variance of 0 is
  never taken as determinism).
"""
from __future__ import annotations

import math

from ..measured import Measured
from ..stats import mean_bounds

ULP = 2.0 ** -52
#: ``max_x phi(x)``: bounds ``|d delta(eps)/d mu|`` of the Gaussian privacy profile
PHI_MAX = 1.0 / math.sqrt(2.0 * math.pi)


def computed(value: float, ops: int = 8) -> Measured:
    """``value`` exact up to ``ops`` roundings of relative size ``2^-52``."""
    value = float(value)
    if not math.isfinite(value):
        return Measured("exact", value, value, value)
    return Measured.exact(value, abs(value) * ops * ULP)


def gaussian_profile(eps: float, mu: float, mu_error: float = 0.0) -> Measured:
    """The exact ``delta(eps)`` of the Gaussian mechanism at ``mu``, in ball arithmetic with a relative
    error at any magnitude (:func:`dpverify.privacy.arb_profile.gaussian_delta_enclosure`): the
    profile increases with ``mu``, so an error ``mu_error`` in ``mu`` is enclosed by the balls at
    ``mu -+ mu_error`` (not by ``PHI_MAX * mu_error``, an absolute error that swamps a profile of 1e-229).
    The value is the ball's centre at ``mu``."""
    from ..privacy.arb_profile import ball_bounds, gaussian_delta_ball, gaussian_delta_enclosure

    eps, mu, mu_error = float(eps), float(mu), float(mu_error)
    if mu == 0 and mu_error == 0:
        v = -math.expm1(eps) if eps < 0 else 0.0       # identical outputs: delta(eps) = max(0, 1 - e^eps)
        return Measured.exact(v, v * 2 * ULP)
    mu_lo, mu_hi = mu - mu_error, mu + mu_error
    hi = gaussian_delta_ball(eps, mu_hi)
    if mu_lo > 0:
        encl = gaussian_delta_enclosure(eps, eps, mu_lo, mu_hi)
        lower, _, upper = ball_bounds(encl)
    else:
        lower = -math.expm1(eps) if eps < 0 else 0.0     # the profile at mu = 0 is the least
        upper = ball_bounds(hi)[2]
    value = ball_bounds(gaussian_delta_ball(eps, mu))[1] if mu > 0 else lower
    return Measured("exact", min(max(value, lower), upper), lower, upper)


def estimate(mean: float, var: float, runs: int, confidence: float = 0.99, noisy: bool = True) -> Measured:
    """A mean of ``runs`` runs with one-sided normal bounds at ``confidence``; with a sample variance
    of 0, exact when the measurement is not ``noisy``, else an estimate with an unbounded interval."""
    mean, var = float(mean), float(var)
    if var > 0 and runs >= 2:
        mb = mean_bounds(mean, var, int(runs), 1 - confidence)
        return Measured.estimate(mean, mb.lower, mb.upper, confidence)
    if not noisy:
        return computed(mean)
    return Measured("estimate", mean, -math.inf, math.inf, confidence)


__all__ = ["PHI_MAX", "ULP", "computed", "estimate", "gaussian_profile"]
