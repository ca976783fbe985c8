"""Confidence bounds for Monte Carlo means, and multiple-testing control.

A Monte Carlo decision at confidence ``C`` over ``K`` parameter points uses the Bonferroni level
``(1 - C) / K`` at each point, so the probability of any false decision in the family is at most
``1 - C``. A mean of a general statistic has one-sided normal bounds (:func:`mean_bounds`; the
calibration benchmark measures the approximation); the mean of an indicator (the fraction of runs
in which an event occurred) has exact binomial Clopper-Pearson bounds (:func:`binomial_bounds`),
valid for every number of runs and every probability, an event never observed included.
"""
from __future__ import annotations

import math
from dataclasses import dataclass



@dataclass(frozen=True)
class MeanBounds:
    mean: float
    stderr: float
    lower: float
    upper: float
    level: float
    runs: int


def z_value(level: float) -> float:
    """One-sided normal quantile for error probability ``level`` (e.g. 0.01 -> 2.326)."""
    if not (0 < level < 0.5):
        raise ValueError(f"level must be in (0, 0.5), got {level!r}")
    from scipy.stats import norm  # imported here: SciPy's stats costs 0.2 s at start-up

    return float(norm.isf(level))


def mean_bounds(mean: float, var: float, runs: int, level: float) -> MeanBounds:
    """One-sided lower and upper confidence bounds, each with error probability ``level``."""
    if runs < 2:
        raise ValueError(f"runs must be >= 2, got {runs!r}")
    if var < 0 or not math.isfinite(var):
        raise ValueError(f"var must be a finite non-negative number, got {var!r}")
    se = math.sqrt(var / runs)
    z = z_value(level)
    return MeanBounds(mean, se, mean - z * se, mean + z * se, level, runs)


def binomial_bounds(successes: int, runs: int, level: float) -> MeanBounds:
    """One-sided Clopper-Pearson bounds on a probability from ``successes`` in ``runs`` independent
    trials, each bound with error probability at most ``level`` (exact, not an approximation).

    No success gives the upper bound ``1 - level ** (1 / runs)`` (never 0); every run a success
    gives the lower bound ``level ** (1 / runs)``.
    """
    if not isinstance(runs, int) or runs < 1:
        raise ValueError(f"runs must be an integer >= 1, got {runs!r}")
    if not isinstance(successes, int) or not 0 <= successes <= runs:
        raise ValueError(f"successes must be an integer in [0, runs = {runs}], got {successes!r}")
    if not (0 < level < 0.5):
        raise ValueError(f"level must be in (0, 0.5), got {level!r}")
    from scipy.stats import beta

    k, n = successes, runs
    lower = 0.0 if k == 0 else float(beta.ppf(level, k, n - k + 1))
    upper = 1.0 if k == n else float(beta.isf(level, k + 1, n - k))
    p = k / n
    return MeanBounds(p, math.sqrt(p * (1 - p) / n), min(lower, p), max(upper, p), level, n)


def bonferroni(confidence: float, k: int) -> float:
    """Per-test error level so that ``k`` tests together err with probability <= 1 - confidence."""
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k!r}")
    return (1.0 - confidence) / k
