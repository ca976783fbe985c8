"""dpverify.sim.random_round: SGD stopped at a random round, against exact moments and plain GD, its
closed form against its recursion, and the fast linear sampler against step-by-step simulation.
(Moved from tests/test_erm.py.)

Statistical tolerances are derived from the run counts (z = 4.5 standard errors: a false failure has
probability below 1e-5 per assertion); seeds are fixed.
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from dpverify import sim

Z = 4.5


def _close_mc(mean, se, exact):
    assert abs(mean - exact) <= Z * se + 1e-12 * abs(exact), (mean, se, exact)


def test_random_round_sgd_against_exact_moments_and_gd():
    q = sim.Quadratic([0.0, 0.4, 1.5], theta_star=[0.5, 1.0, -1.0])
    etas = np.linspace(0.1, 0.6, 12)
    probs = sim.random_round_probabilities(etas, 1.5)
    stat = lambda w: (q.grad(w) ** 2).sum(axis=1)  # noqa: E731
    mc = sim.random_round_sgd(q, np.zeros(3), etas, probs, 0.3, 120_000, 2, statistic=stat)
    _close_mc(mc.mean, mc.stderr, sim.random_round_quadratic(q.eigs, q.theta_star, np.zeros(3), etas, probs, 0.3,
                                                             "grad_norm_sq"))
    # no noise and R = T surely: plain gradient descent
    last = np.zeros(12)
    last[-1] = 1.0
    res = sim.random_round_sgd(q, np.zeros(3), etas, last, 0.0, 4, 0, return_thetas=True)
    w = np.zeros(3)
    for e in etas:
        w = w - e * q.grad(w[None, :])[0]
    assert np.allclose(res.thetas, w[None, :], atol=1e-15)
    a = sim.random_round_sgd(q, np.zeros(3), etas, probs, 0.3, 2500, 9, chunk_runs=1024, statistic=stat)
    b = sim.random_round_sgd(q, np.zeros(3), etas, probs, 0.3, 2500, 9, statistic=stat)
    assert a.mean == b.mean


def test_random_round_closed_form_equals_the_recursion():
    eigs, ws = [0.0, 0.3, 1.0, 1.9], [1.0, -1.0, 2.0, 0.5]
    T = 37
    via_closed = sim.random_round_quadratic_constant(eigs, ws, [0] * 4, 0.9, T, 0.4, "grad_norm_sq")
    probs = np.full(T, 1.0 / T)
    probs[0] += 1e-15
    probs /= probs.sum()      # defeats the constant-step shortcut
    via_loop = sim.random_round_quadratic(eigs, ws, [0] * 4, np.full(T, 0.9), probs, 0.4, "grad_norm_sq")
    assert via_closed == pytest.approx(via_loop, rel=1e-12)


def test_linear_random_round_sampler_matches_step_by_step_simulation():
    n = 4
    X = np.full((n, 1), -1.0)
    X[-1, 0] = 1.0
    probs = np.full(n * n, 1.0 / (n * n))
    step = sim.random_round_sgd(sim.LinearLoss(X), np.zeros(1), np.full(n * n, 0.2), probs, 0.7, 100_000, 1,
                                statistic=lambda w: w[:, 0], return_thetas=True).thetas[:, 0]
    fast = sim.random_round_linear(np.random.default_rng(0), 100_000, np.zeros(1), 0.2, probs,
                                   np.array([[-1.0], [1.0]]), np.array([n - 1.0, 1.0]), 0.7)[:, 0]
    assert stats.ks_2samp(step, fast).pvalue > 1e-4
