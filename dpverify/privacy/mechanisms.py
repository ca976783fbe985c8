"""Exact privacy of additive-noise mechanisms other than the Gaussian (see :mod:`.gaussian`).

For ``M(x) = f(x) + Z`` and neighbours with ``f(x) - f(x') = a``:

* Laplace noise, i.i.d. ``Lap(b)`` coordinates: the privacy loss is at most ``||a||_1 / b``
  (attained), :func:`laplace_max_privacy_loss`; in one dimension the whole profile is
  ``delta(eps) = max(0, 1 - exp((eps - |a|/b)/2))`` (:func:`laplace_delta_exact`);
* the *norm-Laplace* (K-norm) noise with density proportional to ``exp(-||z||_2 / b)``: by the
  triangle inequality the loss ``(||y - f(x')||_2 - ||y - f(x)||_2)/b`` is at most ``||a||_2 / b``,
  attained on the ray beyond ``f(x)`` (:func:`norm_laplace_max_privacy_loss`), so the mechanism
  is ``(||a||_2 / b)``-DP for this pair and no better;
* the Gaussian ``N(0, s^2 I)``: the profile at ``mu = ||a||_2 / s`` (:func:`gaussian_pair_delta`).

The largest privacy loss of a pair is the pure-DP eps of that pair, so the sup over neighbouring
pairs of these values is the mechanism's eps exactly.
"""
from __future__ import annotations

import math

import numpy as np

from ._checks import _check_finite, _check_nonnegative, _check_positive
from .gaussian import gaussian_delta_exact


def _shift(a) -> np.ndarray:
    a = np.atleast_1d(np.asarray(a, dtype=float))
    if a.ndim != 1 or not np.all(np.isfinite(a)):
        raise ValueError(f"shift must be a finite vector. Found {a!r}.")
    return a


def laplace_max_privacy_loss(shift, scale: float) -> float:
    """``||shift||_1 / scale``: the largest privacy loss of i.i.d. Laplace(scale) noise."""
    _check_positive("scale", scale)
    return float(np.abs(_shift(shift)).sum() / scale)


def laplace_delta_exact(eps: float, mu: float) -> float:
    """Exact privacy profile of one-dimensional Laplace noise with ``mu = |shift| / scale``."""
    _check_finite("eps", eps)
    _check_nonnegative("mu", mu)
    if eps >= mu:
        return 0.0
    return float(-math.expm1((eps - mu) / 2)) if eps >= -mu else float(-math.expm1(eps))


def norm_laplace_max_privacy_loss(shift, scale: float) -> float:
    """``||shift||_2 / scale``: the largest privacy loss of noise with density proportional to
    ``exp(-||z||_2 / scale)``."""
    _check_positive("scale", scale)
    return float(np.linalg.norm(_shift(shift)) / scale)


def gaussian_pair_delta(eps: float, distance: float, std: float) -> float:
    """Exact delta at eps of ``N(a, s^2 I)`` against ``N(a', s^2 I)`` with ``||a - a'|| = distance``."""
    _check_nonnegative("distance", distance)
    _check_positive("std", std)
    if distance == 0:
        return 0.0
    return float(gaussian_delta_exact(eps, distance / std))


__all__ = ["gaussian_pair_delta", "laplace_delta_exact", "laplace_max_privacy_loss", "norm_laplace_max_privacy_loss"]
