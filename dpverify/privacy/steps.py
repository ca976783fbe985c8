"""The number of steps a privacy budget lets run."""
from __future__ import annotations

import numpy as np

from .validation import check_nonnegative

__all__ = ["steps_within_budget"]


def steps_within_budget(costs, budget) -> int:
    """Number of leading steps a budget lets run when each step spends its cost.

    ``R_1 = budget``; step ``t`` runs if ``costs[t] < R_t`` (strict), and then
    ``R_{t+1} = R_t - costs[t]`` (repeated subtraction in IEEE double precision, no tolerance);
    the first step that does not fit stops the count. In exact arithmetic this is the largest
    ``T`` with ``sum(costs[:T]) < budget`` (``T = 0`` always allowed), so a budget of 0 lets no
    step run, a step whose cost exactly exhausts the budget does not run, and an infinite cost
    stops the count. In floating point, at a boundary (costs that sum to the budget exactly in
    real arithmetic) the rounding of the subtractions decides.

    Parameters
    ----------
    costs : array_like, shape (T,)
        Cost of each step, ``>= 0`` (``inf`` allowed).
    budget : real, >= 0 and finite

    Returns
    -------
    int
        ``0 <= steps <= len(costs)``.

    Raises
    ------
    ValueError
        If ``costs`` is not one-dimensional, has a nan or a negative entry, or ``budget`` is not a
        non-negative finite real.
    """
    check_nonnegative("budget", budget)
    c = np.asarray(costs, dtype=float)
    if c.ndim != 1:
        raise ValueError(f"costs must be one-dimensional. Found shape {c.shape}.")
    bad = np.flatnonzero(~(c >= 0))
    if bad.size:
        raise ValueError(f"costs[{bad[0]}] must be >= 0. Found {c[bad[0]]}.")
    remaining = float(budget)
    for t, cost in enumerate(c.tolist()):
        if cost < remaining:
            remaining -= cost
        else:
            return t
    return len(c)
