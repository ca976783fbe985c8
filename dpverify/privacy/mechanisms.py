"""Mechanisms: the sensitivity of a mean gradient, dp-accounting events of the Gaussian mechanisms the
accountants (:mod:`.accountants`) bound, and the exact privacy of additive-noise mechanisms other than
the Gaussian (see :mod:`.gaussian`).

Sensitivity: :func:`mean_gradient_sensitivity`, ``L/N`` (remove one sample, normaliser ``N`` kept) or
``2L/N`` (replace one sample) for ``(1/N) sum_i g_i`` with every ``||g_i|| <= L``.

Events (``dp_accounting.dp_event``), each relative to the add-or-remove-one relation unless stated:

* :func:`noisy_gd_event`: one Gaussian mechanism per step (noisy gradient descent), identical
  multipliers grouped into a ``SelfComposedDpEvent``;
* :func:`poisson_sampled_gaussian_event`: ``steps`` compositions of the Poisson-subsampled Gaussian;
* :func:`sampled_without_replacement_gaussian_event`: the Gaussian on a subsample drawn without
  replacement (replace-one relation, the only one dp-accounting accounts it under).

Exact privacy, for ``M(x) = f(x) + Z`` and neighbours with ``f(x) - f(x') = a``:

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

import collections
import math

import mpmath
import numpy as np

from .gaussian import gaussian_delta_exact
from .validation import (as_sequence, check_adjacency, check_finite, check_nonnegative, check_positive,
                         check_positive_int, uses_mpmath)


# ----------------------------------------------------------------------------- sensitivity
def mean_gradient_sensitivity(bound, n_samples, *, adjacency: str):
    """L2 sensitivity of the mean gradient ``(1/N) sum_i g_i`` when every ``||g_i|| <= bound``.

    ``bound / N`` for ``adjacency="remove"`` (one sample removed, the normaliser ``N`` kept) and
    ``2 bound / N`` for ``adjacency="replace"`` (one sample replaced). ``adjacency`` has no default:
    the two relations differ by a factor 2 in sensitivity (4 in zCDP). Computed in mpmath when
    ``bound`` is an ``mpf``, else in double precision.

    Raises
    ------
    ValueError
        If ``bound`` is not positive and finite, ``n_samples`` is not a positive integer, or
        ``adjacency`` is not one of ``"remove"``, ``"replace"``.
    """
    check_positive("bound", bound)
    n = check_positive_int("n_samples", n_samples)
    check_adjacency(adjacency)
    factor = 2 if adjacency == "replace" else 1
    if uses_mpmath(bound):
        return factor * mpmath.mpf(bound) / n
    return factor * float(bound) / n


# ----------------------------------------------------------------------------- dp-accounting events
def noisy_gd_event(noise_multipliers, *, adjacency: str):
    """The ``DpEvent`` of noisy gradient descent: one Gaussian mechanism per step.

    ``noise_multipliers[t]`` is the noise std of step ``t`` over the per-sample bound ``L/N`` (for
    a budget filter, ``sigma_t``). The event is for dp-accounting's add-or-remove-one relation:
    ``adjacency="replace"`` doubles the sensitivity, which the event encodes as the halved
    multiplier ``z_t / 2`` (dp-accounting's ``RdpAccountant`` ignores ``REPLACE_ONE`` for an
    unsampled Gaussian). Identical multipliers are grouped into a ``SelfComposedDpEvent`` inside a
    ``ComposedDpEvent`` (sorted by multiplier); no step gives a ``NoOpDpEvent``.

    Raises
    ------
    ValueError
        On a multiplier that is not positive and finite, or an unknown ``adjacency``.
    """
    from dp_accounting import dp_event

    check_adjacency(adjacency)
    zs = as_sequence("noise_multipliers", noise_multipliers)
    for i, z in enumerate(zs):
        check_positive(f"noise_multipliers[{i}]", z)
    if not zs:
        return dp_event.NoOpDpEvent()
    scale = 1.0 if adjacency == "remove" else 0.5
    counts = collections.Counter(scale * float(z) for z in zs)
    return dp_event.ComposedDpEvent(
        [dp_event.SelfComposedDpEvent(dp_event.GaussianDpEvent(z), k) for z, k in sorted(counts.items())])


def poisson_sampled_gaussian_event(noise_multiplier, sampling_probability, steps):
    """``steps`` compositions of the Gaussian mechanism (std = ``noise_multiplier`` x the sensitivity)
    run on a Poisson subsample (each record kept with probability ``sampling_probability``).

    Raises
    ------
    ValueError
        If ``noise_multiplier`` is not positive and finite, ``sampling_probability`` is not in
        ``(0, 1]`` or ``steps`` is not a positive integer.
    """
    from dp_accounting import dp_event

    check_positive("noise_multiplier", noise_multiplier)
    check_positive("sampling_probability", sampling_probability)
    if not sampling_probability <= 1:
        raise ValueError(f"sampling_probability must be in (0, 1]. Found {sampling_probability}.")
    steps = check_positive_int("steps", steps)
    return dp_event.SelfComposedDpEvent(
        dp_event.PoissonSampledDpEvent(float(sampling_probability), dp_event.GaussianDpEvent(float(noise_multiplier))),
        steps)


def sampled_without_replacement_gaussian_event(population_size, sample_size, noise_multiplier):
    """One Gaussian mechanism (std = ``noise_multiplier`` x the sensitivity) run on ``sample_size`` of
    ``population_size`` records drawn without replacement; account it under the replace-one relation.

    Raises
    ------
    ValueError
        If the sizes are not positive integers with ``sample_size <= population_size`` or
        ``noise_multiplier`` is not positive and finite.
    """
    from dp_accounting import dp_event

    n = check_positive_int("population_size", population_size)
    m = check_positive_int("sample_size", sample_size)
    if m > n:
        raise ValueError(f"sample_size must be at most population_size = {n}. Found {m}.")
    check_positive("noise_multiplier", noise_multiplier)
    return dp_event.SampledWithoutReplacementDpEvent(n, m, dp_event.GaussianDpEvent(float(noise_multiplier)))


# ----------------------------------------------------------------------------- exact privacy


def _shift(a) -> np.ndarray:
    a = np.atleast_1d(np.asarray(a, dtype=float))
    if a.ndim != 1 or not np.all(np.isfinite(a)):
        raise ValueError(f"shift must be a finite vector. Found {a!r}.")
    return a


def laplace_max_privacy_loss(shift, scale: float) -> float:
    """``||shift||_1 / scale``: the largest privacy loss of i.i.d. Laplace(scale) noise."""
    check_positive("scale", scale)
    return float(np.abs(_shift(shift)).sum() / scale)


def laplace_delta_exact(eps: float, mu: float) -> float:
    """Exact privacy profile of one-dimensional Laplace noise with ``mu = |shift| / scale``."""
    check_finite("eps", eps)
    check_nonnegative("mu", mu)
    if eps >= mu:
        return 0.0
    return float(-math.expm1((eps - mu) / 2)) if eps >= -mu else float(-math.expm1(eps))


def norm_laplace_max_privacy_loss(shift, scale: float) -> float:
    """``||shift||_2 / scale``: the largest privacy loss of noise with density proportional to
    ``exp(-||z||_2 / scale)``."""
    check_positive("scale", scale)
    return float(np.linalg.norm(_shift(shift)) / scale)


def gaussian_pair_delta(eps: float, distance: float, std: float) -> float:
    """Exact delta at eps of ``N(a, s^2 I)`` against ``N(a', s^2 I)`` with ``||a - a'|| = distance``."""
    check_nonnegative("distance", distance)
    check_positive("std", std)
    if distance == 0:
        return 0.0
    return float(gaussian_delta_exact(eps, distance / std))


__all__ = ["gaussian_pair_delta", "laplace_delta_exact", "laplace_max_privacy_loss", "mean_gradient_sensitivity",
           "noisy_gd_event", "norm_laplace_max_privacy_loss", "poisson_sampled_gaussian_event",
           "sampled_without_replacement_gaussian_event"]
