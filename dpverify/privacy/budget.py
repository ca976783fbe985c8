"""Privacy of noisy gradient descent stopped by a zCDP budget filter."""
from __future__ import annotations

import dataclasses
import math
import numbers
from typing import Iterable

import numpy as np

from ._checks import _check_adjacency, _check_positive



@dataclasses.dataclass(frozen=True)
class BudgetFilterPrivacy:
    """Privacy outcome of noisy gradient descent stopped by a zCDP budget filter.

    Attributes
    ----------
    steps : int
        Number of executed (noised) gradient steps ``T``.
    rho : float
        zCDP of the composition of the ``T`` executed Gaussian mechanisms,
        ``sum_t sensitivity^2 / (2 (G sigma_t / N)^2)``.
    residual_budget : float
        ``R_{T+1} = R - sum_{t <= T} 1/sigma_t^2`` (repeated float subtraction,
        exactly as the algorithm does it).
    sensitivity : float
        L2 sensitivity of the mean gradient: ``G/N`` (remove) or ``2G/N``
        (replace).
    per_step_rho : tuple of float
        zCDP of each executed step.
    """

    steps: int
    rho: float
    residual_budget: float
    sensitivity: float
    per_step_rho: tuple


def sensitivity_of_mean_gradient(clip_or_G=1.0, N=1, adjacency: str = "remove") -> float:
    """L2 sensitivity of ``(1/N) sum_i g_i`` with ``||g_i|| <= G`` and fixed ``N``.

    ``G/N`` for removal of one sample (normaliser kept at ``N``) and ``2G/N`` for
    replacement of one sample (same-size neighbours).

    Raises
    ------
    ValueError
        On non-positive ``clip_or_G``, non-integer / non-positive ``N`` or an
        unknown ``adjacency``.
    """
    _check_positive("clip_or_G", clip_or_G)
    if isinstance(N, (bool, np.bool_)) or not isinstance(N, numbers.Integral) or N < 1:
        raise ValueError(f"N must be a positive integer. Found {N!r}.")
    _check_adjacency(adjacency)
    factor = 1.0 if adjacency == "remove" else 2.0
    return factor * float(clip_or_G) / int(N)


def budget_filter_privacy(sigmas, R, adjacency: str = "remove", clip_or_G=1.0, N=1) -> BudgetFilterPrivacy:
    """Run the bookkeeping of a zCDP budget filter and account its privacy.

    At step ``t`` the algorithm requests ``rho_t = 1/sigma_t^2``; if
    ``rho_t < R_t`` (strict) it sets ``R_{t+1} = R_t - rho_t`` and releases the
    mean gradient plus ``N(0, (G sigma_t / N)^2 I)``; otherwise it terminates.
    ``R_1 = R``.  The ``sigmas`` iterable is consumed lazily, so an infinite
    generator is fine as long as the budget eventually runs out.

    Each executed step is a Gaussian mechanism with sensitivity ``Delta``
    (:func:`sensitivity_of_mean_gradient`) and noise std ``G sigma_t / N``,
    hence ``Delta^2 / (2 (G sigma_t/N)^2) = c / (2 sigma_t^2)`` zCDP with
    ``c = 1`` (remove) or ``c = 4`` (replace) (Gaussian mechanism); the total is
    the sum (composition).  ``G`` and ``N`` cancel; the per-step values are
    computed as ``c / (2 sigma_t^2)`` to avoid rounding in ``G/N``.

    Since every executed step has ``rho_t < R_t``, ``sum_t 1/sigma_t^2 < R``
    and so ``rho < R/2`` for "remove" and ``rho < 2R``
    for "replace" (up to float rounding of the running subtraction, a few
    ulps of ``R``).

    Floating-point boundary: with a uniform schedule ``sigma_t^2 = T/R`` the
    request at step ``T`` equals the residual *exactly* in real arithmetic, so
    the strict inequality refuses it and only ``T - 1`` steps run; in floating
    point the outcome at that boundary is ``T - 1`` or ``T`` depending on
    rounding of ``sqrt``, ``1/sigma^2`` and the subtractions (e.g. exactly
    ``T - 1`` for ``T = 4, R = 1, sigma = 2``).  To get exactly ``T`` steps,
    inflate ``sigma_t^2`` slightly, e.g. ``T/R * (1 + 1e-9)``.

    Parameters
    ----------
    sigmas : iterable of real > 0
        Noise multipliers ``sigma_1, sigma_2, ...``.
    R : real, > 0
        Total budget ``R_1``.
    adjacency : {"remove", "replace"}
        Neighbouring relation (see module docstring).
    clip_or_G : real, > 0
        Per-sample gradient norm bound ``G`` (Lipschitz constant or clip norm).
    N : int, >= 1
        Fixed normaliser of the mean gradient (dataset size).

    Returns
    -------
    BudgetFilterPrivacy

    Raises
    ------
    ValueError
        If ``R`` is not positive and finite, a consumed ``sigmas[t]`` is not
        positive and finite, or on bad ``adjacency`` / ``clip_or_G`` / ``N``.
    """
    _check_positive("R", R)
    sensitivity = sensitivity_of_mean_gradient(clip_or_G, N, adjacency)
    if isinstance(sigmas, (str, bytes)) or not isinstance(sigmas, Iterable):
        raise ValueError(f"sigmas must be an iterable of real numbers. Found {sigmas!r}.")
    c = 1.0 if adjacency == "remove" else 4.0
    residual = float(R)
    per_step = []
    for t, sigma in enumerate(sigmas):
        _check_positive(f"sigmas[{t}]", sigma)
        s = float(sigma)
        request = 1.0 / (s * s)
        if not request < residual:
            break
        residual = residual - request
        per_step.append(c / (2.0 * s * s))
    return BudgetFilterPrivacy(
        steps=len(per_step),
        rho=math.fsum(per_step),
        residual_budget=residual,
        sensitivity=sensitivity,
        per_step_rho=tuple(per_step),
    )


