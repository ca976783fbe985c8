"""Calibration of the Monte Carlo check (README: "Statistics to trust").

The statistic is f(theta_{T+1}) - f* of noisy GD on a 1-d quadratic started at the optimum: a
scaled chi-square with one degree of freedom, the most skewed case the simulator produces. Its
exact mean is known from moment propagation, so the bound "E <= exact" is true and tight: the
worst case for false violations. Each repetition is an independent Monte Carlo check with the
default runs (20000) and confidence (0.99), as `dpverify check` runs it.
"""
import numpy as np
import pytest

from dpverify import sim
from dpverify.checks.base import Config
from dpverify.checks.monte_carlo import decide
from dpverify.stats import bonferroni, mean_bounds

EIGS, THETA1, ETA, T = np.array([1.0]), np.array([0.0]), 0.5, 5
SIGMAS = np.full(T, 1.0)
REPS = 1000  # binomial standard error of a 1% rate over 1000 repetitions: 0.31%


@pytest.fixture(scope="module")
def repetitions():
    problem = sim.Quadratic(EIGS)
    exact = float(sim.pgd_quadratic_moments(EIGS, THETA1, ETA, SIGMAS, 1.0, 1.0)[0])
    runs = Config().runs
    out = [sim.pgd(problem, THETA1, ETA, SIGMAS, 1.0, 1.0, runs, seed=10_000 + r) for r in range(REPS)]
    return exact, runs, out


def test_false_violation_rate_at_most_one_percent(repetitions):
    exact, runs, results = repetitions
    conf = Config().confidence
    violated = sum(decide([(r.mean, r.var, exact)], runs, conf)[0] == "violated" for r in results)
    # Measured 0.5% (5/1000) with these seeds (0.7% over 2000 others); the guarantee is 1 - confidence.
    assert violated / REPS <= 1 - conf


def test_planted_bound_20_percent_too_small_is_detected(repetitions):
    exact, runs, results = repetitions
    detected = sum(decide([(r.mean, r.var, 0.8 * exact)], runs, Config().confidence)[0] == "violated"
                   for r in results)
    assert detected / REPS >= 0.95


def test_monte_carlo_mean_agrees_with_exact_moments(repetitions):
    exact, runs, results = repetitions
    # Tolerance: 4 standard errors from the exact variance and the run count.
    _, var = sim.pgd_quadratic_mean_var(EIGS, THETA1, ETA, SIGMAS, 1.0, 1.0)
    se = float(np.sqrt(var[0] / runs))
    worst = max(abs(r.mean - exact) for r in results[:50])
    assert worst <= 5 * se  # 50 draws: P(max |z| > 5) < 3e-5


def test_bonferroni_and_bounds():
    assert bonferroni(0.99, 4) == pytest.approx(0.0025)
    mb = mean_bounds(1.0, 4.0, 100, 0.025)
    assert mb.lower == pytest.approx(1 - 1.959964 * 0.2, rel=1e-6)
    assert mb.upper == pytest.approx(1 + 1.959964 * 0.2, rel=1e-6)
    for bad in (dict(mean=0, var=-1, runs=10, level=0.1), dict(mean=0, var=1, runs=1, level=0.1),
                dict(mean=0, var=1, runs=10, level=0.7)):
        with pytest.raises(ValueError):
            mean_bounds(**bad)
