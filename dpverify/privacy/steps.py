"""How many steps a privacy budget lets run.

A budget filter admits the steps of an iterative algorithm one after the
other: step ``t`` requests its privacy cost ``c_t`` (e.g. the zCDP
``rho_t = 1 / sigma_t^2`` of a noisy gradient step) against the residual
budget ``R_t`` (``R_1 = R``); it runs if ``c_t < R_t``, leaving
``R_{t+1} = R_t - c_t``, and otherwise the algorithm stops.  The number of
steps that run is what a simulator is then asked to run.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = ["steps_within_budget"]


def steps_within_budget(costs, budget) -> int:
    """Number of leading steps a budget filter admits.

    Parameters
    ----------
    costs : array_like, shape (T,)
        Privacy cost of each step, ``c_t >= 0`` (``0`` is a free step).
    budget : float
        Total budget ``R``, positive and finite.

    Returns
    -------
    int
        The largest ``k <= T`` such that every step ``t <= k`` was admitted:
        ``c_t < R - (c_1 + ... + c_{t-1})``, ``0 <= k <= T``.

    Notes
    -----
    The comparison is strict and the residual budget is updated by
    subtraction in IEEE double precision, step after step.  For costs that
    spend *exactly* ``R`` in exact arithmetic (e.g. ``T`` equal costs
    ``R / T``) the last request equals the residual budget, so the filter
    stops after ``T - 1`` steps; in floating point the residual carries
    rounding error and ``T - 1`` or ``T`` steps run, depending on the sign of
    that error.  No tolerance is added: this reports what the filter does in
    double precision.

    Raises
    ------
    ValueError
        If *costs* is not a one-dimensional array of non-negative numbers
        (``nan`` included) or *budget* is not a positive finite real.
    """
    try:
        arr = np.asarray(costs, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"costs must be an array of real numbers, got {costs!r}") from exc
    if arr.ndim != 1:
        raise ValueError(f"costs must be one-dimensional, got shape {arr.shape}")
    if not np.all(arr >= 0):   # also rejects nan
        raise ValueError(f"costs must be non-negative entry-wise, got {costs!r}")
    if isinstance(budget, bool) or not isinstance(budget, numbers.Real) \
            or not (math.isfinite(budget) and budget > 0):
        raise ValueError(f"budget must be a positive finite real number, got {budget!r}")
    remaining = float(budget)
    for t, cost in enumerate(arr.tolist()):
        if cost < remaining:
            remaining -= cost
        else:
            return t
    return len(arr)
