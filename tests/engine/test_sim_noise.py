"""The simulators' noise parameter: the standard deviation per coordinate per step."""
from __future__ import annotations

import math

import numpy as np
import pytest

from dpverify import sim

_X = np.random.default_rng(0).normal(size=(30, 3)) * 2.0
_Y = _X @ np.array([1.0, -0.5, 0.2]) + 0.1
_PROBLEMS = {
    "quadratic": sim.Quadratic([0.2, 0.5, 1.0], theta_star=[1.0, -2.0, 0.5]),
    "least_squares": sim.LeastSquares(_X, _Y, lam=0.05),
    "logistic": sim.LogisticRegression(_X, np.sign(_Y), lam=0.1),
    "linear": sim.LinearLoss(_X),
}
_TH1 = np.array([0.3, -0.7, 1.1])
_ETAS = np.linspace(0.4, 0.1, 9)


def _gd_rows(p, rows: int) -> np.ndarray:
    """Deterministic gradient descent on ``rows`` copies of theta_1 (the simulator's shapes)."""
    theta = np.tile(_TH1, (rows, 1))
    for eta in _ETAS.tolist():
        theta = theta - eta * p.grad(theta)
    return theta


@pytest.mark.parametrize("name", sorted(_PROBLEMS))
def test_no_noise_is_deterministic_gradient_descent_exactly(name):
    p = _PROBLEMS[name]
    want = _gd_rows(p, 5)
    zero = np.zeros(len(_ETAS))
    res = sim.pgd(p, _TH1, _ETAS, zero, 5, 3, return_thetas=True, fast_path=False)
    assert np.array_equal(res.thetas, want)
    mom = sim.momentum_pgd(p, _TH1, _ETAS, zero, 0.0, 5, 3, return_thetas=True, fast_path=False)
    assert np.array_equal(mom.thetas, want)
    ta, tb = sim.coupled_pgd(p, p, _TH1, _ETAS, zero, 5, 3, fast_path=False)
    assert np.array_equal(ta, want) and np.array_equal(tb, want)
    # The fused kernels (numba) associate the arithmetic differently: equal to rounding.
    fused = sim.pgd(p, _TH1, _ETAS, zero, 5, 3, return_thetas=True)
    np.testing.assert_allclose(fused.thetas, want, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(want[0], sim.gd(p, _TH1, _ETAS, len(_ETAS)), rtol=1e-13, atol=1e-14)
    if name != "linear":           # a linear loss has no minimum: its excess risk is not finite
        assert res.var == pytest.approx(0.0, abs=1e-25)
        assert res.mean == pytest.approx(float(p.excess(want[:1])[0]), rel=1e-14)


@pytest.mark.parametrize("fast_path", [True, False])
@pytest.mark.parametrize("s", [0.05, 1.0, 7.0])
def test_one_step_variance_is_eta_squared_s_squared(s, fast_path):
    """From theta_1 = theta*, one step gives theta_2 = theta* - eta s nu: Var = eta^2 s^2 per coordinate."""
    q, eta, runs = _PROBLEMS["quadratic"], 0.3, 40_000
    res = sim.pgd(q, q.theta_star, eta, [s], runs, 11, return_thetas=True, fast_path=fast_path)
    var = np.var(res.thetas, axis=0, ddof=1)
    want = eta**2 * s**2
    # The sample variance of n normals has standard deviation want * sqrt(2 / (n - 1)); 5 of them.
    tol = 5.0 * want * math.sqrt(2.0 / (runs - 1))
    assert np.all(np.abs(var - want) <= tol)
    # The default statistic is the excess risk 1/2 sum lam_i delta_i^2, of mean eta^2 s^2 sum(lam) / 2.
    mean_excess = 0.5 * want * q.eigs.sum()
    assert abs(res.mean - mean_excess) <= 5.0 * res.stderr


def test_psgd_noise_is_the_given_standard_deviation():
    """On a linear loss every mini-batch gradient is the same: what varies is the noise alone."""
    p = sim.LinearLoss(np.tile([[1.0, -2.0, 0.5]], (4, 1)))
    eta, s, runs = 0.5, 0.8, 40_000
    res = sim.psgd(p, np.zeros(3), eta, [s], 3, runs, 2, return_thetas=True)
    var = np.var(res.thetas, axis=0, ddof=1)
    want = eta**2 * s**2
    assert np.all(np.abs(var - want) <= 5.0 * want * math.sqrt(2.0 / (runs - 1)))


@pytest.mark.parametrize("fast_path", [True, False])
def test_clipping_does_not_rescale_the_noise(fast_path):
    """Clipped and unclipped runs (same seed) differ by the deterministic clipped-gradient shift only."""
    p = _PROBLEMS["linear"]        # a constant gradient: its clipped version is a constant too
    etas, sig = [0.2, 0.2, 0.2], [0.7, 0.5, 0.3]
    a = sim.pgd(p, _TH1, etas, sig, 300, 4, clip=0.01, return_thetas=True, fast_path=fast_path).thetas
    b = sim.pgd(p, _TH1, etas, sig, 300, 4, clip=100.0, return_thetas=True, fast_path=fast_path).thetas
    shift = sim.gd(p, _TH1, etas, 3) - (_TH1 - 0.6 * p.grad(_TH1[None], 0.01)[0])
    np.testing.assert_allclose(a - b, np.tile(-shift, (300, 1)), atol=1e-12)
    assert np.std(a[:, 0]) > 0.05


def test_exact_moments_take_the_same_noise():
    """pgd_quadratic_mean_var with noise_stds s agrees with the simulator run with s."""
    q = _PROBLEMS["quadratic"]
    s = np.linspace(0.5, 0.1, len(_ETAS))
    mean, var = sim.pgd_quadratic_mean_var(q.eigs, _TH1, _ETAS, s, theta_star=q.theta_star)
    res = sim.pgd(q, _TH1, _ETAS, s, 40_000, 8)
    assert abs(res.mean - mean[0]) <= 5.0 * math.sqrt(var[0] / res.runs)
    mm, mv = sim.momentum_quadratic_mean_var(q.eigs, _TH1, _ETAS, s, 0.0, theta_star=q.theta_star)
    np.testing.assert_allclose([mm[0], mv[0]], [mean[0], var[0]], rtol=1e-12)
