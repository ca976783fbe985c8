"""How many steps a budget filter admits (dpverify.privacy.steps.steps_within_budget)."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from dpverify.privacy.steps import steps_within_budget
from dpverify.sim import uniform


def _zcdp_costs(sigmas):
    """zCDP cost ``1 / sigma_t^2`` of each noisy gradient step."""
    sigmas = np.asarray(sigmas, dtype=float)
    return 1.0 / (sigmas * sigmas)


def _steps_exact(costs, budget):
    """The filter in exact rational arithmetic."""
    remaining = Fraction(budget)
    for t, cost in enumerate(costs):
        if cost < remaining:
            remaining -= cost
        else:
            return t
    return len(costs)


def _steps_from_sigmas(sigmas, R):
    """The filter as the simulator ran it before (``rho = 1 / (sigma * sigma)`` in Python floats)."""
    remaining = R
    for t, sigma in enumerate(np.asarray(sigmas, float).tolist()):
        rho = 1.0 / (sigma * sigma)
        if rho < remaining:
            remaining -= rho
        else:
            return t
    return len(sigmas)


def test_hand_cases():
    assert steps_within_budget([1.0, 1.0, 1.0], 3.5) == 3   # residuals 2.5, 1.5, 0.5
    assert steps_within_budget([1.0, 1.0, 1.0], 3.0) == 2   # c_3 = 1 = R_3: strict < fails
    assert steps_within_budget([1.0, 1.0, 1.0], 0.5) == 0   # first request already too large
    assert steps_within_budget([0.25, 1.0, 4.0], 2.0) == 2  # 0.25, then 1 < 1.75, then 4 > 0.75
    assert steps_within_budget([], 1.0) == 0
    assert steps_within_budget([0.0, 1.0], 0.5) == 1        # a free step, then 1 > 0.5


def test_uniform_boundary_is_rounding_dependent():
    """uniform(T, R) spends exactly R, so the last request meets the residual.

    In exact rationals the strict test fails at the last step and T - 1 steps run;
    in double precision the residual carries rounding error and the outcome depends on
    its sign: the observed outcomes are documented rather than hidden by a tolerance.
    """
    for T in (3, 10, 7, 100):
        assert _steps_exact([Fraction(1, T)] * T, 1) == T - 1
    assert steps_within_budget(_zcdp_costs(uniform(10, 1.0)), 1.0) == 10   # R_10 > c_10 after rounding
    assert steps_within_budget(_zcdp_costs(uniform(3, 1.0)), 1.0) == 2     # R_3 <= c_3 after rounding
    outcomes = {T: steps_within_budget(_zcdp_costs(uniform(T, 2.0)), 2.0) for T in range(1, 200)}
    assert all(v in (T - 1, T) for T, v in outcomes.items())
    # T = 1: exactly, c_1 = R and no step runs; but sqrt(1/2)**2 rounds to
    # 0.5000000000000001, so c_1 = 1.9999999999999996 < 2 and the step runs.
    assert outcomes[1] == 1
    assert outcomes[3] == 2 and outcomes[4] == 4


def test_zcdp_costs_reproduce_the_noise_scale_filter():
    """Costs ``1 / sigma^2`` give the step counts the noise-scale filter gave, on many schedules."""
    rng = np.random.default_rng(5)
    for _ in range(300):
        T = int(rng.integers(1, 60))
        R = float(rng.uniform(0.1, 5.0))
        sigmas = uniform(T, R) * rng.uniform(0.9, 1.1, size=T)
        assert steps_within_budget(_zcdp_costs(sigmas), R) == _steps_from_sigmas(sigmas, R)
    assert steps_within_budget(_zcdp_costs([np.inf, 1.0]), 0.5) == 1   # sigma = inf is free


@pytest.mark.parametrize("costs, budget, name", [
    ([1.0, -1.0], 1.0, "costs"),
    ([np.nan], 1.0, "costs"),
    ([[1.0]], 1.0, "costs"),
    (["a"], 1.0, "costs"),
    ([1.0], np.inf, "budget"),
    ([1.0], 0.0, "budget"),
    ([1.0], True, "budget"),
    ([1.0], "1", "budget"),
])
def test_bad_input_names_the_parameter(costs, budget, name):
    with pytest.raises(ValueError, match=rf"^{name} "):
        steps_within_budget(costs, budget)
