"""dpverify.sim.sgd_moments: exact moments of one-sample SGD against Monte Carlo (psgd and a direct loop),
in double precision and mpmath, and the gradient variance by hand. (Moved from tests/test_hdp.py.)

Statistical tolerances are stated next to each assertion (derived from the run counts); seeds fixed.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from dpverify.sim import LeastSquares, psgd
from dpverify.sim.sgd_moments import (gradient_variance, loss_expectation, loss_expectation_mp, sgd_moments,
                                      sgd_moments_mp)


def _ls(n=6, m=2, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (n, m))
    X /= np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1.0)
    return X, rng.uniform(-1, 1, n)


def test_sgd_moments_agree_with_psgd_monte_carlo():
    """E L(theta_{T+1}) - L* exactly vs psgd (batch 1) over 100000 runs: within 5 standard errors."""
    X, y = _ls()
    p = LeastSquares(X, y, 0.1)
    th1, T, s, eta = np.array([0.5, -0.3]), 8, 0.4, 0.7
    mom = sgd_moments(X, y, th1, eta, [s] * T, lam=0.1)
    exact = loss_expectation(X, y, mom.mean, mom.second, lam=0.1) - p.f_star
    r = psgd(p, th1, eta, np.full(T, s), 1, 100_000, 3)
    assert abs(r.mean - exact) <= 5 * r.stderr


def test_sgd_moments_in_mpmath_agree_with_double_precision():
    X, y = _ls(seed=1)
    th1 = np.array([0.2, 0.1])
    mom = sgd_moments(X, y, th1, 0.9, [0.3] * 5, gate=[1, 0, 1, 0, 1, 0])
    mean, S, vg = sgd_moments_mp(X, y, th1, 0.9, [0.3] * 5, gate=[1, 0, 1, 0, 1, 0], dps=40)
    assert float(loss_expectation_mp(X, y, mean, S)) == pytest.approx(loss_expectation(X, y, mom.mean, mom.second),
                                                                      rel=1e-12)
    assert [float(v) for v in vg] == pytest.approx(list(mom.var_grad), rel=1e-10)


def test_gradient_variance_by_hand():
    """At a deterministic theta: the variance over the samples of x_j (x_j^T theta - y_j)."""
    X, y = _ls(seed=2)
    th = np.array([0.3, -0.7])
    g = X * (X @ th - y)[:, None]
    by_hand = np.mean(np.sum(g * g, axis=1)) - np.sum(g.mean(axis=0) ** 2)
    assert gradient_variance(X, y, None, th, np.outer(th, th)) == pytest.approx(by_hand, rel=1e-12)


def test_gated_moments_by_monte_carlo():
    """Noise only on the steps that draw the gated samples: exact vs gated_sgd with a never-passing test is
    not it (that adds noise everywhere), so the gate is checked against a direct simulation: 200000 runs."""
    X, y = _ls(n=4, seed=3)
    gate = np.array([1.0, 0, 0, 1.0])
    th1, T, s, eta = np.array([0.1, 0.2]), 3, 0.8, 0.6
    mom = sgd_moments(X, y, th1, eta, [s] * T, gate=gate)
    exact = loss_expectation(X, y, mom.mean, mom.second)
    rng = np.random.default_rng(5)
    runs = 200_000
    th = np.repeat(th1[None], runs, 0)
    for _ in range(T):
        j = rng.integers(0, 4, runs)
        x = X[j]
        th = th - eta * (x * (np.einsum("rd,rd->r", x, th) - y[j])[:, None]
                         + (s * gate[j])[:, None] * rng.standard_normal((runs, 2)))
    vals = 0.5 * np.mean((th @ X.T - y) ** 2, axis=1)
    assert abs(vals.mean() - exact) <= 5 * vals.std() / math.sqrt(runs)
