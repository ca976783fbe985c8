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
