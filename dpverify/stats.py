"""Confidence bounds for Monte Carlo means, and multiple-testing control.

A Monte Carlo decision at confidence ``C`` over ``K`` parameter points uses the Bonferroni level
``(1 - C) / K`` at each point, so the probability of any false decision in the family is at most
``1 - C`` (up to the normal approximation of the mean, which the calibration tests measure).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from scipy.stats import norm


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


def bonferroni(confidence: float, k: int) -> float:
    """Per-test error level so that ``k`` tests together err with probability <= 1 - confidence."""
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k!r}")
    return (1.0 - confidence) / k
