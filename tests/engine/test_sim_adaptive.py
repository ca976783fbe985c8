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


def test_path_moments_stream_the_recursion_in_memory_d_plus_t():
    """adaptive_path_moments gives what quadratic_path_moments gives on the full (T + 1) x d moments -- the same
    mpmath numbers to 27 digits of 30, double precision to rounding -- while keeping one iterate's moments at a time: an exact point
    of adaptive GD at 6e4 steps in 1e3 dimensions once grew its process to 24 GB."""
    import tracemalloc

    from dpverify.sim.adaptive import adaptive_path_moments

    rng = np.random.default_rng(3)
    d, T = 60, 300
    eigs, th1 = rng.uniform(0.01, 1.0, d), rng.normal(size=d)
    etas, a, b = [0.5] * T, [1e-3] * T, [1 / d] * T
    want = quadratic_path_moments(eigs, adaptive_moments(eigs, th1, etas, a, b))
    got = adaptive_path_moments(eigs, th1, etas, a, b)
    for key in ("excess", "grad_norm_sq", "dist_sq"):
        assert len(got[key]) == T + 1
        assert np.allclose(got[key], want[key], rtol=1e-13, atol=0)
    adaptive_path_moments(eigs[:2], th1[:2], etas[:2], a[:2], b[:2], dps=30)   # imports done before measuring
    peaks = []
    for full in (True, False):
        tracemalloc.start()
        if full:
            m = quadratic_path_moments(eigs, adaptive_moments(eigs, th1, etas, a, b, dps=30), dps=30)
        else:
            s = adaptive_path_moments(eigs, th1, etas, a, b, dps=30)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    for key in ("excess", "grad_norm_sq", "dist_sq"):     # exact products (fdot) against rounded ones (fsum)
        assert all(abs(u - v) <= 1e-27 * abs(v) for u, v in zip(s[key], m[key]))
    assert peaks[1] * 10 < peaks[0], peaks            # d T numbers kept against d + 3 T


def test_the_ball_arithmetic_path_agrees_with_mpmath_and_gives_way_where_its_balls_are_wide(monkeypatch):
    """The exact moments at dps digits come from python-flint's arb (an enclosure of every sum, its midpoint kept
    where the ball is narrower than 10^-dps of it); where it is not, the mpmath recursion runs instead."""
    from dpverify.sim import adaptive_exact as adaptive

    rng = np.random.default_rng(5)
    d, T = 8, 40
    eigs, th1 = rng.uniform(0.01, 1.0, d), rng.normal(size=d)
    args = (eigs, th1, [0.7] * T, [1e-3] * T, [1 / d] * T)
    ball = adaptive.adaptive_path_moments(*args, dps=40)
    monkeypatch.setattr(adaptive, "_arb_path_moments", lambda *a, **k: None)
    plain = adaptive.adaptive_path_moments(*args, dps=40)
    for key in ball:
        assert all(abs(u - v) <= mpmath.mpf(10) ** -37 * abs(v) for u, v in zip(ball[key], plain[key]))
    # a ball that cannot be made narrow enough is refused, not returned wide: 1 - eta lam with eta = 1/3 to 90
    # digits and lam = 3 cancels to a ball about 0 at both working precisions (the input has more bits than either)
    monkeypatch.undo()
    with mpmath.workdps(90):
        third = mpmath.mpf(1) / 3
    assert adaptive._arb_path_moments([mpmath.mpf(3)], [mpmath.mpf(1)], [third] * 3, [0] * 3, [0] * 3, 30) is None
    # numbers enter the balls exactly, with their sign (mpmath's mantissa is unsigned)
    from dpverify.sim.balls import to_arb
    assert float(to_arb(mpmath.mpf(-0.375)).mid()) == -0.375
    # and the same step with an exactly representable eta is exact: (1 - 0.5 * 2)^2 = 0
    exact = adaptive._arb_path_moments([2.0], [1.0], [0.5] * 3, [0.0] * 3, [0.0] * 3, 30)
    assert exact["excess"] == [1, 0, 0, 0]
