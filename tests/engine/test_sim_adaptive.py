"""dpverify.sim.adaptive: simulated GD with a noise/step rule evaluated on the run's own gradient, against
plain GD, exact second moments (float and mpmath) and chunk sizes. (Moved from tests/test_pur.py.)

Statistical tolerances: a two-sided normal bound at level 1e-6 on the standard error measured by the
simulator itself; every seed is fixed.
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from scipy import stats

from dpverify.sim import Quadratic, gd
from dpverify.sim.adaptive import adaptive_gd, adaptive_moments, quadratic_path_moments
from dpverify.sim.problems import CosineSum

Z6 = stats.norm.isf(0.5e-6)     # two-sided 1e-6


def test_no_noise_is_exact_gd():
    q = Quadratic([0.1, 0.7, 2.0], theta_star=[1.0, -1.0, 0.5])
    th1 = np.array([3.0, 2.0, -1.0])
    res = adaptive_gd(q, th1, lambda t, g: (0.4, 0.0), 25, 3, 0, return_thetas=True)
    assert np.allclose(res.thetas, gd(q, th1, 0.4, 25)[None, :], rtol=0, atol=1e-14)
    p = CosineSum([1.0, 0.3])
    res = adaptive_gd(p, np.array([2.0, -1.0]), lambda t, g: (0.5, 0.0), 10, 2, 0, return_thetas=True)
    assert np.allclose(res.thetas, gd(p, [2.0, -1.0], 0.5, 10)[None, :], rtol=0, atol=1e-14)


def test_monte_carlo_of_the_data_dependent_rule_agrees_with_exact_moments():
    """sigma_t = ||grad F||/sqrt(d), eta = 1/(2M): the noise variance is ||g||^2/d, so the second moments are
    exact (linear recursion); the Monte Carlo mean must be within Z6 standard errors of them."""
    eigs, th1, T, M = np.array([0.05, 0.4, 1.0, 1.0]), np.array([1.0, -2.0, 0.5, 1.5]), 15, 1.0
    d = len(eigs)
    q = Quadratic(eigs)
    S = adaptive_moments(eigs, th1, [1 / (2 * M)] * T, [0.0] * T, [1 / d] * T)
    exact = quadratic_path_moments(eigs, S)
    res = adaptive_gd(q, th1, lambda t, g: (1 / (2 * M), g / math.sqrt(d)), T, 40000, 7, track=("grad_norm_sq",),
                      statistic=lambda th, tr: tr["grad_norm_sq"][:, 1:].mean(axis=1))
    want = float(np.mean(exact["grad_norm_sq"][1:]))
    assert abs(res.mean - want) <= Z6 * res.stderr
    res = adaptive_gd(q, th1, lambda t, g: (1 / (2 * M), g / math.sqrt(d)), T, 40000, 8)
    assert abs(res.mean - exact["excess"][-1]) <= Z6 * res.stderr
    # the mpmath route gives the same numbers
    Sm = adaptive_moments(eigs, th1, [1 / (2 * M)] * T, [0] * T, [mpmath.mpf(1) / d] * T, dps=40)
    assert float(quadratic_path_moments(eigs, Sm, dps=40)["excess"][-1]) == pytest.approx(exact["excess"][-1], rel=1e-12)


def test_results_do_not_depend_on_chunk_size():
    q = Quadratic([0.3, 1.0])
    rule = lambda t, g: (0.5, 0.2 * g + 0.1)  # noqa: E731
    a = adaptive_gd(q, [1.0, 1.0], rule, 12, 3000, 3, chunk_runs=1024)
    b = adaptive_gd(q, [1.0, 1.0], rule, 12, 3000, 3, chunk_runs=4096)
    assert a.mean == b.mean and a.var == b.var
