"""Privacy of noisy gradient descent stopped by a zCDP budget filter."""
from __future__ import annotations

import dataclasses
import itertools
import math
from typing import Iterable

from .mechanisms import mean_gradient_sensitivity
from .steps import steps_within_budget
from .validation import check_positive, check_positive_int

_BLOCK = 256  # sigmas taken from the iterable at a time


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


def budget_filter_privacy(sigmas, R, adjacency: str = "remove", clip_or_G=1.0, N=1) -> BudgetFilterPrivacy:
    """Run the bookkeeping of a zCDP budget filter and account its privacy.

    At step ``t`` the algorithm requests ``rho_t = 1/sigma_t^2``; if
    ``rho_t < R_t`` (strict) it sets ``R_{t+1} = R_t - rho_t`` and releases the
    mean gradient plus ``N(0, (G sigma_t / N)^2 I)``; otherwise it terminates.
    ``R_1 = R``; the steps that run are counted by
    :func:`~.steps.steps_within_budget` with costs ``1/sigma_t^2``.  The ``sigmas``
    iterable is consumed in blocks of 256, so an infinite generator is fine as
    long as the budget eventually runs out; a bad ``sigma_t`` raises only if the
    filter reaches step ``t``.

    Each executed step is a Gaussian mechanism with sensitivity ``Delta``
    (:func:`~.mechanisms.mean_gradient_sensitivity`) and noise std ``G sigma_t / N``,
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
    check_positive("R", R)
    check_positive("clip_or_G", clip_or_G)
    N = check_positive_int("N", N)
    sensitivity = mean_gradient_sensitivity(clip_or_G, N, adjacency=adjacency)
    if isinstance(sigmas, (str, bytes)) or not isinstance(sigmas, Iterable):
        raise ValueError(f"sigmas must be an iterable of real numbers. Found {sigmas!r}.")
    residual = float(R)
    run: list = []
    blocks = iter(sigmas)
    while True:  # blocks of the (possibly infinite) iterable, each counted by steps_within_budget
        block = list(itertools.islice(blocks, _BLOCK))
        valid, error = [], None
        for s in block:  # a bad sigma is an error only if the filter reaches it
            try:
                check_positive(f"sigmas[{len(run) + len(valid)}]", s)
            except ValueError as exc:
                error = exc
                break
            valid.append(float(s))
        requests = [1.0 / (s * s) for s in valid]
        k = steps_within_budget(requests, residual)
        for request in requests[:k]:
            residual = residual - request
        run += valid[:k]
        if k < len(valid):
            break
        if error is not None:
            raise error
        if len(block) < _BLOCK:
            break
    c = 1.0 if adjacency == "remove" else 4.0
    per_step = [c / (2.0 * s * s) for s in run]
    return BudgetFilterPrivacy(
        steps=len(per_step),
        rho=math.fsum(per_step),
        residual_budget=residual,
        sensitivity=sensitivity,
        per_step_rho=tuple(per_step),
    )
