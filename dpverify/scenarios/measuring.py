"""Measurements with their direction for the supremum scenarios (:class:`~dpverify.measured.Measured`).

* :func:`computed`: a closed form evaluated in double precision, exact up to its rounding
  (``ops`` roundings of relative size ``2^-52``);
* :func:`gaussian_profile`: the exact privacy profile ``delta(eps)`` of the Gaussian mechanism
  with ``mu = Delta/s`` [Balle & Wang 2018, Thm. 8], its error measured against the same formula
  in mpmath at ``PROFILE_DPS`` digits (plus the error of ``mu``: ``|d delta/d mu| = phi(.) <= 0.4``);
* :func:`estimate`: a Monte Carlo mean of ``runs`` runs with its normal confidence interval, whose
  interval is unbounded when the sample variance of a noisy measurement is 0 (a variance of 0 is
  never taken as determinism).
"""
from __future__ import annotations

import math

import mpmath

from ..measured import Measured
from ..privacy import gaussian_delta_exact, gaussian_delta_mp
from ..stats import mean_bounds

ULP = 2.0 ** -52
PROFILE_DPS = 50
#: ``max_x phi(x)``: bounds ``|d delta(eps)/d mu|`` of the Gaussian privacy profile
PHI_MAX = 1.0 / math.sqrt(2.0 * math.pi)


def computed(value: float, ops: int = 8) -> Measured:
    """``value`` exact up to ``ops`` roundings of relative size ``2^-52``."""
    value = float(value)
    if not math.isfinite(value):
        return Measured("exact", value, value, value)
    return Measured.exact(value, abs(value) * ops * ULP)


def gaussian_profile(eps: float, mu: float, mu_error: float = 0.0) -> Measured:
    """The exact ``delta(eps)`` of the Gaussian mechanism at ``mu`` (double precision), with its
    error: the difference from ``PROFILE_DPS``-digit mpmath, that evaluation's own rounding, and
    ``PHI_MAX * mu_error`` for an error in ``mu``."""
    eps, mu = float(eps), float(mu)
    if mu == 0:
        return Measured.exact(0.0, PHI_MAX * mu_error)
    value = float(gaussian_delta_exact(eps, mu))
    with mpmath.workdps(PROFILE_DPS):
        e, m = mpmath.mpf(eps), mpmath.mpf(mu)
        a = mpmath.ncdf(min(max(-e / m + m / 2, -1e6), 1e6))   # the first term: the scale of the rounding
        ref = gaussian_delta_mp(e, m)
        if not math.isfinite(value):     # the double formula fails (logs of 0 at denormal mu): the reference
            value = float(ref)
        err = abs(value - ref) + a * mpmath.mpf(10) ** (3 - PROFILE_DPS)
    err = float(err) if err == 0 or float(err) > 0 else 5e-324   # a positive error that underflows stays positive
    return Measured.exact(value, err + PHI_MAX * float(mu_error))


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


__all__ = ["PHI_MAX", "PROFILE_DPS", "ULP", "computed", "estimate", "gaussian_profile"]
