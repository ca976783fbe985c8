"""steps_within_budget: the steps a budget lets run when each runs only if its cost is strictly below
the budget left, and the budget filter that counts its steps with it."""
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpverify import privacy as P
from dpverify.privacy import steps_within_budget
from dpverify.sim import uniform


def test_budget_zero_lets_no_step_run():
    assert steps_within_budget([0.0, 0.0], 0.0) == 0
    assert steps_within_budget([1.0], 0) == 0
    assert steps_within_budget([], 0.0) == 0


def test_a_cost_that_exactly_exhausts_the_budget_does_not_run():
    assert steps_within_budget([1.0, 1.0, 1.0], 3.0) == 2
    assert steps_within_budget([0.25] * 4, 1.0) == 3
    assert steps_within_budget([1.0, 1.0, 1.0], 3.5) == 3
    assert steps_within_budget([2.0, 0.5], 2.0) == 0


def test_infinite_costs_stop_the_count_and_zero_costs_are_free():
    assert steps_within_budget([math.inf], 1e300) == 0
    assert steps_within_budget([0.1, math.inf, 0.1], 10.0) == 1
    assert steps_within_budget(np.zeros(1000), 1e-300) == 1000
    assert steps_within_budget(1.0 / np.array([np.inf, 1.0]) ** 2, 0.5) == 1


def test_the_first_step_that_does_not_fit_stops_the_count():
    assert steps_within_budget([0.5, 2.0, 0.1, 0.1], 1.0) == 1


@given(units=st.lists(st.integers(0, 64), max_size=40), budget_units=st.integers(0, 2000))
def test_dyadic_costs_match_the_exact_strict_sum(units, budget_units):
    """Costs k/64 are exact in binary, so the count is the largest T with sum(costs[:T]) < budget."""
    costs = [k / 64 for k in units]
    budget = budget_units / 64
    want = 0
    while want < len(costs) and sum(Fraction(k, 64) for k in units[:want + 1]) < Fraction(budget_units, 64):
        want += 1
    assert steps_within_budget(costs, budget) == want
    assert steps_within_budget(np.array(costs), budget) == want


@pytest.mark.parametrize("costs, budget, name", [
    ([1.0, -0.5], 1.0, r"costs\[1\]"),
    ([math.nan], 1.0, r"costs\[0\]"),
    ([[1.0]], 1.0, "costs"),
    ([1.0], -1.0, "budget"),
    ([1.0], math.inf, "budget"),
    ([1.0], math.nan, "budget"),
])
def test_bad_inputs_name_the_parameter(costs, budget, name):
    with pytest.raises(ValueError, match=rf"^{name} must .*Found"):
        steps_within_budget(costs, budget)


def _filter_by_hand(sigmas, R):
    residual, steps = R, 0
    for s in sigmas:
        request = 1.0 / (s * s)
        if not request < residual:
            break
        residual -= request
        steps += 1
    return steps, residual


@pytest.mark.parametrize("n, R", [(1000, 2.0), (600, 1e9), (255, 3.0), (257, 1e9), (512, 1e9)])
def test_budget_filter_counts_with_steps_within_budget_across_blocks(n, R):
    sigmas = list(np.linspace(0.5, 40.0, n)[::-1])
    res = P.budget_filter_privacy(sigmas, R)
    steps, residual = _filter_by_hand(sigmas, R)
    assert res.steps == steps == steps_within_budget([1.0 / (s * s) for s in sigmas], R)
    assert res.residual_budget == residual


def test_budget_filter_raises_on_a_bad_sigma_only_if_it_reaches_it():
    assert P.budget_filter_privacy([1.0] * 300 + [-1.0], 2.5).steps == 2
    with pytest.raises(ValueError, match=r"^sigmas\[300\] must"):
        P.budget_filter_privacy([1.0] * 300 + [-1.0], 1000.0)


# ------------------------------------------------------------------ the simulator's old filter, reproduced
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
